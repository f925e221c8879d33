/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ABR rate control (LAME ABR_iteration_loop).  The targets depend
 * on the reservoir only through a cap at the largest frame, and the loops
 * on the previous granule only through the step search's start, so Search
 * runs everything with an assumed state and Encode checks it exactly
 * (the argument is at abr_valid) and redoes the frame when the check
 * fails.  The mode's table is rl_rc_abr (rate_control.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_ABR_H
#define RL_QUANTIZE_ABR_H

#include "rl_types.h"
#include "rl_carried.h"       /* RlStepState */
#include "quantize_common.h"  /* RlLoopInput */
#include "quantize_outer.h"   /* RlGainBits */

/* ABR's part of the frame record (RlFrame.rc.abr): Search writes it,
 * Encode's check and commit read it. */
typedef struct RlAbrFrame {
    RlLoopInput loop;                 /* the loops' inputs (rl_loop_prepare) */
    int   search_bits[2][2];          /* frame bits per gr/ch after the search */
    int   targ[2][2];                 /* target bits the search used */
    int   start[2][2][2];             /* step search start assumed: gain, step */
    int   end[2][2][2];               /* step state after it: gain, step */
    /* what the check replays a step search from */
    RlGranule   loop_start[2][2];     /* the granule as the outer loop got it */
    float xrpow_start[2][2][576];     /* ... and its xrpow, pseudohalf */
    int   pseudohalf_start[2][2][RL_SFBMAX];
    RlGainBits  gain_bits[2][2];      /* the step search's counts per gain */
    RlStepState step_after;           /* the check: the true step state after the frame */
} RlAbrFrame;

#endif
