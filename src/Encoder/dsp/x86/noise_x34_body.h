/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the SIMD band-noise kernels (rl_noise_x34_batch in
 * noise_x34.h), included by one file per ISA level (compiled with at least
 * AVX2) after it has defined LOOKUP_SETUP, LOOKUP_ADJ(i) and
 * LOOKUP_POW43(i) (rl_adj43asm[i], rl_pow43[i] for four indices) and
 * RL_NOISE_FN (the AVX2 level; AVX-512 has its own two-pass kernel,
 * x34_avx512.c).
 *
 * One vector holds one group of four lines of a job: the float products,
 * the double magic additions and their float roundings, the two table
 * look-ups, the float differences and the double squares are the scalar
 * operations lane by lane.  Four jobs run side by side: their group sums
 * (a0 + a1) + (a2 + a3), formed in that order, land in one vector, which
 * is added to the four float totals in double, group after group, as the
 * scalar loop does for each.  Lines past a job's end load as zeros: they
 * quantize to 0 with noise +0, as the scalar tail's zeroed lanes do, and a
 * whole group of them adds +0 to a total that is >= +0, leaving it
 * unchanged.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_NOISE_FN
#error "define RL_NOISE_FN and the look-ups first"
#endif

/* lines p[0 .. c-1] (c <= 4), zeros after; reads nothing past p[c-1] */
static inline __m128 load_lines(const float *p, int c)
{
    static const int ones[8] = { -1, -1, -1, -1, 0, 0, 0, 0 };
    if (c >= 4)
        return _mm_loadu_ps(p);
    return _mm_maskload_ps(p, _mm_loadu_si128((const __m128i *) (ones + 4 - c)));
}

/* the squares of the four lines' noise in one job's group, in double */
static inline __m256d group_squares(const float *xr, const float *xr34, int o, int c, __m128 s34,
                                    __m128 spow LOOKUP_PARAMS)
{
    __m256d const magic = _mm256_set1_pd(RL_X34_MAGIC_FLOAT);
    __m128i const magic_i = _mm_set1_epi32(RL_X34_MAGIC_INT);
    __m128 const absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    if (c <= 0)
        return _mm256_setzero_pd();     /* zeros quantize to noise +0 */
    __m128 const a = load_lines(xr34 + o, c);
    __m128 const x = load_lines(xr + o, c);
    __m128 const q = _mm_mul_ps(s34, a);
    __m256d d = _mm256_add_pd(_mm256_cvtps_pd(q), magic);
    /* float(d) as one float addition: q >= 0, and (double) q + 2^23 is
     * exact for q >= 2^-6, while below that both give 2^23 (no tie is
     * that close); saves a conversion */
    __m128i const i0 = _mm_sub_epi32(_mm_castps_si128(_mm_add_ps(q, _mm_set1_ps((float) RL_X34_MAGIC_FLOAT))),
                                     magic_i);
    d = _mm256_add_pd(d, _mm256_cvtps_pd(LOOKUP_ADJ(i0)));
    __m128i const l3 = _mm_sub_epi32(_mm_castps_si128(_mm256_cvtpd_ps(d)), magic_i);
    __m128 const e = _mm_sub_ps(_mm_and_ps(x, absmask),
                                _mm_mul_ps(spow, LOOKUP_POW43(l3)));
    __m256d const ed = _mm256_cvtps_pd(e);
    return _mm256_mul_pd(ed, ed);
}

/* the four jobs' next groups (lines i .. i+3) added to their totals */
static inline __m128 add_groups(__m128 acc, const float *xr, const float *xr34, const int off[4],
                                const int n[4], int i, const __m128 s34[4],
                                const __m128 spow[4] LOOKUP_PARAMS)
{
    __m256d const q0 = group_squares(xr, xr34, off[0] + i, n[0] - i, s34[0], spow[0] LOOKUP_ARGS);
    __m256d const q1 = group_squares(xr, xr34, off[1] + i, n[1] - i, s34[1], spow[1] LOOKUP_ARGS);
    __m256d const q2 = group_squares(xr, xr34, off[2] + i, n[2] - i, s34[2], spow[2] LOOKUP_ARGS);
    __m256d const q3 = group_squares(xr, xr34, off[3] + i, n[3] - i, s34[3], spow[3] LOOKUP_ARGS);
    /* (a00+a01, a10+a11, a02+a03, a12+a13), likewise for jobs 2, 3 */
    __m256d const h01 = _mm256_hadd_pd(q0, q1);
    __m256d const h23 = _mm256_hadd_pd(q2, q3);
    __m256d const g = _mm256_add_pd(_mm256_permute2f128_pd(h01, h23, 0x20),
                                    _mm256_permute2f128_pd(h01, h23, 0x31));
    return _mm256_cvtpd_ps(_mm256_add_pd(_mm256_cvtps_pd(acc), g));
}

void RL_NOISE_FN(const float *xr, const float *xr34, const RlNoiseJob *jobs, int njobs, float *noise)
{
    LOOKUP_SETUP;
    for (int k0 = 0; k0 < njobs; k0 += 4) {
        int const nj = njobs - k0 < 4 ? njobs - k0 : 4;
        __m128 s34[4], spow[4];
        int n[4], off[4], nmax = 0;
        for (int j = 0; j < 4; j++) {
            /* a slot past the last job: no lines, any valid step */
            const RlNoiseJob *const jb = &jobs[k0 + (j < nj ? j : 0)];
            n[j] = j < nj ? jb->n : 0;
            off[j] = jb->off;
            s34[j] = _mm_set1_ps(rl_ipow20[jb->sf]);
            spow[j] = _mm_set1_ps(rl_pow20[jb->sf + RL_Q_MAX2]);
            if (n[j] > nmax)
                nmax = n[j];
        }
        __m128 acc = _mm_setzero_ps();
        for (int i = 0; i < nmax; i += 4)
            acc = add_groups(acc, xr, xr34, off, n, i, s34, spow LOOKUP_ARGS);
        float out[4];
        _mm_storeu_ps(out, acc);
        for (int j = 0; j < nj; j++)
            noise[k0 + j] = out[j];
    }
}
