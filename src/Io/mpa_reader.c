/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MPEG audio input (mpa_reader.h).  The bytes go to the decoder in
 * the pieces LAME's front end reads (4, then 100, then 1024 at a time),
 * because the decoder's output depends on when it sees which bytes.
 * Algorithms derived from LAME 3.100's frontend/get_audio.c
 * (lame_decode_initfile, lame_decode_fromfile, setSkipStartAndEnd and the
 * PCM buffer; LGPL-2.0-or-later). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "decoder.h"
#include "mpa_reader.h"
#include "io_msg.h"

#define DECODER_DELAY (528 + 1)

struct RlMpaReader {
    int            fd;
    int            own_fd;
    int            layer;        /* asked for; then the first frame's */
    RlMpaDecoder  *dec;
    RlMpaInfo      info;
    int            channels, samplerate;
    int64_t        frames;
    int            skip_start, skip_end;
    int            eof;          /* the decoder gave its last frame */
    int            read_error;
    int            changed;      /* RL_MPA_CHANGED_*: the stream stopped there */
    uint8_t       *id3v2;        /* the stream's first ID3v2 tag, whole */
    size_t         id3v2_len;
    /* decoded samples not yet handed out (LAME's PcmBuffer), interleaved */
    int16_t       *pcm;
    size_t         pcm_len, pcm_cap;   /* frames */
    int64_t        handed_out;   /* frames rl_mpa_reader_read gave so far */
    int            short_end;    /* the stream ended inside the end's skip */
    /* rl_mpa_reader_swap_mono: the caller's right buffer as lame's
     * get_audio16 leaves it (the left samples of the last read); the
     * queue then holds that buffer's samples beside each decoded one */
    int16_t       *shadow;
};

/* frames of the queue hold this many values */
static int queue_channels(const RlMpaReader *r)
{
    return r->shadow ? 2 : r->channels;
}

/* fread's contract on a descriptor: n bytes unless the stream ends */
static size_t read_full(RlMpaReader *r, uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t const k = read(r->fd, buf + got, n - got);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            r->read_error = errno;
            break;
        }
        if (k == 0)
            break;
        got += (size_t) k;
    }
    return got;
}

static int skip_bytes(RlMpaReader *r, long n)
{
    uint8_t tmp[4096];
    while (n > 0) {
        size_t const k = n > (long) sizeof tmp ? sizeof tmp : (size_t) n;
        if (read_full(r, tmp, k) != k)
            return -1;
        n -= (long) k;
    }
    return 0;
}

/* a frame header of the layer asked for.  Any layer: the first candidate
 * with valid layer bits fixes it, even one then refused (a bad bitrate or
 * rate), as LAME's front end does */
static int is_syncword(RlMpaReader *r, const uint8_t p[4])
{
    int layer;
    int const ok = rl_mpa_syncword(p, &layer);
    if (layer == 0 || (r->layer != RL_MPA_ANY_LAYER && layer != r->layer))
        return 0;
    r->layer = layer;
    return ok;
}

