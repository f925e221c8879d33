/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: psychoacoustic model constants and initial state (psymodel_init).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fast_log.h"
#include "fft.h"
#include "psy.h"
#include "psy_spread.h"
#include "rl_encoder_const.h"

#define PI_D        3.14159265358979323846
#define LN10_D      2.30258509299404568402
#define DELBARK     .34            /* partition width in bark */
#define TEMPORAL_SUSTAIN_SEC  0.01

/* Spreading function in energy units; float/double mix as in LAME. */
static float s3_func(float bark)
{
    float tempx = bark, x, tempy, temp;
    if (tempx >= 0)
        tempx *= 3;
    else
        tempx *= 1.5;
    if (tempx >= 0.5 && tempx <= 2.5) {
        temp = tempx - 0.5;
        x = 8.0 * (temp * temp - 2.0 * temp);
    } else {
        x = 0.0;
    }
    tempx += 0.474;
    tempy = 15.811389 + 7.5 * tempx - 17.5 * sqrt(1.0 + tempx * tempx);
    if (tempy <= -60.0)
        return 0.0;
    tempx = exp((x + tempy) * (LN10_D / 10));
    tempx /= .6609193;            /* normalisation: integral over bark = 1 */
    return tempx;
}

/* Stereo demasking level for frequency f (Hz). */
static float stereo_demask(double f)
{
    double arg = rl_freq2bark(f);
    arg = (arg < 15.5 ? arg : 15.5) / 15.5;
    return pow(10.0, 1.25 * (1 - cos(PI_D * arg)) - 2.5);
}

/* Partition layout for one FFT size and its mapping onto sfb bands. */
static void init_partitions(RlPsyBands *gd, float sfreq, int fft_size, int mdct_size,
                            int sbmax, const int *scalepos)
{
    float b_frq[RL_CBANDS + 1];
    float const mdct_freq_frac = sfreq / (2.0f * mdct_size);
    float const deltafreq = fft_size / (2.0f * mdct_size);
    int partition[RL_HBLKSIZE] = { 0 };
    int i, j = 0, ni = 0;

    sfreq /= fft_size;
    for (i = 0; i < RL_CBANDS; i++) {
        float const bark1 = rl_freq2bark(sfreq * j);
        int j2;
        b_frq[i] = sfreq * j;
        for (j2 = j; rl_freq2bark(sfreq * j2) - bark1 < DELBARK && j2 <= fft_size / 2; j2++)
            ;
        int const nl = j2 - j;
        gd->numlines[i] = nl;
        gd->rnumlines[i] = (nl > 0) ? (1.0f / nl) : 0;
        ni = i + 1;
        while (j < j2)
            partition[j++] = i;
        if (j > fft_size / 2) {
            j = fft_size / 2;
            ++i;
            break;
        }
    }
    b_frq[i] = sfreq * j;
    gd->n_sb = sbmax;
    gd->npart = ni;

    j = 0;
    for (i = 0; i < gd->npart; i++) {
        int const nl = gd->numlines[i];
        float const freq = sfreq * (j + nl / 2);
        gd->mld_cb[i] = stereo_demask(freq);
        j += nl;
    }
    for (; i < RL_CBANDS; ++i)
        gd->mld_cb[i] = 1;

    for (int sfb = 0; sfb < sbmax; sfb++) {
        int const start = scalepos[sfb];
        int const end = scalepos[sfb + 1];
        int i1 = floor(.5 + deltafreq * (start - .5));
        if (i1 < 0)
            i1 = 0;
        int i2 = floor(.5 + deltafreq * (end - .5));
        if (i2 > fft_size / 2)
            i2 = fft_size / 2;
        int const bo = partition[i2];
        gd->bm[sfb] = (partition[i1] + partition[i2]) / 2;
        gd->bo[sfb] = bo;
        /* share of partition bo that belongs to this sfb */
        float const f_tmp = mdct_freq_frac * end;
        float bo_w = (f_tmp - b_frq[bo]) / (b_frq[bo + 1] - b_frq[bo]);
        if (bo_w < 0)
            bo_w = 0;
        else if (bo_w > 1)
            bo_w = 1;
        gd->bo_weight[sfb] = bo_w;
        gd->mld[sfb] = stereo_demask(mdct_freq_frac * start);
    }
}

