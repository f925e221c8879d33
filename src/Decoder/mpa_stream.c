/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the decoder's byte stream: queueing input, finding frames,
 * reading a first-frame Xing/Info tag, the bit reservoir's buffers and the
 * frame-by-frame state machine (header, side info, main data, ancillary).
 * Algorithm derived from LAME 3.100 (mpglib/interface.c, common.c and
 * libmp3lame/mpglib_interface.c; LGPL-2.0-or-later): the same bytes are
 * consumed at the same calls, so the same frames decode. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpa_internal.h"

int rl_mpa_create(RlMpaDecoder **out)
{
    RlMpaDecoder *d = calloc(1, sizeof(*d));
    if (!d)
        return -ENOMEM;
    d->enc_delay = -1;
    d->enc_padding = -1;
    d->fsizeold = -1;
    d->fr.single = -1;
    d->wordpointer = d->bsspace[0] + 512;
    d->synth_bo = 1;
    d->sync_bitstream = 1;
    rl_mpa_tables_init(&d->t);
    *out = d;
    return 0;
}

void rl_mpa_destroy(RlMpaDecoder *d)
{
    if (d) {
        free(d->q);
        free(d);
    }
}

static int queue_add(RlMpaDecoder *d, const uint8_t *in, size_t len)
{
    size_t const used = (size_t) d->bsize;
    if (len > (size_t) 0x7fffffff - used)
        return -1;
    if (d->q_head + used + len > d->q_cap) {
        if (d->q_head > 0) {
            memmove(d->q, d->q + d->q_head, used);
            d->q_head = 0;
        }
        if (used + len > d->q_cap) {
            size_t cap = d->q_cap ? d->q_cap : 4096;
            uint8_t *nq;
            while (cap < used + len)
                cap *= 2;
            nq = realloc(d->q, cap);
            if (!nq)
                return -1;
            d->q = nq;
            d->q_cap = cap;
        }
    }
    memcpy(d->q + d->q_head + used, in, len);
    d->bsize += (int) len;
    return 0;
}

static unsigned queue_byte(RlMpaDecoder *d)
{
    unsigned const b = d->q[d->q_head];
    d->q_head++;
    d->bsize--;
    return b;
}

/* moves n queued bytes to dst (fewer when fewer are queued) */
static void queue_take(RlMpaDecoder *d, int n, uint8_t *dst)
{
    if (n > d->bsize)
        n = d->bsize;
    if (n <= 0)
        return;
    memcpy(dst, d->q + d->q_head, (size_t) n);
    d->q_head += (size_t) n;
    d->bsize -= n;
}

/* the queued bytes before the first frame header (with free_match: one of
 * the same channels and rate as the current frame); -1 when none */
static int sync_buffer(const RlMpaDecoder *d, int free_match)
{
    const uint8_t *p = d->q + d->q_head;
    for (int i = 3; i < d->bsize; i++) {
        unsigned long const head = ((unsigned long) p[i - 3] << 24) | ((unsigned long) p[i - 2] << 16)
                                   | ((unsigned long) p[i - 1] << 8) | p[i];
        int h = rl_mpa_head_check(head, d->fr.lay);
        if (h && free_match) {
            int lsf, mpeg25, sfreq;
            int const stereo = ((head >> 6) & 0x3) == MPA_MD_MONO ? 1 : 2;
            if (head & (1 << 20)) {
                lsf = (head & (1 << 19)) ? 0 : 1;
                mpeg25 = 0;
            }
            else {
                lsf = 1;
                mpeg25 = 1;
            }
            sfreq = mpeg25 ? 6 + (int) ((head >> 10) & 0x3) : (int) ((head >> 10) & 0x3) + lsf * 3;
            h = stereo == d->fr.stereo && lsf == d->fr.lsf && mpeg25 == d->fr.mpeg25
                && sfreq == d->fr.sampling_frequency;
        }
        if (h)
            return i - 3;
    }
    return -1;
}

