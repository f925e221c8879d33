/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the analysis window of the polyphase filterbank and the part of
 * one time slot that follows its 15 rows (the centre taps and the butterfly
 * network), shared by the scalar slot (polyphase.c) and the SIMD kernels,
 * which compute the 15 rows several at once.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_POLYPHASE_WINDOW_H
#define RL_POLYPHASE_WINDOW_H

#include <math.h>
#include <stddef.h>

#include "mdct.h"

/* 15 rows of 18 (16 taps, the s factor, the d factor), then the centre
 * taps read by rl_window_tail. */
#define RL_ENWINDOW_ROWS 15
#define RL_ENWINDOW_ROW  18
extern const float rl_enwindow[];

/* The 18 time slots of one granule starting at x (reads x[-286 .. 18*32-32+224]),
 * the odd slots' odd bands negated; output rows in rl_band_pos order. */
void rl_window_granule(const float *x, float sb[18][RL_SBLIMIT]);

/* The rest of a slot once the rows have written out[0..29] (row r, -15 <= r
 * < 0: out[30 + 2r] = t + s, out[31 + 2r] = d factor * (t - s)).
 * xa = x - 15 and w = rl_enwindow + 10 + 15 * 18: the scalar row loop's
 * pointers after its last row.  Products with M_SQRT2 are double on
 * purpose: LAME's SQRT2 is a double. */
