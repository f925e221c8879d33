/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the quantization noise of one scalefactor band at one step
 * (the VBR step search's inner sum), and its batch form: several
 * (band, step) pairs at once, for the DSP kernels (dsp.h) that compute
 * independent sums side by side.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_NOISE_X34_H
#define RL_NOISE_X34_H

#include "dsp.h"   /* RL_DECL_* */
#include "quant_tables.h"

/* IEEE-754 trick: adding 2^23 leaves the integer part in the mantissa */
#define RL_X34_MAGIC_FLOAT ((double) (65536 * 128))
#define RL_X34_MAGIC_INT   0x4b000000

typedef union {
    float f;
    int i;
} RlX34Bits;

/* quantize 4 values: x are double on purpose (LAME's DOUBLEX under the
 * IEEE754 hack); two float roundings at 2^23 */
static inline void rl_k_34_4(double x[4], int l3[4])
{
    /* written out per lane: a loop over a union array keeps the lanes in
     * memory and made this, the hottest function, twice as slow */
    RlX34Bits f0, f1, f2, f3;
    x[0] += RL_X34_MAGIC_FLOAT;
    f0.f = (float) x[0];
    x[1] += RL_X34_MAGIC_FLOAT;
    f1.f = (float) x[1];
    x[2] += RL_X34_MAGIC_FLOAT;
    f2.f = (float) x[2];
    x[3] += RL_X34_MAGIC_FLOAT;
    f3.f = (float) x[3];
    f0.f = (float) (x[0] + rl_adj43asm[f0.i - RL_X34_MAGIC_INT]);
    f1.f = (float) (x[1] + rl_adj43asm[f1.i - RL_X34_MAGIC_INT]);
    f2.f = (float) (x[2] + rl_adj43asm[f2.i - RL_X34_MAGIC_INT]);
    f3.f = (float) (x[3] + rl_adj43asm[f3.i - RL_X34_MAGIC_INT]);
    l3[0] = f0.i - RL_X34_MAGIC_INT;
    l3[1] = f1.i - RL_X34_MAGIC_INT;
    l3[2] = f2.i - RL_X34_MAGIC_INT;
    l3[3] = f3.i - RL_X34_MAGIC_INT;
}

/* quantization noise of the bw lines xr[], xr34[] at step sf; only for sf
 * with ipow20[sf]*max(xr34) <= IXMAX_VAL */
float rl_sfb_noise_x34(const float *xr, const float *xr34, unsigned int bw, unsigned int sf);

/* One sum of a batch: the band's lines off .. off+n-1 of xr and xr34 at
 * step sf (same bound as above); max34 is at least the largest of its
 * xr34 (the SIMD kernels use it to know when every quantized value stays
 * in their register tables). */
typedef struct RlNoiseJob {
    int off;
    int n;
    int sf;
    float max34;
} RlNoiseJob;

/* noise[k] = rl_sfb_noise_x34(xr + jobs[k].off, xr34 + jobs[k].off,
 * jobs[k].n, jobs[k].sf) for k < njobs: the scalar kernel.  The SIMD
 * kernels give the same floats (each lane one job, the scalar operations in
 * the scalar order; a lane's missing lines read as zeros, which add +0 to a
 * sum that is >= +0, as the scalar tail does).  xr and xr34 are read only
 * within the jobs' lines. */
RL_DECL_NOISE_X34(rl_noise_x34_batch);

/* The rounding of rl_k_34_4 as a comparison, for the SIMD kernels.  For a
 * float q >= 0 whose first rounding is i0 = (float) (q + 2^23) - 2^23,
 * both roundings are monotone in q while i0 stays, and the value at the
 * ends of i0's range differs by at most one (checked), so the value is a
 * base below one point and base + 1 from it on.  The base is i0 - 1 or i0
 * (checked); t = rl_x34_thr[i0] holds the point, positive where the base
 * is i0 - 1 and negated where it is i0 (+inf / -inf: no step):
 *   value = i0 - (q < t)            where t >= +0 (t[0] = +0: value 0)
 *   value = i0 + (q >= -t)          where t < 0.
 * The points are found with rl_k_34_4 itself, so the comparison is the
 * scalar rounding by construction (tests/checkasm.c checks it over the
 * floats).  Below RL_X34_SMALL_N no t is negative (checked).
 * rl_x34_thr_ok is 0 if a check failed (the kernels then take the scalar
 * steps). */
#define RL_X34_THR_N RL_PRECALC_SIZE
#define RL_X34_SMALL_N 32
extern float rl_x34_thr[RL_X34_THR_N];
extern int rl_x34_thr_ok;
/* For i0 >= RL_X34_SMALL_N: where |q - i0| < rl_x34_sure, the value is i0
 * itself (so the point need not be looked up; 0: never sure). */
extern float rl_x34_sure;

/* rl_k_34_4's result for one value q (the other lanes 0) */
int rl_k_34_one(float q);

/* Fills rl_x34_thr, rl_x34_sure and rl_x34_thr_ok once (thread-safe; the
 * quantizer tables first).  Only the kernels that compare need them:
 * the x86 ladder (dsp_init_x86.c) calls it before it selects them. */
void rl_x34_thr_init(void);

#endif
