/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: Huffman bit counting and scalefactor storage (huffman_count.c) against
 * known answers captured from LAME 3.100's bit-counting code on the same inputs.
 * The inputs come from a small integer generator (below) that the capture program
 * shared; the expected values are LAME's outputs for it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#include "huffman_tables.h"
#include "quant_tables.h"
#include "rl_config.h"
#include "huffman_count.h"
#include "quantize_noise.h"
#include "dsp.h"

/* long / short sfb boundaries of 44.1 kHz, 22.05 kHz and 8 kHz (LAME sfBandIndex 3, 0, 8) */
static const int sfb_tab[6][23] = {
{ 0, 4, 8, 12, 16, 20, 24, 30, 36, 44, 52, 62, 74, 90, 110, 134, 162, 196, 238, 288, 342, 418, 576, },
    { 0, 4, 8, 12, 16, 22, 30, 40, 52, 66, 84, 106, 136, 192, },
    { 0, 6, 12, 18, 24, 30, 36, 44, 54, 66, 80, 96, 116, 140, 168, 200, 238, 284, 336, 396, 464, 522, 576, },
    { 0, 4, 8, 12, 18, 24, 32, 42, 56, 74, 100, 132, 174, 192, },
    { 0, 12, 24, 36, 48, 60, 72, 88, 108, 132, 160, 192, 232, 280, 336, 400, 476, 566, 568, 570, 572, 574, 576, },
    { 0, 8, 16, 24, 36, 52, 72, 96, 124, 160, 162, 164, 166, 192, },
};
#define KAT_L(i) sfb_tab[2 * ((i) == 3 ? 0 : (i) == 0 ? 1 : 2)]
#define KAT_S(i) sfb_tab[2 * ((i) == 3 ? 0 : (i) == 0 ? 1 : 2) + 1]

static RlConfig cfg;
static void kat_config(int sfb_index, int mode_gr, int ubh)
{
    memset(&cfg, 0, sizeof cfg);
    cfg.dsp = rl_dsp_table_at(rl_cpu_simd_level());   /* the CPU's best kernels */
    cfg.mode_gr = mode_gr;
    cfg.use_best_huffman = ubh;
    memcpy(cfg.sfb.l, KAT_L(sfb_index), sizeof cfg.sfb.l);
    memcpy(cfg.sfb.s, KAT_S(sfb_index), sizeof cfg.sfb.s);
    rl_huffman_config(&cfg);
}
#define G RlGranule
#define SIDE RlSideInfo
#define KAT_CONFIG(i, mg, u) kat_config(i, mg, u)
#define NOQUANT(g) rl_noquant_count_bits(&cfg, g)
#define DIVIDE(g) rl_best_huffman_divide(&cfg, g)
#define COUNT_BITS(x, g) rl_count_bits(&cfg, x, g, NULL, NULL)
#define SCALE_BITCOUNT(g) rl_scale_bitcount(&cfg, g)
#define BEST_SCF(gr, ch, s) rl_best_scalefac_store(&cfg, gr, ch, s)
#define PART_IDX(g) ((g)->sfb_partition_table ? (int)((g)->sfb_partition_table - &rl_nr_of_sfb_block[0][0][0]) : -1)

static uint32_t kat_state;
static uint32_t kat_rnd(void)
{
    kat_state ^= kat_state << 13;
    kat_state ^= kat_state >> 17;
    kat_state ^= kat_state << 5;
    return kat_state;
}
static int kat_rr(int n) { return (int)(kat_rnd() % (uint32_t)n); }

