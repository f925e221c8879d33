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
#include "quantize_outer.h"   /* RlLoopRecord */

/* ABR's part of the frame record (RlFrame.rc.abr): Search writes it,
 * Encode's check and commit read it. */
typedef struct RlAbrFrame {
    RlLoopInput  loop;                /* the loops' inputs (rl_loop_prepare) */
    int          search_bits[2][2];   /* frame bits per gr/ch after the search */
    RlLoopRecord rec[2][2];           /* each outer loop, for the check */
    RlStepState  step_after;          /* the check: the true step state after the frame */
} RlAbrFrame;

#endif
