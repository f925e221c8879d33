/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the filterbank: polyphase analysis (Prepare, polyphase.c) and
 * MDCT (Search, mdct.c), LAME newmdct.c semantics.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_MDCT_H
#define RL_MDCT_H

#include "dsp.h"   /* RL_DECL_* */
#include "rl_config.h"

/* Polyphase (window_subband) output of one frame, per channel:
 *   sb[ch][0]        the granule BEFORE this frame (LAME's carried sb_sample),
 *   sb[ch][1 + gr]   granule gr of this frame.
 * Each slot has LAME's sb_sample[ch][x] layout: 18 time slots of 32 values in
 * window_subband's output order, odd bands of odd slots negated, and bands with
 * 1e-12 <= amp_filter < 1 already multiplied by amp_filter (LAME does that in
 * place before the granule's MDCT, so every use sees the scaled value). */
typedef struct RlPolyphase {
    float sb[2][3][18][RL_SBLIMIT];
} RlPolyphase;

/* Position of band b inside one slot of RlPolyphase (window_subband's
 * output order), which the MDCT reads back. */
extern const int rl_band_pos[32];

/* Prepare: polyphase of the previous granule and of this frame's granules,
 * computed from in[ch][0 .. RL_FRAME_PRE + RL_FRAME_IN) where in[ch][RL_FRAME_PRE]
 * is LAME's mfbuf[ch][0].  Stateless; for frame 0 the RL_FRAME_PRE samples
 * must be zeros, which reproduces lame_encode_frame_init's priming.
 * Stage: Prepare. */
void rl_polyphase(const RlConfig *cfg, const float *in0, const float *in1, RlPolyphase *p);

/* The MDCT windows per block type (LAME's win[]; the short row also holds
 * the long-block twiddles: tantab_l at +3, cx at +12, ca at +20, cs at +28). */
extern const float rl_mdct_win[4][36];

/* The long-block MDCT of all 32 bands of one granule with window wt, no
 * alias reduction: xr[18 b + i] from the slots of the granule before
 * (prev) and of this granule (cur), RlPolyphase layout.  The scalar kernel
 * of RlDsp.mdct_long.  Stage: Search (pure). */
RL_DECL_MDCT_LONG(rl_mdct_long);

/* Search: MDCT + alias reduction of granule gr, channel ch (mdct_sub48 inner
 * part) into xr[576], using the granule's block_type and mixed_block_flag.
 * Stage: Search. */
void rl_mdct_granule(const RlConfig *cfg, const RlPolyphase *p, int gr, int ch,
                     int block_type, int mixed_block_flag, float xr[576]);

#endif
