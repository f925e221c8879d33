/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: rl_fht_pair (psy/fht_stage.h) for FN consecutive i at once, in
 * every block of one stage: included by fht_body.h once per vector width
 * after it has defined FNAME, FV (FN floats), FVI (FN ints) and FREV (the
 * lane-reversing indices).  Lane l is i + l: fi + l reads ascending, gi - l
 * descending (loaded backwards); each lane does rl_fht_pair's float
 * operations in its order. */
#define LDV(p) ({ FV v_; memcpy(&v_, (p), sizeof v_); v_; })
#define STV(p, v) do { FV v_ = (v); memcpy((p), &v_, sizeof v_); } while (0)
#if defined(__clang__) || __GNUC__ >= 12
#define REVV(v) __builtin_shufflevector((v), (v), FREV)
#else
#define REVV(v) __builtin_shuffle((v), (FVI){ FREV })
#endif

static void FNAME(float *fz, const float *end, int k1, int i, const float (*tw)[128])
{
    int const k2 = k1 << 1, k3 = k2 + k1, stride4 = k1 << 2;
    FV const c1 = LDV(&tw[0][i]), s1 = LDV(&tw[1][i]);
    FV const c2 = LDV(&tw[2][i]), s2 = LDV(&tw[3][i]);
    for (float *fb = fz; fb < end; fb += stride4) {
        float *const fi = fb + i;
        float *const gi = fb + k1 - i - (FN - 1);
        FV a, b, g0, f0, f1, g1, f2, g2, f3, g3;
        FV const fi0 = LDV(fi), fi1 = LDV(fi + k1), fi2 = LDV(fi + k2), fi3 = LDV(fi + k3);
        FV const gi0 = REVV(LDV(gi)), gi1 = REVV(LDV(gi + k1));
        FV const gi2 = REVV(LDV(gi + k2)), gi3 = REVV(LDV(gi + k3));
        b = s2 * fi1 - c2 * gi1;
        a = c2 * fi1 + s2 * gi1;
        f1 = fi0 - a;
        f0 = fi0 + a;
        g1 = gi0 - b;
        g0 = gi0 + b;
        b = s2 * fi3 - c2 * gi3;
        a = c2 * fi3 + s2 * gi3;
        f3 = fi2 - a;
        f2 = fi2 + a;
        g3 = gi2 - b;
        g2 = gi2 + b;
        b = s1 * f2 - c1 * g3;
        a = c1 * f2 + s1 * g3;
        STV(fi + k2, f0 - a);
        STV(fi, f0 + a);
        STV(gi + k3, REVV(g1 - b));
        STV(gi + k1, REVV(g1 + b));
        b = c1 * g2 - s1 * f3;
        a = s1 * g2 + c1 * f3;
        STV(gi + k2, REVV(g0 - a));
        STV(gi, REVV(g0 + a));
        STV(fi + k3, f1 - b);
        STV(fi + k1, f1 + b);
    }
}

#undef LDV
#undef STV
#undef REVV
#undef FNAME
#undef FV
#undef FREV
#undef FVI
#undef FN