/* LAME's lame_decode_initfile: up to the first frame's header; -1 on failure */
static int init_stream(RlMpaReader *r, int *enc_delay, int *enc_padding)
{
    uint8_t buf[100];
    int16_t pcm_l[1152], pcm_r[1152];
    int freeformat;

    memset(&r->info, 0, sizeof r->info);
    rl_mpa_destroy(r->dec);
    r->dec = NULL;
    if (rl_mpa_create(&r->dec) < 0)
        return -1;
    if (read_full(r, buf, 4) != 4)
        return -1;
    while (buf[0] == 'I' && buf[1] == 'D' && buf[2] == '3') {
        long len;
        if (read_full(r, buf + 4, 6) != 6)
            return -1;
        len = (long) ((((((buf[6] & 127L) << 7) + (buf[7] & 127)) << 7) + (buf[8] & 127)) << 7)
              + (buf[9] & 127);
        if (!r->id3v2 && (r->id3v2 = malloc(10 + (size_t) len)) != NULL) {
            /* kept: lame copies it to the output (when it writes no tag of its own) */
            r->id3v2_len = 10 + (size_t) len;
            memcpy(r->id3v2, buf, 10);
            if (read_full(r, r->id3v2 + 10, (size_t) len) != (size_t) len)
                return -1;
        }
        else if (skip_bytes(r, len) < 0)
            return -1;
        if (read_full(r, buf, 4) != 4)
            return -1;
    }
    if (memcmp(buf, "AiD\1", 4) == 0) {
        int aid;
        if (read_full(r, buf, 2) != 2)
            return -1;
        aid = buf[0] + 256 * buf[1];
        if (skip_bytes(r, aid - 6) < 0 || read_full(r, buf, 4) != 4)
            return -1;
    }
    while (!is_syncword(r, buf)) {
        memmove(buf, buf + 1, 3);
        if (read_full(r, buf + 3, 1) != 1)
            return -1;
    }
    freeformat = (buf[2] & 0xf0) == 0;
    if (rl_mpa_decode(r->dec, buf, 4, pcm_l, pcm_r, &r->info, enc_delay, enc_padding) == -1)
        return -1;
    while (!r->info.header_parsed) {
        if (read_full(r, buf, sizeof buf) != sizeof buf)
            return -1;
        if (rl_mpa_decode(r->dec, buf, sizeof buf, pcm_l, pcm_r, &r->info, enc_delay,
                          enc_padding) < 0)
            return -1;
    }
    if (r->info.bitrate == 0 && !freeformat)
        return init_stream(r, enc_delay, enc_padding);     /* "fail to sync" */
    return 0;
}

/* LAME's lame_decode_fromfile: one frame; 0 at the end of the stream */
static int decode_frame(RlMpaReader *r, int16_t *l, int16_t *rr)
{
    uint8_t buf[1024];
    int ret = rl_mpa_decode(r->dec, buf, 0, l, rr, &r->info, &(int){ 0 }, &(int){ 0 });
    if (ret != 0)
        return ret > 0 ? ret : 0;
    for (;;) {
        size_t const len = read_full(r, buf, sizeof buf);
        if (len == 0) {
            ret = rl_mpa_decode(r->dec, buf, 0, l, rr, &r->info, &(int){ 0 }, &(int){ 0 });
            return ret > 0 ? ret : 0;
        }
        ret = rl_mpa_decode(r->dec, buf, len, l, rr, &r->info, &(int){ 0 }, &(int){ 0 });
        if (ret < 0)
            return 0;
        if (ret > 0)
            return ret;
    }
}

