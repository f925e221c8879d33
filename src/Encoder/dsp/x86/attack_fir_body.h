/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the SIMD attack high-pass kernels (rl_attack_fir in
 * attack_fir.h), included by one file per ISA level after it has defined
 * W (lanes), VF and set1_f, loadu_f, storeu_f, add_f, mul_f.  Each lane
 * computes one output with exactly the scalar operations in the scalar
 * order (576 is a multiple of W).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_ATTACK_FIR_FN
#error "define RL_ATTACK_FIR_FN and the vector operations first"
#endif

void RL_ATTACK_FIR_FN(const float *firbuf, float *hpf)
{
    VF c[10];
    for (int j = 0; j < 10; j++)
        c[j] = set1_f(rl_attack_fircoef[j]);
    for (int i = 0; i < 576; i += W) {
        const float *const f = firbuf + i;
        VF sum1 = loadu_f(f + 10), sum2 = set1_f(0.0f);
        for (int j = 0; j < ((RL_NSFIRLEN - 1) / 2) - 1; j += 2) {
            sum1 = add_f(sum1, mul_f(c[j], add_f(loadu_f(f + j), loadu_f(f + RL_NSFIRLEN - j))));
            sum2 = add_f(sum2, mul_f(c[j + 1], add_f(loadu_f(f + j + 1), loadu_f(f + RL_NSFIRLEN - j - 1))));
        }
        storeu_f(hpf + i, add_f(sum1, sum2));
    }
}
