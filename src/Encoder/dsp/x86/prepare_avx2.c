/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase rows, attack high-pass and peaks and the
 * ReplayGain filters for avx2 (compiled with -mavx2): 8 lanes
 * (prepare_body.h). */
#define W 8
#define RL_PREP(name) name##_avx2
#include "prepare_body.h"
