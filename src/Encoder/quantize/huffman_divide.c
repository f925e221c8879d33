/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the region split of a granule's big values (best_huffman_divide):
 * the region0/1/2 boundaries and tables that code them in the fewest bits.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "huffman_count.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "dsp.h"

/* Every region tried starts and ends on a scalefactor band boundary or at
 * big_values, and rl_choose_table's result for a run of pairs depends only
 * on the run's largest value (which picks a group of tables) and on that
 * group's sums of pair code lengths over the run (plus, for the escape
 * tables, the number of values >= 15, each taking the table's linbits).
 * Those sums are sums over the run's pairs, so they are differences of
 * running sums: one pass over the pairs below big_values gives, at each
 * band boundary, the running sum of every table's lengths at once (one
 * vector of lanes per pair value), and each of the several hundred runs
 * tried is then a subtraction.  The sums are exact integers: a lane totals
 * at most 288 pairs of at most 2 x 19 bits plus counts, far below 2^16, so
 * 16-bit lanes never wrap, and rl_choose_table's packed 16|16-bit sums
 * (LAME's table23/56, largetbl) never carry from one half into the other:
 * comparing the two halves is comparing two lanes.  The same tables and
 * bits as rl_choose_table on the lines, without reading each run again. */

enum {
    L_T1 = 0,                   /* table 1 */
    L_T2 = 1,                   /* tables 2, 3 */
    L_T5 = 3,                   /* tables 5, 6 */
    L_T7 = 5,                   /* tables 7, 8, 9 */
    L_T10 = 8,                  /* tables 10, 11, 12 */
    L_T13 = 11,                 /* tables 13, 14 (LAME's spare lengths), 15 */
    L_T16 = 14,                 /* tables 16..23's codes (largetbl high half) */
    L_T24 = 15,                 /* tables 24..31's codes (largetbl low half) */
    L_N15 = 16,                 /* values >= 15 (each takes linbits) */
    N_LANES = 24                /* three vectors of eight 16-bit lanes */
};

typedef struct {
    uint16_t v[N_LANES];
} Lanes;

/* lanes of the pair (min(x, 15), min(y, 15)), index x * 16 + y; a table's
 * lane is 0 where the pair is outside it (no run using that table has such
 * a pair) */
static Lanes pair_lanes[256];
static pthread_once_t lanes_once = PTHREAD_ONCE_INIT;

static void lanes_group3(Lanes *l, int lane, int t, unsigned int x, unsigned int y)
{
    unsigned int const xlen = rl_ht[t].xlen;
    if (x < xlen && y < xlen) {
        l->v[lane + 0] = rl_ht[t].hlen[x * xlen + y];
        l->v[lane + 1] = rl_ht[t + 1].hlen[x * xlen + y];
        l->v[lane + 2] = rl_ht[t + 2].hlen[x * xlen + y];
    }
}

static void build_lanes(void)
{
    memset(pair_lanes, 0, sizeof(pair_lanes));
    for (unsigned int x = 0; x < 16; x++) {
        for (unsigned int y = 0; y < 16; y++) {
            Lanes *const l = &pair_lanes[x * 16 + y];
            if (x < 2 && y < 2)
                l->v[L_T1] = rl_ht[1].hlen[x + x + y];
            if (x < 3 && y < 3) {
                l->v[L_T2] = (uint16_t) (rl_table23[x * 3 + y] >> 16);
                l->v[L_T2 + 1] = (uint16_t) (rl_table23[x * 3 + y] & 0xffffu);
            }
            if (x < 4 && y < 4) {
                l->v[L_T5] = (uint16_t) (rl_table56[x * 4 + y] >> 16);
                l->v[L_T5 + 1] = (uint16_t) (rl_table56[x * 4 + y] & 0xffffu);
            }
            lanes_group3(l, L_T7, 7, x, y);
            lanes_group3(l, L_T10, 10, x, y);
            lanes_group3(l, L_T13, 13, x, y);
            l->v[L_T16] = (uint16_t) (rl_largetbl[x * 16 + y] >> 16);
            l->v[L_T24] = (uint16_t) (rl_largetbl[x * 16 + y] & 0xffffu);
            l->v[L_N15] = (uint16_t) ((x == 15) + (y == 15));
        }
    }
}

/* adds the pairs of ix[from .. to) to *acc; returns their largest value
 * (0 for none), as pair_max would.  Three 8-lane locals, so that the
 * compiler keeps each in a vector register instead of storing per pair. */
