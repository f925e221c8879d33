/* ringlame: the encoder object.  It groups the read-only constants fixed at
 * init and one state struct per serial stage.  Ownership (who may write):
 *   cfg, ath, psyc ............... settings/psy init only, then read-only
 *                                  (the filterbank uses static const tables)
 *   dispatch ..................... Dispatch (serial)
 *   psy .......................... Resolve (serial)
 *   enc, step .................... Encode (serial): reservoir, bitstream, tag,
 *                                  the CBR/ABR step-search starts
 *   rg ........................... ReplayGain feed: Dispatch pushes, one task per
 *                                  channel analyses (contract in gain_feed.h)
 * Prepare and Search read only the constants and their frame record.  VBR
 * and ABR Search get Encode's carried state (RlCarried, stages.h) as an
 * argument (a snapshot taken by the
 * scheduler after the last committed Encode); Encode checks that the search
 * holds for the true reservoir and redoes it serially when it does not
 * (rl_search_valid, stages.h; docs/architecture.md). */
#ifndef RL_ENCODER_H
#define RL_ENCODER_H

#include "rl_config.h"
#include "rl_frame.h"
#include "psy.h"          /* RlAth, RlPsyConst, RlPsyState */
#include "dispatch.h"     /* RlDispatchState */
#include "bitstream.h"    /* RlEncodeState */
#include "gain_feed.h"    /* RlGainFeed */
#include "quantize_outer.h" /* RlStepState */

typedef struct RlEncoder {
    RlConfig        cfg;
    RlAth           ath;
    RlPsyConst      psyc;
    RlDispatchState dispatch;
    RlPsyState      psy;
    RlEncodeState   enc;
    RlStepState     step;         /* Encode: where each channel's CBR/ABR step search starts */
    RlGainFeed      rg;
} RlEncoder;

#endif
