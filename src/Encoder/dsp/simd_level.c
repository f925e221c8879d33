/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the SIMD levels' names and the CPU's level (simd.h). */
#include "simd.h"

#include <errno.h>
#include <stddef.h>
#include <strings.h>

#if defined(RL_HAVE_X86_SIMD)
#include <cpuid.h>
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
