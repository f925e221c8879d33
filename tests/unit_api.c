/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* unit_api: the public API (include/ringlame/ringlame.h) against lame's
 * bytes: every sample format and layout, chunk sizes from 1 frame to random
 * pieces, 1..3 threads, a pool shared by two encoders, MPEG-1 and MPEG-2,
 * ID3 tags (text, --tv, --ti, UTF-8, with and without a length) and the
 * settings' error paths.  The reference is always /usr/bin/lame
 * run on a WAV file of the same samples; exits 77 without it.
 * RL_TEST_SEED=n replays the random chunking (the seed is printed).
 * Uses tests/harness.h (header only), and from the library only the
 * public header: it links the shared library like any program. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sndfile.h>

#include "ringlame/ringlame.h"
#include "harness.h"

static char g_dir[256];
static const char *g_lame;
static int g_length;            /* open_encoder tells the encoder the signal's length */

typedef struct Buf {
    uint8_t *p;
    size_t n, cap;
} Buf;

static int buf_add(Buf *b, const uint8_t *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        uint8_t *q;
        while (cap < b->n + n)
            cap *= 2;
        q = realloc(b->p, cap);
        if (!q)
            return -ENOMEM;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return 0;
}

/* A deterministic test signal: two tones, a sweep-ish partial and noise,
 * different per channel. */
static int16_t *make_signal(int rate, int channels, double seconds, size_t *frames)
{
    size_t n = (size_t) (rate * seconds), i;
    int16_t *s = malloc(n * (size_t) channels * sizeof *s);
    uint32_t lcg = 12345;
    int c;
    if (!s)
        return NULL;
    for (i = 0; i < n; i++)
        for (c = 0; c < channels; c++) {
            double t = (double) i / rate;
            double v = 0.3 * sin(2 * M_PI * (440 + 110 * c) * t)
                       + 0.2 * sin(2 * M_PI * (3000 + 500 * t) * t);
            lcg = lcg * 1664525u + 1013904223u;
            v += 0.1 * ((double) (lcg >> 8) / 16777216.0 - 0.5);
            s[i * (size_t) channels + (size_t) c] = (int16_t) lrint(v * 32767);
        }
    *frames = n;
    return s;
}

static int write_wav(const char *path, const void *pcm, size_t frames, int rate, int channels,
                     int is_float)
{
    SF_INFO info = { 0 };
    SNDFILE *sf;
    sf_count_t w;
    info.samplerate = rate;
    info.channels = channels;
    info.format = SF_FORMAT_WAV | (is_float ? SF_FORMAT_FLOAT : SF_FORMAT_PCM_16);
    sf = sf_open(path, SFM_WRITE, &info);
    if (!sf)
        return -EIO;
    w = is_float ? sf_writef_float(sf, pcm, (sf_count_t) frames)
                 : sf_writef_short(sf, pcm, (sf_count_t) frames);
    sf_close(sf);
    return w == (sf_count_t) frames ? 0 : -EIO;
}

/* lame's bytes for `lame --quiet OPTS in out` (stdin: `... - out < in`). */
static int lame_ref(const char *opts, const char *wav, int from_stdin, Buf *ref)
{
    char cmd[1024], out[300];
    snprintf(out, sizeof out, "%s/ref.mp3", g_dir);
    if (from_stdin)
        snprintf(cmd, sizeof cmd, "%s --quiet %s - %s < %s", g_lame, opts, out, wav);
    else
        snprintf(cmd, sizeof cmd, "%s --quiet %s %s %s", g_lame, opts, wav, out);
    if (system(cmd) != 0)
        return -EIO;
    free(ref->p);
    memset(ref, 0, sizeof *ref);
    if (rl_test_slurp(out, &ref->p, &ref->n) < 0)
        return -EIO;
    ref->cap = ref->n;
    return 0;
}

/* Splits an option string at blanks (no quoting needed here). */
static int split(char *s, const char **argv, int max)
{
    int n = 0;
    char *tok = strtok(s, " ");
    while (tok && n < max) {
        argv[n++] = tok;
        tok = strtok(NULL, " ");
    }
    return n;
}

