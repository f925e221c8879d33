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

/* LAME sums a band's squared errors line by line in three regions by the
 * band's first line: above count1 the lines themselves, in count1 0 or
 * step, in big values pow43[ix] * step.  One formula covers all three:
 * pow43[0] * step = +0 and pow43[1] * step = step (count1's values are 0
 * or 1, and a band starting above count1 takes step 0, so every line is
 * |xr| - 0), and |xr|^2 = xr^2.  The squares are independent of each
 * other (the dsp kernel), the sums are not: each is LAME's chain, in
 * LAME's order, four bands side by side. */
void rl_noise_lines(const float *xr, const int *ix, int n, float step, float *sq)
{
    for (int i = 0; i < n; i++) {
        float const t = fabsf(xr[i]) - rl_pow43[ix[i]] * step;
        sq[i] = t * t;
    }
}

#define SQ_ZERO 576   /* an index of sq that holds +0 */

/* sum[k] = the squares sq[first[k] .. first[k] + len[k]) added in order
 * to +0, for k < n; four bands' chains at once, a band past its end adding
 * sq[SQ_ZERO] = +0 (which leaves a sum >= +0 unchanged). */
static void ordered_sums(const float *sq, const int *first, const int *len, int n, float *sum)
{
    for (int k = 0; k < n; k += 4) {
        int f[4], l[4], m = 0;
        for (int j = 0; j < 4; j++) {
            f[j] = k + j < n ? first[k + j] : SQ_ZERO;
            l[j] = k + j < n ? len[k + j] : 0;
            m = l[j] > m ? l[j] : m;
        }
        float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int i = 0; i < m; i++) {
            a0 += sq[i < l[0] ? f[0] + i : SQ_ZERO];
            a1 += sq[i < l[1] ? f[1] + i : SQ_ZERO];
            a2 += sq[i < l[2] ? f[2] + i : SQ_ZERO];
            a3 += sq[i < l[3] ? f[3] + i : SQ_ZERO];
        }
        float const a[4] = { a0, a1, a2, a3 };
        for (int j = 0; j < 4 && k + j < n; j++)
            sum[k + j] = a[j];
    }
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
}

/* LAME walks the bands once, computing a band or taking it from the cache
 * and adding it to the totals.  Here the bands to compute are found first
 * (a mask: which bands the cache holds goes either way band by band), then
 * computed, then added up in LAME's order.  A computed band starts at the
 * sum of the widths before it, as in LAME: the bands before the one
 * holding max_nonzero_coeff take all their lines, and from the band after
 * it on LAME's count is 0 whatever its start. */
int rl_calc_noise(const RlDsp *dsp, const RlGranule *gi, const float *l3_xmin, float *distort,
                  RlNoiseResult *res, RlNoiseCache *prev)
{
    float own_distort[RL_SFBMAX], own_log[RL_SFBMAX];
    float *const dist = prev != NULL ? prev->distort : own_distort;
    float *const noise_log = prev != NULL ? prev->noise_log : own_log;
    int start[RL_SFBMAX], steps[RL_SFBMAX];
    /* the bands to sum: their sfb, first line and line count, then noise */
    int sum_sfb[RL_SFBMAX], sum_first[RL_SFBMAX], sum_len[RL_SFBMAX], nsum = 0;
    float band[RL_SFBMAX];
    float sq[SQ_ZERO + 1];
    uint64_t todo = 0;
    int const psymax = gi->psymax;
    int over = 0, j = 0;
    float over_noise_db = 0;
    float tot_noise_db = 0;
    float max_noise = -20.0;
    int over_ssd = 0;

    for (int sfb = 0; sfb < psymax; sfb++) {
        int const pre = (gi->preflag && sfb < RL_SBMAX_L) ? rl_pretab[sfb] : 0;
        int const s = gi->global_gain - ((gi->scalefac[sfb] + pre) << (gi->scalefac_scale + 1))
                      - gi->subblock_gain[gi->window[sfb]] * 8;
        steps[sfb] = s;
        start[sfb] = j;
        j += gi->width[sfb];
        todo |= (uint64_t) (prev == NULL || prev->step[sfb] != s) << sfb;
    }
    sq[SQ_ZERO] = 0;
    /* A band starting above count1 quantizes to zeros at every step, so
     * its noise is its lines squared: the same lines every time (the start
     * and length of a band depend on the widths and max_nonzero_coeff
     * alone; past max_nonzero_coeff the length is 0), summed once per
     * search. */
    for (uint64_t left = todo; left; left &= left - 1) {
        int const sfb = __builtin_ctzll(left);
        int const line = start[sfb];
        int const quiet = line > gi->count1;
        int l = gi->width[sfb] >> 1;

        if (line + gi->width[sfb] > gi->max_nonzero_coeff) {
            int const useful = gi->max_nonzero_coeff - line + 1;
            l = useful > 0 ? useful >> 1 : 0;
        }
        if (quiet && prev != NULL && prev->quiet[sfb] >= 0) {
            band[sfb] = prev->quiet[sfb];
            continue;
        }
        dsp->noise_lines(gi->xr + line, gi->l3_enc + line, 2 * l,
                         quiet ? 0.0f : rl_pow20[steps[sfb] + RL_Q_MAX2], sq + line);
        sum_sfb[nsum] = sfb;
        sum_first[nsum] = line;
        sum_len[nsum] = 2 * l;
        nsum++;
    }
    {
        float sums[RL_SFBMAX];
        ordered_sums(sq, sum_first, sum_len, nsum, sums);
        for (int k = 0; k < nsum; k++) {
            int const sfb = sum_sfb[k];
            band[sfb] = sums[k];
            if (prev != NULL && start[sfb] > gi->count1)
                prev->quiet[sfb] = sums[k];
        }
    }
    while (todo) {
        int const sfb = __builtin_ctzll(todo);
        float const r_l3_xmin = prev != NULL ? prev->r_xmin[sfb] : 1.f / l3_xmin[sfb];
        float const distort_ = r_l3_xmin * band[sfb];

        todo &= todo - 1;
        dist[sfb] = distort_;
        if (prev != NULL)
            prev->step[sfb] = steps[sfb];
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