static void bark_values(const RlPsyBands *gd, float sfreq, int fft_size, float *bval,
                        float *bval_width)
{
    int j = 0;
    sfreq /= fft_size;
    for (int k = 0; k < gd->npart; k++) {
        int const w = gd->numlines[k];
        float bark1 = rl_freq2bark(sfreq * (j));
        float bark2 = rl_freq2bark(sfreq * (j + w - 1));
        bval[k] = .5 * (bark1 + bark2);
        bark1 = rl_freq2bark(sfreq * (j - .5));
        bark2 = rl_freq2bark(sfreq * (j + w - .5));
        bval_width[k] = bark2 - bark1;
        j += w;
    }
}

/* Spreading matrix, stored as the nonzero run of each row. */
static int init_s3(RlPsyBands *gd, const float *bval, const float *bval_width,
                   const float *norm)
{
    float (*s3)[RL_CBANDS] = calloc(RL_CBANDS, sizeof *s3);   /* zeroed scratch */
    int const npart = gd->npart;
    int nonzero = 0;

    if (!s3)
        return -ENOMEM;
    for (int i = 0; i < npart; i++)
        for (int j = 0; j < npart; j++) {
            float const v = s3_func(bval[i] - bval[j]) * bval_width[j];
            s3[i][j] = v * norm[i];
        }
    for (int i = 0; i < npart; i++) {
        int j;
        for (j = 0; j < npart; j++)
            if (s3[i][j] > 0.0f)
                break;
        gd->s3ind[i][0] = j;
        for (j = npart - 1; j > 0; j--)
            if (s3[i][j] > 0.0f)
                break;
        gd->s3ind[i][1] = j;
        nonzero += gd->s3ind[i][1] - gd->s3ind[i][0] + 1;
    }
    gd->s3 = calloc((size_t)nonzero, sizeof(float));
    if (!gd->s3) {
        free(s3);
        return -ENOMEM;
    }
    int k = 0;
    for (int i = 0; i < npart; i++)
        for (int j = gd->s3ind[i][0]; j <= gd->s3ind[i][1]; j++)
            gd->s3[k++] = s3[i][j];
    free(s3);
    return 0;
}

/* Minimum ATH (FFT units, times numlines) over each partition. */
static void ath_partitions(const RlConfig *cfg, const RlPsyBands *gd, int blksize, float *cb)
{
    float const sfreq = cfg->samplerate_out;
    int j = 0;
    for (int i = 0; i < gd->npart; i++) {
        double x = FLT_MAX;
        for (int k = 0; k < gd->numlines[i]; k++, j++) {
            float const freq = sfreq * j / (1000.0 * blksize);
            float level = rl_ath_formula(cfg, freq * 1000) - 20;
            level = pow(10., 0.1 * level);
            level *= gd->numlines[i];
            if (x > level)
                x = level;
        }
        cb[i] = x;
    }
}

void rl_psy_free(RlEncoderConst *k)
{
    free(k->psyc.l.s3);
    free(k->psyc.s.s3);
    k->psyc.l.s3 = NULL;
    k->psyc.s.s3 = NULL;
    k->psyc.l_to_s.s3 = NULL;
    rl_psy_spread_plan_free(&k->psyc.l);
    rl_psy_spread_plan_free(&k->psyc.s);
    k->psyc.l_to_s.plan = NULL;
}

