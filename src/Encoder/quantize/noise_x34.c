/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the quantization noise of a band at one step (noise_x34.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "noise_x34.h"

#include <math.h>
#include <pthread.h>

float rl_x34_thr[RL_X34_THR_N];
float rl_x34_sure;
int rl_x34_thr_ok;

int rl_k_34_one(float q)
{
    double x[4] = { q, 0, 0, 0 };
    int l3[4];
    rl_k_34_4(x, l3);
    return l3[0];
}

static int first_rounding(float q)
{
    RlX34Bits b;
    b.f = q + (float) RL_X34_MAGIC_FLOAT;
    return b.i - RL_X34_MAGIC_INT;
}

/* the first float from q on (upwards) or below q (downwards) at which
 * rl_k_34_one reaches i: a walk of a few steps from a close estimate */
static float first_reaching(float q, int i, float lo, float hi)
{
    if (rl_k_34_one(q) >= i) {
        while (q > lo && rl_k_34_one(nextafterf(q, -INFINITY)) >= i)
            q = nextafterf(q, -INFINITY);
        return q;
    }
    while (q < hi && rl_k_34_one(q) < i)
        q = nextafterf(q, INFINITY);
    return q;
}

static void thr_build(void)
{
    rl_x34_thr_ok = 1;
    rl_x34_thr[0] = 0.0f;       /* q < 0.5: both roundings give 0 (adj43asm[0] = 0) */
    for (int i = 1; i < RL_X34_THR_N; i++) {
        /* the floats whose first rounding is i: lo .. hi (ties go to the
         * even one; every half-integer here is a float) */
        float lo = (float) i - 0.5f, hi = (float) i + 0.5f;
        if (first_rounding(lo) != i)
            lo = nextafterf(lo, INFINITY);
        if (first_rounding(hi) != i)
            hi = nextafterf(hi, -INFINITY);
        int const base = rl_k_34_one(lo), top = rl_k_34_one(hi);
        if (first_rounding(lo) != i || first_rounding(hi) != i
            || first_rounding(nextafterf(lo, -INFINITY)) != i - 1
            || first_rounding(nextafterf(hi, INFINITY)) != i + 1
            || base < i - 1 || base > i || top < base || top > base + 1
            || (i < RL_X34_SMALL_N && base != i - 1)) {
            rl_x34_thr_ok = 0;
            return;
        }
        float const sign = base == i - 1 ? 1.0f : -1.0f;
        if (top == base) {
            rl_x34_thr[i] = sign * INFINITY;
            continue;
        }
        /* the value steps up from about q + adj43asm[i] = base + 0.5 on */
        float est = (float) base + 0.5f - rl_adj43asm[i];
        est = est < lo ? lo : est > hi ? hi : est;
        rl_x34_thr[i] = sign * first_reaching(est, base + 1, lo, hi);
    }
    /* rl_x34_sure: the widest distance from i0 at which every i0 from
     * RL_X34_SMALL_N on is sure to give i0 itself.  The value is i0 from
     * the point on (t > 0) or below it (t < 0): the margin is how far the
     * point lies inside the half-integers i0 -/+ 0.5 (every difference
     * here is exact in double) */
    double margin = 0;
    for (int i = RL_X34_SMALL_N; i < RL_X34_THR_N; i++) {
        double const t = rl_x34_thr[i];
        double const m = t == INFINITY ? 1.0 : t >= 0 ? t - (i - 0.5) : (i + 0.5) + t;
        margin = m > margin ? m : margin;
    }
    rl_x34_sure = margin < 0.5 ? nextafterf((float) (0.5 - margin), 0.0f) : 0.0f;
}

void rl_x34_thr_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    rl_quant_tables_init();
    pthread_once(&once, thr_build);
}

float rl_sfb_noise_x34(const float *xr, const float *xr34, unsigned int bw, unsigned int sf)
{
    double x[4];
    int l3[4];
    float const sfpow = rl_pow20[sf + RL_Q_MAX2];   /* 2^(sf/4) */
    float const sfpow34 = rl_ipow20[sf];            /* sfpow^(-3/4) */
    float xfsf = 0;
    unsigned int i = bw >> 2u;
    unsigned int const remaining = bw & 0x03u;

    while (i-- > 0) {
        x[0] = sfpow34 * xr34[0];
        x[1] = sfpow34 * xr34[1];
        x[2] = sfpow34 * xr34[2];
        x[3] = sfpow34 * xr34[3];
        rl_k_34_4(x, l3);
        x[0] = fabsf(xr[0]) - sfpow * rl_pow43[l3[0]];
        x[1] = fabsf(xr[1]) - sfpow * rl_pow43[l3[1]];
        x[2] = fabsf(xr[2]) - sfpow * rl_pow43[l3[2]];
        x[3] = fabsf(xr[3]) - sfpow * rl_pow43[l3[3]];
        /* sum in double, accumulated into a float */
        xfsf += (x[0] * x[0] + x[1] * x[1]) + (x[2] * x[2] + x[3] * x[3]);
        xr += 4;
        xr34 += 4;
    }
    if (remaining) {
        x[0] = x[1] = x[2] = x[3] = 0;
        switch (remaining) {
        case 3: x[2] = sfpow34 * xr34[2]; /* fall through */
        case 2: x[1] = sfpow34 * xr34[1]; /* fall through */
        case 1: x[0] = sfpow34 * xr34[0]; /* fall through */
        default: break;
        }
        rl_k_34_4(x, l3);
        x[0] = x[1] = x[2] = x[3] = 0;
        switch (remaining) {
        case 3: x[2] = fabsf(xr[2]) - sfpow * rl_pow43[l3[2]]; /* fall through */
        case 2: x[1] = fabsf(xr[1]) - sfpow * rl_pow43[l3[1]]; /* fall through */
        case 1: x[0] = fabsf(xr[0]) - sfpow * rl_pow43[l3[0]]; /* fall through */
        default: break;
        }
        xfsf += (x[0] * x[0] + x[1] * x[1]) + (x[2] * x[2] + x[3] * x[3]);
    }
    return xfsf;
}

void rl_noise_x34_batch(const float *xr, const float *xr34, const RlNoiseJob *jobs, int njobs,
                        float *noise)
{
    for (int k = 0; k < njobs; k++)
        noise[k] = rl_sfb_noise_x34(xr + jobs[k].off, xr34 + jobs[k].off, (unsigned int) jobs[k].n,
                                    (unsigned int) jobs[k].sf);
}
