/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: --decode (decode_run.h).
 * Algorithm derived from LAME 3.100's frontend/lame_main.c (lame_decoder;
 * LGPL-2.0-or-later): whatever the input, its samples go out as LAME's
 * get_audio16 gives them (the top 16 bits). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "decode_run.h"
#include "pcm_reader.h"
#include "signals.h"
#include "wav_writer.h"

#define EXIT_IO 2

int rl_decode_run(const RlArgs *a)
{
    RlRawFormat raw;
    RlPcmReader *in = NULL;
    RlWavWriter *out = NULL;
    char err[512] = "";
    int32_t buf[2 * 1152];
    int16_t pcm[2 * 1152];
    int rc, ch;

    /* one thread: a signal exits at once, removing the partial output */
    rc = rl_signals_install(1);
    if (rc < 0) {
        fprintf(stderr, "ringlame: cannot install signal handlers: %s\n", strerror(-rc));
        return EXIT_IO;
    }
    rl_args_raw_format(a, &raw);
    rc = rl_pcm_open(&in, a->in_path, &raw, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s\n", err[0] ? err : strerror(-rc));
        return EXIT_IO;
    }
    ch = rl_pcm_channels(in);
    /* lame's read size for PCM input: one frame of the input's rate */
    rl_pcm_set_read_size(in, rl_pcm_samplerate(in) < 32000 ? 576 : 1152);
    rc = rl_wav_open(&out, a->out_path, !a->decode_raw, a->raw_swapbytes, ch,
                     a->input_samplerate > 0 ? a->input_samplerate : rl_pcm_samplerate(in), err,
                     sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s\n", err[0] ? err : strerror(-rc));
        rl_pcm_close(in);
        return EXIT_IO;
    }
    (void) rl_signals_set_cleanup(strcmp(a->out_path, "-") ? a->out_path : NULL,
                                  !strcmp(a->out_path, "-"));
    for (;;) {
        int const n = rl_pcm_read(in, buf, rl_pcm_samplerate(in) < 32000 ? 576 : 1152);
        if (n < 0) {
            rc = n;
            fprintf(stderr, "ringlame: decoding %s failed: %s (no output written)\n", a->in_path,
                    strerror(-rc));
            break;
        }
        if (n == 0)
            break;
        for (int i = 0; i < n * ch; i++)
            pcm[i] = (int16_t) (buf[i] >> 16);
        rc = rl_wav_write(out, pcm, n);
        if (rc < 0) {
            fprintf(stderr, "ringlame: %s: %s\n", a->out_path, strerror(-rc));
            break;
        }
    }
    rl_pcm_close(in);
    if (rc < 0) {
        (void) rl_wav_close(out, 0);
        (void) rl_signals_set_cleanup(NULL, 0);
        return EXIT_IO;
    }
    rc = rl_wav_close(out, 1);
    (void) rl_signals_set_cleanup(NULL, 0);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s: %s\n", a->out_path, strerror(-rc));
        return EXIT_IO;
    }
    return 0;
}
