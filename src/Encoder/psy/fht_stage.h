/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the scalar pieces of one Hartley transform stage (rl_fht in
 * fft.c), shared with the SIMD kernels, which vectorise the rest of the
 * stage.  A stage has k1 = 4^s values per quarter block (kx = k1 / 2
 * butterfly pairs), blocks of 4 k1 values over n.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_FHT_STAGE_H
#define RL_FHT_STAGE_H

#define RL_FHT_SQRT2_D 1.41421356237309504880

/* the stage's first butterflies (i = 0 and kx) in every block; the SQRT2
 * products are double on purpose */
static inline void rl_fht_stage_first(float *fz, int n, int k1)
{
    int const kx = k1 >> 1, k2 = k1 << 1, k3 = k2 + k1, stride4 = k2 << 1;
    float *const end = fz + n;
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

/* the stage's twiddles for i = 1 .. kx-1 (the recurrence from tw[0], tw[1]
 * in its order): c1[i], s1[i], c2[i], s2[i] */
static inline void rl_fht_stage_twiddles(const float *tw, int kx, float *c1v, float *s1v, float *c2v,
                                         float *s2v)
{
    float c1 = tw[0];
    float s1 = tw[1];
    for (int i = 1; i < kx; i++) {
        c1v[i] = c1;
        s1v[i] = s1;
        c2v[i] = 1 - (2 * s1) * s1;
        s2v[i] = (2 * s1) * c1;
        float const c2 = c1;
        c1 = c2 * tw[0] - s1 * tw[1];
        s1 = c2 * tw[1] + s1 * tw[0];
    }
}

/* the butterflies of pair i (values i and k1 - i) in every block */
static inline void rl_fht_stage_pair(float *fz, int n, int k1, int i, float c1, float s1, float c2,
                                     float s2)
{
    int const k2 = k1 << 1, k3 = k2 + k1, stride4 = k2 << 1;
    float *const end = fz + n;
    float *fi = fz + i;
    float *gi = fz + k1 - i;
    do {
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
        gi += stride4;
        fi += stride4;
    } while (fi < end);
}

#endif
