/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: VBR-new rate control (vbr_mt/vbr_mtrh): the VBR quantization
 * loop in Search with an assumed reservoir, its exact check and the bitrate
 * choice in Encode.  The mode's table is rl_rc_vbr_new (rate_control.h);
 * the validity argument is at rl_vbr_search_valid.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_VBR_H
#define RL_QUANTIZE_VBR_H

#include "rl_encoder_const.h"
#include "bitstream.h"    /* RlEncodeState */
#include "stages.h"       /* RlFrame */

/* VBR-new's part of the frame record (RlFrame.rc.vbr_new): the search's
 * results the bitrate choice needs and the record rl_vbr_search_valid
 * reads (written by Search, read by Encode). */
typedef struct RlVbrFrame {
    int used_bits;                    /* main-data bits of the frame */
    int analog_silence;               /* no sfb of any gr/ch above the ATH */
    int resv_size;                    /* ResvSize the search assumed */
    int max_bits[2][2];               /* VBR_encode_frame's max_bits input [gr][ch] */
    int silent;                       /* bit 2*gr+ch: init_xrpow found no energy */
    int use_ch[2][2];                 /* first (reservoir-free) pass: bits per gr/ch */
    int first_bits;                   /* first pass: total bits */
    int caps_ok;                      /* first pass within 7680/granule and 4095/channel */
    int second_pass;                  /* 1: the first pass did not fit, max_bits pass ran */
    int tlo[2][2], thi[2][2];         /* pass 2 took the same decisions for every
                                       * target in [tlo, thi) of gr/ch */
    int final_bits;                   /* pass 2: total bits */
    int err_work;                     /* quantizer error before pass 2's final check */
} RlVbrFrame;

/* LAME VBR_new_iteration_loop up to and including VBR_encode_frame
 * (VBR_new_prepare, init_xrpow, VBR_encode_frame), run as if ResvSize were
 * assumed_resv.  Reads only the constants k (cfg, ath, psyc) and
 * of f: side.tt[gr][ch].xr (L/R MDCT), .block_type and .mixed_block_flag,
 * mode_ext (selects ratio_ms/pe_ms or ratio/pe), ath_adjust_factor, padding.
 * Writes f->side.tt (M/S-converted and, for short blocks, reordered xr;
 * l3_enc, scalefactors, Huffman fields), f->side.scfsi and f->rc.vbr_new.
 * Thread-safe for distinct frames.  A quantizer failure (LAME's "INTERNAL
 * ERROR IN VBR NEW CODE" cases: it may be an artefact of a wrong
 * assumed_resv) is stored in f->search_rc, not returned; returns 0.
 * Stage: Search (and Encode's serial redo). */
int rl_vbr_search(const RlEncoderConst *k, RlFrame *f, int assumed_resv);

/* 1 iff the last rl_vbr_search of f gave exactly what a search with
 * true_resv gives (l3_enc, scalefactors, side info, used bits, search_rc).
 * The rule (argument at the definition): M = max_bits recomputed with
 * true_resv (on_pe + scaling, silent granules zeroed), A = the search's.
 *   0 if the M>0 pattern differs from A>0's;
 *   1 if true_resv == assumed or M == A;
 *   first pass returned (no second pass): 1 iff first bits <= sum(M);
 *   second pass ran: 0 if the first pass fits under M (caps ok and first
 *   bits <= sum(M)); else 1 iff every searched gr/ch's pass-2 target under M
 *   lies in the interval [tlo, thi) that keeps all its bisection decisions,
 *   and the error outcome (final bits > sum(M)) is the same.
 * Pure and cheap (two on_pe calls).  Reads f's resolve outputs and
 * f->rc.vbr_new.
 * Stage: Encode (the check of a speculative search). */
int rl_vbr_search_valid(const RlEncoderConst *k, const RlFrame *f, int true_resv);

/* The rest of VBR_new_iteration_loop on the TRUE reservoir s (Encode's): frame
 * bits per index, lowest index, pad, bitrate index choice, then
 * ResvFrameBegin / ResvAdjust per gr,ch / ResvFrameEnd.  Reads
 * f->rc.vbr_new (used bits, analog silence), side part2(_3)_length (the
 * caller validated them).  Writes f->bitrate_index and f->side's reservoir
 * fields.  0 or -EIO.
 * Stage: Encode. */
int rl_vbr_choose_bitrate(const RlEncoderConst *k, RlEncodeState *s, RlFrame *f);

#endif
