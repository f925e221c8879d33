/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the decoder's computed tables (dequantisation powers, IMDCT
 * windows, stereo factors, band walks, synthesis window and DCT factors).
 * Algorithm derived from LAME 3.100's mpglib (LGPL-2.0-or-later): each value
 * is computed in double and stored in float as mpglib does. */
#include <math.h>
#include "mpa_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif

extern const double rl_mpa_dewin[257];

static void init_powers(MpaTables *t)
{
    for (int i = -256; i < 118 + 4; i++)
        t->gainpow2[i + 256] = (real_t) pow(2.0, -0.25 * (double) (i + 210));
    for (int i = 0; i < 8207; i++)
        t->ispow[i] = (real_t) pow((double) i, 4.0 / 3.0);
}

static void init_antialias(MpaTables *t)
{
    static const double ci[8] = { -0.6, -0.535, -0.33, -0.185, -0.095, -0.041, -0.0142, -0.0037 };
    for (int i = 0; i < 8; i++) {
        double const sq = sqrt(1.0 + ci[i] * ci[i]);
        t->aa_cs[i] = (real_t) (1.0 / sq);
        t->aa_ca[i] = (real_t) (ci[i] / sq);
    }
}

/* 0.5 sin(pi/n (2a+1)) / cos(pi (2b+19)/72): the long-window shapes */
static double long_win(double n, int a, int b)
{
    return 0.5 * sin(M_PI / n * (double) (2 * a + 1)) / cos(M_PI * (double) (2 * b + 19) / 72.0);
}

static void init_windows(MpaTables *t)
{
    for (int i = 0; i < 18; i++) {
        t->win[0][i] = t->win[1][i] = (real_t) long_win(72.0, i, i);
        t->win[0][i + 18] = t->win[3][i + 18] = (real_t) long_win(72.0, i + 18, i + 18);
    }
    for (int i = 0; i < 6; i++) {
        t->win[1][i + 18] = (real_t) (0.5 / cos(M_PI * (double) (2 * (i + 18) + 19) / 72.0));
        t->win[3][i + 12] = (real_t) (0.5 / cos(M_PI * (double) (2 * (i + 12) + 19) / 72.0));
        t->win[1][i + 24] = (real_t) long_win(24.0, i + 6, i + 24);
        t->win[1][i + 30] = t->win[3][i] = 0.0f;
        t->win[3][i + 6] = (real_t) long_win(24.0, i, i + 6);
    }
    for (int i = 0; i < 9; i++)
        t->cos9[i] = (real_t) cos(M_PI / 18.0 * (double) i);
    for (int i = 0; i < 9; i++)
        t->tfcos36[i] = (real_t) (0.5 / cos(M_PI * (double) (i * 2 + 1) / 36.0));
    for (int i = 0; i < 3; i++)
        t->tfcos12[i] = (real_t) (0.5 / cos(M_PI * (double) (i * 2 + 1) / 12.0));
    t->cos6_1 = (real_t) cos(M_PI / 6.0 * (double) 1);
    t->cos6_2 = (real_t) cos(M_PI / 6.0 * (double) 2);
    for (int i = 0; i < 12; i++)
        t->win[2][i] = (real_t) (0.5 * sin(M_PI / 24.0 * (double) (2 * i + 1))
                                 / cos(M_PI * (double) (2 * i + 7) / 24.0));
    /* odd subbands use the window with every other sign flipped */
    for (int j = 0; j < 4; j++) {
        int const len = j == 2 ? 12 : 36;
        for (int i = 0; i < len; i++)
            t->win1[j][i] = (i & 1) ? -t->win[j][i] : t->win[j][i];
    }
}

