/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: CPU level detection and the DSP table (dsp.h). */
#include "dsp.h"

#include <errno.h>
#include <stddef.h>
#include <strings.h>

#include "fast_log.h"
#include "fft.h"
#include "attack.h"
#include "huffman_count.h"
#include "dispatch.h"
#include "mdct.h"
#include "polyphase_window.h"
#include "psy_spread.h"
#include "replaygain.h"
#include "noise_x34.h"
#include "quantize_common.h"

#if defined(RL_HAVE_X86_SIMD)
#include <cpuid.h>
#include "x86/x86_kernels.h"
#endif

static const char *const level_names[RL_SIMD_LEVELS] = { "scalar", "sse4.1", "avx2", "avx512" };

const char *rl_simd_name(int level)
{
    if (level < 0 || level >= RL_SIMD_LEVELS)
        return NULL;
    return level_names[level];
}

int rl_simd_parse(const char *name)
{
    if (name == NULL)
        return -EINVAL;
    for (int i = 0; i < RL_SIMD_LEVELS; i++)
        if (strcasecmp(name, level_names[i]) == 0)
            return i;
    return -EINVAL;
}

#if defined(RL_HAVE_X86_SIMD)
static unsigned long long read_xcr0(void)
{
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long) hi << 32) | lo;
}

static int detect_x86(void)
{
    unsigned int a, b, c, d;
    unsigned int max_leaf = __get_cpuid_max(0, NULL);

    if (max_leaf < 1 || !__get_cpuid(1, &a, &b, &c, &d))
        return RL_SIMD_SCALAR;
    if (!(c & bit_SSE4_1))
        return RL_SIMD_SCALAR;
    int level = RL_SIMD_SSE41;
    if (!(c & bit_OSXSAVE) || !(c & bit_AVX) || max_leaf < 7)
        return level;

    unsigned long long xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6)                /* XMM and YMM state */
        return level;
    __cpuid_count(7, 0, a, b, c, d);
    if (!(b & bit_AVX2))
        return level;
    level = RL_SIMD_AVX2;
    if ((xcr0 & 0xe6) != 0xe6)              /* plus opmask, ZMM_Hi256, Hi16_ZMM */
        return level;
    if ((b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL))
        level = RL_SIMD_AVX512;
    return level;
}
#endif

int rl_cpu_simd_level(void)
{
#if defined(RL_HAVE_X86_SIMD)
    return detect_x86();
#else
    return RL_SIMD_SCALAR;
#endif
}

static const RlDsp scalar_dsp = {
    .choose_table = rl_choose_table,
    .spread = rl_psy_spread,
    .noise_x34 = rl_noise_x34_batch,
    .xrpow = rl_xrpow_lines,
    .quantize_lines = rl_quantize_lines,
    .level = RL_SIMD_SCALAR,
    .window_granule = rl_window_granule,
    .attack_fir = rl_attack_fir,
    .block_peaks = rl_block_peaks,
    .gain_filter = rl_gain_filter,
    .fht = rl_fht,
    .mdct_long = rl_mdct_long,
    .pcm_s16le = rl_pcm_s16le,
    .ms_thresholds = rl_ms_thresholds,
};

const RlDsp *rl_dsp_scalar(void)
{
    return &scalar_dsp;
}

/* The lowest level whose spread kernel the table selects.  Measured (-V 4,
 * one thread, best of 5 user times): 0.59 s -> 0.51 s at sse4.1, 0.58 ->
 * 0.52 at avx2, 0.57 -> 0.49 at avx512, although checkasm --bench's
 * synthetic inputs (well-predicted branches for the scalar code) show the
 * kernels slower.  -DRL_SPREAD_MIN_LEVEL=9 leaves them out (to re-measure). */
#ifndef RL_SPREAD_MIN_LEVEL
#define RL_SPREAD_MIN_LEVEL RL_SIMD_SSE41
#endif