/* long and short widths like init_outer_loop (no mixed blocks) */
static void kat_geometry(RlGranule *gi, const int *l, const int *s, int block_type, int sr8k)
{
    memset(gi, 0, sizeof *gi);
    gi->block_type = block_type;
    gi->sfb_lmax = sr8k ? 17 : 21;
    gi->sfb_smin = sr8k ? 9 : 12;
    gi->sfbmax = gi->sfb_lmax;
    gi->sfbdivide = 11;
    for (int b = 0; b < 22; b++) { gi->width[b] = l[b + 1] - l[b]; gi->window[b] = 3; }
    if (block_type == 2) {
        gi->sfb_lmax = 0; gi->sfb_smin = 0;
        gi->sfbmax = 3 * (sr8k ? 9 : 12);
        gi->sfbdivide = gi->sfbmax - 18;
        for (int b = 0, j = 0; b < 13; b++, j += 3) {
            gi->width[j] = gi->width[j + 1] = gi->width[j + 2] = s[b + 1] - s[b];
            gi->window[j] = 0; gi->window[j + 1] = 1; gi->window[j + 2] = 2;
        }
    }
    gi->global_gain = 210;
}

/* spectrum: decaying integer envelope, holes, a run of 0/1 at the top */
static void kat_spectrum(RlGranule *gi, int prof)
{
    static const int peaks[6] = { 1, 3, 14, 40, 300, 9000 };
    int peak = peaks[prof % 6];
    int mnc = kat_rr(8) == 0 ? 575 : 100 + kat_rr(476);
    int ones_from = mnc - kat_rr(120);
    for (int i = 0; i < 576; i++) {
        int v = 0;
        if (i <= mnc) {
            int env = peak - (int)((long)peak * i / (mnc + 1)) + 1;
            v = kat_rr(4) == 0 ? 0 : kat_rr(env + 1);
            if (i >= ones_from) v = kat_rr(3) == 0;
        }
        if (v > 8206) v = 8206;
        gi->l3_enc[i] = v;
        gi->xr[i] = (float)((kat_rnd() & 1) ? v : -v);
    }
    gi->max_nonzero_coeff = mnc;
}

/* scalefactors that fit (fit=1) or may not */
static void kat_scalefacs(RlGranule *gi, int mode_gr, int fit)
{
    for (int b = 0; b < 39; b++) gi->scalefac[b] = 0;
    for (int b = 0; b < gi->sfbmax; b++) {
        int lim = fit ? (mode_gr == 2 ? (b < gi->sfbdivide ? 16 : 8) : (b < 6 ? 16 : 8)) : 24;
        gi->scalefac[b] = kat_rr(3) == 0 ? 0 : kat_rr(lim);
    }
    if (kat_rr(4) == 0)
        for (int b = 0; b < gi->sfbmax; b++) gi->scalefac[b] &= ~1;
}

