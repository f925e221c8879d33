/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: CBR rate control: the whole quantization in Search from an
 * assumed reservoir and step-search starts, checked exactly in Encode.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "quantize_cbr.h"
#include "rate_control.h"
#include "rl_frame.h"
#include "rl_encode_stage.h"
#include "quantize_common.h"
#include "quantize_outer.h"
#include "reservoir.h"
#include "bitstream.h"
#include "tables.h"

static int cbr_bitrate_index(const RlConfig *cfg)
{
    return cfg->free_format ? 0
        : rl_bitrate_index(cfg->avg_bitrate, cfg->version, cfg->samplerate_out);
}

/* LAME on_pe and reduce_side for granule gr: the channels' targets when the
 * reservoir holds resv bits (after the granules before gr of this frame). */
static void cbr_targets(const RlConfig *cfg, const RlFrame *f, int resv, int resv_max,
                        int mean_bits, int gr, int targ[2])
{
    /* granule 1 counts the bits granule 0 saved (cbr = gr) */
    int const max_bits = rl_on_pe(cfg, resv, resv_max, (const float (*)[2]) f->pe_use, targ,
                                  mean_bits, gr, gr);
    if (f->mode_ext == RL_MD_MS_LR)
        rl_reduce_side(targ, f->ms_ener_ratio[gr], mean_bits, max_bits);
}

/* One channel of one granule: the outer loop and the scalefactor storage,
 * touching only that channel's granule, arrays, record and step state. */
typedef struct CbrGranule {
    const RlConfig *cfg;
    RlFrame *f;
    RlStepState *st;
    int gr;
    int targ[2];
} CbrGranule;

static void cbr_channel(void *arg, int ch)
{
    CbrGranule *const g = arg;
    RlCbrFrame *const c = &g->f->rc.cbr;
    RlLoopInput *const in = &c->loop;
    int const gr = g->gr;

    if (in->has_energy[gr][ch])
        rl_outer_loop_recorded(g->cfg, &g->f->side.tt[gr][ch], in->l3_xmin[gr][ch],
                               in->xrpow[gr][ch], in->pseudohalf[gr][ch], g->st, ch, g->targ[ch],
                               &c->rec[gr][ch]);
    c->bits[gr][ch] = rl_granule_finish(g->cfg, &g->f->side, gr, ch);
}

/* The reservoir error a search assumes for a state `ahead` Encodes old:
 * about the slack (target less bits used) those frames leave. */
#define CBR_RESV_SLACK 32

/* How far the true reservoir before the frame may lie below (*down) and
 * above (*up) the assumed resv: d bits, but never outside 0..resv_max,
 * where every reservoir lies (with no reservoir, --nores, free format or
 * a frame at the ISO buffer limit, it cannot move at all). */
static void cbr_error_range(int resv, int resv_max, int d, int *down, int *up)
{
    *down = d < resv ? d : resv;
    *up = d < resv_max - resv ? d : resv_max - resv;
    if (*down < 0)
        *down = 0;
    if (*up < 0)
        *up = 0;
}

/* 1 when granule gr's targets targ move when the reservoir before the
 * frame is down bits lower or up bits higher (resv: the reservoir before
 * the granule): its loops would most likely be redone.  A guess only
 * (any answer is exact: cbr_valid decides). */
static int cbr_risky(const RlConfig *cfg, const RlFrame *f, int resv, int resv_max,
                     int mean_bits, int gr, const int targ[2], int down, int up)
{
    int lo[2], hi[2];
    cbr_targets(cfg, f, resv - down, resv_max, mean_bits, gr, lo);
    cbr_targets(cfg, f, resv + up, resv_max, mean_bits, gr, hi);
    for (int ch = 0; ch < cfg->channels_out; ch++)
        if (lo[ch] != targ[ch] || hi[ch] != targ[ch])
            return 1;
    return 0;
}

/* CBR_iteration_loop's granules from `from` on (ResvFrameBegin gave
 * mean_bits and resv_max; resv is the reservoir after the granules before
 * `from`, c->step_after the step state): per granule the targets, the
 * outer loops, the scalefactor storage and ResvAdjust on the copy resv;
 * then the packing and the predicted state.  Once a granule's targets are
 * known its channels are independent, so they run on fj when there is
 * one.  With d >= 0 it stops before the first granule whose targets move
 * within d bits of reservoir before the frame (cbr_risky; from 0 only)
 * and leaves it and the granules after it to Encode (c->deferred_from). */
