/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: input sample-rate conversion (Blackman-windowed sinc FIR), LAME's fill_buffer_resample.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_RESAMPLE_H
#define RL_RESAMPLE_H

#include "rl_config.h"

#define RL_RESAMPLE_BPC 320      /* max number of precomputed filter phases per half (LAME: BPC) */

/* Resampler state (LAME: sv_enc.itime/inbuf_old/blackfilt + fill_buffer_resample_init).
 * Owned by the Dispatch stage; one instance per encoder, shared by both channels. */
typedef struct RlResampler {
    int     initialized;             /* filters computed (fill_buffer_resample_init) */
    int     bpc;                     /* phases per half: out/gcd(out,in), capped at RL_RESAMPLE_BPC */
    int     filter_l;                /* FIR order: 31, or 32 for integer ratios */
    int     blacksize;               /* filter_l + 1 */
    float   fcn;                     /* normalised cut-off min(1, out/in) */
    double  ratio;                   /* in/out */
    double  itime[2];                /* double on purpose: LAME notes float is not precise enough */
    float  *inbuf_old[2];            /* last blacksize input samples per channel */
    float  *blackfilt[2 * RL_RESAMPLE_BPC + 1];
    int     j_after_init;            /* LAME's stale loop variable on the first call (see .c) */
} RlResampler;

/* isResamplingNecessary: 1 when sr_in is outside sr_out*[0.9995, 1.0005].
 * Stage: init. */
int  rl_resampling_needed(const RlConfig *cfg);

/* Computes the filter bank and zeroes the history (what LAME does lazily on the
 * first fill_buffer_resample call).  r may be uninitialised memory: it is
 * overwritten, so call rl_resample_free first when re-initialising.
 * 0 or -ENOMEM / -EINVAL.
 * Stage: init. */
int  rl_resample_init(RlResampler *r, const RlConfig *cfg);

/* fill_buffer_resample: produce up to desired_len output samples of channel ch
 * from inbuf[0..len); *num_used = input samples consumed.  Returns the number
 * of output samples (>= 0), or a negative errno.  If rl_resample_init was not
 * called yet it is called here (like LAME's lazy init).
 * Stage: Dispatch. */
int  rl_resample_fill(RlResampler *r, const RlConfig *cfg, float *outbuf, int desired_len,
                      const float *inbuf, int len, int *num_used, int ch);

/* Stage: destroy. */
void rl_resample_free(RlResampler *r);

#endif
