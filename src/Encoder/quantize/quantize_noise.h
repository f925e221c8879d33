/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: quantization noise against the allowed distortion (LAME
 * calc_noise) and the cache the outer loop keeps between tries.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_NOISE_H
#define RL_QUANTIZE_NOISE_H

#include <math.h>

#include "rl_types.h"

/* LAME's EQ(a,b) on two floats: a relative 1e-6 tolerance, the difference
 * taken in float as the macro does. */
static inline int rl_eq_float(float a, float b)
{
    float const d = a - b;
    return (fabs(a) > fabs(b)) ? (fabs(d) <= fabs(a) * 1e-6f) : (fabs(d) <= fabs(b) * 1e-6f);
}

/* Noise of one quantization, in dB-like units relative to the masking
 * (LAME calc_noise_result). */
typedef struct RlNoiseResult {
    float over_noise;   /* sum over distorted bands */
    float tot_noise;    /* sum over all bands */
    float max_noise;    /* largest band */
    int   over_count;   /* bands whose noise exceeds the allowed distortion */
    int   over_SSD;     /* squared-distance cost of the distorted bands */
    int   bits;
} RlNoiseResult;

/* Per-band values of the last quantization (LAME calc_noise_data).  One
 * granule's search owns it; it starts zeroed for each outer loop. */
typedef struct RlNoiseCache {
    int   global_gain;
    int   sfb_count1;            /* first band of the count1 region */
    int   step[RL_SFBMAX];
    float noise[RL_SFBMAX];
    float noise_log[RL_SFBMAX];
} RlNoiseCache;

/* LAME calc_noise: distortion per band into distort[] (noise / l3_xmin),
 * totals into *res; returns the number of distorted bands.  prev may be
 * NULL; otherwise bands with an unchanged step reuse its values and every
 * computed band is stored in it.
 * Stage: Search; Encode (CBR, vbr_rh loops). */
int rl_calc_noise(const RlGranule *gi, const float *l3_xmin, float *distort, RlNoiseResult *res,
                  RlNoiseCache *prev);

#endif
