/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the CBR and ABR quantization loops.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <string.h>

#include "quantize_cbr.h"
#include "quantize_common.h"
#include "quantize_outer.h"
#include "quant_tables.h"
#include "reservoir.h"
#include "bitstream.h"
#include "tables.h"
#include "fast_log.h"

void rl_loop_prepare(const RlEncoderConst *k, RlFrame *f)
{
    const RlConfig *const cfg = &k->cfg;
    RlSideInfo *const side = &f->side;
    const RlPsyRatio (*ratio)[2] = (f->mode_ext == RL_MD_MS_LR) ? f->ratio_ms : f->ratio;

    rl_quant_tables_init();
    rl_fast_log_init();
    memset(f->has_energy, 0, sizeof f->has_energy);
    memset(f->ath_over, 0, sizeof f->ath_over);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        if (f->mode_ext == RL_MD_MS_LR)
            rl_ms_convert(side, gr);
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *const gi = &side->tt[gr][ch];
            rl_init_outer_loop(cfg, gi);
            f->has_energy[gr][ch] = rl_init_xrpow(cfg, gi, f->xrpow[gr][ch], f->pseudohalf[gr][ch]);
            if (f->has_energy[gr][ch])
                f->ath_over[gr][ch] = rl_calc_xmin(k, f->ath_adjust_factor, &ratio[gr][ch], gi,
                                                   f->l3_xmin[gr][ch]);
        }
    }
}

/* ------------------------------------------------------------------ CBR */

/* One channel of one CBR granule: the outer loop and the scalefactor
 * storage, touching only that channel's granule, arrays and step state. */
typedef struct CbrGranule {
    const RlConfig *cfg;
    RlFrame *f;
    RlStepState *step;
    int gr;
    int targ[2];
    int bits[2];
} CbrGranule;

static void cbr_channel(void *arg, int ch)
{
    CbrGranule *const g = arg;
    RlFrame *const f = g->f;
    int const gr = g->gr;

    if (f->has_energy[gr][ch])
        (void) rl_outer_loop(g->cfg, &f->side.tt[gr][ch], f->l3_xmin[gr][ch], f->xrpow[gr][ch],
                             f->pseudohalf[gr][ch], g->step, ch, g->targ[ch], NULL,
                             g->cfg->sfb21_extra);
    g->bits[ch] = rl_granule_finish(g->cfg, &f->side, gr, ch);
}

int rl_cbr_encode(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f, const RlForkJoin *fj)
{
    const RlConfig *const cfg = &k->cfg;
    RlEncodeState *const s = &enc->enc;
    CbrGranule g;
    int mean_bits;

    f->bitrate_index = cfg->free_format ? 0
        : rl_bitrate_index(cfg->avg_bitrate, cfg->version, cfg->samplerate_out);
    if (f->bitrate_index < 0)
        return -EINVAL;
    (void) rl_resv_frame_begin_commit(s, cfg, f->bitrate_index, f->padding, &mean_bits);
    g.cfg = cfg;
    g.f = f;
    g.step = &enc->step;
    for (g.gr = 0; g.gr < cfg->mode_gr; g.gr++) {
        /* granule 1 counts the bits granule 0 saved (cbr = gr) */
        int const max_bits = rl_on_pe(cfg, rl_resv_size(s), s->resv_max,
                                      (const float (*)[2]) f->pe_use, g.targ, mean_bits, g.gr, g.gr);
        if (f->mode_ext == RL_MD_MS_LR)
            rl_reduce_side(g.targ, f->ms_ener_ratio[g.gr], mean_bits, max_bits);
        if (fj != NULL && cfg->channels_out == 2)
            fj->run(fj->ctx, 2, cbr_channel, &g);
        else
            for (int ch = 0; ch < cfg->channels_out; ch++)
                cbr_channel(&g, ch);
        for (int ch = 0; ch < cfg->channels_out; ch++)
            rl_resv_adjust(s, g.bits[ch]);
    }
    rl_resv_frame_end(s, cfg, &f->side, mean_bits);
    return 0;
}