/* a Xing/Info tag in the frame that starts `bytes` into the queue: its
 * size in bytes (1 when the tag gives none), 0 when there is none */
static int check_vbr_header(RlMpaDecoder *d, int bytes)
{
    RlMpaVbrTag tag;
    int const skip = bytes > 0 ? bytes : 0;

    if (skip + RL_MPA_TAG_PROBE > d->bsize)
        return -1;      /* fewer bytes than the tag needs (no header found) */
    d->vbr_header = rl_mpa_vbr_tag(d->q + d->q_head + skip, &tag);
    if (!d->vbr_header)
        return 0;
    d->num_frames = tag.frames;
    d->enc_delay = tag.enc_delay;
    d->enc_padding = tag.enc_padding;
    return tag.header_size < 1 ? 1 : tag.header_size;
}

void rl_mpa_set_report(RlMpaDecoder *d, void (*fn)(void *arg, const char *text), void *arg)
{
    d->report = fn;
    d->report_arg = arg;
}

void rl_mpa_report(const RlMpaDecoder *d, const char *fmt, long n)
{
    char text[96];
    if (!d->report)
        return;
    snprintf(text, sizeof text, fmt, n);
    d->report(d->report_arg, text);
}

/* the reservoir: main_data_begin bytes of the previous frame's buffer go
 * in front of this frame's main data */
static int set_pointer(RlMpaDecoder *d, long backstep)
{
    uint8_t *const old = d->bsspace[1 - d->bsnum] + 512;
    if (d->fsizeold < 0 && backstep > 0) {
        rl_mpa_report(d, "hip: Can't step back %ld bytes!\n", backstep);
        return MPA_ERR;
    }
    d->wordpointer -= backstep;
    if (backstep)
        memcpy(d->wordpointer, old + d->fsizeold - backstep, (size_t) backstep);
    d->bitindex = 0;
    return MPA_OK;
}

/* the header: the first one (syncing on anything, looking for the tag) or
 * the next (matching the stream) */
static int parse_header(RlMpaDecoder *d)
{
    const char *why;
    int bytes;

    if (d->fsizeold == -1 || d->sync_bitstream) {
        int vbrbytes;
        d->sync_bitstream = 0;
        bytes = sync_buffer(d, 0);
        if (d->bsize < bytes + RL_MPA_TAG_PROBE)
            return MPA_NEED_MORE;
        vbrbytes = check_vbr_header(d, bytes);
        if (d->vbr_header) {
            if (bytes + vbrbytes > d->bsize)
                return MPA_NEED_MORE;
            /* the tag frame carries no audio: skipped */
            for (int i = 0; i < vbrbytes + bytes; ++i)
                (void) queue_byte(d);
            return MPA_NEED_MORE;
        }
    }
    else
        bytes = sync_buffer(d, 1);

    if (bytes < 0)
        return MPA_NEED_MORE;
    if (bytes > 0) {
        /* garbage before the header: kept in the reservoir, at most a
         * frame's worth */
        int size = (int) (d->wordpointer - (d->bsspace[d->bsnum] + 512));
        if (d->fsizeold != -1)
            rl_mpa_report(d, "hip: bitstream problem, resyncing skipping %ld bytes...\n", bytes);
        d->old_free_format = 0;
        d->sync_bitstream = 1;
        if (size > MPA_MAXFRAMESIZE) {
            size = 0;
            d->wordpointer = d->bsspace[d->bsnum] + 512;
        }
        for (int i = (size + bytes) - MPA_MAXFRAMESIZE; i > 0; --i) {
            --bytes;
            (void) queue_byte(d);
        }
        queue_take(d, bytes, d->wordpointer);
        d->fsizeold += bytes;
    }

    d->header = queue_byte(d);
    d->header = (d->header << 8) | queue_byte(d);
    d->header = (d->header << 8) | queue_byte(d);
    d->header = (d->header << 8) | queue_byte(d);
    if (!rl_mpa_decode_header(&d->fr, d->header, &why)) {
        if (why)
            rl_mpa_report(d, why, d->fr.lay);
        return MPA_ERR;
    }
    d->header_parsed = 1;
    d->framesize = d->fr.framesize;
    d->free_format = d->framesize == 0;
    if (d->fr.lsf)
        d->ssize = d->fr.stereo == 1 ? 9 : 17;
    else
        d->ssize = d->fr.stereo == 1 ? 17 : 32;
    if (d->fr.error_protection)
        d->ssize += 2;
    d->bsnum = 1 - d->bsnum;
    d->wordpointer = d->bsspace[d->bsnum] + 512;
    d->bitindex = 0;
    /* the very first header: its data is parsed on the next call */
    if (d->fsizeold == -1)
        return MPA_NEED_MORE;
    return MPA_OK;
}

