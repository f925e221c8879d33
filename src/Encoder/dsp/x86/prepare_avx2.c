/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase rows, the attack high-pass and peaks, the
 * ReplayGain filters, the FHT, the PCM conversion and the M/S thresholds
 * for avx2 (compiled with -mavx2): 8 lanes (prepare_body.h). */
#define W 8
#define RL_PREP(name) name##_avx2
#include "prepare_body.h"
