/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the part of Encode's serial state a search depends on.  A
 * scheduler copies it after each committed Encode; the rate-control mode
 * chooses from that copy what Search assumes (rl_search_assume), and
 * Encode checks the search against the true state.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_CARRIED_H
#define RL_CARRIED_H

/* Where each channel's CBR/ABR step-size search starts (LAME OldValue and
 * CurrentStep, kept across granules by Encode). */
typedef struct RlStepState {
    int old_value[2];
    int current_step[2];
} RlStepState;

typedef struct RlCarried {
    int resv_size;          /* the bit reservoir before the frame */
    int ahead;              /* Encodes that run between the state a scheduler
                             * knew and the frame's own (0: this is the
                             * frame's true state), as the mode's assume
                             * passes it to its search; 0 in Encode's state */
    RlStepState step;
} RlCarried;

#endif
