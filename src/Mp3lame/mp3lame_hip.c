/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's decoder: hip_* (and the old
 * lame_decode* on one shared decoder) on src/Decoder, which gives mpglib's
 * samples.  Semantics derived from LAME 3.100's mpglib_interface.c
 * (LGPL-2.0-or-later). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mp3lame_flags.h"
#include "decoder.h"

struct hip_global_struct {
    RlMpaDecoder *dec;
    RlMpaInfo info;
    int framenum;
    lame_report_function msgf, errorf, debugf;
};

static void call_report(lame_report_function fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fn(fmt, ap);
    va_end(ap);
}

/* the decoder's messages on damaged streams go to errorf, as mpglib's */
static void on_report(void *arg, const char *text)
{
    hip_t h = arg;
    if (h->errorf)
        call_report(h->errorf, "%s", text);
}

MP3LAME_API hip_t hip_decode_init(void)
{
    hip_t h = calloc(1, sizeof *h);

    if (!h)
        return NULL;
    if (rl_mpa_create(&h->dec) < 0) {
        free(h);
        return NULL;
    }
    h->msgf = h->errorf = h->debugf = rl_mp3_report_default;
    rl_mpa_set_report(h->dec, on_report, h);
    return h;
}

MP3LAME_API int hip_decode_exit(hip_t gfp)
{
    if (gfp) {
        rl_mpa_destroy(gfp->dec);
        free(gfp);
    }
    return 0;
}

MP3LAME_API void hip_set_msgf(hip_t gfp, lame_report_function f)
{
    if (gfp)
        gfp->msgf = f;
}

MP3LAME_API void hip_set_errorf(hip_t gfp, lame_report_function f)
{
    if (gfp)
        gfp->errorf = f;
}

MP3LAME_API void hip_set_debugf(hip_t gfp, lame_report_function f)
{
    if (gfp)
        gfp->debugf = f;
}

/* mpglib's mp3data from the headers seen so far */
static void fill_data(hip_t h, mp3data_struct *d)
{
    const RlMpaInfo *i = &h->info;

    d->header_parsed = i->header_parsed;
    if (!i->header_parsed)
        return;
    d->stereo = i->channels;
    d->samplerate = i->samplerate;
    d->mode = i->mode;
    d->mode_ext = i->mode_ext;
    d->framesize = i->frame_samples;
    d->bitrate = i->bitrate;
    d->totalframes = i->total_frames;
    d->nsamp = i->nsamp;
}

MP3LAME_API int hip_decode1_headersB(hip_t gfp, unsigned char *mp3buf, size_t len,
                                     short pcm_l[], short pcm_r[], mp3data_struct *mp3data,
                                     int *enc_delay, int *enc_padding)
{
    int n;

    if (!gfp)
        return -1;
    n = rl_mpa_decode(gfp->dec, mp3buf, len, pcm_l, pcm_r, &gfp->info, enc_delay, enc_padding);
    if (mp3data)
        fill_data(gfp, mp3data);
    return n;
}

MP3LAME_API int hip_decode1_headers(hip_t gfp, unsigned char *mp3buf, size_t len,
                                    short pcm_l[], short pcm_r[], mp3data_struct *mp3data)
{
    int d = -1, p = -1;
    return hip_decode1_headersB(gfp, mp3buf, len, pcm_l, pcm_r, mp3data, &d, &p);
}

MP3LAME_API int hip_decode1(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[],
                            short pcm_r[])
{
    mp3data_struct d;
    return hip_decode1_headers(gfp, mp3buf, len, pcm_l, pcm_r, &d);
}

/* every frame the bytes complete: mpglib's hip_decode_headers keeps
 * decoding (1152 samples a frame at most) until a call gives none */
MP3LAME_API int hip_decode_headers(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[],
                                   short pcm_r[], mp3data_struct *mp3data)
{
    int total = 0;
    size_t give = len;

    for (;;) {
        int const n = hip_decode1_headers(gfp, mp3buf, give, pcm_l + total, pcm_r + total, mp3data);
        if (n < 0)
            return n;
        if (n == 0)
            break;
        total += n;
        give = 0;
    }
    return total;
}

MP3LAME_API int hip_decode(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[],
                           short pcm_r[])
{
    mp3data_struct d;
    return hip_decode_headers(gfp, mp3buf, len, pcm_l, pcm_r, &d);
}

/* ---- lame_decode*: one decoder for the process, as lame's */

static hip_t shared;

MP3LAME_API int lame_decode_init(void)
{
    if (shared)
        hip_decode_exit(shared);
    shared = hip_decode_init();
    return shared ? 0 : -1;
}

MP3LAME_API int lame_decode_exit(void)
{
    hip_decode_exit(shared);
    shared = NULL;
    return 0;
}

MP3LAME_API int lame_decode(unsigned char *mp3buf, int len, short pcm_l[], short pcm_r[])
{
    return hip_decode(shared, mp3buf, (size_t) len, pcm_l, pcm_r);
}

MP3LAME_API int lame_decode1(unsigned char *mp3buf, int len, short pcm_l[], short pcm_r[])
{
    return hip_decode1(shared, mp3buf, (size_t) len, pcm_l, pcm_r);
}

MP3LAME_API int lame_decode_headers(unsigned char *mp3buf, int len, short pcm_l[],
                                    short pcm_r[], mp3data_struct *mp3data)
{
    return hip_decode_headers(shared, mp3buf, (size_t) len, pcm_l, pcm_r, mp3data);
}

MP3LAME_API int lame_decode1_headers(unsigned char *mp3buf, int len, short pcm_l[],
                                     short pcm_r[], mp3data_struct *mp3data)
{
    return hip_decode1_headers(shared, mp3buf, (size_t) len, pcm_l, pcm_r, mp3data);
}

MP3LAME_API int lame_decode1_headersB(unsigned char *mp3buf, int len, short pcm_l[],
                                      short pcm_r[], mp3data_struct *mp3data, int *enc_delay,
                                      int *enc_padding)
{
    return hip_decode1_headersB(shared, mp3buf, (size_t) len, pcm_l, pcm_r, mp3data, enc_delay,
                                enc_padding);
}
