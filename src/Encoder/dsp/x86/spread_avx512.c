/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the psy spreading for AVX-512 (compiled with -mavx512f
 * -mavx512bw -mavx512vl): sixteen partitions at once (spread_body.h). */
#include <immintrin.h>

#include "fast_log.h"
#include "psy_spread.h"
#include "x86_kernels.h"

#define W 16
typedef __m512 VF;
typedef __m512i VI;
typedef __mmask16 VM;

static inline VF set1_f(float x) { return _mm512_set1_ps(x); }
static inline VI set1_i(int x) { return _mm512_set1_epi32(x); }
static inline VF add_f(VF a, VF b) { return _mm512_add_ps(a, b); }
static inline VF sub_f(VF a, VF b) { return _mm512_sub_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm512_mul_ps(a, b); }
static inline VF div_f(VF a, VF b) { return _mm512_div_ps(a, b); }
static inline VM cmp_lt(VF a, VF b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline VM cmp_le(VF a, VF b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
static inline VM cmp_gt(VF a, VF b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
static inline VM cmp_ge(VF a, VF b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
static inline VF sel(VM m, VF a, VF b) { return _mm512_mask_blend_ps(m, a, b); }
static inline VI cast_fi(VF a) { return _mm512_castps_si512(a); }
static inline VF cvt_if(VI a) { return _mm512_cvtepi32_ps(a); }
static inline VI and_i(VI a, VI b) { return _mm512_and_si512(a, b); }
static inline VI add_i(VI a, VI b) { return _mm512_add_epi32(a, b); }
static inline VI sub_i(VI a, VI b) { return _mm512_sub_epi32(a, b); }
static inline VI min_i(VI a, VI b) { return _mm512_min_epi32(a, b); }
static inline VI max_i(VI a, VI b) { return _mm512_max_epi32(a, b); }
static inline VI abs_i(VI a) { return _mm512_abs_epi32(a); }
static inline VM cmpgt_i(VI a, VI b) { return _mm512_cmpgt_epi32_mask(a, b); }
#define srli_i(a, n) _mm512_srli_epi32((a), (n))
static inline VI load_i(const int *p) { return _mm512_loadu_si512(p); }
static inline void store_f(float *p, VF a) { _mm512_storeu_ps(p, a); }
static inline VF gather_f(const float *base, VI i) { return _mm512_i32gather_ps(i, base, 4); }
static inline VF loadu_f(const float *p) { return _mm512_loadu_ps(p); }
/* rl_psy_ma_table2[i] per lane, 0 <= i <= 9 */
static inline VF table2_f(VI i)
{
    return _mm512_permutexvar_ps(i, _mm512_maskz_loadu_ps(0x3ff, rl_psy_ma_table2));
}
/* (int)((double) lg * RL_PSY_MA_LOG_SCALE) per lane */
static inline VI trunc_scaled(VF lg)
{
    __m512d const c = _mm512_set1_pd(RL_PSY_MA_LOG_SCALE);
    __m256 const l0 = _mm512_castps512_ps256(lg);
    __m256 const l1 = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(lg), 1));
    __m256i const lo = _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_cvtps_pd(l0), c));
    __m256i const hi = _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_cvtps_pd(l1), c));
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* lane l: (lo, hi)[i[l]], 0 <= i[l] < 32 */
static inline VF perm2_f(VF lo, VI i, VF hi) { return _mm512_permutex2var_ps(lo, i, hi); }
#define RL_SPREAD_PERM2
/* rl_psy_ma_delta_tab[idx[l]] in the valid lanes, 0 in the others (the
 * valid lanes' idx are tonality indices, 0..8) */
static inline VI delta_lanes(const unsigned char *idx, VM valid)
{
    __m512i const i = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(valid, idx));
    __m512i const tab = _mm512_maskz_loadu_epi32(0x1ff, rl_psy_ma_delta_tab);
    return _mm512_maskz_permutexvar_epi32(valid, i, tab);
}
static inline VI gather_i(const int *base, VI i) { return _mm512_i32gather_epi32(i, base, 4); }
static inline VI trunc_i(VF a) { return _mm512_cvttps_epi32(a); }
/* rl_psy_tonality_tab[i] per lane, 0 <= i <= 8 */
static inline VF tonality_lanes(VI i)
{
    return _mm512_permutexvar_ps(i, _mm512_maskz_loadu_ps(0x1ff, rl_psy_tonality_tab));
}
static inline VF loadu_mask_f(const float *p, VM m) { return _mm512_maskz_loadu_ps(m, p); }
static inline void store_mask_f(float *p, VM m, VF a) { _mm512_mask_storeu_ps(p, m, a); }
/* min / max of the lanes in m: INT_MAX / INT_MIN for none */
static inline int reduce_min_i(VM m, VI a) { return _mm512_mask_reduce_min_epi32(m, a); }
static inline int reduce_max_i(VM m, VI a) { return _mm512_mask_reduce_max_epi32(m, a); }
/* rl_fast_log_tab[i], rl_fast_log_tab[i + 1] per lane (0 <= i < 512): two
 * gathers of eight 8-byte pairs, half the elements of two 4-byte gathers */
static inline void log_pairs(VI i, VF *t0, VF *t1)
{
    const void *const base = rl_fast_log_pairs;
    __m512 const a = _mm512_castsi512_ps(_mm512_i32gather_epi64(_mm512_castsi512_si256(i), base, 8));
    __m512 const b = _mm512_castsi512_ps(
        _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(i, 1), base, 8));
    __m512i const even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    *t0 = _mm512_permutex2var_ps(a, even, b);
    *t1 = _mm512_permutex2var_ps(a, _mm512_add_epi32(even, _mm512_set1_epi32(1)), b);
}
#define RL_SPREAD_LOG_PAIRS
#define RL_SPREAD_MASK_BITS     /* VM is an integer of lane bits */

#define RL_SPREAD_FN rl_psy_spread_avx512
#include "spread_body.h"
