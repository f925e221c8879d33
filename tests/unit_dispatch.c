/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: Dispatch cuts frame t as samples [1152t-528-576,
 * 1152t+1376) of the zero-extended input (incl. the 576 pre samples),
 * emits floor((576+N)/1152) + (r<=576 ? 1 : 2) frames and reports
 * encoder_padding = 1152*F - 576 - N (LAME's encoder delay of 576 samples
 * plus the zero padding of the last frame), for several chunkings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "rl_encoder.h"
#include "dispatch.h"

static int32_t sample_at(long i, int ch)
{
    return (int32_t)((uint32_t)((int)((i * 7919 + ch * 104729) % 65536) - 32768) << 16);
}

/* expected float value of stream sample i (int -> float, times 1/65536) */
static float expect_at(long i, long n, int ch)
{
    if (i < 0 || i >= n)
        return 0.0f;
    return (float)sample_at(i, ch) * (float)(1.0 / 65536.0);
}

static void run_case(long n, int chunk)
{
    RlEncoder *e = calloc(1, sizeof *e);
    RlFrame *f = calloc(1, sizeof *f);
    int32_t *pcm = malloc(sizeof(int32_t) * 2 * (size_t)(n > 0 ? n : 1));
    long i, frames = 0, r = (576 + n) % 1152;
    long want_frames = (576 + n) / 1152 + (r <= 576 ? 1 : 2);
    int rc, ok = 1, rc_ok = 1;
    char msg[160];

    for (i = 0; i < n; i++) {
        pcm[2 * i] = sample_at(i, 0);
        pcm[2 * i + 1] = sample_at(i, 1);
    }
    e->k.cfg.channels_in = e->k.cfg.channels_out = 2;
    e->k.cfg.mode_gr = 2;
    e->k.cfg.samplerate_in = e->k.cfg.samplerate_out = 44100;
    e->k.cfg.frame_size = 1152;
    e->k.cfg.pcm_transform[0][0] = e->k.cfg.pcm_transform[1][1] = 1.0f;
    rc_ok &= rl_dispatch_init(&e->k, &e->dispatch) == 0;

#define TAKE_FRAMES()                                                              \
    while ((rc = rl_dispatch_next(&e->k, &e->dispatch, &e->rg, f)) > 0) {                                    \
        int ch, k;                                                                 \
        for (ch = 0; ch < 2; ch++)                                                 \
            for (k = 0; k < RL_FRAME_SPAN; k++)                                    \
                if (f->in[ch][k] != expect_at(1152 * frames - 528 - 576 + k, n, ch)) \
                    ok = 0;                                                        \
        ok &= f->index == frames && f->padding == 0;                               \
        frames++;                                                                  \
    }                                                                              \
    rc_ok &= rc == 0;

    for (i = 0; i < n; i += chunk) {
        int m = n - i < chunk ? (int)(n - i) : chunk;
        rc_ok &= rl_dispatch_feed(&e->k, &e->dispatch, &e->rg, pcm + 2 * i, m) == 0;
        TAKE_FRAMES();
    }
    while ((rc = rl_dispatch_flush_step(&e->k, &e->dispatch, &e->rg)) > 0) {
        TAKE_FRAMES();
    }
    rc_ok &= rc == 0;
    snprintf(msg, sizeof msg, "N=%ld chunk %d: calls succeed", n, chunk);
    CHECK(rc_ok, "%s", msg);
    snprintf(msg, sizeof msg, "N=%ld chunk %d: frame windows are the zero-extended stream", n, chunk);
    CHECK(ok, "%s", msg);
    snprintf(msg, sizeof msg, "N=%ld chunk %d: %ld frames (want %ld)", n, chunk, frames, want_frames);
    CHECK(frames == want_frames, "%s", msg);
    snprintf(msg, sizeof msg, "N=%ld chunk %d: padding %d (want %ld)", n, chunk,
             e->dispatch.encoder_padding, 1152 * want_frames - 576 - n);
    CHECK(e->dispatch.encoder_padding == 1152 * want_frames - 576 - n, "%s", msg);
    CHECK(rl_dispatch_flush_step(&e->k, &e->dispatch, &e->rg) == 0, "a second flush does nothing");
    rl_dispatch_free(&e->dispatch);
    free(pcm);
    free(f);
    free(e);
}

int main(void)
{
    static const long lens[] = { 0, 1, 575, 576, 577, 1152, 1728, 4000, 44100 };
    size_t i;
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        run_case(lens[i], 1152);
        run_case(lens[i], 333);
    }
    return rl_test_done();
}
