/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Huffman table selection, bit counting and scalefactor storage for Layer III granules.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "huffman_count.h"

#include <stdint.h>
#include <string.h>

#include "quant_tables.h"
#include "dsp.h"

/* Region0/region1 band counts by the number of long sfbs in big_values. */
static const struct {
    int region0;
    int region1;
} subdivision[23] = {
    { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 1 },
    { 1, 2 }, { 2, 2 }, { 2, 3 }, { 2, 3 }, { 3, 4 }, { 3, 4 }, { 3, 4 }, { 4, 5 },
    { 4, 5 }, { 4, 6 }, { 5, 6 }, { 5, 6 }, { 5, 7 }, { 6, 7 }, { 6, 7 },
};

void rl_huffman_init(void)
{
    /* Every table here is a compile-time constant: nothing to build. */
}

void rl_huffman_config(RlConfig *cfg)
{
    const int *band = cfg->sfb.l;

    cfg->bv_sfb[0] = 0;
    for (int i = 2; i <= 576; i += 2) {
        int nbands = 0;
        while (band[++nbands] < i)
            ;

        int r0 = subdivision[nbands].region0;
        while (band[r0 + 1] > i)
            r0--;
        if (r0 < 0) {
            /* everything fits in region0 (big_values < region0 < region1):
             * keep the nominal split, it is larger than big_values */
            r0 = subdivision[nbands].region0;
        }
        cfg->bv_sfb[i / 2] = (unsigned char) nbands;
        cfg->bv_scf[i - 2] = (char) r0;

        int r1 = subdivision[nbands].region1;
        while (band[r1 + cfg->bv_scf[i - 2] + 2] > i)
            r1--;
        if (r1 < 0)
            r1 = subdivision[nbands].region1;
        cfg->bv_scf[i - 1] = (char) r1;
    }
}

/* ------------------------------------------------------------------ */
/* Quantization with the IEEE-754 trick (LAME TAKEHIRO_IEEE754_HACK).  */

#define MAGIC_FLOAT (65536 * (128))   /* 2^23: adding it puts the integer part in the mantissa */
#define MAGIC_INT   0x4b000000

typedef union {
    float   f;
    int32_t i;
} FloatBits;

void rl_quantize_lines(unsigned int n, float istep, const float *xp, int *ix)
{
    unsigned int pairs = n >> 1;
    unsigned int odd_pair = pairs % 2;
    unsigned int quads = pairs >> 1;
    FloatBits fb[4];

    while (quads--) {
        /* the product is float, the addition double, then rounded to float twice */
        double x0 = istep * xp[0];
        double x1 = istep * xp[1];
        double x2 = istep * xp[2];
        double x3 = istep * xp[3];

        x0 += MAGIC_FLOAT;
        fb[0].f = (float) x0;
        x1 += MAGIC_FLOAT;
        fb[1].f = (float) x1;
        x2 += MAGIC_FLOAT;
        fb[2].f = (float) x2;
        x3 += MAGIC_FLOAT;
        fb[3].f = (float) x3;

        fb[0].f = (float) (x0 + rl_adj43[fb[0].i - MAGIC_INT]);
        fb[1].f = (float) (x1 + rl_adj43[fb[1].i - MAGIC_INT]);
        fb[2].f = (float) (x2 + rl_adj43[fb[2].i - MAGIC_INT]);
        fb[3].f = (float) (x3 + rl_adj43[fb[3].i - MAGIC_INT]);

        ix[0] = fb[0].i - MAGIC_INT;
        ix[1] = fb[1].i - MAGIC_INT;
        ix[2] = fb[2].i - MAGIC_INT;
        ix[3] = fb[3].i - MAGIC_INT;
        ix += 4;
        xp += 4;
    }
    if (odd_pair) {
        double x0 = istep * xp[0];
        double x1 = istep * xp[1];

        x0 += MAGIC_FLOAT;
        fb[0].f = (float) x0;
        x1 += MAGIC_FLOAT;
        fb[1].f = (float) x1;

        fb[0].f = (float) (x0 + rl_adj43[fb[0].i - MAGIC_INT]);
        fb[1].f = (float) (x1 + rl_adj43[fb[1].i - MAGIC_INT]);

        ix[0] = fb[0].i - MAGIC_INT;
        ix[1] = fb[1].i - MAGIC_INT;
    }
}

