/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Layer III Huffman decoding and dequantisation of one granule.
 * Algorithm derived from LAME 3.100's mpglib/layer3.c (LGPL-2.0-or-later). */
#include "l3_huffman.h"
#include "mpa_internal.h"

#define XR_LAST (SBLIMIT * SSLIMIT - 1)

static const int pretab1[22] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3, 2, 0 };
static const int pretab0[22] = { 0 };

/* gainpow2[base + idx], the table's last value beyond its end */
static real_t gain(const MpaTables *t, int base, int idx)
{
    int const k = base + idx;
    return t->gainpow2[k > GAINPOW2_N - 1 ? GAINPOW2_N - 1 : k];
}

/* one pair (x, y) of a big-values tree */
static inline int huff_pair(RlMpaDecoder *d, const RlL3Huff *h, int *part2remain)
{
    const int16_t *val = h->tree;
    int y;
    while ((y = *val++) < 0) {
        if (mpa_get1bit(d))
            val -= y;
        (*part2remain)--;
    }
    return y;
}

/* a value with its escape and sign: |x|^(4/3) * v */
static inline real_t big_value(RlMpaDecoder *d, const RlL3Huff *h, int x, real_t v, int *part2remain)
{
    if (x == 15) {
        *part2remain -= (int) h->linbits + 1;
        x += (int) mpa_getbits(d, (int) h->linbits);
        return mpa_get1bit(d) ? -d->t.ispow[x] * v : d->t.ispow[x] * v;
    }
    if (x) {
        real_t const r = mpa_get1bit(d) ? -d->t.ispow[x] * v : d->t.ispow[x] * v;
        (*part2remain)--;
        return r;
    }
    return 0.0f;
}

/* the quadruple tree's 4-bit value; 0 once the bits ran out */
static int huff_quad(RlMpaDecoder *d, const RlL3Huff *h, int *part2remain)
{
    const int16_t *val = h->tree;
    int a;
    while ((a = *val++) < 0) {
        (*part2remain)--;
        if (*part2remain < 0) {
            (*part2remain)++;
            return 0;
        }
        if (mpa_get1bit(d))
            val -= a;
    }
    return a;
}

/* short and mixed blocks: values go out window by window along the band walk */
static void dequant_short(RlMpaDecoder *d, real_t *xr, int *scf, L3Granule *g, int sfreq,
                          const int l[3], int l3, int *part2remain)
{
    MpaTables const *t = &d->t;
    int const shift = 1 + (int) g->scalefac_scale;
    int max[4], step = 0, lwin = 0, cb = 0, mc = 0, pos = 0;
    real_t v = 0.0f;
    const int *m, *me;

    if (g->mixed_block_flag) {
        max[3] = -1;
        max[0] = max[1] = max[2] = 2;
        m = t->map0[sfreq];
        me = m + t->map_len[sfreq][0];
    }
    else {
        max[0] = max[1] = max[2] = max[3] = -1;
        m = t->map1[sfreq];
        me = m + t->map_len[sfreq][1];
    }

#define NEXT_BAND() do {                                                        \
        mc = *m++;                                                              \
        pos = *m++;                                                             \
        lwin = *m++;                                                            \
        cb = *m++;                                                              \
        if (lwin == 3) {                                                        \
            v = gain(t, g->pow2gain, (*scf++) << shift);                        \
            step = 1;                                                           \
        }                                                                       \
        else {                                                                  \
            v = gain(t, g->full_gain[lwin], (*scf++) << shift);                 \
            step = 3;                                                           \
        }                                                                       \
    } while (0)

    for (int i = 0; i < 2; i++) {
        RlL3Huff const *h = &rl_l3_big_trees[g->table_select[i]];
        for (int lp = l[i]; lp; lp--, mc--) {
            int x, y;
            real_t val;
            if (!mc)
                NEXT_BAND();
            y = huff_pair(d, h, part2remain);
            x = y >> 4;
            y &= 0xf;
            if (x)
                max[lwin] = cb;
            val = big_value(d, h, x, v, part2remain);
            if (pos <= XR_LAST)
                xr[pos] = val;
            pos += step;
            if (y)
                max[lwin] = cb;
            val = big_value(d, h, y, v, part2remain);
            if (pos <= XR_LAST)
                xr[pos] = val;
            pos += step;
        }
    }
    for (; l3 > 0 && *part2remain > 0; l3--) {
        int const a = huff_quad(d, &rl_l3_quad_trees[g->count1table_select], part2remain);
        for (int i = 0; i < 4; i++) {
            real_t val;
            if (!(i & 1)) {
                if (!mc)
                    NEXT_BAND();
                mc--;
            }
            if (a & (0x8 >> i)) {
                max[lwin] = cb;
                (*part2remain)--;
                if (*part2remain < 0) {
                    (*part2remain)++;
                    break;
                }
                val = mpa_get1bit(d) ? -v : v;
            }
            else
                val = 0.0f;
            if (pos <= XR_LAST)
                xr[pos] = val;
            pos += step;
        }
    }