int rl_mpa_reader_open(RlMpaReader **out, const char *path, const RlMpaOpen *how, char *err,
                       size_t errlen)
{
    RlMpaReader *r = calloc(1, sizeof(*r));
    int enc_delay = 0, enc_padding = 0, rc;
    struct stat st;

    if (!r)
        return -ENOMEM;
    r->layer = how->layer;
    if (strcmp(path, "-") == 0)
        r->fd = 0;
    else {
        r->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (r->fd < 0) {
            int const e = errno;
            rl_io_msg(err, errlen, "%s: %s", path, strerror(e));
            free(r);
            return -e;
        }
        r->own_fd = 1;
    }
    rc = init_stream(r, &enc_delay, &enc_padding);
    if (rc < 0) {
        int const code = r->read_error ? -r->read_error : -EINVAL;
        if (r->read_error)
            rl_io_msg(err, errlen, "%s: %s", path, strerror(r->read_error));
        else
            rl_io_msg(err, errlen, "%s: no MPEG audio frame found (error reading headers in mp3 input)",
                    path);
        rl_mpa_reader_close(r);
        return code;
    }
    r->channels = r->info.channels;
    r->samplerate = r->info.samplerate;

    /* LAME's setSkipStartAndEnd: Layer III drops the tag's delay and padding
     * (0 without a tag) with its decoder's own delay; Layers I and II only
     * their decoder's delay */
    r->skip_start = how->delay_set ? how->delay : 0;
    if (r->layer != 3)
        r->skip_start += 240 + 1;
    else if (r->skip_start != 0)
        r->skip_start += DECODER_DELAY;         /* --decode-mp3delay n */
    else if (enc_delay > -1 || enc_padding > -1) {
        r->skip_start = enc_delay > -1 ? enc_delay + DECODER_DELAY : 0;
        r->skip_end = enc_padding > -1 ? enc_padding - DECODER_DELAY : 0;
    }
    else
        /* a tag with neither value: lame adds lame_get_encoder_delay() */
        r->skip_start = how->encoder_delay + DECODER_DELAY;
    if (r->skip_start < 0)
        r->skip_start = 0;
    if (r->skip_end < 0)
        r->skip_end = 0;

    /* num_samples: the tag's, else from the file size at the first bitrate */
    r->frames = -1;
    if (r->info.total_frames > 0)
        r->frames = r->info.nsamp;
    else if (r->own_fd && fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && r->info.bitrate > 0) {
        double const seconds = (double) st.st_size * 8.0 / (1000.0 * r->info.bitrate);
        r->frames = (int64_t) (unsigned long) (seconds * r->samplerate);
    }
    if (r->frames >= 0) {
        int64_t const discard = r->skip_start + r->skip_end;
        r->frames = r->frames > discard ? r->frames - discard : 0;
    }
    *out = r;
    return 0;
}

int rl_mpa_reader_channels(const RlMpaReader *r) { return r->channels; }
int rl_mpa_reader_samplerate(const RlMpaReader *r) { return r->samplerate; }
int64_t rl_mpa_reader_frames(const RlMpaReader *r) { return r->frames; }

const uint8_t *rl_mpa_reader_id3v2(const RlMpaReader *r, size_t *len)
{
    *len = r->id3v2_len;
    return r->id3v2;
}

void rl_mpa_reader_skips(const RlMpaReader *r, int *start, int *end)
{
    *start = r->skip_start;
    *end = r->skip_end;
}

/* appends one decoded frame past what is still to be skipped */
static int buffer_frame(RlMpaReader *r, const int16_t *l, const int16_t *rr, int n)
{
    int const ch = queue_channels(r);
    int from = 0;
    if (r->skip_start >= n) {
        r->skip_start -= n;
        return 0;
    }
    from = r->skip_start;
    r->skip_start = 0;
    if (r->pcm_len + (size_t) (n - from) > r->pcm_cap) {
        size_t cap = r->pcm_cap ? r->pcm_cap * 2 : 4096;
        int16_t *p;
        while (cap < r->pcm_len + (size_t) (n - from))
            cap *= 2;
        p = realloc(r->pcm, cap * (size_t) ch * sizeof(int16_t));
        if (!p)
            return -ENOMEM;
        r->pcm = p;
        r->pcm_cap = cap;
    }
    for (int i = from; i < n; i++) {
        int16_t *dst = r->pcm + (r->pcm_len++) * (size_t) ch;
        dst[0] = l[i];
        if (r->shadow)
            dst[1] = r->shadow[i];
        else if (ch == 2)
            dst[1] = rr[i];
    }
    return 0;
}

