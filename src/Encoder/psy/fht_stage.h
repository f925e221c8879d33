/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the two butterflies of one radix-4 FHT stage (rl_fht, fft.c),
 * shared by the scalar transform and the SIMD kernels, which run the
 * second one for several i at once.  Butterfly order and the float/double
 * mix are LAME's (the SQRT2 products are double on purpose).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_FHT_STAGE_H
#define RL_FHT_STAGE_H

#define RL_FHT_SQRT2_D 1.41421356237309504880

/* The i = 0 butterflies of a stage (k1 = the stage's quarter, kx = k1/2)
 * in every block of 4 k1 values of fz[0 .. end). */
static inline void rl_fht_head(float *fz, const float *end, int k1)
{
    int const kx = k1 >> 1, k2 = k1 << 1, k3 = k2 + k1, stride4 = k2 << 1;
    float *fi = fz;
    float *gi = fi + kx;
    do {
        float f0, f1, f2, f3;
        f1 = fi[0] - fi[k1];
        f0 = fi[0] + fi[k1];
        f3 = fi[k2] - fi[k3];
        f2 = fi[k2] + fi[k3];
        fi[k2] = f0 - f2;
        fi[0] = f0 + f2;
        fi[k3] = f1 - f3;
        fi[k1] = f1 + f3;
        f1 = gi[0] - gi[k1];
        f0 = gi[0] + gi[k1];
        f3 = RL_FHT_SQRT2_D * gi[k3];
        f2 = RL_FHT_SQRT2_D * gi[k2];
        gi[k2] = f0 - f2;
        gi[0] = f0 + f2;
        gi[k3] = f1 - f3;
        gi[k1] = f1 + f3;
        gi += stride4;
        fi += stride4;
    } while (fi < end);
}

/* The butterfly pair of index i in one block: fi = block + i, gi = block +
 * k1 - i, with the stage's twiddles of i. */
static inline void rl_fht_pair(float *fi, float *gi, int k1, float c1, float s1, float c2,
                               float s2)
{
    int const k2 = k1 << 1, k3 = k2 + k1;
    float a, b, g0, f0, f1, g1, f2, g2, f3, g3;
    b = s2 * fi[k1] - c2 * gi[k1];
    a = c2 * fi[k1] + s2 * gi[k1];
    f1 = fi[0] - a;
    f0 = fi[0] + a;
    g1 = gi[0] - b;
    g0 = gi[0] + b;
    b = s2 * fi[k3] - c2 * gi[k3];
    a = c2 * fi[k3] + s2 * gi[k3];
    f3 = fi[k2] - a;
    f2 = fi[k2] + a;
    g3 = gi[k2] - b;
    g2 = gi[k2] + b;
    b = s1 * f2 - c1 * g3;
    a = c1 * f2 + s1 * g3;
    fi[k2] = f0 - a;
    fi[0] = f0 + a;
    gi[k3] = g1 - b;
    gi[k1] = g1 + b;
    b = c1 * g2 - s1 * f3;
    a = s1 * g2 + c1 * f3;
    gi[k2] = g0 - a;
    gi[0] = g0 + a;
    fi[k3] = f1 - b;
    fi[k1] = f1 + b;
}

#endif
