/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the Prepare-side and ReplayGain kernels, included by
 * one file per ISA level after it has defined W (float lanes: 4, 8, 16) and
 * RL_PREP(name) (the level's function name).  Written with GCC vector
 * types so that each level's flags choose the instructions.
 *
 * Why the bits are the scalar ones: every lane computes one independent
 * output (a polyphase row, a high-pass sample, a Yule input sum) with
 * exactly the scalar kernel's float operations in the scalar order; vector
 * +, -, * are the IEEE single operations of the scalar code, and
 * -ffp-contract=off keeps them from fusing.  Only maxima are taken in
 * another order (max is exact and order-free for the NaN-free values the
 * comparisons see), and the IIR recursions stay scalar in time.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PREP
#error "define W and RL_PREP first"
#endif

#include <string.h>

#include "attack.h"
#include "dispatch.h"
#include "mdct.h"
#include "polyphase_window.h"
#include "replaygain.h"
#include "x86_kernels.h"

typedef float vf __attribute__((vector_size(W * 4)));
typedef int vi __attribute__((vector_size(W * 4)));

static inline vf ld(const float *p)
{
    vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void st(float *p, vf v)
{
    memcpy(p, &v, sizeof v);
}

static inline vf bc(float x)       /* broadcast (keeps -0 and NaN bits) */
{
    vf v;
    for (int l = 0; l < W; l++)
        v[l] = x;
    return v;
}

/* lanes in reverse order (__builtin_shufflevector: Clang, and GCC from 12;
 * older GCC has only __builtin_shuffle) */
#if defined(__clang__) || __GNUC__ >= 12
#define RL_REV_LANES(v, ...) __builtin_shufflevector((v), (v), __VA_ARGS__)
#else
#define RL_REV_LANES(v, ...) __builtin_shuffle((v), (vi){ __VA_ARGS__ })
#endif
static inline vf rev(vf v)
{
#if W == 4
    return RL_REV_LANES(v, 3, 2, 1, 0);
#elif W == 8
    return RL_REV_LANES(v, 7, 6, 5, 4, 3, 2, 1, 0);
#else
    return RL_REV_LANES(v, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
#endif
}

/* ---- polyphase: the 15 rows of a slot, W rows per vector ---- */
/* The rows of the slots at x and x + 32 (two independent sets of chains in
 * flight: one slot's 16 sums are one dependent chain per vector) */
static inline void window_rows2(const float *x, float ev[2][16], float od[2][16])
{
    for (int j0 = 0; j0 < 16; j0 += W) {
        const float *const xa0 = x - j0 - (W - 1), *const xa1 = xa0 + 32;
        const float *const xb0 = x - 62 + j0, *const xb1 = xb0 + 32;
#define C(m) ld(&rl_poly_rows[m][j0])
#define ROW(m, sb0, sb1, op, ta0, ta1)                                   \
        c = C(m);                                                        \
        s0 = s0 + sb0 * c; t0 = t0 op ta0 * c;                           \
        s1 = s1 + sb1 * c; t1 = t1 op ta1 * c
#define ROWU(m, ob, oa) ROW(m, ld(xb0 + (ob)), ld(xb1 + (ob)), +, rev(ld(xa0 + (oa))), rev(ld(xa1 + (oa))))
#define ROWD(m, oa, ob) ROW(m, rev(ld(xa0 + (oa))), rev(ld(xa1 + (oa))), -, ld(xb0 + (ob)), ld(xb1 + (ob)))
        vf c = C(0);
        vf s0 = ld(xb0 - 224) * c, t0 = rev(ld(xa0 + 224)) * c;
        vf s1 = ld(xb1 - 224) * c, t1 = rev(ld(xa1 + 224)) * c;
        ROWU(1, -160, 160);
        ROWU(2, -96, 96);
        ROWU(3, -32, 32);
        ROWU(4, 32, -32);
        ROWU(5, 96, -96);
        ROWU(6, 160, -160);
        ROWU(7, 224, -224);
        ROWD(8, -256, 256);
        ROWD(9, -192, 192);
        ROWD(10, -128, 128);
        ROWD(11, -64, 64);
        ROWD(12, 0, 0);
        ROWD(13, 64, -64);
        ROWD(14, 128, -128);
        ROWD(15, 192, -192);
        s0 *= C(16);
        s1 *= C(16);
        st(ev[0] + j0, t0 + s0);
        st(od[0] + j0, C(17) * (t0 - s0));
        st(ev[1] + j0, t1 + s1);
        st(od[1] + j0, C(17) * (t1 - s1));
#undef C
#undef ROW
#undef ROWU
#undef ROWD
    }
}

#if W == 16
#include <immintrin.h>

/* The end of 16 slots at once, lane k slot k (polyphase_butterfly.h at
 * vectors): each double product is the scalar one per lane, converted,
 * multiplied (and subtracted) in double, and rounded back to float. */
typedef double vd __attribute__((vector_size(W * 8)));
static inline vd wide(vf x)
{
    return __builtin_convertvector(x, vd);
}
#define RL_BF_FN window_butterflies16
#define RL_BF_T vf
#define RL_BF_SQ2(x) __builtin_convertvector(wide(x) * M_SQRT2, vf)
#define RL_BF_SQ2_SUB(x, y) __builtin_convertvector(wide(x) * M_SQRT2 - wide(y), vf)
#define RL_BF_NSQ2(x) __builtin_convertvector(-M_SQRT2 * wide(x), vf)
/* The centre taps of slot k read x[32 k - 15 + 16 m], -15 <= m <= 14:
 * x[32 (k + p) + 1] for m = 2p + 1, x[32 (k + p - 1) + 17] for m = 2p.
 * c[n] = x[32 (n - 8) + 1], c[32 + n] = x[32 (n - 8) + 17] (n < 30): every
 * tap of the 16 slots is one vector load. */
#define RL_BF_CENTRE window_centre16
#define RL_BF_XA(c, off) (((off) / 16) & 1 ? ld((c) + 8 + ((off) / 16 - 1) / 2) \
                                           : ld((c) + 32 + 8 + (off) / 32 - 1))
#include "polyphase_butterfly.h"

/* r[i][j] <- r[j][i] (moves only) */
static inline void transpose16(vf v[16])
{
    __m512 r[16], t[16];
    for (int i = 0; i < 16; i++)
        r[i] = (__m512) v[i];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++) {
        r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int k = 0; k < 4; k++) {
        t[k] = _mm512_shuffle_f32x4(r[k], r[4 + k], 0x88);
        t[4 + k] = _mm512_shuffle_f32x4(r[k], r[4 + k], 0xdd);
        t[8 + k] = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0x88);
        t[12 + k] = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0xdd);
    }
    for (int k = 0; k < 4; k++) {
        v[k] = (vf) _mm512_shuffle_f32x4(t[k], t[8 + k], 0x88);
        v[8 + k] = (vf) _mm512_shuffle_f32x4(t[k], t[8 + k], 0xdd);
        v[4 + k] = (vf) _mm512_shuffle_f32x4(t[4 + k], t[12 + k], 0x88);
        v[12 + k] = (vf) _mm512_shuffle_f32x4(t[4 + k], t[12 + k], 0xdd);
    }
}

