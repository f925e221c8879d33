/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the DSP tables.  One table per SIMD level, one function pointer
 * per kernel: the fastest kernel written for that level or a lower one.
 * Each table is built once per process (rl_dsp_table_at) and never written
 * again; the encoder points cfg.dsp at its level's table at init and hot
 * code calls cfg->dsp->kernel(...): one handle, no CPU test after init.
 * Every level gives the scalar kernel's bits (tests/checkasm.c).
 *
 * A kernel is declared here once: RL_DECL_<KERNEL>(name) is its signature
 * (the scalar kernel's header declares it with the macro, the table field
 * takes its type from it, RL_DSP_LEVEL_FNS declares it at every level).
 * How to add one: docs/simd.md. */
#ifndef RL_DSP_H
#define RL_DSP_H

#include "simd.h"   /* RL_SIMD_*, rl_cpu_simd_level */

struct RlPsyBands;
struct RlNoiseJob;

/* The prototypes of kernel base (declared by decl) at every SIMD level:
 * base_sse41, base_avx2, base_avx512.  A level the kernel has no version
 * for is declared too and never referenced. */
#define RL_DSP_LEVEL_FNS(decl, base) \
    decl(base##_sse41);              \
    decl(base##_avx2);               \
    decl(base##_avx512)

/* rl_choose_table (huffman_count.h): best Huffman table for the pairs
 * ix[0..end), its bits added to *bits. */
#define RL_DECL_CHOOSE_TABLE(name) int (name)(const int *ix, const int *end, int *bits)
typedef RL_DECL_CHOOSE_TABLE(*RlChooseTableFn);
RL_DSP_LEVEL_FNS(RL_DECL_CHOOSE_TABLE, rl_choose_table);

/* rl_psy_spread (psy_spread.h): spread thresholds ecb[b] and tonal limits
 * cap[b] of the partitions of gd. */
#define RL_DECL_SPREAD(name)                                                                     \
    void (name)(const struct RlPsyBands *gd, const float *eb, const float *max,                 \
                const unsigned char *idx, float *ecb, float *cap)
typedef RL_DECL_SPREAD(*RlSpreadFn);
RL_DSP_LEVEL_FNS(RL_DECL_SPREAD, rl_psy_spread);

/* rl_noise_x34_batch (noise_x34.h): the quantization noise of njobs
 * (band, step) pairs, each the scalar sum's float. */
#define RL_DECL_NOISE_X34(name)                                                                  \
    void (name)(const float *xr, const float *xr34, const struct RlNoiseJob *jobs, int njobs,   \
                float *noise)
typedef RL_DECL_NOISE_X34(*RlNoiseX34Fn);
RL_DSP_LEVEL_FNS(RL_DECL_NOISE_X34, rl_noise_x34_batch);

/* rl_xrpow_lines (quantize_common.h): |xr|^(3/4) of n lines. */
#define RL_DECL_XRPOW(name) float (name)(const float *xr, float *xrpow, int n, float *absmax)
typedef RL_DECL_XRPOW(*RlXrpowFn);
RL_DSP_LEVEL_FNS(RL_DECL_XRPOW, rl_xrpow_lines);

/* rl_count1_region (huffman_count.h): where the trailing zero pairs of
 * ix[0..n) start and, below that, the quadruples of values <= 1 with their
 * bits in both count1 tables. */
#define RL_DECL_COUNT1(name) int (name)(const int *ix, int n, int *big_values, int bits[2])
typedef RL_DECL_COUNT1(*RlCount1Fn);
RL_DSP_LEVEL_FNS(RL_DECL_COUNT1, rl_count1_region);

/* rl_amplify_lines (quantize_outer.h): n lines times amp in place, and
 * the largest of max and the products. */
#define RL_DECL_AMPLIFY(name) float (name)(float *x, int n, float amp, float max)
typedef RL_DECL_AMPLIFY(*RlAmplifyFn);
RL_DSP_LEVEL_FNS(RL_DECL_AMPLIFY, rl_amplify_lines);

/* rl_substep_lines (huffman_count.h): ix[i] = 0 where xrpow[i] < roundfac,
 * for i < n (the substep truncation of -q 0..2). */
#define RL_DECL_SUBSTEP(name) void (name)(int *ix, const float *xrpow, int n, float roundfac)
typedef RL_DECL_SUBSTEP(*RlSubstepFn);
RL_DSP_LEVEL_FNS(RL_DECL_SUBSTEP, rl_substep_lines);

/* rl_quantize_lines (huffman_count.h): n lines quantized at one step. */
#define RL_DECL_QUANTIZE_LINES(name) void (name)(unsigned int n, float istep, const float *xp, int *ix)
typedef RL_DECL_QUANTIZE_LINES(*RlQuantLinesFn);
RL_DSP_LEVEL_FNS(RL_DECL_QUANTIZE_LINES, rl_quantize_lines);

/* rl_window_granule (polyphase_window.h): one granule's polyphase rows. */
#define RL_DECL_WINDOW_GRANULE(name) void (name)(const float *x, float sb[18][32])
typedef RL_DECL_WINDOW_GRANULE(*RlWindowGranuleFn);
RL_DSP_LEVEL_FNS(RL_DECL_WINDOW_GRANULE, rl_window_granule);

/* rl_attack_fir (attack.h): the attack detector's high-pass. */
#define RL_DECL_ATTACK_FIR(name) void (name)(const float *firbuf, float hpf[576])
typedef RL_DECL_ATTACK_FIR(*RlAttackFirFn);
RL_DSP_LEVEL_FNS(RL_DECL_ATTACK_FIR, rl_attack_fir);

/* rl_block_peaks (attack.h): the peaks of the nine attack blocks. */
#define RL_DECL_BLOCK_PEAKS(name) void (name)(const float *pf, float peaks[9])
typedef RL_DECL_BLOCK_PEAKS(*RlBlockPeaksFn);
RL_DSP_LEVEL_FNS(RL_DECL_BLOCK_PEAKS, rl_block_peaks);

/* rl_gain_filter (replaygain.h): the ReplayGain filters over n samples. */
#define RL_DECL_GAIN_FILTER(name) \
    void (name)(int freqindex, const float *in, float *step, float *out, long n)
typedef RL_DECL_GAIN_FILTER(*RlGainFilterFn);
RL_DSP_LEVEL_FNS(RL_DECL_GAIN_FILTER, rl_gain_filter);

/* rl_fht (fft.h): the psy model's Hartley transform, in place. */
#define RL_DECL_FHT(name) void (name)(float *fz, int half)
typedef RL_DECL_FHT(*RlFhtFn);
RL_DSP_LEVEL_FNS(RL_DECL_FHT, rl_fht);

/* rl_mdct_long (mdct.h): the long-block MDCT of a granule's 32 bands. */
#define RL_DECL_MDCT_LONG(name) \
    void (name)(const float *prev, const float *cur, const float *wt, float xr[576])
typedef RL_DECL_MDCT_LONG(*RlMdctLongFn);
RL_DSP_LEVEL_FNS(RL_DECL_MDCT_LONG, rl_mdct_long);

/* rl_pcm_s16le (dispatch.h): 16-bit PCM to the input floats. */
#define RL_DECL_PCM_S16LE(name)                                                                  \
    void (name)(const void *src, int n, int nch, const float m[4], float *ib0, float *ib1)
typedef RL_DECL_PCM_S16LE(*RlPcmS16Fn);
RL_DSP_LEVEL_FNS(RL_DECL_PCM_S16LE, rl_pcm_s16le);

/* rl_ms_thresholds (psy.h): Resolve's M/S thresholds. */
#define RL_DECL_MS_THRESHOLDS(name)                                                              \
    void (name)(const float eb[4][64], float thr[4][64], const float *cb_mld,                   \
                const float *ath_cb, float athlower, float msfix, int n)
typedef RL_DECL_MS_THRESHOLDS(*RlMsThresholdsFn);
RL_DSP_LEVEL_FNS(RL_DECL_MS_THRESHOLDS, rl_ms_thresholds);

/* Every field after level is a kernel (tests/checkasm.c walks them). */
typedef struct RlDsp {
    int level;        /* the RL_SIMD_* the table was built for */
    RlChooseTableFn choose_table;
    RlSpreadFn spread;
    RlNoiseX34Fn noise_x34;
    RlXrpowFn xrpow;
    RlQuantLinesFn quantize_lines;
    RlCount1Fn count1;
    RlAmplifyFn amplify;
    RlSubstepFn substep;
    RlWindowGranuleFn window_granule;
    RlAttackFirFn attack_fir;
    RlBlockPeaksFn block_peaks;
    RlGainFilterFn gain_filter;
    RlFhtFn fht;
    RlMdctLongFn mdct_long;
    RlPcmS16Fn pcm_s16le;
    RlMsThresholdsFn ms_thresholds;
} RlDsp;

/* The table of level (clamped to RL_SIMD_SCALAR..RL_SIMD_AVX512; a build
 * without the x86 kernels has the scalar table at every level): built on
 * the first call for that level, with the shared tables its kernels read,
 * then valid and unchanged for the process.  Any thread.  The caller
 * checks level <= rl_cpu_simd_level() before calling a kernel of it. */
const RlDsp *rl_dsp_table_at(int level);

#endif