static void init_stereo(MpaTables *t)
{
    for (int i = 0; i < 16; i++) {
        double const tn = tan((double) i * M_PI / 12.0);
        t->tan1_1[i] = (real_t) (tn / (1.0 + tn));
        t->tan2_1[i] = (real_t) (1.0 / (1.0 + tn));
        t->tan1_2[i] = (real_t) (M_SQRT2 * tn / (1.0 + tn));
        t->tan2_2[i] = (real_t) (M_SQRT2 / (1.0 + tn));
        for (int j = 0; j < 2; j++) {
            double const base = pow(2.0, -0.25 * (j + 1.0));
            double p1 = 1.0, p2 = 1.0;
            if (i > 0) {
                if (i & 1)
                    p1 = pow(base, (i + 1.0) * 0.5);
                else
                    p2 = pow(base, i * 0.5);
            }
            t->pow1_1[j][i] = (real_t) p1;
            t->pow2_1[j][i] = (real_t) p2;
            t->pow1_2[j][i] = (real_t) (M_SQRT2 * p1);
            t->pow2_2[j][i] = (real_t) (M_SQRT2 * p2);
        }
    }
}

/* the walks over the bands the dequantiser follows: entries of (half
 * width, start, window (3 = long), band) for short and mixed blocks, of
 * (half width, band) for long blocks */
static void init_band_walks(MpaTables *t)
{
    for (int j = 0; j < 9; j++) {
        L3Bands const *bi = &rl_l3_bands[j];
        int const switch_idx = j < 3 ? 8 : 6;
        int *mp = t->map0[j], i = 0, cb;

        for (cb = 0; cb < switch_idx; i += bi->long_diff[cb], cb++) {
            *mp++ = bi->long_diff[cb] >> 1;
            *mp++ = i;
            *mp++ = 3;
            *mp++ = cb;
        }
        for (cb = 3; cb < 13; cb++) {
            int const l = bi->short_diff[cb] >> 1;
            for (int lwin = 0; lwin < 3; lwin++) {
                *mp++ = l;
                *mp++ = i + lwin;
                *mp++ = lwin;
                *mp++ = cb;
            }
            i += 6 * l;
        }
        t->map_len[j][0] = (int) (mp - t->map0[j]);

        mp = t->map1[j];
        for (i = 0, cb = 0; cb < 13; cb++) {
            int const l = bi->short_diff[cb] >> 1;
            for (int lwin = 0; lwin < 3; lwin++) {
                *mp++ = l;
                *mp++ = i + lwin;
                *mp++ = lwin;
                *mp++ = cb;
            }
            i += 6 * l;
        }
        t->map_len[j][1] = (int) (mp - t->map1[j]);

        mp = t->map2[j];
        for (cb = 0; cb < 22; cb++) {
            *mp++ = bi->long_diff[cb] >> 1;
            *mp++ = cb;
        }
        t->map_len[j][2] = (int) (mp - t->map2[j]);
    }
    for (int j = 0; j < 9; j++) {
        for (int i = 0; i < 23; i++) {
            int const v = (rl_l3_bands[j].long_idx[i] - 1 + 8) / 18 + 1;
            t->long_limit[j][i] = v > SBLIMIT ? SBLIMIT : v;
        }
        for (int i = 0; i < 14; i++) {
            int const v = (rl_l3_bands[j].short_idx[i] - 1) / 18 + 1;
            t->short_limit[j][i] = v > SBLIMIT ? SBLIMIT : v;
        }
    }
}

/* MPEG-2 scale-factor lengths: slen fields (3 bits each), the partition
 * table (bits 12..14) and the preflag (bit 15) per scalefac_compress */
