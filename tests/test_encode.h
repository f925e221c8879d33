/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame tests: one whole encode of a file as the command does it (lame's
 * options parsed by the command's parser, the input's channels and rate,
 * the ring with the caller's parameters), for the tests that drive the ring
 * directly (unit_ring, unit_trace).  Header only; needs the test library. */
#ifndef RL_TEST_ENCODE_H
#define RL_TEST_ENCODE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "ring.h"

/* Parses `ringlame opts tail...` (opts blank-separated, no quoting) into
 * *a; RL_ARGS_OK, or <0 (-EINVAL: refused). */
static inline int rl_test_parse(RlArgs *a, const char *opts, const char *const *tail, int ntail)
{
    char o[256], *argv[48], *tok, *save = NULL;
    int argc = 0, rc;
    FILE *devnull = fopen("/dev/null", "w");

    if (!devnull || ntail > 10)
        rc = -ENOMEM;
    else {
        snprintf(o, sizeof o, "%s", opts);
        argv[argc++] = "ringlame";
        for (tok = strtok_r(o, " ", &save); tok && argc < 36; tok = strtok_r(NULL, " ", &save))
            argv[argc++] = tok;
        for (int i = 0; i < ntail; i++)
            argv[argc++] = (char *) tail[i];
        argv[argc] = NULL;
        rc = rl_args_parse(a, argc, argv, NULL, getenv("RINGLAME_SIMD"), devnull, devnull);
        if (rc != RL_ARGS_OK)
            rc = rc < 0 ? rc : -EINVAL;
    }
    if (devnull)
        fclose(devnull);
    return rc;
}

/* Encodes in_path to out_path with the options in `opts` (blank-separated,
 * no quoting) on rl_run_ring(p).  p's fields are the caller's; NULL:
 * defaults.  Returns the ring's result, or -errno of the setup (-EINVAL:
 * options refused). */
static inline int rl_test_encode_file(const char *opts, const char *in_path, const char *out_path,
                                      const RlRingParams *p)
{
    const char *const tail[2] = { in_path, out_path };
    char err[256];
    int rc;
    RlArgs *a = malloc(sizeof *a);
    RlPcmReader *in = NULL;
    RlMp3Writer *out = NULL;

    rc = a ? rl_test_parse(a, opts, tail, 2) : -ENOMEM;
    if (rc != RL_ARGS_OK) {
        free(a);
        return rc;
    }
    rc = rl_pcm_open(&in, a->in_path, NULL, err, sizeof err);
    if (rc == 0 && (rc = rl_set_num_channels(&a->lame.opt, rl_pcm_channels(in))) == 0
        && (rc = rl_set_in_samplerate(&a->lame.opt, rl_pcm_samplerate(in))) == 0
        && (rc = rl_mp3_open(&out, out_path, err, sizeof err)) == 0) {
        int rc2;
        rc = rl_run_ring(&a->lame.opt, in, out, p);
        rc2 = rl_mp3_close(out, rc == 0);
        if (rc == 0)
            rc = rc2;
    }
    if (in)
        rl_pcm_close(in);
    free(a);
    return rc;
}

/* A gapless set as `ringlame opts --nogap in_paths...` encodes it, into
 * out_paths (rl_run_ring_nogap(p); p required; at most 8 files).  The
 * inputs must share the first one's rate and channels. */
static inline int rl_test_encode_nogap(const char *opts, const char *const *in_paths,
                                       const char *const *out_paths, int n, const RlRingParams *p)
{
    const char *tail[9];
    char err[256];
    int rc, i;
    RlArgs *a;
    RlPcmReader *in[8] = { NULL };
    RlMp3Writer *out[8] = { NULL };

    if (n < 1 || n > 8)
        return -EINVAL;
    tail[0] = "--nogap";
    for (i = 0; i < n; i++)
        tail[i + 1] = in_paths[i];
    a = malloc(sizeof *a);
    rc = a ? rl_test_parse(a, opts, tail, n + 1) : -ENOMEM;
    if (rc != RL_ARGS_OK) {
        free(a);
        return rc;
    }
    for (i = 0; i < n && rc == 0; i++)
        rc = rl_pcm_open(&in[i], in_paths[i], NULL, err, sizeof err);
    if (rc == 0 && (rc = rl_set_num_channels(&a->lame.opt, rl_pcm_channels(in[0]))) == 0)
        rc = rl_set_in_samplerate(&a->lame.opt, rl_pcm_samplerate(in[0]));
    for (i = 0; i < n && rc == 0; i++)
        rc = rl_mp3_open(&out[i], out_paths[i], err, sizeof err);
    if (rc == 0)
        rc = rl_run_ring_nogap(&a->lame.opt, in, out, n, p);
    for (i = 0; i < n; i++) {
        if (out[i]) {
            int const rc2 = rl_mp3_close(out[i], rc == 0);
            if (rc == 0)
                rc = rc2;
        }
        if (in[i])
            rl_pcm_close(in[i]);
    }
    free(a);
    return rc;
}

#endif
