/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: quantization noise per scalefactor band (LAME calc_noise).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

void rl_noise_cache_init(RlNoiseCache *c, const RlGranule *gi, const float *l3_xmin)
{
    int const sfbmax = gi->block_type == RL_SHORT_TYPE ? 38 : 21;  /* count_bits' bands */
    int j = 0;

    memset(c, 0, sizeof *c);
    for (int sfb = 0; sfb < gi->psymax; sfb++) {
        c->r_xmin[sfb] = 1.f / l3_xmin[sfb];
        c->distort[sfb] = c->r_xmin[sfb] * 0.0f;   /* LAME's zeroed noise, as a distortion */
        c->quiet[sfb] = -1.f;
    }
    c->last_band = -1;
    for (int sfb = 0; sfb <= sfbmax; sfb++) {
        c->start[sfb] = j;
        j += gi->width[sfb];
        if (c->last_band < 0 && j > gi->max_nonzero_coeff)
            c->last_band = sfb;
    }
    c->start[sfbmax + 1] = j;
    rl_noise_cache_offsets(c, gi);
}

void rl_noise_cache_offsets(RlNoiseCache *c, const RlGranule *gi)
{
    /* calc_noise reads bands below psymax, the count bands up to sfbmax */
    int const sfbmax = gi->block_type == RL_SHORT_TYPE ? 38 : 21;
    int n = gi->psymax > sfbmax + 1 ? gi->psymax : sfbmax + 1;
    int const sh = gi->scalefac_scale + 1;
    int sfb = 0;
    const int *const sbg = gi->subblock_gain;

    if (n > RL_SFBMAX)
        n = RL_SFBMAX;
    /* rl_band_offset, in loops without branches (a search runs this after
     * every scalefactor change); the subblock term is 0 when every subblock
     * gain is (long blocks, most short ones) */
    if (gi->preflag)
        for (; sfb < n && sfb < RL_SBMAX_L; sfb++)
            c->off[sfb] = (gi->scalefac[sfb] + rl_pretab[sfb]) << sh;
    for (; sfb < n; sfb++)
        c->off[sfb] = gi->scalefac[sfb] << sh;
    if (sbg[0] | sbg[1] | sbg[2] | sbg[3])
        for (sfb = 0; sfb < n; sfb++)
            c->off[sfb] += sbg[gi->window[sfb]] * 8;
}

/* The noise of a band of l pairs from *startline at quantizer step `step`.
 * A band starting above count1 quantizes to zeros at every step, so its
 * noise is its lines squared: the same lines every time (the start and
 * length of a band depend on the widths and max_nonzero_coeff alone; past
 * max_nonzero_coeff the length is 0), summed once per search. */
static float band_noise(const RlGranule *gi, int sfb, int *startline, int l, float step,
                        RlNoiseCache *prev)
{
    int const quiet = prev != NULL && *startline > gi->count1;
    float noise;

    if (quiet && prev->quiet[sfb] >= 0) {
        *startline += 2 * l;
        return prev->quiet[sfb];
    }
    noise = noise_core(gi, startline, l, step);
    if (quiet)
        prev->quiet[sfb] = noise;
    return noise;
}

/* LAME walks the bands once, computing a band or taking it from the cache
 * and adding it to the totals.  Here the bands to compute are found first
 * (a mask: which bands the cache holds goes either way band by band), then
 * computed, then added up in LAME's order.  A computed band starts at the
 * sum of the widths before it, as in LAME: the bands before the one
 * holding max_nonzero_coeff take all their lines, and from the band after
 * it on LAME's count is 0 whatever its start. */
int rl_calc_noise(const RlGranule *gi, const float *l3_xmin, float *distort, RlNoiseResult *res,
                  RlNoiseCache *prev)
{
    float own_distort[RL_SFBMAX], own_log[RL_SFBMAX];
    float *const dist = prev != NULL ? prev->distort : own_distort;
    float *const noise_log = prev != NULL ? prev->noise_log : own_log;
    int start[RL_SFBMAX], steps[RL_SFBMAX];
    uint64_t todo = 0;
    int const psymax = gi->psymax;
    int over = 0, j = 0;
    float over_noise_db = 0;
    float tot_noise_db = 0;
    float max_noise = -20.0;
    int over_ssd = 0;

    if (prev == NULL) {
        for (int sfb = 0; sfb < psymax; sfb++) {
            steps[sfb] = gi->global_gain - rl_band_offset(gi, sfb);
            start[sfb] = j;
            j += gi->width[sfb];
        }
        todo = psymax > 0 ? ~(uint64_t) 0 >> (64 - psymax) : 0;
    } else {
        for (int sfb = 0; sfb < psymax; sfb++) {
            int const s = gi->global_gain - prev->off[sfb];
            steps[sfb] = s;
            start[sfb] = j;
            j += gi->width[sfb];
            todo |= (uint64_t) (prev->step[sfb] != s) << sfb;
        }
    }
    while (todo) {
        int const sfb = __builtin_ctzll(todo);
        int const s = steps[sfb];
        float const step = rl_pow20[s + RL_Q_MAX2];
        float const r_l3_xmin = prev != NULL ? prev->r_xmin[sfb] : 1.f / l3_xmin[sfb];
        int l = gi->width[sfb] >> 1;
        int line = start[sfb];
        float distort_;

        todo &= todo - 1;
        if (line + gi->width[sfb] > gi->max_nonzero_coeff) {
            int const useful = gi->max_nonzero_coeff - line + 1;
            l = useful > 0 ? useful >> 1 : 0;
        }
        distort_ = r_l3_xmin * band_noise(gi, sfb, &line, l, step, prev);
        dist[sfb] = distort_;
        if (prev != NULL)
            prev->step[sfb] = s;
        /* adding in dB; the floor keeps the log finite */
        noise_log[sfb] = (float) RL_FAST_LOG10(distort_ > 1E-20f ? distort_ : 1E-20f);
    }
    if (prev != NULL && psymax > 0)
        prev->global_gain = gi->global_gain;

    for (int sfb = 0; sfb < psymax; sfb++) {
        float const noise = noise_log[sfb];
        distort[sfb] = dist[sfb];
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
