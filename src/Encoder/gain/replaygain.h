/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ReplayGain analysis (title gain of the encoder input) and the radio gain value LAME stores.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 * Stage (every function here): the ReplayGain channel tasks (gain_feed.c); rl_gain_radio_value and rl_gain_tag_field: Encode (Finish: the LAME tag). */
#ifndef RL_REPLAYGAIN_H
#define RL_REPLAYGAIN_H

#include <stddef.h>
#include <stdint.h>

#include "dsp.h"   /* RL_DECL_* */

#define RL_RG_MAX_ORDER        10          /* max(Yule order 10, Butterworth order 2) */
#define RL_RG_MAX_WINDOW       2401        /* 48000/20 + 1 samples per 50 ms RMS window */
#define RL_RG_STEPS_PER_DB     100
#define RL_RG_MAX_DB           120
#define RL_RG_HIST_LEN         (RL_RG_STEPS_PER_DB * RL_RG_MAX_DB)
#define RL_RG_NOT_ENOUGH       (-24601.0f) /* title gain when no complete window was seen */

/* One analysis stream (LAME: replaygain_t).  The in/step/out buffers keep
 * RL_RG_MAX_ORDER samples of history in front of the current window. */
typedef struct RlGainState {
    float    inpre[2][RL_RG_MAX_ORDER * 2];                      /* linprebuf / rinprebuf */
    float    step[2][RL_RG_MAX_WINDOW + RL_RG_MAX_ORDER];        /* lstepbuf / rstepbuf */
    float    out[2][RL_RG_MAX_WINDOW + RL_RG_MAX_ORDER];         /* loutbuf / routbuf */
    long     window;       /* samples per RMS window (sampleWindow) */
    long     totsamp;      /* samples in the current window so far */
    double   sum[2];       /* lsum / rsum: double on purpose (per-call float sums are added here) */
    int      freqindex;
    uint32_t hist[RL_RG_HIST_LEN];   /* A[] */
    uint32_t album[RL_RG_HIST_LEN];  /* B[] (accumulated by rl_gain_title, unused otherwise) */
} RlGainState;

/* InitGainAnalysis: 0 on success, -ENOTSUP for a sample rate RG has no
 * filter for (LAME asserts there and turns RG off; all MPEG rates are supported). */
int   rl_gain_init(RlGainState *g, long samplerate);

/* AnalyzeSamples, bit-exact for the same call chunking.  num_channels 1 uses
 * left for both sides.  0 ok, -EINVAL for bad arguments / internal error. */
int   rl_gain_analyze(RlGainState *g, const float *left, const float *right,
                      size_t nsamples, int num_channels);

/* GetTitleGain: the title gain in dB (RL_RG_NOT_ENOUGH if no window was
 * complete) and resets the per-title state like LAME. */
float rl_gain_title(RlGainState *g);

/* save_gain_values: the int LAME stores as RadioGain (floor(10*gain+.5), or
 * 0 when RL_RG_NOT_ENOUGH). */
int   rl_gain_radio_value(float title_gain);

/* The 16-bit "radio replay gain" field of the LAME tag (VbrTag.c): clamps to
 * +-510, name code 0x2000, originator 0xC00, sign bit 0x200.  When RG is not
 * enabled (find_replay_gain == 0) the tag field is 0. */
uint16_t rl_gain_tag_field(int radio_gain, int find_replay_gain);

/* Building blocks shared with the per-channel feed (gain_feed.c); the
 * arithmetic is exactly rl_gain_analyze's. */

/* Filter table row for a sample rate (LAME freqindex), or -1 if none. */
int    rl_gain_rate_index(long samplerate);
/* Samples per 50 ms RMS window (sampleWindow = ceil(samplerate/20)). */
long   rl_gain_window(long samplerate);
/* Yule then Butterworth filter of one channel piece: in[-RL_RG_MAX_ORDER..-1],
 * step[-RL_RG_MAX_ORDER..-1] and out[-RL_RG_MAX_ORDER..-1] hold the history;
 * writes step[0..n) and out[0..n). */
RL_DECL_GAIN_FILTER(rl_gain_filter);
/* The coefficient rows of freqindex (0 <= freqindex < 9): Yule (21: [0..10]
 * on in[-10..0], [11..20] on out[-10..-1]) and Butterworth (5: [0],[2],[4]
 * on in[-2..0], [1],[3] on out[-2..-1]), for the SIMD kernels. */
const float *rl_gain_yule_coef(int freqindex);
const float *rl_gain_butter_coef(int freqindex);
/* The float sum of squares of one piece (LAME's per-piece sum_l). */
float  rl_gain_square_sum(const float *p, long n);
/* Histogram bin of a complete window with channel sums lsum, rsum. */
size_t rl_gain_hist_index(double lsum, double rsum, long totsamp);
/* analyzeResult: title gain at the 95th percentile of hist[RL_RG_HIST_LEN]
 * (RL_RG_NOT_ENOUGH when empty). */
float  rl_gain_hist_title(const uint32_t *hist);

#endif
