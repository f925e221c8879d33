/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Layer III alias reduction and the hybrid filter bank's IMDCT
 * (36-point for long blocks, three 12-point for short ones) with overlap-add.
 * Algorithm derived from LAME 3.100's mpglib/layer3.c (LGPL-2.0-or-later),
 * itself after Jeff Tsay's DCT from maplay (Winograd's factorisation); the
 * float operations are mpglib's, in its order. */
#include "mpa_internal.h"

void rl_l3_antialias(const MpaTables *t, real_t xr[SBLIMIT][SSLIMIT], const L3Granule *g)
{
    real_t *xr1 = &xr[1][0];
    int sblim;

    if (g->block_type == 2) {
        if (!g->mixed_block_flag)
            return;
        sblim = 1;
    }
    else
        sblim = (int) g->maxb - 1;

    /* 8 butterflies across each subband boundary */
    for (int sb = sblim; sb > 0; sb--, xr1 += 10) {
        real_t *xr2 = xr1;
        for (int k = 0; k < 8; k++) {
            real_t const bu = *--xr2, bd = *xr1;
            *xr2 = (bu * t->aa_cs[k]) - (bd * t->aa_ca[k]);
            *xr1++ = (bd * t->aa_cs[k]) + (bu * t->aa_ca[k]);
        }
    }
}

/* the outputs of one (sum0, sum1) pair of the 36-point IMDCT: two values
 * into the next block's overlap (o2), two summed with this block's (o1) */
static inline void dct36_out(int v, real_t sum0, real_t sum1, const real_t *o1, real_t *o2,
                             const real_t *w, real_t *ts)
{
    real_t const tmp = sum0 + sum1;
    o2[9 + v] = tmp * w[27 + v];
    o2[8 - v] = tmp * w[26 - v];
    sum0 -= sum1;
    ts[SBLIMIT * (8 - v)] = o1[8 - v] + sum0 * w[8 - v];
    ts[SBLIMIT * (9 + v)] = o1[9 + v] + sum0 * w[9 + v];
}

static void dct36(real_t *in, const real_t *o1, real_t *o2, const real_t *w, real_t *ts,
                  const MpaTables *t)
{
    const real_t *c = t->cos9;
    const real_t *tf = t->tfcos36;
    real_t ta33, ta66, tb33, tb66;
    real_t tmp1a, tmp2a, tmp1b, tmp2b;

    for (int i = 17; i >= 1; i--)
        in[i] += in[i - 1];
    for (int i = 17; i >= 3; i -= 2)
        in[i] += in[i - 2];

    ta33 = in[2 * 3 + 0] * c[3];
    ta66 = in[2 * 6 + 0] * c[6];
    tb33 = in[2 * 3 + 1] * c[3];
    tb66 = in[2 * 6 + 1] * c[6];

    tmp1a = in[2 * 1 + 0] * c[1] + ta33 + in[2 * 5 + 0] * c[5] + in[2 * 7 + 0] * c[7];
    tmp1b = in[2 * 1 + 1] * c[1] + tb33 + in[2 * 5 + 1] * c[5] + in[2 * 7 + 1] * c[7];
    tmp2a = in[2 * 0 + 0] + in[2 * 2 + 0] * c[2] + in[2 * 4 + 0] * c[4] + ta66 + in[2 * 8 + 0] * c[8];
    tmp2b = in[2 * 0 + 1] + in[2 * 2 + 1] * c[2] + in[2 * 4 + 1] * c[4] + tb66 + in[2 * 8 + 1] * c[8];
    dct36_out(0, tmp1a + tmp2a, (tmp1b + tmp2b) * tf[0], o1, o2, w, ts);
    dct36_out(8, tmp2a - tmp1a, (tmp2b - tmp1b) * tf[8], o1, o2, w, ts);

    tmp1a = (in[2 * 1 + 0] - in[2 * 5 + 0] - in[2 * 7 + 0]) * c[3];
    tmp1b = (in[2 * 1 + 1] - in[2 * 5 + 1] - in[2 * 7 + 1]) * c[3];
    tmp2a = (in[2 * 2 + 0] - in[2 * 4 + 0] - in[2 * 8 + 0]) * c[6] - in[2 * 6 + 0] + in[2 * 0 + 0];
    tmp2b = (in[2 * 2 + 1] - in[2 * 4 + 1] - in[2 * 8 + 1]) * c[6] - in[2 * 6 + 1] + in[2 * 0 + 1];
    dct36_out(1, tmp1a + tmp2a, (tmp1b + tmp2b) * tf[1], o1, o2, w, ts);
    dct36_out(7, tmp2a - tmp1a, (tmp2b - tmp1b) * tf[7], o1, o2, w, ts);

    tmp1a = in[2 * 1 + 0] * c[5] - ta33 - in[2 * 5 + 0] * c[7] + in[2 * 7 + 0] * c[1];
    tmp1b = in[2 * 1 + 1] * c[5] - tb33 - in[2 * 5 + 1] * c[7] + in[2 * 7 + 1] * c[1];
    tmp2a = in[2 * 0 + 0] - in[2 * 2 + 0] * c[8] - in[2 * 4 + 0] * c[2] + ta66 + in[2 * 8 + 0] * c[4];
    tmp2b = in[2 * 0 + 1] - in[2 * 2 + 1] * c[8] - in[2 * 4 + 1] * c[2] + tb66 + in[2 * 8 + 1] * c[4];
    dct36_out(2, tmp1a + tmp2a, (tmp1b + tmp2b) * tf[2], o1, o2, w, ts);
    dct36_out(6, tmp2a - tmp1a, (tmp2b - tmp1b) * tf[6], o1, o2, w, ts);

    tmp1a = in[2 * 1 + 0] * c[7] - ta33 + in[2 * 5 + 0] * c[1] - in[2 * 7 + 0] * c[5];
    tmp1b = in[2 * 1 + 1] * c[7] - tb33 + in[2 * 5 + 1] * c[1] - in[2 * 7 + 1] * c[5];
    tmp2a = in[2 * 0 + 0] - in[2 * 2 + 0] * c[4] + in[2 * 4 + 0] * c[8] + ta66 - in[2 * 8 + 0] * c[2];
    tmp2b = in[2 * 0 + 1] - in[2 * 2 + 1] * c[4] + in[2 * 4 + 1] * c[8] + tb66 - in[2 * 8 + 1] * c[2];
    dct36_out(3, tmp1a + tmp2a, (tmp1b + tmp2b) * tf[3], o1, o2, w, ts);
    dct36_out(5, tmp2a - tmp1a, (tmp2b - tmp1b) * tf[5], o1, o2, w, ts);

    dct36_out(4, in[2 * 0 + 0] - in[2 * 2 + 0] + in[2 * 4 + 0] - in[2 * 6 + 0] + in[2 * 8 + 0],
              (in[2 * 0 + 1] - in[2 * 2 + 1] + in[2 * 4 + 1] - in[2 * 6 + 1] + in[2 * 8 + 1]) * tf[4],
              o1, o2, w, ts);
}

