/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the scalar psy spreading (psy_spread.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "psy_spread.h"

#include <errno.h>
#include <stdlib.h>

#include "fast_log.h"

const float rl_psy_tonality_tab[9] = {
    1.0, 0.79433, 0.63096, 0.63096, 0.63096, 0.63096, 0.63096, 0.25119, 0.11749
};
const int rl_psy_ma_delta_tab[9] = { 2, 2, 2, 1, 1, 1, 0, 0, -1 };
const float rl_psy_ma_table2[10] = {
    1.33352 * 1.33352, 1.35879 * 1.35879, 1.38454 * 1.38454, 1.39497 * 1.39497,
    1.40548 * 1.40548, 1.3537 * 1.3537, 1.30382 * 1.30382, 1.22321 * 1.22321,
    1.14758 * 1.14758,
    1
};
const float rl_psy_ma_max_i1 = 3.6517412725483771;
const float rl_psy_ma_max_i2 = 31.622776601683793;

/* Additive combination of two maskers (N. Shibata). */
static float mask_add(float m1, float m2, int b, int delta)
{
    float ratio;
    if (m1 < 0)
        m1 = 0;
    if (m2 < 0)
        m2 = 0;
    if (m1 <= 0)
        return m2;
    if (m2 <= 0)
        return m1;
    ratio = (m2 > m1) ? m2 / m1 : m1 / m2;
    if (abs(b) <= delta) {       /* within about 1 bark */
        if (ratio >= rl_psy_ma_max_i1)
            return m1 + m2;
        int const i = (int)(RL_FAST_LOG10_X(ratio, 16.0f));
        return (m1 + m2) * rl_psy_ma_table2[i];
    }
    if (ratio < rl_psy_ma_max_i2)
        return m1 + m2;
    return m1 < m2 ? m2 : m1;
}

void rl_psy_spread(const RlPsyBands *gd, const float *eb, const float *max,
                   const unsigned char *idx, float *ecb_out, float *cap)
{
    const float *const tonality_tab = rl_psy_tonality_tab;
    int k = 0;
    for (int b = 0; b < gd->npart; b++) {
        int kk = gd->s3ind[b][0];
        int const last = gd->s3ind[b][1];
        int const delta = rl_psy_ma_delta_tab[idx[b]];
        int dd = idx[kk], dd_n = 1;
        float ecb = gd->s3[k] * eb[kk] * tonality_tab[idx[kk]];
        ++k, ++kk;
        while (kk <= last) {
            dd += idx[kk];
            dd_n += 1;
            float const x = gd->s3[k] * eb[kk] * tonality_tab[idx[kk]];
            ecb = mask_add(ecb, x, kk - b, delta);
            ++k, ++kk;
        }
        dd = (1 + 2 * dd) / (2 * dd_n);
        float const avg_mask = tonality_tab[dd] * 0.5f;
        ecb *= avg_mask;
        ecb_out[b] = ecb;
        float x = max[b];
        x *= gd->minval[b];
        x *= avg_mask;
        cap[b] = x;
    }
}

int rl_psy_spread_plan(RlPsyBands *gd)
{
    int const n = gd->npart, L = RL_SPREAD_LANES;
    int kst[RL_CBANDS + 1];
    int total = 0;
    RlSpreadPlan *p;

    gd->plan = NULL;
    kst[0] = 0;
    for (int b = 0; b < n; b++) {
        int const st = gd->s3ind[b][1] - gd->s3ind[b][0];
        kst[b + 1] = kst[b] + 1 + (st > 0 ? st : 0);
    }
    p = calloc(1, sizeof *p);
    if (!p)
        return -ENOMEM;
    p->ngroups = (n + L - 1) / L;
    for (int g = 0; g < p->ngroups; g++) {
        RlSpreadGroup *const q = &p->g[g];
        q->first = gd->s3ind[g * L][0];
        q->s3t = total;
        for (int l = 0; l < L; l++) {
            int const b = g * L + l;
            if (b >= n)
                continue;                /* steps 0, lane_first 0: reads in bounds, never kept */
            int const f0 = gd->s3ind[b][0], st = gd->s3ind[b][1] - f0;
            q->steps[l] = st > 0 ? st : 0;
            q->lane_first[l] = f0 - q->first;
            q->rel[l] = f0 - b;
            if (q->lane_first[l] < 0 || q->lane_first[l] > 31) {
                free(p);                 /* this layout needs the general kernel */
                return 0;
            }
            if (q->gmax < q->steps[l])
                q->gmax = q->steps[l];
        }
        total += (q->gmax + 1) * L;
    }
    p->s3t = calloc((size_t) total, sizeof(float));
    if (!p->s3t) {
        free(p);
        return -ENOMEM;
    }
    for (int g = 0; g < p->ngroups; g++) {
        const RlSpreadGroup *const q = &p->g[g];
        for (int l = 0; l < L && g * L + l < n; l++)
            for (int j = 0; j <= q->steps[l]; j++)
                p->s3t[q->s3t + j * L + l] = gd->s3[kst[g * L + l] + j];
    }
    gd->plan = p;
    return 0;
}

void rl_psy_spread_plan_free(RlPsyBands *gd)
{
    if (gd->plan)
        free(gd->plan->s3t);
    free(gd->plan);
    gd->plan = NULL;
}
