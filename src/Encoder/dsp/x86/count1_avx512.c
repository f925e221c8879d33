/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the count1 region for AVX-512 F/BW/VL (compiled with those
 * flags): sixteen lines per vector, tested into two masks. */
#include <immintrin.h>

#include "x86_kernels.h"

static inline void lines16(const int *p, unsigned *nz, unsigned *gt)
{
    __m512i const v = _mm512_loadu_si512((const void *) p);
    *nz = _mm512_test_epi32_mask(v, v);
    *gt = _mm512_cmpgt_epi32_mask(v, _mm512_set1_epi32(1));
}

#define RL_COUNT1_NAME rl_count1_region_avx512
#include "count1_body.h"
