/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: quantizer helpers shared by the quantization loops (granule set-up,
 * xr^(3/4), M/S conversion, allowed distortion, on_pe bit targets).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <float.h>
#include <math.h>
#include <string.h>
#include "quantize_common.h"
#include "rl_frame.h"
#include "quant_tables.h"
#include "fast_log.h"

/* ---------------------------------------------------------------- athAdjust */

float rl_ath_adjust(float a, float x, float ath_floor, float ath_fixpoint)
{
    float const o = 90.30873362f;
    float const p = (ath_fixpoint < 1.f) ? 94.82444863f : ath_fixpoint;
    /* FAST_LOG10_X(x, 10): float log2 times a double constant, back to float */
    float u = (float) RL_FAST_LOG10_X(x, 10.0f);
    float const v = a * a;
    float w = 0.0f;
    u -= ath_floor;                     /* undo scaling */
    if (v > 1E-20f)
        w = (float) (1.f + RL_FAST_LOG10_X(v, 10.0f / o));
    if (w < 0)
        w = 0.f;
    u *= w;
    u += ath_floor + o - p;             /* redo scaling */
    return powf(10.f, 0.1f * u);
}

/* ---------------------------------------------------------------- init_outer_loop */

void rl_init_outer_loop(const RlConfig *cfg, RlGranule *gi)
{
    const RlSfbBands *const sb = &cfg->sfb;
    int sfb, j;

    gi->part2_3_length = 0;
    gi->big_values = 0;
    gi->count1 = 0;
    gi->global_gain = 210;
    gi->scalefac_compress = 0;
    /* block_type and mixed_block_flag come from the psy model */
    gi->table_select[0] = 0;
    gi->table_select[1] = 0;
    gi->table_select[2] = 0;
    gi->subblock_gain[0] = 0;
    gi->subblock_gain[1] = 0;
    gi->subblock_gain[2] = 0;
    gi->subblock_gain[3] = 0;
    gi->region0_count = 0;
    gi->region1_count = 0;
    gi->preflag = 0;
    gi->scalefac_scale = 0;
    gi->count1table_select = 0;
    gi->part2_length = 0;
    if (cfg->samplerate_out <= 8000) {
        gi->sfb_lmax = 17;
        gi->sfb_smin = 9;
        gi->psy_lmax = 17;
    } else {
        gi->sfb_lmax = RL_SBPSY_L;
        gi->sfb_smin = RL_SBPSY_S;
        gi->psy_lmax = cfg->sfb21_extra ? RL_SBMAX_L : RL_SBPSY_L;
    }
    gi->psymax = gi->psy_lmax;
    gi->sfbmax = gi->sfb_lmax;
    gi->sfbdivide = 11;
    for (sfb = 0; sfb < RL_SBMAX_L; sfb++) {
        gi->width[sfb] = sb->l[sfb + 1] - sb->l[sfb];
        gi->window[sfb] = 3;            /* subblock_gain[3] is always 0 */
    }
    if (gi->block_type == RL_SHORT_TYPE) {
        float ixwork[576];
        float *ix;

        gi->sfb_smin = 0;
        gi->sfb_lmax = 0;
        if (gi->mixed_block_flag) {
            gi->sfb_smin = 3;
            gi->sfb_lmax = cfg->mode_gr * 2 + 4;
        }
        if (cfg->samplerate_out <= 8000) {
            gi->psymax = gi->sfb_lmax + 3 * (9 - gi->sfb_smin);
            gi->sfbmax = gi->sfb_lmax + 3 * (9 - gi->sfb_smin);
        } else {
            gi->psymax = gi->sfb_lmax
                + 3 * ((cfg->sfb21_extra ? RL_SBMAX_S : RL_SBPSY_S) - gi->sfb_smin);
            gi->sfbmax = gi->sfb_lmax + 3 * (RL_SBPSY_S - gi->sfb_smin);
        }
        gi->sfbdivide = gi->sfbmax - 18;
        gi->psy_lmax = gi->sfb_lmax;
        /* reorder short-block lines window by window inside each sfb */
        ix = &gi->xr[sb->l[gi->sfb_lmax]];
        memcpy(ixwork, gi->xr, sizeof(ixwork));
        for (sfb = gi->sfb_smin; sfb < RL_SBMAX_S; sfb++) {
            int const start = sb->s[sfb];
            int const end = sb->s[sfb + 1];
            int window, l;
            for (window = 0; window < 3; window++)
                for (l = start; l < end; l++)
                    *ix++ = ixwork[3 * l + window];
        }
        j = gi->sfb_lmax;
        for (sfb = gi->sfb_smin; sfb < RL_SBMAX_S; sfb++) {
            gi->width[j] = gi->width[j + 1] = gi->width[j + 2] = sb->s[sfb + 1] - sb->s[sfb];
            gi->window[j] = 0;
            gi->window[j + 1] = 1;
            gi->window[j + 2] = 2;
            j += 3;
        }
    }
    gi->count1bits = 0;
    gi->sfb_partition_table = rl_nr_of_sfb_block[0][0];
    gi->slen[0] = 0;
    gi->slen[1] = 0;
    gi->slen[2] = 0;
    gi->slen[3] = 0;
    gi->max_nonzero_coeff = 575;
    memset(gi->scalefac, 0, sizeof(gi->scalefac));
}

