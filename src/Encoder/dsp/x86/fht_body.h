/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the SIMD Hartley transforms (rl_fht in fft.h),
 * included by one file per ISA level after it has defined W (lanes), VF,
 * VM (a lane mask), mask_first(c) (the first c lanes), mask_last(c) (the
 * last c), loadu_f, storeu_f, load_m, store_m (masked; nothing read or
 * written outside the mask), rev_f (lanes reversed), set1_f, add_f, sub_f, mul_f.
 *
 * Each stage's first butterflies stay scalar (fht_stage.h), and so does
 * a stage with fewer than W others.  The others, one per
 * i = 1 .. kx-1 and block, touch fi = fz + i and gi = fz + k1 - i (plus
 * multiples of k1 and the block offset): different i touch different
 * values, so W consecutive i run as the lanes of one vector, fi ascending
 * and gi descending (a load reversed), each lane with exactly the scalar
 * operations in the scalar order.  The stage's twiddle recurrence is run
 * first, in scalar and in order, into per-i tables (fht_stage.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_FHT_FN
#error "define RL_FHT_FN and the vector operations first"
#endif

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
    float C1[RL_FHT_MAX_KX + W], S1[RL_FHT_MAX_KX + W], C2[RL_FHT_MAX_KX + W], S2[RL_FHT_MAX_KX + W];
    for (int k1 = 4; k1 < n; k1 <<= 2, tw += 2) {
        int const kx = k1 >> 1, k2 = k1 << 1, k3 = k2 + k1;
        rl_fht_stage_first(fz, n, k1);
        rl_fht_stage_twiddles(tw, kx, C1, S1, C2, S2);
        if (kx < W) {           /* a stage too short for the lanes */
            for (int i = 1; i < kx; i++)
                rl_fht_stage_pair(fz, n, k1, i, C1[i], S1[i], C2[i], S2[i]);
            continue;
        }
        for (int i0 = 1; i0 < kx; i0 += W) {
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
    }
}
