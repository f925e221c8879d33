/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: CBR rate control (LAME CBR_iteration_loop) cut at the reservoir:
 * every granule's bit target comes from the reservoir after the previous
 * granule, so the outer loops form one serial chain.  Search runs the
 * reservoir-free part (rl_loop_prepare into f->rc.cbr); Encode runs the
 * loops (rl_cbr_encode), the two channels of a granule on a fork-join.
 * The mode's table is rl_rc_cbr (rate_control.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_CBR_H
#define RL_QUANTIZE_CBR_H

#include "rl_encoder_const.h"
#include "rl_encode_stage.h"
#include "stages.h"     /* RlFrame, RlForkJoin */

/* CBR, serial: ResvFrameBegin, per granule the targets from the true
 * reservoir enc->enc (on_pe, reduce_side), the outer loops from enc->step,
 * scalefactor storage, ResvAdjust; ResvFrameEnd.  Sets f->bitrate_index.
 * Once a granule's targets are known its channels are independent (each
 * has its own step-search start and scalefactor storage), so they run
 * through fj when there is one.
 * Stage: Encode. */
int rl_cbr_encode(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f, const RlForkJoin *fj);

#endif