static int add_pairs(Lanes *acc, const int *ix, int from, int to)
{
    uint16_t a0[8], a1[8], a2[8];
    int m = 0;
    memcpy(a0, &acc->v[0], sizeof(a0));
    memcpy(a1, &acc->v[8], sizeof(a1));
    memcpy(a2, &acc->v[16], sizeof(a2));
    for (int i = from; i < to; i += 2) {
        unsigned int const x = (unsigned int) ix[i], y = (unsigned int) ix[i + 1];
        unsigned int const cx = x < 15u ? x : 15u, cy = y < 15u ? y : 15u;
        const uint16_t *const p = pair_lanes[cx * 16u + cy].v;
        m = m < ix[i] ? ix[i] : m;
        m = m < ix[i + 1] ? ix[i + 1] : m;
        for (int k = 0; k < 8; k++)
            a0[k] = (uint16_t) (a0[k] + p[k]);
        for (int k = 0; k < 8; k++)
            a1[k] = (uint16_t) (a1[k] + p[8 + k]);
        for (int k = 0; k < 8; k++)
            a2[k] = (uint16_t) (a2[k] + p[16 + k]);
    }
    memcpy(&acc->v[0], a0, sizeof(a0));
    memcpy(&acc->v[8], a1, sizeof(a1));
    memcpy(&acc->v[16], a2, sizeof(a2));
    return m;
}

/* The bands below big_values: their largest values and the running sums at
 * each of their boundaries (pre[b]: the pairs below band b) */
typedef struct {
    const int *ix;
    const int *bound;           /* cfg->sfb.l */
    int nb;
    int max[RL_SBMAX_L];
    Lanes pre[RL_SBMAX_L + 1];
} BandLanes;

static void band_lanes_init(BandLanes *bl, const int *ix, const int *bound, int bigv)
{
    int nb = 0;
    Lanes acc;
    while (nb < RL_SBMAX_L && bound[nb + 1] < bigv)
        nb++;
    bl->ix = ix;
    bl->bound = bound;
    bl->nb = nb;
    memset(&acc, 0, sizeof(acc));
    bl->pre[0] = acc;
    for (int b = 0; b < nb; b++) {
        bl->max[b] = add_pairs(&acc, ix, bound[b], bound[b + 1]);
        bl->pre[b + 1] = acc;
    }
}

/* rl_choose_table's candidates for a largest value of 1 .. 15: the lanes
 * of the tables it weighs (the first that is not more bits wins) and their
 * numbers; a group of fewer than three tables repeats its last, which
 * never wins a "more bits" test against itself */
typedef struct {
    uint8_t lane[3];
    uint8_t table[3];
} Candidates;

#define C1  { { L_T1, L_T1, L_T1 }, { 1, 1, 1 } }
#define C2  { { L_T2, L_T2 + 1, L_T2 + 1 }, { 2, 3, 3 } }
#define C5  { { L_T5, L_T5 + 1, L_T5 + 1 }, { 5, 6, 6 } }
#define C7  { { L_T7, L_T7 + 1, L_T7 + 2 }, { 7, 8, 9 } }
#define C10 { { L_T10, L_T10 + 1, L_T10 + 2 }, { 10, 11, 12 } }
#define C13 { { L_T13, L_T13 + 1, L_T13 + 2 }, { 13, 14, 15 } }
static const Candidates candidates[16] = {
    C1, C1, C2, C5, C7, C7, C10, C10, C13, C13, C13, C13, C13, C13, C13, C13
};

/* rl_escape_tables' pair by the number of linbits a value needs (1 .. 13):
 * every escape table's linmax is 2^linbits - 1, so "linmax >= lin" holds
 * exactly when it holds for 2^bitlen(lin) - 1, and the pair depends on
 * bitlen(lin) only */
static uint8_t esc_table[14][2];

static void build_esc(void)
{
    for (int k = 1; k < 14; k++) {
        int t2;
        int const t = rl_escape_tables((1u << k) - 1u, &t2);
        esc_table[k][0] = (uint8_t) t;
        esc_table[k][1] = (uint8_t) t2;
    }
}

static void build_tables(void)
{
    build_lanes();
    build_esc();
}

/* rl_choose_table on the pairs between running sums lo and hi, whose
 * largest value is max */
