/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the quantizer kernels on xr^(3/4) for AVX-512 (compiled with
 * -mavx512f, -mavx512bw, -mavx512vl): as the AVX2 ones, with 32-entry
 * table look-ups (noise_x34_body.h, quant_lines_body.h). */
#include <immintrin.h>

#include "huffman_count.h"
#include "noise_x34.h"
#include "x86_kernels.h"

/* tab[i] for four indices: entries 0..31 by one permute of two ZMM
 * registers (nearly all quantized values of the search are below 32),
 * four loads when an index is larger (a gather is slower on AMD Zen 4) */
static inline __m128 lookup(const float *tab, __m512 lo, __m512 hi, __m128i i)
{
    if (_mm_cmpgt_epi32_mask(i, _mm_set1_epi32(31)))
        return _mm_setr_ps(tab[_mm_cvtsi128_si32(i)], tab[_mm_extract_epi32(i, 1)],
                           tab[_mm_extract_epi32(i, 2)], tab[_mm_extract_epi32(i, 3)]);
    return _mm512_castps512_ps128(_mm512_permutex2var_ps(lo, _mm512_castsi128_si512(i), hi));
}

/* tab[i] for four indices up to 31 */
static inline __m128 lookup_small(__m512 lo, __m512 hi, __m128i i)
{
    return _mm512_castps512_ps128(_mm512_permutex2var_ps(lo, _mm512_castsi128_si512(i), hi));
}

#define LOOKUP_SMALL_MAX 31
#define LOOKUP_ADJ_SMALL(i) lookup_small(adj_lo, adj_hi, (i))
#define LOOKUP_POW43_SMALL(i) lookup_small(p43_lo, p43_hi, (i))
#define LOOKUP_SETUP_ADJ                                                       \
    __m512 const adj_lo = _mm512_loadu_ps(rl_adj43asm), adj_hi = _mm512_loadu_ps(rl_adj43asm + 16)
#define LOOKUP_SETUP                                                           \
    __m512 const adj_lo = _mm512_loadu_ps(rl_adj43asm), adj_hi = _mm512_loadu_ps(rl_adj43asm + 16); \
    __m512 const p43_lo = _mm512_loadu_ps(rl_pow43), p43_hi = _mm512_loadu_ps(rl_pow43 + 16)
#define LOOKUP_PARAMS , __m512 adj_lo, __m512 adj_hi, __m512 p43_lo, __m512 p43_hi
#define LOOKUP_ARGS , adj_lo, adj_hi, p43_lo, p43_hi
#define LOOKUP_ADJ(i) lookup(rl_adj43asm, adj_lo, adj_hi, (i))
#define LOOKUP_POW43(i) lookup(rl_pow43, p43_lo, p43_hi, (i))
#define RL_NOISE_FN rl_noise_x34_avx512
#include "noise_x34_body.h"

#define RL_QUANT_LINES_FN rl_quantize_lines_avx512
#include "quant_lines_body.h"
