/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the quantization noise of a band at one step (noise_x34.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "noise_x34.h"

#include <math.h>

float rl_sfb_noise_x34(const float *xr, const float *xr34, unsigned int bw, unsigned int sf)
{
    double x[4];
    int l3[4];
    float const sfpow = rl_pow20[sf + RL_Q_MAX2];   /* 2^(sf/4) */
    float const sfpow34 = rl_ipow20[sf];            /* sfpow^(-3/4) */
    float xfsf = 0;
    unsigned int i = bw >> 2u;
    unsigned int const remaining = bw & 0x03u;

    while (i-- > 0) {
        x[0] = sfpow34 * xr34[0];
        x[1] = sfpow34 * xr34[1];
        x[2] = sfpow34 * xr34[2];
        x[3] = sfpow34 * xr34[3];
        rl_k_34_4(x, l3);
        x[0] = fabsf(xr[0]) - sfpow * rl_pow43[l3[0]];
        x[1] = fabsf(xr[1]) - sfpow * rl_pow43[l3[1]];
        x[2] = fabsf(xr[2]) - sfpow * rl_pow43[l3[2]];
        x[3] = fabsf(xr[3]) - sfpow * rl_pow43[l3[3]];
        /* sum in double, accumulated into a float */
        xfsf += (x[0] * x[0] + x[1] * x[1]) + (x[2] * x[2] + x[3] * x[3]);
        xr += 4;
        xr34 += 4;
    }
    if (remaining) {
        x[0] = x[1] = x[2] = x[3] = 0;
        switch (remaining) {
        case 3: x[2] = sfpow34 * xr34[2]; /* fall through */
        case 2: x[1] = sfpow34 * xr34[1]; /* fall through */
        case 1: x[0] = sfpow34 * xr34[0]; /* fall through */
        default: break;
        }
        rl_k_34_4(x, l3);
        x[0] = x[1] = x[2] = x[3] = 0;
        switch (remaining) {
        case 3: x[2] = fabsf(xr[2]) - sfpow * rl_pow43[l3[2]]; /* fall through */
        case 2: x[1] = fabsf(xr[1]) - sfpow * rl_pow43[l3[1]]; /* fall through */
        case 1: x[0] = fabsf(xr[0]) - sfpow * rl_pow43[l3[0]]; /* fall through */
        default: break;
        }
        xfsf += (x[0] * x[0] + x[1] * x[1]) + (x[2] * x[2] + x[3] * x[3]);
    }
    return xfsf;
}

void rl_noise_x34_batch(const float *xr, const float *xr34, const RlNoiseJob *jobs, int njobs,
                        float *noise)
{
    for (int k = 0; k < njobs; k++)
        noise[k] = rl_sfb_noise_x34(xr + jobs[k].off, xr34 + jobs[k].off, (unsigned int) jobs[k].n,
                                    (unsigned int) jobs[k].sf);
}
