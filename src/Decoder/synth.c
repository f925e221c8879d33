/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase synthesis filter bank: a 32-point DCT of each
 * row of subband samples into a 16-slot ring, then the 512-tap window into
 * 32 float sums (mpglib's unclipped samples; the 16-bit API rounds and
 * clips them with rl_mpa_to_pcm).
 * Algorithm derived from LAME 3.100's mpglib (dct64_i386.c, decode_i386.c;
 * LGPL-2.0-or-later), with its float operations in its order. */
#include "mpa_internal.h"

/* the DCT's four butterfly stages on 32 values (s -> b1 -> b2 -> b1 -> b2) */
static void dct64_stages(const MpaTables *t, const real_t *s, real_t *b1, real_t *b2)
{
    for (int k = 0; k < 16; k++) {
        b1[k] = s[k] + s[31 - k];
        b1[31 - k] = (s[k] - s[31 - k]) * t->cos64[k];
    }
    for (int k = 0; k < 8; k++) {
        b2[k] = b1[k] + b1[15 - k];
        b2[15 - k] = (b1[k] - b1[15 - k]) * t->cos32[k];
        b2[16 + k] = b1[16 + k] + b1[31 - k];
        b2[31 - k] = (b1[31 - k] - b1[16 + k]) * t->cos32[k];
    }
    /* groups of 8 (then 4): the difference's sign alternates by group */
    for (int base = 0; base < 32; base += 8) {
        int const flip = (base >> 3) & 1;
        for (int k = 0; k < 4; k++) {
            real_t const lo = b2[base + k], hi = b2[base + 7 - k];
            b1[base + k] = lo + hi;
            b1[base + 7 - k] = (flip ? hi - lo : lo - hi) * t->cos16[k];
        }
    }
    for (int base = 0; base < 32; base += 4) {
        int const flip = (base >> 2) & 1;
        for (int k = 0; k < 2; k++) {
            real_t const lo = b1[base + k], hi = b1[base + 3 - k];
            b2[base + k] = lo + hi;
            b2[base + 3 - k] = (flip ? hi - lo : lo - hi) * t->cos8[k];
        }
    }
}

/* the last stage on one group of 8 */
static void dct64_last(real_t *b1, const real_t *b2, real_t c)
{
    b1[0] = b2[0] + b2[1];
    b1[1] = (b2[0] - b2[1]) * c;
    b1[2] = b2[2] + b2[3];
    b1[3] = (b2[3] - b2[2]) * c;
    b1[2] += b1[3];
    b1[4] = b2[4] + b2[5];
    b1[5] = (b2[4] - b2[5]) * c;
    b1[6] = b2[6] + b2[7];
    b1[7] = (b2[7] - b2[6]) * c;
    b1[6] += b1[7];
    b1[4] += b1[6];
    b1[6] += b1[5];
    b1[5] += b1[7];
}

/* 32 subband samples into the ring slots out0[16 * k] and out1[16 * k] */
static void dct64(const MpaTables *t, real_t *out0, real_t *out1, const real_t *samples)
{
    real_t b1[32], b2[32];

    dct64_stages(t, samples, b1, b2);
    for (int base = 0; base < 32; base += 8)
        dct64_last(b1 + base, b2 + base, t->cos4[0]);

    out0[0x10 * 16] = b1[0x00];
    out0[0x10 * 12] = b1[0x04];
    out0[0x10 * 8] = b1[0x02];
    out0[0x10 * 4] = b1[0x06];
    out0[0x10 * 0] = b1[0x01];
    out1[0x10 * 0] = b1[0x01];
    out1[0x10 * 4] = b1[0x05];
    out1[0x10 * 8] = b1[0x03];
    out1[0x10 * 12] = b1[0x07];

    b1[0x08] += b1[0x0C];
    out0[0x10 * 14] = b1[0x08];
    b1[0x0C] += b1[0x0A];
    out0[0x10 * 10] = b1[0x0C];
    b1[0x0A] += b1[0x0E];
    out0[0x10 * 6] = b1[0x0A];
    b1[0x0E] += b1[0x09];
    out0[0x10 * 2] = b1[0x0E];
    b1[0x09] += b1[0x0D];
    out1[0x10 * 2] = b1[0x09];
    b1[0x0D] += b1[0x0B];
    out1[0x10 * 6] = b1[0x0D];
    b1[0x0B] += b1[0x0F];
    out1[0x10 * 10] = b1[0x0B];
    out1[0x10 * 14] = b1[0x0F];

    b1[0x18] += b1[0x1C];
    out0[0x10 * 15] = b1[0x10] + b1[0x18];
    out0[0x10 * 13] = b1[0x18] + b1[0x14];
    b1[0x1C] += b1[0x1A];
    out0[0x10 * 11] = b1[0x14] + b1[0x1C];
    out0[0x10 * 9] = b1[0x1C] + b1[0x12];
    b1[0x1A] += b1[0x1E];
    out0[0x10 * 7] = b1[0x12] + b1[0x1A];
    out0[0x10 * 5] = b1[0x1A] + b1[0x16];
    b1[0x1E] += b1[0x19];
    out0[0x10 * 3] = b1[0x16] + b1[0x1E];
    out0[0x10 * 1] = b1[0x1E] + b1[0x11];
    b1[0x19] += b1[0x1D];
    out1[0x10 * 1] = b1[0x11] + b1[0x19];
    out1[0x10 * 3] = b1[0x19] + b1[0x15];
    b1[0x1D] += b1[0x1B];
    out1[0x10 * 5] = b1[0x15] + b1[0x1D];
    out1[0x10 * 7] = b1[0x1D] + b1[0x13];
    b1[0x1B] += b1[0x1F];
    out1[0x10 * 9] = b1[0x13] + b1[0x1B];
    out1[0x10 * 11] = b1[0x1B] + b1[0x17];
    out1[0x10 * 13] = b1[0x17] + b1[0x1F];
    out1[0x10 * 15] = b1[0x1F];
}