/* ------------------------------------------------------------------ ABR */

/* LAME calc_target_bits for a reservoir of resv_size bits before the frame:
 * the bits per gr/ch from the PE around the nominal rate, capped by the
 * largest frame the reservoir allows. */
static void abr_targets(const RlConfig *cfg, const RlFrame *f, int resv_size, int targ[2][2],
                        int *analog_silence_bits)
{
    int mean_bits, max_frame_bits, totbits;
    int const framesize = 576 * cfg->mode_gr;
    float res_factor;

    max_frame_bits = rl_resv_frame_begin(cfg, resv_size, cfg->vbr_max_bitrate_index, 0,
                                         &mean_bits, NULL);
    mean_bits = rl_frame_bits(cfg, 1, 0) - cfg->sideinfo_len * 8;
    *analog_silence_bits = mean_bits / (cfg->mode_gr * cfg->channels_out);

    mean_bits = cfg->vbr_avg_bitrate_kbps * framesize * 1000;
    if (cfg->substep_shaping & 1)
        mean_bits *= 1.09;
    mean_bits /= cfg->samplerate_out;
    mean_bits -= cfg->sideinfo_len * 8;
    mean_bits /= (cfg->mode_gr * cfg->channels_out);

    /* share of the nominal rate used on average: .93 at 128 kbps, 1 at 256 */
    res_factor = .93 + .07 * (11.0 - cfg->compression_ratio) / (11.0 - 5.5);
    if (res_factor < .90)
        res_factor = .90;
    if (res_factor > 1.00)
        res_factor = 1.00;

    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        int sum = 0;
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            targ[gr][ch] = res_factor * mean_bits;
            if (f->pe_use[gr][ch] > 700) {
                int add_bits = (f->pe_use[gr][ch] - 700) / 1.4;
                /* short blocks get a little extra whatever the PE */
                if (f->side.tt[gr][ch].block_type == RL_SHORT_TYPE && add_bits < mean_bits / 2)
                    add_bits = mean_bits / 2;
                if (add_bits > mean_bits * 3 / 2)
                    add_bits = mean_bits * 3 / 2;
                else if (add_bits < 0)
                    add_bits = 0;
                targ[gr][ch] += add_bits;
            }
            if (targ[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                targ[gr][ch] = RL_MAX_BITS_PER_CHANNEL;
            sum += targ[gr][ch];
        }
        if (sum > RL_MAX_BITS_PER_GRANULE) {
            for (int ch = 0; ch < cfg->channels_out; ++ch) {
                targ[gr][ch] *= RL_MAX_BITS_PER_GRANULE;
                targ[gr][ch] /= sum;
            }
        }
    }
    if (f->mode_ext == RL_MD_MS_LR)
        for (int gr = 0; gr < cfg->mode_gr; gr++)
            rl_reduce_side(targ[gr], f->ms_ener_ratio[gr], mean_bits * cfg->channels_out,
                           RL_MAX_BITS_PER_GRANULE);

    totbits = 0;
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            if (targ[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                targ[gr][ch] = RL_MAX_BITS_PER_CHANNEL;
            totbits += targ[gr][ch];
        }
    if (totbits > max_frame_bits && totbits > 0)
        for (int gr = 0; gr < cfg->mode_gr; gr++)
            for (int ch = 0; ch < cfg->channels_out; ch++) {
                targ[gr][ch] *= max_frame_bits;
                targ[gr][ch] /= totbits;
            }
}

/* The targets after calc_target_bits and the analog-silence override. */
static void abr_final_targets(const RlConfig *cfg, const RlFrame *f, int resv_size, int targ[2][2])
{
    int silence_bits;
    abr_targets(cfg, f, resv_size, targ, &silence_bits);
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            if (f->has_energy[gr][ch] && f->ath_over[gr][ch] == 0)
                targ[gr][ch] = silence_bits;
}

void rl_abr_search(const RlEncoderConst *k, RlFrame *f, int assumed_resv, const RlStepState *assumed)
{
    const RlConfig *const cfg = &k->cfg;
    RlStepState st = *assumed;
    int targ[2][2];

    rl_loop_prepare(k, f);
    abr_final_targets(cfg, f, assumed_resv, targ);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *const gi = &f->side.tt[gr][ch];
            if (f->has_energy[gr][ch]) {
                f->loop_start[gr][ch] = *gi;
                memcpy(f->xrpow_start[gr][ch], f->xrpow[gr][ch], sizeof f->xrpow_start[gr][ch]);
                memcpy(f->pseudohalf_start[gr][ch], f->pseudohalf[gr][ch],
                       sizeof f->pseudohalf_start[gr][ch]);
                rl_gain_bits_clear(&f->gain_bits[gr][ch]);
                f->spec_start[gr][ch][0] = st.old_value[ch];
                f->spec_start[gr][ch][1] = st.current_step[ch];
                (void) rl_outer_loop(cfg, gi, f->l3_xmin[gr][ch], f->xrpow[gr][ch],
                                     f->pseudohalf[gr][ch], &st, ch, targ[gr][ch],
                                     &f->gain_bits[gr][ch], cfg->sfb21_extra);
                f->spec_end[gr][ch][0] = st.old_value[ch];
                f->spec_end[gr][ch][1] = st.current_step[ch];
            }
            f->search_bits[gr][ch] = rl_granule_finish(cfg, &f->side, gr, ch);
        }
    }
    memcpy(f->spec_targ, targ, sizeof targ);
    f->vbr_resv_size = assumed_resv;
    f->spec_rc = 0;
    f->spec_searches++;
}

