/* ringlame: Dispatch, the serial front of the encoder: PCM -> float input
 * buffer (LAME mfbuf), ReplayGain feeding, frame cutting and the flush.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_DISPATCH_H
#define RL_DISPATCH_H

#include <stdint.h>
#include "rl_types.h"

#include "resample.h"   /* RlResampler */

/* LAME MFSIZE: room for 3 frames plus the initial zero pad. */
#define RL_MFSIZE (3 * 1152 + RL_ENCDELAY - RL_MDCTDELAY)
/* Samples kept in front of mfbuf[0] (= RL_FRAME_PRE in rl_frame.h). */
#define RL_DISPATCH_PRE 576

struct RlEncoder;
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

/* Reset the state for a new stream (cfg must be initialised).  0 or -errno. */
int  rl_dispatch_init(struct RlEncoder *e);
void rl_dispatch_free(struct RlEncoder *e);

/* LAME lame_encode_buffer_int + lame_copy_inbuffer: queue nframes of
 * interleaved int32 PCM (cfg.channels_in values per frame, full scale =
 * INT32 range).  One call here equals one lame_encode_buffer_int call: the
 * ReplayGain chunking follows it.  The previous feed must have been drained
 * by rl_dispatch_next (else -EBUSY).  0 or -errno. */
int  rl_dispatch_feed(struct RlEncoder *e, const int32_t *pcm, int nframes);

/* rl_dispatch_feed for nframes frames of an I/O block, starting
 * at frame offset_frames: converts the block's bytes to exactly the int32
 * rl_pcm_read gives and queues them with rl_dispatch_feed's float math
 * (bit-identical).  One call = one lame_encode_buffer_int call: LAME's
 * frontend reads frame_size frames per call, so feed frame_size pieces.
 * 0 or -errno (-EINVAL: bad range or channel count, -EBUSY: not drained). */
struct RlInBlock;
int  rl_dispatch_feed_block(struct RlEncoder *e, const struct RlInBlock *b, int offset_frames, int nframes);

/* Runs LAME's lame_encode_buffer_sample_t loop on the queued input until a
 * frame is complete: fills *f (index, padding, in[][]) and returns 1; returns
 * 0 when the queued input is used up (feed more), or -errno.
 * -EAGAIN (ReplayGain on): the gain feed has less than one fill_buffer step
 * (576*mode_gr samples) of space; nothing of that step was consumed: run the
 * gain tasks (rl_gain_task_run) and call again.  A caller that checks
 * rl_gain_feed_space(&e->rg) >= RL_GAIN_PUSH_MAX + RL_MFSIZE first never
 * sees it (one call pushes at most mf_needed-1+framesize samples). */
int  rl_dispatch_next(struct RlEncoder *e, struct RlFrame *f);

/* lame_encode_flush's zero feeding.  Call repeatedly; each call that returns
 * 1 has queued one zero bunch: drain it with rl_dispatch_next, then call
 * again.  Returns 0 when the flush is complete (encoder_padding is then set),
 * or -errno. */
int  rl_dispatch_flush_step(struct RlEncoder *e);

#endif
