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

#include "args.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "ring.h"

/* Encodes in_path to out_path with the options in `opts` (blank-separated,
 * no quoting) on rl_run_ring(p).  p's fields are the caller's; NULL:
 * defaults.  Returns the ring's result, or -errno of the setup (-EINVAL:
 * options refused). */
static inline int rl_test_encode_file(const char *opts, const char *in_path, const char *out_path,
                                      const RlRingParams *p)
{
    char o[256], *argv[32], *tok, *save = NULL, err[256];
    int argc = 0, rc;
    RlArgs *a = malloc(sizeof *a);
    RlPcmReader *in = NULL;
    RlMp3Writer *out = NULL;
    FILE *devnull = fopen("/dev/null", "w");

    snprintf(o, sizeof o, "%s", opts);
    argv[argc++] = "ringlame";
    for (tok = strtok_r(o, " ", &save); tok && argc < 28; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc++] = (char *) in_path;
    argv[argc++] = (char *) out_path;
    argv[argc] = NULL;
    rc = a && devnull ? rl_args_parse(a, argc, argv, NULL, devnull, devnull) : -ENOMEM;
    if (devnull)
        fclose(devnull);
    if (rc != RL_ARGS_OK) {
        free(a);
        return rc < 0 ? rc : -EINVAL;
    }
    rc = rl_pcm_open(&in, a->in_path, NULL, err, sizeof err);
    if (rc == 0 && (rc = rl_set_num_channels(&a->opt, rl_pcm_channels(in))) == 0
        && (rc = rl_set_in_samplerate(&a->opt, rl_pcm_samplerate(in))) == 0
        && (rc = rl_mp3_open(&out, out_path, err, sizeof err)) == 0) {
        int rc2;
        rc = rl_run_ring(&a->opt, in, out, p);
        rc2 = rl_mp3_close(out, rc == 0);
        if (rc == 0)
            rc = rc2;
    }
    if (in)
        rl_pcm_close(in);
    free(a);
    return rc;
}

#endif
