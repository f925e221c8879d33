/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the noise shaping's band amplification (rl_amplify_lines) for
 * SSE4.1 (compiled with -msse4.1): four products at once, the same float
 * product per line; the largest is order-free. */
#include <smmintrin.h>

#include "x86_kernels.h"

float rl_amplify_lines_sse41(float *x, int n, float amp, float max)
{
    __m128 const a = _mm_set1_ps(amp);
    __m128 m = _mm_set1_ps(max);
    int l = 0;
    for (; l + 4 <= n; l += 4) {
        __m128 const p = _mm_mul_ps(_mm_loadu_ps(x + l), a);
        _mm_storeu_ps(x + l, p);
        m = _mm_max_ps(m, p);
    }
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    float r = _mm_cvtss_f32(m);
    for (; l < n; l++) {
        x[l] *= amp;
        r = x[l] > r ? x[l] : r;
    }
    return r;
}