typedef struct Stream {
    RingLameEncoder *enc;
    const void *data[2];        /* the whole signal in the chosen layout */
    int format, planar, channels;
    size_t frames, pos;
    int chunk;                  /* > 0: fixed; 0: random 1..5000 */
    unsigned rng;
    Buf out;
    int done, err;
} Stream;

static size_t sample_size(int format)
{
    return format == RINGLAME_S16 ? 2 : 4;
}

/* One step: send a piece (or flush), take bytes.  Returns 1 when the
 * stream is complete. */
static int stream_step(Stream *s)
{
    uint8_t tmp[8192];
    long rc;

    if (s->done || s->err)
        return 1;
    if (s->pos < s->frames) {
        RingLamePcm p;
        size_t want = s->chunk > 0 ? (size_t) s->chunk : 1 + (s->rng = s->rng * 1103515245u + 12345u) % 5000;
        size_t const ss = sample_size(s->format);
        int c;
        if (want > s->frames - s->pos)
            want = s->frames - s->pos;
        memset(&p, 0, sizeof p);
        p.format = s->format;
        p.planar = s->planar;
        p.frames = want;
        for (c = 0; c < (s->planar ? s->channels : 1); c++)
            p.data[c] = (const uint8_t *) s->data[c]
                        + s->pos * ss * (size_t) (s->planar ? 1 : s->channels);
        rc = ringlame_send(s->enc, &p);
        if (rc > 0)
            s->pos += (size_t) rc;
        else if (rc != -EAGAIN) {
            s->err = (int) rc;
            return 1;
        }
        if (s->pos == s->frames && (rc = ringlame_flush(s->enc)) < 0) {
            s->err = (int) rc;
            return 1;
        }
    }
    for (;;) {
        rc = ringlame_receive(s->enc, tmp, 1 + s->rng % sizeof tmp);
        if (rc > 0) {
            buf_add(&s->out, tmp, (size_t) rc);
            continue;
        }
        if (rc == 0) {
            uint8_t tag[RINGLAME_TAG_FRAME_MAX];
            uint64_t at = 1;
            int len = ringlame_tag_frame(s->enc, tag, sizeof tag, &at);
            if (len < 0)
                s->err = len;
            else if (len > 0) {
                if (at + (uint64_t) len <= s->out.n)
                    memcpy(s->out.p + at, tag, (size_t) len);
                else
                    s->err = -ERANGE;
            }
            s->done = 1;
            return 1;
        }
        if (rc == -EAGAIN && s->pos < s->frames)
            return 0;
        s->err = rc == -EAGAIN ? -EPROTO : (int) rc;   /* EAGAIN after flush: a bug */
        return 1;
    }
}

typedef struct Signal {
    int16_t *s16;
    int32_t *s32;
    float   *f32;
    int16_t *p16[2];
    int32_t *p32[2];
    float   *pf[2];
    size_t   frames;
    int      rate, channels;
    char     wav16[300], wavf[300];
} Signal;

static int signal_make(Signal *g, int rate, int channels, double seconds, const char *tag)
{
    size_t i;
    int c;
    memset(g, 0, sizeof *g);
    g->s16 = make_signal(rate, channels, seconds, &g->frames);
    if (!g->s16)
        return -ENOMEM;
    g->rate = rate;
    g->channels = channels;
    g->s32 = malloc(g->frames * (size_t) channels * sizeof *g->s32);
    g->f32 = malloc(g->frames * (size_t) channels * sizeof *g->f32);
    for (c = 0; c < channels; c++) {
        g->p16[c] = malloc(g->frames * sizeof **g->p16);
        g->p32[c] = malloc(g->frames * sizeof **g->p32);
        g->pf[c] = malloc(g->frames * sizeof **g->pf);
        if (!g->p16[c] || !g->p32[c] || !g->pf[c])
            return -ENOMEM;
    }
    if (!g->s32 || !g->f32)
        return -ENOMEM;
    for (i = 0; i < g->frames * (size_t) channels; i++) {
        g->s32[i] = (int32_t) ((uint32_t) (uint16_t) g->s16[i] << 16);
        g->f32[i] = (float) g->s16[i] / 32768.0f;
    }
    for (i = 0; i < g->frames; i++)
        for (c = 0; c < channels; c++) {
            g->p16[c][i] = g->s16[i * (size_t) channels + (size_t) c];
            g->p32[c][i] = g->s32[i * (size_t) channels + (size_t) c];
            g->pf[c][i] = g->f32[i * (size_t) channels + (size_t) c];
        }
    snprintf(g->wav16, sizeof g->wav16, "%s/%s.wav", g_dir, tag);
    snprintf(g->wavf, sizeof g->wavf, "%s/%s-float.wav", g_dir, tag);
    if (write_wav(g->wav16, g->s16, g->frames, rate, channels, 0) < 0
        || write_wav(g->wavf, g->f32, g->frames, rate, channels, 1) < 0)
        return -EIO;
    return 0;
}

