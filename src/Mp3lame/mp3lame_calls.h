/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's record of the caller's encode calls
 * (their sample counts, in order) for the ring's Dispatch, which feeds
 * the encoder one call's samples at a time where that matters: with
 * resampling, libmp3lame's resampler rounds its position once per call
 * (LAME 3.100's fill_buffer_resample), so its output depends on how the
 * caller cuts the input.  Thread-safe: the caller's thread pushes,
 * Dispatch pops. */
#ifndef RL_MP3LAME_CALLS_H
#define RL_MP3LAME_CALLS_H

#include <pthread.h>

typedef struct RlMp3Calls {
    pthread_mutex_t mu;
    int *n;                     /* a circular queue of counts */
    int  cap, head, len;
} RlMp3Calls;

int  rl_mp3_calls_init(RlMp3Calls *c);      /* 0 or -ENOMEM */
void rl_mp3_calls_free(RlMp3Calls *c);
/* a call of n > 0 samples; 0 or -ENOMEM */
int  rl_mp3_calls_push(RlMp3Calls *c, int n);
/* the next call's count, 0 when none is recorded */
int  rl_mp3_calls_pop(RlMp3Calls *c);

#endif
