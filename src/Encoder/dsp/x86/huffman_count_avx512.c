/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: rl_choose_table for AVX-512 F/BW/VL (compiled with those
 * flags): sixteen pair indices per vector, tables of up to 16 entries held
 * in a register (permute), larger ones in several (permutes and masks). */
#include <immintrin.h>
#include <stdint.h>

#include "huffman_tables.h"
#include "x86_kernels.h"

static int hc_max(const int *ix, int n)
{
    __m512i m0 = _mm512_setzero_si512(), m1 = _mm512_setzero_si512();
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        m0 = _mm512_max_epi32(m0, _mm512_loadu_si512((const void *) (ix + i)));
        m1 = _mm512_max_epi32(m1, _mm512_loadu_si512((const void *) (ix + i + 16)));
    }
    if (i + 16 <= n) {
        m0 = _mm512_max_epi32(m0, _mm512_loadu_si512((const void *) (ix + i)));
        i += 16;
    }
    if (i < n) {
        __mmask16 k = (__mmask16) ((1u << (n - i)) - 1u);
        m1 = _mm512_max_epi32(m1, _mm512_maskz_loadu_epi32(k, ix + i));
    }
    return _mm512_reduce_max_epi32(_mm512_max_epi32(m0, m1));
}

/* x * xlen + y of the sixteen pairs in ix[0..32), in some order. */
static inline __m512i pair_index(__m512i a, __m512i b, __m512i xl)
{
    __m512i ia = _mm512_add_epi64(_mm512_mul_epu32(a, xl), _mm512_srli_epi64(a, 32));
    __m512i ib = _mm512_add_epi64(_mm512_mul_epu32(b, xl), _mm512_srli_epi64(b, 32));
    return _mm512_mask_blend_epi32(0xaaaa, ia, _mm512_slli_epi64(ib, 32));
}

/* tab[i] for sixteen indices 0 <= i < 32 * nq by permutes of pairs of
 * registers, each lane taking the pair its index falls in (a gather is
 * slower on AMD Zen 4) */
static inline __m512i lookup(const uint32_t *tab, __m512i i, int nq)
{
    __m512i r = _mm512_permutex2var_epi32(_mm512_loadu_si512((const void *) tab), i,
                                          _mm512_loadu_si512((const void *) (tab + 16)));
    __m512i const q = _mm512_srli_epi32(i, 5);
    for (int k = 1; k < nq; k++) {
        __m512i const p = _mm512_permutex2var_epi32(_mm512_loadu_si512((const void *) (tab + 32 * k)), i,
                                                    _mm512_loadu_si512((const void *) (tab + 32 * k + 16)));
        r = _mm512_mask_mov_epi32(r, _mm512_cmpeq_epi32_mask(q, _mm512_set1_epi32(k)), p);
    }
    return r;
}

static uint32_t hc_tail(const int *ix, int from, int npairs, const uint32_t *tab, int xlen,
                        uint32_t *mid);

static uint32_t hc_sum(const int *ix, int npairs, const uint32_t *tab, int xlen, uint32_t *mid)
{
    __m512i const xl = _mm512_set1_epi32(xlen);
    __m512i const lo = _mm512_set1_epi32(0x00ff00ff), b1 = _mm512_set1_epi32(0xff);
    __m512i s = _mm512_setzero_si512(), m = _mm512_setzero_si512();
    int p = 0;
    if (xlen * xlen <= 16) {
        /* tables 1, 2|3, 5|6: padded to 16 entries, no byte 1 */
        __m512i const t = _mm512_loadu_si512((const void *) tab);
        for (; p + 16 <= npairs; p += 16) {
            __m512i a = _mm512_loadu_si512((const void *) (ix + 2 * p));
            __m512i b = _mm512_loadu_si512((const void *) (ix + 2 * p + 16));
            s = _mm512_add_epi32(s, _mm512_permutexvar_epi32(pair_index(a, b, xl), t));
        }
        uint32_t r = (uint32_t) _mm512_reduce_add_epi32(s);
        return r + hc_tail(ix, p, npairs, tab, xlen, mid);
    }
    int const nq = xlen * xlen <= 64 ? 2 : 8;   /* g7, g10: 64 entries; g13: 256 */
    for (; p + 16 <= npairs; p += 16) {
        __m512i a = _mm512_loadu_si512((const void *) (ix + 2 * p));
        __m512i b = _mm512_loadu_si512((const void *) (ix + 2 * p + 16));
        __m512i e = lookup(tab, pair_index(a, b, xl), nq);
        s = _mm512_add_epi32(s, _mm512_and_si512(e, lo));
        m = _mm512_add_epi32(m, _mm512_and_si512(_mm512_srli_epi32(e, 8), b1));
    }
    *mid += (uint32_t) _mm512_reduce_add_epi32(m);
    return (uint32_t) _mm512_reduce_add_epi32(s) + hc_tail(ix, p, npairs, tab, xlen, mid);
}

static uint32_t hc_tail_esc(const int *ix, int from, int npairs, uint32_t linbits);

static uint32_t hc_sum_esc(const int *ix, int npairs, uint32_t linbits)
{
    __m512i const c15 = _mm512_set1_epi32(15), c16 = _mm512_set1_epi32(16);
    __m512i s = _mm512_setzero_si512();
    uint32_t cnt = 0;
    int p = 0;
    for (; p + 16 <= npairs; p += 16) {
        __m512i a = _mm512_loadu_si512((const void *) (ix + 2 * p));
        __m512i b = _mm512_loadu_si512((const void *) (ix + 2 * p + 16));
        cnt += (uint32_t) __builtin_popcount(_mm512_cmpgt_epi32_mask(a, _mm512_set1_epi32(14)));
        cnt += (uint32_t) __builtin_popcount(_mm512_cmpgt_epi32_mask(b, _mm512_set1_epi32(14)));
        a = _mm512_min_epu32(a, c15);
        b = _mm512_min_epu32(b, c15);
        s = _mm512_add_epi32(s, lookup(rl_largetbl, pair_index(a, b, c16), 8));
    }
    return (uint32_t) _mm512_reduce_add_epi32(s) + cnt * linbits
           + hc_tail_esc(ix, p, npairs, linbits);
}

#define RL_HC_NAME rl_choose_table_avx512
#include "hc_driver.h"
