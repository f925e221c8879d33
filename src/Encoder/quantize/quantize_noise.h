/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: quantization noise against the allowed distortion (LAME
 * calc_noise) and the cache the outer loop keeps between tries.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_NOISE_H
#define RL_QUANTIZE_NOISE_H

#include <math.h>

#include "rl_types.h"
#include "quant_tables.h"   /* rl_pretab */

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
 * granule's search owns it; rl_noise_cache_init starts it for each outer
 * loop (LAME's zeroed values, and what stays fixed through the search). */
typedef struct RlNoiseCache {
    int   global_gain;
    int   sfb_count1;            /* first band of the count1 region */
    int   step[RL_SFBMAX];
    float distort[RL_SFBMAX];    /* LAME keeps the noise; its distortion
                                  * (noise / l3_xmin) is one product of it */
    float noise_log[RL_SFBMAX];
    /* fixed for the search: the granule's lines and l3_xmin do not change */
    float r_xmin[RL_SFBMAX];     /* 1 / l3_xmin[sfb] */
    float quiet[RL_SFBMAX];      /* noise of the band above count1 (its lines
                                  * squared, at any step); < 0 until needed */
    int   start[RL_SFBMAX + 1];  /* first line of each quantized band, and the end */
    int   last_band;             /* the band holding max_nonzero_coeff */
    /* each band's step below the global gain (rl_band_offset) for the
     * granule the search quantizes: rl_noise_cache_offsets after every
     * change of its scalefactors, preflag, scale or subblock gains */
    int   off[RL_SFBMAX];
} RlNoiseCache;

/* How far band sfb's quantizer step lies below the global gain: the
 * scalefactor amplification (with the preflag's table) and the subblock
 * gain, as LAME's calc_noise and quantize_xrpow take them. */
static inline int rl_band_offset(const RlGranule *gi, int sfb)
{
    int const pre = (gi->preflag && sfb < RL_SBMAX_L) ? rl_pretab[sfb] : 0;
    return ((gi->scalefac[sfb] + pre) << (gi->scalefac_scale + 1))
           + gi->subblock_gain[gi->window[sfb]] * 8;
}

/* Starts c for an outer loop on gi's lines against l3_xmin. */
void rl_noise_cache_init(RlNoiseCache *c, const RlGranule *gi, const float *l3_xmin);

/* c->off for gi's bands (those calc_noise and the cached count read). */
void rl_noise_cache_offsets(RlNoiseCache *c, const RlGranule *gi);

/* LAME calc_noise: distortion per band into distort[] (noise / l3_xmin),
 * totals into *res; returns the number of distorted bands.  prev may be
 * NULL; otherwise (started by rl_noise_cache_init for gi's lines and
 * l3_xmin) bands with an unchanged step reuse its values and every
 * computed band is stored in it.
 * Stage: Search; Encode (CBR, vbr_rh loops). */
int rl_calc_noise(const RlGranule *gi, const float *l3_xmin, float *distort, RlNoiseResult *res,
                  RlNoiseCache *prev);

#endif
