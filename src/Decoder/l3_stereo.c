/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Layer III intensity stereo (the right channel rebuilt from the
 * left one and the scale factors' positions).
 * Algorithm derived from LAME 3.100's mpglib/layer3.c (LGPL-2.0-or-later). */
#include "mpa_internal.h"

/* an intensity position, clamped to 0..15 */
static int is_pos(int sf)
{
    return sf < 0 ? 0 : sf > 15 ? 15 : sf;
}

/* sb values from idx on, every `stride`: left * t1 and left * t2 */
static void split(real_t *l, real_t *r, int idx, int sb, int stride, real_t t1, real_t t2)
{
    for (; sb > 0; sb--, idx += stride) {
        real_t const v = l[idx];
        l[idx] = v * t1;
        r[idx] = v * t2;
    }
}

void rl_l3_intensity(const MpaTables *t, real_t xr_buf[2][SBLIMIT][SSLIMIT], const int *scf,
                     const L3Granule *g, int sfreq, int ms_stereo, int lsf)
{
    real_t *const l = &xr_buf[0][0][0], *const r = &xr_buf[1][0][0];
    L3Bands const *bi = &rl_l3_bands[sfreq];
    const real_t *tabl1, *tabl2;

    if (lsf) {
        int const p = (int) (g->scalefac_compress & 0x1);
        tabl1 = ms_stereo ? t->pow1_2[p] : t->pow1_1[p];
        tabl2 = ms_stereo ? t->pow2_2[p] : t->pow2_1[p];
    }
    else {
        tabl1 = ms_stereo ? t->tan1_2 : t->tan1_1;
        tabl2 = ms_stereo ? t->tan2_2 : t->tan2_1;
    }

    if (g->block_type == 2) {
        int const mixed = (int) g->mixed_block_flag;
        int do_l = mixed;
        for (int lwin = 0; lwin < 3; lwin++) {
            int sfb = (int) g->maxband[lwin], p;
            if (sfb > 3)
                do_l = 0;
            for (; sfb < 12; sfb++) {
                p = is_pos(scf[sfb * 3 + lwin - mixed]);
                if (p != 7)
                    split(l, r, bi->short_idx[sfb] + lwin, bi->short_diff[sfb], 3, tabl1[p], tabl2[p]);
            }
            /* band 12 takes band 11's position */
            p = is_pos(scf[11 * 3 + lwin - mixed]);
            if (p != 7)
                split(l, r, bi->short_idx[12] + lwin, bi->short_diff[12], 3, tabl1[p], tabl2[p]);
        }
        if (do_l) {
            int sfb = (int) g->maxbandl;
            int idx = bi->long_idx[sfb];
            for (; sfb < 8; sfb++) {
                int const p = is_pos(scf[sfb]);
                if (p != 7)
                    split(l, r, idx, bi->long_diff[sfb], 1, tabl1[p], tabl2[p]);
                idx += bi->long_diff[sfb];
            }
        }
    }
    else {
        int sfb = (int) g->maxbandl, p;
        int idx = bi->long_idx[sfb];
        for (; sfb < 21; sfb++) {
            p = is_pos(scf[sfb]);
            if (p != 7)
                split(l, r, idx, bi->long_diff[sfb], 1, tabl1[p], tabl2[p]);
            idx += bi->long_diff[sfb];
        }
        /* band 21 takes band 20's position */
        p = is_pos(scf[20]);
        if (p != 7)
            split(l, r, bi->long_idx[21], bi->long_diff[21], 1, tabl1[p], tabl2[p]);
    }
}
