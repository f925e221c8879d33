/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ABR rate control: the whole quantization in Search from an
 * assumed reservoir and step-search starts, checked exactly in Encode.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>

#include "quantize_abr.h"
#include "rate_control.h"
#include "rl_frame.h"
#include "rl_encode_stage.h"
#include "quantize_common.h"
#include "quantize_outer.h"
#include "quant_tables.h"
#include "reservoir.h"
#include "bitstream.h"
#include "tables.h"

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
    const RlLoopInput *const in = &f->rc.abr.loop;
    int silence_bits;
    abr_targets(cfg, f, resv_size, targ, &silence_bits);
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            if (in->has_energy[gr][ch] && in->ath_over[gr][ch] == 0)
                targ[gr][ch] = silence_bits;
}

/* Search: targets from the assumed reservoir, the outer loops from the
 * assumed step starts, scalefactor storage, packing; records what abr_valid
 * checks. */
static int abr_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed)
{
    const RlConfig *const cfg = &k->cfg;
    RlAbrFrame *const a = &f->rc.abr;
    RlLoopInput *const in = &a->loop;
    RlStepState st = assumed->step;
    int targ[2][2];

    rl_loop_prepare(k, f, in);
    abr_final_targets(cfg, f, assumed->resv_size, targ);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *const gi = &f->side.tt[gr][ch];
            if (in->has_energy[gr][ch])
                rl_outer_loop_recorded(cfg, gi, in->l3_xmin[gr][ch], in->xrpow[gr][ch],
                                       in->pseudohalf[gr][ch], &st, ch, targ[gr][ch],
                                       &a->rec[gr][ch]);
            a->search_bits[gr][ch] = rl_granule_finish(cfg, &f->side, gr, ch);
        }
    }
    return rl_main_data_pack(cfg, f);
}

/* Validity.  Claim: when abr_valid(truth) returns 1, the frame holds what
 * abr_search(truth) writes: side info, main data, search_bits, and the
 * step state after the frame (step_after, what commit stores in
 * enc->step).
 * (1) The carried state reaches abr_search in two places only: the
 *     reservoir through abr_final_targets (targ), and the step starts
 *     through rl_outer_loop's bin_search_StepSize (st).  rl_loop_prepare
 *     and the loop inputs read neither.
 * (2) The targets are recomputed from truth->resv_size, and each granule
 *     with energy, in the search's order (the order in which st chains),
 *     is checked by rl_outer_loop_same from the true step state: its
 *     loop from that start and target is the recorded one (the argument
 *     is at rl_outer_loop_same), and st becomes the true state for the
 *     next granule.  A granule without energy runs no loop: it reads
 *     neither.
 * (3) With every loop the same, every later operation (scalefactor
 *     storage, granule_finish, packing) sees the same inputs: the same
 *     result.  Any other case returns 0.
 * Tested in tests/unit_quantize_spec.c (wrong reservoirs and wrong step
 * starts: every accepted search equals the search from the truth). */
static int abr_valid(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth)
{
    const RlConfig *const cfg = &k->cfg;
    RlAbrFrame *const a = &f->rc.abr;
    RlStepState st = truth->step;
    int targ[2][2];

    abr_final_targets(cfg, f, truth->resv_size, targ);
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            if (a->loop.has_energy[gr][ch]
                && !rl_outer_loop_same(cfg, &a->rec[gr][ch], &st, ch, targ[gr][ch]))
                return 0;
    a->step_after = st;
    return 1;
}

/* Encode, after a valid search: the step state the check found, ResvAdjust
 * per granule, the lowest bitrate that keeps the reservoir non-negative,
 * ResvFrameEnd. */
static int abr_commit(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f,
                      const RlForkJoin *fj)
{
    const RlConfig *const cfg = &k->cfg;
    RlEncodeState *const s = &enc->enc;
    int mean_bits = 0, idx;

    (void) fj;
    enc->step = f->rc.abr.step_after;
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            rl_resv_adjust(s, f->rc.abr.search_bits[gr][ch]);
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

const RlRateControl rl_rc_abr = {
    .name = "abr",
    .assume = rl_rc_assume_committed,
    .search = abr_search,
    .valid = abr_valid,
    .redo = rl_rc_redo_search,
    .commit = abr_commit,
};