/* Slots 0..15 of a granule: the rows per slot as below, turned so that a
 * vector holds one output of the 16 slots, the centre taps per slot, then
 * the rest of each slot one lane each, turned back. */
static void window_slots16(const float *x, float sb[18][RL_SBLIMIT])
{
    const float *const w = rl_enwindow + 10 + RL_ENWINDOW_ROWS * RL_ENWINDOW_ROW;
    float ev[16][16], od[16][16], c[64];
    vf e[16], o[16], a[32], u, v;
    for (int k = 0; k < 16; k += 2)
        window_rows2(x + 32 * k, ev + k, od + k);
    for (int n = 0; n < 30; n++) {
        c[n] = x[32 * (n - 8) + 1];
        c[32 + n] = x[32 * (n - 8) + 17];
    }
    window_centre16(c, w, &u, &v);
    for (int k = 0; k < 16; k++) {
        e[k] = ld(ev[k]);
        o[k] = ld(od[k]);
    }
    transpose16(e);
    transpose16(o);
    for (int j = 0; j < 16; j++) {
        a[2 * j] = e[j];
        a[2 * j + 1] = o[j];
    }
    window_butterflies16(a, u, v, w);
    /* the odd slots' odd bands times -1, as the scalar loop (x * 1 = x) */
    vf const sgn = { 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1 };
    for (int band = 1; band < 32; band += 2)
        a[band] *= sgn;
    transpose16(a);
    transpose16(a + 16);
    for (int k = 0; k < 16; k++) {
        st(sb[k], a[k]);
        st(sb[k] + 16, a[16 + k]);
    }
}

