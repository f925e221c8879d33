/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the rate-control modes by setting, and what the modes share.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>

#include "rate_control.h"
#include "rl_encoder_const.h"

const RlRateControl *rl_rate_control_for(RlVbrMode vbr)
{
    switch (vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        return &rl_rc_vbr_new;
    case RL_VBR_RH:
        return &rl_rc_vbr_old;
    case RL_VBR_ABR:
        return &rl_rc_abr;
    case RL_VBR_OFF:
        return &rl_rc_cbr;
    default:
        return NULL;
    }
}

void rl_rc_assume_committed(const RlEncoderConst *k, const RlCarried *committed, int64_t ahead,
                            RlCarried *assumed)
{
    (void) k;
    (void) ahead;
    *assumed = *committed;
}

int rl_rc_valid_always(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth)
{
    (void) k;
    (void) f;
    (void) truth;
    return 1;
}

int rl_rc_redo_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                      const RlForkJoin *fj)
{
    int rc;

    (void) fj;
    rc = k->rc->search(k, f, truth);
    if (rc < 0)
        return rc;
    return k->rc->valid(k, f, truth) ? 0 : -EIO;
}
