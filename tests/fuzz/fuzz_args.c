/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz target "args": the command-line parser (src/Api/args.h) and
 * what the command does with its result before any file is opened: the
 * default output name and the encoder's derived settings (rl_config_init,
 * LAME's lame_init_params).
 *
 * Input layout (docs/reliability.md):
 *   byte 0   bit 0: the first line is LAMEOPT (the environment variable)
 *            bits 1-2: input channels handed to the settings (1, 2, 0, 3)
 *            bits 3-6: input sample rate index (when -s is not given)
 *   rest     argv[1..], one argument per line ('\n'); a NUL ends an argument
 *            early (as in a real argv).  At most 96 arguments.
 * Help, version and messages go to /dev/null.
 *
 * Invariants checked besides memory safety and termination:
 *   - the result is RL_ARGS_OK, RL_ARGS_EXIT or RL_ARGS_ERROR;
 *   - on RL_ARGS_OK the paths are NUL-terminated within their buffers, the
 *     output path is not empty, the thread count is 0..RL_THREADS_MAX (an empty input
 *     name is accepted, as lame accepts it: opening it fails later);
 *   - rl_args_default_output either fails or writes a name ending in ".mp3". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "thread_policy.h"
#include "fuzz_util.h"
#include "settings.h"

#define MAX_FUZZ_ARGS 96

static const int k_rates[16] = { 44100, 48000, 32000, 22050, 24000, 16000, 11025, 12000,
                                 8000, 96000, 1, 7999, 50000, 88200, 0, 192000 };

static FILE *devnull(void)
{
    static FILE *fp;
    if (!fp)
        fp = fopen("/dev/null", "w");
    if (!fp)
        abort();
    return fp;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FzBytes b = { data, size };
    unsigned const flags = fz_u8(&b);
    static const int k_channels[4] = { 1, 2, 0, 3 };
    char *text, *lameopt = NULL, *argv[MAX_FUZZ_ARGS + 2];
    int argc = 0, rc;
    size_t i, start;
    RlArgs *a;

    /* a private, NUL-terminated copy that is cut into lines */
    text = malloc(b.n + 1);
    a = malloc(sizeof *a);
    if (!text || !a)
        abort();
    memcpy(text, b.p, b.n);
    text[b.n] = '\0';
    argv[argc++] = "ringlame";
    start = 0;
    for (i = 0; i <= b.n && argc <= MAX_FUZZ_ARGS; i++) {
        if (i == b.n || text[i] == '\n') {
            text[i] = '\0';
            if ((flags & 1) && !lameopt && argc == 1)
                lameopt = text + start;
            else
                argv[argc++] = text + start;
            start = i + 1;
        }
    }
    argv[argc] = NULL;

    rc = rl_args_parse(a, argc, argv, lameopt, getenv("RINGLAME_SIMD"), devnull(), devnull());
    FZ_CHECK(rc == RL_ARGS_OK || rc == RL_ARGS_EXIT || rc == RL_ARGS_ERROR, "rl_args_parse returned %d", rc);
    if (rc == RL_ARGS_OK) {
        char outname[RL_ARGS_PATH_MAX + 1];
        RlOptions opt;
        RlConfig *cfg;

        FZ_CHECK(memchr(a->in_path, 0, sizeof a->in_path) != NULL, "in_path not terminated");
        FZ_CHECK(memchr(a->out_path, 0, sizeof a->out_path) != NULL, "out_path not terminated");
        FZ_CHECK(memchr(a->out_dir, 0, sizeof a->out_dir) != NULL, "out_dir not terminated");
        /* a gapless set names its outputs per input (nogap.c), a batch per file */
        FZ_CHECK(a->out_path[0] != '\0' || a->nogap || a->batch, "parse OK without an output");
        FZ_CHECK(a->threads >= 0 && a->threads <= RL_THREADS_MAX, "threads %d", a->threads);

        if (rl_args_default_output(a->in_path, a->out_dir, outname, sizeof outname) == 0) {
            size_t const n = strlen(outname);
            FZ_CHECK(n >= 4 && strcmp(outname + n - 4, ".mp3") == 0, "default output '%s'", outname);
        }

        /* what main() does next, without files: the input's channels and
         * rate (-s wins), then lame_init_params on a copy */
        opt = a->lame.opt;
        cfg = malloc(sizeof *cfg);
        if (!cfg)
            abort();
        if (rl_set_num_channels(&opt, k_channels[(flags >> 1) & 3]) == 0
            && rl_set_in_samplerate(&opt, a->lame.input_samplerate > 0 ? a->lame.input_samplerate
                                                                 : k_rates[(flags >> 3) & 15]) == 0) {
            if (rl_config_init(cfg, &opt) == 0) {
                FZ_CHECK(cfg->channels_out == 1 || cfg->channels_out == 2, "channels_out %d",
                         cfg->channels_out);
                FZ_CHECK(cfg->frame_size == 576 || cfg->frame_size == 1152, "frame_size %d",
                         cfg->frame_size);
            }
        }
        free(cfg);
    }
    free(a);
    free(text);
    return 0;
}