/* ---------------------------------------------------------------- init_xrpow */

float rl_xrpow_lines(const float *xr, float *xrpow, int n, float *absmax)
{
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
        float const tmp = fabsf(xr[i]);
        if (tmp > amax)
            amax = tmp;
        xrpow[i] = (float) sqrt(tmp * sqrt(tmp));
        if (xrpow[i] > max)
            max = xrpow[i];
    }
    *absmax = amax;
    return max;
}

int rl_init_xrpow(const RlConfig *cfg, RlGranule *gi, float xrpow[576], int *pseudohalf)
{
    float sum = 0;
    int i;
    int const upper = gi->max_nonzero_coeff;

    float absmax;

    memset(&xrpow[upper], 0, (size_t) (576 - upper) * sizeof(xrpow[0]));
    /* the C core (not LAME's SSE one): runs i <= upper, double sqrt */
    gi->xrpow_max = cfg->dsp->xrpow(gi->xr, xrpow, upper + 1, &absmax);
    /* LAME sums |xr| in float, in line order, only to compare the sum with
     * 1e-20.  Adding terms >= 0 never makes a float sum smaller than any
     * term, so a line above 1e-20 decides it; only otherwise is the sum
     * needed (nearly silent granules), and it is made as LAME makes it. */
    if (absmax > (float) 1E-20) {
        sum = absmax;
    } else {
        for (i = 0; i <= upper; ++i)
            sum += fabsf(gi->xr[i]);
    }

    if (sum > (float) 1E-20) {
        if (pseudohalf != NULL) {
            int const j = (cfg->substep_shaping & 2) ? 1 : 0;
            for (i = 0; i < gi->psymax; i++)
                pseudohalf[i] = j;
        }
        return 1;
    }
    memset(&gi->l3_enc[0], 0, sizeof(int) * 576);
    return 0;
}

/* ---------------------------------------------------------------- ms_convert */

void rl_ms_convert(RlSideInfo *side, int gr)
{
    int i;
    for (i = 0; i < 576; ++i) {
        float const l = side->tt[gr][0].xr[i];
        float const r = side->tt[gr][1].xr[i];
        side->tt[gr][0].xr[i] = (l + r) * (float) (M_SQRT2 * 0.5);
        side->tt[gr][1].xr[i] = (l - r) * (float) (M_SQRT2 * 0.5);
    }
}

/* ---------------------------------------------------------------- calc_xmin */

/* LAME's Max(xmin, DBL_EPSILON): compared in double, stored as float */
static float max_dbl_eps(float xmin)
{
    return (xmin > DBL_EPSILON) ? xmin : (float) DBL_EPSILON;
}