static void init_slen2(MpaTables *t)
{
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 6; k++)
                t->i_slen2[k + j * 6 + i * 36] = (unsigned) (i | (j << 3) | (k << 6) | (3 << 12));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++)
                t->i_slen2[k + j * 4 + i * 16 + 180] = (unsigned) (i | (j << 3) | (k << 6) | (4 << 12));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) {
            int const n = j + i * 3;
            t->i_slen2[n + 244] = (unsigned) (i | (j << 3) | (5 << 12));
            t->n_slen2[n + 500] = (unsigned) (i | (j << 3) | (2 << 12) | (1 << 15));
        }
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 4; l++)
                    t->n_slen2[l + k * 4 + j * 16 + i * 80] =
                        (unsigned) (i | (j << 3) | (k << 6) | (l << 9));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 4; k++)
                t->n_slen2[k + j * 4 + i * 20 + 400] = (unsigned) (i | (j << 3) | (k << 6) | (1 << 12));
}

/* the polyphase synthesis: DCT factors and the window D[] scaled to 16 bits,
 * laid out in mpglib's interleaved order with alternating signs */
static void init_synthesis(MpaTables *t)
{
    real_t *const costabs[5] = { t->cos64, t->cos32, t->cos16, t->cos8, t->cos4 };
    long scaleval = -32767;
    int i, j, pos = 0;

    for (i = 0; i < 5; i++) {
        int const kr = 0x10 >> i, divv = 0x40 >> i;
        for (int k = 0; k < kr; k++)
            costabs[i][k] = (real_t) (1.0 / (2.0 * cos(M_PI * ((double) k * 2.0 + 1.0) / (double) divv)));
    }
    for (i = 0, j = 0; i < 512; i++, pos += 32) {
        if (pos < 512 + 16)
            t->decwin[pos + 16] = t->decwin[pos] = (real_t) (rl_mpa_dewin[j] * scaleval);
        if (i % 32 == 31)
            pos -= 1023;
        if (i % 64 == 63)
            scaleval = -scaleval;
        j += i < 256 ? 1 : -1;
    }
}

/* Layers I and II: muls[k][i] = m_k * 2^((3 - i) / 3), and the triples of
 * grouped samples in the order the bitstream packs them */
static void init_layer12(MpaTables *t)
{
    static const double mulmul[27] = {
        0.0, -2.0 / 3.0, 2.0 / 3.0,
        2.0 / 7.0, 2.0 / 15.0, 2.0 / 31.0, 2.0 / 63.0, 2.0 / 127.0, 2.0 / 255.0,
        2.0 / 511.0, 2.0 / 1023.0, 2.0 / 2047.0, 2.0 / 4095.0, 2.0 / 8191.0,
        2.0 / 16383.0, 2.0 / 32767.0, 2.0 / 65535.0,
        -4.0 / 5.0, -2.0 / 5.0, 2.0 / 5.0, 4.0 / 5.0,
        -8.0 / 9.0, -4.0 / 9.0, -2.0 / 9.0, 2.0 / 9.0, 4.0 / 9.0, 8.0 / 9.0
    };
    /* the muls class of each step of a 3, 5 and 9-step quantiser */
    static const unsigned char base[3][9] = {
        { 1, 0, 2 }, { 17, 18, 0, 19, 20 }, { 21, 1, 22, 23, 0, 24, 25, 2, 26 } };
    static const int steps[3] = { 3, 5, 9 };
    uint8_t *const grp[3] = { t->grp3, t->grp5, t->grp9 };

    for (int i = 0; i < 3; i++) {
        uint8_t *p = grp[i];
        int const n = steps[i];
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                for (int l = 0; l < n; l++) {
                    *p++ = base[i][l];
                    *p++ = base[i][k];
                    *p++ = base[i][j];
                }
    }
    for (int k = 0; k < 27; k++) {
        for (int i = 0, j = 3; i < 63; i++, j--)
            t->muls[k][i] = (real_t) (mulmul[k] * pow(2.0, (double) j / 3.0));
        t->muls[k][63] = 0.0f;
    }
}

void rl_mpa_tables_init(MpaTables *t)
{
    init_layer12(t);
    init_powers(t);
    init_antialias(t);
    init_windows(t);
    init_stereo(t);
    init_band_walks(t);
    init_slen2(t);
    init_synthesis(t);
}