int rl_abr_check(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                 RlStepState *step_after)
{
    const RlConfig *const cfg = &k->cfg;
    RlStepState st = truth->step;
    int targ[2][2];

    abr_final_targets(cfg, f, truth->resv_size, targ);
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            if (f->has_energy[gr][ch] && targ[gr][ch] != f->spec_targ[gr][ch])
                return 0;

    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            if (!f->has_energy[gr][ch])
                continue;
            if (st.old_value[ch] == f->spec_start[gr][ch][0]
                && st.current_step[ch] == f->spec_start[gr][ch][1]) {
                /* the start the search assumed: the same search */
                st.old_value[ch] = f->spec_end[gr][ch][0];
                st.current_step[ch] = f->spec_end[gr][ch][1];
                continue;
            }
            /* another start: the rest of the outer loop depends on the
             * search only through the granule it leaves */
            if (!rl_step_search_replay(cfg, &f->loop_start[gr][ch], f->xrpow_start[gr][ch],
                                       f->pseudohalf_start[gr][ch], &st, ch, f->spec_targ[gr][ch],
                                       &f->gain_bits[gr][ch], f->spec_end[gr][ch][0]))
                return 0;
        }
    }
    *step_after = st;
    return 1;
}

int rl_abr_commit(const RlEncoderConst *k, RlEncodeState *s, RlFrame *f)
{
    const RlConfig *const cfg = &k->cfg;
    int mean_bits = 0, idx;

    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            rl_resv_adjust(s, f->search_bits[gr][ch]);
    /* the lowest bitrate that refills the reservoir to a positive size */
    for (idx = cfg->vbr_min_bitrate_index; idx <= cfg->vbr_max_bitrate_index; idx++)
        if (rl_resv_frame_begin(cfg, rl_resv_size(s), idx, 0, &mean_bits, NULL) >= 0)
            break;
    if (idx > cfg->vbr_max_bitrate_index)
        return -EIO;
    f->bitrate_index = idx;
    (void) rl_resv_frame_begin_commit(s, cfg, idx, 0, &mean_bits);
    rl_resv_frame_end(s, cfg, &f->side, mean_bits);
    return 0;
}
