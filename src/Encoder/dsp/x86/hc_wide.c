/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the widened Huffman length tables of the x86 kernels. */
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
}

void rl_hc_wide_init(void)
{
    (void) pthread_once(&wide_once, build);
}