static int cbr_granules(const RlEncoderConst *k, RlFrame *f, int from, int resv, int resv_max,
                        int mean_bits, int d, const RlForkJoin *fj)
{
    const RlConfig *const cfg = &k->cfg;
    RlCbrFrame *const c = &f->rc.cbr;
    CbrGranule g;
    int down = 0, up = 0;

    if (d >= 0)
        cbr_error_range(resv, resv_max, d, &down, &up);
    g.cfg = cfg;
    g.f = f;
    g.st = &c->step_after;
    for (g.gr = from; g.gr < cfg->mode_gr; g.gr++) {
        cbr_targets(cfg, f, resv, resv_max, mean_bits, g.gr, g.targ);
        if (d >= 0 && cbr_risky(cfg, f, resv, resv_max, mean_bits, g.gr, g.targ, down, up)) {
            c->deferred_from = g.gr;
            return 0;
        }
        if (fj != NULL && cfg->channels_out == 2)
            fj->run(fj->ctx, 2, cbr_channel, &g);
        else
            for (int ch = 0; ch < cfg->channels_out; ch++)
                cbr_channel(&g, ch);
        for (int ch = 0; ch < cfg->channels_out; ch++)
            resv -= c->bits[g.gr][ch];
    }
    c->deferred_from = cfg->mode_gr;
    memset(&c->predicted, 0, sizeof c->predicted);
    c->predicted.resv_size = rl_resv_after_frame(cfg, resv, resv_max, mean_bits);
    c->predicted.step = c->step_after;
    return rl_main_data_pack(cfg, f);
}

/* The search for *state: the reservoir-free part, then the granules'
 * loops, unless the state is an old one under which a granule's loops
 * would most likely be redone (then Encode runs that granule and the
 * ones after it: c->deferred_from). */
static int cbr_run(const RlEncoderConst *k, RlFrame *f, const RlCarried *state,
                   const RlForkJoin *fj)
{
    RlCbrFrame *const c = &f->rc.cbr;
    int const idx = cbr_bitrate_index(&k->cfg);
    int const age = state->ahead < 16 ? state->ahead : 16;
    int mean_bits, resv_max;

    if (idx < 0)
        return -EINVAL;
    rl_loop_prepare(k, f, &c->loop);
    (void) rl_resv_frame_begin(&k->cfg, state->resv_size, idx, f->padding, &mean_bits, &resv_max);
    c->step_after = state->step;
    return cbr_granules(k, f, 0, state->resv_size, resv_max, mean_bits,
                        age > 0 ? CBR_RESV_SLACK * age : -1, fj);
}

static int cbr_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed)
{
    return cbr_run(k, f, assumed, NULL);
}

/* What cbr_commit leaves when the search's state was the truth: the
 * next frame's state (commit's ResvFrameEnd and step state); none when
 * the loops were left to Encode. */
static int cbr_predict(const RlEncoderConst *k, const RlFrame *f, RlCarried *after)
{
    if (f->rc.cbr.deferred_from < k->cfg.mode_gr)
        return 0;
    *after = f->rc.cbr.predicted;
    return 1;
}

/* The state the search is to assume: the one the scheduler knows, with
 * how many Encodes old it is (cbr_run's choice reads it). */
static void cbr_assume(const RlEncoderConst *k, const RlCarried *committed, int64_t ahead,
                       RlCarried *assumed)
{
    (void) k;
    *assumed = *committed;
    assumed->ahead = ahead < 0 ? 0 : ahead > INT_MAX ? INT_MAX : (int) ahead;
}

