/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Resolve, the serial stage between the parallel ones: the psy
 * model's decisions that chain from frame to frame (block types, M/S).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>

#include "stages.h"
#include "rl_encoder_const.h"
#include "rl_frame.h"
#include "psy.h"

int rl_resolve(const RlEncoderConst *k, RlPsyState *psy, RlFrame *f)
{
    int gr, ch;
    /* The psy model reports block types in f->block_type; the sentinel lets
     * a psy that writes f->side.tt[][].block_type directly work as well. */
    for (gr = 0; gr < 2; gr++)
        for (ch = 0; ch < 2; ch++)
            f->block_type[gr][ch] = -1;
    rl_psy_resolve(k, psy, f);
    for (gr = 0; gr < k->cfg.mode_gr; gr++) {
        for (ch = 0; ch < k->cfg.channels_out; ch++) {
            RlGranule *gi = &f->side.tt[gr][ch];
            if (f->block_type[gr][ch] >= 0)
                gi->block_type = f->block_type[gr][ch];
            else
                f->block_type[gr][ch] = gi->block_type;
            if (gi->block_type < RL_NORM_TYPE || gi->block_type > RL_STOP_TYPE)
                return -EINVAL;
            gi->mixed_block_flag = 0;   /* LAME never uses mixed blocks */
        }
    }
    return 0;
}
