/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the widened Huffman length tables of the x86 kernels, and the
 * count1 quadruples' lengths by their lines' bits. */
#include "x86_kernels.h"

#include <pthread.h>

#include "huffman_tables.h"

RlHcWide rl_hc_wide;

static pthread_once_t wide_once = PTHREAD_ONCE_INIT;

static void widen_group(uint32_t *dst, int first)
{
    unsigned int n = rl_ht[first].xlen * rl_ht[first].xlen;
    for (unsigned int i = 0; i < n; i++)
        dst[i] = (uint32_t) rl_ht[first].hlen[i] | (uint32_t) rl_ht[first + 1].hlen[i] << 8
                 | (uint32_t) rl_ht[first + 2].hlen[i] << 16;
}

static void build(void)
{
    for (int i = 0; i < 4; i++)
        rl_hc_wide.p1[i] = rl_ht[1].hlen[i];
    for (int i = 0; i < 9; i++)
        rl_hc_wide.p23[i] = rl_table23[i];
    for (int i = 0; i < 16; i++)
        rl_hc_wide.p56[i] = rl_table56[i];
    widen_group(rl_hc_wide.g7, 7);
    widen_group(rl_hc_wide.g10, 10);
    widen_group(rl_hc_wide.g13, 13);
    for (int b = 0; b < 16; b++) {
        int const p = (b & 1) << 3 | (b & 2) << 1 | (b & 4) >> 1 | (b & 8) >> 3;
        rl_hc_wide.quad1[b] = (uint32_t) rl_t32l[p] | (uint32_t) rl_t33l[p] << 16;
    }
    for (int b = 0; b < 256; b++)
        rl_hc_wide.quad2[b] = rl_hc_wide.quad1[b & 15] + rl_hc_wide.quad1[b >> 4];
}

void rl_hc_wide_init(void)
{
    (void) pthread_once(&wide_once, build);
}
