/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the public API's settings (lame options accumulated as a
 * list and parsed by lame's grammar for an encoder, lame_args.h), worker
 * pools and version. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "settings.h"
#include "simd.h"
#include <strings.h>

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
    s->simd_level = -1;
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

/* The options lame's command line has that are not an encoder's: the
 * command's console switches, files and information, and ringlame's own;
 * a setting refuses them by name. */
static int command_only(const char *name)
{
    static const char *const names[] = {
        "quiet", "silent", "brief", "verbose", "nohist", "disptime", "flush", "nogap", "nogapout",
        "nogaptags", "decode", "out-dir", "help", "usage", "longhelp", "?", "version", "license",
        "batch", "force", "shard", "merge-manifests", "compare", "compare-to", "lame", "trace",
        "threads", "sequential", "simd",
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcasecmp(name, names[k]) == 0)
            return 1;
    return 0;
}

/* -S and -? are the command's letters */
static int short_refused(void *ctx, char letter, FILE *out, FILE *err)
{
    (void) ctx;
    (void) out;
    if (letter != 'S' && letter != '?')
        return RL_ARGS_NOT_LAME;
    fprintf(err, "-%c is an option of the ringlame command, not an encoder setting\n", letter);
    return RL_ARGS_ERROR;
}

/* The last message line the parser wrote (its reason for stopping: the
 * lines before it are warnings of options it took). */
static void last_line(const char *text, char *err, size_t errlen)
{
    const char *end = text + strlen(text), *start;
    while (end > text && end[-1] == '\n')
        end--;
    start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(err, errlen, "%.*s", (int) (end - start), start);
}

/* lame's grammar on argv[0..argc-1] (no program or file names).  0 or
 * RL_ARGS_ERROR (message on ferr) or RL_ARGS_EXIT. */
static int parse_tokens(RlLameSettings *ls, int argc, char **argv, FILE *fout, FILE *ferr)
{
    for (int i = 0; i < argc; i++) {
        const char *tok = argv[i];
        int r;
        if (tok[0] != '-' || tok[1] == '\0') {
            fprintf(ferr, "'%s': not an option (the program gives the encoder its input and "
                    "takes its output)\n", tok);
            return RL_ARGS_ERROR;
        }
        if (tok[1] == '-') {
            int used = 0;
            r = rl_lame_long_option(ls, tok + 2, i, argc, argv, &used, fout, ferr);
            if (r == RL_ARGS_NOT_LAME) {
                if (command_only(tok + 2))
                    fprintf(ferr, "%s is an option of the ringlame command, not an encoder "
                            "setting\n", tok);
                else
                    fprintf(ferr, "ringlame: unrecognized option %s\n", tok);
                return RL_ARGS_ERROR;
            }
            i += used;
        }
        else {
            r = rl_lame_short_options(ls, tok + 1, &i, argc, argv, short_refused, NULL, fout, ferr);
        }
        if (r != RL_ARGS_OK)
            return r;
        if (ls->bad_value)
            return RL_ARGS_ERROR;   /* the message named the option */
    }
    return rl_lame_settings_finish(ls, ferr);
}

int rl_api_settings_build(const RingLameSettings *s, RlLameSettings *ls, char *err, size_t errlen)
{
    char **argv = malloc(((size_t) s->ntokens + 1) * sizeof *argv);
    char *errbuf = NULL, *outbuf = NULL;
    size_t errlen_ms = 0, outlen_ms = 0;
    FILE *ferr, *fout;
    int rc;

    if (err && errlen)
        err[0] = '\0';
    if (!argv)
        return -ENOMEM;
    for (int i = 0; i < s->ntokens; i++)
        argv[i] = s->tokens[i];
    argv[s->ntokens] = NULL;
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
    rl_lame_settings_init(ls);
    rc = parse_tokens(ls, s->ntokens, argv, fout, ferr);
    fclose(ferr);
    fclose(fout);
    free(argv);
    if (rc == RL_ARGS_EXIT)
        snprintf(err, errlen, "a help or version option is not an encoding option");
    else if (rc != RL_ARGS_OK)
        last_line(errbuf && errbuf[0] ? errbuf : "invalid options", err, errlen);
    free(errbuf);
    free(outbuf);
    if (rc != RL_ARGS_OK)
        return -EINVAL;
    if (rl_lame_settings_set_simd(ls, s->simd_level) < 0) {
        snprintf(err, errlen, "SIMD level %d: this CPU (or build) does not have it",
                 s->simd_level);
        return -EINVAL;
    }
    return 0;
}

/* Appends tokens; keeps them only if the whole list still parses. */
static int add_tokens(RingLameSettings *s, int n, const char *const *tok)
{
    int const old = s->ntokens;
    RlLameSettings *ls;
    int i, rc;

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
    ls = malloc(sizeof *ls);
    if (!ls) {
        rc = -ENOMEM;
        goto undo;
    }
    rc = rl_api_settings_build(s, ls, s->error, sizeof s->error);
    if (rc == 0) {
        RlOptions opt = ls->opt;
        if (rl_lame_apply_input(ls, &opt, s->channels, s->sample_rate, s->error,
                                sizeof s->error) < 0)
            rc = -EINVAL;
    }
    free(ls);
    if (rc == 0) {
        s->error[0] = '\0';
        return 0;
    }
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

RINGLAME_API int ringlame_settings_set_simd(RingLameSettings *s, const char *level)
{
    int const v = level ? rl_simd_parse(level) : -1;

    if (!s || (level && v < 0))
        return -EINVAL;
    if (v > rl_cpu_simd_level()) {
        snprintf(s->error, sizeof s->error, "--simd %s: this CPU (or build) does not have it",
                 level);
        return -ENOTSUP;
    }
    s->simd_level = v;
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