static void signal_free(Signal *g)
{
    int c;
    free(g->s16);
    free(g->s32);
    free(g->f32);
    for (c = 0; c < 2; c++) {
        free(g->p16[c]);
        free(g->p32[c]);
        free(g->pf[c]);
    }
}

static void stream_data(Stream *s, const Signal *g, int format, int planar)
{
    int c;
    s->format = format;
    s->planar = planar;
    s->channels = g->channels;
    s->frames = g->frames;
    for (c = 0; c < 2; c++)
        s->data[c] = NULL;
    if (!planar)
        s->data[0] = format == RINGLAME_S16 ? (const void *) g->s16
                     : format == RINGLAME_S32 ? (const void *) g->s32 : (const void *) g->f32;
    else
        for (c = 0; c < g->channels; c++)
            s->data[c] = format == RINGLAME_S16 ? (const void *) g->p16[c]
                         : format == RINGLAME_S32 ? (const void *) g->p32[c] : (const void *) g->pf[c];
}

static int open_encoder(RingLameEncoder **enc, const char *opts, const Signal *g, int threads,
                        RingLamePool *pool)
{
    RingLameSettings *st = NULL;
    char copy[256];
    const char *argv[32];
    int argc, rc;

    snprintf(copy, sizeof copy, "%s", opts);
    argc = split(copy, argv, 32);
    rc = ringlame_settings_new(&st);
    if (rc == 0)
        rc = ringlame_settings_set_input(st, g->rate, g->channels);
    if (rc == 0)
        rc = ringlame_settings_parse(st, argc, argv);
    if (rc == 0)
        rc = ringlame_settings_set_threads(st, threads);
    if (rc == 0 && pool)
        rc = ringlame_settings_set_pool(st, pool);
    if (rc == 0 && g_length)
        rc = ringlame_settings_set_length(st, (int64_t) g->frames);
    if (rc == 0)
        rc = ringlame_open(enc, st);
    if (rc < 0)
        printf("     open '%s': %s (%s)\n", opts, strerror(-rc), ringlame_settings_error(st));
    ringlame_settings_free(st);
    return rc;
}

static void compare(const char *name, const Stream *s, const Buf *ref)
{
    size_t i = 0;
    if (s->err) {
        CHECK(0, "%s: error %s", name, strerror(-s->err));
        return;
    }
    while (i < s->out.n && i < ref->n && s->out.p[i] == ref->p[i])
        i++;
    CHECK(s->out.n == ref->n && i == ref->n, "%s: %zu bytes, lame %zu; first difference at %zu",
          name, s->out.n, ref->n, i);
    if (s->out.n == ref->n && i == ref->n)
        printf("ok   %s (%zu bytes)\n", name, ref->n);
}

/* One encode through the API, compared with lame's bytes. */
static void api_case(const char *name, const Signal *g, const char *opts, int format, int planar,
                     int chunk, int threads, unsigned seed)
{
    Stream s;
    Buf ref = { 0 };
    memset(&s, 0, sizeof s);
    if (lame_ref(opts, format == RINGLAME_F32 ? g->wavf : g->wav16, format == RINGLAME_F32,
                 &ref) < 0) {
        CHECK(0, "%s: lame failed", name);
        return;
    }
    stream_data(&s, g, format, planar);
    s.chunk = chunk;
    s.rng = seed;
    if (open_encoder(&s.enc, opts, g, threads, NULL) < 0) {
        CHECK(0, "%s: open failed", name);
        free(ref.p);
        return;
    }
    while (!stream_step(&s))
        ;
    compare(name, &s, &ref);
    ringlame_close(s.enc);
    free(s.out.p);
    free(ref.p);
}

