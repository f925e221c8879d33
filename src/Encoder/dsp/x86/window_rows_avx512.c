/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase window rows for AVX-512 (compiled with
 * -mavx512f, -mavx512bw, -mavx512vl): all fifteen rows at once (and a
 * zero one; window_rows_body.h). */
#include <immintrin.h>

#include "x86_kernels.h"

#define W 16
typedef __m512 VF;

static inline VF loadu_f(const float *p) { return _mm512_loadu_ps(p); }
static inline VF add_f(VF a, VF b) { return _mm512_add_ps(a, b); }
static inline VF sub_f(VF a, VF b) { return _mm512_sub_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm512_mul_ps(a, b); }
static inline VF rev_f(VF a)
{
    return _mm512_permutexvar_ps(_mm512_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), a);
}

#define RL_WINDOW_ROWS_FN rl_window_rows_avx512
#include "window_rows_body.h"

void rl_window_rows_avx512(const float *x, float *out)
{
    VF a, b;
    window_rows_w(x, 0, &a, &b);
    /* out[2r] = a, out[2r + 1] = b; row 15 is not one: out[30], out[31] stay */
    __m512i const lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    __m512i const hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    _mm512_storeu_ps(out, _mm512_permutex2var_ps(a, lo, b));
    _mm512_mask_storeu_ps(out + 16, (__mmask16) 0x3fff, _mm512_permutex2var_ps(a, hi, b));
}
