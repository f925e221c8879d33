/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the serial half of the psychoacoustic model (attack decisions,
 * block types, pre-echo limits, M/S thresholds, sfb mapping, PE) and the
 * psy glue of lame_encode_mp3_frame (ms_ener_ratio, adjust_ATH, M/S choice).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <string.h>

#include "fast_log.h"
#include "psy.h"
#include "psy_internal.h"
#include "rl_encoder_const.h"
#include "rl_frame.h"

#define RPELEV   2
#define RPELEV2  16
#define NS_PREECHO_ATT0 0.8   /* double on purpose: LAME's macros are double */
#define NS_PREECHO_ATT1 0.6
#define NS_PREECHO_ATT2 0.3

/* was pow(x,r)*pow(y,1-r) */
static float ns_interp(float x, float y, float r)
{
    if (r >= 1.0f)
        return x;
    if (r <= 0.0f)
        return y;
    if (y > 0.0f)
        return powf(x / y, r) * y;
    return 0.0f;
}

static float pe_short(const RlPsyRatio *mr, float masking_lower)
{
    static const float regcoef_s[] = {
        11.8, 13.6, 17.2, 32, 46.5, 51.3, 57.5, 67.1, 71.5, 84.6, 97.6, 130
    };
    float pe_s = 1236.28f / 4;
    for (unsigned sb = 0; sb < RL_SBMAX_S - 1; sb++)
        for (unsigned sblock = 0; sblock < 3; sblock++) {
            float const thm = mr->thm.s[sb][sblock];
            if (thm > 0.0f) {
                float const x = thm * masking_lower;
                float const en = mr->en.s[sb][sblock];
                if (en > x) {
                    if (en > x * 1e10f)
                        pe_s += regcoef_s[sb] * (10.0f * RL_LOG10);
                    else
                        pe_s += regcoef_s[sb] * RL_FAST_LOG10(en / x);
                }
            }
        }
    return pe_s;
}

static float pe_long(const RlPsyRatio *mr, float masking_lower)
{
    static const float regcoef_l[] = {
        6.8, 5.8, 5.8, 6.4, 6.5, 9.9, 12.1, 14.4, 15, 18.9, 21.6,
        26.9, 34.2, 40.2, 46.8, 56.5, 60.7, 73.9, 85.7, 93.4, 126.1
    };
    float pe_l = 1124.23f / 4;
    for (unsigned sb = 0; sb < RL_SBMAX_L - 1; sb++) {
        float const thm = mr->thm.l[sb];
        if (thm > 0.0f) {
            float const x = thm * masking_lower;
            float const en = mr->en.l[sb];
            if (en > x) {
                if (en > x * 1e10f)
                    pe_l += regcoef_l[sb] * (10.0f * RL_LOG10);
                else
                    pe_l += regcoef_l[sb] * RL_FAST_LOG10(en / x);
            }
        }
    }
    return pe_l;
}

/* Partition values -> scalefactor bands; the partition straddling a band
 * edge is split by bo_weight. */
static void partition_to_sfb(const RlPsyBands *gd, const float *eb, const float *thr,
                             float *enn_out, float *thm_out)
{
    float enn = 0.0f, thmm = 0.0f;
    int sb, b;
    int const n = gd->n_sb;
    int const npart = gd->npart;
    for (sb = b = 0; sb < n; ++b, ++sb) {
        int const bo_sb = gd->bo[sb];
        int const b_lim = bo_sb < npart ? bo_sb : npart;
        while (b < b_lim) {
            enn += eb[b];
            thmm += thr[b];
            b++;
        }
        if (b >= npart) {
            enn_out[sb] = enn;
            thm_out[sb] = thmm;
            ++sb;
            break;
        }
        float const w_curr = gd->bo_weight[sb];
        float const w_next = 1.0f - w_curr;
        enn += w_curr * eb[b];
        thmm += w_curr * thr[b];
        enn_out[sb] = enn;
        thm_out[sb] = thmm;
        enn = w_next * eb[b];
        thmm = w_next * thr[b];
    }
    for (; sb < n; ++sb) {
        enn_out[sb] = 0;
        thm_out[sb] = 0;
    }
}

/* M/S thresholds (Johnston & Ferreira), msfix by N. Shibata: the scalar
 * kernel of RlDsp.ms_thresholds (psy.h). */
