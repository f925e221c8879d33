/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the DSP table, one function pointer per kernel, filled once at
 * encoder init with the best implementation the chosen SIMD level allows.
 * Hot code calls through the table (k->dsp, or cfg->dsp where only the
 * settings are at hand); no CPU test is made after init.  Every level gives
 * the same integers (tests/checkasm.c compares each with the scalar one). */
#ifndef RL_DSP_H
#define RL_DSP_H

#include "simd.h"   /* RL_SIMD_*, rl_cpu_simd_level */

/* rl_choose_table's contract (huffman_count.h): best Huffman table for the
 * pairs ix[0..end), its bits added to *bits. */
typedef int (*RlChooseTableFn)(const int *ix, const int *end, int *bits);

/* rl_psy_spread's contract (psy_spread.h): spread thresholds ecb[b] and
 * tonal limits cap[b] of the partitions of gd. */
struct RlPsyBands;
typedef void (*RlSpreadFn)(const struct RlPsyBands *gd, const float *eb, const float *max,
                           const unsigned char *idx, float *ecb, float *cap);

/* The Prepare-side and ReplayGain kernels' contracts: rl_window_granule
 * (polyphase_window.h), rl_attack_fir and rl_block_peaks (attack.h),
 * rl_gain_filter (replaygain.h). */
typedef void (*RlWindowGranuleFn)(const float *x, float sb[18][32]);
typedef void (*RlAttackFirFn)(const float *firbuf, float hpf[576]);
typedef void (*RlBlockPeaksFn)(const float *pf, float peaks[9]);
typedef void (*RlGainFilterFn)(int freqindex, const float *in, float *step, float *out, long n);
typedef void (*RlFhtFn)(float *fz, int half);   /* rl_fht (fft.h) */
/* rl_pcm_s16le (dispatch.h) */
typedef void (*RlPcmS16Fn)(const void *src, int n, int nch, const float m[4], float *ib0,
                           float *ib1);
/* rl_ms_thresholds (psy.h) */
typedef void (*RlMsThresholdsFn)(const float eb[4][64], float thr[4][64], const float *cb_mld,
                                 const float *ath_cb, float athlower, float msfix, int n);
/* rl_mdct_long (mdct.h) */
typedef void (*RlMdctLongFn)(const float *prev, const float *cur, const float *wt, float *xr);

/* rl_noise_x34_batch's contract (noise_x34.h): the quantization noise of
 * njobs (band, step) pairs, each the scalar sum's float. */
struct RlNoiseJob;
typedef void (*RlNoiseX34Fn)(const float *xr, const float *xr34, const struct RlNoiseJob *jobs,
                             int njobs, float *noise);

/* rl_xrpow_lines's contract (quantize_common.h). */
typedef float (*RlXrpowFn)(const float *xr, float *xrpow, int n, float *absmax);

/* rl_quantize_lines's contract (huffman_count.h). */
typedef void (*RlQuantLinesFn)(unsigned int n, float istep, const float *xp, int *ix);

typedef struct RlDsp {
    RlChooseTableFn choose_table;
    RlSpreadFn spread;
    RlNoiseX34Fn noise_x34;
    RlXrpowFn xrpow;
    RlQuantLinesFn quantize_lines;
    int level;        /* the RL_SIMD_* the table was filled for */
    RlWindowGranuleFn window_granule;
    RlAttackFirFn attack_fir;
    RlBlockPeaksFn block_peaks;
    RlGainFilterFn gain_filter;
    RlFhtFn fht;
    RlMdctLongFn mdct_long;
    RlPcmS16Fn pcm_s16le;
    RlMsThresholdsFn ms_thresholds;
} RlDsp;

/* Fills d with the best kernel at or below level (clamped to 0..AVX512;
 * the caller checks level <= rl_cpu_simd_level()).  Safe from any thread. */
void rl_dsp_init(RlDsp *d, int level);

/* The spread kernel written for level (the scalar one for RL_SIMD_SCALAR,
 * NULL where the build has none), whether the table selects it or not:
 * for tests/checkasm.c.  The caller checks level <= rl_cpu_simd_level(). */
RlSpreadFn rl_dsp_spread_at(int level);

/* The same for the noise kernel. */
RlNoiseX34Fn rl_dsp_noise_x34_at(int level);

/* The same for the xrpow kernel. */
RlXrpowFn rl_dsp_xrpow_at(int level);

/* The same for the line quantizer. */
RlQuantLinesFn rl_dsp_quantize_lines_at(int level);

/* The scalar table, for code that has no encoder (unit tests, settings
 * built outside an encoder). */
const RlDsp *rl_dsp_scalar(void);

#endif