#undef NEXT_BAND
    while (m < me) {
        if (!mc) {
            mc = *m++;
            pos = *m++;
            step = *m++ == 3 ? 1 : 3;
            m++;
        }
        mc--;
        if (pos <= XR_LAST)
            xr[pos] = 0.0f;
        pos += step;
        if (pos <= XR_LAST)
            xr[pos] = 0.0f;
        pos += step;
    }
    g->maxband[0] = (unsigned) (max[0] + 1);
    g->maxband[1] = (unsigned) (max[1] + 1);
    g->maxband[2] = (unsigned) (max[2] + 1);
    g->maxbandl = (unsigned) (max[3] + 1);
    {
        int rmax = max[0] > max[1] ? max[0] : max[1];
        rmax = (rmax > max[2] ? rmax : max[2]) + 1;
        g->maxb = (unsigned) (rmax ? t->short_limit[sfreq][rmax] : t->long_limit[sfreq][max[3] + 1]);
    }
}

/* long blocks: values in frequency order, band gains with the pre-emphasis */
static void dequant_long(RlMpaDecoder *d, real_t *xr, int *scf, L3Granule *g, int sfreq,
                         const int l[3], int l3, int *part2remain)
{
    MpaTables const *t = &d->t;
    int const shift = 1 + (int) g->scalefac_scale;
    const int *pretab = g->preflag ? pretab1 : pretab0;
    const int *m = t->map2[sfreq];
    int max = -1, cb = 0, mc = 0, pos = 0;
    real_t v = 0.0f;

    for (int i = 0; i < 3; i++) {
        RlL3Huff const *h = &rl_l3_big_trees[g->table_select[i]];
        for (int lp = l[i]; lp; lp--, mc--) {
            int x, y;
            real_t val;
            if (!mc) {
                mc = *m++;
                v = gain(t, g->pow2gain, ((*scf++) + (*pretab++)) << shift);
                cb = *m++;
            }
            y = huff_pair(d, h, part2remain);
            x = y >> 4;
            y &= 0xf;
            if (x)
                max = cb;
            val = big_value(d, h, x, v, part2remain);
            if (pos <= XR_LAST)
                xr[pos++] = val;
            if (y)
                max = cb;
            val = big_value(d, h, y, v, part2remain);
            if (pos <= XR_LAST)
                xr[pos++] = val;
        }
    }
    for (; l3 && *part2remain > 0; l3--) {
        int const a = huff_quad(d, &rl_l3_quad_trees[g->count1table_select], part2remain);
        for (int i = 0; i < 4; i++) {
            real_t val;
            if (!(i & 1)) {
                if (!mc) {
                    mc = *m++;
                    cb = *m++;
                    v = gain(t, g->pow2gain, ((*scf++) + (*pretab++)) << shift);
                }
                mc--;
            }
            if (a & (0x8 >> i)) {
                max = cb;
                (*part2remain)--;
                if (*part2remain < 0) {
                    (*part2remain)++;
                    break;
                }
                val = mpa_get1bit(d) ? -v : v;
            }
            else
                val = 0.0f;
            if (pos <= XR_LAST)
                xr[pos++] = val;
        }
    }
    while (pos <= XR_LAST)
        xr[pos++] = 0.0f;
    g->maxbandl = (unsigned) (max + 1);
    g->maxb = (unsigned) t->long_limit[sfreq][g->maxbandl];
}

int rl_l3_dequantize(RlMpaDecoder *d, real_t xr[SBLIMIT][SSLIMIT], int *scf, L3Granule *g,
                     int sfreq, int part2bits)
{
    real_t *const flat = &xr[0][0];
    int part2remain = (int) g->part2_3_length - part2bits;
    int const bv = (int) g->big_values;
    int const region1 = (int) g->region1start, region2 = (int) g->region2start;
    int const l3 = ((576 >> 1) - bv) >> 1;
    int l[3];

    for (int i = 0; i < SBLIMIT * SSLIMIT; i++)
        flat[i] = 0.0f;

    /* pairs in the three big-value regions */
    if (bv <= region1) {
        l[0] = bv;
        l[1] = l[2] = 0;
    }
    else {
        l[0] = region1;
        if (bv <= region2) {
            l[1] = bv - l[0];
            l[2] = 0;
        }
        else {
            l[1] = region2 - l[0];
            l[2] = bv - region2;
        }
    }
    for (int i = 0; i < 3; i++)
        if (l[i] < 0) {
            rl_mpa_report(d, "hip: Bogus region length (%ld)\n", (long) l[i]);
            l[i] = 0;
        }

    if (g->block_type == 2)
        dequant_short(d, flat, scf, g, sfreq, l, l3, &part2remain);
    else
        dequant_long(d, flat, scf, g, sfreq, l, l3, &part2remain);

    /* stuffing bits */
    while (part2remain > 16) {
        (void) mpa_getbits(d, 16);
        part2remain -= 16;
    }
    if (part2remain > 0)
        (void) mpa_getbits(d, part2remain);
    else if (part2remain < 0) {
        rl_mpa_report(d, "hip: Can't rewind stream by %ld bits!\n", (long) -part2remain);
        return 1;
    }
    return 0;
}