static int lanes_table(const Lanes *hi, const Lanes *lo, int max, int *bits)
{
#define LANE(k) ((unsigned int) (uint16_t) (hi->v[k] - lo->v[k]))
    unsigned int s, b;
    int t;
    if (max == 0)
        return 0;
    if (max > RL_IXMAX_VAL) {
        *bits = RL_LARGE_BITS;
        return -1;
    }
    if (max <= 15) {
        const Candidates *const c = &candidates[max];
        unsigned int const s1 = LANE(c->lane[1]), s2 = LANE(c->lane[2]);
        s = LANE(c->lane[0]);
        t = c->table[0];
        t = s > s1 ? c->table[1] : t;
        s = s > s1 ? s1 : s;
        t = s > s2 ? c->table[2] : t;
        s = s > s2 ? s2 : s;
    } else {
        unsigned int const n15 = LANE(L_N15);
        unsigned int const lin = (unsigned int) max - 15u;
        int const k = 32 - __builtin_clz(lin);
        int const t1 = esc_table[k][0], t2 = esc_table[k][1];
        s = LANE(L_T16) + n15 * rl_ht[t1].xlen;
        b = LANE(L_T24) + n15 * rl_ht[t2].xlen;
        t = s > b ? t2 : t1;
        s = s > b ? b : s;
    }
    /* LAME sums through an unsigned alias of the int counter */
    *bits = (int) ((unsigned int) *bits + s);
    return t;
#undef LANE
}

#define R01_N (7 + 15 + 1)

/* Best region0+region1 tables for every (r0 + r1) band sum, long blocks. */
static void divide_init(const RlConfig *cfg, const RlGranule *gi, const BandLanes *bl,
                        int r01_bits[], int r01_div[], int r0_tbl[], int r1_tbl[])
{
    int const bigv = gi->big_values;

    /* LAME leaves div/tbl unset; they are read only after an overflow
     * (part2_3_length >= RL_LARGE_BITS), so zeroing them changes nothing else */
    for (int r0 = 0; r0 <= 7 + 15; r0++) {
        r01_bits[r0] = RL_LARGE_BITS;
        r01_div[r0] = r0_tbl[r0] = r1_tbl[r0] = 0;
    }
    int max0 = 0;
    for (int r0 = 0; r0 < 16; r0++) {
        if (cfg->sfb.l[r0 + 1] >= bigv)
            break;
        int r0bits = 0;
        max0 = max0 < bl->max[r0] ? bl->max[r0] : max0;      /* bands 0 .. r0 */
        int const r0t = lanes_table(&bl->pre[r0 + 1], &bl->pre[0], max0, &r0bits);
        int max1 = 0;
        for (int r1 = 0; r1 < 8; r1++) {
            if (cfg->sfb.l[r0 + r1 + 2] >= bigv)
                break;
            int bits = r0bits;
            int const b = r0 + r1 + 1;                      /* bands r0 + 1 .. b */
            max1 = max1 < bl->max[b] ? bl->max[b] : max1;
            int const r1t = lanes_table(&bl->pre[b + 1], &bl->pre[r0 + 1], max1, &bits);
            if (r01_bits[r0 + r1] > bits) {
                r01_bits[r0 + r1] = bits;
                r01_div[r0 + r1] = r0;
                r0_tbl[r0 + r1] = r0t;
                r1_tbl[r0 + r1] = r1t;
            }
        }
    }
}

/* The fields of a granule that a division sets.  The candidates of
 * best_huffman_divide are copies of the granule that differ from it in
 * these fields only (LAME copies the whole granule, about 5 KB, each time;
 * its other fields and arrays are the same values, so copying these gives
 * the same granule). */
typedef struct {
    int part2_3_length, big_values, count1, count1bits, count1table_select;
    int region0_count, region1_count, table_select[3];
} Division;

static void division_get(Division *d, const RlGranule *gi)
{
    d->part2_3_length = gi->part2_3_length;
    d->big_values = gi->big_values;
    d->count1 = gi->count1;
    d->count1bits = gi->count1bits;
    d->count1table_select = gi->count1table_select;
    d->region0_count = gi->region0_count;
    d->region1_count = gi->region1_count;
    memcpy(d->table_select, gi->table_select, sizeof(d->table_select));
}

static void division_put(RlGranule *gi, const Division *d)
{
    gi->part2_3_length = d->part2_3_length;
    gi->big_values = d->big_values;
    gi->count1 = d->count1;
    gi->count1bits = d->count1bits;
    gi->count1table_select = d->count1table_select;
    gi->region0_count = d->region0_count;
    gi->region1_count = d->region1_count;
    memcpy(gi->table_select, d->table_select, sizeof(d->table_select));
}

