/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Search, the second parallel stage: the MDCT and the
 * quantization against an assumed carried state, and the check Encode runs
 * on it (rl_search_valid).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdatomic.h>

#include "stages.h"
#include "stage_search.h"
#include "rl_encoder_const.h"
#include "rl_frame.h"
#include "mdct.h"
#include "quantize_vbr.h"
#include "quantize_cbr.h"
#include "quantize_vbr_old.h"
#include "reservoir.h"

int rl_search_mode_ported(RlVbrMode v)
{
    return v == RL_VBR_MT || v == RL_VBR_MTRH || v == RL_VBR_OFF || v == RL_VBR_ABR
           || v == RL_VBR_RH;
}

int rl_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed)
{
    const RlConfig *cfg = &k->cfg;
    int gr, ch, rc;

    if (!rl_search_mode_ported(cfg->vbr))
        return -ENOTSUP;
    /* mdct_sub48: the L/R transform; M/S conversion is part of the quantizer.
     * It rewrites xr from f->poly, which is what makes a redo possible. */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *gi = &f->side.tt[gr][ch];
            rl_mdct_granule(cfg, &f->poly, gr, ch, gi->block_type, gi->mixed_block_flag, gi->xr);
        }
    }
    switch (cfg->vbr) {
    case RL_VBR_OFF:
    case RL_VBR_RH:
        if (cfg->vbr == RL_VBR_OFF)
            rl_loop_prepare(k, f);
        else
            rl_vbr_old_prepare(k, f);
        f->spec_rc = 0;
        f->spec_searches++;
        return 0;               /* Encode quantizes and packs */
    case RL_VBR_ABR:
        rl_abr_search(k, f, assumed->resv_size, &assumed->step);
        break;
    default:
        rc = rl_vbr_search(k, f, assumed->resv_size);
        if (rc < 0)
            return rc;
        break;
    }
    if (f->spec_rc < 0)
        return 0;               /* nothing sensible to pack; Encode reports it */
    return rl_main_data_pack(cfg, f);
}

#ifdef RL_TEST_HOOKS
/* Test builds only (declared in stage_search.h): make rl_search_valid answer 0 for
 * the first search of every frame whose index is a multiple of every_n
 * (0: off).  Atomic so tests may set it while a ring runs; the redo that
 * follows is accepted, so drivers looping on validity terminate. */
static _Atomic int force_invalid_every;

void rl_search_test_force_invalid(int every_n)
{
    force_invalid_every = every_n > 0 ? every_n : 0;
}
#endif

/* rl_search_valid; for ABR a valid check also yields the step state after
 * the frame (from the true starts) in *step_after. */
int rl_search_valid_step(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                         RlStepState *step_after)
{
    if (f->spec_searches <= 0)
        return 0;               /* no search result at all */
#ifdef RL_TEST_HOOKS
    {   /* only the first search of a frame, so a redo always passes */
        int const every = force_invalid_every;
        if (every > 0 && f->spec_searches == 1 && f->index % every == 0)
            return 0;
    }
#endif
    switch (k->cfg.vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        return rl_vbr_search_valid(k, f, truth->resv_size);
    case RL_VBR_OFF:
    case RL_VBR_RH:
        return 1;               /* these searches read no carried state */
    case RL_VBR_ABR:
        return rl_abr_check(k, f, truth, step_after);
    default:
        return 0;
    }
}

int rl_search_valid(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth)
{
    RlStepState unused;
    return rl_search_valid_step(k, f, truth, &unused);
}

