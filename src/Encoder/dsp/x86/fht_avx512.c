/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the psy model's Hartley transform for AVX-512 (compiled with
 * -mavx512f, -mavx512bw, -mavx512vl): eight butterflies at once, masks in
 * mask registers (fht_body.h). */
#include <immintrin.h>

#include "fft.h"
#include "fht_stage.h"
#include "x86_kernels.h"

#define W 8
typedef __m256 VF;
typedef __mmask8 VM;

static inline VM mask_first(int c) { return (VM) ((1u << c) - 1u); }
static inline VM mask_last(int c) { return (VM) (0xffu << (8 - c)); }
static inline VF load_m(const float *p, VM m) { return _mm256_maskz_loadu_ps(m, p); }
static inline void store_m(float *p, VM m, VF a) { _mm256_mask_storeu_ps(p, m, a); }
static inline VF loadu_f(const float *p) { return _mm256_loadu_ps(p); }
static inline void storeu_f(float *p, VF a) { _mm256_storeu_ps(p, a); }
static inline VF rev_f(VF a) { return _mm256_permutexvar_ps(_mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0), a); }
static inline VF add_f(VF a, VF b) { return _mm256_add_ps(a, b); }
static inline VF sub_f(VF a, VF b) { return _mm256_sub_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm256_mul_ps(a, b); }

#define RL_FHT_FN rl_fht_avx512
#include "fht_body.h"
