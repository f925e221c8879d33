/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: table-based log2 approximation (LAME's USE_FAST_LOG path).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_FAST_LOG_H
#define RL_FAST_LOG_H

#include <stdint.h>
#include <string.h>

/* LAME's LOG2/LOG10 are these double constants (M_LN2, M_LN10). */
#define RL_LOG2  0.69314718055994530942
#define RL_LOG10 2.30258509299404568402

/* Builds the 513-entry table once (pthread_once); call before rl_fast_log2.
 * Stage: init. */
void  rl_fast_log_init(void);
/* The table rl_fast_log2 interpolates in (log2(1 + j/512), j = 0..512), for
 * SIMD kernels that look it up per lane; filled by rl_fast_log_init. */
extern float rl_fast_log_tab[513];
/* log2(x) from the table with linear interpolation, in float (x > 0).
 * Inline: the quantizer's noise loops call it once a band.
 * Stage: Prepare, Resolve, Search, Encode (pure). */
static inline float rl_fast_log2(float x)
{
    enum { LOG_BITS = 9 };      /* the table covers the top 9 mantissa bits */
    int32_t bits;
    memcpy(&bits, &x, sizeof bits);
    int mant = bits & 0x7fffff;
    float result = (float) (((bits >> 23) & 0xFF) - 0x7f);
    float frac = (float) (mant & ((1 << (23 - LOG_BITS)) - 1));
    frac *= 1.0f / (1 << (23 - LOG_BITS));
    mant >>= 23 - LOG_BITS;
    result += rl_fast_log_tab[mant] * (1.0f - frac) + rl_fast_log_tab[mant + 1] * frac;
    return result;
}
/* rl_fast_log_pairs[j] = { rl_fast_log_tab[j], rl_fast_log_tab[j + 1] }: both
 * ends of an interpolation in one 8-byte look-up (filled with the table). */
extern float rl_fast_log_pairs[512][2];

/* LAME's FAST_LOG10 family: the float result times a double constant, so the
 * expression is double; callers store it where LAME stores it. */
#define RL_FAST_LOG10(x)      (rl_fast_log2(x) * (RL_LOG2 / RL_LOG10))
#define RL_FAST_LOG(x)        (rl_fast_log2(x) * RL_LOG2)
#define RL_FAST_LOG10_X(x, y) (rl_fast_log2(x) * (RL_LOG2 / RL_LOG10 * (y)))
#define RL_FAST_LOG_X(x, y)   (rl_fast_log2(x) * (RL_LOG2 * (y)))

#endif
