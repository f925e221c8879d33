/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: CBR rate control (LAME CBR_iteration_loop).  Every granule's
 * bit targets come from the reservoir after the previous granule and its
 * outer loops start where the previous granule's step searches ended, but
 * a loop reads both only in a few decisions: Search runs the whole frame
 * for an assumed reservoir and step starts and records those decisions
 * (RlLoopRecord), Encode replays them against the true targets and starts
 * (the argument is at cbr_valid) and redoes the frame serially, its two
 * channels on a fork-join, when one comes out otherwise.  The mode's table
 * is rl_rc_cbr (rate_control.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_CBR_H
#define RL_QUANTIZE_CBR_H

#include "rl_types.h"
#include "rl_carried.h"       /* RlStepState */
#include "quantize_common.h"  /* RlLoopInput */
#include "quantize_outer.h"   /* RlLoopRecord */

/* CBR's part of the frame record (RlFrame.rc.cbr): Search writes it,
 * Encode's check and commit read it. */
typedef struct RlCbrFrame {
    RlLoopInput  loop;                /* the loops' inputs (rl_loop_prepare) */
    int          deferred_from;       /* the first granule whose loops the search left
                                       * to Encode (mode_gr: none) */
    int          bits[2][2];          /* granule bits per gr/ch (ResvAdjust) */
    RlLoopRecord rec[2][2];           /* each outer loop, for the check */
    RlStepState  step_after;          /* the step state after the frame */
    RlCarried    predicted;           /* the state after the frame when the
                                       * search's assumption is the truth */
} RlCbrFrame;

#endif
