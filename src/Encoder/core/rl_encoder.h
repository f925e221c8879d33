/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encoder object: the constants fixed at init and one state
 * struct per serial stage.  Each stage entry point (stages.h) takes the
 * constants read-only and only the state its stage owns:
 *   k (RlEncoderConst) ........... cfg, ath, psyc, rc: written by init only,
 *                                  then read-only for every stage
 *   dispatch (RlDispatchState) ... Dispatch (serial)
 *   psy (RlPsyState) ............. Resolve (serial)
 *   encode (RlEncodeStage) ....... Encode (serial): reservoir, bitstream, tag,
 *                                  the CBR/ABR step-search starts
 *   rg (RlGainFeed) .............. ReplayGain feed: Dispatch pushes, one task
 *                                  per channel analyses (contract in
 *                                  gain_feed.h); the tag reads its result
 *   redecode (RlRedecode) ........ Redecode (serial, after Encode): the
 *                                  decoder of the output and its peak
 *                                  (--replaygain-accurate, --clipdetect);
 *                                  then pushes into rg instead of Dispatch
 * Prepare and Search get only k and their frame record.  Search gets an
 * assumed carried state (RlCarried, stages.h) as an argument: the
 * rate-control mode (k.rc) chooses it from the scheduler's snapshot after
 * the last committed Encode; Encode checks that the search holds for the
 * true state and redoes it serially when it does not (rl_search_valid,
 * stages.h; docs/architecture.md).  Schedulers reach the parts through the accessors
 * in stages.h, as opaque types. */
#ifndef RL_ENCODER_H
#define RL_ENCODER_H

#include "rl_encoder_const.h" /* RlEncoderConst */
#include "rl_frame.h"
#include "psy.h"              /* RlPsyState */
#include "dispatch.h"         /* RlDispatchState */
#include "rl_encode_stage.h"  /* RlEncodeStage */
#include "gain_feed.h"        /* RlGainFeed */
#include "redecode.h"         /* RlRedecode */

typedef struct RlEncoder {
    RlEncoderConst  k;
    RlDispatchState dispatch;
    RlPsyState      psy;
    RlEncodeStage   encode;
    RlGainFeed      rg;
    RlRedecode      redecode;
} RlEncoder;

#endif