static int parse_side(RlMpaDecoder *d)
{
    int bits;
    if (d->fr.lay != 3) {
        /* Layers I and II: the whole frame before decoding */
        if (d->fr.framesize > d->bsize)
            return MPA_NEED_MORE;
        d->dsize = d->fr.framesize;
        d->ssize = 0;
        d->side_parsed = 1;
        return MPA_OK;
    }
    if (d->bsize < d->ssize)
        return MPA_NEED_MORE;
    queue_take(d, d->ssize, d->wordpointer);
    if (d->fr.error_protection)
        (void) mpa_getbits(d, 16);
    bits = rl_l3_read_side(d);
    if (bits < 0)
        bits = 0;
    d->dsize = (bits + 7) / 8;
    if (!d->free_format) {
        int const room = d->fr.framesize - d->ssize;
        if (d->dsize > room) {
            rl_mpa_report(d, "hip: error audio data exceeds framesize by %ld bytes\n",
                          (long) (d->dsize - room));
            d->dsize = room;
        }
    }
    d->side_parsed = 1;
    return MPA_OK;
}

/* the frame's data into d->out; sample values written, or -1 */
static int decode_data(RlMpaDecoder *d)
{
    if (d->fr.lay == 3)
        return set_pointer(d, (long) d->side.main_data_begin) == MPA_OK ? rl_l3_decode_frame(d) : 0;
    if (d->fr.error_protection)
        (void) mpa_getbits(d, 16);
    return d->fr.lay == 1 ? rl_l1_decode_frame(d) : rl_l2_decode_frame(d);
}

/* one step of mpglib's decodeMP3: *done = sample values written to d->out */
static int decode_step(RlMpaDecoder *d, const uint8_t *in, size_t len, int *done)
{
    int ret, bytes;

    if (in && len && queue_add(d, in, len) < 0)
        return MPA_ERR;
    if (!d->header_parsed) {
        ret = parse_header(d);
        if (ret != MPA_OK)
            return ret;
    }
    if (!d->side_parsed) {
        ret = parse_side(d);
        if (ret != MPA_OK)
            return ret;
    }
    ret = MPA_NEED_MORE;
    if (!d->data_parsed) {
        if (d->dsize > d->bsize)
            return MPA_NEED_MORE;
        queue_take(d, d->dsize, d->wordpointer);
        *done = decode_data(d);
        if (*done < 0) {
            *done = 0;
            return MPA_ERR;     /* Layer I: an illegal allocation */
        }
        d->wordpointer = d->bsspace[d->bsnum] + 512 + d->ssize + d->dsize;
        d->data_parsed = 1;
        ret = MPA_OK;
    }

    /* free format: the frame size is where the next header starts */
    if (d->free_format) {
        if (d->old_free_format)
            d->framesize = d->fsizeold_nopadding + d->fr.padding;
        else {
            bytes = sync_buffer(d, 1);
            if (bytes < 0)
                return ret;
            d->framesize = bytes + d->ssize + d->dsize;
            d->fsizeold_nopadding = d->framesize - d->fr.padding;
        }
    }

    /* the ancillary data: kept as the next frame's reservoir */
    bytes = d->framesize - (d->ssize + d->dsize);
    if (bytes > d->bsize)
        return ret;
    if (bytes > 0) {
        while (bytes > 512) {
            (void) queue_byte(d);
            bytes--;
            d->framesize--;
        }
        queue_take(d, bytes, d->wordpointer);
        d->wordpointer += bytes;
    }
    d->fsizeold = d->framesize;
    d->old_free_format = d->free_format;
    d->framesize = 0;
    d->header_parsed = 0;
    d->side_parsed = 0;
    d->data_parsed = 0;
    return ret;
}