/* ---- the long-block MDCT, lane l band 16 h + l (rl_mdct_long) ---- */
#define RL_ML_FN mdct_long18_v
#define RL_ML_T vf
#include "mdct_long18.h"

void RL_PREP(rl_mdct_long)(const float *prev, const float *cur, const float *wt, float xr[576])
{
    const float *const tantab = rl_mdct_win[RL_SHORT_TYPE] + 3;
    const float *const cx = rl_mdct_win[RL_SHORT_TYPE] + 12;
    for (int h = 0; h < 2; h++) {
        /* one slot's values of bands 16 h .. 16 h + 15 (rl_band_pos order) */
        __m512i const pos = _mm512_loadu_si512(rl_band_pos + 16 * h);
#define BANDS(sb, slot) ((vf) _mm512_permutex2var_ps(_mm512_loadu_ps((sb) + 32 * (slot)), pos, \
                                                      _mm512_loadu_ps((sb) + 32 * (slot) + 16)))
        vf work[18], out[18];
        float o16[16], o17[16];
        for (int k = -9; k < 0; k++) {
            vf const a = BANDS(cur, k + 9) * wt[k + 27] + BANDS(cur, 8 - k) * wt[k + 36];
            vf const b = BANDS(prev, k + 9) * wt[k + 9] - BANDS(prev, 8 - k) * wt[k + 18];
            work[k + 9] = a - b * tantab[k + 9];
            work[k + 18] = a * tantab[k + 9] + b;
        }
#undef BANDS
        mdct_long18_v(out, work, cx);
        transpose16(out);
        st(o16, out[16]);
        st(o17, out[17]);
        for (int l = 0; l < 16; l++) {
            float *const x = xr + 18 * (16 * h + l);
            st(x, out[l]);
            x[16] = o16[l];
            x[17] = o17[l];
        }
    }
}
#endif

/* Row j (0 <= j < 15; the scalar loop's row j - 15) reads xa = x - j and
 * xb = x - 62 + j: xb[c] over the rows is x[c - 62 + j], ascending, and
 * xa[c] is x[c - j], descending, loaded backwards.  A 16th lane (j = 15)
 * reads inside the slot's range x[-286 .. 224] and writes out[30], out[31],
 * which rl_window_tail overwrites without reading. */
void RL_PREP(rl_window_granule)(const float *x, float sb[18][RL_SBLIMIT])
{
    float ev[2][16], od[2][16];
    const float *const w = rl_enwindow + 10 + RL_ENWINDOW_ROWS * RL_ENWINDOW_ROW;
    int k = 0;
#if W == 16
    window_slots16(x, sb);
    x += 32 * 16;
    k = 16;
#endif
    for (; k < 18; k += 2) {
        window_rows2(x, ev, od);
        for (int q = 0; q < 2; q++) {
            for (int j = 0; j < 16; j++) {
                sb[k + q][2 * j] = ev[q][j];
                sb[k + q][2 * j + 1] = od[q][j];
            }
            rl_window_tail(x + 32 * q - RL_ENWINDOW_ROWS, w, sb[k + q]);
        }
        x += 64;
        for (int band = 1; band < 32; band += 2)
            sb[k + 1][band] *= -1;
    }
}

/* ---- 16-bit stereo PCM to the input floats (rl_pcm_s16le) ---- */
/* One 32-bit word per frame, L in its low half, R in its high half (x86 is
 * little-endian): word << 16 and word & 0xffff0000 are rl_raw_sample's
 * int32 of L and of R, converted exactly (16 significant bits) and then
 * through the same float matrix as the scalar loop.  Mono: the scalar
 * kernel. */
typedef unsigned vu __attribute__((vector_size(W * 4)));
void RL_PREP(rl_pcm_s16le)(const void *src, int n, int nch, const float m[4], float *ib0,
                           float *ib1)
{
    const unsigned char *const p = src;
    int i = 0;
    if (nch == 2) {
        vf const m00 = bc(m[0]), m01 = bc(m[1]), m10 = bc(m[2]), m11 = bc(m[3]);
        for (; i + W <= n; i += W) {
            vu w;
            memcpy(&w, p + 4 * (size_t) i, sizeof w);
            vf const xl = __builtin_convertvector((vi) (w << 16), vf);
            vf const xr = __builtin_convertvector((vi) (w & 0xffff0000u), vf);
            st(ib0 + i, xl * m00 + xr * m01);
            st(ib1 + i, xl * m10 + xr * m11);
        }
    }
    rl_pcm_s16le(p + (size_t) (2 * nch) * (size_t) i, n - i, nch, m, ib0 + i, ib1 + i);
}

