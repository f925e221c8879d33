/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: --nogap FILE...: every input is opened first and must have the
 * first one's sample rate and channel count (lame reads on regardless and
 * writes noise); every output is named like lame's (beside its input, or
 * in the --nogapout / --out-dir folder) and created as an unnamed file that
 * appears only when the whole set succeeded; each gets the ID3 tags, its
 * ID3v2 tag with its own input's length (TLEN), as lame writes them.  MPEG
 * inputs are read as lame's --nogap reads them (open_inputs).  The set runs on one ring
 * (rl_run_ring_nogap).  Algorithms derived from LAME 3.100
 * (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "console.h"
#include "nogap.h"
#include "nogap_console.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "ring.h"
#include "signals.h"

#define EXIT_USAGE 1
#define EXIT_IO    2
#define NOGAP_ENCODER_DELAY 576     /* LAME's ENCDELAY, set by lame_init_params */

typedef struct NogapSet {
    int           n;
    const char   *in_path[RL_ARGS_MAX_NOGAP];
    char         *out_path[RL_ARGS_MAX_NOGAP];
    RlPcmReader  *in[RL_ARGS_MAX_NOGAP];
    RlMp3Writer  *out[RL_ARGS_MAX_NOGAP];
    uint8_t      *id3v2[RL_ARGS_MAX_NOGAP];   /* each file's ID3v2 tag (its own TLEN) */
    size_t        id3v2_len[RL_ARGS_MAX_NOGAP];
    RlMpaReadPlan plan[RL_ARGS_MAX_NOGAP];    /* MPEG inputs: lame's decoded-chunk reads */
    uint8_t       id3v1[128];
    size_t        id3v1_len;
} NogapSet;

static void set_close(NogapSet *s, int commit)
{
    for (int i = 0; i < s->n; i++) {
        if (s->in[i])
            rl_pcm_close(s->in[i]);
        if (s->out[i])
            (void) rl_mp3_close(s->out[i], commit);
        free(s->out_path[i]);
        free(s->id3v2[i]);
    }
}

static void stop_ring(void *token)
{
    rl_ring_stop_request(token);
}

/* 1 if a and b name the same existing regular file, or the same name. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISREG(sa.st_mode)
           && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Opens the inputs and checks them against the first; fills *opt from it.
 * 0 or an exit status after a message. */
static int open_inputs(NogapSet *s, const RlArgs *a, RlOptions *opt)
{
    RlRawFormat raw;
    char err[512];

    rl_args_raw_format(a, &raw);
    /* lame's file-name rule looks at its single input's name only, which a
     * --nogap set leaves empty: without --mpNinput every file of the set
     * goes to libsndfile, an MPEG one too (libsndfile decodes it) */
    if (raw.mpeg == 0)
        raw.mpeg = RL_RAW_MPEG_NONE;
    for (int i = 0; i < s->n; i++) {
        int rc;
        if (strcmp(s->in_path[i], "-") == 0) {
            fprintf(stderr, "ringlame: --nogap reads files, not standard input\n");
            return EXIT_USAGE;
        }
        /* lame opens the later files after lame_init_params, which sets the
         * encoder delay its MPEG reader may skip (mpa_reader.h) */
        raw.mpeg_encoder_delay = i > 0 ? NOGAP_ENCODER_DELAY : 0;
        err[0] = '\0';
        rc = rl_pcm_open(&s->in[i], s->in_path[i], &raw, err, sizeof err);
        if (rc < 0) {
            s->in[i] = NULL;
            if (err[0])
                fprintf(stderr, "ringlame: %s\n", err);
            else
                fprintf(stderr, "ringlame: %s: %s\n", s->in_path[i], strerror(-rc));
            return EXIT_IO;
        }
        if (i == 0) {
            if (rl_args_apply_input(a, opt, rl_pcm_channels(s->in[0]), rl_pcm_samplerate(s->in[0]),
                                    err, sizeof err) < 0) {
                fprintf(stderr, "ringlame: %s: %s\n", s->in_path[0], err);
                return EXIT_IO;
            }
        }
        else if (rl_pcm_channels(s->in[i]) != rl_pcm_channels(s->in[0])
                 || rl_pcm_samplerate(s->in[i]) != rl_pcm_samplerate(s->in[0])) {
            fprintf(stderr, "ringlame: %s: --nogap: %d Hz, %d channel(s), but %s has %d Hz, "
                    "%d channel(s): the files of a gapless set must have the same sample rate "
                    "and channel count\n", s->in_path[i], rl_pcm_samplerate(s->in[i]),
                    rl_pcm_channels(s->in[i]), s->in_path[0], rl_pcm_samplerate(s->in[0]),
                    rl_pcm_channels(s->in[0]));
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Names and creates the outputs.  0 or an exit status after a message. */
static int open_outputs(NogapSet *s, const RlArgs *a)
{
    char err[512];

    for (int i = 0; i < s->n; i++) {
        s->out_path[i] = malloc(RL_ARGS_PATH_MAX + 1);
        if (!s->out_path[i]) {
            fprintf(stderr, "ringlame: out of memory\n");
            return EXIT_IO;
        }
        if (rl_args_default_output(s->in_path[i], a->nogap_dir, s->out_path[i],
                                   RL_ARGS_PATH_MAX + 1) != 0) {
            fprintf(stderr, "ringlame: processing nogap file %d: %s: output file name too long\n",
                    i + 1, s->in_path[i]);
            return EXIT_USAGE;
        }
        for (int j = 0; j < s->n; j++)
            if (same_file(s->in_path[j], s->out_path[i])) {
                fprintf(stderr, "ringlame: %s: the output '%s' is an input file of the set: "
                        "refusing to overwrite it\n", s->in_path[i], s->out_path[i]);
                return EXIT_USAGE;
            }
        for (int j = 0; j < i; j++)
            if (strcmp(s->out_path[j], s->out_path[i]) == 0) {
                fprintf(stderr, "ringlame: --nogap: %s and %s would both be written to %s\n",
                        s->in_path[j], s->in_path[i], s->out_path[i]);
                return EXIT_USAGE;
            }
    }
    for (int i = 0; i < s->n; i++) {
        int rc;
        err[0] = '\0';
        rc = rl_mp3_open(&s->out[i], s->out_path[i], err, sizeof err);
        if (rc < 0) {
            s->out[i] = NULL;
            if (err[0])
                fprintf(stderr, "ringlame: %s\n", err);
            else
                fprintf(stderr, "ringlame: %s: %s\n", s->out_path[i], strerror(-rc));
            return EXIT_IO;
        }
    }
    return 0;
}

/* The ID3 tags as lame's front end writes them for each file of the set
 * (rl_args_tags_build: the --ti picture, each ID3v2 tag with the TLEN of
 * its own input; without one of the options' own, an MPEG input's own
 * ID3v2 tag).  Each file's ID3v2 tag is kept in s; the ID3v1 tag is the
 * same for all. */
static int build_tags(NogapSet *s, const RlArgs *a, const RlOptions *opt)
{
    char why[RL_ARGS_PATH_MAX + 128];

    for (int i = 0; i < s->n; i++) {
        RlArgsTags t;
        size_t in_v2_len;
        const uint8_t *in_v2 = rl_pcm_input_id3v2(s->in[i], &in_v2_len);
        int const rc = rl_args_tags_build(a, rl_pcm_frames(s->in[i]), opt->samplerate_in, in_v2,
                                          in_v2_len, &t, why, sizeof why);
        if (rc < 0) {
            fprintf(stderr, "ringlame: %s\n", why);
            rl_args_tags_free(&t);
            return rc;
        }
        s->id3v2[i] = t.v2;             /* freed by set_close */
        s->id3v2_len[i] = t.v2_len;
        memcpy(s->id3v1, t.v1, sizeof s->id3v1);
        s->id3v1_len = t.v1_len;
    }
    return 0;
}

/* The ring's file_next_read: an MPEG input is read one decoded chunk at a
 * time, as lame's front end reads it; 0 (the frame size) for the others. */
static int next_read(void *arg, int file)
{
    NogapSet *s = arg;
    return rl_pcm_mpeg(s->in[file]) ? rl_mpa_read_plan_next(&s->plan[file]) : 0;
}

static int run_set(NogapSet *s, const RlArgs *a, const RlOptions *opt)
{
    RlRingParams p;
    RlRingResult result;
    RlNogapConsole *con;
    int64_t samples[RL_ARGS_MAX_NOGAP];
    int rc;

    memset(&p, 0, sizeof p);
    memset(&result, 0, sizeof result);
    for (int i = 0; i < s->n; i++)
        samples[i] = rl_pcm_frames(s->in[i]);
    rc = rl_nogap_console_create(&con, a, opt, s->n, s->in_path, s->out_path, samples);
    if (rc < 0)
        return rc;
    rl_nogap_console_params(con, &p);
    for (int i = 0; i < s->n; i++)
        if (rl_pcm_mpeg(s->in[i]))
            rl_mpa_read_plan_init(&s->plan[i], rl_pcm_mpeg(s->in[i]));
    p.file_next_read = next_read;
    p.next_read_arg = s;
    p.result = &result;
    p.threads = a->sequential ? 1 : rl_threads_resolve(a->threads);
    p.io_backend = RL_RING_IO_DIRECT;
    rc = build_tags(s, a, opt);
    if (rc < 0) {
        rl_nogap_console_free(con);
        return rc;
    }
    p.id3v2 = s->id3v2[0];
    p.id3v2_len = s->id3v2_len[0];
    p.id3v1 = s->id3v1;
    p.id3v1_len = s->id3v1_len;
    p.nogap_id3v2 = (const uint8_t *const *) s->id3v2;
    p.nogap_id3v2_len = s->id3v2_len;
    rc = rl_ring_stop_create(&p.stop);
    if (rc < 0) {
        rl_nogap_console_free(con);
        return rc;
    }
    rc = rl_signals_set_stop_callback(stop_ring, p.stop);
    if (rc == 0) {
        rl_console_init_notes(opt);
        rl_nogap_console_begin(con);
        rc = rl_run_ring_nogap(opt, s->in, s->out, s->n, &p);
        if (rc == 0 && rl_signals_caught())
            rc = -EINTR;
        rl_nogap_console_end(con, rc == 0, &result);
        (void) rl_signals_set_stop_callback(NULL, NULL);
    }
    rl_ring_stop_free(p.stop);
    rl_nogap_console_free(con);
    return rc;
}

int rl_nogap_main(const RlArgs *a, char **argv)
{
    NogapSet *s = calloc(1, sizeof *s);
    RlOptions opt = a->opt;
    int rc, status;

    if (!s) {
        fprintf(stderr, "ringlame: out of memory\n");
        return EXIT_IO;
    }
    s->n = a->n_inputs;
    for (int i = 0; i < s->n; i++)
        s->in_path[i] = argv[a->input_argi[i]];

    status = open_inputs(s, a, &opt);
    if (status == 0) {
        rc = rl_signals_install(a->sequential);
        if (rc < 0) {
            fprintf(stderr, "ringlame: cannot install signal handlers: %s\n", strerror(-rc));
            status = EXIT_IO;
        }
    }
    if (status == 0)
        status = open_outputs(s, a);
    if (status != 0) {
        set_close(s, 0);
        free(s);
        return status;
    }
    rc = run_set(s, a, &opt);
    if (rc >= 0 && rl_signals_caught())
        rc = -EINTR;
    if (rc < 0) {
        set_close(s, 0);
        free(s);
        if (rc == -EINTR && rl_signals_caught()) {
            int const sig = rl_signals_caught();
            fprintf(stderr, "ringlame: stopped by signal %d (%s), no output written\n", sig,
                    strsignal(sig));
            return rl_signals_exit_status();
        }
        fprintf(stderr, "ringlame: --nogap: encoding the set failed: %s (no output written)\n",
                strerror(-rc));
        return EXIT_IO;
    }
    status = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->in[i]) {
            rl_pcm_close(s->in[i]);
            s->in[i] = NULL;
        }
        rc = rl_mp3_close(s->out[i], 1);
        s->out[i] = NULL;
        if (rc < 0) {
            fprintf(stderr, "ringlame: %s: %s\n", s->out_path[i], strerror(-rc));
            status = EXIT_IO;
        }
    }
    set_close(s, 0);
    free(s);
    return status;
}
