/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: calc_noise's per-line squares (rl_noise_lines) for SSE4.1
 * (compiled with -msse4.1): four lines at once, each with the scalar
 * operations (float |x|, float product pow43 * step, float difference,
 * float square); the table values are four loads.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <smmintrin.h>

#include "quant_tables.h"
#include "quantize_noise.h"
#include "x86_kernels.h"

void rl_noise_lines_sse41(const float *xr, const int *ix, int n, float step, float *sq)
{
    __m128 const absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 const s = _mm_set1_ps(step);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 const p = _mm_setr_ps(rl_pow43[ix[i]], rl_pow43[ix[i + 1]], rl_pow43[ix[i + 2]],
                                     rl_pow43[ix[i + 3]]);
        __m128 const t = _mm_sub_ps(_mm_and_ps(_mm_loadu_ps(xr + i), absmask), _mm_mul_ps(p, s));
        _mm_storeu_ps(sq + i, _mm_mul_ps(t, t));
    }
    if (i < n)
        rl_noise_lines(xr + i, ix + i, n - i, step, sq + i);
}
