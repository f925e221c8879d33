/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the iterative quantizer of CBR, ABR and vbr_rh (LAME outer_loop
 * with its step-size search and noise shaping).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_OUTER_H
#define RL_QUANTIZE_OUTER_H

#include "dsp.h"   /* RL_DECL_AMPLIFY */
#include "rl_config.h"
#include "rl_types.h"

#include "rl_carried.h"   /* RlStepState */

#define RL_STEP_START_GAIN 180
#define RL_STEP_START_STEP 4

/* Stage: init. */
void rl_step_state_init(RlStepState *st);

/* x[l] *= amp for l < n (the noise shaping's amplification of a band's
 * xrpow); returns the largest of max and the products (values >= 0: the
 * largest is the same in any order).  The scalar kernel of
 * RlDsp.amplify. */
RL_DECL_AMPLIFY(rl_amplify_lines);

/* What one step-size search counted, per global gain: the bits
 * (RL_GAIN_BITS_UNKNOWN where none was counted) and the side-info fields the
 * count wrote.  A count leaves table_select[] and the region counts alone
 * where the quantization does not need them, so after the search they hold
 * what the last count that did write them left: they depend on the path,
 * not only on the final gain, and LAME writes them to the stream.  This lets
 * Encode replay the search from another start, exactly, without quantizing
 * again the gains the search already tried. */
#define RL_GAIN_BITS_UNKNOWN (-1)
#define RL_STALE_FIELDS 5       /* table_select[0..2], region0_count, region1_count */
typedef struct RlGainBits {
    int bits[256];
    short wrote[256][RL_STALE_FIELDS];   /* value written, -1: left alone */
    short after[RL_STALE_FIELDS];        /* the fields when the search ended */
} RlGainBits;

/* Stage: Search (ABR, CBR). */
void rl_gain_bits_clear(RlGainBits *m);

/* The targets (targ_bits of rl_outer_loop) for which every comparison of a
 * bit count with the target came out as it did: lo <= targ <= hi. */
typedef struct RlTargRange {
    int lo, hi;
} RlTargRange;

/* What an outer loop recorded about the decisions that read its target
 * and its step-search start. */
typedef struct RlLoopTrace {
    RlGainBits  gains;          /* the step search's counts per gain */
    RlTargRange step;           /* targets for which the step search (from
                                 * its start) decides the same */
    RlTargRange shape;          /* ... and the noise-shaping loop after it */
} RlLoopTrace;

/* LAME outer_loop for granule gi of channel ch with at most targ_bits:
 * bin_search_StepSize from *st (updated as LAME updates it), then the noise
 * shaping loop against l3_xmin.  xrpow and pseudohalf are the granule's
 * (modified as in LAME).  When trace is not NULL the loop records every
 * count of the step search and the target ranges of its decisions.
 * sfb21_extra: LAME's sv_qnt.sfb21_extra as the loop sees it (vbr_rh turns
 * it off near the bit limit).  Returns the distorted band count.
 * Stage: Search (ABR, CBR); Encode (CBR redo, vbr_rh). */
int rl_outer_loop(const RlConfig *cfg, RlGranule *gi, const float *l3_xmin, float xrpow[576],
                  int *pseudohalf, RlStepState *st, int ch, int targ_bits, RlLoopTrace *trace,
                  int sfb21_extra);

/* Replays LAME's bin_search_StepSize for the granule whose state before the
 * search is gi0/xrpow0/pseudohalf0 (as rl_outer_loop got them), from *st;
 * updates *st.  Counts come from gain_bits where known, else from a
 * quantization of a scratch copy of gi0 (and are added to gain_bits): a
 * count is a pure function of the gain and that state.  Returns 1 when the
 * replay leaves the granule exactly as the recorded search did (the same
 * final gain and the same path-dependent fields), else 0.
 * Stage: Encode (ABR and CBR checks). */
int rl_step_search_replay(const RlConfig *cfg, const RlGranule *gi0, const float *xrpow0,
                          const int *pseudohalf0, RlStepState *st, int ch, int targ_bits,
                          RlGainBits *gain_bits, int expect_gain);

/* One outer loop as a speculative search ran it, with what a check needs
 * to prove that the loop from another start and target is the same. */
typedef struct RlLoopRecord {
    RlGranule   gi0;                  /* the granule as the outer loop got it */
    float       xrpow0[576];          /* ... its xrpow and pseudohalf */
    int         pseudohalf0[RL_SFBMAX];
    RlLoopTrace trace;
    int         targ;                 /* the target the loop had */
    int         start[2], end[2];     /* the channel's step state before/after: gain, step */
} RlLoopRecord;

/* rl_outer_loop (with sfb21_extra from cfg) recorded into *rec.
 * Stage: Search (ABR, CBR); Encode (CBR redo). */
void rl_outer_loop_recorded(const RlConfig *cfg, RlGranule *gi, const float *l3_xmin,
                            float xrpow[576], int *pseudohalf, RlStepState *st, int ch,
                            int targ_bits, RlLoopRecord *rec);

/* 1 iff rl_outer_loop from step state *st with targ_bits leaves the granule
 * as the recorded loop did; then *st is the state after it (the argument
 * is at the definition).  0: the loop must run again.
 * Stage: Encode (ABR and CBR checks). */
int rl_outer_loop_same(const RlConfig *cfg, RlLoopRecord *rec, RlStepState *st, int ch,
                       int targ_bits);

/* LAME iteration_finish_one without its ResvAdjust: better scalefactor
 * storage and region split.  Returns the granule's bits
 * (part2_3_length + part2_length) for the reservoir.
 * Stage: Search (VBR-new, ABR); Encode (CBR, vbr_rh). */
int rl_granule_finish(const RlConfig *cfg, RlSideInfo *side, int gr, int ch);

#endif
