/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MPEG audio frame headers and the Xing/Info (LAME) tag.
 * Algorithm derived from LAME 3.100 (mpglib/common.c, frontend/get_audio.c,
 * libmp3lame/VbrTag.c; LGPL-2.0-or-later). */
#include <string.h>
#include "mpa_internal.h"

/* kbit/s by [lsf][layer - 1][bitrate_index] */
const int rl_mpa_kbps[2][3][16] = {
    { { 0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448 },
      { 0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384 },
      { 0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 } },
    { { 0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256 },
      { 0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160 },
      { 0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160 } }
};

const long rl_mpa_freqs[9] = { 44100, 48000, 32000, 22050, 24000, 16000, 11025, 12000, 8000 };

int rl_mpa_head_check(unsigned long head, int check_layer)
{
    int const layer = 4 - (int) ((head >> 17) & 3);

    if ((head & 0xffe00000) != 0xffe00000)
        return 0;
    if (layer == 4)
        return 0;
    if (check_layer > 0 && layer != check_layer)
        return 0;
    if (((head >> 12) & 0xf) == 0xf)    /* bitrate index 15 */
        return 0;
    if (((head >> 10) & 0x3) == 0x3)    /* sample rate index 3 */
        return 0;
    if ((head & 0x3) == 0x2)            /* reserved emphasis */
        return 0;
    return 1;
}

/* 1 = usable, 0 = a header mpglib refuses (*why: the message mpglib
 * reports then, with the layer as its one number) */
int rl_mpa_decode_header(MpaFrame *fr, unsigned long head, const char **why)
{
    *why = NULL;
    if (head & (1 << 20)) {
        fr->lsf = (head & (1 << 19)) ? 0 : 1;
        fr->mpeg25 = 0;
    }
    else {
        fr->lsf = 1;
        fr->mpeg25 = 1;
    }
    fr->lay = 4 - (int) ((head >> 17) & 3);
    if (fr->lay != 3 && fr->mpeg25) {
        *why = "MPEG-2.5 is supported by Layer3 only\n";
        return 0;
    }
    if (((head >> 10) & 0x3) == 0x3) {
        *why = "Stream error\n";
        return 0;
    }
    if (fr->mpeg25)
        fr->sampling_frequency = 6 + (int) ((head >> 10) & 0x3);
    else
        fr->sampling_frequency = (int) ((head >> 10) & 0x3) + fr->lsf * 3;
    fr->error_protection = (int) ((head >> 16) & 0x1) ^ 0x1;
    fr->bitrate_index = (int) ((head >> 12) & 0xf);
    fr->padding = (int) ((head >> 9) & 0x1);
    fr->extension = (int) ((head >> 8) & 0x1);
    fr->mode = (int) ((head >> 6) & 0x3);
    fr->mode_ext = (int) ((head >> 4) & 0x3);
    fr->copyright = (int) ((head >> 3) & 0x1);
    fr->original = (int) ((head >> 2) & 0x1);
    fr->emphasis = (int) (head & 0x3);
    fr->stereo = fr->mode == MPA_MD_MONO ? 1 : 2;

    switch (fr->lay) {
    case 1:
        fr->framesize = (int) (((long) rl_mpa_kbps[fr->lsf][0][fr->bitrate_index] * 12000)
                               / rl_mpa_freqs[fr->sampling_frequency]);
        fr->framesize = ((fr->framesize + fr->padding) << 2) - 4;
        break;
    case 2:
        fr->framesize = (int) (((long) rl_mpa_kbps[fr->lsf][1][fr->bitrate_index] * 144000)
                               / rl_mpa_freqs[fr->sampling_frequency]);
        fr->framesize += fr->padding - 4;
        break;
    case 3:
        if (fr->framesize > 4096) { /* the previous frame's size, as mpglib checks it */
            *why = "Frame size too big.\n";
            fr->framesize = 4096;
            return 0;
        }
        if (fr->bitrate_index == 0)
            fr->framesize = 0;      /* free format: measured later */
        else {
            fr->framesize = (int) (((long) rl_mpa_kbps[fr->lsf][2][fr->bitrate_index] * 144000)
                                   / (rl_mpa_freqs[fr->sampling_frequency] << fr->lsf));
            fr->framesize += fr->padding - 4;
        }
        break;
    default:
        *why = "Sorry, layer %ld not supported\n";
        return 0;
    }
    return 1;
}

