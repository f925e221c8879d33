/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: the VBR search's step bounds (step_bounds.c) against
 * the binary searches they replace, on every step's boundary (the products
 * just below, at and just above each bound), random magnitudes over the
 * whole float range, zeros, denormals and infinity.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "quant_tables.h"
#include "step_bounds.h"

/* LAME find_lowest_scalefac, as the VBR search ran it */
static uint8_t ref_lowest(float xr34)
{
    uint8_t sf_ok = 255, sf = 128, delsf = 64;
    for (int i = 0; i < 8; ++i) {
        if (rl_ipow20[sf] * xr34 <= (float) RL_IXMAX_VAL) {
            sf_ok = sf;
            sf -= delsf;
        } else {
            sf += delsf;
        }
        delsf >>= 1;
    }
    return sf_ok;
}

/* the first step with ipow20[sf] * max34 < 0.5 by bisection (256: none) */
static int ref_zero(float max34)
{
    int lo = 0, hi = 256;
    while (lo < hi) {
        int const mid = (lo + hi) / 2;
        if (rl_ipow20[mid] * max34 < 0.5f)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int bad_lowest, bad_zero, tried;

static void try_value(float x)
{
    tried++;
    if (rl_lowest_step(x) != ref_lowest(x) && bad_lowest++ == 0)
        CHECK_EQ(rl_lowest_step(x), ref_lowest(x), "rl_lowest_step(%a)", (double) x);
    if (rl_zero_step(x) != ref_zero(x) && bad_zero++ == 0)
        CHECK_EQ(rl_zero_step(x), ref_zero(x), "rl_zero_step(%a)", (double) x);
}

/* x around the value where ipow20[sf] * x meets c, a few ulps either side */
static void try_boundary(int sf, float c)
{
    float x = c / rl_ipow20[sf];
    for (int k = 0; k < 6; k++)
        x = nextafterf(x, 0.0f);
    for (int k = 0; k < 13; k++) {
        try_value(x);
        x = nextafterf(x, INFINITY);
    }
}

int main(void)
{
    uint32_t r = (uint32_t) rl_test_seed(12345);

    rl_quant_tables_init();
    for (int sf = 1; sf < RL_Q_MAX; sf++)
        CHECK(rl_ipow20[sf] <= rl_ipow20[sf - 1], "ipow20 falls at %d", sf);
    for (int sf = 0; sf < RL_Q_MAX; sf++) {
        try_boundary(sf, (float) RL_IXMAX_VAL);
        try_boundary(sf, 0.5f);
    }
    try_value(0.0f);
    try_value(-0.0f);
    try_value(1e-45f);
    try_value(1e-38f);
    try_value(FLT_MAX);
    try_value(INFINITY);
    for (int i = 0; i < 200000; i++) {
        float x;
        r = r * 1664525u + 1013904223u;
        uint32_t bits = r & 0x7fffffffu;
        memcpy(&x, &bits, sizeof x);
        if (isfinite(x))
            try_value(x);
    }
    CHECK_EQ(bad_lowest, 0, "rl_lowest_step mismatches in %d values", tried);
    CHECK_EQ(bad_zero, 0, "rl_zero_step mismatches in %d values", tried);
    return rl_test_done();
}
