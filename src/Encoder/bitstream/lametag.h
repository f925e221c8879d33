/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the Xing/Info + LAME tag frame (placeholder at start, final frame at the end).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_LAMETAG_H
#define RL_LAMETAG_H

#include <stddef.h>
#include <stdint.h>

#include "rl_config.h"
#include "bitstream.h"

/* Largest tag frame (LAME MAXFRAMESIZE: 640 kbps free format at 32 kHz). */
#define RL_TAG_MAX_FRAME 2880

/* The placeholder frame LAME's InitVbrTag writes at stream start: header
 * bytes then zeros, TotalFrameSize bytes.  Sets s->seek (TotalFrameSize,
 * bag counters).  Returns the size, 0 if the tag does not fit in a frame
 * of that bitrate (LAME then disables the tag), or -ENOSPC if cap is short.
 * Stage: init. */
int rl_lametag_placeholder(RlEncodeState *s, const RlConfig *cfg, uint8_t *buf, size_t cap);

/* The final tag frame (LAME lame_get_lametag_frame), to be written over the
 * placeholder at offset 0.  Returns its size, 0 when no tag is written
 * (disabled, or no frame was encoded), -ENOSPC if cap is too small.
 * Stage: Encode (the final tag). */
int rl_lametag_frame(const RlEncodeState *s, const RlConfig *cfg, const RlTagInfo *info,
                     uint8_t *buf, size_t cap);

/* Fields of a tag frame, read back (for tests and tools). */
typedef struct RlTagFields {
    char     id[5];              /* "Xing" or "Info" */
    uint32_t flags, frames, bytes;
    uint8_t  toc[100];
    uint32_t quality;
    char     version[10];        /* "LAME3.100" */
    int      rev_method, lowpass;
    uint32_t peak;
    int      radio_gain, audiophile_gain, flags_ath, abr_bitrate;
    int      enc_delay, enc_padding, misc, preset;
    uint32_t music_length;
    int      music_crc, tag_crc;
    int      tag_crc_ok;         /* CRC of bytes 0..189 (from frame start) matches */
} RlTagFields;

/* Parses a tag frame built by rl_lametag_frame; -EINVAL if it is not one.
 * Stage: none (tests read a tag back). */
int rl_lametag_parse(const uint8_t *frame, size_t n, RlTagFields *out);

#endif
