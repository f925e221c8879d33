/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the steps at which a band's largest xr^(3/4) crosses a bound
 * (the VBR step search's lowest allowed step and its all-zero step); inline
 * so that the bands' computations overlap in the caller's loop.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_STEP_BOUNDS_H
#define RL_STEP_BOUNDS_H

#include <stdint.h>
#include <string.h>

#include "quant_tables.h"

/* Both bounds are the first step of a monotone predicate: rl_ipow20 does
 * not grow with sf (rounded values of a falling 2^(-0.1875 (sf - 210))) and
 * a float product with x >= 0 is monotone in each factor, so "ipow20[sf] *
 * x <= c" is false up to some step and true from there on.  That step is
 * found exactly from an estimate: it is moved down while the step below
 * still passes and up while it fails, so the result is the one step that
 * passes with its predecessor failing, whatever the estimate.  The
 * estimate (ipow20[sf] * x = c at sf = 210 + 16/3 log2(x / c), log2 from
 * the float's bits, off by less than 0.09, so less than half a step) puts
 * the step within base .. base + 4 (base: one below the truncated
 * estimate), where it is base plus the number of failing steps among the
 * four from base on, counted without branches; the two loops then only
 * confirm it (the processor predicts them; a binary search's eight
 * branches it cannot). */
static inline int rl_step_estimate(float x, float log2c)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    /* log2 of a positive normal x is bits / 2^23 - 127 less at most 0.086 */
    float const l2 = (float) bits * (1.0f / 8388608.0f) - 127.0f;
    float const e = 210.0f + (l2 - log2c) * (16.0f / 3.0f);
    if (!(e > 1.0f))
        return 0;               /* also x = 0 (bits 0) */
    if (e > 253.0f)
        return 252;
    return (int) e - 1;
}

/* The first step (0 .. 256: none) at which rl_ipow20[sf] * x < c (strict)
 * or <= c (not strict) holds, from rl_step_estimate(x, log2(c)) */
static inline int rl_first_step(float x, float c, float log2c, int strict)
{
    int const base = rl_step_estimate(x, log2c);
    int sf = base;
    for (int k = 0; k < 4; k++) {
        float const p = rl_ipow20[base + k] * x;
        sf += !(strict ? p < c : p <= c);
    }
    while (sf > 0 && (strict ? rl_ipow20[sf - 1] * x < c : rl_ipow20[sf - 1] * x <= c))
        sf--;
    while (sf < 256 && !(strict ? rl_ipow20[sf] * x < c : rl_ipow20[sf] * x <= c))
        sf++;
    return sf;
}

/* The smallest step (0 .. 255) with rl_ipow20[sf] * max34 < 0.5, 256 when
 * none: from there on every line of the band quantizes to 0.
 * rl_quant_tables_init must have run. */
static inline int rl_zero_step(float max34)
{
    return rl_first_step(max34, 0.5f, -1.0f, 1);                    /* log2(0.5) */
}

/* LAME find_lowest_scalefac: the step its 8-round binary search returns,
 * the smallest one (1 .. 255) with rl_ipow20[sf] * max34 <= RL_IXMAX_VAL,
 * 255 when none.  rl_quant_tables_init must have run. */
static inline uint8_t rl_lowest_step(float max34)
{
    int const sf = rl_first_step(max34, (float) RL_IXMAX_VAL, 13.0025f, 0); /* log2(8206) */
    /* LAME's search probes 1 .. 255 and keeps 255 when none passes: the
     * first passing step, clamped to that range */
    if (sf < 1)
        return 1;
    if (sf > 255)
        return 255;
    return (uint8_t) sf;
}

#endif
