/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: CBR rate control: the reservoir-free part in Search, the
 * loops in Encode.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <string.h>

#include "quantize_cbr.h"
#include "rate_control.h"
#include "rl_frame.h"
#include "quantize_common.h"
#include "quantize_outer.h"
#include "quant_tables.h"
#include "reservoir.h"
#include "bitstream.h"
#include "tables.h"

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
    RlLoopInput *const in = &f->rc.cbr;
    int const gr = g->gr;

    if (in->has_energy[gr][ch])
        (void) rl_outer_loop(g->cfg, &f->side.tt[gr][ch], in->l3_xmin[gr][ch], in->xrpow[gr][ch],
                             in->pseudohalf[gr][ch], g->step, ch, g->targ[ch], NULL,
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


/* ------------------------------------------------------------ the mode */

/* Validity.  Claim: every CBR search is the search from the truth, so the
 * mode's check is rl_rc_valid_always.  cbr_search's inputs are the
 * constants k, f->side's block types and xr (the MDCT of Prepare's
 * output), f->mode_ext, ratio/ratio_ms and ath_adjust_factor (Resolve's):
 * rl_loop_prepare (ms_convert, init_outer_loop, init_xrpow, calc_xmin)
 * reads no reservoir and no step start, and `assumed` is never read.  So
 * the result is one function of the frame, whatever was assumed.
 * Everything that reads the carried state (on_pe's targets, the outer
 * loops from enc->step, the reservoir) runs in cbr_commit on the true
 * state. */
static int cbr_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed)
{
    (void) assumed;
    rl_loop_prepare(k, f, &f->rc.cbr);
    return 0;
}

static int cbr_commit(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f,
                      const RlForkJoin *fj)
{
    int const rc = rl_cbr_encode(k, enc, f, fj);
    return rc < 0 ? rc : rl_main_data_pack(&k->cfg, f);
}

const RlRateControl rl_rc_cbr = {
    .name = "cbr",
    .assume = rl_rc_assume_committed,
    .search = cbr_search,
    .valid = rl_rc_valid_always,     /* the argument is at cbr_search */
    .redo = rl_rc_redo_search,
    .commit = cbr_commit,
};
