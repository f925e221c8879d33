/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: CPU level detection and the DSP table (dsp.h). */
#include "dsp.h"

#include <errno.h>
#include <stddef.h>
#include <strings.h>

#include "fast_log.h"
#include "huffman_count.h"
#include "psy_spread.h"
#include "noise_x34.h"
#include "window_rows.h"
#include "quantize_common.h"
#include "attack_fir.h"
#include "fft.h"

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

static const RlDsp scalar_dsp = { rl_choose_table, rl_psy_spread, rl_noise_x34_batch, rl_window_rows,
                                  rl_xrpow_lines, rl_attack_fir, rl_fht,
                                  rl_quantize_lines, RL_SIMD_SCALAR };

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

RlNoiseX34Fn rl_dsp_noise_x34_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    switch (level) {
    case RL_SIMD_AVX2:   return rl_noise_x34_avx2;
    case RL_SIMD_AVX512: return rl_noise_x34_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_noise_x34_batch : NULL;
}

RlWindowRowsFn rl_dsp_window_rows_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    if (level >= RL_SIMD_AVX2)
        rl_window_wide_init();   /* the kernels read rl_window_wide */
    switch (level) {
    case RL_SIMD_AVX2:   return rl_window_rows_avx2;
    case RL_SIMD_AVX512: return rl_window_rows_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_window_rows : NULL;
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

RlAttackFirFn rl_dsp_attack_fir_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    switch (level) {
    case RL_SIMD_AVX2:   return rl_attack_fir_avx2;
    case RL_SIMD_AVX512: return rl_attack_fir_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_attack_fir : NULL;
}

RlDspFhtFn rl_dsp_fht_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    switch (level) {
    case RL_SIMD_AVX2:   return rl_fht_avx2;
    case RL_SIMD_AVX512: return rl_fht_avx512;
    default:             break;
    }
#endif
    return level == RL_SIMD_SCALAR ? rl_fht : NULL;
}

RlQuantLinesFn rl_dsp_quantize_lines_at(int level)
{
#if defined(RL_HAVE_X86_SIMD)
    switch (level) {
    case RL_SIMD_AVX2:   return rl_quantize_lines_avx2;
    case RL_SIMD_AVX512: return rl_quantize_lines_avx512;
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
        d->window_rows = rl_dsp_window_rows_at(RL_SIMD_AVX2);
        d->xrpow = rl_xrpow_avx2;
        d->attack_fir = rl_attack_fir_avx2;
        d->fht = rl_fht_avx2;
        d->quantize_lines = rl_quantize_lines_avx2;
    }
    if (level >= RL_SIMD_AVX512) {
        d->choose_table = rl_choose_table_avx512;
        d->noise_x34 = rl_noise_x34_avx512;
        d->window_rows = rl_dsp_window_rows_at(RL_SIMD_AVX512);
        d->xrpow = rl_xrpow_avx512;
        d->attack_fir = rl_attack_fir_avx512;
        d->fht = rl_fht_avx512;
        d->quantize_lines = rl_quantize_lines_avx512;
    }
#else
    d->level = RL_SIMD_SCALAR;
#endif
}
