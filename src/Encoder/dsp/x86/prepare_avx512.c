/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase rows, attack high-pass and peaks and the
 * ReplayGain filters for avx512 (compiled with -mavx512f): 16 lanes
 * (prepare_body.h). */
#define W 16
#define RL_PREP(name) name##_avx512
#include "prepare_body.h"
