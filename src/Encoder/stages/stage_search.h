/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: what Encode needs of Search's internals (not for schedulers).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_STAGE_SEARCH_H
#define RL_STAGE_SEARCH_H

#include "stages.h"

/* Encode's serial redo of a search that rl_search_valid rejected: the MDCT
 * again, then the mode's redo from the true state *truth (on fj when
 * given).  Afterwards f holds the search from the truth.
 * Stage: Encode. */
int rl_search_redo(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                   const RlForkJoin *fj);

#ifdef RL_TEST_HOOKS
/* Stage: tests only. */
void rl_search_test_force_invalid(int every_n);
#endif

#endif
