/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the frame record.  Everything that belongs to one MP3 frame and
 * does not cross to the next frame lives here; the stage that writes a field
 * is named beside it.  A record is written by one stage at a time: the stage
 * running on it owns the whole record until it hands it to the next stage
 * (the ring publishes the hand-over under its lock).  State that crosses
 * frames is never here: it lives in the serial stage states (rl_encoder.h). */
#ifndef RL_FRAME_H
#define RL_FRAME_H

#include <stdint.h>
#include "rl_types.h"
#include "psy.h"        /* RlPsyPrep   (Prepare scratch, psy module) */
#include "mdct.h"       /* RlPolyphase (Prepare output, filterbank module) */
#include "bitstream.h"  /* RlMainData  (Search output: packed main data) */
#include "quantize_common.h" /* RlLoopInput (vbr_rh) */
#include "quantize_vbr.h"   /* RlVbrFrame  (VBR-new) */
#include "quantize_abr.h"   /* RlAbrFrame  (ABR) */
#include "quantize_cbr.h"   /* RlCbrFrame  (CBR) */

/* Samples kept before LAME's mfbuf[0] so that Prepare can recompute the
 * polyphase output of the granule before this frame (LAME carries it in
 * sb_sample; the priming pass of frame 0 equals it over zero input). */
#define RL_FRAME_PRE   576
#define RL_FRAME_SPAN  (RL_FRAME_PRE + RL_FRAME_IN)

typedef struct RlFrame {
    /* ---- Dispatch ---- */
    int64_t index;                    /* frame number from 0 */
    int     padding;                  /* padding bit (VBR: always 0) */
    /* in[ch][RL_FRAME_PRE + i] == LAME's mfbuf[ch][i] when this frame is
     * encoded (scaled, downmixed, resampled float samples at 16-bit scale). */
    float   in[2][RL_FRAME_SPAN];

    /* ---- Prepare (stateless: reads in[], constants) ---- */
    RlPsyPrep   prep;                 /* FFT energies, attack peaks, ... */
    RlPolyphase poly;                 /* window_subband output, incl. previous granule */

    /* ---- Resolve (psy decisions in frame order) ---- */
    RlPsyRatio ratio[2][2];           /* LAME masking_LR  [gr][ch] */
    RlPsyRatio ratio_ms[2][2];        /* LAME masking_MS  [gr][ch] */
    float pe[2][2];                   /* LAME pe_use (L/R)  [gr][ch] */
    float pe_ms[2][2];                /* LAME pe_MS */
    float pe_use[2][2];               /* what the quantizer gets: pe or pe_MS by mode_ext,
                                       * CBR/ABR: scaled by the pefirbuf filter */
    float ms_ener_ratio[2];           /* [gr] */
    int   block_type[2][2];           /* final block type [gr][ch] */
    int   mode_ext;                   /* RL_MD_LR_LR or RL_MD_MS_LR */
    float ath_adjust_factor;          /* ATH->adjust_factor after adjust_ATH of this frame */
    float loudness_sq[2][2];          /* LAME ov_psy.loudness_sq */

    /* ---- Search (MDCT, quantization, Huffman coding) ---- */
    RlSideInfo side;                  /* tt[gr][ch] incl. xr, l3_enc, scalefac */
    RlMainData main;                  /* packed scalefactors + Huffman bits per gr/ch
                                       * (vbr_rh: packed by Encode) */
    int   search_runs;                /* searches since rl_prepare (0: none yet) */
    int   search_rc;                  /* quantizer error (-EIO) that Encode reports */
    /* the rate-control mode's part (quantize/rate_control.h): written by
     * Search, read (and for vbr_rh: finished) by Encode; a mode
     * touches its own member only */
    union {
        RlVbrFrame  vbr_new;          /* quantize_vbr.h */
        RlLoopInput vbr_old;          /* the loops' inputs (quantize_vbr_old.c) */
        RlAbrFrame  abr;              /* quantize_abr.h */
        RlCbrFrame  cbr;              /* quantize_cbr.h */
    } rc;

    /* ---- Encode (serial: reservoir, side info, bytes) ---- */
    int   bitrate_index;
} RlFrame;

#endif
