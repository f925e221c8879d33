/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the attack high-pass for AVX-512 (compiled with -mavx512f,
 * -mavx512bw, -mavx512vl): 16 outputs at once (attack_fir_body.h). */
#include <immintrin.h>

#include "attack_fir.h"
#include "x86_kernels.h"

#define W 16
typedef __m512 VF;

static inline VF set1_f(float x) { return _mm512_set1_ps(x); }
static inline VF loadu_f(const float *p) { return _mm512_loadu_ps(p); }
static inline void storeu_f(float *p, VF a) { _mm512_storeu_ps(p, a); }
static inline VF add_f(VF a, VF b) { return _mm512_add_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm512_mul_ps(a, b); }

#define RL_ATTACK_FIR_FN rl_attack_fir_avx512
#include "attack_fir_body.h"
