/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: one Layer III frame's main data into PCM: per granule the scale
 * factors and values of each channel, joint stereo, alias reduction, the
 * hybrid filter bank and the synthesis.
 * Algorithm derived from LAME 3.100's mpglib/layer3.c (LGPL-2.0-or-later). */
#include "mpa_internal.h"

/* the joint-stereo steps after both channels' values are known */
static void joint_stereo(RlMpaDecoder *d, real_t xr[2][SBLIMIT][SSLIMIT], const int *scf1, int gr,
                         int ms_stereo, int i_stereo, int single)
{
    L3Granule *g1 = &d->side.gr[1][gr];
    L3Granule *g0 = &d->side.gr[0][gr];
    real_t *const in0 = &xr[0][0][0], *const in1 = &xr[1][0][0];

    if (ms_stereo)
        for (int i = 0; i < SBLIMIT * SSLIMIT; i++) {
            real_t const tmp0 = in0[i], tmp1 = in1[i];
            in1[i] = tmp0 - tmp1;
            in0[i] = tmp0 + tmp1;
        }
    if (i_stereo)
        rl_l3_intensity(&d->t, xr, scf1, g1, d->fr.sampling_frequency, ms_stereo, d->fr.lsf);
    if (ms_stereo || i_stereo || single == 3) {
        if (g1->maxb > g0->maxb)
            g0->maxb = g1->maxb;
        else
            g1->maxb = g0->maxb;
    }
    /* a stereo stream forced to one channel (mpglib's "single"; ringlame
     * never asks for it, kept for the same code paths) */
    if (single == 3)
        for (int i = 0; i < (int) (SSLIMIT * g1->maxb); i++)
            in0[i] = in0[i] + in1[i];
    else if (single == 1)
        for (int i = 0; i < (int) (SSLIMIT * g1->maxb); i++)
            in0[i] = in1[i];
}

/* the scale factors and values of one channel; 0, or 1 on overrun */
static int read_channel(RlMpaDecoder *d, int ch, int gr, int *scf, real_t xr[SBLIMIT][SSLIMIT],
                        int i_stereo)
{
    L3Granule *g = &d->side.gr[ch][gr];
    int const part2bits = d->fr.lsf ? rl_l3_scalefactors_2(d, scf, g, i_stereo)
                                    : rl_l3_scalefactors_1(d, scf, g);
    return rl_l3_dequantize(d, xr, scf, g, d->fr.sampling_frequency, part2bits);
}

int rl_l3_decode_frame(RlMpaDecoder *d)
{
    MpaFrame const *fr = &d->fr;
    int const stereo = fr->stereo;
    int single = fr->single, stereo1;
    int ms_stereo = 0, i_stereo = 0;
    int const granules = fr->lsf ? 1 : 2;
    int scalefacs[2][39];
    real_t hybrid_in[2][SBLIMIT][SSLIMIT];
    real_t hybrid_out[2][SSLIMIT][SBLIMIT];
    real_t *out = d->out;

    if (stereo == 1) {
        stereo1 = 1;
        single = 0;
    }
    else
        stereo1 = single >= 0 ? 1 : 2;
    if (fr->mode == MPA_MD_JOINT_STEREO) {
        ms_stereo = fr->mode_ext & 0x2;
        i_stereo = fr->mode_ext & 0x1;
    }

    for (int gr = 0; gr < granules; gr++) {
        if (read_channel(d, 0, gr, scalefacs[0], hybrid_in[0], 0))
            return (int) (out - d->out);
        if (stereo == 2) {
            if (read_channel(d, 1, gr, scalefacs[1], hybrid_in[1], i_stereo))
                return (int) (out - d->out);
            joint_stereo(d, hybrid_in, scalefacs[1], gr, ms_stereo, i_stereo, single);
        }
        for (int ch = 0; ch < stereo1; ch++) {
            L3Granule const *g = &d->side.gr[ch][gr];
            rl_l3_antialias(&d->t, hybrid_in[ch], g);
            rl_l3_hybrid(d, hybrid_in[ch], hybrid_out[ch], ch, g);
        }
        /* (single >= 0 only for a mono stream here: ringlame never asks
         * mpglib to decode one channel of a stereo one) */
        for (int ss = 0; ss < SSLIMIT; ss++)
            out = rl_mpa_synth_row(d, hybrid_out[0][ss], hybrid_out[1][ss], out);
    }
    return (int) (out - d->out);
}
