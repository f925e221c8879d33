/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the fs/4 high-pass of LAME's attack detection, the part of
 * the psy model's attack peaks the DSP kernels compute.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_ATTACK_FIR_H
#define RL_ATTACK_FIR_H

#define RL_NSFIRLEN 21

/* LAME's fircoef (the odd taps of the symmetric filter, doubled) */
extern const float rl_attack_fircoef[10];

/* hpf[i] for i < 576 from firbuf[i .. i + RL_NSFIRLEN]: the centre tap,
 * then the pairs of taps into two float sums (even and odd), each in tap
 * order, added at the end.  The scalar kernel. */
void rl_attack_fir(const float *firbuf, float *hpf);

#endif
