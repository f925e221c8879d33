/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase rows, attack high-pass and peaks and the
 * ReplayGain filters for sse41 (compiled with -msse4.1): 4 lanes
 * (prepare_body.h). */
#define W 4
#define RL_PREP(name) name##_sse41
#include "prepare_body.h"
