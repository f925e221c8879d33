/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: ReplayGain analysis against known answers captured
 * from LAME 3.100's gain_analysis.c (same signals, same 1152/576/odd chunking). */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "harness.h"
#include "replaygain.h"

static uint32_t lcg;
static float rnd(void) { lcg = lcg * 1103515245u + 12345u; return (float)((lcg >> 8) & 0xffff) / 32768.0f - 1.0f; }

/* deterministic test signal without libm: noise bursts with a slow ramp */
static void make_signal(float *l, float *r, long n, int kind, uint32_t seed)
{
    lcg = seed;
    for (long i = 0; i < n; i++) {
        float env = (float)((i / 2205) % 7 + 1) / 7.0f;
        if (kind == 0) { l[i] = rnd() * 30000.0f * env; r[i] = rnd() * 9000.0f; }
        else if (kind == 1) { l[i] = rnd() * 200.0f; r[i] = l[i] * 0.25f + rnd() * 50.0f; }
        else { l[i] = 0; r[i] = 0; }
    }
}

static float run(long sr, int nch, int kind, int chunking, RlGainState *g)
{
    long n = sr * 2 + 777, pos = 0; int k = 0;
    float *l = malloc(n * sizeof *l), *r = malloc(n * sizeof *r);
    static const int odd[] = { 1, 5, 9, 10, 11, 333, 1152, 2205, 2300, 4 };
    make_signal(l, r, n, kind, (uint32_t)(sr + kind));
    if (rl_gain_init(g, sr) != 0) { free(l); free(r); return -1e9f; }
    while (pos < n) {
        long c = chunking == 0 ? 1152 : chunking == 1 ? 576 : odd[k++ % 10];
        if (c > n - pos) c = n - pos;
        if (rl_gain_analyze(g, l + pos, r + pos, (size_t)c, nch) != 0) { free(l); free(r); return -2e9f; }
        pos += c;
    }
    free(l); free(r);
    return rl_gain_title(g);
}

int main(void)
{
    static RlGainState g;
    /* {rate, channels, signal, chunking, expected title gain bits (from LAME)} */
    static const struct { long sr; int nch, kind, chunk; uint32_t bits; } kat[] = {
        { 48000, 1, 0, 0, 0xc1200000u }, /* -10 dB */
        { 48000, 2, 1, 1, 0x420cae14u }, /* 35.17 dB */
        { 48000, 1, 2, 2, 0x4281a3d7u }, /* 64.82 dB */
        { 44100, 2, 0, 1, 0xc102e148u }, /* -8.18 dB */
        { 44100, 1, 1, 2, 0x4201cccdu }, /* 32.45 dB */
        { 44100, 2, 2, 0, 0x4281a3d7u }, /* 64.82 dB */
        { 32000, 1, 0, 2, 0xc13d1eb8u }, /* -11.82 dB */
        { 32000, 2, 1, 0, 0x4206147bu }, /* 33.52 dB */
        { 24000, 2, 0, 0, 0xc12cccd0u }, /* -10.8 dB */
        { 24000, 1, 1, 1, 0x41ee8f5cu }, /* 29.82 dB */
        { 22050, 1, 0, 1, 0xc15d1eb8u }, /* -13.82 dB */
        { 22050, 2, 1, 2, 0x41fee148u }, /* 31.86 dB */
        { 16000, 2, 0, 2, 0xc146b850u }, /* -12.42 dB */
        { 16000, 1, 1, 0, 0x41e0a3d6u }, /* 28.08 dB */
        { 12000, 1, 0, 0, 0xc17f0a40u }, /* -15.94 dB */
        { 12000, 2, 1, 1, 0x41ecccccu }, /* 29.6 dB */
        { 11025, 2, 0, 1, 0xc155c290u }, /* -13.36 dB */
        { 11025, 1, 1, 2, 0x41d7851eu }, /* 26.94 dB */
        { 8000, 1, 0, 2, 0xc1815c28u }, /* -16.17 dB */
        { 8000, 2, 1, 0, 0x41eee148u }, /* 29.86 dB */
    };
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        float v = run(kat[i].sr, kat[i].nch, kat[i].kind, kat[i].chunk, &g);
        uint32_t b; memcpy(&b, &v, 4);
        CHECK(b == kat[i].bits, "case %zu (sr %ld ch %d sig %d chunk %d): gain %.9g bits %08x, want %08x",
              i, kat[i].sr, kat[i].nch, kat[i].kind, kat[i].chunk, v, (unsigned)b, (unsigned)kat[i].bits);
    }
    CHECK(rl_gain_init(&g, 96000) < 0, "96 kHz must be refused");
    rl_gain_init(&g, 44100);
    CHECK(rl_gain_title(&g) == RL_RG_NOT_ENOUGH, "no samples -> not enough");
    CHECK(rl_gain_radio_value(RL_RG_NOT_ENOUGH) == 0, "radio value for not enough");
    CHECK(rl_gain_radio_value(-8.9f) == -89, "radio -8.9");
    CHECK(rl_gain_radio_value(64.82f) == 648, "radio 64.82");
    CHECK(rl_gain_radio_value(-0.04f) == 0, "radio -0.04 rounds to 0");
    CHECK(rl_gain_radio_value(-0.05f) == -1, "radio -0.05f (float just below -0.05) rounds to -1");
    CHECK(rl_gain_tag_field(648, 1) == 0x2DFE, "tag clamps to +510");
    CHECK(rl_gain_tag_field(-89, 1) == 0x2E59, "tag -8.9 dB");
    CHECK(rl_gain_tag_field(-89, 0) == 0, "tag without RG");
    return rl_test_done();
}
