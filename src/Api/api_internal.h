/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: what the public API's files share (not installed). */
#ifndef RL_API_INTERNAL_H
#define RL_API_INTERNAL_H

#include "ringlame/ringlame.h"
#include "lame_args.h"
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
    int     threads;         /* the encoder's own pool, the caller included; 0: one per CPU */
    int     simd_level;      /* ringlame_settings_set_simd: < 0 the CPU's best */
    RingLamePool *pool;
    char    error[RL_API_ERROR_MAX];
};

/* The encoder's settings for s: lame's grammar on every token in order
 * (lame_args.h), then the SIMD level.  0, -ENOMEM or -EINVAL (the reason,
 * naming the option, in err). */
int rl_api_settings_build(const RingLameSettings *s, RlLameSettings *ls, char *err, size_t errlen);

#endif
