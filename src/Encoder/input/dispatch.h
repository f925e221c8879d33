/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Dispatch, the serial front of the encoder: PCM -> float input
 * buffer (LAME mfbuf), ReplayGain feeding, frame cutting and the flush.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_DISPATCH_H
#define RL_DISPATCH_H

#include <stdint.h>
#include "dsp.h"   /* RL_DECL_* */
#include "rl_types.h"

#include "resample.h"   /* RlResampler */

/* LAME MFSIZE: room for 3 frames plus the initial zero pad. */
#define RL_MFSIZE (3 * 1152 + RL_ENCDELAY - RL_MDCTDELAY)
/* Samples kept in front of mfbuf[0] (= RL_FRAME_PRE in rl_frame.h). */
#define RL_DISPATCH_PRE 576

struct RlEncoderConst;
struct RlFrame;

/* Serial state of Dispatch (LAME: sv_enc.mfbuf/mf_size/mf_samples_to_encode,
 * in_buffer_*, slot_lag/frac_SpF, the resampler, ov_enc.encoder_padding). */
typedef struct RlDispatchState {
    /* buf[ch][RL_DISPATCH_PRE + i] == LAME mfbuf[ch][i]; the RL_DISPATCH_PRE
     * samples before it are the last ones shifted out (zeros at start). */
    float   buf[2][RL_DISPATCH_PRE + RL_MFSIZE];
    int     mf_size;
    int     mf_samples_to_encode;
    int     mf_needed;

    /* Pending input of the current feed call (LAME in_buffer_0/1 after
     * lame_copy_inbuffer); consumed by rl_dispatch_next. */
    float  *in_buf[2];
    int     in_cap;
    int     in_len;
    int     in_pos;

    int     slot_lag;            /* padding (CBR only; VBR frac_SpF = 0) */
    int     frac_spf;

    int64_t frames_cut;          /* frames handed out (LAME frame_number) */

    /* flush (lame_encode_flush) */
    int     flushing;            /* 1 while the flush's zero bunches run */
    int     flushed;             /* 1 after the flush ended */
    int     frames_left;

    /* what the LAME tag needs (LAME ov_enc.encoder_delay/encoder_padding) */
    int     encoder_delay;
    int     encoder_padding;

    int     resampling;          /* isResamplingNecessary */
    RlResampler rs;
} RlDispatchState;

/* Reset the state for a new stream (cfg must be initialised).  0 or -errno.
 * Stage: init. */
int  rl_dispatch_init(const struct RlEncoderConst *k, RlDispatchState *d);
/* Stage: destroy. */
void rl_dispatch_free(RlDispatchState *d);

/* n frames of 16-bit little-endian PCM at src (nch 1 or 2 interleaved) to
 * the input floats: with xl, xr the samples as rl_raw_sample gives them
 * (the right one = the left one in mono), converted to float,
 * ib0[i] = xl * m[0] + xr * m[1], ib1[i] = xl * m[2] + xr * m[3].  The
 * scalar kernel of RlDsp.pcm_s16le.  Stage: Dispatch (pure). */
RL_DECL_PCM_S16LE(rl_pcm_s16le);

/* The stage entry points (feed, next, flush step) are declared in stages.h. */
#include "stages.h"

#endif
