/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the psy spreading (convolution of partition energies with the
 * spreading function, maskers combined by mask_add), the scalar kernel of
 * RlDsp.spread, and the tables the SIMD kernels share with it.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PSY_SPREAD_H
#define RL_PSY_SPREAD_H

#include "dsp.h"   /* RL_DECL_* */
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

/* The spreading laid out for a kernel with 16 partitions per vector (one
 * lane each): groups of 16 consecutive partitions, each lane's terms in
 * step order.  In a usable plan every lane's first term lies within 32
 * partitions of its group's first, so one two-register permute fetches a
 * step's energies of all lanes. */
#define RL_SPREAD_LANES 16
typedef struct RlSpreadGroup {
    int first;                       /* s3ind[b][0] of the group's first partition */
    int gmax;                        /* the most steps (terms - 1) of one of its lanes */
    int s3t;                         /* its terms: RlSpreadPlan.s3t + s3t, (gmax + 1) x 16 */
    int lane_first[RL_SPREAD_LANES]; /* s3ind[b][0] - first, 0..31 */
    int steps[RL_SPREAD_LANES];      /* terms - 1 of lane b (0 past npart) */
    int rel[RL_SPREAD_LANES];        /* s3ind[b][0] - b: term j of lane b is kk - b = rel + j */
} RlSpreadGroup;

typedef struct RlSpreadPlan {
    int ngroups;
    RlSpreadGroup g[RL_CBANDS / RL_SPREAD_LANES];
    float *s3t;                      /* s3t[group's s3t + 16 j + l]: s3 term j of lane l
                                      * (0 past its last term, whose result no lane keeps) */
} RlSpreadPlan;

/* Builds gd->plan from gd->s3 and gd->s3ind (NULL where no usable plan
 * exists).  0 or -ENOMEM.  Stage: init. */
int rl_psy_spread_plan(RlPsyBands *gd);
/* Frees gd->plan (NULL safe). */
void rl_psy_spread_plan_free(RlPsyBands *gd);

/* ecb[b] gets the spread threshold, cap[b] the tonal limit
 * max*minval*avg_mask, for b < gd->npart.  idx: tonality indices 0..8.
 * Stage: Prepare, Resolve (pure). */
RL_DECL_SPREAD(rl_psy_spread);

#endif
