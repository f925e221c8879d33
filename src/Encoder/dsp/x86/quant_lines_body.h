/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the SIMD line quantizers (rl_quantize_lines in
 * huffman_count.h), included by a level's x34 file after it has defined
 * LOOKUP_SETUP_ADJ and LOOKUP_ADJ(i) (rl_adj43asm[i] for four indices).
 * Each lane is one line with the scalar operations: the float product,
 * the double magic addition and its float rounding (as one float addition:
 * see noise_x34_body.h), the table look-up, the double addition and its
 * float rounding.  The last pair of an odd count of pairs goes to the
 * scalar kernel.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANT_LINES_FN
#error "define RL_QUANT_LINES_FN and the look-up first"
#endif

void RL_QUANT_LINES_FN(unsigned int n, float istep, const float *xp, int *ix)
{
    LOOKUP_SETUP_ADJ;
    __m256d const magic = _mm256_set1_pd(RL_X34_MAGIC_FLOAT);
    __m128i const magic_i = _mm_set1_epi32(RL_X34_MAGIC_INT);
    __m128 const magic_f = _mm_set1_ps((float) RL_X34_MAGIC_FLOAT);
    __m128 const s = _mm_set1_ps(istep);
    unsigned int const lines = n & ~1u;
    unsigned int i = 0;
    for (; i + 4 <= lines; i += 4) {
        __m128 const q = _mm_mul_ps(s, _mm_loadu_ps(xp + i));
        __m256d d = _mm256_add_pd(_mm256_cvtps_pd(q), magic);
        __m128i const i0 = _mm_sub_epi32(_mm_castps_si128(_mm_add_ps(q, magic_f)), magic_i);
        d = _mm256_add_pd(d, _mm256_cvtps_pd(LOOKUP_ADJ(i0)));
        _mm_storeu_si128((__m128i *) (ix + i), _mm_sub_epi32(_mm_castps_si128(_mm256_cvtpd_ps(d)), magic_i));
    }
    if (i < lines)
        rl_quantize_lines(lines - i, istep, xp + i, ix + i);
}
