/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the SIMD window-rows kernels (rl_window_rows in
 * window_rows.h), included by one file per ISA level after it has defined
 * W (lanes), VF (W floats) and loadu_f, rev_f (the lanes reversed), add_f,
 * sub_f, mul_f.  Each lane computes one row with exactly the scalar
 * operations in the scalar order: each product in float, added to (or
 * taken from) the row's running sum tap after tap.  Row r reads x - r
 * (xa) and x - 62 + r (xb), so across the lanes xb is one ascending load
 * and xa one ascending load reversed.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_WINDOW_ROWS_FN
#error "define RL_WINDOW_ROWS_FN and the vector operations first"
#endif

/* rows r0 .. r0 + W - 1: *a = t + s, *b = w[7] * (t - s) per lane */
static inline void window_rows_w(const float *x, int r0, VF *a, VF *b)
{
    static const int xb_off[8] = { -224, -160, -96, -32, 32, 96, 160, 224 };
    static const int xa_off2[8] = { -256, -192, -128, -64, 0, 64, 128, 192 };
    const float *const xb = x - 62 + r0;            /* lane l: row r0 + l */
    const float *const xa = x - r0 - (W - 1);       /* reversed: lane l at xa + W-1-l */
    VF s = mul_f(loadu_f(xb + xb_off[0]), loadu_f(rl_window_wide[0] + r0));
    VF t = mul_f(rev_f(loadu_f(xa - xb_off[0])), loadu_f(rl_window_wide[0] + r0));
    for (int k = 1; k < 8; k++) {
        VF const c = loadu_f(rl_window_wide[k] + r0);
        s = add_f(s, mul_f(loadu_f(xb + xb_off[k]), c));
        t = add_f(t, mul_f(rev_f(loadu_f(xa - xb_off[k])), c));
    }
    for (int k = 0; k < 8; k++) {
        VF const c = loadu_f(rl_window_wide[8 + k] + r0);
        s = add_f(s, mul_f(rev_f(loadu_f(xa + xa_off2[k])), c));
        t = sub_f(t, mul_f(loadu_f(xb - xa_off2[k]), c));
    }
    s = mul_f(s, loadu_f(rl_window_wide[16] + r0));
    *a = add_f(t, s);
    *b = mul_f(loadu_f(rl_window_wide[17] + r0), sub_f(t, s));
}
