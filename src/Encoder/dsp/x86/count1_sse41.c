/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the count1 region for SSE4.1 (compiled with -msse4.1): sixteen
 * lines narrowed to bytes, their comparisons' sign bits as masks. */
#include <smmintrin.h>

#include "x86_kernels.h"

static inline void lines16(const int *p, unsigned *nz, unsigned *gt)
{
    /* values >= 0 narrow with signed saturation: zero stays zero, above 1
     * stays above 1 */
    __m128i const a = _mm_packs_epi32(_mm_loadu_si128((const __m128i *) p),
                                      _mm_loadu_si128((const __m128i *) (p + 4)));
    __m128i const b = _mm_packs_epi32(_mm_loadu_si128((const __m128i *) (p + 8)),
                                      _mm_loadu_si128((const __m128i *) (p + 12)));
    __m128i const v = _mm_packs_epi16(a, b);
    *nz = ~(unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xffffu;
    *gt = (unsigned) _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(1)));
}

#define RL_COUNT1_NAME rl_count1_region_sse41
#include "count1_body.h"
