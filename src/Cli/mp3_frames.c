/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* The MP3 frame walker (mp3_frames.h). */
#include "mp3_frames.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* kbps by [MPEG-1 ? 0 : 1][layer - 1][bitrate index]; 0: free or reserved */
static const short bitrates[2][3][16] = {
    {
        {0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 0},
        {0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 0},
        {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0},
    },
    {
        {0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256, 0},
        {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0},
        {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0},
    },
};

/* Hz by [version bits][rate index] (version bits 1 is reserved) */
static const int samplerates[4][3] = {
    {11025, 12000, 8000},   /* MPEG-2.5 */
    {0, 0, 0},
    {22050, 24000, 16000},  /* MPEG-2 */
    {44100, 48000, 32000},  /* MPEG-1 */
};

int rl_mp3_parse_header(const uint8_t *p, size_t avail, RlMp3Header *h)
{
    unsigned vbits, lbits, bidx, sidx;
    int mpeg1, br;

    if (avail < 4 || p[0] != 0xFF || (p[1] & 0xE0) != 0xE0)
        return -EINVAL;
    vbits = (p[1] >> 3) & 3;
    lbits = (p[1] >> 1) & 3;
    bidx = p[2] >> 4;
    sidx = (p[2] >> 2) & 3;
    if (vbits == 1 || lbits == 0 || sidx == 3)
        return -EINVAL;
    mpeg1 = vbits == 3;
    h->version = mpeg1 ? 1 : vbits == 2 ? 2 : 25;
    h->layer = 4 - (int) lbits;
    br = bitrates[mpeg1 ? 0 : 1][h->layer - 1][bidx];
    if (br == 0)
        return -EINVAL;
    h->bitrate_kbps = br;
    h->samplerate = samplerates[vbits][sidx];
    h->crc = !(p[1] & 1);
    h->padding = (p[2] >> 1) & 1;
    h->mode = p[3] >> 6;
    h->mode_ext = (p[3] >> 4) & 3;
    if (h->layer == 1) {
        h->samples = 384;
        h->frame_bytes = (12000 * br / h->samplerate + h->padding) * 4;
    }
    else {
        int const per = h->layer == 3 && !mpeg1 ? 72000 : 144000;
        h->samples = h->layer == 3 && !mpeg1 ? 576 : 1152;
        h->frame_bytes = per * br / h->samplerate + h->padding;
    }
    if (h->layer == 3)
        h->side_info_bytes = mpeg1 ? (h->mode == 3 ? 17 : 32) : (h->mode == 3 ? 9 : 17);
    else
        h->side_info_bytes = 0;
    return 0;
}

/* The size of the ID3v2 tag at the start (header, body, footer), bounded
 * by len; 0 when there is none. */
static size_t id3v2_size(const uint8_t *b, size_t len)
{
    size_t body;
    if (len < 10 || memcmp(b, "ID3", 3) != 0 || b[3] == 0xFF || b[4] == 0xFF
        || ((b[6] | b[7] | b[8] | b[9]) & 0x80))
        return 0;
    body = (size_t) b[6] << 21 | (size_t) b[7] << 14 | (size_t) b[8] << 7 | b[9];
    body += 10 + ((b[5] & 0x10) ? 10 : 0);
    return body < len ? body : len;
}

static int push(RlMp3Layout *l, size_t *cap, size_t off, size_t bytes, const RlMp3Header *h)
{
    if (l->nframes == *cap) {
        size_t const ncap = *cap ? *cap * 2 : 256;
        RlMp3Frame *f = realloc(l->frames, ncap * sizeof(*f));
        if (!f)
            return -ENOMEM;
        l->frames = f;
        *cap = ncap;
    }
    l->frames[l->nframes].offset = off;
    l->frames[l->nframes].bytes = bytes;
    l->frames[l->nframes].h = *h;
    l->nframes++;
    return 0;
}

int rl_mp3_walk(const uint8_t *buf, size_t len, RlMp3Layout *out)
{
    size_t pos, cap = 0;
    RlMp3Header h;

    memset(out, 0, sizeof(*out));
    out->id3v2_bytes = id3v2_size(buf, len);
    out->audio_end = len;
    if (len - out->id3v2_bytes >= 128 && memcmp(buf + len - 128, "TAG", 3) == 0) {
        out->has_id3v1 = 1;
        out->audio_end = len - 128;
    }
    pos = out->id3v2_bytes;
    while (pos < out->audio_end) {
        size_t const avail = out->audio_end - pos;
        if (rl_mp3_parse_header(buf + pos, avail, &h) != 0) {
            out->junk_bytes++;
            pos++;
            continue;
        }
        if (push(out, &cap, pos, (size_t) h.frame_bytes < avail ? (size_t) h.frame_bytes : avail,
                 &h) < 0) {
            rl_mp3_layout_free(out);
            return -ENOMEM;
        }
        pos += out->frames[out->nframes - 1].bytes;
    }
    /* the tag follows the side info; lame counts no CRC before it */
    for (int crc = 0; out->nframes > 0 && crc <= 2 && !out->tag_frame; crc += 2) {
        const RlMp3Frame *f = &out->frames[0];
        size_t const at = 4 + (size_t) crc + (size_t) f->h.side_info_bytes;
        if (f->h.layer == 3 && at + 4 <= f->bytes
            && (memcmp(buf + f->offset + at, "Xing", 4) == 0
                || memcmp(buf + f->offset + at, "Info", 4) == 0))
            out->tag_frame = 1;
    }
    return 0;
}

void rl_mp3_layout_free(RlMp3Layout *l)
{
    free(l->frames);
    l->frames = NULL;
    l->nframes = 0;
}

const char *rl_mp3_version_name(int version)
{
    return version == 1 ? "MPEG-1" : version == 2 ? "MPEG-2" : "MPEG-2.5";
}

const char *rl_mp3_mode_name(int mode)
{
    static const char *const names[4] = {"stereo", "joint stereo", "dual channel", "mono"};
    return names[mode & 3];
}
