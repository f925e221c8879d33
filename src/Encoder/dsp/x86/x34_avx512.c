/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the quantizer kernels on xr^(3/4) for AVX-512 (compiled with
 * -mavx512f, -mavx512bw, -mavx512vl): the VBR search's band noise and the
 * outer loop's line quantizer, both rounding by comparison with
 * rl_x34_thr (noise_x34.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <immintrin.h>
#include <stdint.h>

#include "huffman_count.h"
#include "noise_x34.h"
#include "x86_kernels.h"

/* The band noise (rl_noise_x34_batch, noise_x34.h) in two passes.
 *
 * Pass 1, sixteen lines per ZMM register (the jobs laid end to end, see
 * group_sums_packed): the float product q, its quantized value, the float
 * noise of each line and its square in double (exact: a float times a
 * float) are the scalar operations lane by lane; each group of four lines
 * gives its sum (a0 + a1) + (a2 + a3), formed in that order in double,
 * into a buffer.  These sums are
 * independent of each other, so the pass has no chain from one register
 * to the next.
 * Pass 2 adds each job's group sums, in order, to its float total in
 * double, as the scalar loop does: the only chain, one per job, which the
 * processor overlaps across jobs.
 * Lines past a job's end load as zeros: they quantize to 0 with noise +0,
 * and only the job's own groups enter its total.
 *
 * The quantized value is rl_x34_thr's comparison (noise_x34.h: the scalar
 * rounding, found with rl_k_34_4 itself), its look-ups register permutes
 * of the first 32 entries, with gathers for the lanes beyond them.  Where
 * every line of the job stays below 31 (ipow20[sf] * max34 < 30: a float
 * product is monotone, so each line's q is below 30 and its first rounding
 * at most 30) the test for such lanes is left out. */

#define GROUPS_MAX 256          /* group sums buffered per pass (a job has <= 144) */
#define PASS_JOBS 64             /* jobs per pass */

typedef struct {
    __m512 thr_lo, thr_hi, p43_lo, p43_hi;
} SmallTables;

/* the first 32 entries of rl_x34_thr and rl_pow43, in registers */
static inline SmallTables small_tables(void)
{
    SmallTables t;
    t.thr_lo = _mm512_loadu_ps(rl_x34_thr);
    t.thr_hi = _mm512_loadu_ps(rl_x34_thr + 16);
    t.p43_lo = _mm512_loadu_ps(rl_pow43);
    t.p43_hi = _mm512_loadu_ps(rl_pow43 + 16);
    return t;
}

/* the quantized values of q (noise_x34.h: rl_x34_thr's comparison): the
 * first 32 points by a register permute; where small is 0, lanes beyond
 * them unless surely away from the half-integers, by a gather */
static inline __m512i quantized(__m512 q, const SmallTables *t, int small)
{
    __m512i const one = _mm512_set1_epi32(1), top = _mm512_set1_epi32(RL_X34_SMALL_N - 1);
    __m512i const i0 = _mm512_sub_epi32(_mm512_castps_si512(_mm512_add_ps(q, _mm512_set1_ps((float) RL_X34_MAGIC_FLOAT))),
                                        _mm512_set1_epi32(RL_X34_MAGIC_INT));
    __m512 const th = _mm512_permutex2var_ps(t->thr_lo, i0, t->thr_hi);
    __mmask16 const big = small ? 0 : _mm512_cmpgt_epi32_mask(i0, top);
    /* below RL_X34_SMALL_N every point is >= +0 */
    __m512i l3 = _mm512_mask_sub_epi32(i0, _mm512_mask_cmp_ps_mask((__mmask16) ~big, q, th, _CMP_LT_OQ),
                                       i0, one);
    if (big) {
        /* beyond it the value is i0 unless q lies close to i0 -/+ 0.5
         * (rl_x34_sure); q - i0 is exact (Sterbenz: i0 >= 32, |q - i0| <= 0.5) */
        __m512 const dist = _mm512_castsi512_ps(_mm512_and_si512(
            _mm512_castps_si512(_mm512_sub_ps(q, _mm512_cvtepi32_ps(i0))), _mm512_set1_epi32(0x7fffffff)));
        __mmask16 const unsure = _mm512_mask_cmp_ps_mask(big, dist, _mm512_set1_ps(rl_x34_sure), _CMP_NLT_UQ);
        if (unsure) {
            __m512 const tg = _mm512_mask_i32gather_ps(th, unsure, i0, rl_x34_thr, 4);
            __mmask16 const neg = _mm512_mask_cmp_ps_mask(unsure, tg, _mm512_setzero_ps(), _CMP_LT_OQ);
            __mmask16 const up = _mm512_mask_cmp_ps_mask(neg, q, _mm512_sub_ps(_mm512_setzero_ps(), tg), _CMP_GE_OQ);
            __mmask16 const down = _mm512_mask_cmp_ps_mask((__mmask16) (unsure & ~neg), q, tg, _CMP_LT_OQ);
            l3 = _mm512_mask_add_epi32(_mm512_mask_sub_epi32(l3, down, l3, one), up, l3, one);
        }
    }
    return l3;
}

/* pow43[l3]: the first 32 entries by a register permute, the rest (where
 * small is 0) by a gather */
static inline __m512 quantized_pow43(__m512 q, const SmallTables *t, int small)
{
    __m512i const l3 = quantized(q, t, small);
    __m512 p43 = _mm512_permutex2var_ps(t->p43_lo, l3, t->p43_hi);
    if (!small) {
        __mmask16 const big43 = _mm512_cmpgt_epi32_mask(l3, _mm512_set1_epi32(RL_X34_SMALL_N - 1));
        if (big43)
            p43 = _mm512_mask_i32gather_ps(p43, big43, l3, rl_pow43, 4);
    }
    return p43;
}

/* the group sums of sixteen lines (four groups) at step factors s34, spow
 * given their quantized values' pow43 */
static inline __m256d group_sums(__m512 x, __m512 spow, __m512 p43)
{
    __m512 const ax = _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff)));
    __m512 const e = _mm512_sub_ps(ax, _mm512_mul_ps(spow, p43));
    /* lanes regrouped as line 0 of groups 0-3, line 2 of groups 0-3, then
     * lines 1 and 3: the pair sums and the group sums become lane-wise */
    __m512 const eg = _mm512_permutexvar_ps(_mm512_setr_epi32(0, 4, 8, 12, 2, 6, 10, 14, 1, 5, 9, 13, 3, 7, 11, 15), e);
    __m512d const e02 = _mm512_cvtps_pd(_mm512_castps512_ps256(eg));
    __m512d const e13 = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(eg), 1)));
    /* a0 + a1 of groups 0-3, then a2 + a3 */
    __m512d const pairs = _mm512_add_pd(_mm512_mul_pd(e02, e02), _mm512_mul_pd(e13, e13));
    return _mm256_add_pd(_mm512_castpd512_pd256(pairs), _mm512_extractf64x4_pd(pairs, 1));
}

