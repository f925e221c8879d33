/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: quantizer helpers shared by the rate-control modes: granule
 * set-up, xr^(3/4), M/S conversion, allowed distortion, bit targets, and
 * the reservoir-free part of the outer-loop modes (CBR, ABR, vbr_rh).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_COMMON_H
#define RL_QUANTIZE_COMMON_H

#include "dsp.h"   /* RL_DECL_* */
#include "rl_config.h"
#include "rl_types.h"
#include "rl_encoder_const.h"

typedef struct RlFrame RlFrame;   /* core/rl_frame.h */

/* The outer loop's inputs per granule, which the reservoir-free part
 * leaves for the loops (the frame part of CBR and vbr_rh, part of ABR's). */
typedef struct RlLoopInput {
    float xrpow[2][2][576];
    float l3_xmin[2][2][RL_SFBMAX];
    int   pseudohalf[2][2][RL_SFBMAX];
    int   has_energy[2][2];           /* init_xrpow found energy (CBR, ABR) */
    int   ath_over[2][2];             /* calc_xmin: bands above the ATH */
} RlLoopInput;

/* The reservoir-free part of the CBR and ABR loops, after the MDCT: M/S
 * conversion, granule set-up, xr^(3/4) and the allowed distortion of every
 * granule of f into *in.  Reads the constants k and f's Resolve outputs.
 * Stage: Search. */
void rl_loop_prepare(const RlEncoderConst *k, RlFrame *f, RlLoopInput *in);

/* LAME iteration_init's factor part: cfg->longfact[] / cfg->shortfact[] from
 * the adjust_*_db settings (call once at init, after those are known). */

/* LAME athAdjust: ATH value x lowered by the (ATH->adjust_factor) a.
 * Stage: Search. */
float rl_ath_adjust(float a, float x, float ath_floor, float ath_fixpoint);

/* LAME init_outer_loop for the VBR/ABR/CBR loops (vbr_rh's psfb21 analog
 * silence pass is not ported).  Resets gi and reorders short-block xr.
 * Stage: Search. */
void rl_init_outer_loop(const RlConfig *cfg, RlGranule *gi);

/* LAME init_xrpow with init_xrpow_core_c: xrpow[i] = |xr|^(3/4).
 * pseudohalf (may be NULL) receives LAME's sv_qnt.pseudohalf[0..psymax).
 * Returns 1 if the granule has energy, else 0 (and clears l3_enc).
 * Stage: Search; Encode (vbr_rh). */
int rl_init_xrpow(const RlConfig *cfg, RlGranule *gi, float xrpow[576], int *pseudohalf);

/* xrpow[i] = |xr[i]|^(3/4) as LAME's C init_xrpow_core computes it (double
 * square roots, rounded to float) for i < n; returns the largest xrpow[i]
 * (0 if none) and sets *absmax to the largest |xr[i]|.  The scalar kernel
 * of RlDsp.xrpow. */
RL_DECL_XRPOW(rl_xrpow_lines);

/* LAME ms_convert: L/R -> M/S for granule gr of side.
 * Stage: Search. */
void rl_ms_convert(RlSideInfo *side, int gr);

/* LAME calc_xmin: allowed distortion per sfb into pxmin[], sets
 * max_nonzero_coeff and energy_above_cutoff; returns the number of sfbs
 * with energy above the ATH.  adjust_factor = ATH->adjust_factor of the frame.
 * Stage: Search. */
int rl_calc_xmin(const RlEncoderConst *k, float adjust_factor, const RlPsyRatio *ratio,
                 RlGranule *gi, float *pxmin);

/* LAME on_pe: per-channel bit targets for granule gr from the PE; returns
 * the granule maximum.  The ResvMaxBits it calls reads the explicit reservoir
 * state (resv_size before the frame, resv_max as left by the last
 * ResvFrameBegin: for VBR-new the one at the maximum bitrate).  LAME's
 * substep_shaping 0x80 side effect there is only read by CBR code: not kept.
 * Stage: Search (VBR-new, CBR); Encode. */
int rl_on_pe(const RlConfig *cfg, int resv_size, int resv_max, const float pe[][2],
             int targ_bits[2], int mean_bits, int gr, int cbr);

/* LAME reduce_side (CBR/ABR M/S bit split).
 * Stage: Search (ABR, CBR); Encode (CBR, vbr_rh). */
void rl_reduce_side(int targ_bits[2], float ms_ener_ratio, int mean_bits, int max_bits);

#endif