/* Two encoders on one pool, driven alternately from this thread. */
static void shared_pool_case(const Signal *g, unsigned seed)
{
    static const char *const opts[2] = { "", "-V 2" };
    RingLamePool *pool = NULL;
    Stream s[2];
    Buf ref[2] = { { 0 }, { 0 } };
    int i, rc = ringlame_pool_new(&pool, 2);

    CHECK(rc == 0, "pool_new: %d", rc);
    if (rc < 0)
        return;
    memset(s, 0, sizeof s);
    for (i = 0; i < 2; i++) {
        CHECK(lame_ref(opts[i], g->wav16, 0, &ref[i]) == 0, "lame failed");
        stream_data(&s[i], g, RINGLAME_S16, 0);
        s[i].chunk = 0;
        s[i].rng = seed + (unsigned) i;
        rc = open_encoder(&s[i].enc, opts[i], g, 0, pool);
        CHECK(rc == 0, "open on the shared pool: %d", rc);
    }
    if (s[0].enc && s[1].enc)
        while (!(stream_step(&s[0]) & stream_step(&s[1])))
            ;
    compare("shared pool, CBR 128", &s[0], &ref[0]);
    compare("shared pool, -V 2", &s[1], &ref[1]);
    for (i = 0; i < 2; i++) {
        ringlame_close(s[i].enc);
        free(s[i].out.p);
        free(ref[i].p);
    }
    ringlame_pool_free(pool);
}