/* &p[line] for a masked load, where line may be negative: the lanes that
 * would read before p are masked off, and a masked lane is never read */
static inline const float *at_line(const float *p, int line)
{
    return (const float *) ((uintptr_t) p + (uintptr_t) (intptr_t) line * sizeof(float));
}

/* the mask of lanes lo .. hi-1 (0 <= lo <= hi <= 16) */
static inline __mmask16 lane_range(int lo, int hi)
{
    return (__mmask16) (((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* Pass 1 over the jobs k0 .. k1-1 laid end to end, each job's groups
 * (four lanes each, its lines then zeros) from lane 4 * first[k]: sixteen
 * lanes per register, whatever jobs they belong to, so that short bands
 * fill registers too.  Each register's lanes take their job's lines, step
 * factors and the look-up path its jobs allow. */
static inline void group_sums_packed(const float *xr, const float *xr34, const RlNoiseJob *jobs,
                                     int nj, const int *first, const SmallTables *t, double *g)
{
    int const lanes = 4 * first[nj];
    int k = 0;
    for (int lane0 = 0; lane0 < lanes; lane0 += 16, g += 4) {
        int const lane_end = lane0 + 16 < lanes ? lane0 + 16 : lanes;
        __m512 a = _mm512_setzero_ps(), x = _mm512_setzero_ps();
        __m512 s34 = _mm512_setzero_ps(), spow = _mm512_setzero_ps();
        int small = 1;
        for (;;) {
            const RlNoiseJob *const jb = &jobs[k];
            int const job_lane = 4 * first[k];                 /* the job's line 0 */
            int const lo = job_lane > lane0 ? job_lane : lane0;
            int const job_end = 4 * first[k + 1];
            int const hi = job_end < lane_end ? job_end : lane_end;
            int const line_end = job_lane + jb->n < hi ? job_lane + jb->n : hi;
            /* lanes lo .. hi-1 are the job's, lines up to line_end */
            __mmask16 const seg = lane_range(lo - lane0, hi - lane0);
            __mmask16 const lines = line_end > lo ? lane_range(lo - lane0, line_end - lane0) : 0;
            int const at = jb->off - job_lane + lane0;          /* lane l reads line at + l */
            a = _mm512_mask_loadu_ps(a, lines, at_line(xr34, at));
            x = _mm512_mask_loadu_ps(x, lines, at_line(xr, at));
            s34 = _mm512_mask_mov_ps(s34, seg, _mm512_set1_ps(rl_ipow20[jb->sf]));
            spow = _mm512_mask_mov_ps(spow, seg, _mm512_set1_ps(rl_pow20[jb->sf + RL_Q_MAX2]));
            small &= rl_ipow20[jb->sf] * jb->max34 < 30.0f;
            if (job_end > lane_end)
                break;                  /* the job goes on in the next register */
            if (++k == nj || job_end == lane_end)
                break;
        }
        __m512 const q = _mm512_mul_ps(s34, a);
        _mm256_storeu_pd(g, group_sums(x, spow, quantized_pow43(q, t, small)));
    }
}

void rl_noise_x34_batch_avx512(const float *xr, const float *xr34, const RlNoiseJob *jobs, int njobs,
                         float *noise)
{
    if (!rl_x34_thr_ok) {
        rl_noise_x34_batch(xr, xr34, jobs, njobs, noise);
        return;
    }
    double g[GROUPS_MAX + 4];
    int first[PASS_JOBS + 1];
    SmallTables const t = small_tables();
    for (int k0 = 0; k0 < njobs;) {
        /* as many jobs as the buffer holds (one at least: n <= 576) */
        int k1 = k0, used = 0;
        while (k1 < njobs && k1 - k0 < PASS_JOBS
               && (k1 == k0 || used + (jobs[k1].n + 3) / 4 <= GROUPS_MAX)) {
            first[k1 - k0] = used;
            used += (jobs[k1].n + 3) / 4;
            k1++;
        }
        first[k1 - k0] = used;
        group_sums_packed(xr, xr34, jobs + k0, k1 - k0, first, &t, g);
        /* the longest chains are the last bands': start them first */
        for (int k = k1 - 1; k >= k0; k--) {
            float acc = 0;
            for (int c = first[k - k0]; c < first[k - k0 + 1]; c++)
                acc = (float) ((double) acc + g[c]);
            noise[k] = acc;
        }
        k0 = k1;
    }
}

/* The outer loop's line quantizer (rl_quantize_lines, huffman_count.h):
 * its rounding is rl_k_34_4's, value by value, so sixteen lines per
 * register with rl_x34_thr's comparison (the pairs of an odd count of
 * pairs and a last line of an odd count are the scalar kernel's too: only
 * whole pairs are quantized, as there). */
void rl_quantize_lines_avx512(unsigned int n, float istep, const float *xp, int *ix)
{
    if (!rl_x34_thr_ok) {
        rl_quantize_lines(n, istep, xp, ix);
        return;
    }
    SmallTables const t = small_tables();
    __m512 const s = _mm512_set1_ps(istep);
    int const lines = (int) (n & ~1u);
    for (int i = 0; i < lines; i += 16) {
        int const left = lines - i;
        __mmask16 const m = lane_range(0, left < 16 ? left : 16);
        __m512 const q = _mm512_mul_ps(s, _mm512_maskz_loadu_ps(m, xp + i));
        _mm512_mask_storeu_epi32(ix + i, m, quantized(q, &t, 0));
    }
}
