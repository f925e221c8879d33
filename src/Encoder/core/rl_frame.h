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
#include "quantize_outer.h" /* RlStepState, RlGainBits (CBR/ABR search) */

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
    RlMainData main;                  /* packed scalefactors + Huffman bits per gr/ch */
    int   used_bits;                  /* main-data bits the search used (VBR: for bitrate choice) */
    int   search_bits[2][2];          /* frame bits per gr/ch after the search */
    /* VBR-new search results the bitrate choice needs; Encode recomputes the
     * reservoir-dependent rest (frame bits per index, pad) from the true one */
    int   vbr_analog_silence;         /* no sfb of any gr/ch above the ATH */
    int   vbr_resv_size;              /* ResvSize the search assumed */
    /* what rl_search_valid needs (written by Search, read by Encode) */
    int   spec_searches;              /* rl_search runs since rl_prepare (0: none yet) */
    int   spec_max_bits[2][2];        /* VBR_encode_frame's max_bits input [gr][ch] */
    int   spec_silent;                /* bit 2*gr+ch: init_xrpow found no energy */
    int   spec_use_ch[2][2];          /* first (reservoir-free) pass: bits per gr/ch */
    int   spec_first_bits;            /* first pass: total bits */
    int   spec_caps_ok;               /* first pass within 7680/granule and 4095/channel */
    int   spec_second_pass;           /* 1: the first pass did not fit, max_bits pass ran */
    int   spec_tlo[2][2], spec_thi[2][2]; /* pass 2 took the same decisions for every
                                       * target in [tlo, thi) of gr/ch */
    int   spec_final_bits;            /* pass 2: total bits */
    int   spec_err_work;              /* quantizer error before pass 2's final check */
    int   spec_rc;                    /* quantizer error (-EIO) that Encode reports */
    /* CBR/ABR: the reservoir-free part (MDCT, M/S, init_xrpow, calc_xmin)
     * leaves the quantization loop's inputs; CBR runs the loop in Encode */
    float xrpow[2][2][576];
    float l3_xmin[2][2][RL_SFBMAX];
    int   pseudohalf[2][2][RL_SFBMAX];
    int   has_energy[2][2];           /* init_xrpow found energy */
    int   ath_over[2][2];             /* calc_xmin: bands above the ATH */
    /* ABR: what Encode needs to check the search against the true state */
    RlGranule   loop_start[2][2];     /* the granule as the outer loop got it */
    float xrpow_start[2][2][576];     /* ... and its xrpow, pseudohalf */
    int   pseudohalf_start[2][2][RL_SFBMAX];
    RlGainBits  gain_bits[2][2];      /* the step search's counts per gain */
    int   spec_targ[2][2];            /* target bits the search used */
    int   spec_start[2][2][2];        /* step search start assumed: gain, step */
    int   spec_end[2][2][2];          /* step state after it: gain, step */

    /* ---- Encode (serial: reservoir, side info, bytes) ---- */
    int   bitrate_index;
} RlFrame;

#endif
