/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: --nogap FILE...: every input is opened first and must have the
 * first one's sample rate and channel count (lame reads on regardless and
 * writes noise); every output is named like lame's (beside its input, or
 * in the --nogapout / --out-dir folder) and created as an unnamed file that
 * appears only when the whole set succeeded; each gets the ID3 tags, its
 * ID3v2 tag with its own input's length (TLEN), as lame writes them.  MPEG
 * inputs are read as lame's --nogap reads them.  The set is one file
 * session (session_files.h): one stream on one ring.  Algorithms derived from LAME 3.100
 * (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "console.h"
#include "exit_status.h"
#include "nogap.h"
#include "run_failure.h"
#include "nogap_console.h"
#include "pcm_reader.h"
#include "ring.h"
#include "session_files.h"
#include "signals.h"


typedef struct NogapSet {
    int            n;
    const char    *in_path[RL_ARGS_MAX_NOGAP];
    char          *out_path[RL_ARGS_MAX_NOGAP];
    RlFileSession *fs;
} NogapSet;

static void set_free(NogapSet *s)
{
    rl_file_session_free(s->fs);       /* what was not committed is discarded */
    for (int i = 0; i < s->n; i++)
        free(s->out_path[i]);
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

/* Opens the inputs into the session, which checks them against the first.
 * 0 or an exit status after a message. */
static int open_inputs(NogapSet *s)
{
    char why[RL_ARGS_PATH_MAX + 640];

    for (int i = 0; i < s->n; i++) {
        int rc;
        if (strcmp(s->in_path[i], "-") == 0) {
            fprintf(stderr, "ringlame: --nogap reads files, not standard input\n");
            return RL_EXIT_USAGE;
        }
        rc = rl_file_session_add_input(s->fs, s->in_path[i], why, sizeof why);
        if (rc < 0) {
            fprintf(stderr, "ringlame: %s\n", why);
            /* lame: "Can't init infile" (a set whose files differ: ours) */
            return rc == -EXDEV ? RL_EXIT_USAGE : rc == -ENOMEM ? RL_EXIT_IO : RL_EXIT_OPEN;
        }
    }
    return 0;
}

/* Names and creates the outputs.  0 or an exit status after a message. */
static int open_outputs(NogapSet *s, const RlArgs *a)
{
    char why[RL_ARGS_PATH_MAX + 640];

    for (int i = 0; i < s->n; i++) {
        s->out_path[i] = malloc(RL_ARGS_PATH_MAX + 1);
        if (!s->out_path[i]) {
            fprintf(stderr, "ringlame: out of memory\n");
            return RL_EXIT_IO;
        }
        if (rl_args_default_output(s->in_path[i], a->nogap_dir, s->out_path[i],
                                   RL_ARGS_PATH_MAX + 1) != 0) {
            fprintf(stderr, "ringlame: processing nogap file %d: %s: output file name too long\n",
                    i + 1, s->in_path[i]);
            return RL_EXIT_OPEN;
        }
        for (int j = 0; j < s->n; j++)
            if (same_file(s->in_path[j], s->out_path[i])) {
                fprintf(stderr, "ringlame: %s: the output '%s' is an input file of the set: "
                        "refusing to overwrite it\n", s->in_path[i], s->out_path[i]);
                return RL_EXIT_OPEN;
            }
        for (int j = 0; j < i; j++)
            if (strcmp(s->out_path[j], s->out_path[i]) == 0) {
                fprintf(stderr, "ringlame: --nogap: %s and %s would both be written to %s\n",
                        s->in_path[j], s->in_path[i], s->out_path[i]);
                return RL_EXIT_USAGE;
            }
    }
    for (int i = 0; i < s->n; i++) {
        if (rl_file_session_add_output(s->fs, s->out_path[i], why, sizeof why) < 0) {
            fprintf(stderr, "ringlame: %s\n", why);
            return RL_EXIT_OPEN;    /* lame: "Can't init outfile" */
        }
    }
    return 0;
}

/* The set's encode; a failed run's RlRingEnd and file go to *failed_end
 * and *failed_file. */
static int run_set(NogapSet *s, const RlArgs *a, int *failed_end, int *failed_file)
{
    RlSessionRun run;
    RlRingResult result;
    RlNogapConsole *con;
    const RlOptions *derived;
    const RlConfig *cfg = rl_file_session_config(s->fs, &derived);
    int64_t samples[RL_ARGS_MAX_NOGAP];
    char why[RL_ARGS_PATH_MAX + 640];
    int rc;

    memset(&run, 0, sizeof run);
    memset(&result, 0, sizeof result);
    for (int i = 0; i < s->n; i++)
        samples[i] = rl_file_session_frames(s->fs, i);
    rc = rl_nogap_console_create(&con, a, cfg, derived, s->n, s->in_path, s->out_path, samples);
    if (rc < 0)
        return rc;
    rl_nogap_console_hooks(con, &run.hooks);
    run.result = &result;
    run.threads = a->threads;
    run.sequential = a->sequential;
    rc = rl_ring_stop_create(&run.stop);
    if (rc < 0) {
        rl_nogap_console_free(con);
        return rc;
    }
    rc = rl_signals_set_stop_callback(stop_ring, run.stop);
    if (rc == 0) {
        rl_console_init_notes(cfg);
        rl_nogap_console_begin(con);
        why[0] = '\0';
        rc = rl_file_session_run(s->fs, &run, why, sizeof why);
        if (rc < 0 && why[0])
            fprintf(stderr, "ringlame: %s\n", why);
        if (rc < 0) {
            *failed_end = result.failed_end;
            *failed_file = result.failed_file >= 0 && result.failed_file < s->n ? result.failed_file : 0;
        }
        if (rc == 0 && rl_signals_caught())
            rc = -EINTR;
        rl_nogap_console_end(con, rc == 0, &result);
        (void) rl_signals_set_stop_callback(NULL, NULL);
    }
    rl_ring_stop_free(run.stop);
    rl_nogap_console_free(con);
    return rc;
}

int rl_nogap_main(const RlArgs *a, char **argv)
{
    NogapSet *s = calloc(1, sizeof *s);
    char why[RL_ARGS_PATH_MAX + 640];
    int rc, status, failed_end = RL_RING_END_NONE, failed_file = 0;

    if (!s || rl_file_session_create(&s->fs, &a->lame, a->n_inputs, 1) < 0) {
        fprintf(stderr, "ringlame: out of memory\n");
        free(s);
        return RL_EXIT_IO;
    }
    s->n = a->n_inputs;
    for (int i = 0; i < s->n; i++)
        s->in_path[i] = argv[a->input_argi[i]];

    status = open_inputs(s);
    if (status == 0) {
        rc = rl_signals_install(a->sequential);
        if (rc < 0) {
            fprintf(stderr, "ringlame: cannot install signal handlers: %s\n", strerror(-rc));
            status = RL_EXIT_IO;
        }
    }
    if (status == 0)
        status = open_outputs(s, a);
    if (status != 0) {
        set_free(s);
        free(s);
        return status;
    }
    rc = run_set(s, a, &failed_end, &failed_file);
    if (rc >= 0 && rl_signals_caught())
        rc = -EINTR;
    if (rc < 0) {
        if (rc == -EINTR && rl_signals_caught()) {
            int const sig = rl_signals_caught();
            set_free(s);
            free(s);
            fprintf(stderr, "ringlame: stopped by signal %d (%s), no output written\n", sig,
                    strsignal(sig));
            return rl_signals_exit_status();
        }
        /* no file of the set is kept, whichever failed */
        status = rl_run_failure(rc, failed_end, s->in_path[failed_file], s->out_path[failed_file],
                                0, "mp3");
        set_free(s);
        free(s);
        return status;
    }
    status = 0;
    if (rl_file_session_commit(s->fs, why, sizeof why) < 0) {
        fprintf(stderr, "ringlame: %s\n", why);
        status = RL_EXIT_WRITE;
    }
    set_free(s);
    free(s);
    return status;
}
