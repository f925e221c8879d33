/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the count1 region (rl_count1_region in huffman_count.h) around
 * one vector primitive, included by each x86 kernel file after it has
 * defined it for its ISA:
 *   void lines16(const int *p, unsigned *nz, unsigned *gt)
 *        bit l of *nz: p[l] != 0, of *gt: p[l] > 1, for l < 16
 * and RL_COUNT1_NAME, the kernel's name.  Sixteen lines are four
 * quadruples: where none is above 1, their bits are the lines' values, and
 * the quadruples' lengths come from rl_hc_wide.quad2 by byte.  The sums
 * are integers, so their order does not matter; fewer than sixteen lines
 * left take the scalar steps.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_COUNT1_NAME
#error "define RL_COUNT1_NAME and lines16 first"
#endif

#include "huffman_count.h"
#include "huffman_tables.h"

int RL_COUNT1_NAME(const int *ix, int n, int *big_values, int bits[2])
{
    const RlHcWide *const w = &rl_hc_wide;
    unsigned nz, gt;
    int i = n;

    /* trailing zero pairs: the highest non-zero line ends its pair */
    int found = 0;
    for (; i >= 16; i -= 16) {
        lines16(ix + i - 16, &nz, &gt);
        if (nz != 0) {
            i += (31 - __builtin_clz(nz)) / 2 * 2 + 2 - 16;
            found = 1;
            break;
        }
    }
    if (!found)
        for (; i > 1; i -= 2)
            if (ix[i - 1] | ix[i - 2])
                break;
    int const count1 = i;

    /* quadruples of values <= 1 down from count1, packed B << 16 | A */
    uint32_t sum = 0;
    int stopped = 0;
    for (; i >= 16; i -= 16) {
        lines16(ix + i - 16, &nz, &gt);
        if (gt != 0) {
            /* the quadruples above the highest value > 1 */
            int const from = ((31 - __builtin_clz(gt)) / 4 + 1) * 4;
            for (int l = from; l < 16; l += 4)
                sum += w->quad1[(nz >> l) & 15u];
            i -= 16 - from;
            stopped = 1;
            break;
        }
        sum += w->quad2[nz & 255u] + w->quad2[nz >> 8];
    }
    int a1 = (int) (sum & 0xffffu), a2 = (int) (sum >> 16);
    if (!stopped) {
        for (; i > 3; i -= 4) {
            int const x4 = ix[i - 4], x3 = ix[i - 3], x2 = ix[i - 2], x1 = ix[i - 1];
            if ((unsigned int) (x4 | x3 | x2 | x1) > 1)
                break;
            int const p = ((x4 * 2 + x3) * 2 + x2) * 2 + x1;
            a1 += rl_t32l[p];
            a2 += rl_t33l[p];
        }
    }
    *big_values = i;
    bits[0] = a1;
    bits[1] = a2;
    return count1;
}