void rl_ms_thresholds(const float eb[4][RL_CBANDS], float thr[4][RL_CBANDS],
                          const float *cb_mld, const float *ath_cb, float athlower, float msfix,
                          int n)
{
    float const msfix2 = msfix * 2.f;
    for (int b = 0; b < n; ++b) {
        float const ebM = eb[2][b];
        float const ebS = eb[3][b];
        float const thmL = thr[0][b];
        float const thmR = thr[1][b];
        float thmM = thr[2][b];
        float thmS = thr[3][b];
        float rmid, rside;
        if (thmL <= 1.58f * thmR && thmR <= 1.58f * thmL) {   /* L, R within 2 dB */
            float const mld_m = cb_mld[b] * ebS;
            float const mld_s = cb_mld[b] * ebM;
            float const tmp_m = thmS < mld_m ? thmS : mld_m;
            float const tmp_s = thmM < mld_s ? thmM : mld_s;
            rmid = thmM > tmp_m ? thmM : tmp_m;
            rside = thmS > tmp_s ? thmS : tmp_s;
        } else {
            rmid = thmM;
            rside = thmS;
        }
        if (msfix > 0.f) {
            float const ath = ath_cb[b] * athlower;
            float const tmp_l = thmL > ath ? thmL : ath;
            float const tmp_r = thmR > ath ? thmR : ath;
            float const thmLR = tmp_l < tmp_r ? tmp_l : tmp_r;
            thmM = rmid > ath ? rmid : ath;
            thmS = rside > ath ? rside : ath;
            float const thmMS = thmM + thmS;
            if (thmMS > 0.f && (thmLR * msfix2) < thmMS) {
                float const f = thmLR * msfix2 / thmMS;
                thmM *= f;
                thmS *= f;
            }
            rmid = thmM < rmid ? thmM : rmid;
            rside = thmS < rside ? thmS : rside;
        }
        if (rmid > ebM)
            rmid = ebM;
        if (rside > ebS)
            rside = ebS;
        thr[2][b] = rmid;
        thr[3][b] = rside;
    }
}

/* Attack detection from the Prepare peaks and the carried sub-block
 * energies; also hands out the previous granule's masks (one-granule delay). */
static void attack_decisions(const RlEncoderConst *k, RlPsyState *psv, RlFrame *f, int gr, float energy[4],
                             float sub_short_factor[4][3], int ns_attacks[4][4],
                             int uselongblock[2])
{
    const RlConfig *const cfg = &k->cfg;
    int const nch = cfg->channels_out;
    int const npsy = rl_psy_channels(cfg);

    for (int ch = 0; ch < nch; ch++) {
        f->ratio[gr][ch].en = psv->en[ch];
        f->ratio[gr][ch].thm = psv->thm[ch];
        if (npsy > 2) {
            f->ratio_ms[gr][ch].en = psv->en[ch + 2];
            f->ratio_ms[gr][ch].thm = psv->thm[ch + 2];
        }
    }
    for (int chn = 0; chn < npsy; chn++) {
        const float *const peaks = f->prep.peaks[gr][chn];
        float attack_intensity[12];
        float en_subshort[12];
        float en_short[4] = { 0, 0, 0, 0 };
        int use_long = 1;

        for (int i = 0; i < 3; i++) {
            en_subshort[i] = psv->last_en_subshort[chn][i + 6];
            attack_intensity[i] = en_subshort[i] / psv->last_en_subshort[chn][i + 4];
            en_short[0] += en_subshort[i];
        }
        for (int i = 0; i < 9; i++) {
            float p = peaks[i];
            psv->last_en_subshort[chn][i] = en_subshort[i + 3] = p;
            en_short[1 + i / 3] += p;
            if (p > en_subshort[i + 3 - 2])
                p = p / en_subshort[i + 3 - 2];
            else if (en_subshort[i + 3 - 2] > p * 10.0f)
                p = en_subshort[i + 3 - 2] / (p * 10.0f);
            else
                p = 0.0;
            attack_intensity[i + 3] = p;
        }
        /* pulse-like signals (fatboy.wav) */
        for (int i = 0; i < 3; ++i) {
            float const enn = en_subshort[i * 3 + 3] + en_subshort[i * 3 + 4] + en_subshort[i * 3 + 5];
            float factor = 1.f;
            if (en_subshort[i * 3 + 5] * 6 < enn) {
                factor *= 0.5f;
                if (en_subshort[i * 3 + 4] * 6 < enn)
                    factor *= 0.5f;
            }
            sub_short_factor[chn][i] = factor;
        }
        {
            float const x = k->psyc.attack_threshold[chn];
            for (int i = 0; i < 12; i++)
                if (ns_attacks[chn][i / 3] == 0 && attack_intensity[i] > x)
                    ns_attacks[chn][i / 3] = (i % 3) + 1;
        }
        /* need an energy change between short blocks (periodic signals) */
        for (int i = 1; i < 4; i++) {
            float const u = en_short[i - 1];
            float const v = en_short[i];
            float const m = u > v ? u : v;
            if (m < 40000 && u < 1.7f * v && v < 1.7f * u) {
                if (i == 1 && ns_attacks[chn][0] <= ns_attacks[chn][i])
                    ns_attacks[chn][0] = 0;
                ns_attacks[chn][i] = 0;
            }
        }
        if (ns_attacks[chn][0] <= psv->last_attacks[chn])
            ns_attacks[chn][0] = 0;
        if (psv->last_attacks[chn] == 3 ||
            ns_attacks[chn][0] + ns_attacks[chn][1] + ns_attacks[chn][2] + ns_attacks[chn][3]) {
            use_long = 0;
            if (ns_attacks[chn][1] && ns_attacks[chn][0])
                ns_attacks[chn][1] = 0;
            if (ns_attacks[chn][2] && ns_attacks[chn][1])
                ns_attacks[chn][2] = 0;
            if (ns_attacks[chn][3] && ns_attacks[chn][2])
                ns_attacks[chn][3] = 0;
        }
        if (chn < 2)
            uselongblock[chn] = use_long;
        else if (use_long == 0)
            uselongblock[0] = uselongblock[1] = 0;
        energy[chn] = psv->tot_ener[chn];   /* previous granule's (delay) */
    }
}

