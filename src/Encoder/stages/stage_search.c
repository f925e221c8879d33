/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Search, the second parallel stage: the MDCT and the rate-control
 * mode's search against an assumed carried state, and the check and redo
 * Encode runs on it.  The mode is reached through its table
 * (k->rc, quantize/rate_control.h) only.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdatomic.h>

#include "stages.h"
#include "stage_search.h"
#include "rl_encoder_const.h"
#include "rl_frame.h"
#include "mdct.h"
#include "rate_control.h"

void rl_search_assume(const RlEncoderConst *k, const RlCarried *committed, int64_t ahead,
                      RlCarried *assumed)
{
    k->rc->assume(k, committed, ahead, assumed);
}

int rl_search_predict(const RlEncoderConst *k, const RlFrame *f, RlCarried *after)
{
    if (k->rc->predict == NULL || f->search_runs <= 0)
        return 0;
    return k->rc->predict(k, f, after);
}

/* mdct_sub48: the L/R transform; M/S conversion is part of the quantizer.
 * It rewrites xr from f->poly, which is what makes a redo possible.  A new
 * search starts with no quantizer error. */
static void search_start(const RlEncoderConst *k, RlFrame *f)
{
    const RlConfig *cfg = &k->cfg;

    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *gi = &f->side.tt[gr][ch];
            rl_mdct_granule(cfg, &f->poly, gr, ch, gi->block_type, gi->mixed_block_flag, gi->xr);
        }
    }
    f->search_rc = 0;
    f->search_runs++;
}

int rl_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed)
{
    search_start(k, f);
    return k->rc->search(k, f, assumed);
}

int rl_search_redo(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                   const RlForkJoin *fj)
{
    search_start(k, f);
    return k->rc->redo(k, f, truth, fj);
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

int rl_search_valid(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth)
{
    if (f->search_runs <= 0)
        return 0;               /* no search result at all */
#ifdef RL_TEST_HOOKS
    {   /* only the first search of a frame, so a redo always passes */
        int const every = force_invalid_every;
        if (every > 0 && f->search_runs == 1 && f->index % every == 0)
            return 0;
    }
#endif
    return k->rc->valid(k, f, truth);
}
