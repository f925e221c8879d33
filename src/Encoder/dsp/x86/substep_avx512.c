/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the substep truncation (rl_substep_lines) for AVX-512 F/BW/VL
 * (compiled with those flags): sixteen lines per comparison, the last ones
 * under a mask, the same float comparison per line. */
#include <immintrin.h>

#include "x86_kernels.h"

void rl_substep_lines_avx512(int *ix, const float *xrpow, int n, float roundfac)
{
    __m512 const r = _mm512_set1_ps(roundfac);
    for (int i = 0; i < n; i += 16) {
        __mmask16 const k = n - i >= 16 ? (__mmask16) 0xffff : (__mmask16) ((1u << (n - i)) - 1u);
        __m512 const x = _mm512_maskz_loadu_ps(k, xrpow + i);
        __mmask16 const keep = _mm512_mask_cmp_ps_mask(k, x, r, _CMP_GE_OQ);
        _mm512_mask_storeu_epi32(ix + i, k, _mm512_maskz_loadu_epi32(keep, ix + i));
    }
}
