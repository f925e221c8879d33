/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: polyphase filterbank (continuity across frames, frame-0
 * priming over zeros, band order) and the MDCT against a double-precision
 * textbook MDCT + alias reduction (one fitted scale per block type). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "dsp.h"
#include "mdct.h"
#include "rl_frame.h"

/* Window-subband output order of band b (as in mdct.c). */
static const int band_pos[32] = {
    0, 1, 16, 17, 8, 9, 24, 25, 4, 5, 20, 21, 12, 13, 28, 29,
    2, 3, 18, 19, 10, 11, 26, 27, 6, 7, 22, 23, 14, 15, 30, 31
};

static float signal_at(long i)
{
    /* deterministic test signal at 16-bit scale, zero before sample 0 */
    if (i < 0)
        return 0.0f;
    return (float)(12000.0 * sin(0.031 * (double)i) + 7000.0 * sin(0.7 * (double)i + 0.3 * sin(0.001 * (double)i)));
}

static void fill_frame(RlFrame *f, long t, int fs)
{
    int ch, i;
    for (ch = 0; ch < 2; ch++)
        for (i = 0; i < RL_FRAME_SPAN; i++)
            f->in[ch][i] = signal_at(fs * t - RL_FRAME_PRE + i + 3 * ch);
}

static void test_continuity(int mode_gr)
{
    static RlFrame a, b;
    RlConfig cfg;
    int fs = 576 * mode_gr, i;
    long t;
    char msg[128];

    memset(&cfg, 0, sizeof cfg);
    cfg.dsp = rl_dsp_table_at(RL_SIMD_SCALAR);     /* the kernels (a bare config has none) */
    cfg.channels_out = 2;
    cfg.mode_gr = mode_gr;
    for (i = 0; i < 32; i++)
        cfg.amp_filter[i] = i < 24 ? 1.0f : i < 28 ? 0.25f : 0.0f;

    /* frame -1 lies wholly in the zero-extended past except its last
     * granule: its last polyphase slot must be frame 0's slot 0, which is
     * what LAME's priming leaves in sb_sample */
    for (t = -1; t < 4; t++) {
        int ok = 1, ch;
        fill_frame(&a, t, fs);
        fill_frame(&b, t + 1, fs);
        rl_polyphase(&cfg, a.in[0], a.in[1], &a.poly);
        rl_polyphase(&cfg, b.in[0], b.in[1], &b.poly);
        for (ch = 0; ch < 2; ch++)
            ok &= memcmp(a.poly.sb[ch][mode_gr], b.poly.sb[ch][0], sizeof a.poly.sb[ch][0]) == 0;
        snprintf(msg, sizeof msg, "mode_gr %d: last slot of frame %ld == slot 0 of frame %ld", mode_gr, t, t + 1);
        CHECK(ok, "%s", msg);
    }
    /* a frame of zeros gives zeros */
    memset(a.in, 0, sizeof a.in);
    rl_polyphase(&cfg, a.in[0], a.in[1], &a.poly);
    {
        int ok = 1, s, k, bnd;
        for (s = 0; s <= mode_gr; s++)
            for (k = 0; k < 18; k++)
                for (bnd = 0; bnd < 32; bnd++)
                    ok &= a.poly.sb[0][s][k][bnd] == 0.0f;
        CHECK(ok, "zero input gives zero polyphase output");
    }
}

/* A cosine at the centre of subband b puts most energy into band b. */
static void test_band_order(void)
{
    static RlFrame f;
    RlConfig cfg;
    int b, i;
    memset(&cfg, 0, sizeof cfg);
    cfg.dsp = rl_dsp_table_at(RL_SIMD_SCALAR);     /* the kernels (a bare config has none) */
    cfg.channels_out = 1;
    cfg.mode_gr = 2;
    for (i = 0; i < 32; i++)
        cfg.amp_filter[i] = 1.0f;
    for (b = 0; b < 32; b++) {
        double e[32] = { 0 };
        int best = 0, k, bb;
        char msg[96];
        for (i = 0; i < RL_FRAME_SPAN; i++)
            f.in[0][i] = (float)(10000.0 * cos(M_PI * (b + 0.5) / 32.0 * i));
        rl_polyphase(&cfg, f.in[0], f.in[1], &f.poly);
        for (bb = 0; bb < 32; bb++)
            for (k = 0; k < 18; k++) {
                double v = f.poly.sb[0][1][k][band_pos[bb]];
                e[bb] += v * v;
            }
        for (bb = 1; bb < 32; bb++)
            if (e[bb] > e[best])
                best = bb;
        snprintf(msg, sizeof msg, "cosine at subband %d centre peaks in band %d", b, best);
        CHECK(best == b, "%s", msg);
    }
}

static double long_window(int type, int n)
{
    if (type == RL_NORM_TYPE)
        return sin(M_PI / 36 * (n + 0.5));
    if (type == RL_START_TYPE)
        return n < 18 ? sin(M_PI / 36 * (n + 0.5)) : n < 24 ? 1.0 : n < 30 ? sin(M_PI / 12 * (n - 18 + 0.5)) : 0.0;
    return n < 6 ? 0.0 : n < 12 ? sin(M_PI / 12 * (n - 6 + 0.5)) : n < 18 ? 1.0 : sin(M_PI / 36 * (n + 0.5));
}

