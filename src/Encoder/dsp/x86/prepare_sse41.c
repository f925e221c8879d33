/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase rows, the attack high-pass and peaks, the
 * ReplayGain filters, the FHT, the PCM conversion and the M/S thresholds
 * for sse41 (compiled with -msse4.1): 4 lanes (prepare_body.h). */
#define W 4
#define RL_PREP(name) name##_sse41
#include "prepare_body.h"
