/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the quantizer kernels on xr^(3/4) for AVX2 (compiled with
 * -mavx2): the band noise, a group of four lines per vector, four bands'
 * sums side by side (noise_x34_body.h), and the line quantization
 * (quant_lines_body.h). */
#include <immintrin.h>

#include "huffman_count.h"
#include "noise_x34.h"
#include "x86_kernels.h"

/* tab[i] for four indices: entries 0..15 from two registers by permutes
 * (nearly all quantized values of the search are below 16), four loads
 * when an index is larger (a gather is slower on AMD Zen 4) */
static inline __m128 lookup(const float *tab, __m256 lo, __m256 hi, __m128i i)
{
    if (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(i, _mm_set1_epi32(15)))))
        return _mm_setr_ps(tab[_mm_cvtsi128_si32(i)], tab[_mm_extract_epi32(i, 1)],
                           tab[_mm_extract_epi32(i, 2)], tab[_mm_extract_epi32(i, 3)]);
    __m256i const i8 = _mm256_castsi128_si256(i);
    __m256 const a = _mm256_permutevar8x32_ps(lo, i8);
    __m256 const b = _mm256_permutevar8x32_ps(hi, i8);
    __m128 const big = _mm_castsi128_ps(_mm_cmpgt_epi32(i, _mm_set1_epi32(7)));
    return _mm_blendv_ps(_mm256_castps256_ps128(a), _mm256_castps256_ps128(b), big);
}

#define LOOKUP_SETUP_ADJ                                                       \
    __m256 const adj_lo = _mm256_loadu_ps(rl_adj43asm), adj_hi = _mm256_loadu_ps(rl_adj43asm + 8)
#define LOOKUP_SETUP                                                           \
    __m256 const adj_lo = _mm256_loadu_ps(rl_adj43asm), adj_hi = _mm256_loadu_ps(rl_adj43asm + 8); \
    __m256 const p43_lo = _mm256_loadu_ps(rl_pow43), p43_hi = _mm256_loadu_ps(rl_pow43 + 8)
#define LOOKUP_PARAMS , __m256 adj_lo, __m256 adj_hi, __m256 p43_lo, __m256 p43_hi
#define LOOKUP_ARGS , adj_lo, adj_hi, p43_lo, p43_hi
#define LOOKUP_ADJ(i) lookup(rl_adj43asm, adj_lo, adj_hi, (i))
#define LOOKUP_POW43(i) lookup(rl_pow43, p43_lo, p43_hi, (i))
#define RL_NOISE_FN rl_noise_x34_batch_avx2
#include "noise_x34_body.h"

#define RL_QUANT_LINES_FN rl_quantize_lines_avx2
#include "quant_lines_body.h"
