/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the psy spreading for AVX2 (compiled with -mavx2): eight
 * partitions at once (spread_body.h). */
#include <immintrin.h>

#include "fast_log.h"
#include "psy_spread.h"
#include "x86_kernels.h"

#define W 8
typedef __m256 VF;
typedef __m256i VI;
typedef __m256 VM;

static inline VF set1_f(float x) { return _mm256_set1_ps(x); }
static inline VI set1_i(int x) { return _mm256_set1_epi32(x); }
static inline VF add_f(VF a, VF b) { return _mm256_add_ps(a, b); }
static inline VF sub_f(VF a, VF b) { return _mm256_sub_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm256_mul_ps(a, b); }
static inline VF div_f(VF a, VF b) { return _mm256_div_ps(a, b); }
static inline VM cmp_lt(VF a, VF b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline VM cmp_le(VF a, VF b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline VM cmp_gt(VF a, VF b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline VM cmp_ge(VF a, VF b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline VF sel(VM m, VF a, VF b) { return _mm256_blendv_ps(a, b, m); }
static inline VI cast_fi(VF a) { return _mm256_castps_si256(a); }
static inline VF cvt_if(VI a) { return _mm256_cvtepi32_ps(a); }
static inline VI and_i(VI a, VI b) { return _mm256_and_si256(a, b); }
static inline VI add_i(VI a, VI b) { return _mm256_add_epi32(a, b); }
static inline VI sub_i(VI a, VI b) { return _mm256_sub_epi32(a, b); }
static inline VI min_i(VI a, VI b) { return _mm256_min_epi32(a, b); }
static inline VI max_i(VI a, VI b) { return _mm256_max_epi32(a, b); }
static inline VI abs_i(VI a) { return _mm256_abs_epi32(a); }
static inline VM cmpgt_i(VI a, VI b) { return _mm256_castsi256_ps(_mm256_cmpgt_epi32(a, b)); }
#define srli_i(a, n) _mm256_srli_epi32((a), (n))
static inline VI load_i(const int *p) { return _mm256_loadu_si256((const __m256i *) p); }
static inline void store_f(float *p, VF a) { _mm256_storeu_ps(p, a); }
static inline VF gather_f(const float *base, VI i) { return _mm256_i32gather_ps(base, i, 4); }
static inline VF loadu_f(const float *p) { return _mm256_loadu_ps(p); }
/* rl_psy_ma_table2[i] per lane, 0 <= i <= 9 */
static inline VF table2_f(VI i)
{
    /* entries 0..7 by permute, 8 and 9 by blend */
    VF const lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(rl_psy_ma_table2), i);
    VF const hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(rl_psy_ma_table2 + 2), _mm256_sub_epi32(i, _mm256_set1_epi32(2)));
    return _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_cmpgt_epi32(i, _mm256_set1_epi32(7))));
}
/* (int)((double) lg * RL_PSY_MA_LOG_SCALE) per lane */
static inline VI trunc_scaled(VF lg)
{
    __m256d const c = _mm256_set1_pd(RL_PSY_MA_LOG_SCALE);
    __m128i const lo = _mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(lg)), c));
    __m128i const hi = _mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(lg, 1)), c));
    return _mm256_set_m128i(hi, lo);
}

#define RL_SPREAD_FN rl_psy_spread_avx2
#include "spread_body.h"
