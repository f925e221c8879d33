/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase rows, the attack high-pass, the ReplayGain
 * filters, the FHT, the long-block MDCT, the PCM conversion and the M/S
 * thresholds for avx512 (compiled with the AVX-512 flags): 16 lanes
 * (prepare_body.h; the attack peaks stay avx2's). */
#define W 16
#define RL_PREP(name) name##_avx512
#include "prepare_body.h"
