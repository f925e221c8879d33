/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: psychoacoustic model types and entry points (LAME's
 * L3psycho_anal_vbr split into a stateless Prepare and a serial Resolve).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PSY_H
#define RL_PSY_H

#include "dsp.h"   /* RL_DECL_* */
#include "rl_types.h"

struct RlEncoderConst;
struct RlFrame;

/* Absolute threshold of hearing, constant after rl_psy_init (LAME ATH_t
 * without adjust_factor/adjust_limit, which are carried in RlPsyState). */
typedef struct RlAth {
    int   use_adjust;                /* 0: no auto adjustment */
    float aa_sensitivity_p;          /* 10^(-athaa_sensitivity/10) */
    float decay;
    float floor;                     /* dB */
    float l[RL_SBMAX_L];             /* per long sfb (MDCT energy units) */
    float s[RL_SBMAX_S];             /* per short sfb, times the band width */
    float psfb21[RL_PSFB21];
    float psfb12[RL_PSFB12];
    float cb_l[RL_CBANDS];           /* per long partition (FFT units) */
    float cb_s[RL_CBANDS];
    float eql_w[RL_BLKSIZE / 2];     /* equal-loudness weights */
} RlAth;

/* Partition <-> scalefactor band constants (LAME PsyConst_CB2SB_t). */
typedef struct RlPsyBands {
    float masking_lower[RL_CBANDS];
    float minval[RL_CBANDS];
    float rnumlines[RL_CBANDS];
    float mld_cb[RL_CBANDS];
    float mld[RL_SBMAX_L];
    float bo_weight[RL_SBMAX_L];
    int   s3ind[RL_CBANDS][2];
    int   numlines[RL_CBANDS];
    int   bm[RL_SBMAX_L];
    int   bo[RL_SBMAX_L];
    int   npart;
    int   n_sb;
    float *s3;                       /* packed spreading rows; owned (l, s), NULL in l_to_s */
    struct RlSpreadPlan *plan;       /* s3 turned for 16-lane kernels (psy_spread.h);
                                      * owned (l, s), NULL in l_to_s or where unusable */
} RlPsyBands;

/* Psy constants, fixed at init (LAME PsyConst_t).  Freed by rl_psy_free. */
typedef struct RlPsyConst {
    float window[RL_BLKSIZE];
    float window_s[RL_BLKSIZE_S / 2];
    RlPsyBands l, s, l_to_s;
    float attack_threshold[4];
    float decay;
    int   force_short_block_calc;
} RlPsyConst;

/* Serial psy state, owned by Resolve (LAME PsyStateVar_t + ATH adjust +
 * sv_qnt.masking_lower).  nb_l1/nb_l2, last_en_subshort, tot_ener and
 * loudness_sq_save are pure functions of earlier input (recomputable from the
 * previous granules' Prepare output); they are carried here rather than
 * recomputed. */
typedef struct RlPsyState {
    float nb_l1[4][RL_CBANDS];       /* recomputable: ecb of granule t-1 */
    float nb_l2[4][RL_CBANDS];       /* recomputable: ecb of granule t-2 */
    RlPsyXmin thm[4];                /* one-granule delay line, chain via short pre-echo */
    RlPsyXmin en[4];
    float loudness_sq_save[2];       /* recomputable */
    float tot_ener[4];               /* recomputable */
    float last_en_subshort[4][9];    /* recomputable: previous granule's peaks */
    int   last_attacks[4];
    int   blocktype_old[2];
    float ath_adjust_factor;         /* LAME ATH->adjust_factor */
    float ath_adjust_limit;          /* LAME ATH->adjust_limit */
    float masking_lower;             /* LAME sv_qnt.masking_lower as psy sees it */
    float pefirbuf[19];              /* CBR/ABR: the PE history the quantizer's PE is
                                      * normalised by (LAME sv_enc.pefirbuf) */
} RlPsyState;

/* The M/S thresholds of partitions 0..n-1: thr[2], thr[3] (M, S) limited
 * from eb[2..3] and thr[0..3], cb_mld and ath_cb per partition (LAME's
 * msfix block of L3psycho_anal_vbr).  The scalar kernel of
 * RlDsp.ms_thresholds.  Stage: Resolve (pure). */
RL_DECL_MS_THRESHOLDS(rl_ms_thresholds);

/* Per-granule, per-psy-channel (L, R, M, S) Prepare output. */
typedef struct RlPsyPrepLong {
    float eb[RL_CBANDS];             /* partition energies */
    float ecb[RL_CBANDS];            /* spread threshold before the pre-echo limit */
    float cap[RL_CBANDS];            /* max*minval*avg_mask (tonal limit) */
} RlPsyPrepLong;

typedef struct RlPsyPrepShort {
    float eb[3][RL_CBANDS];          /* [sblock][partition] */
    float thr[3][RL_CBANDS];         /* spread threshold, tonal limit applied, before masking_lower */
} RlPsyPrepShort;

/* Everything psy computes that is a pure function of this frame's samples.
 * sht[gr] is filled only when short blocks are possible in granule gr (a
 * raw attack now, or a possible ns_attacks[2]==3 carry from the granule
 * before, or frame 0, or forced short blocks); Resolve fills it itself if
 * that guess ever misses. */
typedef struct RlPsyPrep {
    float peaks[2][4][9];            /* HPF sub-block peaks [gr][chn][i] */
    float tot_ener[2][4];            /* energy of lines 11..512 */
    float loudness[2][2];            /* loudness approximation [gr][ch] */
    RlPsyPrepLong  lng[2][4];
    RlPsyPrepShort sht[2][4];
    int   short_done[2];             /* [gr]: 1 when sht[gr][] was computed */
} RlPsyPrep;

/* Init: the ATH and psy constants into *k (cfg must be set) and the
 * initial state into *psv.  rl_psy_free frees what init allocated in *k.
 * Stage: init. */
int  rl_psy_init(struct RlEncoderConst *k, RlPsyState *psv);
/* Stage: destroy. */
void rl_psy_free(struct RlEncoderConst *k);
/* Stage: Prepare. */
void rl_psy_prepare(const struct RlEncoderConst *k, struct RlFrame *f);
/* Stage: Resolve. */
void rl_psy_resolve(const struct RlEncoderConst *k, RlPsyState *psv, struct RlFrame *f);
/* Short-block psy of one granule; Prepare calls it when short blocks are
 * possible, Resolve when Prepare's guess missed (never observed).
 * Stage: Prepare; Resolve (reads only k). */
void rl_psy_prepare_short(const struct RlEncoderConst *k, struct RlFrame *f, int gr);

/* ATH helpers (ath.c), also useful to other modules. */
struct RlConfig;
/* Stage: init. */
float rl_ath_formula(const struct RlConfig *cfg, float f);
/* Stage: init. */
float rl_freq2bark(float freq);
/* Stage: init. */
void  rl_ath_compute(const struct RlConfig *cfg, RlAth *ath);

#endif
