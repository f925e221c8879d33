/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: what the public API's files share (not installed). */
#ifndef RL_API_INTERNAL_H
#define RL_API_INTERNAL_H

#include "ringlame/ringlame.h"
#include "args.h"
#include "executor.h"
#include "ring.h"

#define RL_API_ERROR_MAX 256

struct RingLamePool {
    RlExecutor *ex;
};

struct RingLameSettings {
    char  **tokens;          /* the lame options given so far, in order */
    int     ntokens, cap;
    int     sample_rate, channels;
    int64_t length;          /* frames the program will send; -1: unknown (no TLEN) */
    int     threads;         /* -1: not set by the setter (then --threads/--sequential/auto) */
    RingLamePool *pool;
    char    error[RL_API_ERROR_MAX];
};

/* The encoder options for s: lame's parse of every token, then the input
 * description.  *threads: the thread count (caller included) they ask for,
 * 0 = one per CPU.  0 or -EINVAL (message in err). */
int rl_api_settings_build(const RingLameSettings *s, RlArgs *a, int *threads, char *err,
                          size_t errlen);

#endif
