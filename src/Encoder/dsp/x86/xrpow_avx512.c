/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: |xr|^(3/4) for AVX-512 (compiled with -mavx512f, -mavx512bw,
 * -mavx512vl): eight lines at once, each with the scalar operations (float
 * |x|, double sqrt, double product, double sqrt, rounded to float), the
 * last ones under a mask; the maxima are order-free. */
#include <immintrin.h>

#include "x86_kernels.h"

float rl_xrpow_lines_avx512(const float *xr, float *xrpow, int n, float *absmax)
{
    __m256 const absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 vmax = _mm256_setzero_ps(), amax = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 8) {
        __mmask8 const m = n - i >= 8 ? (__mmask8) 0xff : (__mmask8) ((1u << (n - i)) - 1u);
        __m256 const t = _mm256_and_ps(_mm256_maskz_loadu_ps(m, xr + i), absmask);
        __m512d const d = _mm512_cvtps_pd(t);
        __m256 const p = _mm512_cvtpd_ps(_mm512_sqrt_pd(_mm512_mul_pd(d, _mm512_sqrt_pd(d))));
        _mm256_mask_storeu_ps(xrpow + i, m, p);
        amax = _mm256_max_ps(amax, t);      /* masked-off lanes are +0 */
        vmax = _mm256_max_ps(vmax, p);
    }
    __m128 am = _mm_max_ps(_mm256_castps256_ps128(amax), _mm256_extractf128_ps(amax, 1));
    __m128 vm = _mm_max_ps(_mm256_castps256_ps128(vmax), _mm256_extractf128_ps(vmax, 1));
    am = _mm_max_ps(am, _mm_movehl_ps(am, am));
    vm = _mm_max_ps(vm, _mm_movehl_ps(vm, vm));
    am = _mm_max_ss(am, _mm_movehdup_ps(am));
    vm = _mm_max_ss(vm, _mm_movehdup_ps(vm));
    *absmax = _mm_cvtss_f32(am);
    return _mm_cvtss_f32(vm);
}
