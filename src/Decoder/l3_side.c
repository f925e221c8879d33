/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Layer III side information and scale factors.
 * Algorithm derived from LAME 3.100's mpglib/layer3.c (LGPL-2.0-or-later). */
#include "mpa_internal.h"

/* the window-switching part of a granule's side info (both versions) */
static void read_switched(RlMpaDecoder *d, L3Granule *g)
{
    g->block_type = mpa_getbits_fast(d, 2);
    g->mixed_block_flag = mpa_get1bit(d);
    g->table_select[0] = mpa_getbits_fast(d, 5);
    g->table_select[1] = mpa_getbits_fast(d, 5);
    g->table_select[2] = 0;
    for (int i = 0; i < 3; i++)
        g->full_gain[i] = g->pow2gain + (int) (mpa_getbits_fast(d, 3) << 3);
    if (g->block_type == 0)     /* mpglib says so and decodes on */
        rl_mpa_report(d, "Blocktype == 0 and window-switching == 1 not allowed.\n", 0);
}

static void read_regions(RlMpaDecoder *d, L3Granule *g, int sfreq)
{
    unsigned r0c, r1c, region0, region1;
    for (int i = 0; i < 3; i++)
        g->table_select[i] = mpa_getbits_fast(d, 5);
    r0c = mpa_getbits_fast(d, 4);
    r1c = mpa_getbits_fast(d, 3);
    region0 = r0c + 1;
    if (region0 > 22) {
        rl_mpa_report(d, "region0index=%ld > 22\n", (long) region0);
        region0 = 22;
    }
    region1 = r0c + 1 + r1c + 1;
    if (region1 > 22) {
        rl_mpa_report(d, "region1index=%ld > 22\n", (long) region1);
        region1 = 22;
    }
    g->region1start = (unsigned) rl_l3_bands[sfreq].long_idx[region0] >> 1;
    g->region2start = (unsigned) rl_l3_bands[sfreq].long_idx[region1] >> 1;
    g->block_type = 0;
    g->mixed_block_flag = 0;
}

/* the start of a granule: lengths and the global gain */
static void read_granule_head(RlMpaDecoder *d, L3Granule *g, int ms_stereo, int powdiff)
{
    g->part2_3_length = mpa_getbits(d, 12);
    g->big_values = mpa_getbits_fast(d, 9);
    if (g->big_values > 288) {
        rl_mpa_report(d, "big_values too large! %ld\n", (long) g->big_values);
        g->big_values = 288;
    }
    g->pow2gain = 256 - (int) mpa_getbits_fast(d, 8) + powdiff;
    if (ms_stereo)
        g->pow2gain += 2;
}

static void side_info_1(RlMpaDecoder *d, int stereo, int ms_stereo, int sfreq, int single)
{
    int const powdiff = single == 3 ? 4 : 0;

    d->side.main_data_begin = mpa_getbits(d, 9);
    d->side.private_bits = mpa_getbits_fast(d, stereo == 1 ? 5 : 3);
    for (int ch = 0; ch < stereo; ch++) {
        d->side.gr[ch][0].scfsi = -1;
        d->side.gr[ch][1].scfsi = (int) mpa_getbits_fast(d, 4);
    }
    for (int gr = 0; gr < 2; gr++)
        for (int ch = 0; ch < stereo; ch++) {
            L3Granule *g = &d->side.gr[ch][gr];
            read_granule_head(d, g, ms_stereo, powdiff);
            g->scalefac_compress = mpa_getbits_fast(d, 4);
            if (mpa_get1bit(d)) {
                read_switched(d, g);
                g->region1start = 36 >> 1;
                g->region2start = 576 >> 1;
            }
            else
                read_regions(d, g, sfreq);
            g->preflag = mpa_get1bit(d);
            g->scalefac_scale = mpa_get1bit(d);
            g->count1table_select = mpa_get1bit(d);
        }
}

static void side_info_2(RlMpaDecoder *d, int stereo, int ms_stereo, int sfreq, int single)
{
    int const powdiff = single == 3 ? 4 : 0;

    d->side.main_data_begin = mpa_getbits(d, 8);
    d->side.private_bits = stereo == 1 ? mpa_get1bit(d) : mpa_getbits_fast(d, 2);
    for (int ch = 0; ch < stereo; ch++) {
        L3Granule *g = &d->side.gr[ch][0];
        read_granule_head(d, g, ms_stereo, powdiff);
        g->scalefac_compress = mpa_getbits(d, 9);
        if (mpa_get1bit(d)) {
            read_switched(d, g);
            if (g->block_type == 2)
                g->region1start = g->mixed_block_flag ? 48 >> 1 : 36 >> 1;
            else
                g->region1start = 54 >> 1;
            if (sfreq == 8)
                g->region1start *= 2;
            g->region2start = 576 >> 1;
        }
        else
            read_regions(d, g, sfreq);
        g->scalefac_scale = mpa_get1bit(d);
        g->count1table_select = mpa_get1bit(d);
    }
}