/* Lines at or above a band the previous count put in the count1 region,
 * quantized at a coarser step, can only be 0 or 1 (LAME
 * quantize_lines_xrpow_01): a threshold test instead of the rounding. */
static void quantize_lines_01(unsigned int n, float istep, const float *xp, int *ix)
{
    float const compareval0 = (1.0f - 0.4054f) / istep;
    for (unsigned int i = 0; i < n; i += 2) {
        ix[i + 0] = (compareval0 > xp[i + 0]) ? 0 : 1;
        ix[i + 1] = (compareval0 > xp[i + 1]) ? 0 : 1;
    }
}

/* One band's quantizer step (LAME: global gain less the scalefactor
 * amplification and the subblock gain, which the cache holds). */
static int band_step(const RlGranule *gi, const RlNoiseCache *prev, int sfb)
{
    return gi->global_gain - prev->off[sfb];
}

/* Quantizes lines [from, to) by the 0/1 test or by rounding. */
static void quantize_run(RlQuantLinesFn quantize_lines, int zero_one, int from, int to, float istep,
                         const float *xp, int *ix)
{
    if (to <= from)
        return;
    if (zero_one)
        quantize_lines_01((unsigned int) (to - from), istep, xp + from, ix + from);
    else
        quantize_lines((unsigned int) (to - from), istep, xp + from, ix + from);
}

/* LAME quantize_xrpow: bands up to the one holding max_nonzero_coeff
 * (band `last`) are quantized, the lines from max_nonzero_coeff on zeroed.
 * With a noise cache (the outer loop's), bands whose step did not change
 * since the cache was written at this global gain keep their l3_enc, and
 * bands at or above the cached count1 start at a coarser step take the 0/1
 * test: both exactly as LAME, whose output depends on them.
 * LAME walks the bands one by one and quantizes each run of consecutive
 * bands of one kind in one call; here masks over the bands find the same
 * runs.  Where LAME stops: at band `last` if it is requantized (its run
 * ends at max_nonzero_coeff + 1: an odd count leaves, or for the 0/1 test
 * sets, the line after it as LAME does), else at the first requantized
 * band above it, with no lines; either zeroes the lines from
 * max_nonzero_coeff on first, which no earlier run reaches (their counts
 * are even sums of widths ending at or below it), so the zeroing goes
 * first here.  Without a cache that is one run of max_nonzero_coeff + 1
 * lines. */
