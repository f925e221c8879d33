/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: quantization noise per scalefactor band (LAME calc_noise).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <stddef.h>

#include "quantize_noise.h"
#include "quant_tables.h"
#include "fast_log.h"

/* Squared error of l pairs of lines from *startline at quantizer step
 * `step`, in LAME's three regions (above count1: the lines themselves;
 * count1: 0 or step; big values: pow43 * step). */
static float noise_core(const RlGranule *gi, int *startline, int l, float step)
{
    float noise = 0;
    int j = *startline;
    const int *const ix = gi->l3_enc;

    if (j > gi->count1) {
        while (l--) {
            float t = gi->xr[j];
            j++;
            noise += t * t;
            t = gi->xr[j];
            j++;
            noise += t * t;
        }
    } else if (j > gi->big_values) {
        float ix01[2];
        ix01[0] = 0;
        ix01[1] = step;
        while (l--) {
            float t = fabsf(gi->xr[j]) - ix01[ix[j]];
            j++;
            noise += t * t;
            t = fabsf(gi->xr[j]) - ix01[ix[j]];
            j++;
            noise += t * t;
        }
    } else {
        while (l--) {
            float t = fabsf(gi->xr[j]) - rl_pow43[ix[j]] * step;
            j++;
            noise += t * t;
            t = fabsf(gi->xr[j]) - rl_pow43[ix[j]] * step;
            j++;
            noise += t * t;
        }
    }
    *startline = j;
    return noise;
}

int rl_calc_noise(const RlGranule *gi, const float *l3_xmin, float *distort, RlNoiseResult *res,
                  RlNoiseCache *prev)
{
    int over = 0, j = 0;
    float over_noise_db = 0;
    float tot_noise_db = 0;
    float max_noise = -20.0;
    int over_ssd = 0;

    for (int sfb = 0; sfb < gi->psymax; sfb++) {
        int const pre = (gi->preflag && sfb < RL_SBMAX_L) ? rl_pretab[sfb] : 0;
        int const s = gi->global_gain - ((gi->scalefac[sfb] + pre) << (gi->scalefac_scale + 1))
                      - gi->subblock_gain[gi->window[sfb]] * 8;
        float const r_l3_xmin = 1.f / l3_xmin[sfb];
        float distort_, noise;

        if (prev != NULL && prev->step[sfb] == s) {
            j += gi->width[sfb];
            distort_ = r_l3_xmin * prev->noise[sfb];
            noise = prev->noise_log[sfb];
        } else {
            float const step = rl_pow20[s + RL_Q_MAX2];
            int l = gi->width[sfb] >> 1;
            if (j + gi->width[sfb] > gi->max_nonzero_coeff) {
                int const useful = gi->max_nonzero_coeff - j + 1;
                l = useful > 0 ? useful >> 1 : 0;
            }
            noise = noise_core(gi, &j, l, step);
            if (prev != NULL) {
                prev->step[sfb] = s;
                prev->noise[sfb] = noise;
            }
            distort_ = r_l3_xmin * noise;
            /* adding in dB; the floor keeps the log finite */
            noise = RL_FAST_LOG10(distort_ > 1E-20f ? distort_ : 1E-20f);
            if (prev != NULL)
                prev->noise_log[sfb] = noise;
        }
        distort[sfb] = distort_;
        if (prev != NULL)
            prev->global_gain = gi->global_gain;

        tot_noise_db += noise;
        {
            /* a distorted band counts, by masks rather than a branch (the
             * test goes either way band by band).  An undistorted band
             * adds noise * 0, +0 or -0, which leaves the sum of the
             * positive noises unchanged (that sum is never -0). */
            int const is_over = noise > 0.0;
            int tmp = (int) (noise * 10 + .5);
            if (tmp < 1)
                tmp = 1;
            over_ssd += tmp * tmp & -is_over;
            over += is_over;
            over_noise_db += noise * (float) is_over;
        }
        if (noise > max_noise)
            max_noise = noise;
    }
    res->over_SSD = over_ssd;
    res->over_count = over;
    res->tot_noise = tot_noise_db;
    res->over_noise = over_noise_db;
    res->max_noise = max_noise;
    return over;
}