int rl_l3_read_side(RlMpaDecoder *d)
{
    MpaFrame const *fr = &d->fr;
    int const stereo = fr->stereo;
    int const single = stereo == 1 ? 0 : fr->single;
    int const ms_stereo = fr->mode == MPA_MD_JOINT_STEREO ? (fr->mode_ext & 0x2) : 0;
    int const granules = fr->lsf ? 1 : 2;
    int databits = 0;

    if (fr->lsf)
        side_info_2(d, stereo, ms_stereo, fr->sampling_frequency, single);
    else
        side_info_1(d, stereo, ms_stereo, fr->sampling_frequency, single);
    for (int gr = 0; gr < granules; ++gr)
        for (int ch = 0; ch < stereo; ++ch)
            databits += (int) d->side.gr[ch][gr].part2_3_length;
    return databits - 8 * (int) d->side.main_data_begin;
}

int rl_l3_scalefactors_1(RlMpaDecoder *d, int *scf, L3Granule *g)
{
    static const unsigned char slen[2][16] = {
        { 0, 0, 0, 0, 3, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4 },
        { 0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 2, 3 } };
    int const num0 = slen[0][g->scalefac_compress];
    int const num1 = slen[1][g->scalefac_compress];
    int numbits;

    if (g->block_type == 2) {
        int i = 18;
        numbits = (num0 + num1) * 18;
        if (g->mixed_block_flag) {
            for (i = 8; i; i--)
                *scf++ = (int) mpa_getbits_fast(d, num0);
            i = 9;
            numbits -= num0;
        }
        for (; i; i--)
            *scf++ = (int) mpa_getbits_fast(d, num0);
        for (i = 18; i; i--)
            *scf++ = (int) mpa_getbits_fast(d, num1);
        *scf++ = 0;
        *scf++ = 0;
        *scf++ = 0;
        return numbits;
    }
    if (g->scfsi < 0) {     /* granule 0 */
        for (int i = 11; i; i--)
            *scf++ = (int) mpa_getbits_fast(d, num0);
        for (int i = 10; i; i--)
            *scf++ = (int) mpa_getbits_fast(d, num1);
        numbits = (num0 + num1) * 10 + num0;
    }
    else {
        /* four groups of bands (6, 5, 5, 5), each read or kept from granule 0 */
        static const int count[4] = { 6, 5, 5, 5 };
        numbits = 0;
        for (int k = 0; k < 4; k++) {
            int const num = k < 2 ? num0 : num1;
            if (!(g->scfsi & (0x8 >> k))) {
                for (int i = count[k]; i; i--)
                    *scf++ = (int) mpa_getbits_fast(d, num);
                numbits += num * count[k];
            }
            else
                scf += count[k];
        }
    }
    *scf++ = 0;
    return numbits;
}

int rl_l3_scalefactors_2(RlMpaDecoder *d, int *scf, L3Granule *g, int i_stereo)
{
    static const unsigned char stab[3][6][4] = {
        { { 6, 5, 5, 5 }, { 6, 5, 7, 3 }, { 11, 10, 0, 0 },
          { 7, 7, 7, 0 }, { 6, 6, 6, 3 }, { 8, 8, 5, 0 } },
        { { 9, 9, 9, 9 }, { 9, 9, 12, 6 }, { 18, 18, 0, 0 },
          { 12, 12, 12, 0 }, { 12, 9, 9, 6 }, { 15, 12, 9, 0 } },
        { { 6, 9, 9, 9 }, { 6, 9, 12, 6 }, { 15, 18, 0, 0 },
          { 6, 15, 12, 0 }, { 6, 12, 9, 6 }, { 6, 18, 9, 0 } } };
    unsigned slen = i_stereo ? d->t.i_slen2[g->scalefac_compress >> 1]
                             : d->t.n_slen2[g->scalefac_compress];
    const unsigned char *pnt;
    int n = 0, numbits = 0;

    g->preflag = (slen >> 15) & 0x1;
    if (g->block_type == 2) {
        n++;
        if (g->mixed_block_flag)
            n++;
    }
    pnt = stab[n][(slen >> 12) & 0x7];
    for (int i = 0; i < 4; i++) {
        int const num = (int) (slen & 0x7);
        slen >>= 3;
        if (num) {
            for (int j = 0; j < (int) pnt[i]; j++)
                *scf++ = (int) mpa_getbits_fast(d, num);
            numbits += pnt[i] * num;
        }
        else
            for (int j = 0; j < (int) pnt[i]; j++)
                *scf++ = 0;
    }
    n = (n << 1) + 1;
    for (int i = 0; i < n; i++)
        *scf++ = 0;
    return numbits;
}