/* the window's three sums over 16 taps, in mpglib's order (written out:
 * a loop with a sign test per tap is not unrolled by the compiler) */
static inline real_t sum_alternating(const real_t *w, const real_t *b)
{
    real_t sum = w[0x0] * b[0x0];
    sum -= w[0x1] * b[0x1];
    sum += w[0x2] * b[0x2];
    sum -= w[0x3] * b[0x3];
    sum += w[0x4] * b[0x4];
    sum -= w[0x5] * b[0x5];
    sum += w[0x6] * b[0x6];
    sum -= w[0x7] * b[0x7];
    sum += w[0x8] * b[0x8];
    sum -= w[0x9] * b[0x9];
    sum += w[0xA] * b[0xA];
    sum -= w[0xB] * b[0xB];
    sum += w[0xC] * b[0xC];
    sum -= w[0xD] * b[0xD];
    sum += w[0xE] * b[0xE];
    sum -= w[0xF] * b[0xF];
    return sum;
}

static inline real_t sum_even(const real_t *w, const real_t *b)
{
    real_t sum = w[0x0] * b[0x0];
    sum += w[0x2] * b[0x2];
    sum += w[0x4] * b[0x4];
    sum += w[0x6] * b[0x6];
    sum += w[0x8] * b[0x8];
    sum += w[0xA] * b[0xA];
    sum += w[0xC] * b[0xC];
    sum += w[0xE] * b[0xE];
    return sum;
}

/* the mirrored half: the window read backwards from w[-1] */
static inline real_t sum_negated(const real_t *w, const real_t *b)
{
    real_t sum = -w[-0x1] * b[0x0];
    sum -= w[-0x2] * b[0x1];
    sum -= w[-0x3] * b[0x2];
    sum -= w[-0x4] * b[0x3];
    sum -= w[-0x5] * b[0x4];
    sum -= w[-0x6] * b[0x5];
    sum -= w[-0x7] * b[0x6];
    sum -= w[-0x8] * b[0x7];
    sum -= w[-0x9] * b[0x8];
    sum -= w[-0xA] * b[0x9];
    sum -= w[-0xB] * b[0xA];
    sum -= w[-0xC] * b[0xB];
    sum -= w[-0xD] * b[0xC];
    sum -= w[-0xE] * b[0xD];
    sum -= w[-0xF] * b[0xE];
    sum -= w[-0x0] * b[0xF];
    return sum;
}

/* rounded to nearest (halves away from zero, in double), clipped */
int16_t rl_mpa_to_pcm(real_t sum)
{
    if (sum > 32767.0)
        return 0x7fff;
    if (sum < -32768.0)
        return -0x8000;
    return (int16_t) (sum > 0 ? sum + 0.5 : sum - 0.5);
}

void rl_mpa_synth(RlMpaDecoder *d, const real_t *bands, int ch, real_t *out)
{
    MpaTables const *t = &d->t;
    real_t (*buf)[0x110] = d->synth_buffs[ch];
    int bo = d->synth_bo, bo1;
    const real_t *b0, *window;

    if (!ch) {
        bo--;
        bo &= 0xf;
    }
    else
        out++;
    if (bo & 0x1) {
        b0 = buf[0];
        bo1 = bo;
        dct64(t, buf[1] + ((bo + 1) & 0xf), buf[0] + bo, bands);
    }
    else {
        b0 = buf[1];
        bo1 = bo + 1;
        dct64(t, buf[0] + bo, buf[1] + bo + 1, bands);
    }
    d->synth_bo = bo;

    window = t->decwin + 16 - bo1;
    for (int j = 16; j; j--, b0 += 0x10, window += 0x20, out += 2)
        *out = sum_alternating(window, b0);
    *out = sum_even(window, b0);
    b0 -= 0x10;
    window -= 0x20;
    out += 2;
    window += bo1 << 1;
    for (int j = 15; j; j--, b0 -= 0x10, window -= 0x20, out += 2)
        *out = sum_negated(window, b0);
}

real_t *rl_mpa_synth_row(RlMpaDecoder *d, const real_t *left, const real_t *right, real_t *out)
{
    if (d->fr.stereo == 1) {
        rl_mpa_synth_mono(d, left, out);
        return out + 32;
    }
    rl_mpa_synth(d, left, 0, out);
    rl_mpa_synth(d, right, 1, out);
    return out + 64;
}

void rl_mpa_synth_mono(RlMpaDecoder *d, const real_t *bands, real_t *out)
{
    real_t tmp[64];
    rl_mpa_synth(d, bands, 0, tmp);
    for (int i = 0; i < 32; i++)
        out[i] = tmp[2 * i];
}
