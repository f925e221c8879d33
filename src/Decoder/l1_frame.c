/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: one Layer I frame: bit allocation, scale factors and the twelve
 * blocks of samples of each subband into the synthesis.
 * Algorithm derived from LAME 3.100's mpglib/layer1.c (LGPL-2.0-or-later). */
#include <string.h>
#include "mpa_internal.h"

typedef struct L1Side {
    uint8_t allocation[SBLIMIT][2];
    uint8_t scalefactor[SBLIMIT][2];
} L1Side;

static int joint_bound(const MpaFrame *fr)
{
    return fr->mode == MPA_MD_JOINT_STEREO ? (fr->mode_ext << 2) + 4 : 32;
}

/* allocations and scale factors; 1 when an allocation is the forbidden 15 */
static int read_side(RlMpaDecoder *d, L1Side *si)
{
    int const jsbound = joint_bound(&d->fr);
    int illegal = 0;

    memset(si, 0, sizeof(*si));
    if (d->fr.stereo == 2) {
        for (int i = 0; i < jsbound; i++) {
            uint8_t const b0 = (uint8_t) mpa_getbits_fast(d, 4);
            uint8_t const b1 = (uint8_t) mpa_getbits_fast(d, 4);
            si->allocation[i][0] = b0;
            si->allocation[i][1] = b1;
            illegal |= b0 == 15 || b1 == 15;
        }
        for (int i = jsbound; i < SBLIMIT; i++) {
            uint8_t const b = (uint8_t) mpa_getbits_fast(d, 4);
            si->allocation[i][0] = si->allocation[i][1] = b;
            illegal |= b == 15;
        }
        for (int i = 0; i < SBLIMIT; i++) {
            si->scalefactor[i][0] = si->allocation[i][0] ? (uint8_t) mpa_getbits_fast(d, 6) : 0;
            si->scalefactor[i][1] = si->allocation[i][1] ? (uint8_t) mpa_getbits_fast(d, 6) : 0;
        }
    }
    else {
        for (int i = 0; i < SBLIMIT; i++) {
            uint8_t const b = (uint8_t) mpa_getbits_fast(d, 4);
            si->allocation[i][0] = b;
            illegal |= b == 15;
        }
        for (int i = 0; i < SBLIMIT; i++)
            si->scalefactor[i][0] = si->allocation[i][0] ? (uint8_t) mpa_getbits_fast(d, 6) : 0;
    }
    return illegal;
}

/* a sample of n + 1 bits, dequantised: (v + 1 - 2^n) * muls[n + 1][scale] */
static real_t sample(RlMpaDecoder *d, int n, int scf)
{
    int const v = (int) (uint16_t) mpa_getbits_fast(d, n + 1);
    return (real_t) (double) ((-(1 << n) + v + 1) * d->t.muls[n + 1][scf]);
}

/* one block: a sample per subband and channel */
static void read_block(RlMpaDecoder *d, const L1Side *si, real_t fraction[2][SBLIMIT])
{
    if (d->fr.stereo == 2) {
        int const jsbound = joint_bound(&d->fr);
        for (int i = 0; i < jsbound; i++) {
            int const n0 = si->allocation[i][0], n1 = si->allocation[i][1];
            real_t const r0 = n0 > 0 ? sample(d, n0, si->scalefactor[i][0]) : 0.0f;
            real_t const r1 = n1 > 0 ? sample(d, n1, si->scalefactor[i][1]) : 0.0f;
            fraction[0][i] = r0;
            fraction[1][i] = r1;
        }
        for (int i = jsbound; i < SBLIMIT; i++) {
            int const n = si->allocation[i][0];
            if (n > 0) {
                /* mpglib holds the shared sample as unsigned: a negative one
                 * becomes 2^32 + v (kept, for the same samples) */
                unsigned const w = (unsigned) (-(1 << n) + (int) (uint16_t) mpa_getbits_fast(d, n + 1) + 1);
                fraction[0][i] = (real_t) (double) (w * d->t.muls[n + 1][si->scalefactor[i][0]]);
                fraction[1][i] = (real_t) (double) (w * d->t.muls[n + 1][si->scalefactor[i][1]]);
            }
            else
                fraction[0][i] = fraction[1][i] = 0.0f;
        }
    }
    else
        for (int i = 0; i < SBLIMIT; i++) {
            int const n = si->allocation[i][0];
            fraction[0][i] = n > 0 ? sample(d, n, si->scalefactor[i][0]) : 0.0f;
        }
}

int rl_l1_decode_frame(RlMpaDecoder *d)
{
    real_t fraction[2][SBLIMIT];
    L1Side si;
    real_t *out = d->out;

    if (read_side(d, &si)) {
        rl_mpa_report(d, "hip: Aborting layer 1 decode, illegal bit allocation value\n", 0);
        return -1;
    }
    for (int i = 0; i < 12; i++) {
        read_block(d, &si, fraction);
        out = rl_mpa_synth_row(d, fraction[0], fraction[1], out);
    }
    return (int) (out - d->out);
}