/* ---- M/S thresholds, W partitions at once (rl_ms_thresholds) ---- */
/* Each lane runs the scalar partition's operations; its branches are
 * selects on the same comparisons (a NaN compares as there), and the msfix
 * quotient is taken in every lane and kept where the scalar one is. */
static inline vf vsel(vi m, vf a, vf b)     /* m ? a : b */
{
    return (vf) (((vi) a & m) | ((vi) b & ~m));
}

static inline vf ldn(const float *p, int cnt)      /* p[0 .. cnt), zeros after */
{
    if (cnt == W)
        return ld(p);
    vf v = bc(0.0f);
    for (int l = 0; l < cnt; l++)
        v[l] = p[l];
    return v;
}

static inline void stn(float *p, vf v, int cnt)    /* p[0 .. cnt) only */
{
    if (cnt == W) {
        st(p, v);
        return;
    }
    for (int l = 0; l < cnt; l++)
        p[l] = v[l];
}

void RL_PREP(rl_ms_thresholds)(const float eb[4][64], float thr[4][64], const float *cb_mld,
                               const float *ath_cb, float athlower, float msfix, int n)
{
    float const msfix2 = msfix * 2.f;
    for (int b = 0; b < n; b += W) {
        int const cnt = n - b < W ? n - b : W;
        vf const ebM = ldn(eb[2] + b, cnt), ebS = ldn(eb[3] + b, cnt);
        vf const thmL = ldn(thr[0] + b, cnt), thmR = ldn(thr[1] + b, cnt);
        vf thmM = ldn(thr[2] + b, cnt), thmS = ldn(thr[3] + b, cnt);
        vf const mld = ldn(cb_mld + b, cnt);
        vi const near = (thmL <= bc(1.58f) * thmR) & (thmR <= bc(1.58f) * thmL);
        vf const mld_m = mld * ebS, mld_s = mld * ebM;
        vf const tmp_m = vsel(thmS < mld_m, thmS, mld_m);
        vf const tmp_s = vsel(thmM < mld_s, thmM, mld_s);
        vf rmid = vsel(near, vsel(thmM > tmp_m, thmM, tmp_m), thmM);
        vf rside = vsel(near, vsel(thmS > tmp_s, thmS, tmp_s), thmS);
        if (msfix > 0.f) {
            vf const ath = ldn(ath_cb + b, cnt) * bc(athlower);
            vf const tmp_l = vsel(thmL > ath, thmL, ath);
            vf const tmp_r = vsel(thmR > ath, thmR, ath);
            vf const thmLR = vsel(tmp_l < tmp_r, tmp_l, tmp_r);
            thmM = vsel(rmid > ath, rmid, ath);
            thmS = vsel(rside > ath, rside, ath);
            vf const thmMS = thmM + thmS;
            vf const lr2 = thmLR * bc(msfix2);
            vi const fix = (thmMS > bc(0.f)) & (lr2 < thmMS);
            vf const f = lr2 / thmMS;
            thmM = vsel(fix, thmM * f, thmM);
            thmS = vsel(fix, thmS * f, thmS);
            rmid = vsel(thmM < rmid, thmM, rmid);
            rside = vsel(thmS < rside, thmS, rside);
        }
        rmid = vsel(rmid > ebM, ebM, rmid);
        rside = vsel(rside > ebS, ebS, rside);
        stn(thr[2] + b, rmid, cnt);
        stn(thr[3] + b, rside, cnt);
    }
}

/* ---- attack detection: W high-pass outputs at once ---- */
void RL_PREP(rl_attack_fir)(const float *firbuf, float hpf[576])
{
    const float *const k = rl_attack_fircoef;
    for (int i = 0; i < 576; i += W) {
        const float *const f = firbuf + i;
        vf sum1 = ld(f + 10), sum2 = bc(0.0f);
        for (int j = 0; j < 9; j += 2) {
            sum1 += bc(k[j]) * (ld(f + j) + ld(f + 21 - j));
            sum2 += bc(k[j + 1]) * (ld(f + j + 1) + ld(f + 20 - j));
        }
        st(hpf + i, sum1 + sum2);
    }
}

