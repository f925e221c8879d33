/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: main-data packing (LAME writeMainData's Huffman part) into the
 * frame record: Search packs its result, Encode repacks after the CBR and
 * vbr_rh loops.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <string.h>

#include "bitstream.h"
#include "rl_config.h"
#include "rl_frame.h"
#include "huffman_tables.h"

/* An MSB-first bit writer: bits gather in a 64-bit word and leave it as
 * whole bytes (fewer than 8 bits stay pending) in one 8-byte store; the
 * bytes are those of writing bit by bit. */
typedef struct BitWriter {
    uint8_t *buf;
    int      cap_bits;
    int      pos;        /* bits written, the pending ones included */
    int      overflow;
    int      npend;      /* pending bits (< 8), the low bits of pend */
    uint64_t pend;
} BitWriter;

/* n <= 56 bits of val (expected to fit them, as for LAME's putbits2) */
static inline void bw_put(BitWriter *w, uint64_t val, int n)
{
    if (w->pos + n > w->cap_bits) {
        w->overflow = 1;
        return;
    }
    w->pend = (w->pend << n) | val;
    w->npend += n;
    w->pos += n;
    int const nbytes = w->npend >> 3;
    if (nbytes == 0)
        return;
    int const rest = w->npend & 7;
    int const at = (w->pos - w->npend) >> 3;        /* first byte to write */
    /* nbytes * 8 bits, in one 8-byte store: at < cap_bits / 8, and the
     * buffer has 8 bytes past cap_bits (rl_main_data_pack); the bytes past
     * the nbytes are rewritten by later bits */
    uint64_t const be = __builtin_bswap64((w->pend >> rest) << (64 - 8 * nbytes));
    memcpy(w->buf + at, &be, sizeof(be));
    w->npend = rest;
    w->pend &= (1u << rest) - 1u;
}

/* the last partial byte, zero-padded */
static void bw_flush(BitWriter *w)
{
    if (w->npend > 0)
        w->buf[(w->pos - w->npend) >> 3] = (uint8_t) (w->pend << (8 - w->npend));
    w->npend = 0;
    w->pend = 0;
}

_Static_assert((RL_MAIN_DATA_BYTES - 8) * 8 >= 4 * 4095, "a frame's main data below the store slack");

/* count1 region: quadruples of 0/1 values (LAME huffman_coder_count1) */
static int pack_count1(BitWriter *w, const RlGranule *gi)
{
    const RlHuffTab *const h = &rl_ht[gi->count1table_select + 32];
    const int *ix = &gi->l3_enc[gi->big_values];
    const float *xr = &gi->xr[gi->big_values];
    int bits = 0;

    /* without branches (the values and signs are the signal's): each
     * nonzero value adds its bit to the index and its sign bit after the
     * earlier ones, as the value-by-value tests do */
    for (int i = (gi->count1 - gi->big_values) / 4; i > 0; --i) {
        unsigned int const n0 = ix[0] != 0, n1 = ix[1] != 0, n2 = ix[2] != 0, n3 = ix[3] != 0;
        unsigned int huffbits = n0 & (xr[0] < 0.0f);
        huffbits = (huffbits << n1) | (n1 & (xr[1] < 0.0f));
        huffbits = (huffbits << n2) | (n2 & (xr[2] < 0.0f));
        huffbits = (huffbits << n3) | (n3 & (xr[3] < 0.0f));
        unsigned int const p = n0 * 8u + n1 * 4u + n2 * 2u + n3;
        ix += 4;
        xr += 4;
        bw_put(w, huffbits + h->table[p], h->hlen[p]);
        bits += h->hlen[p];
    }
    return bits;
}

/* big_values pairs [start,end) with one table (LAME Huffmancode, ISO p.98) */
static int pack_pairs(BitWriter *w, unsigned int tableindex, int start, int end,
                      const RlGranule *gi)
{
    const RlHuffTab *const h = &rl_ht[tableindex];
    unsigned int const linbits = h->xlen;
    int bits = 0;

    if (!tableindex)
        return 0;
    if (tableindex <= 15u) {
        /* no escapes: hlen counts the sign bits, which follow the code;
         * the signs of zero values are left out */
        unsigned int const xlen = h->xlen;
        for (int i = start; i < end; i += 2) {
            unsigned int const x1 = (unsigned)gi->l3_enc[i];
            unsigned int const x2 = (unsigned)gi->l3_enc[i + 1];
            unsigned int const nz1 = x1 != 0u, nz2 = x2 != 0u;
            unsigned int const s1 = nz1 & (gi->xr[i] < 0.0f);
            unsigned int const s2 = nz2 & (gi->xr[i + 1] < 0.0f);
            unsigned int const x = x1 * xlen + x2;
            int const n = h->hlen[x];
            bw_put(w, ((uint64_t) h->table[x] << (nz1 + nz2)) | (s1 << nz2) | s2, n);
            bits += n;
        }
        return bits;
    }
    for (int i = start; i < end; i += 2) {
        int16_t  cbits = 0;
        uint16_t xbits = 0;
        unsigned int xlen = h->xlen;
        unsigned int ext = 0;
        unsigned int x1 = (unsigned)gi->l3_enc[i];
        unsigned int x2 = (unsigned)gi->l3_enc[i + 1];

        if (x1 != 0u) {
            if (gi->xr[i] < 0.0f)
                ext++;
            cbits--;
        }
        if (tableindex > 15u) {
            /* escape: values >= 15 send 15 plus linbits */
            if (x1 >= 15u) {
                uint16_t const lx1 = (uint16_t)(x1 - 15u);
                ext |= (unsigned)lx1 << 1u;
                xbits = (uint16_t)linbits;
                x1 = 15u;
            }
            if (x2 >= 15u) {
                uint16_t const lx2 = (uint16_t)(x2 - 15u);
                ext <<= linbits;
                ext |= lx2;
                xbits = (uint16_t)(xbits + linbits);
                x2 = 15u;
            }
            xlen = 16;
        }
        if (x2 != 0u) {
            ext <<= 1;
            if (gi->xr[i + 1] < 0.0f)
                ext++;
            cbits--;
        }
        x1 = x1 * xlen + x2;
        xbits = (uint16_t)(xbits - cbits);
        cbits = (int16_t)(cbits + h->hlen[x1]);

        /* the code and its sign and escape bits (at most 19 + 28) in one */
        bw_put(w, ((uint64_t) h->table[x1] << xbits) | ext, cbits + xbits);
        bits += cbits + xbits;
    }
    return bits;
}

/* LAME encodeSideInfo2 replaces table 14 (no codes) by 16 before the main
 * data is written; the packer sees the same substitution. */
static unsigned int effective_table(int t)
{
    return t == 14 ? 16u : (unsigned)t;
}

static int pack_short(BitWriter *w, const RlConfig *cfg, const RlGranule *gi)
{
    int region1 = 3 * cfg->sfb.s[3];
    int bits;
    if (region1 > gi->big_values)
        region1 = gi->big_values;
    bits = pack_pairs(w, effective_table(gi->table_select[0]), 0, region1, gi);
    bits += pack_pairs(w, effective_table(gi->table_select[1]), region1, gi->big_values, gi);
    return bits;
}

static int pack_long(BitWriter *w, const RlConfig *cfg, const RlGranule *gi)
{
    int const bigvalues = gi->big_values;
    int i = gi->region0_count + 1;
    int region1, region2, bits;

    if (i < 0 || i > RL_SBMAX_L)
        return -1;
    region1 = cfg->sfb.l[i];
    i += gi->region1_count + 1;
    if (i < 0 || i > RL_SBMAX_L)
        return -1;
    region2 = cfg->sfb.l[i];
    if (region1 > bigvalues)
        region1 = bigvalues;
    if (region2 > bigvalues)
        region2 = bigvalues;
    bits = pack_pairs(w, effective_table(gi->table_select[0]), 0, region1, gi);
    bits += pack_pairs(w, effective_table(gi->table_select[1]), region1, region2, gi);
    bits += pack_pairs(w, effective_table(gi->table_select[2]), region2, bigvalues, gi);
    return bits;
}

static int pack_huffman(BitWriter *w, const RlConfig *cfg, const RlGranule *gi)
{
    int bits = gi->block_type == RL_SHORT_TYPE ? pack_short(w, cfg, gi) : pack_long(w, cfg, gi);
    if (bits < 0)
        return -1;
    return bits + pack_count1(w, gi);
}

int rl_main_data_pack(const RlConfig *cfg, RlFrame *f)
{
    RlMainData *const m = &f->main;
    /* 4 x 4095 bits at most fit in RL_MAIN_DATA_BYTES - 8 bytes; the last 8
     * take bw_put's whole-word stores */
    BitWriter w = { m->buf, (RL_MAIN_DATA_BYTES - 8) * 8, 0, 0, 0, 0 };
    int ret = 0;

    memset(m->bits, 0, sizeof(m->bits));
    m->total_bits = 0;

    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            const RlGranule *const gi = &f->side.tt[gr][ch];
            int const start = w.pos;
            int scale_bits = 0, data_bits;

            if (cfg->version == 1) {
                int const slen1 = rl_slen1_tab[gi->scalefac_compress];
                int const slen2 = rl_slen2_tab[gi->scalefac_compress];
                int sfb;
                for (sfb = 0; sfb < gi->sfbdivide; sfb++) {
                    if (gi->scalefac[sfb] == -1)
                        continue;   /* transmitted via scfsi */
                    bw_put(&w, (unsigned)gi->scalefac[sfb], slen1);
                    scale_bits += slen1;
                }
                for (; sfb < gi->sfbmax; sfb++) {
                    if (gi->scalefac[sfb] == -1)
                        continue;
                    bw_put(&w, (unsigned)gi->scalefac[sfb], slen2);
                    scale_bits += slen2;
                }
            }
            else {
                int sfb = 0;
                if (!gi->sfb_partition_table)
                    return -EINVAL;
                for (int part = 0; part < 4; part++) {
                    int const slen = gi->slen[part];
                    if (gi->block_type == RL_SHORT_TYPE) {
                        int const sfbs = gi->sfb_partition_table[part] / 3;
                        for (int i = 0; i < sfbs; i++, sfb++) {
                            for (int win = 0; win < 3; win++) {
                                int const v = gi->scalefac[sfb * 3 + win];
                                bw_put(&w, (unsigned)(v > 0 ? v : 0), slen);
                            }
                            scale_bits += 3 * slen;
                        }
                    }
                    else {
                        int const sfbs = gi->sfb_partition_table[part];
                        for (int i = 0; i < sfbs; i++, sfb++) {
                            int const v = gi->scalefac[sfb];
                            bw_put(&w, (unsigned)(v > 0 ? v : 0), slen);
                            scale_bits += slen;
                        }
                    }
                }
            }
            data_bits = pack_huffman(&w, cfg, gi);
            if (data_bits < 0 || w.overflow)
                return -EINVAL;
            /* LAME asserts: the counts of the quantizer equal the bits written */
            if (scale_bits != gi->part2_length || data_bits != gi->part2_3_length)
                ret = -EINVAL;
            m->bits[gr][ch] = w.pos - start;
        }
    }
    bw_flush(&w);
    m->total_bits = w.pos;
    return ret;
}
