/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the MDCT with alias reduction (LAME mdct_sub48's inner part),
 * the Search stage's half of the filterbank, from Prepare's polyphase output.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <string.h>

#include "dsp.h"
#include "mdct.h"

#define RL_NS 12
#define RL_NL 36

/* The MDCT windows per block type transcribed from LAME's newmdct.c; the
 * initialisers are double expressions rounded to float, exactly as in LAME. */
const float rl_mdct_win[4][RL_NL] = {
    {
        2.382191739347913e-13, 6.423305872147834e-13, 9.400849094049688e-13,
        1.122435026096556e-12, 1.183840321267481e-12, 1.122435026096556e-12,
        9.400849094049690e-13, 6.423305872147839e-13, 2.382191739347918e-13,
        5.456116108943412e-12, 4.878985199565852e-12, 4.240448995017367e-12,
        3.559909094758252e-12, 2.858043359288075e-12, 2.156177623817898e-12,
        1.475637723558783e-12, 8.371015190102974e-13, 2.599706096327376e-13,
        -5.456116108943412e-12, -4.878985199565852e-12, -4.240448995017367e-12,
        -3.559909094758252e-12, -2.858043359288076e-12, -2.156177623817898e-12,
        -1.475637723558783e-12, -8.371015190102975e-13, -2.599706096327376e-13,
        -2.382191739347923e-13, -6.423305872147843e-13, -9.400849094049696e-13,
        -1.122435026096556e-12, -1.183840321267481e-12, -1.122435026096556e-12,
        -9.400849094049694e-13, -6.423305872147840e-13, -2.382191739347918e-13,
    },
    {
        2.382191739347913e-13, 6.423305872147834e-13, 9.400849094049688e-13,
        1.122435026096556e-12, 1.183840321267481e-12, 1.122435026096556e-12,
        9.400849094049688e-13, 6.423305872147841e-13, 2.382191739347918e-13,
        5.456116108943413e-12, 4.878985199565852e-12, 4.240448995017367e-12,
        3.559909094758253e-12, 2.858043359288075e-12, 2.156177623817898e-12,
        1.475637723558782e-12, 8.371015190102975e-13, 2.599706096327376e-13,
        -5.461314069809755e-12, -4.921085770524055e-12, -4.343405037091838e-12,
        -3.732668368707687e-12, -3.093523840190885e-12, -2.430835727329465e-12,
        -1.734679010007751e-12, -9.748253656609281e-13, -2.797435120168326e-13,
        0.000000000000000e+00, 0.000000000000000e+00, 0.000000000000000e+00,
        0.000000000000000e+00, 0.000000000000000e+00, 0.000000000000000e+00,
        -2.283748241799531e-13, -4.037858874020686e-13, -2.146547464825323e-13,
    },
    {
        1.316524975873958e-01, 4.142135623730950e-01, 7.673269879789602e-01,
        1.091308501069271e+00, 1.303225372841206e+00, 1.569685577117490e+00,
        1.920982126971166e+00, 2.414213562373094e+00, 3.171594802363212e+00,
        4.510708503662055e+00, 7.595754112725146e+00, 2.290376554843115e+01,
        0.98480775301220802032, 0.64278760968653936292, 0.34202014332566882393,
        0.93969262078590842791, -0.17364817766693030343, -0.76604444311897790243,
        0.86602540378443870761, 0.500000000000000e+00, -5.144957554275265e-01,
        -4.717319685649723e-01, -3.133774542039019e-01, -1.819131996109812e-01,
        -9.457419252642064e-02, -4.096558288530405e-02, -1.419856857247115e-02,
        -3.699974673760037e-03, 8.574929257125442e-01, 8.817419973177052e-01,
        9.496286491027329e-01, 9.833145924917901e-01, 9.955178160675857e-01,
        9.991605581781475e-01, 9.998991952444470e-01, 9.999931550702802e-01,
    },
    {
        0.000000000000000e+00, 0.000000000000000e+00, 0.000000000000000e+00,
        0.000000000000000e+00, 0.000000000000000e+00, 0.000000000000000e+00,
        2.283748241799531e-13, 4.037858874020686e-13, 2.146547464825323e-13,
        5.461314069809755e-12, 4.921085770524055e-12, 4.343405037091838e-12,
        3.732668368707687e-12, 3.093523840190885e-12, 2.430835727329466e-12,
        1.734679010007751e-12, 9.748253656609281e-13, 2.797435120168326e-13,
        -5.456116108943413e-12, -4.878985199565852e-12, -4.240448995017367e-12,
        -3.559909094758253e-12, -2.858043359288075e-12, -2.156177623817898e-12,
        -1.475637723558782e-12, -8.371015190102975e-13, -2.599706096327376e-13,
        -2.382191739347913e-13, -6.423305872147834e-13, -9.400849094049688e-13,
        -1.122435026096556e-12, -1.183840321267481e-12, -1.122435026096556e-12,
        -9.400849094049688e-13, -6.423305872147841e-13, -2.382191739347918e-13,
    },
};

/* Pieces of the short-block row that hold the long-block twiddles. */
#define RL_TANTAB_L (rl_mdct_win[RL_SHORT_TYPE] + 3)
#define RL_CX       (rl_mdct_win[RL_SHORT_TYPE] + 12)
#define RL_CA       (rl_mdct_win[RL_SHORT_TYPE] + 20)
#define RL_CS       (rl_mdct_win[RL_SHORT_TYPE] + 28)

/* Three 12-point MDCTs of a short block, in place on interleaved values.
 * The e-11 constants are double on purpose (LAME mixes them into float math). */
static void mdct_short3(float *io)
{
    const float *ws = rl_mdct_win[RL_SHORT_TYPE];
    int l;
    for (l = 0; l < 3; l++) {
        float tc0, tc1, tc2, ts0, ts1, ts2;

        ts0 = io[2 * 3] * ws[0] - io[5 * 3];
        tc0 = io[0 * 3] * ws[2] - io[3 * 3];
        tc1 = ts0 + tc0;
        tc2 = ts0 - tc0;

        ts0 = io[5 * 3] * ws[0] + io[2 * 3];
        tc0 = io[3 * 3] * ws[2] + io[0 * 3];
        ts1 = ts0 + tc0;
        ts2 = -ts0 + tc0;

        tc0 = (io[1 * 3] * ws[1] - io[4 * 3]) * 2.069978111953089e-11;
        ts0 = (io[4 * 3] * ws[1] + io[1 * 3]) * 2.069978111953089e-11;

        io[3 * 0] = tc1 * 1.907525191737280e-11 + tc0;
        io[3 * 5] = -ts1 * 1.907525191737280e-11 + ts0;

        tc2 = tc2 * 0.86602540378443870761 * 1.907525191737281e-11;
        ts1 = ts1 * 0.5 * 1.907525191737281e-11 + ts0;
        io[3 * 1] = tc2 - ts1;
        io[3 * 2] = tc2 + ts1;

        tc1 = tc1 * 0.5 * 1.907525191737281e-11 - tc0;
        ts2 = ts2 * 0.86602540378443870761 * 1.907525191737281e-11;
        io[3 * 3] = tc1 + ts2;
        io[3 * 4] = tc1 - ts2;

        io++;
    }
}

/* 36-point MDCT of a long block (18 outputs) from the pre-rotated work[]. */
#define RL_ML_FN mdct_long18_cx
#define RL_ML_T float
#include "mdct_long18.h"

static void mdct_long18(float *out, const float *in)
{
    mdct_long18_cx(out, in, RL_CX);
}

/* The long-block MDCT of one band from its slots b0 (granule before) and
 * b1 (this granule), 32 floats apart. */
static void mdct_long_band(const float *b0, const float *b1, const float *wt, float *out)
{
    float work[18];
    for (int k = -RL_NL / 4; k < 0; k++) {
        float a, b;
        a = wt[k + 27] * b1[(k + 9) * 32] + wt[k + 36] * b1[(8 - k) * 32];
        b = wt[k + 9] * b0[(k + 9) * 32] - wt[k + 18] * b0[(8 - k) * 32];
        work[k + 9] = a - b * RL_TANTAB_L[k + 9];
        work[k + 18] = a * RL_TANTAB_L[k + 9] + b;
    }
    mdct_long18(out, work);
}

void rl_mdct_long(const float *prev, const float *cur, const float *wt, float xr[576])
{
    for (int band = 0; band < 32; band++)
        mdct_long_band(prev + rl_band_pos[band], cur + rl_band_pos[band], wt, xr + 18 * band);
}

/* alias-reduction butterflies between band (>= 1) at out and the one below */
static void alias_reduce(float *out)
{
    for (int k = 7; k >= 0; --k) {
        float bu, bd;
        bu = out[k] * RL_CA[k] + out[-1 - k] * RL_CS[k];
        bd = out[k] * RL_CS[k] - out[-1 - k] * RL_CA[k];
        out[-1 - k] = bu;
        out[k] = bd;
    }
}

void rl_mdct_granule(const RlConfig *cfg, const RlPolyphase *p, int gr, int ch,
                     int block_type, int mixed_block_flag, float xr[576])
{
    /* prev = granule before gr, cur = granule gr (both already amp-scaled) */
    const float *prev = &p->sb[ch][gr][0][0];
    const float *cur = &p->sb[ch][gr + 1][0][0];
    float *out = xr;
    int band, k;

    if (block_type != RL_SHORT_TYPE && !mixed_block_flag) {
        /* every band long with one window: all bands at once, then the
         * silenced bands and the butterflies (each reads only the two
         * bands' MDCT outputs, so doing them after all bands changes
         * nothing) */
        cfg->dsp->mdct_long(prev, cur, rl_mdct_win[block_type], xr);
        for (band = 0; band < 32; band++) {
            if ((double)cfg->amp_filter[band] < 1e-12)
                memset(xr + 18 * band, 0, 18 * sizeof(float));
            if (band != 0)
                alias_reduce(xr + 18 * band);
        }
        return;
    }
    for (band = 0; band < 32; band++, out += 18) {
        int type = block_type;
        const float *b0 = prev + rl_band_pos[band];
        const float *b1 = cur + rl_band_pos[band];
        if (mixed_block_flag && band < 2)
            type = 0;
        if ((double)cfg->amp_filter[band] < 1e-12) {
            memset(out, 0, 18 * sizeof(float));
        }
        else if (type == RL_SHORT_TYPE) {
            for (k = -RL_NS / 4; k < 0; k++) {
                float const w = rl_mdct_win[RL_SHORT_TYPE][k + 3];
                out[k * 3 + 9] = b0[(9 + k) * 32] * w - b0[(8 - k) * 32];
                out[k * 3 + 18] = b0[(14 - k) * 32] * w + b0[(15 + k) * 32];
                out[k * 3 + 10] = b0[(15 + k) * 32] * w - b0[(14 - k) * 32];
                out[k * 3 + 19] = b1[(2 - k) * 32] * w + b1[(3 + k) * 32];
                out[k * 3 + 11] = b1[(3 + k) * 32] * w - b1[(2 - k) * 32];
                out[k * 3 + 20] = b1[(8 - k) * 32] * w + b1[(9 + k) * 32];
            }
            mdct_short3(out);
        }
        else {
            mdct_long_band(b0, b1, rl_mdct_win[type], out);
        }
        /* alias-reduction butterflies between this band and the one below */
        if (type != RL_SHORT_TYPE && band != 0)
            alias_reduce(out);
    }
}