static void block_type_policy(const RlConfig *cfg, int uselongblock[2])
{
    if (cfg->short_blocks == RL_SB_COUPLED && !(uselongblock[0] && uselongblock[1]))
        uselongblock[0] = uselongblock[1] = 0;
    for (int ch = 0; ch < cfg->channels_out; ch++) {
        if (cfg->short_blocks == RL_SB_DISPENSED)
            uselongblock[ch] = 1;
        if (cfg->short_blocks == RL_SB_FORCED)
            uselongblock[ch] = 0;
    }
}

/* Final block type of the previous granule, now that this one is known. */
static void apply_block_type(RlPsyState *psv, int nch, const int uselongblock[2],
                             int blocktype_d[2])
{
    for (int ch = 0; ch < nch; ch++) {
        int bt = RL_NORM_TYPE;
        if (uselongblock[ch]) {
            if (psv->blocktype_old[ch] == RL_SHORT_TYPE)
                bt = RL_STOP_TYPE;
        } else {
            bt = RL_SHORT_TYPE;
            if (psv->blocktype_old[ch] == RL_NORM_TYPE)
                psv->blocktype_old[ch] = RL_START_TYPE;
            if (psv->blocktype_old[ch] == RL_STOP_TYPE)
                psv->blocktype_old[ch] = RL_SHORT_TYPE;
        }
        blocktype_d[ch] = psv->blocktype_old[ch];
        psv->blocktype_old[ch] = bt;
    }
}

/* Long-block threshold: pre-echo limit against the carried nb_l1/nb_l2,
 * tonal cap, masking_lower.  Updates nb_l1/nb_l2. */
