/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the psy spreading (convolution of partition energies with the
 * spreading function, maskers combined by mask_add), the scalar kernel of
 * RlDsp.spread, and the tables the SIMD kernels share with it.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PSY_SPREAD_H
#define RL_PSY_SPREAD_H

#include "psy.h"

/* masking per tonality index: 0 dB (noise) .. -9.3 dB (tone) */
extern const float rl_psy_tonality_tab[9];
/* mask_add's "within about 1 bark" distance per tonality index */
extern const int rl_psy_ma_delta_tab[9];
/* mask_add's gain per fast-log10 step (ten entries, the last 1) */
extern const float rl_psy_ma_table2[10];
/* 10^((8+1)/16), 10^((23+1)/16): ratios beyond which mask_add needs no log */
extern const float rl_psy_ma_max_i1, rl_psy_ma_max_i2;
/* LAME's FAST_LOG10_X(x, 16) constant: the float log2 times this double */
#define RL_PSY_MA_LOG_SCALE (RL_LOG2 / RL_LOG10 * (16.0f))

/* ecb[b] gets the spread threshold, cap[b] the tonal limit
 * max*minval*avg_mask, for b < gd->npart.  idx: tonality indices 0..8.
 * Stage: Prepare, Resolve (pure). */
void rl_psy_spread(const RlPsyBands *gd, const float *eb, const float *max,
                   const unsigned char *idx, float *ecb, float *cap);

#endif