/* one case: the same call sequence the capture program ran on LAME */
#define KAT_N 40
static void kat_case(int k, int *o)
{
    static const int srsel[3][3] = { { 3, 2, 0 }, { 0, 1, 0 }, { 8, 1, 1 } }; /* LAME sfb index, mode_gr, 8k */
    const int *sel = srsel[k % 3];
    const int *l = KAT_L(sel[0]), *s = KAT_S(sel[0]);
    int mode_gr = sel[1], sr8k = sel[2];
    int bt = (k / 3) % 4;
    int ubh = (k % 4 == 1) ? 0 : (k % 4 == 3) ? 2 : 1;
    static G gi, g2;
    static SIDE side;
    static float xrpow[576];
    int n = 0;

    kat_state = 0x9e3779b9u * (uint32_t)(k + 1);
    KAT_CONFIG(sel[0], mode_gr, ubh);

    /* A: noquant_count_bits, B: best_huffman_divide */
    kat_geometry(&gi, l, s, bt, sr8k);
    kat_spectrum(&gi, kat_rr(6));
    int bits = NOQUANT(&gi);
    o[n++] = bits; o[n++] = gi.big_values; o[n++] = gi.count1; o[n++] = gi.count1table_select;
    o[n++] = gi.table_select[0]; o[n++] = gi.table_select[1]; o[n++] = gi.table_select[2];
    o[n++] = gi.region0_count; o[n++] = gi.region1_count;
    gi.part2_3_length = bits;
    if (bits < 100000)
        DIVIDE(&gi);
    o[n++] = gi.part2_3_length; o[n++] = gi.big_values; o[n++] = gi.count1; o[n++] = gi.count1table_select;
    o[n++] = gi.table_select[0]; o[n++] = gi.table_select[1]; o[n++] = gi.table_select[2];
    o[n++] = gi.region0_count; o[n++] = gi.region1_count;

    /* C: count_bits on exact float inputs */
    kat_geometry(&g2, l, s, bt, sr8k);
    g2.global_gain = 200 + kat_rr(56);
    g2.max_nonzero_coeff = 200 + kat_rr(376);
    g2.xrpow_max = 0;
    for (int i = 0; i < 576; i++) {
        int m = 576 - i;
        xrpow[i] = (float)kat_rr(m * m / 64 + 2) * 0.0625f;
        if (g2.xrpow_max < xrpow[i]) g2.xrpow_max = xrpow[i];
    }
    bits = COUNT_BITS(xrpow, &g2);
    {
        long sum = 0, wsum = 0;
        for (int i = 0; i < 576; i++) { sum += g2.l3_enc[i]; wsum += (long)(i + 1) * g2.l3_enc[i]; }
        o[n++] = bits; o[n++] = g2.big_values; o[n++] = g2.count1; o[n++] = (int)sum; o[n++] = (int)(wsum % 1000003);
    }

    /* D: scale_bitcount */
    kat_scalefacs(&gi, mode_gr, k % 2);
    o[n++] = SCALE_BITCOUNT(&gi); o[n++] = gi.part2_length; o[n++] = gi.scalefac_compress; o[n++] = gi.preflag;
    o[n++] = gi.slen[0]; o[n++] = gi.slen[1]; o[n++] = gi.slen[2]; o[n++] = gi.slen[3]; o[n++] = PART_IDX(&gi);

    /* E: best_scalefac_store (granule 1 with scfsi for MPEG-1) */
    memset(&side, 0, sizeof side);
    {
        int gr = mode_gr == 2 ? 1 : 0, ch = k & 1;
        for (int g = 0; g <= gr; g++) {
            G *p = &side.tt[g][ch];
            kat_geometry(p, l, s, g == gr ? bt : 0, sr8k);
            kat_spectrum(p, 1 + kat_rr(4));
            kat_scalefacs(p, mode_gr, 1);
            if (g == 1)
                for (int b = 0; b < 21; b++)
                    if (kat_rr(3)) p->scalefac[b] = side.tt[0][ch].scalefac[b];
            SCALE_BITCOUNT(p);
            p->part2_3_length = NOQUANT(p);
        }
        G *p = &side.tt[gr][ch];
        BEST_SCF(gr, ch, &side);
        uint32_t h = 0;
        for (int b = 0; b < 39; b++) h = h * 3u + (uint32_t)(p->scalefac[b] + 2);
        int sum = (int)(h % 1000003u);
        o[n++] = side.scfsi[ch][0] + 2 * side.scfsi[ch][1] + 4 * side.scfsi[ch][2] + 8 * side.scfsi[ch][3];
        o[n++] = p->part2_length; o[n++] = p->scalefac_compress; o[n++] = p->scalefac_scale; o[n++] = p->preflag;
        o[n++] = sum;
    }
    while (n < KAT_N) o[n++] = 0;
}

/* LAME 3.100's answers: [0..8] noquant_count_bits (bits, big_values, count1,
 * count1table_select, table_select[3], region0/1), [9..17] the same after
 * best_huffman_divide, [18..22] count_bits (bits, big_values, count1, l3_enc
 * sums), [23..31] scale_bitcount (over, part2_length, scalefac_compress, preflag,
 * slen[4], partition row), [32..37] best_scalefac_store (scfsi bits,
 * part2_length, scalefac_compress, scalefac_scale, preflag, scalefac hash). */
