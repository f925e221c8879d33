/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: what Encode needs of Search's internals (not for schedulers).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_STAGE_SEARCH_H
#define RL_STAGE_SEARCH_H

#include "stages.h"
#include "rl_config.h"

/* 1 for the rate-control modes Search implements.
 * Stage: Search, Encode. */
int rl_search_mode_ported(RlVbrMode v);

/* rl_search_valid; for ABR a valid check also yields the step state after
 * the frame (from the true starts) in *step_after.
 * Stage: Encode. */
int rl_search_valid_step(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                         RlStepState *step_after);

#ifdef RL_TEST_HOOKS
/* Stage: tests only. */
void rl_search_test_force_invalid(int every_n);
#endif

#endif
