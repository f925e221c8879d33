/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: LAME's decode on the fly (--replaygain-accurate, --clipdetect):
 * the encoder's own output, decoded as it is made, gives the peak sample
 * of the LAME tag and, with ReplayGain on, the samples the gain feed
 * analyses.  A serial chain over the stream's bytes in order: the
 * decoder keeps its state from frame to frame.
 * Algorithm derived from LAME 3.100 (bitstream.c do_gain_analysis,
 * lame.c save_gain_values; LGPL-2.0-or-later). */
#ifndef RL_REDECODE_H
#define RL_REDECODE_H

#include <stddef.h>
#include <stdint.h>

#include "decoder.h"
#include "gain_feed.h"

typedef struct RlRedecode {
    RlMpaDecoder *dec;      /* NULL: decode on the fly is off */
    int   gain;             /* the decoded samples feed the gain feed (findReplayGain) */
    int   channels;         /* cfg.channels_out */
    int   queued;           /* the chunk being decoded was handed to the decoder */
    float peak;             /* ov_rpg.PeakSample */
    float pcm[2][1152];
} RlRedecode;

/* on 0: off (nothing allocated).  0 or -ENOMEM.  Stage: init. */
int  rl_redecode_init(RlRedecode *rd, int on, int gain, int channels);
void rl_redecode_free(RlRedecode *rd);   /* zeroed or initialised */

/* LAME's do_gain_analysis for one copy_buffer chunk of music bytes (n > 0):
 * hands it to the decoder and decodes every frame it completes, tracking
 * the peak and pushing each frame's samples into rg as one AnalyzeSamples
 * call.  0: done.  -EAGAIN: rg has no room for a frame; call again with
 * the same chunk once the gain tasks ran (the decoder keeps what it was
 * given).  Stage: the Redecode task (Finish for the flush's chunk). */
int  rl_redecode_chunk(RlRedecode *rd, RlGainFeed *rg, const uint8_t *bytes, size_t n);

/* save_gain_values' clipping figures from the peak: noclipGainChange
 * (tenths of a dB, rounded up) and noclipScale (-1: no clipping). */
void rl_redecode_noclip(const RlRedecode *rd, int *gain_change, float *scale);

#endif