static inline void rl_window_tail(const float *xa, const float *w, float out[RL_SBLIMIT])
{
    {
        float s, t, u, v;
        t = xa[-16] * w[-10];
        s = xa[-32] * w[-2];
        t += (xa[-48] - xa[16]) * w[-9];
        s += xa[-96] * w[-1];
        t += (xa[-80] + xa[48]) * w[-8];
        s += xa[-160] * w[0];
        t += (xa[-112] - xa[80]) * w[-7];
        s += xa[-224] * w[1];
        t += (xa[-144] + xa[112]) * w[-6];
        s -= xa[32] * w[2];
        t += (xa[-176] - xa[144]) * w[-5];
        s -= xa[96] * w[3];
        t += (xa[-208] + xa[176]) * w[-4];
        s -= xa[160] * w[4];
        t += (xa[-240] - xa[208]) * w[-3];
        s -= xa[224];

        u = s - t;
        v = s + t;

        t = out[14];
        s = out[15] - t;

        out[31] = v + t;
        out[30] = u + s;
        out[15] = u - s;
        out[14] = v - t;
    }
    {
        float *a = out;
        float r;
        /* w now points past the last row; w[-2k*18 + 7] are the row factors. */
        r = a[28] - a[0];  a[0] += a[28];  a[28] = r * w[-2 * 18 + 7];
        r = a[29] - a[1];  a[1] += a[29];  a[29] = r * w[-2 * 18 + 7];

        r = a[26] - a[2];  a[2] += a[26];  a[26] = r * w[-4 * 18 + 7];
        r = a[27] - a[3];  a[3] += a[27];  a[27] = r * w[-4 * 18 + 7];

        r = a[24] - a[4];  a[4] += a[24];  a[24] = r * w[-6 * 18 + 7];
        r = a[25] - a[5];  a[5] += a[25];  a[25] = r * w[-6 * 18 + 7];

        r = a[22] - a[6];  a[6] += a[22];  a[22] = r * M_SQRT2;
        r = a[23] - a[7];  a[7] += a[23];  a[23] = r * M_SQRT2 - a[7];
        a[7] -= a[6];
        a[22] -= a[7];
        a[23] -= a[22];

        r = a[6];  a[6] = a[31] - r;  a[31] = a[31] + r;
        r = a[7];  a[7] = a[30] - r;  a[30] = a[30] + r;
        r = a[22]; a[22] = a[15] - r; a[15] = a[15] + r;
        r = a[23]; a[23] = a[14] - r; a[14] = a[14] + r;

        r = a[20] - a[8];  a[8] += a[20];  a[20] = r * w[-10 * 18 + 7];
        r = a[21] - a[9];  a[9] += a[21];  a[21] = r * w[-10 * 18 + 7];

        r = a[18] - a[10]; a[10] += a[18]; a[18] = r * w[-12 * 18 + 7];
        r = a[19] - a[11]; a[11] += a[19]; a[19] = r * w[-12 * 18 + 7];

        r = a[16] - a[12]; a[12] += a[16]; a[16] = r * w[-14 * 18 + 7];
        r = a[17] - a[13]; a[13] += a[17]; a[17] = r * w[-14 * 18 + 7];

        r = -a[20] + a[24]; a[20] += a[24]; a[24] = r * w[-12 * 18 + 7];
        r = -a[21] + a[25]; a[21] += a[25]; a[25] = r * w[-12 * 18 + 7];

        r = a[4] - a[8];   a[4] += a[8];   a[8] = r * w[-12 * 18 + 7];
        r = a[5] - a[9];   a[5] += a[9];   a[9] = r * w[-12 * 18 + 7];

        r = a[0] - a[12];  a[0] += a[12];  a[12] = r * w[-4 * 18 + 7];
        r = a[1] - a[13];  a[1] += a[13];  a[13] = r * w[-4 * 18 + 7];
        r = a[16] - a[28]; a[16] += a[28]; a[28] = r * w[-4 * 18 + 7];
        r = -a[17] + a[29]; a[17] += a[29]; a[29] = r * w[-4 * 18 + 7];

        r = M_SQRT2 * (a[2] - a[10]);   a[2] += a[10];  a[10] = r;
        r = M_SQRT2 * (a[3] - a[11]);   a[3] += a[11];  a[11] = r;
        r = M_SQRT2 * (-a[18] + a[26]); a[18] += a[26]; a[26] = r - a[18];
        r = M_SQRT2 * (-a[19] + a[27]); a[19] += a[27]; a[27] = r - a[19];

        r = a[2];  a[19] -= a[3];  a[3] -= r;   a[2] = a[31] - r;  a[31] += r;
        r = a[3];  a[11] -= a[19]; a[18] -= r;  a[3] = a[30] - r;  a[30] += r;
        r = a[18]; a[27] -= a[11]; a[19] -= r;  a[18] = a[15] - r; a[15] += r;

        r = a[19]; a[10] -= r; a[19] = a[14] - r; a[14] += r;
        r = a[10]; a[11] -= r; a[10] = a[23] - r; a[23] += r;
        r = a[11]; a[26] -= r; a[11] = a[22] - r; a[22] += r;
        r = a[26]; a[27] -= r; a[26] = a[7] - r;  a[7] += r;

        r = a[27]; a[27] = a[6] - r; a[6] += r;

        r = M_SQRT2 * (a[0] - a[4]);   a[0] += a[4];   a[4] = r;
        r = M_SQRT2 * (a[1] - a[5]);   a[1] += a[5];   a[5] = r;
        r = M_SQRT2 * (a[16] - a[20]); a[16] += a[20]; a[20] = r;
        r = M_SQRT2 * (a[17] - a[21]); a[17] += a[21]; a[21] = r;

        r = -M_SQRT2 * (a[8] - a[12]);  a[8] += a[12];  a[12] = r - a[8];
        r = -M_SQRT2 * (a[9] - a[13]);  a[9] += a[13];  a[13] = r - a[9];
        r = -M_SQRT2 * (a[25] - a[29]); a[25] += a[29]; a[29] = r - a[25];
        r = -M_SQRT2 * (a[24] + a[28]); a[24] -= a[28]; a[28] = r - a[24];

        /* running differences along fixed index chains */
        r = a[24] - a[16]; a[24] = r;
        r = a[20] - r;     a[20] = r;
        r = a[28] - r;     a[28] = r;

        r = a[25] - a[17]; a[25] = r;
        r = a[21] - r;     a[21] = r;
        r = a[29] - r;     a[29] = r;

        {
            static const int chain1[] = { 9, 25, 5, 21, 13, 29 };
            static const int chain2[] = { 16, 17, 8, 9, 24, 25, 4, 5, 20, 21, 12, 13, 28, 29 };
            size_t k;
            r = a[17] - a[1]; a[17] = r;
            for (k = 0; k < sizeof chain1 / sizeof chain1[0]; k++) {
                r = a[chain1[k]] - r;
                a[chain1[k]] = r;
            }
            r = a[1] - a[0]; a[1] = r;
            for (k = 0; k < sizeof chain2 / sizeof chain2[0]; k++) {
                r = a[chain2[k]] - r;
                a[chain2[k]] = r;
            }
        }
        {
            /* final butterflies: (lo, hi) pairs, lo += hi, hi -= old lo */
            static const int pairs[16][2] = {
                { 0, 31 }, { 1, 30 }, { 16, 15 }, { 17, 14 }, { 8, 23 }, { 9, 22 },
                { 24, 7 }, { 25, 6 }, { 4, 27 }, { 5, 26 }, { 20, 11 }, { 21, 10 },
                { 12, 19 }, { 13, 18 }, { 28, 3 }, { 29, 2 }
            };
            int k;
            for (k = 0; k < 16; k++) {
                int lo = pairs[k][0], hi = pairs[k][1];
                r = a[lo];
                a[lo] += a[hi];
                a[hi] -= r;
            }
        }
    }
}

#endif