/* one decodeMP3 call and the header bookkeeping of LAME's
 * decode1_headersB_clipchoice; returns the samples per channel now in
 * d->out, 0 when more bytes are needed, -1 on a stream error */
static int decode_one(RlMpaDecoder *d, const uint8_t *in, size_t len, RlMpaInfo *info,
                      int *enc_delay, int *enc_padding)
{
    static const int frame_samples[2][4] = { { 0, 384, 1152, 1152 }, { 0, 384, 1152, 576 } };
    int done = 0;
    int const ret = decode_step(d, in, len > 0x7fffffff ? 0x7fffffff : len, &done);

    info->header_parsed = 0;
    if (d->header_parsed || d->fsizeold > 0 || d->framesize > 0) {
        info->header_parsed = 1;
        info->channels = d->fr.stereo;
        info->samplerate = (int) rl_mpa_freqs[d->fr.sampling_frequency];
        info->mode = d->fr.mode;
        info->mode_ext = d->fr.mode_ext;
        info->layer = d->fr.lay;
        info->frame_samples = frame_samples[d->fr.lsf][d->fr.lay];
        if (d->fsizeold > 0)
            info->bitrate = (int) (8 * (4 + d->fsizeold) * info->samplerate
                                   / (1.e3 * info->frame_samples) + 0.5);
        else if (d->framesize > 0)
            info->bitrate = (int) (8 * (4 + d->framesize) * info->samplerate
                                   / (1.e3 * info->frame_samples) + 0.5);
        else
            info->bitrate = rl_mpa_kbps[d->fr.lsf][d->fr.lay - 1][d->fr.bitrate_index];
        if (d->num_frames > 0) {
            info->total_frames = d->num_frames;
            info->nsamp = (uint32_t) info->frame_samples * (uint32_t) d->num_frames;
            *enc_delay = d->enc_delay;
            *enc_padding = d->enc_padding;
        }
    }
    switch (ret) {
    case MPA_OK:
        return d->fr.stereo == 1 ? done : done >> 1;
    case MPA_NEED_MORE:
        return 0;
    default:
        return -1;
    }
}

int rl_mpa_decode(RlMpaDecoder *d, const uint8_t *in, size_t len, int16_t pcm_l[1152],
                  int16_t pcm_r[1152], RlMpaInfo *info, int *enc_delay, int *enc_padding)
{
    int const n = decode_one(d, in, len, info, enc_delay, enc_padding);

    if (n > 0 && d->fr.stereo == 1)
        for (int i = 0; i < n; i++)
            pcm_l[i] = rl_mpa_to_pcm(d->out[i]);
    else
        for (int i = 0; i < n; i++) {
            pcm_l[i] = rl_mpa_to_pcm(d->out[2 * i]);
            pcm_r[i] = rl_mpa_to_pcm(d->out[2 * i + 1]);
        }
    return n;
}

int rl_mpa_decode_unclipped(RlMpaDecoder *d, const uint8_t *in, size_t len, float pcm_l[1152],
                            float pcm_r[1152])
{
    RlMpaInfo info;
    int enc_delay, enc_padding;
    int const n = decode_one(d, in, len, &info, &enc_delay, &enc_padding);

    if (n > 0 && d->fr.stereo == 1)
        memcpy(pcm_l, d->out, (size_t) n * sizeof(float));
    else
        for (int i = 0; i < n; i++) {
            pcm_l[i] = d->out[2 * i];
            pcm_r[i] = d->out[2 * i + 1];
        }
    return n;
}
