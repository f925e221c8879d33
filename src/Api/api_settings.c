/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the public API's settings (lame options accumulated as a
 * command line and parsed by the command's own parser), worker pools and
 * version. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "settings.h"

RINGLAME_API const char *ringlame_version(void)
{
    return RINGLAME_VERSION_STRING;
}

RINGLAME_API unsigned ringlame_version_number(void)
{
    return RINGLAME_VERSION_NUMBER;
}

/* ------------------------------------------------------------------ pool */

RINGLAME_API int ringlame_pool_new(RingLamePool **out, int workers)
{
    RingLamePool *p;
    int rc;

    if (!out)
        return -EINVAL;
    *out = NULL;
    if (workers < 0) {
        workers = rl_threads_default() - 1;
    }
    p = calloc(1, sizeof *p);
    if (!p)
        return -ENOMEM;
    rc = rl_executor_create(&p->ex, workers);
    if (rc < 0) {
        free(p);
        return rc;
    }
    *out = p;
    return 0;
}

RINGLAME_API void ringlame_pool_free(RingLamePool *pool)
{
    if (!pool)
        return;
    rl_executor_destroy(pool->ex);
    free(pool);
}

/* -------------------------------------------------------------- settings */

RINGLAME_API int ringlame_settings_new(RingLameSettings **out)
{
    RingLameSettings *s;

    if (!out)
        return -EINVAL;
    s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return -ENOMEM;
    s->sample_rate = 44100;
    s->channels = 2;
    s->length = -1;
    s->threads = -1;
    return 0;
}

RINGLAME_API void ringlame_settings_free(RingLameSettings *s)
{
    int i;

    if (!s)
        return;
    for (i = 0; i < s->ntokens; i++)
        free(s->tokens[i]);
    free(s->tokens);
    free(s);
}

RINGLAME_API const char *ringlame_settings_error(const RingLameSettings *s)
{
    return s ? s->error : "";
}

/* The messages the parser wrote, on one line, without the "usage" text
 * lame prints after them. */
static void keep_first_line(char *msg)
{
    char *nl = strchr(msg, '\n');
    if (nl)
        *nl = '\0';
}

int rl_api_settings_build(const RingLameSettings *s, RlArgs *a, int *threads, char *err,
                          size_t errlen)
{
    char **argv = malloc(((size_t) s->ntokens + 4) * sizeof *argv);
    char *errbuf = NULL, *outbuf = NULL;
    size_t errlen_ms = 0, outlen_ms = 0;
    FILE *ferr, *fout;
    int argc = 0, i, rc;

    if (err && errlen)
        err[0] = '\0';
    if (!argv)
        return -ENOMEM;
    argv[argc++] = "ringlame";
    for (i = 0; i < s->ntokens; i++)
        argv[argc++] = s->tokens[i];
    /* the parser wants file names; the API's input and output are memory */
    argv[argc++] = "api-input.wav";
    argv[argc++] = "api-output.mp3";
    argv[argc] = NULL;
    ferr = open_memstream(&errbuf, &errlen_ms);
    fout = open_memstream(&outbuf, &outlen_ms);
    if (!ferr || !fout) {
        if (ferr)
            fclose(ferr);
        if (fout)
            fclose(fout);
        free(errbuf);
        free(outbuf);
        free(argv);
        return -ENOMEM;
    }
    rc = rl_args_parse(a, argc, argv, NULL, fout, ferr);
    fclose(ferr);
    fclose(fout);
    free(argv);
    if (rc == RL_ARGS_EXIT)
        snprintf(err, errlen, "a help or version option is not an encoding option");
    else if (rc != RL_ARGS_OK && errbuf)
        snprintf(err, errlen, "%s", errbuf[0] ? errbuf : "invalid options");
    free(errbuf);
    free(outbuf);
    if (err && errlen)
        keep_first_line(err);
    if (rc != RL_ARGS_OK)
        return -EINVAL;
    if (rl_args_apply_input(a, &a->opt, s->channels, s->sample_rate, err, errlen) < 0)
        return -EINVAL;
    if (s->threads >= 0)
        *threads = s->threads;
    else if (a->sequential)
        *threads = 1;
    else
        *threads = a->threads > 0 ? a->threads : 0;
    return 0;
}

