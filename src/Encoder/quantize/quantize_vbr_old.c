/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the old VBR rate control (LAME vbr_rh, --vbr-old:
 * VBR_old_iteration_loop).  Each granule's bit bounds come from the
 * reservoir, and its outer loops from the previous granule's step search,
 * so the loops run serially in Encode; Search does the reservoir-free part
 * (into f->rc.vbr_old).  The mode's table is rl_rc_vbr_old (rate_control.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "rate_control.h"
#include "rl_encoder_const.h"
#include "rl_encode_stage.h"
#include "rl_frame.h"
#include "bitstream.h"
#include "quantize_common.h"
#include "quantize_outer.h"
#include "quant_tables.h"
#include "reservoir.h"
#include "fast_log.h"

#define RL_VBR_OLD_MAX_ROUNDS 100

/* Zeroes xr[j] from end-1 down while |xr[j]| < thr; 1 if it stopped at a
 * line that is not below thr. */
static int zero_below(float *xr, int start, int end, float thr)
{
    for (int j = end - 1; j >= start; j--) {
        if (!(fabs(xr[j]) < thr))
            return 1;
        xr[j] = 0;
    }
    return 0;
}

/* LAME psfb21_analogsilence: from the top of sfb21 (sfb12 per window for
 * short blocks) down, lines under the ATH become 0, up to the first that
 * is not. */
static void cut_analog_silence(const RlEncoderConst *k, float adjust_factor, RlGranule *gi)
{
    const RlConfig *const cfg = &k->cfg;
    const RlAth *const ath = &k->ath;
    const RlSfbBands *const sb = &cfg->sfb;
    float *const xr = gi->xr;

    if (gi->block_type != RL_SHORT_TYPE) {
        int stop = 0;
        for (int gsfb = RL_PSFB21 - 1; gsfb >= 0 && !stop; gsfb--) {
            int const start = sb->psfb21[gsfb];
            int const end = sb->psfb21[gsfb + 1];
            float ath21 = rl_ath_adjust(adjust_factor, ath->psfb21[gsfb], ath->floor, 0);
            if (cfg->longfact[21] > 1e-12f)
                ath21 *= cfg->longfact[21];
            stop = zero_below(xr, start, end, ath21);
        }
        return;
    }
    /* short blocks: the lines are already reordered window by window */
    for (int block = 0; block < 3; block++) {
        int stop = 0;
        for (int gsfb = RL_PSFB12 - 1; gsfb >= 0 && !stop; gsfb--) {
            int const start = sb->s[12] * 3 + (sb->s[13] - sb->s[12]) * block
                              + (sb->psfb12[gsfb] - sb->psfb12[0]);
            int const end = start + (sb->psfb12[gsfb + 1] - sb->psfb12[gsfb]);
            float ath12 = rl_ath_adjust(adjust_factor, ath->psfb12[gsfb], ath->floor, 0);
            if (cfg->shortfact[12] > 1e-12f)
                ath12 *= cfg->shortfact[12];
            stop = zero_below(xr, start, end, ath12);
        }
    }
}

/* Search part, after the MDCT: M/S conversion, granule set-up with the
 * analog-silence cut of sfb21/sfb12, the allowed distortion.
 * Validity.  Claim: every vbr_rh search is the search from the truth, so
 * the mode's check is rl_rc_valid_always.  This function reads the
 * constants k, f->side's block types and xr (the MDCT), mode_ext,
 * ratio/ratio_ms and ath_adjust_factor: no reservoir and no step start
 * (`assumed` is never read), so its result is one function of the frame.
 * Everything that reads the carried state (the bit bounds from the
 * reservoir, the outer loops from enc->step, the bitrate choice) runs in
 * vbr_old_commit on the true state. */