/* Validity.  Claim: when cbr_valid(truth) returns 1, the frame holds what
 * cbr_run(truth) writes: side info, main data, the granules' bits, and the
 * step state after the frame (step_after, what commit stores in
 * enc->step).
 * (0) The granules a search left to Encode (from deferred_from on) hold
 *     only the reservoir-free part (rl_loop_prepare), which reads no
 *     carried state: it is what the search from the truth computes before
 *     their loops, and commit runs those on the true state after the
 *     checked granules.  The check covers the granules before them.
 * (1) The carried state reaches cbr_granules in two places only: the
 *     reservoir through cbr_targets (on_pe's ResvMaxBits, reduce_side's
 *     maximum), and the step starts through the outer loops' step
 *     searches.  rl_loop_prepare, the loop inputs, ResvFrameBegin's
 *     mean_bits and ResvMax read neither.
 * (2) Granule by granule in cbr_run's order: the reservoir before
 *     granule gr is the true one less the bits of the granules before it,
 *     which are the recorded ones once those granules were accepted; the
 *     targets from it are the true targets.  Each channel with energy is
 *     checked by rl_outer_loop_same from the true step state: its loop
 *     from that start and target is the recorded one (the argument is at
 *     rl_outer_loop_same) and st becomes the true state after it.  A
 *     channel without energy runs no loop: it reads neither.
 * (3) With every loop the same, the scalefactor storage (which reads the
 *     granules before it), the granules' bits and the packing see the
 *     same inputs: the same result.  Any other case returns 0.
 * Tested in tests/unit_quantize_spec.c (wrong reservoirs and step starts,
 * every -q: every accepted search equals the search from the truth). */
static int cbr_valid(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth)
{
    const RlConfig *const cfg = &k->cfg;
    RlCbrFrame *const c = &f->rc.cbr;
    RlStepState st = truth->step;
    int resv = truth->resv_size, mean_bits, resv_max;

    (void) rl_resv_frame_begin(cfg, resv, cbr_bitrate_index(cfg), f->padding, &mean_bits,
                               &resv_max);
    for (int gr = 0; gr < c->deferred_from; gr++) {      /* (0) */
        int targ[2];
        cbr_targets(cfg, f, resv, resv_max, mean_bits, gr, targ);
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            if (c->loop.has_energy[gr][ch]
                && !rl_outer_loop_same(cfg, &c->rec[gr][ch], &st, ch, targ[ch]))
                return 0;
            resv -= c->bits[gr][ch];
        }
    }
    c->step_after = st;
    return 1;
}

/* The serial redo: the frame again from the truth, its channels on fj. */
static int cbr_redo(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                    const RlForkJoin *fj)
{
    int const rc = cbr_run(k, f, truth, fj);
    if (rc < 0)
        return rc;
    return cbr_valid(k, f, truth) ? 0 : -EIO;
}

/* Encode, after a valid search: the loops if the search left them, then
 * ResvFrameBegin, the step state, ResvAdjust per granule, ResvFrameEnd. */
static int cbr_commit(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f,
                      const RlForkJoin *fj)
{
    const RlConfig *const cfg = &k->cfg;
    RlEncodeState *const s = &enc->enc;
    RlCbrFrame *const c = &f->rc.cbr;
    int mean_bits;

    f->bitrate_index = cbr_bitrate_index(cfg);
    if (f->bitrate_index < 0)
        return -EINVAL;
    if (c->deferred_from < cfg->mode_gr) {
        /* the granules left to Encode, after the checked ones (whose
         * step state cbr_valid left in step_after) */
        int resv = rl_resv_size(s), resv_max, rc;
        (void) rl_resv_frame_begin(cfg, resv, f->bitrate_index, f->padding, &mean_bits, &resv_max);
        for (int gr = 0; gr < c->deferred_from; gr++)
            for (int ch = 0; ch < cfg->channels_out; ch++)
                resv -= c->bits[gr][ch];
        if ((rc = cbr_granules(k, f, c->deferred_from, resv, resv_max, mean_bits, -1, fj)) < 0)
            return rc;
    }
    (void) rl_resv_frame_begin_commit(s, cfg, f->bitrate_index, f->padding, &mean_bits);
    enc->step = c->step_after;
    for (int gr = 0; gr < cfg->mode_gr; gr++)
        for (int ch = 0; ch < cfg->channels_out; ch++)
            rl_resv_adjust(s, c->bits[gr][ch]);
    rl_resv_frame_end(s, cfg, &f->side, mean_bits);
    return 0;
}

const RlRateControl rl_rc_cbr = {
    .name = "cbr",
    .assume = cbr_assume,
    .predict = cbr_predict,
    .search = cbr_search,
    .valid = cbr_valid,
    .redo = cbr_redo,
    .commit = cbr_commit,
};
