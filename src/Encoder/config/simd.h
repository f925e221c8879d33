/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the SIMD levels of the encoder's kernels (the table itself is
 * private: dsp/dsp.h), for the layers that choose one (RlOptions.simd_level). */
#ifndef RL_SIMD_H
#define RL_SIMD_H

enum {
    RL_SIMD_SCALAR = 0,
    RL_SIMD_SSE41 = 1,
    RL_SIMD_AVX2 = 2,
    RL_SIMD_AVX512 = 3,
    RL_SIMD_LEVELS = 4
};

/* "scalar", "sse4.1", "avx2", "avx512"; NULL outside 0..RL_SIMD_LEVELS-1. */
const char *rl_simd_name(int level);

/* The level of a name above (case-insensitive), or -EINVAL. */
int rl_simd_parse(const char *name);

/* The best level this CPU and OS support (and this build compiled: with
 * RL_SIMD off, or on a non-x86 machine, always RL_SIMD_SCALAR).  AVX2 needs
 * the OS to save the YMM state, AVX-512 (F, BW and VL) the ZMM state. */
int rl_cpu_simd_level(void);

#endif