static void settings_errors(void)
{
    RingLameSettings *st = NULL;
    RingLameEncoder *enc = NULL;
    const char *bad[] = { "-m", "x" };
    const char *help[] = { "--help" };
    const char *unknown[] = { "--no-such-option" };
    const char *good[] = { "-V", "3" };
    const char *id3[] = { "--tt", "title" };
    const char *art[] = { "--ti", "/nonexistent/cover.jpg" };
    uint8_t tmp[64];
    uint64_t at;

    CHECK(ringlame_settings_new(&st) == 0, "settings_new");
    CHECK(ringlame_settings_parse(st, 2, bad) == -EINVAL, "-m x accepted");
    CHECK(ringlame_settings_error(st)[0] != '\0', "no message for -m x");
    CHECK(ringlame_settings_parse(st, 1, help) == -EINVAL, "--help accepted");
    CHECK(ringlame_settings_parse(st, 1, unknown) == -EINVAL, "unknown option accepted");
    CHECK(strstr(ringlame_settings_error(st), "no-such-option") != NULL,
          "the message does not name the option: '%s'", ringlame_settings_error(st));
    CHECK(ringlame_settings_parse(st, 2, id3) == 0, "--tt refused by the API");
    CHECK(ringlame_settings_parse(st, 2, art) == -EINVAL, "--ti of a missing file accepted");
    CHECK(strstr(ringlame_settings_error(st), "Could not find: '/nonexistent/cover.jpg'") != NULL,
          "not lame's message for --ti: '%s'", ringlame_settings_error(st));
    CHECK(ringlame_settings_parse(st, 2, good) == 0, "-V 3 refused after errors");
    {   /* the command's options are not an encoder's: refused, by name */
        static const char *const cmd[][2] = {
            { "--batch", NULL }, { "--threads", "2" }, { "--sequential", NULL },
            { "--trace", "x.json" }, { "--nogap", NULL }, { "--compare", NULL },
            { "--simd", "scalar" }, { "--out-dir", "d" }, { "--quiet", NULL }, { "-S", NULL },
            { "--decode", NULL }, { "in.wav", NULL }, { "-", NULL }, { "-hS", NULL },
        };
        for (size_t k = 0; k < sizeof cmd / sizeof cmd[0]; k++) {
            const char *v[2] = { cmd[k][0], cmd[k][1] };
            int const n = cmd[k][1] ? 2 : 1;
            const char *name = cmd[k][0][0] == '-' && cmd[k][0][1] == 'h' ? "-S" : cmd[k][0];
            CHECK(ringlame_settings_parse(st, n, v) == -EINVAL, "%s accepted", cmd[k][0]);
            CHECK(strstr(ringlame_settings_error(st), name) != NULL,
                  "%s: the message does not name it: '%s'", cmd[k][0], ringlame_settings_error(st));
        }
    }
    {   /* a failed parse gives its own reason, not an earlier option's warning */
        const char *warn[] = { "-V" };
        CHECK(ringlame_settings_parse(st, 1, warn) == 0, "-V without a value refused (lame warns)");
        CHECK(ringlame_settings_parse(st, 2, bad) == -EINVAL, "-m x accepted");
        CHECK(strstr(ringlame_settings_error(st), "-m mode must be") != NULL,
              "not -m's reason: '%s'", ringlame_settings_error(st));
    }
    CHECK(ringlame_settings_set_simd(st, "no-such-level") == -EINVAL, "a bogus SIMD level accepted");
    CHECK(ringlame_settings_set_simd(st, "scalar") == 0, "the scalar level refused");
    CHECK(ringlame_settings_set_simd(st, NULL) == 0, "the CPU's best refused");
    CHECK(ringlame_settings_set_input(st, 44100, 3) == -EINVAL, "3 channels accepted");
    CHECK(ringlame_settings_set_quality(st, 10) == -EINVAL, "-q 10 accepted");
    CHECK(ringlame_settings_set_vbr_quality(st, -1.f) == -EINVAL, "-V -1 accepted");
    CHECK(ringlame_settings_set_threads(st, 1) == 0, "threads 1");
    CHECK(ringlame_open(&enc, st) == 0, "open");
    CHECK(ringlame_tag_frame(enc, tmp, sizeof tmp, &at) == -EAGAIN, "tag before the end");
    {   /* the tag's placeholder frame comes at once, then nothing without input */
        long got = 0, rc;
        while ((rc = ringlame_receive(enc, tmp, sizeof tmp)) > 0)
            got += rc;
        CHECK(got > 0 && rc == -EAGAIN, "before any input: %ld bytes, then %ld", got, rc);
    }
    {
        static int16_t quiet[2 * 3000];
        RingLamePcm p = { RINGLAME_S16, 0, { quiet, NULL }, 3000 };
        long n = 0, rc;
        while (n < 3000 && ((rc = ringlame_send(enc, &p)) > 0 || rc == -EAGAIN)) {
            if (rc > 0) {
                n += rc;
                p.data[0] = quiet + 2 * n;
                p.frames = (size_t) (3000 - n);
            }
            else
                while (ringlame_receive(enc, tmp, sizeof tmp) > 0)
                    ;
        }
        CHECK(n == 3000, "3000 frames of silence sent: %ld", n);
    }
    CHECK(ringlame_flush(enc) == 0, "flush");
    {
        int16_t one[2] = { 0, 0 };
        RingLamePcm p = { RINGLAME_S16, 0, { one, NULL }, 1 };
        CHECK(ringlame_send(enc, &p) == -EPIPE, "send after flush");
    }
    while (ringlame_receive(enc, tmp, sizeof tmp) > 0)
        ;
    CHECK(ringlame_receive(enc, tmp, sizeof tmp) == 0, "end of the stream");
    CHECK(ringlame_tag_frame(enc, tmp, 10, &at) == -ENOSPC, "tag into 10 bytes");
    ringlame_close(enc);
    ringlame_settings_free(st);
    CHECK(strcmp(ringlame_version(), RINGLAME_VERSION_STRING) == 0, "version %s", ringlame_version());
    CHECK(ringlame_version_number() == RINGLAME_VERSION_NUMBER, "version number");
}

/* ID3 tags through the API (the tag frame then goes after the ID3v2 tag):
 * lame's bytes when the program gives the length (TLEN, as lame has it from
 * the WAV header), and without it (no TLEN: lame --ignorelength on stdin). */