static int vbr_old_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed)
{
    const RlConfig *const cfg = &k->cfg;
    const RlPsyRatio (*ratio)[2] = (f->mode_ext == RL_MD_MS_LR) ? f->ratio_ms : f->ratio;
    RlLoopInput *const in = &f->rc.vbr_old;

    (void) assumed;
    rl_quant_tables_init();
    rl_fast_log_init();
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        if (f->mode_ext == RL_MD_MS_LR)
            rl_ms_convert(&f->side, gr);
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *const gi = &f->side.tt[gr][ch];
            rl_init_outer_loop(cfg, gi);
            cut_analog_silence(k, f->ath_adjust_factor, gi);
            in->ath_over[gr][ch] = rl_calc_xmin(k, f->ath_adjust_factor, &ratio[gr][ch], gi,
                                                in->l3_xmin[gr][ch]);
        }
    }
    return 0;
}

/* LAME VBR_encode_granule: bisection on the bit budget between min_bits
 * and max_bits, to within about 40 bits of the fewest that leave no band
 * distorted.  0, or -ERANGE for a granule no bit count can code (values
 * past the quantizer's range at every step: LAME's bisection never ends
 * there). */
static int encode_granule(const RlConfig *cfg, RlGranule *gi, const float *l3_xmin,
                           float xrpow[576], int *pseudohalf, RlStepState *st, int ch,
                           int min_bits, int max_bits)
{
    RlGranule best;
    float best_xrpow[576];
    int const limit = max_bits;
    int this_bits = (max_bits + min_bits) / 2;
    int dbits, found = 0;

    memset(best.l3_enc, 0, sizeof best.l3_enc);
    do {
        /* near the limit, sfb21 gets no special treatment */
        int const sfb21 = this_bits > limit - 42 ? 0 : cfg->sfb21_extra;
        int const over = rl_outer_loop(cfg, gi, l3_xmin, xrpow, pseudohalf, st, ch, this_bits,
                                       NULL, sfb21);
        if (over <= 0) {
            if (gi->part2_3_length > limit)
                return -ERANGE;
            /* it fits: try with fewer bits */
            found = 1;
            best = *gi;
            memcpy(best_xrpow, xrpow, sizeof best_xrpow);
            max_bits = gi->part2_3_length - 32;
        } else {
            min_bits = this_bits + 32;
            if (found) {
                found = 2;      /* back to the best so far */
                *gi = best;
                memcpy(xrpow, best_xrpow, sizeof best_xrpow);
            }
        }
        dbits = max_bits - min_bits;
        this_bits = (max_bits + min_bits) / 2;
    } while (dbits > 12);
    if (found == 2)
        memcpy(gi->l3_enc, best.l3_enc, sizeof gi->l3_enc);
    return 0;
}

/* LAME bitpressure_strategy: allow more distortion in high bands and cut
 * every channel's budget by 10% for the next try. */
static void bit_pressure(const RlConfig *cfg, const RlSideInfo *side, float l3_xmin[2][2][RL_SFBMAX],
                         const int min_bits[2][2], int max_bits[2][2])
{
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            const RlGranule *const gi = &side->tt[gr][ch];
            float *pxmin = l3_xmin[gr][ch];
            int sfb;
            for (sfb = 0; sfb < gi->psy_lmax; sfb++)
                *pxmin++ *= 1. + .029 * sfb * sfb / RL_SBMAX_L / RL_SBMAX_L;
            if (gi->block_type == RL_SHORT_TYPE) {
                for (sfb = gi->sfb_smin; sfb < RL_SBMAX_S; sfb++) {
                    *pxmin++ *= 1. + .029 * sfb * sfb / RL_SBMAX_S / RL_SBMAX_S;
                    *pxmin++ *= 1. + .029 * sfb * sfb / RL_SBMAX_S / RL_SBMAX_S;
                    *pxmin++ *= 1. + .029 * sfb * sfb / RL_SBMAX_S / RL_SBMAX_S;
                }
            }
            {
                double const cut = 0.9 * max_bits[gr][ch];
                max_bits[gr][ch] = min_bits[gr][ch] > cut ? min_bits[gr][ch] : (int) cut;
            }
        }
    }
}

/* Encode part (VBR_old_iteration_loop from its bit bounds on): the outer
 * loops from enc->step, the bitrate choice with retries under bit pressure,
 * scalefactor storage, reservoir, packing.  Sets f->bitrate_index. */