int rl_psy_init(RlEncoderConst *k, RlPsyState *psv)
{
    RlConfig *const cfg = &k->cfg;
    RlPsyConst *const gd = &k->psyc;
    RlAth *const ath = &k->ath;
    float bval[RL_CBANDS], bval_width[RL_CBANDS], norm[RL_CBANDS];
    float const sfreq = cfg->samplerate_out;
    float const bvl_a = 13, bvl_b = 24;
    float const snr_l_a = 0, snr_l_b = 0;
    float const snr_s_a = -8.25, snr_s_b = -4.5;
    float const xav = 10, xbv = 12;
    float const minval_low = (0.f - cfg->minval);
    int rc;

    rl_fast_log_init();
    memset(gd, 0, sizeof *gd);
    memset(psv, 0, sizeof *psv);
    memset(ath, 0, sizeof *ath);
    memset(norm, 0, sizeof norm);

    gd->force_short_block_calc = cfg->force_short_block_calc;   /* LAME experimentalZ */

    /* initial state: psymodel_init's values (nothing is carried yet) */
    psv->blocktype_old[0] = psv->blocktype_old[1] = RL_NORM_TYPE;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < RL_CBANDS; ++j) {
            psv->nb_l1[i][j] = 1e20;
            psv->nb_l2[i][j] = 1e20;
        }
        for (int sb = 0; sb < RL_SBMAX_L; sb++) {
            psv->en[i].l[sb] = 1e20;
            psv->thm[i].l[sb] = 1e20;
        }
        for (int j = 0; j < 3; ++j)
            for (int sb = 0; sb < RL_SBMAX_S; sb++) {
                psv->en[i].s[sb][j] = 1e20;
                psv->thm[i].s[sb][j] = 1e20;
            }
        psv->last_attacks[i] = 0;
        for (int j = 0; j < 9; j++)
            psv->last_en_subshort[i][j] = 10.;
    }
    psv->loudness_sq_save[0] = psv->loudness_sq_save[1] = 0.0;
    psv->masking_lower = 1;          /* LAME lame_init_params; VBR sets it per frame after */
    for (int i = 0; i < 19; i++)
        psv->pefirbuf[i] = 700 * cfg->mode_gr * cfg->channels_out;

    /* long blocks: partitions, spreading, ATH, minval */
    init_partitions(&gd->l, sfreq, RL_BLKSIZE, 576, RL_SBMAX_L, cfg->sfb.l);
    bark_values(&gd->l, sfreq, RL_BLKSIZE, bval, bval_width);
    for (int i = 0; i < gd->l.npart; i++) {
        double snr = snr_l_a;
        if (bval[i] >= bvl_a)
            snr = snr_l_b * (bval[i] - bvl_a) / (bvl_b - bvl_a)
                + snr_l_a * (bvl_b - bval[i]) / (bvl_b - bvl_a);
        norm[i] = pow(10.0, snr / 10.0);
    }
    rc = init_s3(&gd->l, bval, bval_width, norm);
    if (rc)
        return rc;
    ath_partitions(cfg, &gd->l, RL_BLKSIZE, ath->cb_l);
    for (int i = 0; i < gd->l.npart; i++) {
        double x = 20.0 * (bval[i] / xav - 1.0);
        if (x > 6)
            x = 30;
        if (x < minval_low)
            x = minval_low;
        if (cfg->samplerate_out < 44000)
            x = 30;
        x -= 8.;
        gd->l.minval[i] = pow(10.0, x / 10.) * gd->l.numlines[i];
    }

    /* short blocks */
    init_partitions(&gd->s, sfreq, RL_BLKSIZE_S, 192, RL_SBMAX_S, cfg->sfb.s);
    bark_values(&gd->s, sfreq, RL_BLKSIZE_S, bval, bval_width);
    for (int i = 0; i < gd->s.npart; i++) {
        double snr = snr_s_a;
        if (bval[i] >= bvl_a)
            snr = snr_s_b * (bval[i] - bvl_a) / (bvl_b - bvl_a)
                + snr_s_a * (bvl_b - bval[i]) / (bvl_b - bvl_a);
        norm[i] = pow(10.0, snr / 10.0);
    }
    ath_partitions(cfg, &gd->s, RL_BLKSIZE_S, ath->cb_s);
    for (int i = 0; i < gd->s.npart; i++) {
        double x = 7.0 * (bval[i] / xbv - 1.0);
        if (bval[i] > xbv)
            x *= 1 + log(1 + x) * 3.1;
        if (bval[i] < xbv)
            x *= 1 + log(1 - x) * 2.3;
        if (x > 6)
            x = 30;
        if (x < minval_low)
            x = minval_low;
        if (cfg->samplerate_out < 44000)
            x = 30;
        x -= 8;
        gd->s.minval[i] = pow(10.0, x / 10) * gd->s.numlines[i];
    }
    rc = init_s3(&gd->s, bval, bval_width, norm);
    if (rc) {
        rl_psy_free(k);
        return rc;
    }

    rl_fft_init_windows(gd->window, gd->window_s);
    gd->decay = exp(-1.0 * LN10_D / (TEMPORAL_SUSTAIN_SEC * sfreq / 192.0));

    {   /* the effective msfix that psymodel_init writes back into the
         * config is already set by rl_config_init */
        /* spread only from npart_l bands */
        for (int b = 0; b < gd->l.npart; b++)
            if (gd->l.s3ind[b][1] > gd->l.npart - 1)
                gd->l.s3ind[b][1] = gd->l.npart - 1;
    }
    rc = rl_psy_spread_plan(&gd->l);
    if (!rc)
        rc = rl_psy_spread_plan(&gd->s);
    if (rc) {
        rl_psy_free(k);
        return rc;
    }

    /* ATH auto adjustment: decrease by 12 dB per second */
    ath->decay = pow(10., -12. / 10. * (576. * cfg->mode_gr / sfreq));
    psv->ath_adjust_factor = 0.01;   /* minimum, for leading low loudness */
    psv->ath_adjust_limit = 1.0;
    ath->use_adjust = cfg->ath_use_adjust;               /* resolved by settings (-1 -> 3) */
    ath->aa_sensitivity_p = cfg->ath_aa_sensitivity_p;

    if (cfg->ath_type != -1) {       /* equal loudness weights */
        float freq = 0.0;
        float const freq_inc = (float)cfg->samplerate_out / (float)RL_BLKSIZE;
        float eql_balance = 0.0;
        for (int i = 0; i < RL_BLKSIZE / 2; ++i) {
            freq += freq_inc;
            ath->eql_w[i] = 1. / pow(10, rl_ath_formula(cfg, freq) / 10);
            eql_balance += ath->eql_w[i];
        }
        eql_balance = 1.0 / eql_balance;
        for (int i = RL_BLKSIZE / 2; --i >= 0;)
            ath->eql_w[i] *= eql_balance;
    }

    /* short block attack thresholds (VBR presets set st_lrm/st_s; the
     * defaults for unset ones are resolved by rl_config_init) */
    gd->attack_threshold[0] = gd->attack_threshold[1] = gd->attack_threshold[2] =
        cfg->attack_threshold_lrm;
    gd->attack_threshold[3] = cfg->attack_threshold_s;

    {   /* masking lowering per partition, from the VBR quality */
        static const float sk[] = { -7.4, -7.4, -7.4, -9.5, -7.4, -6.1, -5.5, -4.7, -4.7, -4.7, -4.7 };
        float sk_s, sk_l;
        int const q = cfg->vbr_q;
        float const q_frac = cfg->vbr_q_frac;           /* LAME VBR_q_frac */
        if (q < 4)
            sk_l = sk_s = sk[0];
        else
            sk_l = sk_s = sk[q] + q_frac * (sk[q] - sk[q + 1]);
        int b;
        for (b = 0; b < gd->s.npart; b++) {
            float const m = (float)(gd->s.npart - b) / gd->s.npart;
            gd->s.masking_lower[b] = powf(10.f, sk_s * m * 0.1f);
        }
        for (; b < RL_CBANDS; ++b)
            gd->s.masking_lower[b] = 1.f;
        for (b = 0; b < gd->l.npart; b++) {
            float const m = (float)(gd->l.npart - b) / gd->l.npart;
            gd->l.masking_lower[b] = powf(10.f, sk_l * m * 0.1f);
        }
        for (; b < RL_CBANDS; ++b)
            gd->l.masking_lower[b] = 1.f;
    }
    gd->l_to_s = gd->l;
    gd->l_to_s.s3 = NULL;            /* not used; l owns the array */
    gd->l_to_s.plan = NULL;
    init_partitions(&gd->l_to_s, sfreq, RL_BLKSIZE, 192, RL_SBMAX_S, cfg->sfb.s);

    rl_ath_compute(cfg, ath);        /* LAME compute_ath (iteration_init) */
    return 0;
}