static void quantize_granule(RlQuantLinesFn quantize_lines, const float *xp, int *const pi, float istep,
                             const RlGranule *gi, const RlNoiseCache *prev)
{
    int const sfbmax = gi->block_type == RL_SHORT_TYPE ? 38 : 21;
    int const mnc = gi->max_nonzero_coeff;
    uint64_t redo = 0, zero_one = 0;

    if (mnc < 0) {
        /* nothing to code (LAME never quantizes such a granule) */
        memset(pi, 0, sizeof(int) * 576);
        return;
    }
    if (prev == NULL || prev->last_band < 0) {
        int const n = mnc < 576 ? mnc + 1 : 576;
        if (mnc < 576)
            memset(&pi[mnc], 0, sizeof(int) * (size_t) (576 - mnc));
        quantize_lines((unsigned int) n, istep, xp, pi);
        return;
    }
    int const last = prev->last_band;
    int const prev_use = gi->global_gain == prev->global_gain;
    int const use01 = prev->sfb_count1 > 0 && (prev_use || gi->block_type == RL_NORM_TYPE);
    /* LAME tests band `last` for the 0/1 run after it has set its band
     * index past sfbmax: that band's cached step is the one read there
     * (never written for long blocks, so 0: no 0/1 test; short blocks
     * have no cached count1) */
    int const p01_last = sfbmax + 1 < RL_SFBMAX ? prev->step[sfbmax + 1] : 0;
    if (!prev_use) {
        /* every band requantized; only the bands from the cached count1
         * on may take the 0/1 test (their t is at or above it) */
        redo = ((uint64_t) 2 << sfbmax) - 1;
        for (int sfb = use01 ? prev->sfb_count1 : sfbmax + 1; sfb <= last; sfb++) {
            int const p01 = sfb == last ? p01_last : prev->step[sfb];
            zero_one |= (uint64_t) (p01 > 0 && band_step(gi, prev, sfb) >= p01) << sfb;
        }
    } else {
        for (int sfb = 0; sfb <= last; sfb++) {
            int const step = band_step(gi, prev, sfb);
            int const t = sfb == last ? sfbmax + 1 : sfb;
            int const p01 = sfb == last ? p01_last : prev->step[sfb];
            redo |= (uint64_t) (prev->step[sfb] != step) << sfb;
            zero_one |= (uint64_t) (use01 && t >= prev->sfb_count1 && p01 > 0 && step >= p01) << sfb;
        }
    }
    /* past `last` only whether some band is requantized counts */
    for (int sfb = last + 1; prev_use && sfb <= sfbmax; sfb++)
        redo |= (uint64_t) (prev->step[sfb] != band_step(gi, prev, sfb)) << sfb;

    /* LAME zeroes when it reaches a requantized band from `last` on */
    if ((redo >> last) != 0)
        memset(&pi[mnc], 0, sizeof(int) * (size_t) (576 - mnc));
    redo &= ((uint64_t) 2 << last) - 1;
    while (redo) {
        int const s0 = __builtin_ctzll(redo);
        int const kind = (int) (zero_one >> s0) & 1;
        uint64_t const same = redo & (kind ? zero_one : ~zero_one);
        int const e = s0 + __builtin_ctzll(~(same >> s0));   /* bands s0 .. e-1 */
        int const to = e - 1 == last ? mnc + 1 : prev->start[e];
        quantize_run(quantize_lines, kind, prev->start[s0], to, istep, xp, pi);
        redo &= ~((((uint64_t) 1 << (e - s0)) - 1) << s0);
    }
}

/* ------------------------------------------------------------------ */
/* Table choice.                                                      */

static int pair_max(const int *ix, const int *end)
{
    int max1 = 0, max2 = 0;

    do {
        int x1 = *ix++;
        int x2 = *ix++;
        if (max1 < x1)
            max1 = x1;
        if (max2 < x2)
            max2 = x2;
    } while (ix < end);
    return max1 < max2 ? max2 : max1;
}

/* Tables t1 (16..23) and t2 (24..31) at once: lengths packed hi/lo in rl_largetbl. */
static int count_escaped(const int *ix, const int *end, int t1, int t2, unsigned int *bits)
{
    unsigned int linbits = rl_ht[t1].xlen * 65536u + rl_ht[t2].xlen;
    unsigned int sum = 0, sum_lo;

    do {
        unsigned int x = (unsigned int) *ix++;
        unsigned int y = (unsigned int) *ix++;

        if (x >= 15u) {
            x = 15u;
            sum += linbits;
        }
        if (y >= 15u) {
            y = 15u;
            sum += linbits;
        }
        sum += rl_largetbl[(x << 4u) + y];
    } while (ix < end);

    sum_lo = sum & 0xffffu;
    sum >>= 16u;
    if (sum > sum_lo) {
        sum = sum_lo;
        t1 = t2;
    }
    *bits += sum;
    return t1;
}

/* First table for each max value 1..15 (LAME huf_tbl_noESC). */
static const int first_table[15] = { 1, 2, 5, 7, 7, 10, 10, 13, 13, 13, 13, 13, 13, 13, 13 };

static int count_max1(const int *ix, const int *end, unsigned int *bits)
{
    unsigned int sum = 0;
    const uint8_t *hlen = rl_ht[1].hlen;

    do {
        unsigned int x0 = (unsigned int) *ix++;
        unsigned int x1 = (unsigned int) *ix++;
        sum += hlen[x0 + x0 + x1];
    } while (ix < end);
    *bits += sum;
    return 1;
}

/* max 2 or 3: tables 2/3 or 5/6 through the packed pair tables. */
static int count_two_tables(const int *ix, const int *end, int max, unsigned int *bits)
{
    int t = first_table[max - 1];
    unsigned int xlen = rl_ht[t].xlen;
    const uint32_t *packed = t == 2 ? rl_table23 : rl_table56;
    unsigned int sum = 0, sum_lo;

    do {
        unsigned int x0 = (unsigned int) *ix++;
        unsigned int x1 = (unsigned int) *ix++;
        sum += packed[x0 * xlen + x1];
    } while (ix < end);

    sum_lo = sum & 0xffffu;
    sum >>= 16u;
    if (sum > sum_lo) {
        sum = sum_lo;
        t++;
    }
    *bits += sum;
    return t;
}

