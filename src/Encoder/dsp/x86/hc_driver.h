/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the table choice of rl_choose_table (huffman_count.c) around
 * three vector primitives, included by each x86 kernel file after it has
 * defined them for its ISA:
 *   int      hc_max(const int *ix, int n)        max of ix[0..n), n even
 *   uint32_t hc_sum(const int *ix, int npairs, const uint32_t *tab, int xlen,
 *                   uint32_t *mid)
 *            sum over the pairs of e = tab[x0 * xlen + x1] & 0x00ff00ff;
 *            *mid = sum of (e >> 8) & 0xff (byte 1)
 *   uint32_t hc_sum_esc(const int *ix, int npairs, uint32_t linbits)
 *            sum over the pairs of rl_largetbl[min(x0,15) * 16 + min(x1,15)]
 *            plus linbits per value >= 15
 * and RL_HC_NAME, the kernel's name.  All sums are modulo 2^32, as the
 * scalar code's unsigned ones: the order of the additions does not matter.
 * Runs shorter than RL_HC_MIN values go to the scalar kernel. */
#ifndef RL_HC_NAME
#error "define RL_HC_NAME and the hc_* primitives first"
#endif

#include <stddef.h>

#include "huffman_count.h"
#include "huffman_tables.h"

#ifndef RL_HC_MIN
#define RL_HC_MIN 16
#endif

/* Scalar remainder of hc_sum: pairs [from, npairs). */
static inline uint32_t hc_tail(const int *ix, int from, int npairs, const uint32_t *tab, int xlen,
                               uint32_t *mid)
{
    uint32_t s = 0, m = 0;
    for (int p = from; p < npairs; p++) {
        uint32_t e = tab[ix[2 * p] * xlen + ix[2 * p + 1]];
        s += e & 0x00ff00ffu;
        m += (e >> 8) & 0xffu;
    }
    *mid += m;
    return s;
}

static inline uint32_t hc_tail_esc(const int *ix, int from, int npairs, uint32_t linbits)
{
    uint32_t s = 0;
    for (int p = from; p < npairs; p++) {
        unsigned int x = (unsigned int) ix[2 * p], y = (unsigned int) ix[2 * p + 1];
        if (x >= 15u) {
            x = 15u;
            s += linbits;
        }
        if (y >= 15u) {
            y = 15u;
            s += linbits;
        }
        s += rl_largetbl[x * 16u + y];
    }
    return s;
}

int RL_HC_NAME(const int *ix, const int *end, int *bits)
{
    ptrdiff_t const n = end - ix;
    if (n < RL_HC_MIN)
        return rl_choose_table(ix, end, bits);

    int const npairs = (int) ((n + 1) / 2);
    uint32_t sum = (uint32_t) *bits;
    unsigned int max = (unsigned int) hc_max(ix, 2 * npairs);
    uint32_t mid = 0, s;
    int t;

    if (max == 0) {
        t = 0;
    } else if (max == 1) {
        sum += hc_sum(ix, npairs, rl_hc_wide.p1, 2, &mid);
        t = 1;
    } else if (max <= 3) {
        t = max == 2 ? 2 : 5;
        s = hc_sum(ix, npairs, max == 2 ? rl_hc_wide.p23 : rl_hc_wide.p56, (int) max + 1, &mid);
        uint32_t lo = s & 0xffffu;
        s >>= 16;
        if (s > lo) {
            s = lo;
            t++;
        }
        sum += s;
    } else if (max <= 15) {
        const uint32_t *g;
        int xlen;
        if (max <= 5) {
            t = 7, g = rl_hc_wide.g7, xlen = 6;
        } else if (max <= 7) {
            t = 10, g = rl_hc_wide.g10, xlen = 8;
        } else {
            t = 13, g = rl_hc_wide.g13, xlen = 16;
        }
        s = hc_sum(ix, npairs, g, xlen, &mid);
        uint32_t s1 = s & 0xffffu, s2 = mid, s3 = s >> 16;
        int const t1 = t;
        if (s1 > s2) {
            s1 = s2;
            t++;
        }
        if (s1 > s3) {
            s1 = s3;
            t = t1 + 2;
        }
        sum += s1;
    } else if (max > RL_IXMAX_VAL) {
        *bits = RL_LARGE_BITS;
        return -1;
    } else {
        int t2;
        t = rl_escape_tables(max - 15u, &t2);
        s = hc_sum_esc(ix, npairs, rl_ht[t].xlen * 65536u + rl_ht[t2].xlen);
        uint32_t lo = s & 0xffffu;
        s >>= 16;
        if (s > lo) {
            s = lo;
            t = t2;
        }
        sum += s;
    }
    *bits = (int) sum;
    return t;
}
