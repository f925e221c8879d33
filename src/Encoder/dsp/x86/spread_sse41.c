/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the psy spreading for SSE4.1 (compiled with -msse4.1): four
 * partitions at once (spread_body.h), the table loads one lane at a time. */
#include <smmintrin.h>

#include "fast_log.h"
#include "psy_spread.h"
#include "x86_kernels.h"

#define W 4
typedef __m128 VF;
typedef __m128i VI;
typedef __m128 VM;

static inline VF set1_f(float x) { return _mm_set1_ps(x); }
static inline VI set1_i(int x) { return _mm_set1_epi32(x); }
static inline VF add_f(VF a, VF b) { return _mm_add_ps(a, b); }
static inline VF sub_f(VF a, VF b) { return _mm_sub_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm_mul_ps(a, b); }
static inline VF div_f(VF a, VF b) { return _mm_div_ps(a, b); }
static inline VM cmp_lt(VF a, VF b) { return _mm_cmplt_ps(a, b); }
static inline VM cmp_le(VF a, VF b) { return _mm_cmple_ps(a, b); }
static inline VM cmp_gt(VF a, VF b) { return _mm_cmpgt_ps(a, b); }
static inline VM cmp_ge(VF a, VF b) { return _mm_cmpge_ps(a, b); }
static inline VF sel(VM m, VF a, VF b) { return _mm_blendv_ps(a, b, m); }
static inline VI cast_fi(VF a) { return _mm_castps_si128(a); }
static inline VF cvt_if(VI a) { return _mm_cvtepi32_ps(a); }
static inline VI and_i(VI a, VI b) { return _mm_and_si128(a, b); }
static inline VI add_i(VI a, VI b) { return _mm_add_epi32(a, b); }
static inline VI sub_i(VI a, VI b) { return _mm_sub_epi32(a, b); }
static inline VI min_i(VI a, VI b) { return _mm_min_epi32(a, b); }
static inline VI max_i(VI a, VI b) { return _mm_max_epi32(a, b); }
static inline VI abs_i(VI a) { return _mm_abs_epi32(a); }
static inline VM cmpgt_i(VI a, VI b) { return _mm_castsi128_ps(_mm_cmpgt_epi32(a, b)); }
#define srli_i(a, n) _mm_srli_epi32((a), (n))
static inline VI load_i(const int *p) { return _mm_loadu_si128((const __m128i *) p); }
static inline void store_f(float *p, VF a) { _mm_storeu_ps(p, a); }
static inline VF gather_f(const float *base, VI i)
{
    return _mm_setr_ps(base[_mm_cvtsi128_si32(i)], base[_mm_extract_epi32(i, 1)],
                       base[_mm_extract_epi32(i, 2)], base[_mm_extract_epi32(i, 3)]);
}
static inline VF loadu_f(const float *p) { return _mm_loadu_ps(p); }
/* rl_psy_ma_table2[i] per lane, 0 <= i <= 9 */
static inline VF table2_f(VI i)
{
    return gather_f(rl_psy_ma_table2, i);
}
/* (int)((double) lg * RL_PSY_MA_LOG_SCALE) per lane */
static inline VI trunc_scaled(VF lg)
{
    __m128d const c = _mm_set1_pd(RL_PSY_MA_LOG_SCALE);
    __m128i const lo = _mm_cvttpd_epi32(_mm_mul_pd(_mm_cvtps_pd(lg), c));
    __m128i const hi = _mm_cvttpd_epi32(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(lg, lg)), c));
    return _mm_unpacklo_epi64(lo, hi);
}

#define RL_SPREAD_FN rl_psy_spread_sse41
#include "spread_body.h"
