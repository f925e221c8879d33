/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: input sample-rate conversion (Blackman-windowed sinc FIR), LAME's fill_buffer_resample.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "resample.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RS_PI 3.14159265358979323846

/* Blackman-windowed sinc tap at position x of an l-tap filter with cut-off
 * fcn (Stearns & David).  The float/double mix mirrors LAME exactly: x, x2,
 * wcn and the window are float; cos/sin and the final quotient are double. */
static float blackman_tap(float x, float fcn, int l)
{
    float const wcn = (float)(RS_PI * fcn);
    float window, x2;

    x /= l;
    if (x < 0)
        x = 0;
    if (x > 1)
        x = 1;
    x2 = (float)(x - .5);
    window = (float)(0.42 - 0.5 * cos(2 * x * RS_PI) + 0.08 * cos(4 * x * RS_PI));
    if (fabs(x2) < 1e-9)
        return (float)(wcn / RS_PI);
    return (float)(window * sin(l * wcn * x2) / (RS_PI * l * x2));
}

static int gcd_int(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int rl_resampling_needed(const RlConfig *cfg)
{
    int const lo = (int)(cfg->samplerate_out * 0.9995f);
    int const hi = (int)(cfg->samplerate_out * 1.0005f);
    return (cfg->samplerate_in < lo) || (hi < cfg->samplerate_in) ? 1 : 0;
}

void rl_resample_free(RlResampler *r)
{
    int i;
    if (!r)
        return;
    for (i = 0; i < 2 * RL_RESAMPLE_BPC + 1; i++) {
        free(r->blackfilt[i]);
        r->blackfilt[i] = NULL;
    }
    free(r->inbuf_old[0]);
    free(r->inbuf_old[1]);
    r->inbuf_old[0] = r->inbuf_old[1] = NULL;
    r->initialized = 0;
}

int rl_resample_init(RlResampler *r, const RlConfig *cfg)
{
    float intratio;
    int i, j;

    if (!r || !cfg || cfg->samplerate_in <= 0 || cfg->samplerate_out <= 0)
        return -EINVAL;
    memset(r, 0, sizeof(*r));
    r->ratio = (double)cfg->samplerate_in / (double)cfg->samplerate_out;
    r->bpc = cfg->samplerate_out / gcd_int(cfg->samplerate_out, cfg->samplerate_in);
    if (r->bpc > RL_RESAMPLE_BPC)
        r->bpc = RL_RESAMPLE_BPC;
    /* LAME keeps this flag in a FLOAT and adds it to the int order */
    intratio = (float)(fabs(r->ratio - floor(.5 + r->ratio)) < FLT_EPSILON);
    r->fcn = (float)(1.00 / r->ratio);
    if (r->fcn > 1.00)
        r->fcn = 1.00f;
    r->filter_l = 31;            /* odd, unless the ratio is an integer */
    r->filter_l = (int)(r->filter_l + intratio);
    r->blacksize = r->filter_l + 1;

    r->inbuf_old[0] = calloc((size_t)r->blacksize, sizeof(float));
    r->inbuf_old[1] = calloc((size_t)r->blacksize, sizeof(float));
    if (!r->inbuf_old[0] || !r->inbuf_old[1]) {
        rl_resample_free(r);
        return -ENOMEM;
    }
    for (j = 0; j <= 2 * r->bpc; j++) {
        r->blackfilt[j] = calloc((size_t)r->blacksize, sizeof(float));
        if (!r->blackfilt[j]) {
            rl_resample_free(r);
            return -ENOMEM;
        }
    }
    r->itime[0] = 0;
    r->itime[1] = 0;

    /* one normalised filter per sub-sample phase offset in [-1/2, 1/2] */
    for (j = 0; j <= 2 * r->bpc; j++) {
        float sum = 0.f;
        float const offset = (float)((j - r->bpc) / (2. * r->bpc));
        for (i = 0; i <= r->filter_l; i++)
            sum += r->blackfilt[j][i] = blackman_tap(i - offset, r->fcn, r->filter_l);
        for (i = 0; i <= r->filter_l; i++)
            r->blackfilt[j][i] /= sum;
    }
    /* LAME reuses its loop variable j: on the (first) call that sets the filters
     * up, a call producing no output leaves j = 2*bpc+1 for the num_used formula. */
    r->j_after_init = 2 * r->bpc + 1;
    r->initialized = 1;
    return 0;
}

int rl_resample_fill(RlResampler *r, const RlConfig *cfg, float *outbuf, int desired_len,
                     const float *inbuf, int len, int *num_used, int ch)
{
    float *old;
    int i, j = 0, k, filter_l, half, bs, used;
    double ratio;

    if (!r || !cfg || !num_used || ch < 0 || ch > 1)
        return -EINVAL;
    if (!r->initialized) {
        int rc = rl_resample_init(r, cfg);
        if (rc < 0)
            return rc;
    }
    j = r->j_after_init;    /* only matters when no output sample is produced */
    r->j_after_init = 0;
    ratio = r->ratio;
    filter_l = r->filter_l;
    half = filter_l / 2;
    bs = r->blacksize;
    old = r->inbuf_old[ch];

    /* input sample j sits at time itime + j/in; output sample k at k/out */
    for (k = 0; k < desired_len; k++) {
        double const time0 = k * ratio;
        float offset, acc;
        int phase;

        j = (int)floor(time0 - r->itime[ch]);
        if ((filter_l + j - half) >= len)
            break;          /* not enough input for this output sample */

        /* window centred at time0 rather than at j + .5*(filter_l%2) */
        offset = (float)(time0 - r->itime[ch] - (j + .5 * (filter_l % 2)));
        /* nearest precomputed phase; offset*2*bpc+bpc in float, +.5 in double */
        phase = (int)floor((offset * 2 * r->bpc) + r->bpc + .5);

        acc = 0.f;
        for (i = 0; i <= filter_l; ++i) {
            int const j2 = i + j - half;
            float const y = (j2 < 0) ? old[bs + j2] : inbuf[j2];
            acc += y * r->blackfilt[phase][i];
        }
        outbuf[k] = acc;
    }

    used = filter_l + j - half;
    if (used > len)
        used = len;
    *num_used = used;

    /* advance the input clock by what was consumed, relative to the next output */
    r->itime[ch] += used - k * ratio;

    /* keep the last blacksize input samples as history */
    if (used >= bs) {
        for (i = 0; i < bs; i++)
            old[i] = inbuf[used + i - bs];
    } else {
        int const keep = bs - used;
        for (i = 0; i < keep; ++i)
            old[i] = old[i + used];
        for (j = 0; i < bs; ++i, ++j)
            old[i] = inbuf[j];
    }
    return k;
}