/* max 4..15: three consecutive tables (13..15 includes LAME's spare table 14). */
static int count_three_tables(const int *ix, const int *end, int max, unsigned int *bits)
{
    int t1 = first_table[max - 1];
    unsigned int s1 = 0, s2 = 0, s3 = 0;
    unsigned int xlen = rl_ht[t1].xlen;
    const uint8_t *h1 = rl_ht[t1].hlen;
    const uint8_t *h2 = rl_ht[t1 + 1].hlen;
    const uint8_t *h3 = rl_ht[t1 + 2].hlen;
    int t;

    do {
        unsigned int x0 = (unsigned int) *ix++;
        unsigned int x1 = (unsigned int) *ix++;
        unsigned int x = x0 * xlen + x1;
        s1 += h1[x];
        s2 += h2[x];
        s3 += h3[x];
    } while (ix < end);

    t = t1;
    if (s1 > s2) {
        s1 = s2;
        t++;
    }
    if (s1 > s3) {
        s1 = s3;
        t = t1 + 2;
    }
    *bits += s1;
    return t;
}

int rl_choose_table(const int *ix, const int *end, int *bits)
{
    /* LAME sums through an unsigned alias of the int counter */
    unsigned int sum = (unsigned int) *bits;
    unsigned int max = (unsigned int) pair_max(ix, end);
    int t;

    if (max <= 15) {
        if (max == 0)
            t = 0;
        else if (max == 1)
            t = count_max1(ix, end, &sum);
        else if (max <= 3)
            t = count_two_tables(ix, end, (int) max, &sum);
        else
            t = count_three_tables(ix, end, (int) max, &sum);
        *bits = (int) sum;
        return t;
    }
    if (max > RL_IXMAX_VAL) {
        *bits = RL_LARGE_BITS;
        return -1;
    }
    int t2;
    t = rl_escape_tables(max - 15u, &t2);
    t = count_escaped(ix, end, t, t2, &sum);
    *bits = (int) sum;
    return t;
}

/* ------------------------------------------------------------------ */
/* Bit counting.                                                      */

void rl_substep_lines(int *ix, const float *xrpow, int n, float roundfac)
{
    /* a mask, not a branch: the comparison goes either way line by line,
     * and mispredicted it dominated -q 0..2 */
    for (int i = 0; i < n; i++)
        ix[i] &= -(int) (xrpow[i] >= roundfac);
}

int rl_count1_region(const int *ix, int n, int *big_values, int bits[2])
{
    int i = n, a1 = 0, a2 = 0;

    /* trailing zero pairs are not coded */
    for (; i > 1; i -= 2)
        if (ix[i - 1] | ix[i - 2])
            break;
    int const count1 = i;

    /* quadruples of values <= 1 */
    for (; i > 3; i -= 4) {
        int x4 = ix[i - 4];
        int x3 = ix[i - 3];
        int x2 = ix[i - 2];
        int x1 = ix[i - 1];
        if ((unsigned int) (x4 | x3 | x2 | x1) > 1)
            break;
        int p = ((x4 * 2 + x3) * 2 + x2) * 2 + x1;
        a1 += rl_t32l[p];
        a2 += rl_t33l[p];
    }
    *big_values = i;
    bits[0] = a1;
    bits[1] = a2;
    return count1;
}

static int noquant_count_bits(const RlConfig *cfg, RlGranule *gi, RlNoiseCache *prev);

int rl_noquant_count_bits(const RlConfig *cfg, RlGranule *gi)
{
    return noquant_count_bits(cfg, gi, NULL);
}