/* not at W 16: sixteen lanes end in a longer reduction than they save on
 * 64 values (the AVX-512 table keeps avx2's) */
#if W < 16
void RL_PREP(rl_block_peaks)(const float *pf, float peaks[9])
{
    vi const absmask = (vi){ 0 } + 0x7fffffff;
    for (int b = 0; b < 9; b++, pf += 64) {
        vf p = bc(1.0f);
        for (int i = 0; i < 64; i += W) {
            vf const a = (vf) ((vi) ld(pf + i) & absmask);
            vi const gt = p < a;             /* false for NaN, as the scalar test */
            p = (vf) (((vi) a & gt) | ((vi) p & ~gt));
        }
        float m = p[0];
        for (int l = 1; l < W; l++)
            if (m < p[l])
                m = p[l];
        peaks[b] = m;
    }
}
#endif

/* ---- ReplayGain: the Yule input sums W samples at once, then the two
 * recursions of each sample in one loop (rl_gain_filter's yule_run and
 * butter_run: the Butterworth step of sample i needs only Yule outputs up
 * to i, so interleaving them changes no operation) ---- */
#define GAIN_BLOCK 256

static inline float yule_fwd1(const float *in, const float *k)
{
    float const g0 = in[-10] * k[0] + in[-9] * k[1] + in[-8] * k[2] + in[-7] * k[3];
    float const g1 = in[-6] * k[4] + in[-5] * k[5] + in[-4] * k[6] + in[-3] * k[7];
    float const a89 = in[-2] * k[8] + in[-1] * k[9];
    return g0 + g1 + a89 + in[0] * k[10];
}

void RL_PREP(rl_gain_filter)(int freqindex, const float *in, float *step, float *out, long n)
{
    const float *const kp = rl_gain_yule_coef(freqindex);
    const float *const kbp = rl_gain_butter_coef(freqindex);
    float fwd[GAIN_BLOCK];
    /* coefficients and histories in locals: the recursions then run from
     * registers (no reload of what was just stored, no aliasing doubt) */
    float k[21], kb[5];
    memcpy(k, kp, sizeof k);
    memcpy(kb, kbp, sizeof kb);
    /* yj = step[i - j], zj = out[i - j] */
    float y1 = step[-1], y2 = step[-2], y3 = step[-3], y4 = step[-4], y5 = step[-5];
    float y6 = step[-6], y7 = step[-7], y8 = step[-8], y9 = step[-9], y10 = step[-10];
    float z1 = out[-1], z2 = out[-2];

    while (n > 0) {
        long const m = n < GAIN_BLOCK ? n : GAIN_BLOCK;
        long i = 0;
        for (; i + W <= m; i += W) {
            const float *const p = in + i;
            vf const g0 = ld(p - 10) * bc(k[0]) + ld(p - 9) * bc(k[1]) + ld(p - 8) * bc(k[2])
                          + ld(p - 7) * bc(k[3]);
            vf const g1 = ld(p - 6) * bc(k[4]) + ld(p - 5) * bc(k[5]) + ld(p - 4) * bc(k[6])
                          + ld(p - 3) * bc(k[7]);
            vf const a89 = ld(p - 2) * bc(k[8]) + ld(p - 1) * bc(k[9]);
            st(fwd + i, g0 + g1 + a89 + ld(p) * bc(k[10]));
        }
        for (; i < m; i++)
            fwd[i] = yule_fwd1(in + i, k);
        for (i = 0; i < m; i++) {
            float const b0 = y10 * k[11] + y9 * k[12];
            float const b1 = y8 * k[13] + y7 * k[14];
            float const b2 = y6 * k[15] + y5 * k[16];
            float const b3 = y4 * k[17] + y3 * k[18];
            float const b4 = y2 * k[19] + y1 * k[20];
            float const y0 = fwd[i] - (b0 + b1 + b2 + b3 + b4);
            step[i] = y0;
            float const bf = y2 * kb[0] + y1 * kb[2] + y0 * kb[4];
            float const z0 = bf - (z2 * kb[1] + z1 * kb[3]);
            out[i] = z0;
            y10 = y9; y9 = y8; y8 = y7; y7 = y6; y6 = y5;
            y5 = y4; y4 = y3; y3 = y2; y2 = y1; y1 = y0;
            z2 = z1; z1 = z0;
        }
        in += m;
        step += m;
        out += m;
        n -= m;
    }
}

#include "fht_body.h"