int rl_mpa_syncword(const uint8_t p[4], int *layer)
{
    /* Layer II bitrate/mode pairs the standard forbids (MPEG-1) */
    static const char abl2[16] = { 0, 7, 7, 7, 0, 7, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8 };

    *layer = 0;
    if (p[0] != 0xFF || (p[1] & 0xE0) != 0xE0)
        return 0;
    if ((p[1] & 0x18) == 0x08)          /* reserved version */
        return 0;
    switch (p[1] & 0x06) {
    case 0x02: *layer = 3; break;
    case 0x04: *layer = 2; break;
    case 0x06: *layer = 1; break;
    default: return 0;
    }
    if ((p[2] & 0xF0) == 0xF0)
        return 0;
    if ((p[2] & 0x0C) == 0x0C)
        return 0;
    if ((p[1] & 0x18) == 0x18 && (p[1] & 0x06) == 0x04 && (abl2[p[2] >> 4] & (1 << (p[3] >> 6))))
        return 0;
    if ((p[3] & 3) == 2)
        return 0;
    return 1;
}

static int be32(const uint8_t *b)
{
    return (int) (((uint32_t) b[0] << 24) | ((uint32_t) b[1] << 16) | ((uint32_t) b[2] << 8) | b[3]);
}

int rl_mpa_vbr_tag(const uint8_t buf[RL_MPA_TAG_PROBE], RlMpaVbrTag *tag)
{
    /* Layer III kbit/s by [MPEG-1][index] and Hz by [id or 2 for 2.5][index] */
    static const int kbps[2][16] = {
        { 0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1 },
        { 0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1 } };
    static const int rates[3][4] = {
        { 22050, 24000, 16000, -1 }, { 44100, 48000, 32000, -1 }, { 11025, 12000, 8000, -1 } };
    const uint8_t *b = buf;
    int h_id, h_sr, h_mode, h_kbps, flags;

    memset(tag, 0, sizeof(*tag));
    if (((b[1] >> 1) & 3) != 1)         /* Layer III only */
        return 0;
    h_id = (b[1] >> 3) & 1;
    h_sr = (b[2] >> 2) & 3;
    h_mode = (b[3] >> 6) & 3;
    h_kbps = kbps[h_id][(b[2] >> 4) & 0xf];
    tag->samplerate = (b[1] >> 4) == 0xE ? rates[2][h_sr] : rates[h_id][h_sr];

    /* the tag follows the side information */
    if (h_id)
        b += h_mode != 3 ? 32 + 4 : 17 + 4;
    else
        b += h_mode != 3 ? 17 + 4 : 9 + 4;
    if (memcmp(b, "Xing", 4) != 0 && memcmp(b, "Info", 4) != 0)
        return 0;
    b += 4;
    flags = tag->flags = be32(b);
    b += 4;
    if (flags & 0x1) {
        tag->frames = be32(b);
        b += 4;
    }
    if (flags & 0x2) {
        tag->bytes = be32(b);
        b += 4;
    }
    if (flags & 0x4)
        b += 100;                       /* the seek table */
    tag->vbr_scale = -1;
    if (flags & 0x8) {
        tag->vbr_scale = be32(b);
        b += 4;
    }
    tag->header_size = tag->samplerate > 0 ? ((h_id + 1) * 72000 * h_kbps) / tag->samplerate : 0;

    /* the LAME extension: 12 bits of delay, 12 of padding */
    b += 21;
    tag->enc_delay = (b[0] << 4) + (b[1] >> 4);
    tag->enc_padding = ((b[1] & 0x0F) << 8) + b[2];
    if (tag->enc_delay < 0 || tag->enc_delay > 3000)
        tag->enc_delay = -1;
    if (tag->enc_padding < 0 || tag->enc_padding > 3000)
        tag->enc_padding = -1;
    return 1;
}