/* Reference: 36-point MDCT (or 3 x 12-point for short blocks) of the 18
 * previous + 18 current subband samples, then the encoder's alias-reduction
 * butterflies (ISO 11172-3 ci), all in double. */
static void reference_mdct(const double sb[2][18][32], int type, const float *amp, double ref[32][18])
{
    static const double ci[8] = { -0.6, -0.535, -0.33, -0.185, -0.095, -0.041, -0.0142, -0.0037 };
    int b, k, n, w, i;
    for (b = 0; b < 32; b++) {
        double z[36];
        for (n = 0; n < 36; n++)
            z[n] = (n < 18 ? sb[0][n][b] : sb[1][n - 18][b]) * amp[b];
        if (type != RL_SHORT_TYPE) {
            for (k = 0; k < 18; k++) {
                double acc = 0;
                for (n = 0; n < 36; n++)
                    acc += z[n] * long_window(type, n) * cos(M_PI / 72 * (2 * n + 1 + 18) * (2 * k + 1));
                ref[b][k] = acc;
            }
        }
        else {
            for (w = 0; w < 3; w++)
                for (k = 0; k < 6; k++) {
                    double acc = 0;
                    for (n = 0; n < 12; n++)
                        acc += z[6 + 6 * w + n] * sin(M_PI / 12 * (n + 0.5)) * cos(M_PI / 24 * (2 * n + 1 + 6) * (2 * k + 1));
                    ref[b][3 * k + w] = acc;
                }
        }
    }
    if (type != RL_SHORT_TYPE)
        for (b = 1; b < 32; b++)
            for (i = 0; i < 8; i++) {
                double cs = 1.0 / sqrt(1.0 + ci[i] * ci[i]), ca = ci[i] * cs;
                double lo = ref[b - 1][17 - i], up = ref[b][i];
                ref[b - 1][17 - i] = lo * cs + up * ca;
                ref[b][i] = up * cs - lo * ca;
            }
}

static void test_mdct(void)
{
    static RlPolyphase p;
    static double sb[2][18][32];
    RlConfig cfg;
    unsigned rs = 12345u;
    int s, k, b, type;

    memset(&cfg, 0, sizeof cfg);
    cfg.dsp = rl_dsp_table_at(RL_SIMD_SCALAR);     /* the kernels (a bare config has none) */
    cfg.channels_out = 1;
    cfg.mode_gr = 2;
    for (b = 0; b < 32; b++)
        cfg.amp_filter[b] = b == 30 ? 0.5f : b == 31 ? 0.0f : 1.0f;
    for (s = 0; s < 2; s++)
        for (k = 0; k < 18; k++)
            for (b = 0; b < 32; b++) {
                double v;
                rs = rs * 1103515245u + 12345u;
                v = (double)((int)((rs >> 16) & 0xffff) - 32768);
                sb[s][k][b] = v;
                /* Prepare stores amp-scaled values (0.5 is exact in float) */
                p.sb[0][s][k][band_pos[b]] = (float)v * (b == 30 ? 0.5f : 1.0f);
            }

    for (type = 0; type < 4; type++) {
        float xr[576];
        double ref[32][18], scale, maxref = 0, maxerr = 0;
        int imax = 0, zero_ok = 1;
        char msg[128];
        float amp_ref[32];
        for (b = 0; b < 32; b++)
            amp_ref[b] = cfg.amp_filter[b];
        rl_mdct_granule(&cfg, &p, 0, 0, type, 0, xr);
        reference_mdct((const double (*)[18][32])sb, type, amp_ref, ref);
        for (k = 0; k < 576; k++)
            if (fabs(ref[k / 18][k % 18]) > maxref) {
                maxref = fabs(ref[k / 18][k % 18]);
                imax = k;
            }
        scale = xr[imax] / ref[imax / 18][imax % 18];
        for (k = 0; k < 576; k++) {
            double err = fabs(xr[k] - scale * ref[k / 18][k % 18]);
            if (err > maxerr)
                maxerr = err;
        }
        /* alias reduction mixes band 30 into the first 8 lines of band 31 */
        for (k = 31 * 18 + (type == RL_SHORT_TYPE ? 0 : 8); k < 576; k++)
            zero_ok &= xr[k] == 0.0f;
        snprintf(msg, sizeof msg, "block type %d: MDCT matches double reference (rel err %.2e)", type,
                 maxerr / (fabs(scale) * maxref));
        CHECK(maxerr <= 2e-5 * fabs(scale) * maxref && scale > 0, "%s", msg);
        snprintf(msg, sizeof msg, "block type %d: band with amp_filter 0 is zero", type);
        CHECK(zero_ok, "%s", msg);
    }
}

int main(void)
{
    test_continuity(2);
    test_continuity(1);
    test_band_order();
    test_mdct();
    return rl_test_done();
}
