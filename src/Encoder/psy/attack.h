/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the attack detector's high-pass filter and sub-block peaks
 * (scalar kernels of the DSP table; psy_prepare.c calls them through it).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_ATTACK_H
#define RL_ATTACK_H

#include "dsp.h"   /* RL_DECL_* */

/* Taps 0..9 of the symmetric 21-tap fs/4 high-pass (the centre tap is 1). */
extern const float rl_attack_fircoef[10];

/* hpf[i], 0 <= i < 576, from firbuf[i .. i + 20]: the centre sample plus
 * two float sums (even and odd taps, each left to right), added last. */
RL_DECL_ATTACK_FIR(rl_attack_fir);

/* peaks[b] = max(1, |pf[i]|) over the 64 values of sub-block b, b < 9. */
RL_DECL_BLOCK_PEAKS(rl_block_peaks);

#endif
