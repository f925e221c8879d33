/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's life cycle: lame_init (lame_init_old's
 * defaults), lame_init_params (the encode session on RINGLAME_THREADS
 * threads with RINGLAME_FRAMES_IN_FLIGHT frames in flight, the options as
 * it writes them back, the tags the library writes itself), lame_close,
 * and the report callbacks.
 * Semantics derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp3lame_flags.h"
#include "mp3lame_session.h"
#include "thread_policy.h"

void rl_mp3_report_default(const char *fmt, va_list ap)
{
    (void) vfprintf(stderr, fmt, ap);
}

static void report(lame_report_function fn, const char *fmt, va_list ap)
{
    if (fn)
        fn(fmt, ap);
}

void rl_mp3_msgf(const lame_global_flags *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(g->msgf, fmt, ap);
    va_end(ap);
}

void rl_mp3_errorf(const lame_global_flags *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(g->errorf, fmt, ap);
    va_end(ap);
}

void rl_mp3_debugf(const lame_global_flags *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(g->debugf, fmt, ap);
    va_end(ap);
}

MP3LAME_API int lame_set_errorf(lame_global_flags *g, lame_report_function fn)
{
    if (!rl_mp3_valid(g))
        return -1;
    g->errorf = fn;
    return 0;
}

MP3LAME_API int lame_set_debugf(lame_global_flags *g, lame_report_function fn)
{
    if (!rl_mp3_valid(g))
        return -1;
    g->debugf = fn;
    return 0;
}

MP3LAME_API int lame_set_msgf(lame_global_flags *g, lame_report_function fn)
{
    if (!rl_mp3_valid(g))
        return -1;
    g->msgf = fn;
    return 0;
}

/* lame_init's tag: lame's is all zeros until id3tag_init (no encoder
 * frame, genre 0, no padding) */
static void tag_blank(RlId3Tag *t)
{
    memset(t, 0, sizeof *t);
}

MP3LAME_API lame_global_flags *lame_init(void)
{
    lame_global_flags *g = calloc(1, sizeof *g);

    if (!g)
        return NULL;
    g->id3 = malloc(sizeof *g->id3);
    if (!g->id3) {
        free(g);
        return NULL;
    }
    tag_blank(g->id3);
    rl_options_defaults(&g->opt);
    g->num_samples = RL_MP3LAME_NUM_SAMPLES_UNKNOWN;
    g->write_id3tag_automatic = 1;
    g->errorf = g->debugf = g->msgf = rl_mp3_report_default;
    g->magic = RL_MP3LAME_MAGIC;
    return g;
}

MP3LAME_API int lame_close(lame_global_flags *g)
{
    int ret = 0;

    if (!rl_mp3_valid(g))
        return 0;
    if (!g->params_called)
        ret = -3;           /* lame: lame_init_params never ran */
    g->magic = 0;
    rl_mp3_session_destroy(g->ses);
    free(g->id3);
    free(g->art);
    free(g);
    return ret;
}

/* RINGLAME_THREADS: the threads an encode runs on, the caller's included
 * (1: the caller's only); unset, 0 or not a number: the CPUs this process
 * may use */
static int threads_from_env(void)
{
    const char *v = getenv("RINGLAME_THREADS");
    char *end;
    long n;

    if (!v || !*v)
        return 0;
    n = strtol(v, &end, 10);
    if (*end || n < 0 || n > RL_THREADS_MAX)
        return 0;
    return (int) n;
}

/* RINGLAME_FRAMES_IN_FLIGHT: the frames the ring may lag behind
 * libmp3lame, for callers that call lame_encode_flush until it returns 0
 * (ffmpeg); unset, empty or not a number in 0 .. RL_MP3_INFLIGHT_MAX: -1,
 * what lame.h's 7,200-byte flush promise allows */
static int inflight_from_env(void)
{
    const char *v = getenv("RINGLAME_FRAMES_IN_FLIGHT");
    char *end;
    long n;

    if (!v || !*v)
        return -1;
    n = strtol(v, &end, 10);
    if (*end || n < 0 || n > RL_MP3_INFLIGHT_MAX)
        return -1;
    return (int) n;
}

/* the ID3 tags the library writes into the stream itself (lame_init_bitstream
 * and lame_encode_flush with write_id3tag_automatic) */
static int automatic_tags(lame_global_flags *g, uint8_t **v2, size_t *v2_len, uint8_t v1[128],
                          size_t *v1_len)
{
    int64_t const ns = g->num_samples == RL_MP3LAME_NUM_SAMPLES_UNKNOWN ? -1
                       : (int64_t) g->num_samples;
    size_t n;

    *v2 = NULL;
    *v2_len = *v1_len = 0;
    if (!g->write_id3tag_automatic || !(g->id3->flags & RL_ID3_F_CHANGED))
        return 0;
    n = rl_id3_v2_build(g->id3, ns, g->opt.samplerate_in, NULL, 0);
    if (n > 0) {
        *v2 = malloc(n);
        if (!*v2)
            return -ENOMEM;
        *v2_len = rl_id3_v2_build(g->id3, ns, g->opt.samplerate_in, *v2, n);
    }
    *v1_len = rl_id3_v1_build(g->id3, v1);
    return 0;
}

MP3LAME_API int lame_init_params(lame_global_flags *g)
{
    RlOptions derived;
    uint8_t *v2, v1[128];
    size_t v2_len, v1_len;
    int rc;

    if (!rl_mp3_valid(g) || g->ses)
        return -1;          /* lame: not a handle, or already initialised */
    g->params_called = 1;
    if (g->analysis)
        g->opt.write_lame_tag = 0;
    rc = automatic_tags(g, &v2, &v2_len, v1, &v1_len);
    if (rc < 0)
        return -1;
    rc = rl_mp3_session_create(&g->ses, &g->opt, threads_from_env(), inflight_from_env(), v2,
                               v2_len, v1, v1_len, &derived);
    free(v2);
    if (rc < 0)
        return -1;
    g->opt = derived;
    /* what lame_init_params itself reports */
    if (g->ses->cfg->highpass_dropped)
        rl_mp3_msgf(g, "Warning: highpass filter disabled.  highpass frequency too small\n");
    return 0;
}
