/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Prepare, the first parallel stage: the psy model's per-frame
 * analysis and the polyphase filterbank.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "stages.h"
#include "rl_encoder_const.h"
#include "rl_frame.h"
#include "mdct.h"
#include "psy.h"

void rl_prepare(const RlEncoderConst *k, RlFrame *f)
{
    f->search_runs = 0;         /* a new frame: no search result yet */
    rl_psy_prepare(k, f);
    rl_polyphase(&k->cfg, f->in[0], f->in[1], &f->poly);
}