static void long_threshold(const RlEncoderConst *k, RlPsyState *psv, const RlPsyPrepLong *pl, int chn, float *eb, float *thr)
{
    const RlPsyBands *const gdl = &k->psyc.l;
    int const bt_old = psv->blocktype_old[chn & 1];
    int b;
    for (b = 0; b < gdl->npart; b++) {
        float const ecb = pl->ecb[b];
        float const masking_lower = gdl->masking_lower[b] * psv->masking_lower;
        float t;
        eb[b] = pl->eb[b];
        if (bt_old == RL_SHORT_TYPE) {
            float const ecb_limit = RPELEV * psv->nb_l1[chn][b];
            if (ecb_limit > 0) {
                t = ecb < ecb_limit ? ecb : ecb_limit;
            } else {
                double const lim = eb[b] * NS_PREECHO_ATT2;   /* double compare as in LAME */
                t = ecb < lim ? ecb : (float)lim;
            }
        } else {
            float ecb_limit_2 = RPELEV2 * psv->nb_l2[chn][b];
            float ecb_limit_1 = RPELEV * psv->nb_l1[chn][b];
            float ecb_limit;
            if (ecb_limit_2 <= 0)
                ecb_limit_2 = ecb;
            if (ecb_limit_1 <= 0)
                ecb_limit_1 = ecb;
            if (bt_old == RL_NORM_TYPE)
                ecb_limit = ecb_limit_1 < ecb_limit_2 ? ecb_limit_1 : ecb_limit_2;
            else
                ecb_limit = ecb_limit_1;
            t = ecb < ecb_limit ? ecb : ecb_limit;
        }
        psv->nb_l2[chn][b] = psv->nb_l1[chn][b];
        psv->nb_l1[chn][b] = ecb;
        if (t > pl->cap[b])
            t = pl->cap[b];
        if (masking_lower > 1)
            t *= masking_lower;
        if (t > eb[b])
            t = eb[b];
        if (masking_lower < 1)
            t *= masking_lower;
        thr[b] = t;
    }
    for (; b < RL_CBANDS; ++b) {
        eb[b] = 0;
        thr[b] = 0;
    }
}

static void short_threshold(const RlEncoderConst *k, const RlPsyState *psv, const RlPsyPrepShort *ps, int sblock, float *eb,
                            float *thr)
{
    const RlPsyBands *const gds = &k->psyc.s;
    int b;
    for (b = 0; b < gds->npart; b++) {
        float const masking_lower = gds->masking_lower[b] * psv->masking_lower;
        float t = ps->thr[sblock][b];
        eb[b] = ps->eb[sblock][b];
        if (masking_lower > 1)
            t *= masking_lower;
        if (t > eb[b])
            t = eb[b];
        if (masking_lower < 1)
            t *= masking_lower;
        thr[b] = t;
    }
    for (; b < RL_CBANDS; ++b) {
        eb[b] = 0;
        thr[b] = 0;
    }
}

static void short_preecho(RlPsyState *psv, int npsy, const RlPsyXmin last_thm[4],
                          int ns_attacks[4][4], float sub_short_factor[4][3])
{
    float const pcfact = 0.6f;
    for (int chn = 0; chn < npsy; chn++) {
        for (int sb = 0; sb < RL_SBMAX_S; sb++) {
            float new_thmm[3], prev_thm, t1, t2, thmm;
            for (int sblock = 0; sblock < 3; sblock++) {
                thmm = psv->thm[chn].s[sb][sblock];
                thmm *= NS_PREECHO_ATT0;
                t1 = t2 = thmm;
                if (sblock > 0)
                    prev_thm = new_thmm[sblock - 1];
                else
                    prev_thm = last_thm[chn].s[sb][2];
                if (ns_attacks[chn][sblock] >= 2 || ns_attacks[chn][sblock + 1] == 1)
                    t1 = ns_interp(prev_thm, thmm, NS_PREECHO_ATT1 * pcfact);
                thmm = t1 < thmm ? t1 : thmm;
                if (ns_attacks[chn][sblock] == 1) {
                    t2 = ns_interp(prev_thm, thmm, NS_PREECHO_ATT2 * pcfact);
                } else if ((sblock == 0 && psv->last_attacks[chn] == 3)
                           || (sblock > 0 && ns_attacks[chn][sblock - 1] == 3)) {
                    /* second preceding block */
                    if (sblock == 0)
                        prev_thm = last_thm[chn].s[sb][1];
                    else if (sblock == 1)
                        prev_thm = last_thm[chn].s[sb][2];
                    else
                        prev_thm = new_thmm[0];
                    t2 = ns_interp(prev_thm, thmm, NS_PREECHO_ATT2 * pcfact);
                }
                thmm = t1 < thmm ? t1 : thmm;
                thmm = t2 < thmm ? t2 : thmm;
                thmm *= sub_short_factor[chn][sblock];
                new_thmm[sblock] = thmm;
            }
            for (int sblock = 0; sblock < 3; sblock++)
                psv->thm[chn].s[sb][sblock] = new_thmm[sblock];
        }
    }
}

