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

/* 1 when the targets of a granule move within the reservoir error a state
 * `ahead` Encodes old may have: the search would most likely be redone,
 * so it leaves the loops to Encode.  A guess only (any answer is exact:
 * cbr_valid decides); it reads the frame's Resolve outputs and the state. */
static int cbr_risky(const RlConfig *cfg, const RlFrame *f, const RlCarried *state, int idx)
{
    int resv = state->resv_size, mean_bits, resv_max;
    int const d = CBR_RESV_SLACK * (state->ahead < 16 ? state->ahead : 16);

    (void) rl_resv_frame_begin(cfg, resv, idx, f->padding, &mean_bits, &resv_max);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        int targ[2], lo[2], hi[2];
        cbr_targets(cfg, f, resv, resv_max, mean_bits, gr, targ);
        cbr_targets(cfg, f, resv - d, resv_max, mean_bits, gr, lo);
        cbr_targets(cfg, f, resv + d, resv_max, mean_bits, gr, hi);
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            if (lo[ch] != targ[ch] || hi[ch] != targ[ch])
                return 1;
            resv -= targ[ch];       /* about what the granule uses */
        }
    }
    return 0;
}

/* CBR_iteration_loop after the reservoir-free part, on the carried state
 * *state (ResvFrameBegin, per granule the targets, the outer loops, the
 * scalefactor storage and ResvAdjust on a copy of the reservoir), then
 * the packing.  Once a granule's targets are known its channels are
 * independent, so they run on fj when there is one. */
static int cbr_loops(const RlEncoderConst *k, RlFrame *f, const RlCarried *state,
                     const RlForkJoin *fj)
{
    const RlConfig *const cfg = &k->cfg;
    RlCbrFrame *const c = &f->rc.cbr;
    int const idx = cbr_bitrate_index(cfg);
    int resv = state->resv_size, mean_bits, resv_max;
    CbrGranule g;

    if (idx < 0)
        return -EINVAL;
    (void) rl_resv_frame_begin(cfg, resv, idx, f->padding, &mean_bits, &resv_max);
    c->step_after = state->step;
    g.cfg = cfg;
    g.f = f;
    g.st = &c->step_after;
    for (g.gr = 0; g.gr < cfg->mode_gr; g.gr++) {
        cbr_targets(cfg, f, resv, resv_max, mean_bits, g.gr, g.targ);
        if (fj != NULL && cfg->channels_out == 2)
            fj->run(fj->ctx, 2, cbr_channel, &g);
        else
            for (int ch = 0; ch < cfg->channels_out; ch++)
                cbr_channel(&g, ch);
        for (int ch = 0; ch < cfg->channels_out; ch++)
            resv -= c->bits[g.gr][ch];
    }
    memset(&c->predicted, 0, sizeof c->predicted);
    c->predicted.resv_size = rl_resv_after_frame(cfg, resv, resv_max, mean_bits);
    c->predicted.step = c->step_after;
    return rl_main_data_pack(cfg, f);
}

/* The search for *state: the reservoir-free part, then the loops unless
 * the state is an old one under which they would most likely be redone
 * (then Encode runs them: c->deferred). */
static int cbr_run(const RlEncoderConst *k, RlFrame *f, const RlCarried *state,
                   const RlForkJoin *fj)
{
    RlCbrFrame *const c = &f->rc.cbr;
    int const idx = cbr_bitrate_index(&k->cfg);

    if (idx < 0)
        return -EINVAL;
    rl_loop_prepare(k, f, &c->loop);
    c->deferred = state->ahead > 0 && cbr_risky(&k->cfg, f, state, idx);
    return c->deferred ? 0 : cbr_loops(k, f, state, fj);
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
    (void) k;
    if (f->rc.cbr.deferred)
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
 * cbr_loops(truth) writes: side info, main data, the granules' bits, and the
 * step state after the frame (step_after, what commit stores in
 * enc->step).
 * (0) A search that left the loops to Encode (deferred) holds only the
 *     reservoir-free part (rl_loop_prepare), which reads no carried
 *     state: it is what the search from the truth computes before its
 *     loops, and commit runs those on the true state.
 * (1) The carried state reaches cbr_loops in two places only: the
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

    if (c->deferred)
        return 1;       /* (0) below */

    (void) rl_resv_frame_begin(cfg, resv, cbr_bitrate_index(cfg), f->padding, &mean_bits,
                               &resv_max);
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
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
    if (c->deferred) {
        RlCarried truth;
        int rc;
        rl_encoder_carried(enc, &truth);
        if ((rc = cbr_loops(k, f, &truth, fj)) < 0)
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