int rl_calc_xmin(const RlEncoderConst *k, float adjust_factor, const RlPsyRatio *ratio,
                 RlGranule *gi, float *pxmin)
{
    const RlConfig *const cfg = &k->cfg;
    const RlAth *const ath = &k->ath;
    int sfb, gsfb, j = 0, ath_over = 0, i;
    const float *const xr = gi->xr;
    int max_nonzero;

    for (gsfb = 0; gsfb < gi->psy_lmax; gsfb++) {
        float en0, xmin, rh1, rh2, rh3;
        int width, l;

        xmin = rl_ath_adjust(adjust_factor, ath->l[gsfb], ath->floor, cfg->ath_fixpoint);
        xmin *= cfg->longfact[gsfb];

        width = gi->width[gsfb];
        rh1 = xmin / width;
        rh2 = (float) DBL_EPSILON;
        en0 = 0.0f;
        for (l = 0; l < width; ++l) {
            float const xa = xr[j++];
            float const x2 = xa * xa;
            en0 += x2;
            rh2 += (x2 < rh1) ? x2 : rh1;
        }
        if (en0 > xmin)
            ath_over++;

        if (en0 < xmin)
            rh3 = en0;
        else if (rh2 < xmin)
            rh3 = xmin;
        else
            rh3 = rh2;
        xmin = rh3;
        {
            float const en = ratio->en.l[gsfb];
            if (en > 1e-12f) {
                float x = en0 * ratio->thm.l[gsfb] / en;
                x *= cfg->longfact[gsfb];
                if (xmin < x)
                    xmin = x;
            }
        }
        xmin = max_dbl_eps(xmin);
        gi->energy_above_cutoff[gsfb] = (en0 > xmin + 1e-14f) ? 1 : 0;
        *pxmin++ = xmin;
    }

    /* highest non-zero line */
    max_nonzero = 0;
    for (i = 575; i > 0; --i) {
        if (fabsf(xr[i]) > 1e-12f) {
            max_nonzero = i;
            break;
        }
    }
    if (gi->block_type != RL_SHORT_TYPE) {
        max_nonzero |= 1;               /* only odd numbers */
    } else {
        max_nonzero /= 6;               /* 3 short blocks */
        max_nonzero *= 6;
        max_nonzero += 5;
    }
    if (cfg->sfb21_extra == 0 && cfg->samplerate_out < 44000) {
        int const sfb_l = (cfg->samplerate_out <= 8000) ? 17 : 21;
        int const sfb_s = (cfg->samplerate_out <= 8000) ? 9 : 12;
        int limit;
        if (gi->block_type != RL_SHORT_TYPE)
            limit = cfg->sfb.l[sfb_l] - 1;
        else
            limit = 3 * cfg->sfb.s[sfb_s] - 1;
        if (max_nonzero > limit)
            max_nonzero = limit;
    }
    gi->max_nonzero_coeff = max_nonzero;

    for (sfb = gi->sfb_smin; gsfb < gi->psymax; sfb++, gsfb += 3) {
        int width, b, l;
        float tmp_ath;

        tmp_ath = rl_ath_adjust(adjust_factor, ath->s[sfb], ath->floor, cfg->ath_fixpoint);
        tmp_ath *= cfg->shortfact[sfb];

        width = gi->width[gsfb];
        for (b = 0; b < 3; b++) {
            float en0 = 0.0f, xmin = tmp_ath;
            float rh1, rh2, rh3;

            rh1 = tmp_ath / width;
            rh2 = (float) DBL_EPSILON;
            for (l = 0; l < width; ++l) {
                float const xa = xr[j++];
                float const x2 = xa * xa;
                en0 += x2;
                rh2 += (x2 < rh1) ? x2 : rh1;
            }
            if (en0 > tmp_ath)
                ath_over++;

            if (en0 < tmp_ath)
                rh3 = en0;
            else if (rh2 < tmp_ath)
                rh3 = tmp_ath;
            else
                rh3 = rh2;
            xmin = rh3;
            {
                float const en = ratio->en.s[sfb][b];
                if (en > 1e-12f) {
                    float x = en0 * ratio->thm.s[sfb][b] / en;
                    x *= cfg->shortfact[sfb];
                    if (xmin < x)
                        xmin = x;
                }
            }
            xmin = max_dbl_eps(xmin);
            gi->energy_above_cutoff[gsfb + b] = (en0 > xmin + 1e-14f) ? 1 : 0;
            *pxmin++ = xmin;
        }
        if (cfg->use_temporal_masking_effect) {
            float const decay = k->psyc.decay;
            if (pxmin[-3] > pxmin[-3 + 1])
                pxmin[-3 + 1] += (pxmin[-3] - pxmin[-3 + 1]) * decay;
            if (pxmin[-3 + 1] > pxmin[-3 + 2])
                pxmin[-3 + 2] += (pxmin[-3 + 1] - pxmin[-3 + 2]) * decay;
        }
    }
    return ath_over;
}

/* ---------------------------------------------------------------- on_pe */

/* LAME ResvMaxBits on an explicit reservoir state (pure). */
static void resv_max_bits(const RlConfig *cfg, int resv_size, int resv_max, int mean_bits,
                          int *targ_bits, int *extra_bits, int cbr)
{
    int add_bits, targ, extra;
    int size = resv_size, max = resv_max;

    if (cbr)                    /* compensate the bits saved in granule 0 */
        size += mean_bits;
    if (cfg->substep_shaping & 1)
        max = (int) (max * 0.9);        /* int *= double in LAME */

    targ = mean_bits;
    if (size * 10 > max * 9) {  /* reservoir almost full: extra bits */
        add_bits = size - (max * 9) / 10;
        targ += add_bits;
    } else {
        add_bits = 0;
        if (!cfg->disable_reservoir && !(cfg->substep_shaping & 1))
            targ = (int) (targ - .1 * mean_bits);
    }
    /* ISO: at most 6/10 of the (unscaled) reservoir maximum */
    extra = (size < (resv_max * 6) / 10 ? size : (resv_max * 6) / 10);
    extra -= add_bits;
    if (extra < 0)
        extra = 0;
    *targ_bits = targ;
    *extra_bits = extra;
}

