/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the MPEG audio decoder (Layers I, II and III), pure computation: bytes in,
 * 16-bit (or unclipped float) samples out, exactly as LAME's own decoder (mpglib, "hip") gives
 * them.  Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_DECODER_H
#define RL_DECODER_H

#include <stddef.h>
#include <stdint.h>

typedef struct RlMpaDecoder RlMpaDecoder;

/* What the headers said so far (LAME's mp3data_struct). */
typedef struct RlMpaInfo {
    int      header_parsed; /* 1 once a frame header was read */
    int      channels;      /* 1 or 2 */
    int      samplerate;    /* Hz */
    int      mode, mode_ext;
    int      layer;         /* 1, 2 or 3 */
    int      frame_samples; /* samples per channel and frame: 384, 576 or 1152 */
    int      bitrate;       /* kbit/s (free format: measured from the frame size) */
    int      total_frames;  /* from a Xing/Info tag, else 0 */
    uint32_t nsamp;         /* total_frames * frame_samples, else 0 */
} RlMpaInfo;

/* The Xing/Info tag of a first frame, with the LAME extension's encoder
 * delay and padding (-1 where absent or out of range). */
typedef struct RlMpaVbrTag {
    int flags;
    int frames;
    int bytes;
    int vbr_scale;
    int header_size;   /* bytes of the tag frame (without padding) */
    int samplerate;
    int enc_delay, enc_padding;
} RlMpaVbrTag;

int  rl_mpa_create(RlMpaDecoder **out);
/* mpglib's messages on damaged streams ("hip: bitstream problem, resyncing
 * skipping N bytes...\n", "hip: Can't step back N bytes!\n"), each handed
 * to fn as lame's front end prints it; fn NULL: none (the default). */
void rl_mpa_set_report(RlMpaDecoder *d, void (*fn)(void *arg, const char *text), void *arg);
void rl_mpa_destroy(RlMpaDecoder *d);

/* Feeds len bytes (len 0: decode from what is buffered) and decodes at most
 * one frame into pcm_l/pcm_r (pcm_r unused for mono), like LAME's
 * hip_decode1_headersB.  info is refreshed once a header was seen;
 * *enc_delay and *enc_padding are set when a Xing/Info tag was found.
 * Returns the samples per channel (> 0), 0 when more bytes are needed, or
 * -1 on a stream error. */
int  rl_mpa_decode(RlMpaDecoder *d, const uint8_t *in, size_t len, int16_t pcm_l[1152],
                   int16_t pcm_r[1152], RlMpaInfo *info, int *enc_delay, int *enc_padding);

/* rl_mpa_decode with mpglib's unclipped float samples (LAME's
 * hip_decode1_unclipped: the synthesis sums, neither rounded nor clipped),
 * as LAME's encoder decodes its own output for --replaygain-accurate. */
int  rl_mpa_decode_unclipped(RlMpaDecoder *d, const uint8_t *in, size_t len, float pcm_l[1152],
                             float pcm_r[1152]);

/* LAME's front end test for an MPEG audio frame header in p[0..3]
 * (is_syncword_mp123).  1 = a header, 0 = not.  *layer gets 1, 2 or 3 as
 * soon as the sync, version and layer bits are valid, even when a later
 * check refuses the header (LAME's front end settles its input layer at
 * that point), else 0. */
int  rl_mpa_syncword(const uint8_t p[4], int *layer);

/* Reads the Xing/Info tag of the frame whose header starts buf (194 bytes
 * needed, LAME's GetVbrTag).  1 = found, 0 = none. */
int  rl_mpa_vbr_tag(const uint8_t buf[194], RlMpaVbrTag *tag);

#define RL_MPA_TAG_PROBE 194

#endif