static int noquant_count_bits(const RlConfig *cfg, RlGranule *gi, RlNoiseCache *prev)
{
    const int *ix = gi->l3_enc;
    int bits;
    int a1, a2;
    int i = ((gi->max_nonzero_coeff + 2) >> 1) << 1;
    if (i > 576)
        i = 576;
    if (prev != NULL)
        prev->sfb_count1 = 0;

    int c1bits[2];
    gi->count1 = cfg->dsp->count1(ix, i, &i, c1bits);
    a1 = c1bits[0];
    a2 = c1bits[1];
    bits = a1;
    gi->count1table_select = 0;
    if (a1 > a2) {
        bits = a2;
        gi->count1table_select = 1;
    }
    gi->count1bits = bits;
    gi->big_values = i;
    if (i == 0)
        return bits;

    if (gi->block_type == RL_SHORT_TYPE) {
        a1 = 3 * cfg->sfb.s[3];
        if (a1 > gi->big_values)
            a1 = gi->big_values;
        a2 = gi->big_values;
    } else if (gi->block_type == RL_NORM_TYPE) {
        a1 = gi->region0_count = cfg->bv_scf[i - 2];
        a2 = gi->region1_count = cfg->bv_scf[i - 1];
        a2 = cfg->sfb.l[a1 + a2 + 2];
        a1 = cfg->sfb.l[a1 + 1];
        if (a2 < i)
            gi->table_select[2] = cfg->dsp->choose_table(ix + a2, ix + i, &bits);
    } else {
        gi->region0_count = 7;
        gi->region1_count = RL_SBMAX_L - 1 - 7 - 1;
        a1 = cfg->sfb.l[7 + 1];
        a2 = i;
        if (a1 > a2)
            a1 = a2;
    }

    /* big_values may end before region0/region1 do */
    if (a1 > i)
        a1 = i;
    if (a2 > i)
        a2 = i;

    if (0 < a1)
        gi->table_select[0] = cfg->dsp->choose_table(ix, ix + a1, &bits);
    if (a1 < a2)
        gi->table_select[1] = cfg->dsp->choose_table(ix + a1, ix + a2, &bits);
    if (cfg->use_best_huffman == 2) {
        gi->part2_3_length = bits;
        rl_best_huffman_divide(cfg, gi);
        bits = gi->part2_3_length;
    }
    if (prev != NULL && gi->block_type == RL_NORM_TYPE)
        /* first band of the count1 region, for the next quantization
         * (big_values is even here) */
        prev->sfb_count1 = cfg->bv_sfb[gi->big_values >> 1];
    return bits;
}

int rl_count_bits(const RlConfig *cfg, const float *xrpow, RlGranule *gi, const int *pseudohalf,
                  RlNoiseCache *prev)
{
    int *ix = gi->l3_enc;
    /* int / float: float division as in LAME */
    float w = RL_IXMAX_VAL / rl_ipow20[gi->global_gain];

    if (gi->xrpow_max > w)
        return RL_LARGE_BITS;

    quantize_granule(cfg->dsp->quantize_lines, xrpow, ix, rl_ipow20[gi->global_gain], gi, prev);

    if (cfg->substep_shaping & 2) {
        int j = 0;
        /* 0.634521682242439 = 0.5946*2**(.5*0.1875); double / float, stored as float */
        int gain = gi->global_gain + gi->scalefac_scale;
        float roundfac = (float) (0.634521682242439 / rl_ipow20[gain]);
        /* runs of consecutive bands to truncate, one call each */
        int run = 0;
        for (int sfb = 0; sfb < gi->sfbmax; sfb++) {
            int const width = gi->width[sfb];
            if (pseudohalf[sfb]) {
                run += width;
            } else if (run > 0) {
                cfg->dsp->substep(ix + j - run, xrpow + j - run, run, roundfac);
                run = 0;
            }
            j += width;
        }
        if (run > 0)
            cfg->dsp->substep(ix + j - run, xrpow + j - run, run, roundfac);
    }
    return noquant_count_bits(cfg, gi, prev);
}

/* ------------------------------------------------------------------ */
/* Scalefactors.                                                      */

