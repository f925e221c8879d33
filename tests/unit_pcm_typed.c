/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: the typed input path (pcm_typed.h) gives lame's
 * lame_copy_inbuffer floats for every sample type, planar and
 * interleaved alike, mono reading the left buffer twice; and its int path
 * queued as RL_SF_F32_UV blocks gives Dispatch exactly the floats of the
 * int32 path (rl_dispatch_feed), scale and downmix included. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "rl_encoder.h"
#include "dispatch.h"
#include "pcm_typed.h"

#define N 1500

static float ref_u(float xl, float xr, const float m[4])
{
    float const u = xl * m[0] + xr * m[1];
    return u;
}

static float ref_v(float xl, float xr, const float m[4])
{
    float const v = xl * m[2] + xr * m[3];
    return v;
}

/* the reference: each sample to float, then the matrix in float */
static int check_type(RlPcmType type, const void *l, const void *r, const void *il,
                      const float m[4], float (*at)(const void *, size_t))
{
    static float uv[2 * N], uv2[2 * N];
    RlPcmTyped planar = { type, l, r, 1 }, inter = { type, il, NULL, 2 };
    size_t i;
    int ok = 1;

    inter.r = (const char *) il + (type == RL_PCM_SHORT ? sizeof(short) : type == RL_PCM_INT
                                   ? sizeof(int) : type == RL_PCM_LONG ? sizeof(long)
                                   : type == RL_PCM_FLOAT ? sizeof(float) : sizeof(double));
    rl_pcm_typed_to_uv(&planar, 0, 700, m, uv);
    rl_pcm_typed_to_uv(&planar, 700, N - 700, m, uv + 2 * 700);
    rl_pcm_typed_to_uv(&inter, 0, N, m, uv2);
    for (i = 0; i < N; i++) {
        float const xl = at(l, i), xr = at(r, i);
        ok &= uv[2 * i] == ref_u(xl, xr, m) && uv[2 * i + 1] == ref_v(xl, xr, m);
    }
    ok &= memcmp(uv, uv2, sizeof uv) == 0;
    return ok;
}

static short  s16[2][N], s16i[2 * N];
static int    s32[2][N], s32i[2 * N];
static long   s64[2][N], s64i[2 * N];
static float  f32[2][N], f32i[2 * N];
static double f64[2][N], f64i[2 * N];

static float at_s16(const void *p, size_t i) { return (float) ((const short *) p)[i]; }
static float at_s32(const void *p, size_t i) { return (float) ((const int *) p)[i]; }
static float at_s64(const void *p, size_t i) { return (float) ((const long *) p)[i]; }
static float at_f32(const void *p, size_t i) { return ((const float *) p)[i]; }
static float at_f64(const void *p, size_t i) { return (float) ((const double *) p)[i]; }

