/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: calc_noise's per-line squares (rl_noise_lines) for AVX2
 * (compiled with -mavx2): eight lines at once, each with the scalar
 * operations (float |x|, float product pow43 * step, float difference,
 * float square).  pow43 of values below 16 (nearly all of a CBR search's)
 * comes from two registers by permutes, of larger ones by a gather.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <immintrin.h>

#include "quant_tables.h"
#include "quantize_noise.h"
#include "x86_kernels.h"

void rl_noise_lines_avx2(const float *xr, const int *ix, int n, float step, float *sq)
{
    __m256 const absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 const s = _mm256_set1_ps(step);
    __m256 const lo = _mm256_loadu_ps(rl_pow43), hi = _mm256_loadu_ps(rl_pow43 + 8);
    __m256i const seven = _mm256_set1_epi32(7), fifteen = _mm256_set1_epi32(15);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i const k = _mm256_loadu_si256((const __m256i *) (ix + i));
        __m256 p;
        if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(k, fifteen))))
            p = _mm256_i32gather_ps(rl_pow43, k, 4);
        else
            p = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, k), _mm256_permutevar8x32_ps(hi, k),
                                 _mm256_castsi256_ps(_mm256_cmpgt_epi32(k, seven)));
        __m256 const t = _mm256_sub_ps(_mm256_and_ps(_mm256_loadu_ps(xr + i), absmask),
                                       _mm256_mul_ps(p, s));
        _mm256_storeu_ps(sq + i, _mm256_mul_ps(t, t));
    }
    if (i < n)
        rl_noise_lines(xr + i, ix + i, n - i, step, sq + i);
}