int rl_on_pe(const RlConfig *cfg, int resv_size, int resv_max, const float pe[][2],
             int targ_bits[2], int mean_bits, int gr, int cbr)
{
    int extra_bits = 0, tbits, bits;
    int add_bits[2] = { 0, 0 };
    int max_bits;
    int ch;

    resv_max_bits(cfg, resv_size, resv_max, mean_bits, &tbits, &extra_bits, cbr);
    max_bits = tbits + extra_bits;
    if (max_bits > RL_MAX_BITS_PER_GRANULE)
        max_bits = RL_MAX_BITS_PER_GRANULE;

    for (bits = 0, ch = 0; ch < cfg->channels_out; ++ch) {
        int const t = tbits / cfg->channels_out;
        targ_bits[ch] = t < RL_MAX_BITS_PER_CHANNEL ? t : RL_MAX_BITS_PER_CHANNEL;
        /* float product, double division, truncated to int */
        add_bits[ch] = (int) (targ_bits[ch] * pe[gr][ch] / 700.0 - targ_bits[ch]);
        if (add_bits[ch] > mean_bits * 3 / 4)
            add_bits[ch] = mean_bits * 3 / 4;
        if (add_bits[ch] < 0)
            add_bits[ch] = 0;
        if (add_bits[ch] + targ_bits[ch] > RL_MAX_BITS_PER_CHANNEL) {
            int const m = RL_MAX_BITS_PER_CHANNEL - targ_bits[ch];
            add_bits[ch] = m > 0 ? m : 0;
        }
        bits += add_bits[ch];
    }
    if (bits > extra_bits && bits > 0) {
        for (ch = 0; ch < cfg->channels_out; ++ch)
            add_bits[ch] = extra_bits * add_bits[ch] / bits;
    }
    for (ch = 0; ch < cfg->channels_out; ++ch) {
        targ_bits[ch] += add_bits[ch];
        extra_bits -= add_bits[ch];
    }
    for (bits = 0, ch = 0; ch < cfg->channels_out; ++ch)
        bits += targ_bits[ch];
    if (bits > RL_MAX_BITS_PER_GRANULE) {
        for (ch = 0; ch < cfg->channels_out; ++ch) {
            targ_bits[ch] *= RL_MAX_BITS_PER_GRANULE;
            targ_bits[ch] /= bits;
        }
    }
    return max_bits;
}

/* ---------------------------------------------------------------- reduce_side */

void rl_reduce_side(int targ_bits[2], float ms_ener_ratio, int mean_bits, int max_bits)
{
    int move_bits;
    float fac;

    /* ms_ener_ratio 0: 66/33 mid/side; 0.5: 50/50 */
    fac = (float) (.33 * (.5 - ms_ener_ratio) / .5);
    if (fac < 0)
        fac = 0;
    if (fac > .5)
        fac = .5;
    move_bits = (int) (fac * .5 * (targ_bits[0] + targ_bits[1]));
    if (move_bits > RL_MAX_BITS_PER_CHANNEL - targ_bits[0])
        move_bits = RL_MAX_BITS_PER_CHANNEL - targ_bits[0];
    if (move_bits < 0)
        move_bits = 0;

    if (targ_bits[1] >= 125) {
        /* keep at least 125 bits for the side channel */
        if (targ_bits[1] - move_bits > 125) {
            if (targ_bits[0] < mean_bits)
                targ_bits[0] += move_bits;
            targ_bits[1] -= move_bits;
        } else {
            targ_bits[0] += targ_bits[1] - 125;
            targ_bits[1] = 125;
        }
    }
    move_bits = targ_bits[0] + targ_bits[1];
    if (move_bits > max_bits) {
        targ_bits[0] = (max_bits * targ_bits[0]) / move_bits;
        targ_bits[1] = (max_bits * targ_bits[1]) / move_bits;
    }
}

void rl_loop_prepare(const RlEncoderConst *k, RlFrame *f, RlLoopInput *in)
{
    const RlConfig *const cfg = &k->cfg;
    RlSideInfo *const side = &f->side;
    const RlPsyRatio (*ratio)[2] = (f->mode_ext == RL_MD_MS_LR) ? f->ratio_ms : f->ratio;

    rl_quant_tables_init();
    rl_fast_log_init();
    memset(in->has_energy, 0, sizeof in->has_energy);
    memset(in->ath_over, 0, sizeof in->ath_over);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        if (f->mode_ext == RL_MD_MS_LR)
            rl_ms_convert(side, gr);
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *const gi = &side->tt[gr][ch];
            rl_init_outer_loop(cfg, gi);
            in->has_energy[gr][ch] = rl_init_xrpow(cfg, gi, in->xrpow[gr][ch], in->pseudohalf[gr][ch]);
            if (in->has_energy[gr][ch])
                in->ath_over[gr][ch] = rl_calc_xmin(k, f->ath_adjust_factor, &ratio[gr][ch], gi,
                                                    in->l3_xmin[gr][ch]);
        }
    }
}
