/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Huffman table selection, bit counting and scalefactor storage for Layer III granules.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_HUFFMAN_COUNT_H
#define RL_HUFFMAN_COUNT_H

#include "huffman_tables.h"
#include "rl_config.h"
#include "rl_types.h"
#include "quantize_noise.h"   /* RlNoiseCache */
#include "dsp.h"              /* RL_DECL_* */

/* One-time init of process-wide tables (none needed at present: all tables are
 * compile-time constants); safe to call any number of times from any thread.
 * Stage: init. */
void rl_huffman_init(void);

/* LAME huffman_init: fills cfg->bv_scf (region0/region1 split per even
 * big_values count) from cfg->sfb.l.  Call after cfg->sfb is set.
 * Stage: init. */
void rl_huffman_config(RlConfig *cfg);

/* LAME choose_table_nonMMX: best table for the pairs ix[0..end) (even count),
 * adds its bits to *bits and returns the table number (0 for all-zero);
 * a value > RL_IXMAX_VAL sets *bits = RL_LARGE_BITS and returns -1.
 * Stage: Search; Encode (CBR, vbr_rh, ABR check). */
RL_DECL_CHOOSE_TABLE(rl_choose_table);

/* ix[i] = the quantization of istep * xp[i] (LAME's IEEE-754 rounding with
 * adj43) for the lines i < 2 * (n / 2) (an odd last line is left, as LAME
 * does); xp[i] >= 0.  The scalar kernel of RlDsp.quantize_lines. */
RL_DECL_QUANTIZE_LINES(rl_quantize_lines);

/* The substep truncation of count_bits (-q 0..2): the lines i < n whose
 * xrpow[i] is below roundfac quantize to 0, the others keep ix[i].  The
 * scalar kernel of RlDsp.substep (one comparison per line: any order). */
RL_DECL_SUBSTEP(rl_substep_lines);

/* The count1 region of noquant_count_bits: returns count1, the end of the
 * values ix[0..n) (n even) that are not trailing zero pairs; below it, the
 * quadruples ix[i-4..i-1] of values <= 1, from count1 down by four while
 * i > 3, end at *big_values; bits[0] and bits[1] are their lengths in
 * count1 tables A (rl_t32l) and B (rl_t33l).  The scalar kernel of
 * RlDsp.count1 (integer sums: any order gives the same). */
RL_DECL_COUNT1(rl_count1_region);

/* The two escape tables rl_choose_table weighs for values up to 15 + lin
 * (lin <= 8191): the first of 16..23 and of 24..31 whose linmax holds lin;
 * returns the first, *t2 the second. */
static inline int rl_escape_tables(unsigned int lin, int *t2)
{
    int t, u;
    for (u = 24; u < 32; u++)
        if (rl_ht[u].linmax >= lin)
            break;
    for (t = u - 8; t < 24; t++)
        if (rl_ht[t].linmax >= lin)
            break;
    *t2 = u;
    return t;
}

/* LAME noquant_count_bits(gfc, gi, NULL): from gi->l3_enc and
 * gi->max_nonzero_coeff sets count1, count1table_select, count1bits,
 * big_values, table_select[], region0/1_count (long and start/stop blocks)
 * and returns the Huffman bits (part2_3_length when use_best_huffman == 2, which
 * also runs rl_best_huffman_divide). Does not write gi->part2_3_length otherwise.
 * Stage: Search; Encode (CBR, vbr_rh, ABR check). */
int rl_noquant_count_bits(const RlConfig *cfg, RlGranule *gi);

/* LAME count_bits(gfc, xrpow, gi, prev): quantizes xrpow with
 * gi->global_gain (IEEE-754 rounding trick, rl_ipow20/rl_adj43 of
 * quant_tables.h) into gi->l3_enc, then rl_noquant_count_bits.  Returns
 * RL_LARGE_BITS when xrpow_max does not fit.  pseudohalf (LAME
 * sv_qnt.pseudohalf, per sfb) is read only when cfg->substep_shaping & 2.
 * prev (may be NULL) is the outer loop's noise cache: LAME reuses bands
 * quantized at the same step and takes a 0/1 shortcut above the cached
 * count1 start, and its bytes depend on that (see quantize_granule).
 * CBR/ABR/vbr_rh only (the VBR-new quantizer quantizes itself).
 * Stage: Search; Encode (CBR and vbr_rh loops, the ABR check). */
int rl_count_bits(const RlConfig *cfg, const float *xrpow, RlGranule *gi, const int *pseudohalf,
                  RlNoiseCache *prev);

/* LAME best_huffman_divide: re-chooses region boundaries / count1 start
 * for fewer bits; updates gi in place (part2_3_length must hold the current bits).
 * Stage: Search; Encode (CBR, vbr_rh, ABR check). */
void rl_best_huffman_divide(const RlConfig *cfg, RlGranule *gi);

/* LAME best_scalefac_store: zero scalefactors of silent bands, try
 * scalefac_scale and preflag, scfsi (MPEG-1 granule 1), recount part2_length.
 * Stage: Search; Encode (CBR, vbr_rh, ABR check). */
void rl_best_scalefac_store(const RlConfig *cfg, int gr, int ch, RlSideInfo *side);

/* LAME scale_bitcount: MPEG-1 or (mode_gr == 1) MPEG-2 LSF scalefactor bits;
 * sets part2_length, scalefac_compress (and slen[], sfb_partition_table for LSF;
 * may set preflag for MPEG-1).  Returns nonzero if the scalefactors do not fit.
 * Stage: Search; Encode (CBR, vbr_rh, ABR check). */
int rl_scale_bitcount(const RlConfig *cfg, RlGranule *gi);

#endif
