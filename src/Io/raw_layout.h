/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: where a named integer-PCM file keeps its samples (offset, length,
 * encoding) and LAME's front-end quirk for a cut last frame.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_RAW_LAYOUT_H
#define RL_RAW_LAYOUT_H

#include <stdint.h>

#include "pcm_format.h"   /* RlSampleFmt, RlInBlock, rl_raw_sample */

struct RlPcmReader;

/* A named file whose sample data can be read straight from disk.
 *
 * Partial last frame.  When a stereo file holds exactly one whole sample
 * after its last whole frame (cut mid-frame, or a lone sample after the
 * data), libsndfile returns that sample in the last read, and LAME's front
 * end, which copies each read's frames from its end, drops that read's
 * first sample instead: in LAME's last read (the frames - frames % R last
 * frames for reads of R frames) left = sample 2i+1 and right = sample 2i+2.
 * tail says the sample is there (checked against libsndfile's value);
 * rl_raw_layout_set_read_size gives the frames of that last read, and
 * rl_raw_sample_offset where each value LAME sees lies. */
typedef struct RlRawLayout {
    const char *path;       /* owned by the reader */
    int64_t data_offset;    /* byte offset of frame 0 */
    int64_t frames;         /* frames libsndfile delivers (its clamped length) */
    int     fmt;            /* RlSampleFmt, never RL_SF_I32 */
    int     channels;
    int     frame_bytes;
    int     tail;           /* 1: one whole sample follows the last frame (stereo) */
    int     shift_frames;   /* frames of LAME's last read that are shifted by one
                             * sample (0 unless tail; rl_raw_layout_set_read_size) */
} RlRawLayout;

/* LAME reads the file read_frames frames at a time (lame_get_framesize()):
 * sets l->shift_frames to the frames of its last read that lose their first
 * sample (frames % read_frames with a tail, else 0). */
static inline void rl_raw_layout_set_read_size(RlRawLayout *l, int read_frames)
{
    l->shift_frames = l->tail && read_frames > 0 ? (int)(l->frames % read_frames) : 0;
}

/* Byte offset, from data_offset, of the sample LAME's front end sees as
 * channel c of frame f (after rl_raw_layout_set_read_size). */
static inline int64_t rl_raw_sample_offset(const RlRawLayout *l, int64_t f, int c)
{
    int64_t const at = f * l->frame_bytes + (int64_t)c * rl_raw_sample_bytes(l->fmt);
    return f >= l->frames - l->shift_frames ? at + rl_raw_sample_bytes(l->fmt) : at;
}

/* Converts n interleaved samples of block b's encoding to int32. */
void rl_raw_convert(const void *src, int fmt, int32_t *dst, long n);

/* Decides whether r's file can be read raw: libsndfile opened it as
 * WAV/WAVEX, AIFF/AIFC (NONE/twos/sowt), AU or RAW with 8/16/24/32-bit
 * integer samples; our own header walk finds the data offset; and
 * sf_read_int's values at the start, middle and end equal rl_raw_sample of
 * the bytes there, the sample after the last frame too when libsndfile
 * returns one (out->tail) (so a header we misread falls back instead of
 * encoding wrong samples).  W64, RF64, CAF and the rest are decoded.  Must run
 * before the first rl_pcm_read (it leaves libsndfile at frame 0).
 * Returns 1 (out filled), 0 (decode with rl_pcm_read instead), <0 -errno. */
int rl_raw_layout_probe(struct RlPcmReader *r, RlRawLayout *out);

#endif