int rl_mpa_reader_read(RlMpaReader *r, int16_t *buf, int max_frames)
{
    int16_t l[1152], rr[1152];
    long avail = (long) r->pcm_len - r->skip_end;
    int n;

    while (avail <= 0 && !r->eof) {
        int const got = decode_frame(r, l, rr);
        if (got <= 0) {
            r->eof = 1;
            break;
        }
        /* a stream that changes its channels mid-way: LAME stops there */
        if (r->info.channels != r->channels || r->info.samplerate != r->samplerate) {
            r->changed = (r->info.channels != r->channels ? RL_MPA_CHANGED_CHANNELS : 0)
                         | (r->info.samplerate != r->samplerate ? RL_MPA_CHANGED_RATE : 0);
            r->eof = 1;
            r->pcm_len = 0;
            return 0;
        }
        if (buffer_frame(r, l, rr, got) < 0)
            return -ENOMEM;
        avail = (long) r->pcm_len - r->skip_end;
    }
    if (r->read_error)
        return -EIO;
    if (avail <= 0) {
        r->short_end = avail < 0;
        return 0;
    }
    n = avail > 1152 ? 1152 : (int) avail;
    if (n > max_frames)
        n = max_frames;
    if (r->shadow) {
        /* lame swaps the buffers it takes into: the output is the right
         * queue, and the left samples stay in the right buffer */
        for (int i = 0; i < n; i++) {
            buf[i] = r->pcm[2 * i + 1];
            r->shadow[i] = r->pcm[2 * i];
        }
    }
    else
        memcpy(buf, r->pcm, (size_t) n * (size_t) r->channels * sizeof(int16_t));
    memmove(r->pcm, r->pcm + (size_t) n * (size_t) queue_channels(r),
            (r->pcm_len - (size_t) n) * (size_t) queue_channels(r) * sizeof(int16_t));
    r->pcm_len -= (size_t) n;
    r->handed_out += n;
    return n;
}

int rl_mpa_reader_swap_mono(RlMpaReader *r)
{
    if (r->channels != 1 || r->pcm_len > 0 || r->handed_out > 0)
        return -EINVAL;
    r->shadow = calloc(1152, sizeof *r->shadow);   /* lame's buffer: zeros at first */
    return r->shadow ? 0 : -ENOMEM;
}

int64_t rl_mpa_reader_handed_out(const RlMpaReader *r)
{
    return r->handed_out;
}

int rl_mpa_reader_short_end(const RlMpaReader *r)
{
    return r->short_end;
}

int rl_mpa_reader_changed(const RlMpaReader *r)
{
    return r->changed;
}

void rl_mpa_reader_set_report(RlMpaReader *r, void (*fn)(void *arg, const char *text), void *arg)
{
    rl_mpa_set_report(r->dec, fn, arg);
}

void rl_mpa_reader_frame_info(const RlMpaReader *r, RlMpaFrameInfo *out)
{
    out->layer = r->info.layer;
    out->bitrate = r->info.bitrate;
    out->mode = r->info.mode;
    out->mode_ext = r->info.mode_ext;
    out->frame_samples = r->info.frame_samples;
}

void rl_mpa_reader_close(RlMpaReader *r)
{
    if (!r)
        return;
    if (r->own_fd)
        close(r->fd);
    rl_mpa_destroy(r->dec);
    free(r->id3v2);
    free(r->pcm);
    free(r->shadow);
    free(r);
}

void rl_mpa_read_plan_init(RlMpaReadPlan *p, const RlMpaReader *r)
{
    memset(p, 0, sizeof *p);
    p->frame_samples = r->info.frame_samples;
    rl_mpa_reader_skips(r, &p->skip_left, &p->skip_end);
}

int rl_mpa_read_plan_next(void *plan)
{
    RlMpaReadPlan *p = plan;
    int64_t n;

    if (p->frame_samples <= 0)
        return 1152;
    /* LAME's addPcmBuffer: a decoded frame goes to the skip first */
    while (p->buffered - p->skip_end <= 0) {
        int add = p->frame_samples;
        if (p->skip_left >= add) {
            p->skip_left -= add;
            continue;
        }
        add -= p->skip_left;
        p->skip_left = 0;
        p->buffered += add;
    }
    n = p->buffered - p->skip_end;
    if (n > 1152)
        n = 1152;
    p->buffered -= n;
    return (int) n;
}
