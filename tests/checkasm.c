/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: every kernel of the DSP table (src/Encoder/dsp/dsp.h) at every
 * SIMD level this CPU has, against the scalar kernel: random and
 * adversarial inputs, exact comparison.  Levels the CPU (or the build) lacks
 * are reported as skipped.
 *   checkasm           the comparison (CTest test checkasm)
 *   checkasm --bench   also each kernel's speed-up per level */
#include "harness.h"

#include <time.h>

#include "dsp.h"
#include "huffman_count.h"

#define BUF 640              /* 576 values and room for a pair past an odd end */

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t) (rng_state >> 33);
}

/* Values 0..vmax, with a chance of pinning one to vmax. */
static void fill(int *ix, int n, int vmax, int dens)
{
    for (int i = 0; i < BUF; i++)
        ix[i] = 0;
    for (int i = 0; i < n; i++) {
        int v = (int) (rnd() % (uint32_t) (vmax + 1));
        if ((int) (rnd() % 100) >= dens)
            v = 0;
        ix[i] = v;
    }
    if (n > 0 && rnd() % 2)
        ix[rnd() % (uint32_t) n] = vmax;
}

static int compare_one(const RlDsp *d, const int *ix, int n, int bits0, const char *what)
{
    int b_ref = bits0, b_got = bits0;
    int t_ref = rl_choose_table(ix, ix + n, &b_ref);
    int t_got = d->choose_table(ix, ix + n, &b_got);
    return CHECK(t_ref == t_got && b_ref == b_got,
                 "choose_table %s, %s n=%d: table %d bits %d, scalar table %d bits %d",
                 rl_simd_name(d->level), what, n, t_got, b_got, t_ref, b_ref);
}

/* The largest value of each table region: 0, 1, 2, 3, 4..15, escapes, too large. */
static const int region_max[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 30, 31, 46, 47, 78, 79,
                                  270, 271, 1038, 1039, 8206, 8207, 9000 };

static void check_choose_table(const RlDsp *d)
{
    static int ix[BUF];
    static const int lengths[] = { 0, 1, 2, 3, 4, 6, 8, 14, 15, 16, 17, 18, 30, 31, 32, 33, 34,
                                   46, 62, 64, 66, 94, 126, 128, 130, 288, 418, 574, 575, 576 };
    int nl = (int) (sizeof lengths / sizeof lengths[0]);
    int nr = (int) (sizeof region_max / sizeof region_max[0]);
    int fails = 0;

    /* all zero, every region at every length, dense and sparse */
    for (int li = 0; li < nl; li++) {
        int n = lengths[li];
        for (int ri = 0; ri < nr; ri++) {
            for (int dens = 5; dens <= 100; dens += 95) {
                fill(ix, n, region_max[ri], dens);
                fails += !compare_one(d, ix, n, (int) (rnd() % 5000), "region");
            }
            /* every value at its region's maximum */
            for (int i = 0; i < BUF; i++)
                ix[i] = i < n ? region_max[ri] : 0;
            fails += !compare_one(d, ix, n, 0, "all-max");
        }
        for (int i = 0; i < BUF; i++)
            ix[i] = 0;
        fails += !compare_one(d, ix, n, 17, "all-zero");
    }
    /* random lengths and values */
    for (int k = 0; k < 20000 && fails < 10; k++) {
        int n = (int) (rnd() % 577);
        int vmax = region_max[rnd() % (uint32_t) nr];
        fill(ix, n, vmax, (int) (rnd() % 101));
        fails += !compare_one(d, ix, n, (int) (rnd() % 100000), "random");
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ns per call over a mix of lengths and regions like an encode's. */
static double bench_choose_table(RlChooseTableFn fn)
{
    enum { SETS = 64 };
    static int ix[SETS][BUF];
    static int len[SETS];
    static const int mix_max[] = { 1, 2, 3, 5, 7, 15, 30, 100 };
    uint64_t saved = rng_state;
    rng_state = 42;
    for (int s = 0; s < SETS; s++) {
        len[s] = 2 * (int) (8 + rnd() % 200);
        fill(ix[s], len[s], mix_max[s % 8], 60);
    }
    rng_state = saved;
    int bits = 0;
    volatile int sink = 0;
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int it = 0; it < 2000; it++)
            for (int s = 0; s < SETS; s++)
                sink += fn(ix[s], ix[s] + len[s], &bits);
        double t = (now() - t0) / (2000.0 * SETS) * 1e9;
        if (t < best)
            best = t;
    }
    (void) sink;
    return best;
}

int main(int argc, char **argv)
{
    int const bench = argc > 1 && strcmp(argv[1], "--bench") == 0;
    int const cpu = rl_cpu_simd_level();
    rng_state = (uint64_t) rl_test_seed(1);
    double base = 0;

    printf("CPU level: %s\n", rl_simd_name(cpu));
    for (int level = RL_SIMD_SCALAR; level < RL_SIMD_LEVELS; level++) {
        if (level > cpu) {
            printf("choose_table %-7s skipped (not on this CPU or build)\n", rl_simd_name(level));
            continue;
        }
        RlDsp d;
        rl_dsp_init(&d, level);
        CHECK_EQ(d.level, level, "rl_dsp_init level");
        if (level > RL_SIMD_SCALAR) {
            int before = rl_test_failed_;
            check_choose_table(&d);
            printf("choose_table %-7s %s\n", rl_simd_name(level),
                   rl_test_failed_ == before ? "ok" : "FAILED");
        }
        if (bench) {
            double ns = bench_choose_table(d.choose_table);
            if (level == RL_SIMD_SCALAR)
                base = ns;
            printf("bench choose_table %-7s %7.1f ns/call  x%.2f\n", rl_simd_name(level), ns,
                   base / ns);
        }
    }
    return rl_test_done();
}
