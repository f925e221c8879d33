/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the psy model's Hartley transform for AVX2 (compiled with
 * -mavx2): eight butterflies at once (fht_body.h). */
#include <immintrin.h>

#include "fft.h"
#include "fht_stage.h"
#include "x86_kernels.h"

#define W 8
typedef __m256 VF;
typedef __m256i VM;

static inline VM mask_first(int c)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(c), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline VM mask_last(int c)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(c), _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}
static inline VF load_m(const float *p, VM m) { return _mm256_maskload_ps(p, m); }
static inline void store_m(float *p, VM m, VF a) { _mm256_maskstore_ps(p, m, a); }
static inline VF loadu_f(const float *p) { return _mm256_loadu_ps(p); }
static inline void storeu_f(float *p, VF a) { _mm256_storeu_ps(p, a); }
static inline VF rev_f(VF a) { return _mm256_permutevar8x32_ps(a, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0)); }
static inline VF add_f(VF a, VF b) { return _mm256_add_ps(a, b); }
static inline VF sub_f(VF a, VF b) { return _mm256_sub_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm256_mul_ps(a, b); }

#define RL_FHT_FN rl_fht_avx2
#include "fht_body.h"