int main(void)
{
    /* a scaled stereo-to-mono matrix, as lame_init_params makes one */
    RlConfig cfg;
    float m[4];
    size_t i;

    memset(&cfg, 0, sizeof cfg);
    cfg.pcm_transform[0][0] = cfg.pcm_transform[0][1] = 0.5f * 0.9f;
    cfg.pcm_transform[1][0] = 0.1f;
    cfg.pcm_transform[1][1] = 1.3f;
    for (i = 0; i < N; i++) {
        int c;
        for (c = 0; c < 2; c++) {
            double const x = sin((double) i * (0.01 + 0.03 * c)) * 0.9 + ((i * 7919u) % 97) * 1e-4;
            s16[c][i] = (short) lrint(x * 32767);
            s32[c][i] = (int) lrint(x * 2147483000.0);
            s64[c][i] = (long) s32[c][i] * 4294967296L + (long) (i * 12345u);
            f32[c][i] = (float) (x * 32768);
            f64[c][i] = x;
            s16i[2 * i + c] = s16[c][i];
            s32i[2 * i + c] = s32[c][i];
            s64i[2 * i + c] = s64[c][i];
            f32i[2 * i + c] = f32[c][i];
            f64i[2 * i + c] = f64[c][i];
        }
    }
    rl_pcm_matrix(&cfg, 1.0f, m);
    CHECK(check_type(RL_PCM_SHORT, s16[0], s16[1], s16i, m, at_s16), "short");
    CHECK(check_type(RL_PCM_FLOAT, f32[0], f32[1], f32i, m, at_f32), "float");
    CHECK(check_type(RL_PCM_LONG, s64[0], s64[1], s64i, m, at_s64), "long");
    rl_pcm_matrix(&cfg, (float) (1.0 / (1L << 16)), m);
    CHECK(check_type(RL_PCM_INT, s32[0], s32[1], s32i, m, at_s32), "int (2^-16)");
    rl_pcm_matrix(&cfg, (float) (1.0 / (1L << 48)), m);
    CHECK(check_type(RL_PCM_LONG, s64[0], s64[1], s64i, m, at_s64), "long2 (2^-48)");
    rl_pcm_matrix(&cfg, 32767.0f, m);
    CHECK(check_type(RL_PCM_DOUBLE, f64[0], f64[1], f64i, m, at_f64), "ieee double");
    CHECK(m[0] == 32767.0f * cfg.pcm_transform[0][0], "the norm scales the matrix in float");

    /* mono: the left buffer twice */
    {
        static float uv[2 * N];
        RlPcmTyped mono = { RL_PCM_SHORT, s16[0], s16[0], 1 };
        int ok = 1;
        rl_pcm_matrix(&cfg, 1.0f, m);
        rl_pcm_typed_to_uv(&mono, 0, N, m, uv);
        for (i = 0; i < N; i++)
            ok &= uv[2 * i] == ref_u(at_s16(s16[0], i), at_s16(s16[0], i), m);
        CHECK(ok, "mono reads the left buffer twice");
    }

    /* the int path as RL_SF_F32_UV blocks == the int32 path's floats */
    {
        RlEncoder *e = calloc(1, sizeof *e), *e2 = calloc(1, sizeof *e2);
        static float uv[2 * N];
        RlPcmTyped src = { RL_PCM_INT, s32i, s32i + 1, 2 };
        RlInBlock b;
        int ok;

        e->k.cfg = cfg;
        e->k.cfg.channels_in = e->k.cfg.channels_out = 2;
        e->k.cfg.mode_gr = 2;
        e->k.cfg.samplerate_in = e->k.cfg.samplerate_out = 44100;
        e->k.cfg.frame_size = 1152;
        e2->k.cfg = e->k.cfg;
        CHECK(rl_dispatch_init(&e->k, &e->dispatch) == 0, "init");
        CHECK(rl_dispatch_init(&e2->k, &e2->dispatch) == 0, "init");
        rl_pcm_matrix(&e->k.cfg, (float) (1.0 / (1L << 16)), m);
        rl_pcm_typed_to_uv(&src, 0, 1152, m, uv);
        memset(&b, 0, sizeof b);
        b.data = uv;
        b.nframes = 1152;
        b.fmt = RL_SF_F32_UV;
        b.channels = 2;
        b.frame_bytes = 2 * (int) sizeof(float);
        CHECK(rl_dispatch_feed_block(&e->k, &e->dispatch, &e->rg, &b, 0, 1152) == 0, "uv block");
        CHECK(rl_dispatch_feed(&e2->k, &e2->dispatch, &e2->rg, s32i, 1152) == 0, "int32 feed");
        ok = e->dispatch.in_len == 1152 && e2->dispatch.in_len == 1152
             && memcmp(e->dispatch.in_buf[0], e2->dispatch.in_buf[0], 1152 * sizeof(float)) == 0
             && memcmp(e->dispatch.in_buf[1], e2->dispatch.in_buf[1], 1152 * sizeof(float)) == 0;
        CHECK(ok, "RL_SF_F32_UV gives the int32 path's input floats");
        rl_dispatch_free(&e->dispatch);
        rl_dispatch_free(&e2->dispatch);
        free(e);
        free(e2);
    }
    return rl_test_done();
}