static int vbr_old_commit(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f,
                          const RlForkJoin *fj)
{
    const RlConfig *const cfg = &k->cfg;
    RlEncodeState *const s = &enc->enc;
    RlSideInfo *const side = &f->side;
    RlLoopInput *const in = &f->rc.vbr_old;
    int const max_index = cfg->vbr_max_bitrate_index;
    int frame_bits[16];
    int min_bits[2][2], max_bits[2][2];
    int avg, mean_bits = 0, resv_max, bits = 0, analog_silence = 1;

    (void) fj;
    /* ---- bit bounds (VBR_old_prepare's reservoir part) ---- */
    avg = rl_resv_frame_begin(cfg, rl_resv_size(s), max_index, 0, &mean_bits, &resv_max)
          / cfg->mode_gr;
    memset(frame_bits, 0, sizeof frame_bits);
    for (int i = 1; i <= max_index; i++)
        frame_bits[i] = rl_resv_frame_begin(cfg, rl_resv_size(s), i, 0, &mean_bits, NULL);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        int const mxb = rl_on_pe(cfg, rl_resv_size(s), resv_max, (const float (*)[2]) f->pe_use,
                                 max_bits[gr], avg, gr, 0);
        if (f->mode_ext == RL_MD_MS_LR)
            rl_reduce_side(max_bits[gr], f->ms_ener_ratio[gr], avg, mxb);
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            if (in->ath_over[gr][ch])
                analog_silence = 0;
            min_bits[gr][ch] = 126;
            bits += max_bits[gr][ch];
        }
    }
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            if (bits > frame_bits[max_index] && bits > 0) {
                max_bits[gr][ch] *= frame_bits[max_index];
                max_bits[gr][ch] /= bits;
            }
            if (min_bits[gr][ch] > max_bits[gr][ch])
                min_bits[gr][ch] = max_bits[gr][ch];
        }

    /* ---- quantize with the fewest bits, more pressure until a frame fits ----
     * LAME loops until it fits; a signal no frame can hold (absurd levels
     * with tiny frames, e.g. --scale-l -1e9 -s 8 --nores) never does, and
     * LAME hangs there.  Real input fits within a few rounds: after
     * RL_VBR_OLD_MAX_ROUNDS the frame is given up as an error. */
    for (int round = 0;; round++) {
        if (round == RL_VBR_OLD_MAX_ROUNDS)
            return -ERANGE;
        int used_bits = 0, idx, full;
        for (int gr = 0; gr < cfg->mode_gr; gr++) {
            for (int ch = 0; ch < cfg->channels_out; ch++) {
                RlGranule *const gi = &side->tt[gr][ch];
                if (rl_init_xrpow(cfg, gi, in->xrpow[gr][ch], in->pseudohalf[gr][ch]) == 0
                    || max_bits[gr][ch] == 0)
                    continue;   /* nothing to code */
                int const rc = encode_granule(cfg, gi, in->l3_xmin[gr][ch], in->xrpow[gr][ch],
                                              in->pseudohalf[gr][ch], &enc->step, ch,
                                              min_bits[gr][ch], max_bits[gr][ch]);
                if (rc < 0)
                    return rc;
                used_bits += gi->part2_3_length + gi->part2_length;
            }
        }
        /* the lowest bitrate that holds the bits */
        idx = (analog_silence && !cfg->enforce_min_bitrate) ? 1 : cfg->vbr_min_bitrate_index;
        for (; idx < max_index; idx++)
            if (used_bits <= frame_bits[idx])
                break;
        full = rl_resv_frame_begin_commit(s, cfg, idx, 0, &mean_bits);
        f->bitrate_index = idx;
        if (used_bits <= full)
            break;
        bit_pressure(cfg, side, in->l3_xmin, (const int (*)[2]) min_bits, max_bits);
    }

    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            rl_resv_adjust(s, rl_granule_finish(cfg, side, gr, ch));
    rl_resv_frame_end(s, cfg, side, mean_bits);
    return rl_main_data_pack(cfg, f);
}

const RlRateControl rl_rc_vbr_old = {
    .name = "vbr-old",
    .assume = rl_rc_assume_committed,
    .search = vbr_old_search,
    .valid = rl_rc_valid_always,     /* the argument is at vbr_old_search */
    .redo = rl_rc_redo_search,
    .commit = vbr_old_commit,
};