/* One call of L3psycho_anal_vbr, minus what Prepare already did. */
static void resolve_granule(const RlEncoderConst *k, RlPsyState *psv, RlFrame *f, int gr, float energy[4], int blocktype_d[2])
{
    const RlConfig *const cfg = &k->cfg;
    const RlPsyConst *const gd = &k->psyc;
    const RlPsyPrep *const pp = &f->prep;
    int const npsy = rl_psy_channels(cfg);
    RlPsyXmin last_thm[4];
    float eb[4][RL_CBANDS], thr[4][RL_CBANDS];
    float sub_short_factor[4][3];
    int ns_attacks[4][4] = { { 0 } };
    int uselongblock[2] = { 1, 1 };
    float const ath_factor =
        (cfg->msfix > 0.f) ? (cfg->ath_offset_factor * psv->ath_adjust_factor) : 1.f;

    memcpy(last_thm, psv->thm, sizeof last_thm);
    attack_decisions(k, psv, f, gr, energy, sub_short_factor, ns_attacks, uselongblock);
    block_type_policy(cfg, uselongblock);

    /* long blocks */
    for (int chn = 0; chn < npsy; chn++) {
        psv->tot_ener[chn] = pp->tot_ener[gr][chn];
        if (chn < 2) {           /* loudness, one granule late */
            f->loudness_sq[gr][chn] = psv->loudness_sq_save[chn];
            psv->loudness_sq_save[chn] = pp->loudness[gr][chn];
        }
        long_threshold(k, psv, &pp->lng[gr][chn], chn, eb[chn], thr[chn]);
    }
    if (cfg->mode == RL_JOINT_STEREO && (uselongblock[0] + uselongblock[1]) == 2)
        k->cfg.dsp->ms_thresholds((const float (*)[RL_CBANDS])eb, thr, gd->l.mld_cb, k->ath.cb_l,
                             ath_factor, cfg->msfix, gd->l.npart);
    for (int chn = 0; chn < npsy; chn++) {
        float enn[RL_SBMAX_S], thm[RL_SBMAX_S];
        partition_to_sfb(&gd->l, eb[chn], thr[chn], psv->en[chn].l, psv->thm[chn].l);
        partition_to_sfb(&gd->l_to_s, eb[chn], thr[chn], enn, thm);
        for (int sb = 0; sb < RL_SBMAX_S; ++sb) {
            float const scale = 1. / 64.f;
            float const tmp_enn = enn[sb];
            float const tmp_thm = thm[sb] * scale;
            for (int sblock = 0; sblock < 3; ++sblock) {
                psv->en[chn].s[sb][sblock] = tmp_enn;
                psv->thm[chn].s[sb][sblock] = tmp_thm;
            }
        }
    }

    /* short blocks */
    if ((!uselongblock[0] || (npsy > 1 && !uselongblock[1]) || gd->force_short_block_calc)
        && !pp->short_done[gr])
        rl_psy_prepare_short(k, f, gr);   /* Prepare did not expect short blocks here */
    for (int sblock = 0; sblock < 3; sblock++) {
        for (int chn = 0; chn < npsy; ++chn)
            if (!uselongblock[chn & 1] || gd->force_short_block_calc)
                short_threshold(k, psv, &pp->sht[gr][chn], sblock, eb[chn], thr[chn]);
        if (cfg->mode == RL_JOINT_STEREO && (uselongblock[0] + uselongblock[1]) == 0)
            k->cfg.dsp->ms_thresholds((const float (*)[RL_CBANDS])eb, thr, gd->s.mld_cb, k->ath.cb_s,
                                 ath_factor, cfg->msfix, gd->s.npart);
        for (int chn = 0; chn < npsy; ++chn) {
            if (!uselongblock[chn & 1] || gd->force_short_block_calc) {
                float enn[RL_SBMAX_S], thm[RL_SBMAX_S];
                partition_to_sfb(&gd->s, eb[chn], thr[chn], enn, thm);
                for (int sb = 0; sb < RL_SBMAX_S; ++sb) {
                    psv->en[chn].s[sb][sblock] = enn[sb];
                    psv->thm[chn].s[sb][sblock] = thm[sb];
                }
            }
        }
    }
    short_preecho(psv, npsy, last_thm, ns_attacks, sub_short_factor);
    for (int chn = 0; chn < npsy; chn++)
        psv->last_attacks[chn] = ns_attacks[chn][2];

    apply_block_type(psv, cfg->channels_out, uselongblock, blocktype_d);

    /* PE of the delayed masks */
    for (int chn = 0; chn < npsy; chn++) {
        float *ppe;
        int type;
        const RlPsyRatio *mr;
        if (chn > 1) {
            ppe = &f->pe_ms[gr][chn - 2];
            type = RL_NORM_TYPE;
            if (blocktype_d[0] == RL_SHORT_TYPE || blocktype_d[1] == RL_SHORT_TYPE)
                type = RL_SHORT_TYPE;
            mr = &f->ratio_ms[gr][chn - 2];
        } else {
            ppe = &f->pe[gr][chn];
            type = blocktype_d[chn];
            mr = &f->ratio[gr][chn];
        }
        *ppe = (type == RL_SHORT_TYPE) ? pe_short(mr, psv->masking_lower)
                                        : pe_long(mr, psv->masking_lower);
    }
}

