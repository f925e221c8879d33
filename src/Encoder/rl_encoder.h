/* ringlame: the encoder object.  It groups the read-only constants fixed at
 * init and one state struct per serial stage.  Ownership (who may write):
 *   cfg, ath, psyc, mdctc ........ settings/psy/mdct init only, then read-only
 *   dispatch ..................... Dispatch (serial)
 *   psy .......................... Resolve (serial)
 *   enc .......................... Encode (serial): reservoir, bitstream, tag
 *   rg ........................... ReplayGain (fed by Dispatch in stream order)
 * Prepare and Search read only the constants and their frame record.
 * Exception while the ring does not exist yet: VBR Search reads enc.resv_size
 * (ResvFrameBegin at the maximum bitrate); see docs/architecture.md. */
#ifndef RL_ENCODER_H
#define RL_ENCODER_H

#include "rl_config.h"
#include "rl_frame.h"
#include "psy.h"          /* RlAth, RlPsyConst, RlPsyState */
#include "mdct.h"         /* RlMdctConst */
#include "dispatch.h"     /* RlDispatchState */
#include "bitstream.h"    /* RlEncodeState */
#include "replaygain.h"   /* RlGainState */

typedef struct RlEncoder {
    RlConfig        cfg;
    RlAth           ath;
    RlPsyConst      psyc;
    RlMdctConst     mdctc;
    RlDispatchState dispatch;
    RlPsyState      psy;
    RlEncodeState   enc;
    RlGainState     rg;
} RlEncoder;

#endif
