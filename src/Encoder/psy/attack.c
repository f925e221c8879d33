/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the attack detector's high-pass filter and sub-block peaks.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "attack.h"

#include <math.h>

#define FIRLEN 21

const float rl_attack_fircoef[10] = {
    -8.65163e-18 * 2, -0.00851586 * 2, -6.74764e-18 * 2, 0.0209036 * 2,
    -3.36639e-17 * 2, -0.0438162 * 2, -1.54175e-17 * 2, 0.0931738 * 2,
    -5.52212e-17 * 2, -0.313819 * 2
};

void rl_attack_fir(const float *firbuf, float hpf[576])
{
    const float *const c = rl_attack_fircoef;
    for (int i = 0; i < 576; i++) {
        float sum1 = firbuf[i + 10], sum2 = 0.0;
        for (int j = 0; j < ((FIRLEN - 1) / 2) - 1; j += 2) {
            sum1 += c[j] * (firbuf[i + j] + firbuf[i + FIRLEN - j]);
            sum2 += c[j + 1] * (firbuf[i + j + 1] + firbuf[i + FIRLEN - j - 1]);
        }
        hpf[i] = sum1 + sum2;
    }
}

void rl_block_peaks(const float *pf, float peaks[9])
{
    for (int i = 0; i < 9; i++) {
        const float *const pfe = pf + 576 / 9;
        float p = 1.;
        for (; pf < pfe; pf++)
            if (p < fabs(*pf))
                p = fabs(*pf);
        peaks[i] = p;
    }
}
