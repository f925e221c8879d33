/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: rl_choose_table for AVX2 (compiled with -mavx2): vector max,
 * eight pair indices per gather, escape counts by compare. */
#include <immintrin.h>
#include <stdint.h>

#include "huffman_tables.h"
#include "x86_kernels.h"

static int hc_max(const int *ix, int n)
{
    __m256i m0 = _mm256_setzero_si256(), m1 = _mm256_setzero_si256();
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        m0 = _mm256_max_epi32(m0, _mm256_loadu_si256((const __m256i *) (ix + i)));
        m1 = _mm256_max_epi32(m1, _mm256_loadu_si256((const __m256i *) (ix + i + 8)));
    }
    m0 = _mm256_max_epi32(m0, m1);
    __m128i m = _mm_max_epi32(_mm256_castsi256_si128(m0), _mm256_extracti128_si256(m0, 1));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    int max = _mm_cvtsi128_si32(m);
    for (; i < n; i++)
        if (max < ix[i])
            max = ix[i];
    return max;
}

static inline uint32_t hsum256(__m256i v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t) _mm_cvtsi128_si32(s);
}

/* x * xlen + y of the eight pairs in ix[0..16), in some order. */
static inline __m256i pair_index(const int *ix, __m256i xl)
{
    __m256i a = _mm256_loadu_si256((const __m256i *) ix);
    __m256i b = _mm256_loadu_si256((const __m256i *) (ix + 8));
    __m256i ia = _mm256_add_epi64(_mm256_mul_epu32(a, xl), _mm256_srli_epi64(a, 32));
    __m256i ib = _mm256_add_epi64(_mm256_mul_epu32(b, xl), _mm256_srli_epi64(b, 32));
    return _mm256_blend_epi32(ia, _mm256_slli_epi64(ib, 32), 0xaa);
}

static uint32_t hc_tail(const int *ix, int from, int npairs, const uint32_t *tab, int xlen,
                        uint32_t *mid);

static uint32_t hc_sum(const int *ix, int npairs, const uint32_t *tab, int xlen, uint32_t *mid)
{
    __m256i const xl = _mm256_set1_epi32(xlen);
    __m256i const lo = _mm256_set1_epi32(0x00ff00ff), b1 = _mm256_set1_epi32(0xff);
    __m256i s = _mm256_setzero_si256(), m = _mm256_setzero_si256();
    int p = 0;
    for (; p + 8 <= npairs; p += 8) {
        __m256i e = _mm256_i32gather_epi32((const int *) tab, pair_index(ix + 2 * p, xl), 4);
        s = _mm256_add_epi32(s, _mm256_and_si256(e, lo));
        m = _mm256_add_epi32(m, _mm256_and_si256(_mm256_srli_epi32(e, 8), b1));
    }
    *mid += hsum256(m);
    return hsum256(s) + hc_tail(ix, p, npairs, tab, xlen, mid);
}

static uint32_t hc_tail_esc(const int *ix, int from, int npairs, uint32_t linbits);

static uint32_t hc_sum_esc(const int *ix, int npairs, uint32_t linbits)
{
    __m256i const c15 = _mm256_set1_epi32(15), c14 = _mm256_set1_epi32(14);
    __m256i const c16 = _mm256_set1_epi32(16);
    __m256i cnt = _mm256_setzero_si256(), s = _mm256_setzero_si256();
    int p = 0;
    for (; p + 8 <= npairs; p += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *) (ix + 2 * p));
        __m256i b = _mm256_loadu_si256((const __m256i *) (ix + 2 * p + 8));
        cnt = _mm256_sub_epi32(cnt, _mm256_cmpgt_epi32(a, c14));
        cnt = _mm256_sub_epi32(cnt, _mm256_cmpgt_epi32(b, c14));
        a = _mm256_min_epu32(a, c15);
        b = _mm256_min_epu32(b, c15);
        __m256i ia = _mm256_add_epi64(_mm256_mul_epu32(a, c16), _mm256_srli_epi64(a, 32));
        __m256i ib = _mm256_add_epi64(_mm256_mul_epu32(b, c16), _mm256_srli_epi64(b, 32));
        __m256i idx = _mm256_blend_epi32(ia, _mm256_slli_epi64(ib, 32), 0xaa);
        s = _mm256_add_epi32(s, _mm256_i32gather_epi32((const int *) rl_largetbl, idx, 4));
    }
    return hsum256(s) + hsum256(cnt) * linbits + hc_tail_esc(ix, p, npairs, linbits);
}

#define RL_HC_NAME rl_choose_table_avx2
#include "hc_driver.h"
