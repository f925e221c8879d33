/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the DSP tables (dsp.h): the scalar kernels, and per level the
 * architecture's ladder over them (x86/dsp_init_x86.c). */
#include "dsp.h"

#include <pthread.h>

#include "attack.h"
#include "dispatch.h"
#include "fft.h"
#include "huffman_count.h"
#include "mdct.h"
#include "noise_x34.h"
#include "polyphase_window.h"
#include "psy.h"
#include "psy_spread.h"
#include "quantize_common.h"
#include "quantize_outer.h"
#include "replaygain.h"

#if defined(RL_HAVE_X86_SIMD)
#include "x86/x86_kernels.h"
#define TOP_LEVEL RL_SIMD_AVX512
#else
#define TOP_LEVEL RL_SIMD_SCALAR
#endif

static const RlDsp scalar_dsp = {
    .level = RL_SIMD_SCALAR,
    .choose_table = rl_choose_table,
    .spread = rl_psy_spread,
    .noise_x34 = rl_noise_x34_batch,
    .xrpow = rl_xrpow_lines,
    .quantize_lines = rl_quantize_lines,
    .count1 = rl_count1_region,
    .amplify = rl_amplify_lines,
    .substep = rl_substep_lines,
    .window_granule = rl_window_granule,
    .attack_fir = rl_attack_fir,
    .block_peaks = rl_block_peaks,
    .gain_filter = rl_gain_filter,
    .fht = rl_fht,
    .mdct_long = rl_mdct_long,
    .pcm_s16le = rl_pcm_s16le,
    .ms_thresholds = rl_ms_thresholds,
};

static RlDsp tables[TOP_LEVEL + 1];

static void build(int level)
{
    tables[level] = scalar_dsp;
    tables[level].level = level;
#if defined(RL_HAVE_X86_SIMD)
    rl_dsp_init_x86(&tables[level], level);
#endif
}

/* pthread_once takes no argument: one builder per level */
static void build_scalar(void) { build(RL_SIMD_SCALAR); }
#if defined(RL_HAVE_X86_SIMD)
static void build_sse41(void) { build(RL_SIMD_SSE41); }
static void build_avx2(void) { build(RL_SIMD_AVX2); }
static void build_avx512(void) { build(RL_SIMD_AVX512); }
#endif

static void (*const builders[TOP_LEVEL + 1])(void) = {
    build_scalar,
#if defined(RL_HAVE_X86_SIMD)
    build_sse41, build_avx2, build_avx512,
#endif
};
static pthread_once_t built[TOP_LEVEL + 1] = {
    PTHREAD_ONCE_INIT,
#if defined(RL_HAVE_X86_SIMD)
    PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
#endif
};

const RlDsp *rl_dsp_table_at(int level)
{
    if (level < RL_SIMD_SCALAR)
        level = RL_SIMD_SCALAR;
    if (level > TOP_LEVEL)
        level = TOP_LEVEL;
    (void) pthread_once(&built[level], builders[level]);
    return &tables[level];
}