static const int expected[24][KAT_N] = {
    { 6712, 500, 556, 1, 31, 31, 31, 6, 7, 6588, 500, 556, 1, 31, 31, 30, 12, 7, 4309, 506, 506, 18144, 658000, 1, 100000, 0, 0, 0, 0, 0, 0, -1, 1, 50, 15, 0, 0, 237120, 0, 0, },
    { 3567, 374, 474, 1, 29, 28, 28, 5, 6, 3491, 374, 474, 1, 29, 28, 27, 7, 7, 4589, 408, 408, 52139, 295274, 0, 49, 364, 0, 4, 2, 3, 0, 0, 0, 48, 282, 1, 0, 826984, 0, 0, },
    { 1992, 464, 480, 1, 15, 15, 15, 4, 5, 1978, 464, 480, 1, 15, 15, 6, 6, 7, 2658, 254, 254, 21879, 255546, 4, 0, 0, 0, 0, 0, 0, 0, -1, 0, 49, 376, 0, 0, 302737, 0, 0, },
    { 754, 146, 222, 1, 15, 15, 0, 7, 13, 754, 146, 222, 1, 15, 15, 0, 7, 13, 3805, 376, 376, 19602, 702502, 0, 74, 15, 0, 0, 0, 0, 0, -1, 4, 59, 15, 0, 0, 390479, 0, 0, },
    { 384, 58, 146, 0, 15, 15, 0, 7, 13, 384, 58, 146, 0, 15, 15, 0, 7, 13, 4255, 368, 368, 38173, 123995, 3, 0, 0, 0, 0, 0, 0, 0, -1, 0, 43, 281, 1, 0, 717833, 0, 0, },
    { 1692, 298, 306, 0, 25, 24, 0, 7, 13, 1689, 296, 308, 0, 25, 24, 0, 7, 13, 2470, 432, 432, 3809, 529341, 0, 64, 367, 0, 4, 2, 3, 3, 0, 0, 54, 380, 0, 0, 771253, 0, 0, },
    { 1517, 532, 576, 0, 9, 9, 0, 0, 0, 1517, 532, 576, 0, 9, 9, 0, 0, 0, 684, 176, 332, 271, 34191, 1, 100000, 0, 0, 0, 0, 0, 0, -1, 0, 126, 15, 0, 0, 156374, 0, 0, },
    { 541, 178, 202, 0, 9, 9, 0, 0, 0, 541, 178, 202, 0, 9, 9, 0, 0, 0, 2950, 472, 516, 5566, 789685, 0, 117, 383, 0, 4, 3, 3, 3, 4, 0, 117, 383, 0, 0, 478589, 0, 0, },
    { 1208, 480, 572, 1, 2, 2, 0, 0, 0, 1208, 480, 572, 1, 2, 2, 0, 0, 0, 2837, 474, 510, 4777, 675112, 3, 0, 0, 0, 0, 0, 0, 0, -1, 0, 90, 380, 0, 0, 796849, 0, 0, },
    { 296, 82, 166, 1, 3, 2, 0, 7, 13, 296, 82, 166, 1, 3, 2, 0, 7, 13, 2858, 470, 514, 5056, 710957, 0, 74, 15, 0, 0, 0, 0, 0, -1, 0, 74, 15, 0, 0, 719290, 0, 0, },
    { 1280, 428, 476, 1, 9, 9, 0, 7, 13, 1280, 428, 476, 1, 9, 9, 0, 7, 13, 2010, 302, 302, 3953, 469984, 4, 0, 0, 0, 0, 0, 0, 0, -1, 0, 22, 192, 1, 0, 775590, 0, 0, },
    { 2146, 490, 534, 0, 15, 15, 0, 7, 13, 2146, 490, 534, 0, 15, 15, 0, 7, 13, 1930, 224, 224, 6654, 647256, 0, 54, 380, 0, 4, 3, 3, 0, 0, 0, 54, 380, 0, 0, 502592, 0, 0, },
    { 1591, 260, 312, 1, 25, 25, 24, 5, 6, 1569, 260, 312, 1, 25, 24, 15, 11, 4, 1720, 360, 372, 1671, 206733, 1, 100000, 0, 0, 0, 0, 0, 0, -1, 2, 54, 15, 0, 0, 369392, 0, 0, },
    { 1310, 464, 496, 1, 9, 9, 6, 5, 7, 1296, 464, 496, 1, 9, 9, 2, 9, 7, 1432, 320, 320, 1218, 140464, 0, 69, 383, 0, 4, 3, 3, 3, 0, 0, 49, 376, 0, 0, 305340, 0, 0, },
    { 4240, 440, 552, 1, 29, 28, 28, 4, 5, 4184, 440, 552, 1, 29, 28, 27, 5, 7, 1294, 312, 312, 949, 112348, 3, 0, 0, 0, 0, 0, 0, 0, -1, 0, 43, 296, 0, 0, 429531, 0, 0, },
    { 1541, 158, 262, 1, 28, 28, 0, 7, 13, 1541, 158, 262, 1, 28, 28, 0, 7, 13, 4444, 324, 324, 75439, 104994, 0, 74, 15, 0, 0, 0, 0, 0, -1, 2, 54, 15, 0, 0, 680167, 0, 0, },
    { 4247, 480, 488, 0, 29, 28, 0, 7, 13, 4247, 480, 488, 0, 29, 28, 0, 7, 13, 2015, 358, 358, 2778, 363698, 3, 0, 0, 0, 0, 0, 0, 0, -1, 0, 64, 382, 0, 0, 151877, 0, 0, },
    { 2170, 362, 430, 0, 25, 24, 0, 7, 13, 2170, 362, 430, 0, 25, 24, 0, 7, 13, 3002, 332, 332, 11395, 425333, 0, 54, 380, 0, 4, 3, 3, 0, 0, 0, 54, 380, 0, 0, 23170, 0, 0, },
    { 1064, 332, 412, 0, 9, 9, 0, 0, 0, 1064, 332, 412, 0, 9, 9, 0, 0, 0, 2198, 428, 472, 2215, 319171, 1, 100000, 0, 0, 0, 0, 0, 0, -1, 0, 126, 15, 0, 0, 894883, 0, 0, },
    { 1478, 508, 552, 0, 9, 9, 0, 0, 0, 1478, 508, 552, 0, 9, 9, 0, 0, 0, 2505, 428, 428, 3837, 538334, 0, 108, 303, 0, 3, 3, 3, 3, 4, 0, 117, 383, 0, 0, 829925, 0, 0, },
    { 476, 126, 222, 1, 9, 6, 0, 0, 0, 476, 126, 222, 1, 9, 6, 0, 0, 0, 760, 210, 342, 325, 38017, 3, 0, 0, 0, 0, 0, 0, 0, -1, 0, 90, 380, 0, 0, 307375, 0, 0, },
    { 3264, 344, 380, 0, 28, 28, 0, 7, 13, 3264, 344, 380, 0, 28, 28, 0, 7, 13, 1126, 296, 300, 688, 82078, 0, 74, 15, 0, 0, 0, 0, 0, -1, 2, 54, 15, 0, 0, 891183, 0, 0, },
    { 1191, 382, 466, 1, 9, 9, 0, 7, 13, 1191, 382, 466, 1, 9, 9, 0, 7, 13, 2988, 216, 216, 66915, 224025, 4, 0, 0, 0, 0, 0, 0, 0, -1, 0, 59, 366, 0, 0, 301496, 0, 0, },
    { 765, 288, 368, 0, 2, 2, 0, 7, 13, 765, 288, 368, 0, 2, 2, 0, 7, 13, 335, 20, 220, 107, 9928, 0, 64, 382, 0, 4, 3, 3, 2, 0, 0, 49, 376, 0, 0, 327985, 0, 0, },
};

