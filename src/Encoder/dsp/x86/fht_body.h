/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the SIMD Hartley transforms (rl_fht in fft.h),
 * included by one file per ISA level after it has defined W (lanes), VF,
 * VM (a lane mask), mask_first(c) (the first c lanes), mask_last(c) (the
 * last c), loadu_f, storeu_f, load_m, store_m (masked; nothing read or
 * written outside the mask), rev_f (lanes reversed), set1_f, add_f, sub_f, mul_f.
 *
 * Each stage's first butterflies stay scalar, and so does a stage with
 * fewer than W others.  The others, one per
 * i = 1 .. kx-1 and block, touch fi = fz + i and gi = fz + k1 - i (plus
 * multiples of k1 and the block offset): different i touch different
 * values, so W consecutive i run as the lanes of one vector, fi ascending
 * and gi descending (a load reversed), each lane with exactly the scalar
 * operations in the scalar order.  The stage's twiddle recurrence is run
 * first, in scalar and in order, into per-i tables.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_FHT_FN
#error "define RL_FHT_FN and the vector operations first"
#endif

#define SQRT2_D 1.41421356237309504880

/* the butterflies of lanes i0 .. i0+W-1 in one block: fp at fi of lane 0,
 * gp at gi of lane W-1; whole: every lane (mf, ml ignored) */
static inline void fht_lanes(float *fp, float *gp, int k1, int k2, int k3, VF c1, VF s1, VF c2, VF s2,
                             int whole, VM mf, VM ml)
{
#define LD(p, m) (whole ? loadu_f(p) : load_m((p), (m)))
#define ST(p, m, v) (whole ? storeu_f((p), (v)) : store_m((p), (m), (v)))
    VF const fi0 = LD(fp, mf), fi1 = LD(fp + k1, mf);
    VF const fi2 = LD(fp + k2, mf), fi3 = LD(fp + k3, mf);
    VF const gi0 = rev_f(LD(gp, ml)), gi1 = rev_f(LD(gp + k1, ml));
    VF const gi2 = rev_f(LD(gp + k2, ml)), gi3 = rev_f(LD(gp + k3, ml));
    VF a, b;
    b = sub_f(mul_f(s2, fi1), mul_f(c2, gi1));
    a = add_f(mul_f(c2, fi1), mul_f(s2, gi1));
    VF const f1 = sub_f(fi0, a), f0 = add_f(fi0, a);
    VF const g1 = sub_f(gi0, b), g0 = add_f(gi0, b);
    b = sub_f(mul_f(s2, fi3), mul_f(c2, gi3));
    a = add_f(mul_f(c2, fi3), mul_f(s2, gi3));
    VF const f3 = sub_f(fi2, a), f2 = add_f(fi2, a);
    VF const g3 = sub_f(gi2, b), g2 = add_f(gi2, b);
    b = sub_f(mul_f(s1, f2), mul_f(c1, g3));
    a = add_f(mul_f(c1, f2), mul_f(s1, g3));
    ST(fp + k2, mf, sub_f(f0, a));
    ST(fp, mf, add_f(f0, a));
    ST(gp + k3, ml, rev_f(sub_f(g1, b)));
    ST(gp + k1, ml, rev_f(add_f(g1, b)));
    b = sub_f(mul_f(c1, g2), mul_f(s1, f3));
    a = add_f(mul_f(s1, g2), mul_f(c1, f3));
    ST(gp + k2, ml, rev_f(sub_f(g0, a)));
    ST(gp, ml, rev_f(add_f(g0, a)));
    ST(fp + k3, mf, sub_f(f1, b));
    ST(fp + k1, mf, add_f(f1, b));
#undef LD
#undef ST
}

void RL_FHT_FN(float *fz, int half)
{
    const float *tw = rl_fht_twiddle;
    int const n = half << 1;
    float *const end = fz + n;
    int stride4 = 4;
    float C1[RL_FHT_MAX_KX + W], S1[RL_FHT_MAX_KX + W], C2[RL_FHT_MAX_KX + W], S2[RL_FHT_MAX_KX + W];
    do {
        int const kx = stride4 >> 1;
        int const k1 = stride4;
        int const k2 = stride4 << 1;
        int const k3 = k2 + k1;
        stride4 = k2 << 1;
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
            f3 = SQRT2_D * gi[k3];
            f2 = SQRT2_D * gi[k2];
            gi[k2] = f0 - f2;
            gi[0] = f0 + f2;
            gi[k3] = f1 - f3;
            gi[k1] = f1 + f3;
            gi += stride4;
            fi += stride4;
        } while (fi < end);
        {
            float c1 = tw[0];
            float s1 = tw[1];
            for (int i = 1; i < kx; i++) {
                C1[i] = c1;
                S1[i] = s1;
                C2[i] = 1 - (2 * s1) * s1;
                S2[i] = (2 * s1) * c1;
                float const c2 = c1;
                c1 = c2 * tw[0] - s1 * tw[1];
                s1 = c2 * tw[1] + s1 * tw[0];
            }
        }
        for (int i = 1; i < kx && kx < W; i++) {     /* a stage too short for the lanes */
            fi = fz + i;
            gi = fz + k1 - i;
            do {
                float a, b, g0, f0, f1, g1, f2, g2, f3, g3;
                b = S2[i] * fi[k1] - C2[i] * gi[k1];
                a = C2[i] * fi[k1] + S2[i] * gi[k1];
                f1 = fi[0] - a;
                f0 = fi[0] + a;
                g1 = gi[0] - b;
                g0 = gi[0] + b;
                b = S2[i] * fi[k3] - C2[i] * gi[k3];
                a = C2[i] * fi[k3] + S2[i] * gi[k3];
                f3 = fi[k2] - a;
                f2 = fi[k2] + a;
                g3 = gi[k2] - b;
                g2 = gi[k2] + b;
                b = S1[i] * f2 - C1[i] * g3;
                a = C1[i] * f2 + S1[i] * g3;
                fi[k2] = f0 - a;
                fi[0] = f0 + a;
                gi[k3] = g1 - b;
                gi[k1] = g1 + b;
                b = C1[i] * g2 - S1[i] * f3;
                a = S1[i] * g2 + C1[i] * f3;
                gi[k2] = g0 - a;
                gi[0] = g0 + a;
                fi[k3] = f1 - b;
                fi[k1] = f1 + b;
                gi += stride4;
                fi += stride4;
            } while (fi < end);
        }
        for (int i0 = 1; i0 < kx && kx >= W; i0 += W) {
            int const c = kx - i0 < W ? kx - i0 : W;
            VM const mf = mask_first(c), ml = mask_last(c);
            VF const c1 = load_m(C1 + i0, mf), s1 = load_m(S1 + i0, mf);
            VF const c2 = load_m(C2 + i0, mf), s2 = load_m(S2 + i0, mf);
            if (c == W) {       /* whole groups: plain loads and stores (masked ones are slow on AMD) */
                for (int o = 0; o < n; o += k2 << 1)
                    fht_lanes(fz + o + i0, fz + o + k1 - i0 - (W - 1), k1, k2, k3, c1, s1, c2, s2, 1, mf, ml);
            } else {
                for (int o = 0; o < n; o += k2 << 1)
                    fht_lanes(fz + o + i0, fz + o + k1 - i0 - (W - 1), k1, k2, k3, c1, s1, c2, s2, 0, mf, ml);
            }
        }
        tw += 2;
    } while (stride4 < n);
}
