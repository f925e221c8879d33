/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the end of one polyphase time slot (the centre taps' sums u, v
 * folded in, then the butterfly network), written once for an element type:
 * the includer defines RL_BF_FN (the function's name), RL_BF_T (float, or a
 * vector of floats whose lanes are independent slots) and the products
 * with LAME's double SQRT2, each rounded to float as the scalar code does:
 *   RL_BF_SQ2(x)        (float) ((double) x * M_SQRT2)
 *   RL_BF_SQ2_SUB(x, y) (float) ((double) x * M_SQRT2 - (double) y)
 *   RL_BF_NSQ2(x)       (float) (-M_SQRT2 * (double) x)
 * Every other operation is a float +, -, * of the scalar code in its order,
 * so a vector lane gives the scalar slot's bits.
 * RL_BF_CENTRE (the centre taps' function) reads the sample at offset off
 * (a multiple of 16) from the slot's x - 15 as RL_BF_XA(c, off).
 * a[0..31]: the slot's rows (a[30], a[31] unread); w = rl_enwindow + 10 +
 * 15 * 18, the scalar row loop's pointer after its last row.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#if !defined(RL_BF_FN) || !defined(RL_BF_T) || !defined(RL_BF_CENTRE)
#error "define RL_BF_FN, RL_BF_T and the RL_BF_SQ2 family first"
#endif

/* The centre taps: *u = s - t, *v = s + t. */
static inline void RL_BF_CENTRE(const float *c, const float *w, RL_BF_T *u, RL_BF_T *v)
{
    RL_BF_T s, t;
    t = RL_BF_XA(c, -16) * w[-10];
    s = RL_BF_XA(c, -32) * w[-2];
    t += (RL_BF_XA(c, -48) - RL_BF_XA(c, 16)) * w[-9];
    s += RL_BF_XA(c, -96) * w[-1];
    t += (RL_BF_XA(c, -80) + RL_BF_XA(c, 48)) * w[-8];
    s += RL_BF_XA(c, -160) * w[0];
    t += (RL_BF_XA(c, -112) - RL_BF_XA(c, 80)) * w[-7];
    s += RL_BF_XA(c, -224) * w[1];
    t += (RL_BF_XA(c, -144) + RL_BF_XA(c, 112)) * w[-6];
    s -= RL_BF_XA(c, 32) * w[2];
    t += (RL_BF_XA(c, -176) - RL_BF_XA(c, 144)) * w[-5];
    s -= RL_BF_XA(c, 96) * w[3];
    t += (RL_BF_XA(c, -208) + RL_BF_XA(c, 176)) * w[-4];
    s -= RL_BF_XA(c, 160) * w[4];
    t += (RL_BF_XA(c, -240) - RL_BF_XA(c, 208)) * w[-3];
    s -= RL_BF_XA(c, 224);
    *u = s - t;
    *v = s + t;
}

static inline void RL_BF_FN(RL_BF_T a[32], RL_BF_T u, RL_BF_T v, const float *w)
{
    RL_BF_T r, t, s;

    t = a[14];
    s = a[15] - t;
    a[31] = v + t;
    a[30] = u + s;
    a[15] = u - s;
    a[14] = v - t;

    /* w now points past the last row; w[-2k*18 + 7] are the row factors. */
    r = a[28] - a[0];  a[0] += a[28];  a[28] = r * w[-2 * 18 + 7];
    r = a[29] - a[1];  a[1] += a[29];  a[29] = r * w[-2 * 18 + 7];

    r = a[26] - a[2];  a[2] += a[26];  a[26] = r * w[-4 * 18 + 7];
    r = a[27] - a[3];  a[3] += a[27];  a[27] = r * w[-4 * 18 + 7];

    r = a[24] - a[4];  a[4] += a[24];  a[24] = r * w[-6 * 18 + 7];
    r = a[25] - a[5];  a[5] += a[25];  a[25] = r * w[-6 * 18 + 7];

    r = a[22] - a[6];  a[6] += a[22];  a[22] = RL_BF_SQ2(r);
    r = a[23] - a[7];  a[7] += a[23];  a[23] = RL_BF_SQ2_SUB(r, a[7]);
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

    r = RL_BF_SQ2(a[2] - a[10]); a[2] += a[10];  a[10] = r;
    r = RL_BF_SQ2(a[3] - a[11]); a[3] += a[11];  a[11] = r;
    r = RL_BF_SQ2(-a[18] + a[26]); a[18] += a[26]; a[26] = r - a[18];
    r = RL_BF_SQ2(-a[19] + a[27]); a[19] += a[27]; a[27] = r - a[19];

    r = a[2];  a[19] -= a[3];  a[3] -= r;   a[2] = a[31] - r;  a[31] += r;
    r = a[3];  a[11] -= a[19]; a[18] -= r;  a[3] = a[30] - r;  a[30] += r;
    r = a[18]; a[27] -= a[11]; a[19] -= r;  a[18] = a[15] - r; a[15] += r;

    r = a[19]; a[10] -= r; a[19] = a[14] - r; a[14] += r;
    r = a[10]; a[11] -= r; a[10] = a[23] - r; a[23] += r;
    r = a[11]; a[26] -= r; a[11] = a[22] - r; a[22] += r;
    r = a[26]; a[27] -= r; a[26] = a[7] - r;  a[7] += r;

    r = a[27]; a[27] = a[6] - r; a[6] += r;

    r = RL_BF_SQ2(a[0] - a[4]); a[0] += a[4];   a[4] = r;
    r = RL_BF_SQ2(a[1] - a[5]); a[1] += a[5];   a[5] = r;
    r = RL_BF_SQ2(a[16] - a[20]); a[16] += a[20]; a[20] = r;
    r = RL_BF_SQ2(a[17] - a[21]); a[17] += a[21]; a[21] = r;

    r = RL_BF_NSQ2(a[8] - a[12]); a[8] += a[12];  a[12] = r - a[8];
    r = RL_BF_NSQ2(a[9] - a[13]); a[9] += a[13];  a[13] = r - a[9];
    r = RL_BF_NSQ2(a[25] - a[29]); a[25] += a[29]; a[29] = r - a[25];
    r = RL_BF_NSQ2(a[24] + a[28]); a[24] -= a[28]; a[28] = r - a[24];

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

#undef RL_BF_FN
#undef RL_BF_T
#undef RL_BF_SQ2
#undef RL_BF_SQ2_SUB
#undef RL_BF_NSQ2
#undef RL_BF_CENTRE
#undef RL_BF_XA