/* the 6-point stages of one short window: v[k] = in[3k] in, the butterflies out */
static void dct12_stage1(const real_t *in, real_t v[6], const MpaTables *t)
{
    v[5] = in[5 * 3];
    v[5] += (v[4] = in[4 * 3]);
    v[4] += (v[3] = in[3 * 3]);
    v[3] += (v[2] = in[2 * 3]);
    v[2] += (v[1] = in[1 * 3]);
    v[1] += (v[0] = in[0 * 3]);
    v[5] += v[3];
    v[3] += v[1];
    v[2] *= t->cos6_1;
    v[3] *= t->cos6_1;
}

/* the odd pair of outputs between the stages: v[6] = tmp0, v[7] = tmp1 */
static void dct12_odd(real_t v[8], const MpaTables *t)
{
    real_t tmp1 = v[0] - v[4];
    real_t const tmp2 = (v[1] - v[5]) * t->tfcos12[1];
    v[6] = tmp1 + tmp2;
    tmp1 -= tmp2;
    v[7] = tmp1;
}

static void dct12_stage2(real_t v[6], const MpaTables *t)
{
    v[0] += v[4] * t->cos6_2;
    v[4] = v[0] + v[2];
    v[0] -= v[2];
    v[1] += v[5] * t->cos6_2;
    v[5] = (v[1] + v[3]) * t->tfcos12[0];
    v[1] = (v[1] - v[3]) * t->tfcos12[2];
    v[3] = v[4] + v[5];
    v[4] -= v[5];
    v[2] = v[0] + v[1];
    v[0] -= v[1];
}

