/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the x86 kernels' table entries, one ladder over the levels
 * (each step overrides the entries of the level below that it improves;
 * a level the CPU lacks is never built for use).  Each kernel file's
 * shared tables are built here, before its entry is set. */
#include "x86_kernels.h"

#include "fast_log.h"
#include "noise_x34.h"

void rl_dsp_init_x86(RlDsp *d, int level)
{
    if (level < RL_SIMD_SSE41)
        return;
    rl_hc_wide_init();        /* huffman_count_*.c, count1_*.c: the widened code lengths */
    rl_fast_log_init();       /* spread_*.c: rl_fast_log_tab */
    rl_poly_rows_init();      /* prepare_*.c: the polyphase rows, the FHT twiddles */
    d->choose_table = rl_choose_table_sse41;
    d->count1 = rl_count1_region_sse41;
    /* amplify stays sse4.1's at every level: its bands are 4 to 76 lines,
     * and the wider kernels' masked ends and reductions cost more than
     * they save (checkasm --bench: avx2 and avx512 slower than sse4.1) */
    d->amplify = rl_amplify_lines_sse41;
    d->substep = rl_substep_lines_sse41;
    /* the spreading kernels in the encoder: -V 4, one thread, best of 5
     * user times, 0.59 s -> 0.51 s at sse4.1, 0.58 -> 0.52 at avx2, 0.57 ->
     * 0.49 at avx512 */
    d->spread = rl_psy_spread_sse41;
    d->window_granule = rl_window_granule_sse41;
    d->attack_fir = rl_attack_fir_sse41;
    d->block_peaks = rl_block_peaks_sse41;
    d->gain_filter = rl_gain_filter_sse41;
    d->fht = rl_fht_sse41;
    d->pcm_s16le = rl_pcm_s16le_sse41;
    d->ms_thresholds = rl_ms_thresholds_sse41;

    if (level < RL_SIMD_AVX2)
        return;
    d->choose_table = rl_choose_table_avx2;
    /* count1 stays sse4.1's: sixteen lines narrowed to bytes in one
     * register test as fast as two AVX2 registers (checkasm --bench) */
    d->spread = rl_psy_spread_avx2;
    d->noise_x34 = rl_noise_x34_batch_avx2;
    d->xrpow = rl_xrpow_lines_avx2;
    d->quantize_lines = rl_quantize_lines_avx2;
    d->window_granule = rl_window_granule_avx2;
    d->attack_fir = rl_attack_fir_avx2;
    d->block_peaks = rl_block_peaks_avx2;
    d->gain_filter = rl_gain_filter_avx2;
    d->fht = rl_fht_avx2;
    d->pcm_s16le = rl_pcm_s16le_avx2;
    d->ms_thresholds = rl_ms_thresholds_avx2;

    if (level < RL_SIMD_AVX512)
        return;
    rl_x34_thr_init();        /* x34_avx512.c: the noise and line kernels round by comparison */
    d->choose_table = rl_choose_table_avx512;
    d->count1 = rl_count1_region_avx512;
    d->substep = rl_substep_lines_avx512;
    d->spread = rl_psy_spread_avx512;
    d->noise_x34 = rl_noise_x34_batch_avx512;
    d->xrpow = rl_xrpow_lines_avx512;
    d->quantize_lines = rl_quantize_lines_avx512;
    d->window_granule = rl_window_granule_avx512;
    d->attack_fir = rl_attack_fir_avx512;
    /* block_peaks stays avx2's: sixteen lanes end in a longer reduction
     * than they save on 64 values */
    d->gain_filter = rl_gain_filter_avx512;
    d->fht = rl_fht_avx512;
    d->mdct_long = rl_mdct_long_avx512;   /* 16 bands per vector (prepare_body.h) */
    d->pcm_s16le = rl_pcm_s16le_avx512;
    d->ms_thresholds = rl_ms_thresholds_avx512;
}
