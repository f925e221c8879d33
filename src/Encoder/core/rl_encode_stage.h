/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Encode's serial state: the bitstream with the bit reservoir and
 * the tag bookkeeping, and where each channel's CBR/ABR step search starts.
 * Only Encode writes it (in frame order); the part a search depends on is
 * copied out as RlCarried (rl_carried.h). */
#ifndef RL_ENCODE_STAGE_H
#define RL_ENCODE_STAGE_H

#include "bitstream.h"    /* RlEncodeState */
#include "rl_carried.h"   /* RlStepState */

typedef struct RlEncodeStage {
    RlEncodeState enc;            /* reservoir, bitstream, tag */
    RlStepState   step;           /* where each channel's CBR/ABR step search starts */
} RlEncodeStage;

#endif