RlSpreadFn rl_dsp_spread_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    if (level >= RL_SIMD_SSE41)
        rl_fast_log_init();      /* the kernels read rl_fast_log_tab */
    switch (level) {
    case RL_SIMD_SSE41:  return rl_psy_spread_sse41;
    case RL_SIMD_AVX2:   return rl_psy_spread_avx2;
    case RL_SIMD_AVX512: return rl_psy_spread_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_psy_spread : NULL;
}

#if defined(RL_HAVE_X86_SIMD)
/* The Prepare-side and ReplayGain kernels of level (x86_kernels.h). */
static void prepare_init(RlDsp *d, int level)
{
    if (level < RL_SIMD_SSE41)
        return;
    rl_poly_rows_init();
#define RL_PREP_SET(sfx)                              \
    do {                                              \
        d->window_granule = rl_window_granule_##sfx;  \
        d->attack_fir = rl_attack_fir_##sfx;          \
        d->block_peaks = rl_block_peaks_##sfx;        \
        d->gain_filter = rl_gain_filter_##sfx;        \
        d->pcm_s16le = rl_pcm_s16le_##sfx;            \
        d->ms_thresholds = rl_ms_thresholds_##sfx;    \
        d->fht = rl_fht_##sfx;                        \
    } while (0)
    if (level == RL_SIMD_SSE41)
        RL_PREP_SET(sse41);
    else if (level == RL_SIMD_AVX2)
        RL_PREP_SET(avx2);
    else {
        RL_PREP_SET(avx512);
        /* sixteen lanes end in a longer reduction than they save on 64 values */
        d->block_peaks = rl_block_peaks_avx2;
        d->mdct_long = rl_mdct_long_avx512;   /* 16 bands per vector (prepare_body.h) */
    }
#undef RL_PREP_SET
}
#endif

RlNoiseX34Fn rl_dsp_noise_x34_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    switch (level) {
    case RL_SIMD_AVX2:   return rl_noise_x34_avx2;
    case RL_SIMD_AVX512: rl_x34_thr_init(); return rl_noise_x34_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_noise_x34_batch : NULL;
}

RlXrpowFn rl_dsp_xrpow_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    switch (level) {
    case RL_SIMD_AVX2:   return rl_xrpow_avx2;
    case RL_SIMD_AVX512: return rl_xrpow_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_xrpow_lines : NULL;
}

RlQuantLinesFn rl_dsp_quantize_lines_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    switch (level) {
    case RL_SIMD_AVX2:   return rl_quantize_lines_avx2;
    case RL_SIMD_AVX512: rl_x34_thr_init(); return rl_quantize_lines_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_quantize_lines : NULL;
}

void rl_dsp_init(RlDsp *d, int level)
{
    if (level < RL_SIMD_SCALAR)
        level = RL_SIMD_SCALAR;
    if (level > RL_SIMD_AVX512)
        level = RL_SIMD_AVX512;
    *d = scalar_dsp;
    d->level = level;
#if defined(RL_HAVE_X86_SIMD)
    if (level >= RL_SIMD_SSE41) {
        rl_hc_wide_init();
        d->choose_table = rl_choose_table_sse41;
    }
    if (level >= RL_SPREAD_MIN_LEVEL)
        d->spread = rl_dsp_spread_at(level);
    if (level >= RL_SIMD_AVX2) {
        d->choose_table = rl_choose_table_avx2;
        d->noise_x34 = rl_noise_x34_avx2;
        d->xrpow = rl_xrpow_avx2;
        d->quantize_lines = rl_quantize_lines_avx2;
    }
    if (level >= RL_SIMD_AVX512) {
        rl_x34_thr_init();       /* the noise and line kernels round by comparison */
        d->choose_table = rl_choose_table_avx512;
        d->noise_x34 = rl_noise_x34_avx512;
        d->xrpow = rl_xrpow_avx512;
        d->quantize_lines = rl_quantize_lines_avx512;
    }
    prepare_init(d, level);
#else
    d->level = RL_SIMD_SCALAR;
#endif
}