/* encoder.c adjust_ATH: ATH lowering from the loudness of this frame. */
static void adjust_ath(const RlEncoderConst *k, RlPsyState *psv, const RlFrame *f)
{
    const RlConfig *const cfg = &k->cfg;
    float gr2_max, max_pow;

    if (k->ath.use_adjust == 0) {
        psv->ath_adjust_factor = 1.0;
        return;
    }
    max_pow = f->loudness_sq[0][0];
    gr2_max = f->loudness_sq[1][0];
    if (cfg->channels_out == 2) {
        max_pow += f->loudness_sq[0][1];
        gr2_max += f->loudness_sq[1][1];
    } else {
        max_pow += max_pow;
        gr2_max += gr2_max;
    }
    if (cfg->mode_gr == 2)
        max_pow = max_pow > gr2_max ? max_pow : gr2_max;
    max_pow *= 0.5;
    max_pow *= k->ath.aa_sensitivity_p;

    if (max_pow > 0.03125) {
        if (psv->ath_adjust_factor >= 1.0)
            psv->ath_adjust_factor = 1.0;
        else if (psv->ath_adjust_factor < psv->ath_adjust_limit)
            psv->ath_adjust_factor = psv->ath_adjust_limit;   /* ascend only to the old limit */
        psv->ath_adjust_limit = 1.0;
    } else {
        float const adj_lim_new = 31.98 * max_pow + 0.000625;
        if (psv->ath_adjust_factor >= adj_lim_new) {           /* descend gradually */
            psv->ath_adjust_factor *= adj_lim_new * 0.075 + 0.925;
            if (psv->ath_adjust_factor < adj_lim_new)
                psv->ath_adjust_factor = adj_lim_new;
        } else {                                              /* ascend */
            if (psv->ath_adjust_limit >= adj_lim_new)
                psv->ath_adjust_factor = adj_lim_new;
            else if (psv->ath_adjust_factor < psv->ath_adjust_limit)
                psv->ath_adjust_factor = psv->ath_adjust_limit;
        }
        psv->ath_adjust_limit = adj_lim_new;
    }
}

/* The PE the quantizer gets (LAME pe_use): pe or pe_MS by mode_ext; for
 * CBR/ABR scaled so that a 19-frame FIR of the frame sums stays near 670
 * per granule and channel (encoder.c, stage 4). */
static void pe_for_quantizer(const RlEncoderConst *k, RlPsyState *psv, RlFrame *f)
{
    static const float fircoef[9] = {
        -0.0207887 * 5, -0.0378413 * 5, -0.0432472 * 5, -0.031183 * 5,
        7.79609e-18 * 5, 0.0467745 * 5, 0.10091 * 5, 0.151365 * 5,
        0.187098 * 5
    };
    const RlConfig *const cfg = &k->cfg;
    float *const buf = psv->pefirbuf;
    float fsum;

    for (int gr = 0; gr < 2; gr++)
        for (int ch = 0; ch < 2; ch++)
            f->pe_use[gr][ch] = f->mode_ext == RL_MD_MS_LR ? f->pe_ms[gr][ch] : f->pe[gr][ch];
    if (cfg->vbr != RL_VBR_OFF && cfg->vbr != RL_VBR_ABR)
        return;

    for (int i = 0; i < 18; i++)
        buf[i] = buf[i + 1];
    fsum = 0.0;
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            fsum += f->pe_use[gr][ch];
    buf[18] = fsum;

    fsum = buf[9];
    for (int i = 0; i < 9; i++)
        fsum += (buf[i] + buf[18 - i]) * fircoef[i];
    fsum = (670 * 5 * cfg->mode_gr * cfg->channels_out) / fsum;
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            f->pe_use[gr][ch] *= fsum;
}