/* Try each region2 start with the best region0/1 split; copy cand into gi
 * when cheaper.  Region 2 runs from band r2 to cand's big_values (at most
 * the big_values of bl, so its bands below the one holding it are bl's). */
static void divide_sub(const RlConfig *cfg, const Division *cand, RlGranule *gi,
                       const BandLanes *bl, const int r01_bits[], const int r01_div[],
                       const int r0_tbl[], const int r1_tbl[])
{
    int const bigv = cand->big_values;
    int nt = -1;                /* the band holding bigv; its running sum at bigv: */
    Lanes top;
    int smax[RL_SBMAX_L + 1];   /* the largest value from band b to bigv */

    for (int r2 = 2; r2 < RL_SBMAX_L + 1; r2++) {
        if (cfg->sfb.l[r2] >= bigv)
            break;

        int bits = r01_bits[r2 - 2] + cand->count1bits;
        if (gi->part2_3_length <= bits)
            break;

        if (nt < 0) {
            nt = 0;
            while (bl->bound[nt + 1] < bigv)
                nt++;
            top = bl->pre[nt];
            smax[nt] = add_pairs(&top, bl->ix, bl->bound[nt], bigv);
            for (int b = nt - 1; b >= 2; b--)
                smax[b] = smax[b + 1] < bl->max[b] ? bl->max[b] : smax[b + 1];
        }
        int const r2t = lanes_table(&top, &bl->pre[r2], smax[r2], &bits);
        if (gi->part2_3_length <= bits)
            continue;

        division_put(gi, cand);
        gi->part2_3_length = bits;
        gi->region0_count = r01_div[r2 - 2];
        gi->region1_count = r2 - 2 - r01_div[r2 - 2];
        gi->table_select[0] = r0_tbl[r2 - 2];
        gi->table_select[1] = r1_tbl[r2 - 2];
        gi->table_select[2] = r2t;
    }
}

void rl_best_huffman_divide(const RlConfig *cfg, RlGranule *gi)
{
    Division cand;
    const int *ix = gi->l3_enc;
    int r01_bits[R01_N];
    int r01_div[R01_N];
    int r0_tbl[R01_N];
    int r1_tbl[R01_N];
    BandLanes bl;
    int i, a1, a2;

    /* LAME: short-block division fails for MPEG-2, skipped */
    if (gi->block_type == RL_SHORT_TYPE && cfg->mode_gr == 1)
        return;

    (void) pthread_once(&lanes_once, build_tables);
    division_get(&cand, gi);
    if (gi->block_type == RL_NORM_TYPE) {
        band_lanes_init(&bl, ix, cfg->sfb.l, gi->big_values);
        divide_init(cfg, gi, &bl, r01_bits, r01_div, r0_tbl, r1_tbl);
        divide_sub(cfg, &cand, gi, &bl, r01_bits, r01_div, r0_tbl, r1_tbl);
    }

    /* try moving the last big_values pair into count1 */
    i = cand.big_values;
    if (i == 0 || (unsigned int) (ix[i - 2] | ix[i - 1]) > 1)
        return;

    i = gi->count1 + 2;
    if (i > 576)
        return;

    division_get(&cand, gi);
    cand.count1 = i;
    a1 = a2 = 0;
    for (; i > cand.big_values; i -= 4) {
        int p = ((ix[i - 4] * 2 + ix[i - 3]) * 2 + ix[i - 2]) * 2 + ix[i - 1];
        a1 += rl_t32l[p];
        a2 += rl_t33l[p];
    }
    cand.big_values = i;

    cand.count1table_select = 0;
    if (a1 > a2) {
        a1 = a2;
        cand.count1table_select = 1;
    }
    cand.count1bits = a1;

    if (gi->block_type == RL_NORM_TYPE) {
        divide_sub(cfg, &cand, gi, &bl, r01_bits, r01_div, r0_tbl, r1_tbl);
    } else {
        cand.part2_3_length = a1;
        a1 = cfg->sfb.l[7 + 1];
        if (a1 > i)
            a1 = i;
        if (a1 > 0)
            cand.table_select[0] = cfg->dsp->choose_table(ix, ix + a1, &cand.part2_3_length);
        if (i > a1)
            cand.table_select[1] = cfg->dsp->choose_table(ix + a1, ix + i, &cand.part2_3_length);
        if (gi->part2_3_length > cand.part2_3_length)
            division_put(gi, &cand);
    }
}
