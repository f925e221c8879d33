/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: calc_noise's per-line squares (rl_noise_lines) for AVX-512
 * (compiled with -mavx512f): sixteen lines at once, the last ones masked,
 * each with the scalar operations (float |x|, float product pow43 * step,
 * float difference, float square).  pow43 of values below 32 comes from
 * two registers by a permute, of larger ones by a gather.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <immintrin.h>

#include "quant_tables.h"
#include "quantize_noise.h"
#include "x86_kernels.h"

void rl_noise_lines_avx512(const float *xr, const int *ix, int n, float step, float *sq)
{
    __m512 const s = _mm512_set1_ps(step);
    __m512 const lo = _mm512_loadu_ps(rl_pow43), hi = _mm512_loadu_ps(rl_pow43 + 16);
    __m512i const top = _mm512_set1_epi32(31);
    for (int i = 0; i < n; i += 16) {
        __mmask16 const m = n - i >= 16 ? (__mmask16) 0xffff : (__mmask16) ((1u << (n - i)) - 1);
        __m512i const k = _mm512_maskz_loadu_epi32(m, ix + i);   /* masked lanes: pow43[0] */
        __m512 p = _mm512_permutex2var_ps(lo, k, hi);
        __mmask16 const big = _mm512_cmpgt_epi32_mask(k, top);
        if (big)
            p = _mm512_mask_i32gather_ps(p, big, k, rl_pow43, 4);
        __m512 const t = _mm512_sub_ps(_mm512_abs_ps(_mm512_maskz_loadu_ps(m, xr + i)),
                                       _mm512_mul_ps(p, s));
        _mm512_mask_storeu_ps(sq + i, m, _mm512_mul_ps(t, t));
    }
}
