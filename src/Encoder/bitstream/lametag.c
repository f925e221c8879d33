/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the Xing/Info + LAME tag frame (placeholder at start, final frame at the end).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lametag.h"
#include "tables.h"
#include "crc16.h"

#define TOC_ENTRIES   100
#define XING_HEADER_SIZE (TOC_ENTRIES + 4 + 4 + 4 + 4 + 4)
#define LAME_HEADER_SIZE (XING_HEADER_SIZE + 9 + 1 + 1 + 8 + 1 + 1 + 3 + 1 + 1 + 2 + 4 + 2 + 2)

/* Xing flags: frames, bytes, TOC, VBR scale */
#define XING_FLAGS 0x0F

static const char tag_encoder_version[] = "LAME3.100";

/* Bitrate of the tag frame: 128/64/32 kbps for MPEG-1/2/2.5, the CBR rate for CBR. */
static int tag_kbps(const RlConfig *cfg)
{
    int kbps;
    if (cfg->version == 1)
        kbps = 128;
    else
        kbps = cfg->samplerate_out < 16000 ? 32 : 64;
    if (cfg->vbr == RL_VBR_OFF)
        kbps = cfg->avg_bitrate;
    return kbps;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put_u16(uint8_t *p, int v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int get_u16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

/* The 4 header bytes of the tag frame (LAME setLameTagFrameHeader): a real
 * frame header whose bitrate is replaced by the tag bitrate and whose
 * padding bit is cleared; mode_ext is the last encoded frame's. */
static void tag_frame_header(const RlConfig *cfg, int bitrate_index, int mode_ext, uint8_t *b)
{
    int const sync_bit = cfg->samplerate_out < 16000 ? 0 : 1;
    int bbyte;

    b[0] = 0xff;
    b[1] = (uint8_t)(0xe0 | sync_bit << 4 | cfg->version << 3 | 1 << 1 | !cfg->error_protection);
    b[2] = (uint8_t)((bitrate_index & 15) << 4 | (cfg->samplerate_index & 3) << 2
                     | (cfg->extension & 1));
    b[3] = (uint8_t)(((int)cfg->mode & 3) << 6 | (mode_ext & 3) << 4 | (cfg->copyright & 1) << 3
                     | (cfg->original & 1) << 2 | (cfg->emphasis & 3));

    if (cfg->free_format)
        bbyte = 0;
    else
        bbyte = 16 * rl_bitrate_index(tag_kbps(cfg), cfg->version, cfg->samplerate_out);

    /* keep sync, the <16 kHz bit and protection; force the version/layer bits */
    b[1] = (uint8_t)((b[1] & 0xf1) | (cfg->version == 1 ? 0x0a : 0x02));
    /* keep sample rate, private bit (0x0d); bitrate from the tag rate */
    b[2] = (uint8_t)(bbyte | (b[2] & 0x0d));
}

int rl_lametag_placeholder(RlEncodeState *s, const RlConfig *cfg, uint8_t *buf, size_t cap)
{
    int const total = (cfg->version + 1) * 72000 * tag_kbps(cfg) / cfg->samplerate_out;
    int const header_size = cfg->sideinfo_len + LAME_HEADER_SIZE;
    RlSeekInfo *const v = &s->seek;

    v->total_frame_size = total;
    if (total < header_size || total > RL_TAG_MAX_FRAME)
        return 0;   /* LAME disables the tag: it would not fit */
    if ((size_t)total > cap)
        return -ENOSPC;

    v->nvbr_num_frames = 0;
    v->nbytes_written = 0;
    v->sum = 0;
    v->seen = 0;
    v->want = 1;
    v->pos = 0;
    v->size = 400;

    memset(buf, 0, (size_t)total);
    /* LAME's ov_enc.mode_ext: 0 at init, the last frame's for the next
     * file of a gapless set (it stays when that file gets no frame) */
    tag_frame_header(cfg, 0, s->last_mode_ext, buf);
    return total;
}

/* TOC from the kbps bag (LAME Xing_seek_table); float/double as in LAME. */
static void seek_table(const RlSeekInfo *v, uint8_t *t)
{
    if (v->pos <= 0)
        return;
    for (int i = 1; i < TOC_ENTRIES; ++i) {
        float const j = i / (float)TOC_ENTRIES;
        int indx = (int)floor(j * v->pos);
        float act, sum;
        int seek_point;
        if (indx > v->pos - 1)
            indx = v->pos - 1;
        act = (float)v->bag[indx];
        sum = (float)v->sum;
        seek_point = (int)(256. * act / sum);
        if (seek_point > 255)
            seek_point = 255;
        t[i] = (uint8_t)seek_point;
    }
}

/* The 40-byte LAME extension after the Xing fields (LAME PutLameVBR). */
static int put_lame_ext(const RlEncodeState *s, const RlConfig *cfg, const RlTagInfo *info,
                        unsigned long music_length, uint8_t *p, uint16_t crc)
{
    static const uint8_t vbr_method[] = { 1, 5, 3, 2, 4, 0, 3 };
    int n = 0;
    int quality = 100 - 10 * cfg->vbr_q - cfg->quality;
    double const lp = cfg->lowpassfreq / 100.0 + .5;
    uint8_t const lowpass = (uint8_t)(lp > 255 ? 255 : lp);
    uint32_t peak = 0;
    uint16_t radio = 0;
    int nogap_more = 0, nogap_prev = 0;
    int stereo, nonopt, srcfreq, abr, flags, misc;
    uint8_t method;

    switch (cfg->vbr) {
    case RL_VBR_ABR:
        abr = cfg->vbr_avg_bitrate_kbps;
        break;
    case RL_VBR_OFF:
        abr = cfg->avg_bitrate;
        break;
    default:
        abr = rl_bitrate_kbps(cfg->version, cfg->vbr_min_bitrate_index);
        break;
    }
    method = (unsigned)cfg->vbr < sizeof vbr_method ? vbr_method[cfg->vbr] : 0;

    if (cfg->find_replay_gain) {
        int rg = info->radio_gain;
        if (rg > 0x1FE)
            rg = 0x1FE;
        if (rg < -0x1FE)
            rg = -0x1FE;
        radio = 0x2000 | 0xC00;   /* name: radio; originator: automatic */
        if (rg >= 0)
            radio |= (uint16_t)rg;
        else
            radio |= (uint16_t)(0x200 | -rg);
    }
    if (cfg->find_peak_sample)
        peak = (uint32_t)abs((int)((((float)info->peak_sample) / 32767.0) * pow(2, 23) + .5));

    if (info->nogap_total != -1) {
        if (info->nogap_current > 0)
            nogap_prev = 1;
        if (info->nogap_current < info->nogap_total - 1)
            nogap_more = 1;
    }
    flags = cfg->ath_type + (1 << 4) + ((cfg->use_safe_joint_stereo != 0) << 5)
            + (nogap_more << 6) + (nogap_prev << 7);
    if (quality < 0)
        quality = 0;

    switch (cfg->mode) {
    case RL_MONO: stereo = 0; break;
    case RL_STEREO: stereo = 1; break;
    case RL_DUAL_CHANNEL: stereo = 2; break;
    case RL_JOINT_STEREO: stereo = cfg->force_ms ? 4 : 3; break;
    default: stereo = 7; break;
    }
    if (cfg->samplerate_in <= 32000)
        srcfreq = 0;
    else if (cfg->samplerate_in == 48000)
        srcfreq = 2;
    else if (cfg->samplerate_in > 48000)
        srcfreq = 3;
    else
        srcfreq = 1;

    nonopt = cfg->short_blocks == RL_SB_FORCED || cfg->short_blocks == RL_SB_DISPENSED
             || (cfg->lowpassfreq == -1 && cfg->highpassfreq == -1)
             || (cfg->disable_reservoir && cfg->avg_bitrate < 320)
             || cfg->no_ath || cfg->ath_only || cfg->ath_type == 0 || cfg->samplerate_in <= 32000;
    misc = cfg->noise_shaping + (stereo << 2) + (nonopt << 5) + (srcfreq << 6);

    put_u32(p + n, (uint32_t)quality);
    n += 4;
    memcpy(p + n, tag_encoder_version, 9);
    n += 9;
    p[n++] = method;   /* revision 0 */
    p[n++] = lowpass;
    put_u32(p + n, peak);
    n += 4;
    put_u16(p + n, radio);
    n += 2;
    put_u16(p + n, 0);   /* audiophile gain */
    n += 2;
    p[n++] = (uint8_t)flags;
    p[n++] = (uint8_t)(abr >= 255 ? 0xFF : abr);
    p[n] = (uint8_t)(info->encoder_delay >> 4);
    p[n + 1] = (uint8_t)((info->encoder_delay << 4) + (info->encoder_padding >> 8));
    p[n + 2] = (uint8_t)info->encoder_padding;
    n += 3;
    p[n++] = (uint8_t)misc;
    p[n++] = 0;
    put_u16(p + n, cfg->preset);
    n += 2;
    put_u32(p + n, (uint32_t)(int)music_length);
    n += 4;
    put_u16(p + n, s->music_crc);
    n += 2;
    crc = rl_crc16_lame(crc, p, (size_t)n);
    put_u16(p + n, crc);
    n += 2;
    return n;
}

int rl_lametag_frame(const RlEncodeState *s, const RlConfig *cfg, const RlTagInfo *info,
                     uint8_t *buf, size_t cap)
{
    const RlSeekInfo *const v = &s->seek;
    uint8_t toc[TOC_ENTRIES];
    unsigned long stream_size;
    int idx;

    if (!s->write_lame_tag || v->pos <= 0)
        return 0;
    if (cap < (size_t)v->total_frame_size)
        return -ENOSPC;

    memset(buf, 0, (size_t)v->total_frame_size);
    tag_frame_header(cfg, s->last_bitrate_index, s->last_mode_ext, buf);

    memset(toc, 0, sizeof toc);
    if (cfg->free_format) {
        for (int i = 1; i < TOC_ENTRIES; ++i)
            toc[i] = (uint8_t)(255 * i / 100);
    }
    else {
        seek_table(v, toc);
    }

    /* Xing data starts after the side info, in the same place even with
     * CRC (then it overlaps the side info, as in LAME) */
    idx = cfg->sideinfo_len;
    if (cfg->error_protection)
        idx -= 2;
    memcpy(buf + idx, cfg->vbr == RL_VBR_OFF ? "Info" : "Xing", 4);
    idx += 4;
    put_u32(buf + idx, XING_FLAGS);
    idx += 4;
    put_u32(buf + idx, (uint32_t)v->nvbr_num_frames);
    idx += 4;
    stream_size = v->nbytes_written + (unsigned long)v->total_frame_size;
    put_u32(buf + idx, (uint32_t)stream_size);
    idx += 4;
    memcpy(buf + idx, toc, sizeof toc);
    idx += (int)sizeof toc;

    if (cfg->error_protection)
        rl_crc16_write_header(buf, cfg->sideinfo_len);
    {
        uint16_t const crc = rl_crc16_lame(0, buf, (size_t)idx);
        idx += put_lame_ext(s, cfg, info, stream_size, buf + idx, crc);
    }
    (void)idx;
    return v->total_frame_size;
}

int rl_lametag_parse(const uint8_t *b, size_t n, RlTagFields *out)
{
    int h_id, h_mode, idx;
    const uint8_t *p;

    memset(out, 0, sizeof *out);
    if (n < 4 || b[0] != 0xff || (b[1] & 0xe0) != 0xe0 || ((b[1] >> 1) & 3) != 1)
        return -EINVAL;
    h_id = (b[1] >> 3) & 1;
    h_mode = (b[3] >> 6) & 3;
    if (h_id)
        idx = h_mode != 3 ? 32 + 4 : 17 + 4;
    else
        idx = h_mode != 3 ? 17 + 4 : 9 + 4;
    if ((size_t)idx + 156 > n)
        return -EINVAL;
    p = b + idx;
    if (memcmp(p, "Xing", 4) != 0 && memcmp(p, "Info", 4) != 0)
        return -EINVAL;
    memcpy(out->id, p, 4);
    out->flags = get_u32(p + 4);
    out->frames = get_u32(p + 8);
    out->bytes = get_u32(p + 12);
    memcpy(out->toc, p + 16, 100);
    out->quality = get_u32(p + 116);
    p += 120;
    memcpy(out->version, p, 9);
    out->rev_method = p[9];
    out->lowpass = p[10];
    out->peak = get_u32(p + 11);
    out->radio_gain = get_u16(p + 15);
    out->audiophile_gain = get_u16(p + 17);
    out->flags_ath = p[19];
    out->abr_bitrate = p[20];
    out->enc_delay = p[21] << 4 | p[22] >> 4;
    out->enc_padding = (p[22] & 15) << 8 | p[23];
    out->misc = p[24];
    out->preset = get_u16(p + 26);
    out->music_length = get_u32(p + 28);
    out->music_crc = get_u16(p + 32);
    out->tag_crc = get_u16(p + 34);
    out->tag_crc_ok = rl_crc16_lame(0, b, (size_t)(p + 34 - b)) == out->tag_crc;
    return 0;
}