/* Appends tokens; keeps them only if the whole list still parses. */
static int add_tokens(RingLameSettings *s, int n, const char *const *tok)
{
    int const old = s->ntokens;
    RlArgs *a;
    int i, threads, rc;

    if (!s || n < 0 || (n > 0 && !tok))
        return -EINVAL;
    if (s->ntokens + n > s->cap) {
        int cap = s->cap ? s->cap : 16;
        char **t;
        while (cap < s->ntokens + n)
            cap *= 2;
        t = realloc(s->tokens, (size_t) cap * sizeof *t);
        if (!t)
            return -ENOMEM;
        s->tokens = t;
        s->cap = cap;
    }
    for (i = 0; i < n; i++) {
        if (!tok[i] || !(s->tokens[s->ntokens] = strdup(tok[i]))) {
            rc = tok[i] ? -ENOMEM : -EINVAL;
            goto undo;
        }
        s->ntokens++;
    }
    a = malloc(sizeof *a);
    if (!a) {
        rc = -ENOMEM;
        goto undo;
    }
    rc = rl_api_settings_build(s, a, &threads, s->error, sizeof s->error);
    free(a);
    if (rc == 0)
        return 0;
undo:
    while (s->ntokens > old)
        free(s->tokens[--s->ntokens]);
    return rc;
}

RINGLAME_API int ringlame_settings_parse(RingLameSettings *s, int argc, const char *const *argv)
{
    return add_tokens(s, argc, argv);
}

RINGLAME_API int ringlame_settings_set_input(RingLameSettings *s, int sample_rate, int channels)
{
    if (!s || sample_rate <= 0 || channels < 1 || channels > 2)
        return -EINVAL;
    s->sample_rate = sample_rate;
    s->channels = channels;
    return 0;
}

RINGLAME_API int ringlame_settings_set_length(RingLameSettings *s, int64_t frames)
{
    if (!s)
        return -EINVAL;
    s->length = frames < 0 ? -1 : frames;
    return 0;
}

RINGLAME_API int ringlame_settings_set_threads(RingLameSettings *s, int threads)
{
    if (!s || threads < 0 || threads > RL_THREADS_MAX)
        return -EINVAL;
    s->threads = threads;
    return 0;
}

RINGLAME_API int ringlame_settings_set_pool(RingLameSettings *s, RingLamePool *pool)
{
    if (!s)
        return -EINVAL;
    s->pool = pool;
    return 0;
}

RINGLAME_API int ringlame_settings_set_vbr_quality(RingLameSettings *s, float v)
{
    char val[32];
    const char *tok[2] = { "-V", val };
    if (!(v >= 0.f && v < 10.f))
        return -EINVAL;
    snprintf(val, sizeof val, "%.9g", (double) v);
    return add_tokens(s, 2, tok);
}

RINGLAME_API int ringlame_settings_set_cbr(RingLameSettings *s, int kbps)
{
    char val[16];
    const char *tok[3] = { "-b", val, "--cbr" };
    snprintf(val, sizeof val, "%d", kbps);
    return add_tokens(s, 3, tok);
}

RINGLAME_API int ringlame_settings_set_abr(RingLameSettings *s, int kbps)
{
    char val[16];
    const char *tok[2] = { "--abr", val };
    snprintf(val, sizeof val, "%d", kbps);
    return add_tokens(s, 2, tok);
}

RINGLAME_API int ringlame_settings_set_quality(RingLameSettings *s, int q)
{
    char val[16];
    const char *tok[2] = { "-q", val };
    if (q < 0 || q > 9)
        return -EINVAL;
    snprintf(val, sizeof val, "%d", q);
    return add_tokens(s, 2, tok);
}
