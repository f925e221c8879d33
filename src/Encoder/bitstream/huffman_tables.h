/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: constant Huffman and scalefactor-coding tables of MPEG audio Layer III.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_HUFFMAN_TABLES_H
#define RL_HUFFMAN_TABLES_H

#include <stdint.h>

#include "quant_tables.h"
#include "rl_types.h"

#define RL_HTN        34      /* 0..31 big-value tables, 32/33 count1 tables A/B */
/* RL_IXMAX_VAL (8206) and RL_LARGE_BITS (100000) come from quant_tables.h. */

/* One Huffman table (LAME: struct huffcodetab), same data as LAME's tables.c.
 * hlen[] lengths INCLUDE the sign bits of the nonzero values (not linbits):
 * the pure code length is hlen minus the number of nonzero values of the pair.
 *  - tables 1..15: pair (x, y), x, y < xlen: index x * xlen + y; linmax 0;
 *  - tables 16..31: share the 16x16 code/length arrays of ISO tables 16 and 24;
 *    here `xlen` is the number of LINBITS, `linmax` = (1 << linbits) - 1,
 *    values >= 15 are coded as 15 plus linbits; index x * 16 + y;
 *  - 32/33: count1 quadruple tables A/B, index p = v*8 + w*4 + x*2 + y (v..y in
 *    {0,1}); LAME writes `sign_bits + table[p]` with hlen[p] bits (codes are
 *    pre-shifted left by the sign-bit count).
 * Entries 0 and 4 are empty, 14 has no codes (a spare length table only). */
typedef struct RlHuffTab {
    unsigned int    xlen;
    unsigned int    linmax;
    const uint16_t *table;
    const uint8_t  *hlen;
} RlHuffTab;

extern const RlHuffTab rl_ht[RL_HTN];

/* Count1 code lengths incl. sign bits (LAME: t32l, t33l). */
extern const uint8_t rl_t32l[16];
extern const uint8_t rl_t33l[16];

/* Packed pairs of length tables for fast counting: high 16 bits one table,
 * low 16 bits the other (LAME: largetbl = 16|24, table23 = 2|3, table56 = 5|6). */
extern const uint32_t rl_largetbl[16 * 16];
extern const uint32_t rl_table23[3 * 3];
extern const uint32_t rl_table56[4 * 4];

/* scfsi band groups (ISO 2.4.2.7): long sfb ranges [0,6) [6,11) [11,16) [16,21). */
extern const int rl_scfsi_band[5];

/* MPEG-1 scalefac_compress -> (slen1, slen2) and the value limits 1 << slen. */
extern const int rl_slen1_tab[16];
extern const int rl_slen2_tab[16];
extern const int rl_slen1_n[16];
extern const int rl_slen2_n[16];

/* MPEG-1 part2 bits per scalefac_compress: short, mixed, long blocks. */
extern const int rl_scale_short[16];
extern const int rl_scale_mixed[16];
extern const int rl_scale_long[16];

/* rl_pretab (B.6) and rl_nr_of_sfb_block (MPEG-2 scalefactor partitions) live
 * in quant_tables.h (LAME keeps them in quantize_pvt.c). */

/* Largest value each MPEG-2 scalefactor partition can hold, per table_number
 * of rl_nr_of_sfb_block (LAME: max_range_sfac_tab). */
extern const int rl_max_range_sfac_tab[6][4];

#endif