static void dct12(const real_t *in, const real_t *out1, real_t *out2, const real_t *wi, real_t *ts,
                  const MpaTables *t)
{
    real_t v[8];

    /* window 0: into this block's samples 6..11 (with the overlap) */
    for (int k = 0; k < 6; k++)
        ts[SBLIMIT * k] = out1[k];
    dct12_stage1(in, v, t);
    dct12_odd(v, t);
    ts[(17 - 1) * SBLIMIT] = out1[17 - 1] + v[6] * wi[11 - 1];
    ts[(12 + 1) * SBLIMIT] = out1[12 + 1] + v[6] * wi[6 + 1];
    ts[(6 + 1) * SBLIMIT] = out1[6 + 1] + v[7] * wi[1];
    ts[(11 - 1) * SBLIMIT] = out1[11 - 1] + v[7] * wi[5 - 1];
    dct12_stage2(v, t);
    ts[(17 - 0) * SBLIMIT] = out1[17 - 0] + v[2] * wi[11 - 0];
    ts[(12 + 0) * SBLIMIT] = out1[12 + 0] + v[2] * wi[6 + 0];
    ts[(12 + 2) * SBLIMIT] = out1[12 + 2] + v[3] * wi[6 + 2];
    ts[(17 - 2) * SBLIMIT] = out1[17 - 2] + v[3] * wi[11 - 2];
    ts[(6 + 0) * SBLIMIT] = out1[6 + 0] + v[0] * wi[0];
    ts[(11 - 0) * SBLIMIT] = out1[11 - 0] + v[0] * wi[5 - 0];
    ts[(6 + 2) * SBLIMIT] = out1[6 + 2] + v[4] * wi[2];
    ts[(11 - 2) * SBLIMIT] = out1[11 - 2] + v[4] * wi[5 - 2];

    /* window 1: samples 12..17 here, 0..5 of the next block */
    dct12_stage1(in + 1, v, t);
    dct12_odd(v, t);
    out2[5 - 1] = v[6] * wi[11 - 1];
    out2[0 + 1] = v[6] * wi[6 + 1];
    ts[(12 + 1) * SBLIMIT] += v[7] * wi[1];
    ts[(17 - 1) * SBLIMIT] += v[7] * wi[5 - 1];
    dct12_stage2(v, t);
    out2[5 - 0] = v[2] * wi[11 - 0];
    out2[0 + 0] = v[2] * wi[6 + 0];
    out2[0 + 2] = v[3] * wi[6 + 2];
    out2[5 - 2] = v[3] * wi[11 - 2];
    ts[(12 + 0) * SBLIMIT] += v[0] * wi[0];
    ts[(17 - 0) * SBLIMIT] += v[0] * wi[5 - 0];
    ts[(12 + 2) * SBLIMIT] += v[4] * wi[2];
    ts[(17 - 2) * SBLIMIT] += v[4] * wi[5 - 2];

    /* window 2: the next block's samples 0..11 */
    for (int k = 12; k < 18; k++)
        out2[k] = 0.0f;
    dct12_stage1(in + 2, v, t);
    dct12_odd(v, t);
    out2[11 - 1] = v[6] * wi[11 - 1];
    out2[6 + 1] = v[6] * wi[6 + 1];
    out2[0 + 1] += v[7] * wi[1];
    out2[5 - 1] += v[7] * wi[5 - 1];
    dct12_stage2(v, t);
    out2[11 - 0] = v[2] * wi[11 - 0];
    out2[6 + 0] = v[2] * wi[6 + 0];
    out2[6 + 2] = v[3] * wi[6 + 2];
    out2[11 - 2] = v[3] * wi[11 - 2];
    out2[0 + 0] += v[0] * wi[0];
    out2[5 - 0] += v[0] * wi[5 - 0];
    out2[0 + 2] += v[4] * wi[2];
    out2[5 - 2] += v[4] * wi[5 - 2];
}

void rl_l3_hybrid(RlMpaDecoder *d, real_t in[SBLIMIT][SSLIMIT], real_t out[SSLIMIT][SBLIMIT],
                  int ch, const L3Granule *g)
{
    MpaTables const *t = &d->t;
    real_t *ts = &out[0][0];
    int const b = d->hybrid_blc[ch];
    real_t *raw1 = d->hybrid_block[b][ch];
    real_t *raw2 = d->hybrid_block[1 - b][ch];
    int const bt = (int) g->block_type;
    int sb = 0;

    d->hybrid_blc[ch] = 1 - b;
    if (g->mixed_block_flag) {
        sb = 2;
        dct36(in[0], raw1, raw2, t->win[0], ts, t);
        dct36(in[1], raw1 + 18, raw2 + 18, t->win1[0], ts + 1, t);
        raw1 += 36;
        raw2 += 36;
        ts += 2;
    }
    for (; sb < (int) g->maxb; sb += 2, ts += 2, raw1 += 36, raw2 += 36) {
        if (bt == 2) {
            dct12(in[sb], raw1, raw2, t->win[2], ts, t);
            dct12(in[sb + 1], raw1 + 18, raw2 + 18, t->win1[2], ts + 1, t);
        }
        else {
            dct36(in[sb], raw1, raw2, t->win[bt], ts, t);
            dct36(in[sb + 1], raw1 + 18, raw2 + 18, t->win1[bt], ts + 1, t);
        }
    }
    /* subbands above maxb: only the previous overlap */
    for (; sb < SBLIMIT; sb++, ts++)
        for (int i = 0; i < SSLIMIT; i++) {
            ts[i * SBLIMIT] = *raw1++;
            *raw2++ = 0.0f;
        }
}
