/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: |xr|^(3/4) for AVX2 (compiled with -mavx2): four lines at
 * once, each with the scalar operations (float |x|, double sqrt, double
 * product, double sqrt, rounded to float); the maxima are order-free. */
#include <immintrin.h>

#include "x86_kernels.h"

float rl_xrpow_lines_avx2(const float *xr, float *xrpow, int n, float *absmax)
{
    __m128 const absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 vmax = _mm_setzero_ps(), amax = _mm_setzero_ps();
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 const t = _mm_and_ps(_mm_loadu_ps(xr + i), absmask);
        __m256d const d = _mm256_cvtps_pd(t);
        __m128 const p = _mm256_cvtpd_ps(_mm256_sqrt_pd(_mm256_mul_pd(d, _mm256_sqrt_pd(d))));
        _mm_storeu_ps(xrpow + i, p);
        amax = _mm_max_ps(amax, t);
        vmax = _mm_max_ps(vmax, p);
    }
    float m[4], a[4];
    _mm_storeu_ps(m, vmax);
    _mm_storeu_ps(a, amax);
    float max = m[0], am = a[0];
    for (int l = 1; l < 4; l++) {
        max = m[l] > max ? m[l] : max;
        am = a[l] > am ? a[l] : am;
    }
    for (; i < n; i++) {            /* the last lines as the scalar kernel */
        __m128d const d = _mm_cvtss_sd(_mm_setzero_pd(), _mm_and_ps(_mm_load_ss(xr + i), absmask));
        float const p = _mm_cvtss_f32(_mm_cvtsd_ss(_mm_setzero_ps(), _mm_sqrt_sd(d, _mm_mul_sd(d, _mm_sqrt_sd(d, d)))));
        float const t = _mm_cvtss_f32(_mm_and_ps(_mm_load_ss(xr + i), absmask));
        xrpow[i] = p;
        max = p > max ? p : max;
        am = t > am ? t : am;
    }
    *absmax = am;
    return max;
}
