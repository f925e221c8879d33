/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: constant quantizer tables (x^(4/3), rounding adjust, 2^(-3/16 k), 2^(k/4)).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANT_TABLES_H
#define RL_QUANT_TABLES_H

#include "rl_types.h"

#define RL_IXMAX_VAL     8206                 /* largest quantized magnitude (8191+15) */
#define RL_PRECALC_SIZE  (RL_IXMAX_VAL + 2)
#define RL_Q_MAX         (256 + 1)
#define RL_Q_MAX2        116                  /* lowest possible scalefactor offset */
#define RL_LARGE_BITS    100000
#define RL_MAX_BITS_PER_CHANNEL  4095
#define RL_MAX_BITS_PER_GRANULE  7680

/* Stage: init. */
/* All tables are built once by rl_quant_tables_init() (pthread_once) and
 * read-only afterwards.  Types are LAME's FLOAT (float). */
extern float rl_pow43[RL_PRECALC_SIZE];   /* pow43[i] = i^(4/3) */
/* LAME is built with TAKEHIRO_IEEE754_HACK, so its rounding table is
 * adj43asm[i] = i - 0.5 - (0.5*(pow43[i-1]+pow43[i]))^0.75 (adj43asm[0] = 0).
 * rl_adj43 holds exactly that table; rl_adj43asm is an alias name. */
extern float rl_adj43[RL_PRECALC_SIZE];
#define rl_adj43asm rl_adj43
extern float rl_ipow20[RL_Q_MAX];                  /* 2^(-0.1875*(i-210)) */
extern float rl_pow20[RL_Q_MAX + RL_Q_MAX2 + 1];   /* 2^(0.25*(i-210-Q_MAX2)) */

/* LAME Table B.6 preemphasis (pretab) and the MPEG-2 scalefactor partition
 * table nr_of_sfb_block[6][3][4]: standard data. */
extern const int rl_pretab[RL_SBMAX_L];
extern const int rl_nr_of_sfb_block[6][3][4];

void rl_quant_tables_init(void);

#endif
