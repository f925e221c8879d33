/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the old VBR quantization loop (LAME vbr_rh, --vbr-old).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 *
 * Each granule's bit bounds come from the reservoir, and its outer loops
 * from the previous granule's step search, so the loop runs serially in
 * Encode; Search does the reservoir-free part. */
#ifndef RL_QUANTIZE_VBR_OLD_H
#define RL_QUANTIZE_VBR_OLD_H

#include "rl_encoder_const.h"
#include "rl_encode_stage.h"
#include "rl_frame.h"

/* Search part, after the MDCT: M/S conversion, granule set-up with the
 * analog-silence cut of sfb21/sfb12, allowed distortion into f->l3_xmin and
 * f->ath_over.  Reads the constants k only.
 * Stage: Search. */
void rl_vbr_old_prepare(const RlEncoderConst *k, RlFrame *f);

/* Encode part (VBR_old_iteration_loop from its bit bounds on): the outer
 * loops from enc->step, the bitrate choice with retries under bit pressure,
 * scalefactor storage, reservoir.  Sets f->bitrate_index.
 * Stage: Encode. */
int rl_vbr_old_encode(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f);

#endif
