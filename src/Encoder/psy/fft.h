/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: windowed FFTs of the psychoacoustic model (Hartley transform).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_FFT_H
#define RL_FFT_H

#include "dsp.h"   /* RL_DECL_* */
#include "rl_types.h"

/* Fills the Blackman (long) and Hann half (short) windows.
 * Stage: init. */
void rl_fft_init_windows(float window[RL_BLKSIZE], float window_s[RL_BLKSIZE_S / 2]);
/* In-place FHT of n = 2*half points (half = BLKSIZE/2 or BLKSIZE_S/2).
 * Stage: Prepare. */
RL_DECL_FHT(rl_fht);
/* The twiddles rl_fht uses at stage s (0..3, kx = 2 * 4^s) for i = 1 ..
 * kx - 1, from the same float recurrence: c1[i], s1[i] and the derived
 * c2[i], s2[i] (index 0 unused).  For the SIMD kernels' tables. */
void rl_fht_twiddles(int s, float *c1, float *s1, float *c2, float *s2);
/* out = FHT of the windowed 1024 samples starting at buf (fht: rl_fht or a
 * kernel giving its bits, dsp.h).
 * Stage: Prepare. */
void rl_fft_long(const float window[RL_BLKSIZE], float out[RL_BLKSIZE], const float *buf,
                 void (*fht)(float *fz, int half));
/* out[b] = FHT of the windowed 256 samples starting at buf + 192*(b+1).
 * Stage: Prepare. */
void rl_fft_short(const float window_s[RL_BLKSIZE_S / 2], float out[3][RL_BLKSIZE_S],
                  const float *buf, void (*fht)(float *fz, int half));

#endif
