/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the substep truncation (rl_substep_lines) for SSE4.1 (compiled
 * with -msse4.1): four lines per comparison, the same float comparison per
 * line. */
#include <smmintrin.h>

#include "x86_kernels.h"

void rl_substep_lines_sse41(int *ix, const float *xrpow, int n, float roundfac)
{
    __m128 const r = _mm_set1_ps(roundfac);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i const keep = _mm_castps_si128(_mm_cmpge_ps(_mm_loadu_ps(xrpow + i), r));
        __m128i const v = _mm_loadu_si128((const __m128i *) (ix + i));
        _mm_storeu_si128((__m128i *) (ix + i), _mm_and_si128(v, keep));
    }
    for (; i < n; i++)
        ix[i] &= -(int) (xrpow[i] >= roundfac);
}