static void tag_cases(const Signal *g, unsigned seed)
{
    static const uint8_t jpeg[] = { 0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 2, 3 };
    char cover[300], opts[600];
    FILE *f;

    snprintf(cover, sizeof cover, "%s/cover.jpg", g_dir);
    f = fopen(cover, "wb");
    CHECK(f && fwrite(jpeg, 1, sizeof jpeg, f) == sizeof jpeg && fclose(f) == 0, "write %s", cover);
    g_length = 1;
    api_case("ID3: the text options, -V 2, random pieces, 2 threads", g,
             "--tt Title --ta Artist --tl Album --ty 2001 --tc Comment --tn 3/9 --tg Rock -V 2",
             RINGLAME_S16, 0, 0, 2, seed);
    api_case("ID3: --tv frames, --pad-id3v2, CBR 160, 1 thread", g,
             "--tv TXXX=key=value --tv WOAR=http://example.org/ --pad-id3v2 -b 160",
             RINGLAME_S16, 0, 1152, 1, seed);
    snprintf(opts, sizeof opts, "--ti %s --id3v2-latin1 --tt Title --id3v2-only -V 4", cover);
    api_case("ID3: --ti album art, Latin-1, v2 only", g, opts, RINGLAME_S32, 1, 0, 2, seed);
    api_case("ID3: --id3v1-only, -t (no tag frame)", g, "--id3v1-only --tt T --tn 4 -b 96 -t",
             RINGLAME_S16, 0, 0, 2, seed);
    if (setlocale(LC_CTYPE, "C.UTF-8")) {
        setenv("LC_ALL", "C.UTF-8", 1);
        api_case("ID3: UTF-8 text in a UTF-8 locale", g,
                 "--tt caf\xc3\xa9 --ta \xe6\x97\xa5\xe6\x9c\xac --tc \xe2\x82\xac -V 5",
                 RINGLAME_S16, 0, 0, 2, seed);
        unsetenv("LC_ALL");
        setlocale(LC_CTYPE, "C");
    }
    else {
        printf("note: no C.UTF-8 locale: the UTF-8 tag case is left out\n");
    }
    g_length = 0;
    api_case("ID3 without a length: no TLEN, float", g, "--ignorelength --tt Title --tg Jazz -V 3",
             RINGLAME_F32, 0, 0, 2, seed);
}

int main(void)
{
    Signal st, mono;
    unsigned seed;

    g_lame = rl_test_lame();
    if (!g_lame)
        rl_test_skip("no lame ($LAME, else /usr/bin/lame): the reference encoder");
    seed = (unsigned) rl_test_seed((unsigned long) getpid());
    if (rl_test_tmpdir(g_dir, sizeof g_dir, "unit-api") < 0)
        rl_test_fatal("cannot make a temporary folder");
    printf("unit_api: work %s\n", g_dir);
    if (signal_make(&st, 44100, 2, 6.0, "stereo") < 0 || signal_make(&mono, 22050, 1, 4.0, "mono") < 0)
        rl_test_fatal("cannot make the test signals");

    settings_errors();
    api_case("CBR 128 default, s16 interleaved, 1152-frame pieces, 1 thread", &st, "",
             RINGLAME_S16, 0, 1152, 1, seed);
    api_case("CBR 128 default, s16 planar, 1-frame pieces, 2 threads", &st, "",
             RINGLAME_S16, 1, 1, 2, seed);
    api_case("-V 2, s32 interleaved, random pieces, all CPUs", &st, "-V 2",
             RINGLAME_S32, 0, 0, 0, seed);
    api_case("--abr 160 -q 2, s32 planar, 333-frame pieces, 3 threads", &st, "--abr 160 -q 2",
             RINGLAME_S32, 1, 333, 3, seed);
    api_case("-V 4 -q 1 (ReplayGain on, as by default), s16, random pieces, 2 threads", &st,
             "-V 4 -q 1", RINGLAME_S16, 0, 0, 2, seed + 1);
    api_case("float interleaved = lame on a float WAV from stdin, 2 threads", &st, "-V 5",
             RINGLAME_F32, 0, 0, 2, seed + 2);
    api_case("float planar, CBR 192, 1 thread", &st, "-b 192", RINGLAME_F32, 1, 4096, 1, seed);
    api_case("mono 22.05 kHz (576-sample frames) -V 5, 1000-frame pieces", &mono, "-V 5",
             RINGLAME_S16, 0, 1000, 2, seed);
    api_case("mono 22.05 kHz -b 64 -t (no tag), random pieces, 1 thread", &mono, "-b 64 -t",
             RINGLAME_S16, 0, 0, 1, seed + 3);
    shared_pool_case(&st, seed);
    tag_cases(&st, seed);

    signal_free(&st);
    signal_free(&mono);
    if (rl_test_failures() == 0)
        rl_test_rmtree(g_dir);          /* kept for a look when something failed */
    return rl_test_done();
}
