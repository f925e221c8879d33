/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: one Layer II frame: the allocation table for the rate and
 * bitrate, allocations, scale-factor selection and scale factors, then
 * twelve granules of three samples per subband into the synthesis.
 * Algorithm derived from LAME 3.100's mpglib/layer2.c (LGPL-2.0-or-later). */
#include <string.h>
#include "mpa_internal.h"

typedef struct L2Side {
    const L2Alloc *alloc;
    int     sblimit, jsbound;
    uint8_t allocation[SBLIMIT][2];
    uint8_t scalefactor[SBLIMIT][2][3];
} L2Side;

/* the allocation table (and its subband count) of the frame */
static void select_table(const MpaFrame *fr, L2Side *si)
{
    static const int translate[3][2][16] = {
        { { 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1, 1, 1, 1, 0 },
          { 0, 2, 2, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 } },
        { { 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
          { 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
        { { 0, 3, 3, 3, 3, 3, 3, 0, 0, 0, 1, 1, 1, 1, 1, 0 },
          { 0, 3, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 } } };
    static const int sblims[5] = { 27, 30, 8, 12, 30 };
    int const table = fr->lsf ? 4 : translate[fr->sampling_frequency][2 - fr->stereo][fr->bitrate_index];

    si->alloc = rl_l2_alloc[table];
    si->sblimit = sblims[table];
    si->jsbound = fr->mode == MPA_MD_JOINT_STEREO ? (fr->mode_ext << 2) + 4 : si->sblimit;
    if (si->jsbound > si->sblimit)
        si->jsbound = si->sblimit;
}

static void read_side(RlMpaDecoder *d, L2Side *si)
{
    int const nch = d->fr.stereo;
    const L2Alloc *alloc = si->alloc;
    uint8_t scfsi[SBLIMIT][2];

    memset(si->allocation, 0, sizeof si->allocation);
    memset(si->scalefactor, 0, sizeof si->scalefactor);
    for (int i = 0; i < si->sblimit; i++) {
        int const step = alloc->bits;
        si->allocation[i][0] = (uint8_t) mpa_getbits_fast(d, step);
        si->allocation[i][1] = nch == 2 && i < si->jsbound ? (uint8_t) mpa_getbits_fast(d, step)
                                                           : si->allocation[i][0];
        alloc += (size_t) 1 << step;
    }
    for (int i = 0; i < si->sblimit; i++)
        for (int ch = 0; ch < nch; ch++)
            scfsi[i][ch] = si->allocation[i][ch] ? (uint8_t) mpa_getbits_fast(d, 2) : 0;
    for (int i = 0; i < si->sblimit; i++)
        for (int ch = 0; ch < nch; ch++) {
            uint8_t s0 = 0, s1 = 0, s2 = 0;
            if (si->allocation[i][ch]) {
                /* which of the three parts carry their own scale factor */
                switch (scfsi[i][ch]) {
                case 0:
                    s0 = (uint8_t) mpa_getbits_fast(d, 6);
                    s1 = (uint8_t) mpa_getbits_fast(d, 6);
                    s2 = (uint8_t) mpa_getbits_fast(d, 6);
                    break;
                case 1:
                    s0 = s1 = (uint8_t) mpa_getbits_fast(d, 6);
                    s2 = (uint8_t) mpa_getbits_fast(d, 6);
                    break;
                case 2:
                    s0 = s1 = s2 = (uint8_t) mpa_getbits_fast(d, 6);
                    break;
                default:
                    s0 = (uint8_t) mpa_getbits_fast(d, 6);
                    s1 = s2 = (uint8_t) mpa_getbits_fast(d, 6);
                    break;
                }
            }
            si->scalefactor[i][ch][0] = s0;
            si->scalefactor[i][ch][1] = s1;
            si->scalefactor[i][ch][2] = s2;
        }
}

/* the three codes of one subband: ungrouped (d < 0: three values of k bits)
 * or one grouped value; kind[3] gets muls classes, v[3] the offsets */
typedef struct L2Triple {
    int grouped;
    int k;              /* ungrouped: the muls class (= bits) */
    int v[3];           /* ungrouped: value + d */
    int cls[3];         /* grouped: the muls class of each sample */
} L2Triple;

static void read_triple(RlMpaDecoder *d, const L2Alloc *entry, L2Triple *tr)
{
    int k = entry->bits;
    int const d1 = entry->d;
    k = k <= 16 ? k : 16;
    if (d1 < 0) {
        tr->grouped = 0;
        tr->k = k;
        for (int j = 0; j < 3; j++)
            tr->v[j] = (int) mpa_getbits(d, k) + d1;
    }
    else {
        /* a code past the table's end reads the entry after its last one */
        unsigned idx = mpa_getbits(d, k);
        const uint8_t *tab;
        unsigned const n = (unsigned) (d1 * d1 * d1);
        idx = idx < n ? idx : n;
        tab = d1 == 3 ? d->t.grp3 : d1 == 5 ? d->t.grp5 : d->t.grp9;
        tr->grouped = 1;
        for (int j = 0; j < 3; j++)
            tr->cls[j] = tab[3 * idx + (unsigned) j];
    }
}

static void dequant_triple(const MpaTables *t, const L2Triple *tr, int scf, real_t *f0, real_t *f1,
                           real_t *f2)
{
    real_t *const f[3] = { f0, f1, f2 };
    int const x1 = scf < 64 ? scf : 63;
    if (!tr->grouped) {
        double const cm = t->muls[tr->k][x1];
        for (int j = 0; j < 3; j++)
            *f[j] = (real_t) (tr->v[j] * cm);
    }
    else
        for (int j = 0; j < 3; j++)
            *f[j] = t->muls[tr->cls[j]][x1];
}

/* one granule (three samples of each subband) of part gr of the frame */
static void read_granule(RlMpaDecoder *d, const L2Side *si, int gr, real_t fraction[2][4][SBLIMIT])
{
    int const nch = d->fr.stereo;
    const L2Alloc *alloc = si->alloc;
    L2Triple tr;

    for (int i = 0; i < si->sblimit; i++) {
        int const step = alloc->bits;
        if (i < si->jsbound)
            for (int ch = 0; ch < nch; ch++) {
                int const ba = si->allocation[i][ch];
                if (ba) {
                    read_triple(d, alloc + ba, &tr);
                    dequant_triple(&d->t, &tr, si->scalefactor[i][ch][gr], &fraction[ch][0][i],
                                   &fraction[ch][1][i], &fraction[ch][2][i]);
                }
                else
                    fraction[ch][0][i] = fraction[ch][1][i] = fraction[ch][2][i] = 0.0f;
            }
        else {
            /* joint stereo above the bound: one code, each channel's scale */
            int const ba = si->allocation[i][0];
            if (ba) {
                read_triple(d, alloc + ba, &tr);
                for (int ch = 0; ch < nch; ch++)
                    dequant_triple(&d->t, &tr, si->scalefactor[i][ch][gr], &fraction[ch][0][i],
                                   &fraction[ch][1][i], &fraction[ch][2][i]);
            }
            else
                for (int ch = 0; ch < 2; ch++)
                    fraction[ch][0][i] = fraction[ch][1][i] = fraction[ch][2][i] = 0.0f;
        }
        alloc += (size_t) 1 << step;
    }
    for (int ch = 0; ch < nch; ch++)
        for (int i = si->sblimit; i < SBLIMIT; i++)
            fraction[ch][0][i] = fraction[ch][1][i] = fraction[ch][2][i] = 0.0f;
}

int rl_l2_decode_frame(RlMpaDecoder *d)
{
    real_t fraction[2][4][SBLIMIT];
    L2Side si;
    real_t *out = d->out;

    select_table(&d->fr, &si);
    read_side(d, &si);
    for (int i = 0; i < 12; i++) {
        read_granule(d, &si, i >> 2, fraction);
        for (int j = 0; j < 3; j++)
            out = rl_mpa_synth_row(d, fraction[0][j], fraction[1][j], out);
    }
    return (int) (out - d->out);
}
