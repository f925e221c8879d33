/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: rl_choose_table for SSE4.1 (compiled with -msse4.1): vector max
 * and escape counts, table lookups per pair (no gather before AVX2). */
#include <smmintrin.h>
#include <stdint.h>

#include "huffman_tables.h"
#include "x86_kernels.h"

static int hc_max(const int *ix, int n)
{
    __m128i m0 = _mm_setzero_si128(), m1 = _mm_setzero_si128();
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        m0 = _mm_max_epi32(m0, _mm_loadu_si128((const __m128i *) (ix + i)));
        m1 = _mm_max_epi32(m1, _mm_loadu_si128((const __m128i *) (ix + i + 4)));
    }
    m0 = _mm_max_epi32(m0, m1);
    m0 = _mm_max_epi32(m0, _mm_shuffle_epi32(m0, _MM_SHUFFLE(1, 0, 3, 2)));
    m0 = _mm_max_epi32(m0, _mm_shuffle_epi32(m0, _MM_SHUFFLE(2, 3, 0, 1)));
    int max = _mm_cvtsi128_si32(m0);
    for (; i < n; i++)
        if (max < ix[i])
            max = ix[i];
    return max;
}

static uint32_t hc_tail(const int *ix, int from, int npairs, const uint32_t *tab, int xlen,
                        uint32_t *mid);

static uint32_t hc_sum(const int *ix, int npairs, const uint32_t *tab, int xlen, uint32_t *mid)
{
    __m128i const xl = _mm_set1_epi32(xlen);
    uint32_t s0 = 0, s1 = 0, m0 = 0, m1 = 0;
    int p = 0;
    for (; p + 4 <= npairs; p += 4) {
        __m128i a = _mm_loadu_si128((const __m128i *) (ix + 2 * p));
        __m128i b = _mm_loadu_si128((const __m128i *) (ix + 2 * p + 4));
        /* x * xlen + y for the four pairs */
        __m128i ia = _mm_add_epi64(_mm_mul_epu32(a, xl), _mm_srli_epi64(a, 32));
        __m128i ib = _mm_add_epi64(_mm_mul_epu32(b, xl), _mm_srli_epi64(b, 32));
        __m128i idx = _mm_blend_epi16(ia, _mm_slli_epi64(ib, 32), 0xcc);
        uint32_t e0 = tab[_mm_cvtsi128_si32(idx)];
        uint32_t e1 = tab[_mm_extract_epi32(idx, 1)];
        uint32_t e2 = tab[_mm_extract_epi32(idx, 2)];
        uint32_t e3 = tab[_mm_extract_epi32(idx, 3)];
        s0 += (e0 & 0x00ff00ffu) + (e1 & 0x00ff00ffu);
        s1 += (e2 & 0x00ff00ffu) + (e3 & 0x00ff00ffu);
        m0 += ((e0 >> 8) & 0xffu) + ((e1 >> 8) & 0xffu);
        m1 += ((e2 >> 8) & 0xffu) + ((e3 >> 8) & 0xffu);
    }
    *mid += m0 + m1;
    return s0 + s1 + hc_tail(ix, p, npairs, tab, xlen, mid);
}

static uint32_t hc_tail_esc(const int *ix, int from, int npairs, uint32_t linbits);

static uint32_t hc_sum_esc(const int *ix, int npairs, uint32_t linbits)
{
    __m128i const c15 = _mm_set1_epi32(15), c14 = _mm_set1_epi32(14), c16 = _mm_set1_epi32(16);
    __m128i cnt = _mm_setzero_si128();
    uint32_t s = 0;
    int p = 0;
    for (; p + 4 <= npairs; p += 4) {
        __m128i a = _mm_loadu_si128((const __m128i *) (ix + 2 * p));
        __m128i b = _mm_loadu_si128((const __m128i *) (ix + 2 * p + 4));
        cnt = _mm_sub_epi32(cnt, _mm_cmpgt_epi32(a, c14));
        cnt = _mm_sub_epi32(cnt, _mm_cmpgt_epi32(b, c14));
        a = _mm_min_epu32(a, c15);
        b = _mm_min_epu32(b, c15);
        __m128i ia = _mm_add_epi64(_mm_mul_epu32(a, c16), _mm_srli_epi64(a, 32));
        __m128i ib = _mm_add_epi64(_mm_mul_epu32(b, c16), _mm_srli_epi64(b, 32));
        __m128i idx = _mm_blend_epi16(ia, _mm_slli_epi64(ib, 32), 0xcc);
        s += rl_largetbl[_mm_cvtsi128_si32(idx)] + rl_largetbl[_mm_extract_epi32(idx, 1)]
             + rl_largetbl[_mm_extract_epi32(idx, 2)] + rl_largetbl[_mm_extract_epi32(idx, 3)];
    }
    cnt = _mm_add_epi32(cnt, _mm_shuffle_epi32(cnt, _MM_SHUFFLE(1, 0, 3, 2)));
    cnt = _mm_add_epi32(cnt, _mm_shuffle_epi32(cnt, _MM_SHUFFLE(2, 3, 0, 1)));
    s += (uint32_t) _mm_cvtsi128_si32(cnt) * linbits;
    return s + hc_tail_esc(ix, p, npairs, linbits);
}

#define RL_HC_NAME rl_choose_table_sse41
#include "hc_driver.h"