/* MPEG-1 granule 1: share scalefactor groups equal to granule 0 (scfsi). */
static void scfsi_calc(int ch, RlSideInfo *side)
{
    RlGranule *gi = &side->tt[1][ch];
    const RlGranule *g0 = &side->tt[0][ch];
    int s1, s2, c1, c2, sfb;

    for (int i = 0; i < 4; i++) {
        for (sfb = rl_scfsi_band[i]; sfb < rl_scfsi_band[i + 1]; sfb++) {
            if (g0->scalefac[sfb] != gi->scalefac[sfb] && gi->scalefac[sfb] >= 0)
                break;
        }
        if (sfb == rl_scfsi_band[i + 1]) {
            for (sfb = rl_scfsi_band[i]; sfb < rl_scfsi_band[i + 1]; sfb++)
                gi->scalefac[sfb] = -1;
            side->scfsi[ch][i] = 1;
        }
    }

    s1 = c1 = 0;
    for (sfb = 0; sfb < 11; sfb++) {
        if (gi->scalefac[sfb] == -1)
            continue;
        c1++;
        if (s1 < gi->scalefac[sfb])
            s1 = gi->scalefac[sfb];
    }
    s2 = c2 = 0;
    for (; sfb < RL_SBPSY_L; sfb++) {
        if (gi->scalefac[sfb] == -1)
            continue;
        c2++;
        if (s2 < gi->scalefac[sfb])
            s2 = gi->scalefac[sfb];
    }

    for (int k = 0; k < 16; k++) {
        if (s1 < rl_slen1_n[k] && s2 < rl_slen2_n[k]) {
            int c = rl_slen1_tab[k] * c1 + rl_slen2_tab[k] * c2;
            if (gi->part2_length > c) {
                gi->part2_length = c;
                gi->scalefac_compress = k;
            }
        }
    }
}

void rl_best_scalefac_store(const RlConfig *cfg, int gr, int ch, RlSideInfo *side)
{
    RlGranule *gi = &side->tt[gr][ch];
    int sfb, j, l;
    int recalc = 0;

    /* bands quantized to all zeros: any scalefactor will do, marked -2
     * (only this function and scfsi_calc know that mark) */
    /* a band is all zeros exactly when the OR of its values is 0 (a loop
     * without exits, which the compiler vectorises) */
    j = 0;
    for (sfb = 0; sfb < gi->sfbmax; sfb++) {
        int const width = gi->width[sfb];
        const int *const v = &gi->l3_enc[j];
        int acc[8] = { 0, 0, 0, 0, 0, 0, 0, 0 }, any = 0;
        for (l = 0; l + 8 <= width; l += 8)
            for (int k = 0; k < 8; k++)
                acc[k] |= v[l + k];
        for (; l < width; ++l)
            any |= v[l];
        for (int k = 0; k < 8; k++)
            any |= acc[k];
        j += width;
        if (any == 0)
            gi->scalefac[sfb] = recalc = -2;
    }

    if (!gi->scalefac_scale && !gi->preflag) {
        int s = 0;
        for (sfb = 0; sfb < gi->sfbmax; sfb++)
            if (gi->scalefac[sfb] > 0)
                s |= gi->scalefac[sfb];

        if (!(s & 1) && s != 0) {
            for (sfb = 0; sfb < gi->sfbmax; sfb++)
                if (gi->scalefac[sfb] > 0)
                    gi->scalefac[sfb] >>= 1;
            gi->scalefac_scale = recalc = 1;
        }
    }

    if (!gi->preflag && gi->block_type != RL_SHORT_TYPE && cfg->mode_gr == 2) {
        for (sfb = 11; sfb < RL_SBPSY_L; sfb++)
            if (gi->scalefac[sfb] < rl_pretab[sfb] && gi->scalefac[sfb] != -2)
                break;
        if (sfb == RL_SBPSY_L) {
            for (sfb = 11; sfb < RL_SBPSY_L; sfb++)
                if (gi->scalefac[sfb] > 0)
                    gi->scalefac[sfb] -= rl_pretab[sfb];
            gi->preflag = recalc = 1;
        }
    }

    for (int i = 0; i < 4; i++)
        side->scfsi[ch][i] = 0;

    if (cfg->mode_gr == 2 && gr == 1
        && side->tt[0][ch].block_type != RL_SHORT_TYPE
        && side->tt[1][ch].block_type != RL_SHORT_TYPE) {
        scfsi_calc(ch, side);
        recalc = 0;
    }
    for (sfb = 0; sfb < gi->sfbmax; sfb++)
        if (gi->scalefac[sfb] == -2)
            gi->scalefac[sfb] = 0;
    if (recalc)
        (void) rl_scale_bitcount(cfg, gi);
}

