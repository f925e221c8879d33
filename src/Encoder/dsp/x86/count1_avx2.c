/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the count1 region for AVX2 (compiled with -mavx2): eight lines
 * per vector, their comparisons' sign bits gathered into masks. */
#include <immintrin.h>

#include "x86_kernels.h"

static inline unsigned masks8(__m256i v, unsigned *gt)
{
    *gt = (unsigned) _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(1))));
    return ~(unsigned) _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256())))
           & 0xffu;
}

static inline void lines16(const int *p, unsigned *nz, unsigned *gt)
{
    unsigned g0, g1;
    unsigned const n0 = masks8(_mm256_loadu_si256((const __m256i *) p), &g0);
    unsigned const n1 = masks8(_mm256_loadu_si256((const __m256i *) (p + 8)), &g1);
    *nz = n0 | n1 << 8;
    *gt = g0 | g1 << 8;
}

#define RL_COUNT1_NAME rl_count1_region_avx2
#include "count1_body.h"
