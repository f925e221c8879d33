/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the x86 kernels, one file per ISA level (compiled with that
 * level's flags; called only through RlDsp when the CPU has it), and the
 * tables they share. */
#ifndef RL_X86_KERNELS_H
#define RL_X86_KERNELS_H

#include <stdint.h>

/* Pair lengths of the three-table groups (7..9, 10..12, 13..15) and of
 * table 1, widened to 32 bits: byte k is the length in table first + k.
 * p1, p23, p56: table 1 and the packed rl_table23/rl_table56, zero-padded
 * to 16 entries (one ZMM register). */
typedef struct RlHcWide {
    uint32_t p1[16];
    uint32_t p23[16];
    uint32_t p56[16];
    uint32_t g7[64];        /* 36 used; 64 for two-register look-ups */
    uint32_t g10[64];
    uint32_t g13[256];
} RlHcWide;

/* Filled by rl_hc_wide_init (once per process, any thread may call it);
 * the kernels read it only after rl_dsp_init has called it. */
extern RlHcWide rl_hc_wide;
void rl_hc_wide_init(void);

int rl_choose_table_sse41(const int *ix, const int *end, int *bits);
int rl_choose_table_avx2(const int *ix, const int *end, int *bits);
int rl_choose_table_avx512(const int *ix, const int *end, int *bits);

/* rl_psy_spread (psy_spread.h), several partitions at once */
struct RlPsyBands;
void rl_psy_spread_sse41(const struct RlPsyBands *gd, const float *eb, const float *max,
                         const unsigned char *idx, float *ecb, float *cap);
void rl_psy_spread_avx2(const struct RlPsyBands *gd, const float *eb, const float *max,
                        const unsigned char *idx, float *ecb, float *cap);
void rl_psy_spread_avx512(const struct RlPsyBands *gd, const float *eb, const float *max,
                          const unsigned char *idx, float *ecb, float *cap);

/* The Prepare-side and ReplayGain kernels (prepare_body.h), one set per
 * level: the polyphase rows (rl_window_granule, polyphase_window.h), the
 * attack high-pass and peaks (attack.h), the ReplayGain filters
 * (rl_gain_filter, replaygain.h). */
/* rl_poly_rows[m][j] = rl_enwindow[18 j + m] (row j, 0 for j = 15); filled
 * by rl_poly_rows_init, which rl_dsp_init calls before selecting them. */
extern float rl_poly_rows[18][16];
/* rl_fht_tw[s][0..3][i]: c1, s1, c2, s2 of rl_fht's stage s at i
 * (rl_fht_twiddles), filled with rl_poly_rows. */
extern float rl_fht_tw[4][4][128];
void rl_poly_rows_init(void);
#define RL_PREP_DECLARE(sfx)                                                            \
    void rl_window_granule_##sfx(const float *x, float sb[18][32]);                      \
    void rl_attack_fir_##sfx(const float *firbuf, float hpf[576]);                       \
    void rl_block_peaks_##sfx(const float *pf, float peaks[9]);                          \
    void rl_gain_filter_##sfx(int freqindex, const float *in, float *step, float *out, long n); \
    void rl_fht_##sfx(float *fz, int half);                                               \
    void rl_pcm_s16le_##sfx(const void *src, int n, int nch, const float m[4], float *ib0, float *ib1); \
    void rl_ms_thresholds_##sfx(const float eb[4][64], float thr[4][64], const float *cb_mld,     \
                                const float *ath_cb, float athlower, float msfix, int n);
RL_PREP_DECLARE(sse41)
RL_PREP_DECLARE(avx2)
RL_PREP_DECLARE(avx512)
/* rl_mdct_long (mdct.h), sixteen bands per vector: AVX-512 only (its band
 * order is one two-register permute per slot) */
void rl_mdct_long_avx512(const float *prev, const float *cur, const float *wt, float *xr);

/* rl_noise_x34_batch (noise_x34.h): four jobs side by side (AVX2), two
 * passes over the jobs laid end to end (AVX-512) */
struct RlNoiseJob;
void rl_noise_x34_avx2(const float *xr, const float *xr34, const struct RlNoiseJob *jobs, int njobs,
                       float *noise);
void rl_noise_x34_avx512(const float *xr, const float *xr34, const struct RlNoiseJob *jobs,
                         int njobs, float *noise);

/* rl_xrpow_lines (quantize_common.h): 4 (AVX2), 8 (AVX-512) lines at once */
float rl_xrpow_avx2(const float *xr, float *xrpow, int n, float *absmax);
float rl_xrpow_avx512(const float *xr, float *xrpow, int n, float *absmax);

/* rl_quantize_lines (huffman_count.h): four lines per vector (AVX2),
 * sixteen with the threshold comparison (AVX-512) */
void rl_quantize_lines_avx2(unsigned int n, float istep, const float *xp, int *ix);
void rl_quantize_lines_avx512(unsigned int n, float istep, const float *xp, int *ix);

#endif