/* sv_qnt.masking_lower for the next frame's psy.  The quantization loops
 * set it per granule and channel from the block type (CBR/ABR) or the PE
 * (vbr_rh); the last one, of the frame's last granule and channel, is what
 * the next psy call sees.  VBR-new sets 10^(mask_adjust/10) every frame. */
static void next_masking_lower(const RlEncoderConst *k, RlPsyState *psv, const RlFrame *f)
{
    const RlConfig *const cfg = &k->cfg;
    int const gr = cfg->mode_gr - 1, ch = cfg->channels_out - 1;
    int const is_short = f->side.tt[gr][ch].block_type == RL_SHORT_TYPE;
    float db;

    switch (cfg->vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        psv->masking_lower = pow(10.0, cfg->mask_adjust * 0.1);
        return;
    case RL_VBR_RH: {
        float adjust;
        if (!is_short) {
            adjust = 1.28 / (1 + exp(3.5 - f->pe_use[gr][ch] / 300.)) - 0.05;
            db = cfg->mask_adjust - adjust;
        } else {
            adjust = 2.56 / (1 + exp(3.5 - f->pe_use[gr][ch] / 300.)) - 0.14;
            db = cfg->mask_adjust_short - adjust;
        }
        break;
    }
    default:                    /* CBR, ABR */
        db = is_short ? cfg->mask_adjust_short : cfg->mask_adjust;
        break;
    }
    psv->masking_lower = pow(10.0, db * 0.1);
}

void rl_psy_resolve(const RlEncoderConst *k, RlPsyState *psv, RlFrame *f)
{
    const RlConfig *const cfg = &k->cfg;
    int const nch = cfg->channels_out;

    f->ms_ener_ratio[0] = f->ms_ener_ratio[1] = 0.5f;
    memset(f->loudness_sq, 0, sizeof f->loudness_sq);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        float energy[4] = { 0, 0, 0, 0 };
        int blocktype[2] = { RL_NORM_TYPE, RL_NORM_TYPE };
        resolve_granule(k, psv, f, gr, energy, blocktype);
        if (cfg->mode == RL_JOINT_STEREO) {
            f->ms_ener_ratio[gr] = energy[2] + energy[3];
            if (f->ms_ener_ratio[gr] > 0)
                f->ms_ener_ratio[gr] = energy[3] / f->ms_ener_ratio[gr];
        }
        for (int ch = 0; ch < nch; ch++) {
            f->block_type[gr][ch] = blocktype[ch];
            f->side.tt[gr][ch].block_type = blocktype[ch];
            f->side.tt[gr][ch].mixed_block_flag = 0;
        }
    }

    adjust_ath(k, psv, f);
    f->ath_adjust_factor = psv->ath_adjust_factor;

    /* M/S decision: no history in LAME 3.100 */
    f->mode_ext = RL_MD_LR_LR;
    if (cfg->force_ms) {
        f->mode_ext = RL_MD_MS_LR;
    } else if (cfg->mode == RL_JOINT_STEREO) {
        float sum_pe_ms = 0, sum_pe_lr = 0;
        for (int gr = 0; gr < cfg->mode_gr; gr++)
            for (int ch = 0; ch < nch; ch++) {
                sum_pe_ms += f->pe_ms[gr][ch];
                sum_pe_lr += f->pe[gr][ch];
            }
        if (sum_pe_ms <= 1.00 * sum_pe_lr) {
            const RlGranule *const g0 = f->side.tt[0];
            const RlGranule *const g1 = f->side.tt[cfg->mode_gr - 1];
            if (g0[0].block_type == g0[1].block_type && g1[0].block_type == g1[1].block_type)
                f->mode_ext = RL_MD_MS_LR;
        }
    }

    pe_for_quantizer(k, psv, f);
    next_masking_lower(k, psv, f);
}