static int scale_bitcount_mpeg1(RlGranule *gi)
{
    int *scalefac = gi->scalefac;
    int max_slen1 = 0, max_slen2 = 0;
    const int *tab;
    int sfb;

    if (gi->block_type == RL_SHORT_TYPE) {
        tab = gi->mixed_block_flag ? rl_scale_mixed : rl_scale_short;
    } else {
        tab = rl_scale_long;
        if (!gi->preflag) {
            for (sfb = 11; sfb < RL_SBPSY_L; sfb++)
                if (scalefac[sfb] < rl_pretab[sfb])
                    break;
            if (sfb == RL_SBPSY_L) {
                gi->preflag = 1;
                for (sfb = 11; sfb < RL_SBPSY_L; sfb++)
                    scalefac[sfb] -= rl_pretab[sfb];
            }
        }
    }

    for (sfb = 0; sfb < gi->sfbdivide; sfb++)
        if (max_slen1 < scalefac[sfb])
            max_slen1 = scalefac[sfb];
    for (; sfb < gi->sfbmax; sfb++)
        if (max_slen2 < scalefac[sfb])
            max_slen2 = scalefac[sfb];

    /* every scalefac_compress is tried, not just the first that fits */
    gi->part2_length = RL_LARGE_BITS;
    for (int k = 0; k < 16; k++) {
        if (max_slen1 < rl_slen1_n[k] && max_slen2 < rl_slen2_n[k] && gi->part2_length > tab[k]) {
            gi->part2_length = tab[k];
            gi->scalefac_compress = k;
        }
    }
    return gi->part2_length == RL_LARGE_BITS;
}

/* MPEG-2 LSF (ISO 13818-3 2.4.3.2); intensity-stereo tables are never used. */
static int scale_bitcount_lsf(RlGranule *gi)
{
    static const int log2_ceil[16] = { 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4 };
    const int *scalefac = gi->scalefac;
    int table_number = gi->preflag ? 2 : 0;
    int row;
    int max_sfac[4] = { 0, 0, 0, 0 };
    const int *partition_table;
    int sfb, partition, over;

    if (gi->block_type == RL_SHORT_TYPE) {
        row = 1;
        partition_table = rl_nr_of_sfb_block[table_number][row];
        for (sfb = 0, partition = 0; partition < 4; partition++) {
            int nr_sfb = partition_table[partition] / 3;
            for (int i = 0; i < nr_sfb; i++, sfb++)
                for (int window = 0; window < 3; window++)
                    if (scalefac[sfb * 3 + window] > max_sfac[partition])
                        max_sfac[partition] = scalefac[sfb * 3 + window];
        }
    } else {
        row = 0;
        partition_table = rl_nr_of_sfb_block[table_number][row];
        for (sfb = 0, partition = 0; partition < 4; partition++) {
            int nr_sfb = partition_table[partition];
            for (int i = 0; i < nr_sfb; i++, sfb++)
                if (scalefac[sfb] > max_sfac[partition])
                    max_sfac[partition] = scalefac[sfb];
        }
    }

    for (over = 0, partition = 0; partition < 4; partition++)
        if (max_sfac[partition] > rl_max_range_sfac_tab[table_number][partition])
            over++;

    if (!over) {
        gi->sfb_partition_table = rl_nr_of_sfb_block[table_number][row];
        for (partition = 0; partition < 4; partition++)
            gi->slen[partition] = log2_ceil[max_sfac[partition]];

        int slen1 = gi->slen[0], slen2 = gi->slen[1], slen3 = gi->slen[2], slen4 = gi->slen[3];
        if (table_number == 0)
            gi->scalefac_compress = (((slen1 * 5) + slen2) << 4) + (slen3 << 2) + slen4;
        else /* table_number == 2 */
            gi->scalefac_compress = 500 + (slen1 * 3) + slen2;

        gi->part2_length = 0;
        for (partition = 0; partition < 4; partition++)
            gi->part2_length += gi->slen[partition] * gi->sfb_partition_table[partition];
    }
    return over;
}

int rl_scale_bitcount(const RlConfig *cfg, RlGranule *gi)
{
    if (cfg->mode_gr == 2)
        return scale_bitcount_mpeg1(gi);
    return scale_bitcount_lsf(gi);
}
