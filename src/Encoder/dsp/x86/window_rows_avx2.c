/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase window rows for AVX2 (compiled with -mavx2):
 * eight rows at once (window_rows_body.h). */
#include <immintrin.h>

#include "x86_kernels.h"

#define W 8
typedef __m256 VF;

static inline VF loadu_f(const float *p) { return _mm256_loadu_ps(p); }
static inline VF add_f(VF a, VF b) { return _mm256_add_ps(a, b); }
static inline VF sub_f(VF a, VF b) { return _mm256_sub_ps(a, b); }
static inline VF mul_f(VF a, VF b) { return _mm256_mul_ps(a, b); }
static inline VF rev_f(VF a) { return _mm256_permutevar8x32_ps(a, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0)); }

#define RL_WINDOW_ROWS_FN rl_window_rows_avx2
#include "window_rows_body.h"

void rl_window_rows_avx2(const float *x, float *out)
{
    for (int r0 = 0; r0 < 16; r0 += 8) {
        VF a, b;
        window_rows_w(x, r0, &a, &b);
        /* out[2r] = a, out[2r + 1] = b */
        VF const lo = _mm256_unpacklo_ps(a, b), hi = _mm256_unpackhi_ps(a, b);
        _mm256_storeu_ps(out + 2 * r0, _mm256_permute2f128_ps(lo, hi, 0x20));
        VF const top = _mm256_permute2f128_ps(lo, hi, 0x31);
        if (r0 == 0)
            _mm256_storeu_ps(out + 8, top);
        else    /* row 15 is not one: out[30], out[31] stay */
            _mm256_maskstore_ps(out + 24, _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0), top);
    }
}