static const char *field_name(int i)
{
    return i < 9 ? "noquant_count_bits" : i < 18 ? "best_huffman_divide" : i < 23 ? "count_bits"
         : i < 32 ? "scale_bitcount" : "best_scalefac_store";
}

int main(void)
{
    rl_huffman_init();
    rl_quant_tables_init();

    /* table consistency: packed length pairs vs the per-table lengths */
    for (int i = 0; i < 256; i++)
        CHECK(rl_largetbl[i] == ((uint32_t) rl_ht[16].hlen[i] << 16 | rl_ht[24].hlen[i]), "largetbl[%d]", i);
    for (int i = 0; i < 9; i++)
        CHECK(rl_table23[i] == ((uint32_t) rl_ht[2].hlen[i] << 16 | rl_ht[3].hlen[i]), "table23[%d]", i);
    for (int i = 0; i < 16; i++)
        CHECK(rl_table56[i] == ((uint32_t) rl_ht[5].hlen[i] << 16 | rl_ht[6].hlen[i]), "table56[%d]", i);
    for (int t = 16; t < 32; t++)
        CHECK(rl_ht[t].linmax == (1u << rl_ht[t].xlen) - 1, "linmax of table %d", t);
    for (int k = 0; k < 16; k++) {
        CHECK(rl_scale_long[k] == 11 * rl_slen1_tab[k] + 10 * rl_slen2_tab[k], "scale_long[%d]", k);
        CHECK(rl_scale_short[k] == 18 * rl_slen1_tab[k] + 18 * rl_slen2_tab[k], "scale_short[%d]", k);
        CHECK(rl_scale_mixed[k] == 17 * rl_slen1_tab[k] + 18 * rl_slen2_tab[k], "scale_mixed[%d]", k);
    }

    /* a granule of zeros costs nothing */
    {
        static RlGranule gi;
        kat_config(3, 2, 1);
        kat_geometry(&gi, KAT_L(3), KAT_S(3), 0, 0);
        gi.max_nonzero_coeff = 575;
        CHECK(rl_noquant_count_bits(&cfg, &gi) == 0 && gi.big_values == 0 && gi.count1 == 0, "silent granule");
        int bits = 7;
        gi.l3_enc[10] = 8207;   /* above RL_IXMAX_VAL: cannot be coded */
        CHECK(rl_choose_table(gi.l3_enc, gi.l3_enc + 20, &bits) == -1 && bits == RL_LARGE_BITS, "overflow");
    }

    /* the count1 band by big_values: LAME's walk over the long bands */
    for (int i = 0; i < 3; i++) {
        static const int idx[3] = { 3, 0, 8 };
        kat_config(idx[i], 2, 1);
        for (int bv = 2; bv <= 576; bv += 2) {
            int sfb = 0;
            while (cfg.sfb.l[sfb] < bv)
                sfb++;
            CHECK(cfg.bv_sfb[bv / 2] == sfb, "bv_sfb[%d] at sfb index %d", bv / 2, idx[i]);
        }
    }

    /* the noise cache's band offsets: rl_band_offset for each band */
    kat_state = 12345;
    for (int n = 0; n < 2000; n++) {
        static RlGranule gi;
        static RlNoiseCache c;
        int const short_block = n & 1;
        memset(&gi, 0, sizeof gi);
        gi.block_type = short_block ? RL_SHORT_TYPE : RL_NORM_TYPE;
        gi.psymax = short_block ? 39 : 22;
        gi.preflag = kat_rr(2);
        gi.scalefac_scale = kat_rr(2);
        for (int sfb = 0; sfb < RL_SFBMAX; sfb++) {
            gi.scalefac[sfb] = kat_rr(16);
            gi.window[sfb] = short_block && sfb >= 3 ? sfb % 3 : 0;
        }
        for (int w = 0; w < 3; w++)
            gi.subblock_gain[w] = short_block && kat_rr(3) == 0 ? kat_rr(8) : 0;
        rl_noise_cache_offsets(&c, &gi);
        for (int sfb = 0; sfb < gi.psymax; sfb++)
            CHECK(c.off[sfb] == rl_band_offset(&gi, sfb), "band offset %d of case %d", sfb, n);
    }

    for (int k = 0; k < 24; k++) {
        int got[KAT_N];
        kat_case(k, got);
        for (int i = 0; i < KAT_N; i++)
            CHECK(got[i] == expected[k][i], "case %d field %d (%s): got %d, LAME %d", k, i, field_name(i),
                  got[i], expected[k][i]);
    }

    return rl_test_done();
}
