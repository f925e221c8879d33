/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the PCM vocabulary Io and the encoder share: sample encodings,
 * the input block the I/O scheduler hands to Dispatch, and the conversion of
 * one sample to the left-justified int32 libsndfile's sf_read_int returns
 * (what LAME's front end feeds the encoder).  Header only, no dependencies:
 * Io produces blocks, Dispatch consumes them, neither sees the other's
 * internals. */
#ifndef RL_PCM_FORMAT_H
#define RL_PCM_FORMAT_H

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* Sample encodings a block can carry.  RL_SF_I32 is native int32 already
 * converted by rl_pcm_read (FLAC, Ogg, float, stdin ...); the others are the
 * file's own bytes, converted by rl_raw_sample. */
typedef enum RlSampleFmt {
    RL_SF_I32 = 0,
    RL_SF_S8, RL_SF_U8,
    RL_SF_S16LE, RL_SF_S16BE,
    RL_SF_S24LE, RL_SF_S24BE,
    RL_SF_S32LE, RL_SF_S32BE,
    /* the input floats already converted (pcm_typed.h): u, v per frame */
    RL_SF_F32_UV
} RlSampleFmt;

/* One input block (I/O scheduler -> Dispatch).  Frames are interleaved,
 * `channels` samples of `fmt` per frame, frame_bytes bytes per frame. */
typedef struct RlInBlock {
    const void *data;
    int     nframes;        /* frames in data (a multiple of the block size except at eof) */
    int     eof;            /* 1: the last block of the stream (nframes may be 0) */
    int64_t first_frame;    /* index of data's first frame in the stream */
    int     fmt;            /* RlSampleFmt */
    int     channels;       /* 1 or 2 */
    int     frame_bytes;    /* bytes per frame in data */
} RlInBlock;

/* Bytes per sample of fmt. */
static inline int rl_raw_sample_bytes(int fmt)
{
    switch (fmt) {
    case RL_SF_S8: case RL_SF_U8: return 1;
    case RL_SF_S16LE: case RL_SF_S16BE: return 2;
    case RL_SF_S24LE: case RL_SF_S24BE: return 3;
    case RL_SF_F32_UV: return 8;    /* u and v of one frame */
    default: return 4;
    }
}

/* The left-justified int32 libsndfile's sf_read_int returns for one sample
 * (s16 << 16, s24 << 8, s32, s8 << 24, (u8 - 128) << 24). */
static inline int32_t rl_raw_sample(const uint8_t *p, int fmt)
{
    switch (fmt) {
    case RL_SF_S8:    return (int32_t)((uint32_t)p[0] << 24);
    case RL_SF_U8:    return (int32_t)((uint32_t)(p[0] ^ 0x80) << 24);
    case RL_SF_S16LE: return (int32_t)((uint32_t)p[1] << 24 | (uint32_t)p[0] << 16);
    case RL_SF_S16BE: return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16);
    case RL_SF_S24LE: return (int32_t)((uint32_t)p[2] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 8);
    case RL_SF_S24BE: return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8);
    case RL_SF_S32LE: return (int32_t)((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
    case RL_SF_S32BE: return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
    default: { int32_t v; memcpy(&v, p, 4); return v; }   /* RL_SF_I32 */
    }
}

/* A float sample (full scale 1.0) as lame's front end converts a float WAV
 * it reads itself (standard input): clipped to [-1, 1], scaled by 2^31 in
 * float, rounded half away from zero; NaN gives INT32_MIN (what x86's
 * cvttss2si gives LAME). */
static inline int32_t rl_pcm_f32_to_s32(float u)
{
    float const m_max = (float) INT_MAX;        /* 2^31 after rounding */
    float const m_min = -(float) INT_MIN;
    if (u >= 1)
        return INT_MAX;
    if (u <= -1)
        return INT_MIN;
    if (u >= 0)
        return (int32_t) (u * m_max + 0.5f);
    if (u < 0)
        return (int32_t) (u * m_min - 0.5f);
    return INT_MIN;
}

#endif
