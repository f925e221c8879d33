/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: windowed FFTs of the psychoacoustic model (Hartley transform).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_FFT_H
#define RL_FFT_H

#include "rl_types.h"

/* Fills the Blackman (long) and Hann half (short) windows.
 * Stage: init. */
void rl_fft_init_windows(float window[RL_BLKSIZE], float window_s[RL_BLKSIZE_S / 2]);
/* In-place FHT of n = 2*half points (half = BLKSIZE/2 or BLKSIZE_S/2):
 * the scalar kernel of RlDsp.fht.
 * Stage: Prepare. */
void rl_fht(float *fz, int half);
typedef void (*RlFhtFn)(float *fz, int half);
/* the stage twiddles (cos, sin of pi/8, pi/32, pi/128, pi/512), and the
 * largest number of butterflies per block of a stage (kx) */
extern const float rl_fht_twiddle[8];
#define RL_FHT_MAX_KX (RL_BLKSIZE / 8)
/* out = FHT (by fht) of the windowed 1024 samples starting at buf.
 * Stage: Prepare. */
void rl_fft_long(const float window[RL_BLKSIZE], float out[RL_BLKSIZE], const float *buf, RlFhtFn fht);
/* out[b] = FHT (by fht) of the windowed 256 samples starting at buf + 192*(b+1).
 * Stage: Prepare. */
void rl_fft_short(const float window_s[RL_BLKSIZE_S / 2], float out[3][RL_BLKSIZE_S],
                  const float *buf, RlFhtFn fht);

#endif
