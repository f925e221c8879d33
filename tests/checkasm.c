/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the kernels of the DSP tables (src/Encoder/dsp/dsp.h) against
 * the scalar ones: random and adversarial inputs, exact comparison, guard
 * bytes around every output.  At each SIMD level only the entries that
 * differ from the level below are tested (the others were tested there).
 *   checkasm                  every level this CPU and build have
 *   --function PATTERN        only the kernels whose name matches the glob
 *                             PATTERN or starts with it (names: --list)
 *   --level NAME              no level above NAME (also RINGLAME_SIMD)
 *   --seed N                  the inputs' seed (else RL_TEST_SEED, else 1);
 *                             every run prints the seed it used
 *   --bench                   also each tested kernel's time and speed-up
 *   --list                    the kernel names
 * The summary names each level tested or skipped; a run that compared no
 * kernel (a CPU or build without SIMD, a filter that matches nothing)
 * exits 77 (skipped). */
#include "harness.h"

#include <fnmatch.h>
#include <stddef.h>
#include <time.h>

#include "attack.h"
#include "dispatch.h"
#include "dsp.h"
#include "fast_log.h"
#include "fft.h"
#include "huffman_count.h"
#include "mdct.h"
#include "noise_x34.h"
#include "polyphase_window.h"
#include "psy.h"
#include "psy_spread.h"
#include "quant_tables.h"
#include "quantize_common.h"
#include "replaygain.h"
#include "rl_encoder.h"
#include "settings.h"
#include "stages.h"

/* ---- inputs ---- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t) (rng_state >> 33);
}

static float frnd(void)            /* [0, 1) */
{
    return (float) (rnd() >> 8) * (1.0f / 8388608.0f);
}

static int same_floats(const float *a, const float *b, int n)
{
    return memcmp(a, b, sizeof(float) * (size_t) n) == 0;
}

static int first_diff(const float *a, const float *b, int n)
{
    int i = 0;
    while (i < n && memcmp(&a[i], &b[i], sizeof(float)) == 0)
        i++;
    return i;
}

/* the first output index where a0, b0 or else a1, b1 differ (n: none) */
static int first_diff2(const float *a0, const float *a1, const float *b0, const float *b1, int n)
{
    return same_floats(a0, b0, n) ? first_diff(a1, b1, n) : first_diff(a0, b0, n);
}

/* ---- outputs: every buffer a kernel writes (the scalar one's and the
 * tested one's) is a slot with GUARD bytes of a known pattern before and
 * after it; a kernel that writes outside its buffer changes one ---- */

#define GUARD 64
#define SLOT_MAX 32768
#define SLOTS 4

static unsigned char slot_mem[SLOTS][GUARD + SLOT_MAX + GUARD] __attribute__((aligned(64)));
static size_t slot_size[SLOTS];

static unsigned char guard_byte(int i)
{
    return (unsigned char) (0xa5 ^ (i * 29));
}

/* Slot s as a buffer of size bytes, each byte fill (64-byte aligned). */
static void *slot(int s, size_t size, int fill)
{
    unsigned char *const m = slot_mem[s];
    if (size > SLOT_MAX)
        rl_test_fatal("slot %d: %zu bytes, at most %d", s, size, SLOT_MAX);
    slot_size[s] = size;
    for (int i = 0; i < GUARD; i++) {
        m[GUARD - 1 - i] = guard_byte(i);
        m[GUARD + size + (size_t) i] = guard_byte(i);
    }
    memset(m + GUARD, fill, size);
    return m + GUARD;
}

/* Two outputs of bytes each for the scalar kernel (slots 0, 1: o[0], o[1],
 * bytes 0x55) and two for the tested one (slots 2, 3: o[2], o[3], 0xaa). */
static void slots4(size_t bytes, float *o[4])
{
    for (int s = 0; s < 4; s++)
        o[s] = slot(s, bytes, s < 2 ? 0x55 : 0xaa);
}

/* Whether slots 0..n-1 kept their guards (a failure names the first byte
 * written outside). */
static int guards_ok(int n, const char *kernel, int level)
{
    for (int s = 0; s < n; s++) {
        const unsigned char *const m = slot_mem[s];
        int before = 0, after = 0;
        for (int i = 0; i < GUARD; i++) {
            if (!before && m[GUARD - 1 - i] != guard_byte(i))
                before = i + 1;
            if (!after && m[GUARD + slot_size[s] + (size_t) i] != guard_byte(i))
                after = i + 1;
        }
        if (!CHECK(!before && !after, "%s %s, output %d (%zu bytes): wrote %s, byte %d",
                   kernel, rl_simd_name(level), s, slot_size[s], before ? "before its start" : "past its end",
                   before ? -before : after - 1))
            return 0;
    }
    return 1;
}

/* ---- timing (CPU time: the machine is shared, other jobs must not
 * count) ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* best = ns per run of stmt (it: the run's index), best of reps runs of
 * iters */
#define BEST_NS(best, reps, iters, stmt)                                 \
    do {                                                                 \
        (best) = 1e30;                                                   \
        for (int rep_ = 0; rep_ < (reps); rep_++) {                      \
            double const t0_ = now();                                    \
            for (int it = 0; it < (iters); it++) {                       \
                stmt;                                                    \
            }                                                            \
            double const t_ = (now() - t0_) / (double) (iters) * 1e9;    \
            if (t_ < (best))                                             \
                (best) = t_;                                             \
        }                                                                \
    } while (0)

/* ---- choose_table ---- */

#define BUF 640              /* 576 values and room for a pair past an odd end */

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

static int compare_choose(const RlDsp *t, const RlDsp *s, const int *ix, int n, int bits0,
                          const char *what)
{
    int *const b_ref = slot(0, sizeof(int), 0);
    int *const b_got = slot(1, sizeof(int), 0);
    *b_ref = *b_got = bits0;
    int const t_ref = s->choose_table(ix, ix + n, b_ref);
    int const t_got = t->choose_table(ix, ix + n, b_got);
    return CHECK(t_ref == t_got && *b_ref == *b_got,
                 "choose_table %s, %s n=%d: table %d bits %d, scalar table %d bits %d",
                 rl_simd_name(t->level), what, n, t_got, *b_got, t_ref, *b_ref)
           && guards_ok(2, "choose_table", t->level);
}

/* The largest value of each table region: 0, 1, 2, 3, 4..15, escapes, too large. */
static const int region_max[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 30, 31, 46, 47, 78, 79,
                                  270, 271, 1038, 1039, 8206, 8207, 9000 };

static void check_choose_table(const RlDsp *t, const RlDsp *s)
{
    static int ix[BUF];
    static const int lengths[] = { 0, 1, 2, 3, 4, 6, 8, 14, 15, 16, 17, 18, 30, 31, 32, 33, 34,
                                   46, 62, 64, 66, 94, 126, 128, 130, 288, 418, 574, 575, 576 };
    int const nl = (int) (sizeof lengths / sizeof lengths[0]);
    int const nr = (int) (sizeof region_max / sizeof region_max[0]);
    int fails = 0;

    /* all zero, every region at every length, dense and sparse */
    for (int li = 0; li < nl; li++) {
        int const n = lengths[li];
        for (int ri = 0; ri < nr; ri++) {
            for (int dens = 5; dens <= 100; dens += 95) {
                fill(ix, n, region_max[ri], dens);
                fails += !compare_choose(t, s, ix, n, (int) (rnd() % 5000), "region");
            }
            /* every value at its region's maximum */
            for (int i = 0; i < BUF; i++)
                ix[i] = i < n ? region_max[ri] : 0;
            fails += !compare_choose(t, s, ix, n, 0, "all-max");
        }
        for (int i = 0; i < BUF; i++)
            ix[i] = 0;
        fails += !compare_choose(t, s, ix, n, 17, "all-zero");
    }
    /* random lengths and values */
    for (int k = 0; k < 20000 && fails < 10; k++) {
        int const n = (int) (rnd() % 577);
        int const vmax = region_max[rnd() % (uint32_t) nr];
        fill(ix, n, vmax, (int) (rnd() % 101));
        fails += !compare_choose(t, s, ix, n, (int) (rnd() % 100000), "random");
    }
}

/* ns per call over a mix of lengths and regions like an encode's. */
static double bench_choose_table(const RlDsp *t)
{
    enum { SETS = 64 };
    static int ix[SETS][BUF];
    static int len[SETS];
    static const int mix_max[] = { 1, 2, 3, 5, 7, 15, 30, 100 };
    RlChooseTableFn const fn = t->choose_table;
    uint64_t const saved = rng_state;
    rng_state = 42;
    for (int s = 0; s < SETS; s++) {
        len[s] = 2 * (int) (8 + rnd() % 200);
        fill(ix[s], len[s], mix_max[s % 8], 60);
    }
    rng_state = saved;
    int bits = 0;
    volatile int sink = 0;
    double best;
    BEST_NS(best, 5, 2000, for (int s = 0; s < SETS; s++) sink += fn(ix[s], ix[s] + len[s], &bits));
    (void) sink;
    return best / SETS;
}

/* ---- the encoders whose layouts the spread and noise checks use: the
 * psy partitions and scalefactor bands of every sample rate ---- */

static const int layout_rates[] = { 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000 };
#define NRATES ((int) (sizeof layout_rates / sizeof layout_rates[0]))
static RlEncoder *layout_enc[NRATES];
static const RlPsyBands *layouts[2 * NRATES];   /* long, short per rate */
static int nlayouts;

static void layouts_init(void)
{
    rl_fast_log_init();
    for (int r = 0; r < NRATES; r++) {
        RlOptions o;
        rl_options_defaults(&o);
        rl_set_in_samplerate(&o, layout_rates[r]);
        rl_set_out_samplerate(&o, layout_rates[r]);
        if (rl_encoder_create(&layout_enc[r], &o) != 0)
            rl_test_fatal("encoder at %d Hz", layout_rates[r]);
        layouts[nlayouts++] = &layout_enc[r]->k.psyc.l;
        layouts[nlayouts++] = &layout_enc[r]->k.psyc.s;
    }
}

static void layouts_free(void)
{
    for (int r = 0; r < NRATES; r++)
        rl_encoder_destroy(layout_enc[r]);
}

/* ---- spread ---- */

/* one energy of kind: 0 log-uniform 1e-30..1e30, 1 narrow 1..40 (ratios
 * around mask_add's thresholds), 2 equal, 3 tiny (denormal), 4 mixed with
 * zeros and negatives, 5 all zero */
static float energy(int kind)
{
    switch (kind) {
    case 0: return powf(10.0f, -30.0f + 60.0f * frnd());
    case 1: return 1.0f + 39.0f * frnd();
    case 2: return 1234.5f;
    case 3: return (float) (rnd() % 1000) * 1e-42f;
    case 4: {
        uint32_t const c = rnd() % 8;
        if (c == 0) return 0.0f;
        if (c == 1) return -0.0f;
        if (c == 2) return -powf(10.0f, -5.0f + 10.0f * frnd());
        return powf(10.0f, -10.0f + 20.0f * frnd());
    }
    default: return 0.0f;
    }
}

static int compare_spread(const RlDsp *t, const RlDsp *s, const RlPsyBands *gd, int kind, int ikind)
{
    float eb[RL_CBANDS], max[RL_CBANDS];
    unsigned char idx[RL_CBANDS + 2];
    for (int b = 0; b < RL_CBANDS; b++) {
        eb[b] = energy(kind);
        max[b] = eb[b] * frnd();
        idx[b] = (unsigned char) (ikind == 0 ? rnd() % 9 : ikind == 1 ? 0 : 8);
    }
    int const n = gd->npart;
    float *o[4];                       /* ecb, cap of the scalar kernel, then of t's */
    slots4(sizeof(float) * (size_t) n, o);
    float *const e0 = o[0], *const c0 = o[1], *const e1 = o[2], *const c1 = o[3];
    s->spread(gd, eb, max, idx, e0, c0);
    t->spread(gd, eb, max, idx, e1, c1);
    int const b = first_diff2(e0, c0, e1, c1, n);
    return CHECK(b == n, "spread %s, npart %d kind %d idx %d: b=%d ecb %a cap %a, scalar %a %a",
                 rl_simd_name(t->level), n, kind, ikind, b, b < n ? e1[b] : 0, b < n ? c1[b] : 0,
                 b < n ? e0[b] : 0, b < n ? c0[b] : 0)
           && guards_ok(4, "spread", t->level);
}

/* Every layout as the encoder built it (with its 16-lane plan where one
 * exists) and without the plan (the general kernel). */
static void check_spread(const RlDsp *t, const RlDsp *s)
{
    int fails = 0, planned = 0;
    for (int li = 0; li < nlayouts && fails < 10; li++) {
        RlPsyBands bare = *layouts[li];
        bare.plan = NULL;
        planned += layouts[li]->plan != NULL;
        for (int kind = 0; kind <= 5; kind++)
            for (int ikind = 0; ikind < 3; ikind++)
                for (int rep = 0; rep < (kind < 2 ? 300 : 20); rep++) {
                    fails += !compare_spread(t, s, layouts[li], kind, ikind);
                    if (layouts[li]->plan && rep < 20)
                        fails += !compare_spread(t, s, &bare, kind, ikind);
                }
    }
    CHECK(planned == nlayouts, "spread plans: %d of %d layouts", planned, nlayouts);
}

/* ns per call: long and short partitions of 44.1 kHz, music-like energies */
static double bench_spread(const RlDsp *t)
{
    enum { SETS = 32 };
    static float eb[SETS][RL_CBANDS], max[SETS][RL_CBANDS];
    static unsigned char idx[SETS][RL_CBANDS + 2];
    static float ecb[RL_CBANDS], cap[RL_CBANDS];
    RlSpreadFn const fn = t->spread;
    const RlPsyBands *gl = NULL, *gs = NULL;
    for (int r = 0; r < NRATES; r++)
        if (layout_rates[r] == 44100) {
            gl = &layout_enc[r]->k.psyc.l;
            gs = &layout_enc[r]->k.psyc.s;
        }
    uint64_t const saved = rng_state;
    rng_state = 7;
    for (int s = 0; s < SETS; s++)
        for (int b = 0; b < RL_CBANDS; b++) {
            eb[s][b] = powf(10.0f, 2.0f + 6.0f * frnd() - 0.05f * (float) b);
            max[s][b] = eb[s][b] * 0.3f;
            idx[s][b] = (unsigned char) (rnd() % 9);
        }
    rng_state = saved;
    double best;
    BEST_NS(best, 5, 500, for (int s = 0; s < SETS; s++) {
        fn(gl, eb[s], max[s], idx[s], ecb, cap);  /* one long block */
        fn(gs, eb[s], max[s], idx[s], ecb, cap);  /* and a short one */
    });
    return best / SETS;
}

/* ---- the Prepare-side and ReplayGain kernels ---- */

/* one sample of kind: 0 PCM-scale, 1 zero, 2 denormal, 3 +-large (1e15,
 * products stay finite), 4 a music-like sum of sines, 5 edge values
 * (+-0, +-1, +-32768, the smallest normal) */
static float sample(int kind, int i)
{
    switch (kind) {
    case 0: return (frnd() * 2.0f - 1.0f) * 32768.0f;
    case 1: return 0.0f;
    case 2: return (float) ((int) (rnd() % 2001) - 1000) * 1e-42f;
    case 3: return (rnd() & 1 ? -1e15f : 1e15f) * (0.5f + frnd());
    case 4: return 9000.0f * sinf(0.031f * (float) i) + 4000.0f * sinf(0.4f * (float) i)
                   + 300.0f * (frnd() - 0.5f);
    default: {
        static const float edge[] = { 0.0f, -0.0f, 1.0f, -1.0f, 32768.0f, -32768.0f,
                                      1.17549435e-38f, -1.17549435e-38f };
        return edge[rnd() % 8];
    }
    }
}
#define SAMPLE_KINDS 6

/* input of one granule's polyphase: x[-286 .. 17 * 32 + 224] */
#define POLY_PRE 286
#define POLY_LEN (POLY_PRE + 17 * 32 + 225)

/* music-like input for the benches, built once */
static float bench_buf[POLY_LEN];
static float bench_in[RL_RG_MAX_ORDER + 1152], bench_st[RL_RG_MAX_ORDER + 1152],
             bench_out[RL_RG_MAX_ORDER + 1152];

static void bench_inputs(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    uint64_t const saved = rng_state;
    rng_state = 11;
    for (int i = 0; i < POLY_LEN; i++)
        bench_buf[i] = sample(4, i);
    for (int i = 0; i < RL_RG_MAX_ORDER + 1152; i++)
        bench_in[i] = bench_st[i] = bench_out[i] = sample(4, i);
    rng_state = saved;
}

static void check_window_granule(const RlDsp *t, const RlDsp *s)
{
    static float buf[POLY_LEN];
    int const n = 18 * RL_SBLIMIT;
    for (int kind = 0; kind < SAMPLE_KINDS; kind++)
        for (int rep = 0; rep < 40; rep++) {
            for (int i = 0; i < POLY_LEN; i++)
                buf[i] = sample(kind, i + rep * 1000);
            float (*const sb0)[RL_SBLIMIT] = slot(0, sizeof(float) * (size_t) n, 0x55);
            float (*const sb1)[RL_SBLIMIT] = slot(1, sizeof(float) * (size_t) n, 0xaa);
            s->window_granule(buf + POLY_PRE, sb0);
            t->window_granule(buf + POLY_PRE, sb1);
            int const at = first_diff(&sb0[0][0], &sb1[0][0], n);
            if (!CHECK(at == n, "window_granule %s kind %d: slot %d band %d %a, scalar %a",
                       rl_simd_name(t->level), kind, at / 32, at % 32,
                       at < n ? sb1[at / 32][at % 32] : 0, at < n ? sb0[at / 32][at % 32] : 0)
                || !guards_ok(2, "window_granule", t->level))
                return;
        }
}

static double bench_window_granule(const RlDsp *t)
{
    float sb[18][RL_SBLIMIT];
    double best;
    bench_inputs();
    BEST_NS(best, 15, 2000, t->window_granule(bench_buf + POLY_PRE, sb));
    return best;
}

static void check_attack_fir(const RlDsp *t, const RlDsp *s)
{
    float fir[576 + 21];
    for (int kind = 0; kind < SAMPLE_KINDS; kind++)
        for (int rep = 0; rep < 40; rep++) {
            for (int i = 0; i < 576 + 21; i++)
                fir[i] = sample(kind, i + rep * 700);
            float *const h0 = slot(0, sizeof(float) * 576, 0x55);
            float *const h1 = slot(1, sizeof(float) * 576, 0xaa);
            s->attack_fir(fir, h0);
            t->attack_fir(fir, h1);
            int const at = first_diff(h0, h1, 576);
            if (!CHECK(at == 576, "attack_fir %s kind %d: i=%d %a, scalar %a",
                       rl_simd_name(t->level), kind, at, at < 576 ? h1[at] : 0,
                       at < 576 ? h0[at] : 0)
                || !guards_ok(2, "attack_fir", t->level))
                return;
        }
}

static double bench_attack_fir(const RlDsp *t)
{
    float h[576];
    double best;
    bench_inputs();
    BEST_NS(best, 15, 20000, t->attack_fir(bench_buf, h));
    return best;
}

/* the peaks of high-passed values and of raw (adversarial) ones */
static void check_block_peaks(const RlDsp *t, const RlDsp *s)
{
    float fir[576 + 21], hpf[576];
    for (int kind = 0; kind < SAMPLE_KINDS; kind++)
        for (int rep = 0; rep < 40; rep++) {
            for (int i = 0; i < 576 + 21; i++)
                fir[i] = sample(kind, i + rep * 700);
            rl_attack_fir(fir, hpf);
            for (int pass = 0; pass < 2; pass++) {
                const float *const pf = pass ? fir : hpf;
                float *const p0 = slot(0, sizeof(float) * 9, 0x55);
                float *const p1 = slot(1, sizeof(float) * 9, 0xaa);
                s->block_peaks(pf, p0);
                t->block_peaks(pf, p1);
                int const at = first_diff(p0, p1, 9);
                if (!CHECK(at == 9, "block_peaks %s kind %d: block %d %a, scalar %a",
                           rl_simd_name(t->level), kind, at, at < 9 ? p1[at] : 0,
                           at < 9 ? p0[at] : 0)
                    || !guards_ok(2, "block_peaks", t->level))
                    return;
            }
        }
}

static double bench_block_peaks(const RlDsp *t)
{
    float pk[9];
    double best;
    bench_inputs();
    BEST_NS(best, 15, 20000, t->block_peaks(bench_buf + (it & 63), pk));
    return best;
}

/* the filters of every ReplayGain rate over one stream cut into pieces of
 * random lengths (1 .. a window), as the gain feed calls them */
#define GAIN_TOTAL 6000

static void check_gain_filter(const RlDsp *t, const RlDsp *s)
{
    static float in[RL_RG_MAX_ORDER + GAIN_TOTAL];
    int const M = RL_RG_MAX_ORDER, N = M + GAIN_TOTAL;
    size_t const bytes = sizeof(float) * (size_t) N;
    for (int fi = 0; fi < 9; fi++)
        for (int kind = 0; kind < SAMPLE_KINDS; kind++)
            for (int rep = 0; rep < 4; rep++) {
                float *o[4];                   /* step, out of the scalar kernel, then of t's */
                slots4(bytes, o);
                float *const st0 = o[0], *const o0 = o[1], *const st1 = o[2], *const o1 = o[3];
                for (int i = 0; i < N; i++)
                    in[i] = sample(kind, i + rep * 7000);
                for (int i = 0; i < M; i++) {          /* the history */
                    st0[i] = st1[i] = sample(kind, i);
                    o0[i] = o1[i] = sample(kind, i + 50);
                }
                int pos = 0;
                while (pos < GAIN_TOTAL) {
                    int n = rep == 0 ? 1 + (int) (rnd() % 2401) : 1 + (int) (rnd() % 40);
                    if (n > GAIN_TOTAL - pos)
                        n = GAIN_TOTAL - pos;
                    s->gain_filter(fi, in + M + pos, st0 + M + pos, o0 + M + pos, n);
                    t->gain_filter(fi, in + M + pos, st1 + M + pos, o1 + M + pos, n);
                    pos += n;
                }
                int const a = first_diff(st0, st1, N), b = first_diff(o0, o1, N);
                if (!CHECK(a == N && b == N, "gain_filter %s rate %d kind %d: step i=%d, out i=%d",
                           rl_simd_name(t->level), fi, kind, a - M, b - M)
                    || !guards_ok(4, "gain_filter", t->level))
                    return;
            }
}

/* one frame's samples of one channel */
static double bench_gain_filter(const RlDsp *t)
{
    int const M = RL_RG_MAX_ORDER;
    double best;
    bench_inputs();
    BEST_NS(best, 15, 500, t->gain_filter(1, bench_in + M, bench_st + M, bench_out + M, 1152));
    return best;
}

/* the psy FHT on the long (1024) and short (256) sizes */
static void check_fht(const RlDsp *t, const RlDsp *s)
{
    static const int sizes[2] = { RL_BLKSIZE, RL_BLKSIZE_S };
    for (int z = 0; z < 2; z++)
        for (int kind = 0; kind < SAMPLE_KINDS; kind++)
            for (int rep = 0; rep < 30; rep++) {
                int const n = sizes[z];
                float *const a = slot(0, sizeof(float) * (size_t) n, 0);
                float *const b = slot(1, sizeof(float) * (size_t) n, 0);
                for (int i = 0; i < n; i++)
                    a[i] = b[i] = sample(kind, i + rep * 1100);
                s->fht(a, n / 2);
                t->fht(b, n / 2);
                int const at = first_diff(a, b, n);
                if (!CHECK(at == n, "fht %s n=%d kind %d: i=%d %a, scalar %a",
                           rl_simd_name(t->level), n, kind, at, at < n ? b[at] : 0,
                           at < n ? a[at] : 0)
                    || !guards_ok(2, "fht", t->level))
                    return;
            }
}

/* one long and three short transforms */
static double bench_fht(const RlDsp *t)
{
    float fz[RL_BLKSIZE];
    double best;
    bench_inputs();
    BEST_NS(best, 15, 5000, {
        memcpy(fz, bench_buf, sizeof fz);
        t->fht(fz, RL_BLKSIZE / 2);
        for (int b = 0; b < 3; b++)
            t->fht(fz + 256 * b, RL_BLKSIZE_S / 2);
    });
    return best;
}

/* the long-block MDCT of a granule's 32 bands, every long window */
static void check_mdct_long(const RlDsp *t, const RlDsp *s)
{
    static float prev[18 * RL_SBLIMIT], cur[18 * RL_SBLIMIT];
    static const int types[3] = { RL_NORM_TYPE, RL_START_TYPE, RL_STOP_TYPE };
    for (int ty = 0; ty < 3; ty++)
        for (int kind = 0; kind < SAMPLE_KINDS; kind++)
            for (int rep = 0; rep < 30; rep++) {
                for (int i = 0; i < 18 * RL_SBLIMIT; i++) {
                    prev[i] = sample(kind, i + rep * 1300);
                    cur[i] = sample(kind, i + 18 * RL_SBLIMIT + rep * 1300);
                }
                float *const a = slot(0, sizeof(float) * 576, 0x55);
                float *const b = slot(1, sizeof(float) * 576, 0xaa);
                s->mdct_long(prev, cur, rl_mdct_win[types[ty]], a);
                t->mdct_long(prev, cur, rl_mdct_win[types[ty]], b);
                int const at = first_diff(a, b, 576);
                if (!CHECK(at == 576, "mdct_long %s type %d kind %d: band %d line %d %a, scalar %a",
                           rl_simd_name(t->level), types[ty], kind, at / 18, at % 18,
                           at < 576 ? b[at] : 0, at < 576 ? a[at] : 0)
                    || !guards_ok(2, "mdct_long", t->level))
                    return;
            }
}

/* one granule's 32 bands */
static double bench_mdct_long(const RlDsp *t)
{
    float xr[576];
    double best;
    bench_inputs();
    BEST_NS(best, 15, 5000,
            t->mdct_long(bench_in, bench_in + 18 * RL_SBLIMIT, rl_mdct_win[RL_NORM_TYPE], xr));
    return best;
}

/* 16-bit PCM to the input floats: every bit pattern, odd lengths, mono
 * and stereo, matrices with norm and M/S-like factors */
static void check_pcm_s16le(const RlDsp *t, const RlDsp *s)
{
    static uint16_t pcm[2 * 300];
    static const float mats[3][4] = {
        { 1.0f / 65536, 0.0f, 0.0f, 1.0f / 65536 },
        { 0.5f / 65536, 0.5f / 65536, 0.5f / 65536, -0.5f / 65536 },
        { 0.7f, 0.3f, -1.1f, 3.0e-5f },
    };
    for (int rep = 0; rep < 200; rep++) {
        int const n = (int) (rnd() % 300), nch = 1 + (int) (rnd() % 2);
        const float *const m = mats[rep % 3];
        for (int i = 0; i < 2 * 300; i++)
            pcm[i] = (uint16_t) (rep % 5 == 0 ? (i & 1 ? 0x8000 : 0x7fff) : rnd());
        float *o[4];
        slots4(sizeof(float) * (size_t) n, o);
        s->pcm_s16le(pcm, n, nch, m, o[0], o[1]);
        t->pcm_s16le(pcm, n, nch, m, o[2], o[3]);
        int const at = first_diff2(o[0], o[1], o[2], o[3], n);
        if (!CHECK(at == n, "pcm_s16le %s n=%d nch %d: frame %d", rl_simd_name(t->level), n, nch, at)
            || !guards_ok(4, "pcm_s16le", t->level))
            return;
    }
}

/* one stereo frame's bytes (4608) */
static double bench_pcm_s16le(const RlDsp *t)
{
    static const float mat[4] = { 1.0f / 65536, 0.0f, 0.0f, 1.0f / 65536 };
    float u[1152], v[1152];
    double best;
    bench_inputs();
    BEST_NS(best, 15, 5000, t->pcm_s16le(bench_in, 1152, 2, mat, u, v));
    return best;
}

/* M/S thresholds: L and R thresholds near each other and apart, ATH above
 * and below, zeros, each msfix branch, every count of partitions */
static float thr_value(int kind)
{
    switch (kind) {
    case 0: return powf(10.0f, -2.0f + 8.0f * frnd());
    case 1: return rnd() % 4 == 0 ? 0.0f : 1000.0f * (0.7f + 0.6f * frnd());
    default: return (float) (rnd() % 5) * 250.0f;     /* ties at the 1.58 bound and ATH */
    }
}

static void check_ms_thresholds(const RlDsp *t, const RlDsp *s)
{
    float eb[4][64], mld[64], ath[64];
    for (int rep = 0; rep < 600; rep++) {
        int const kind = rep % 3, n = 1 + (int) (rnd() % 64);
        float const msfix = rep % 4 == 0 ? 0.0f : 1.0f + 2.0f * frnd();
        float const athlower = 0.5f + frnd();
        float (*const t0)[64] = slot(0, sizeof(float) * 4 * 64, 0);
        float (*const t1)[64] = slot(1, sizeof(float) * 4 * 64, 0);
        for (int b = 0; b < 64; b++) {
            for (int c = 0; c < 4; c++) {
                eb[c][b] = thr_value(kind) * 3.0f;
                t0[c][b] = t1[c][b] = thr_value(kind);
            }
            if (rnd() % 3 == 0)
                t0[1][b] = t1[1][b] = t0[0][b] * (rnd() % 2 ? 1.58f : 1.0f / 1.58f);
            mld[b] = 0.2f + 2.0f * frnd();
            ath[b] = thr_value(kind);
        }
        s->ms_thresholds((const float (*)[64]) eb, t0, mld, ath, athlower, msfix, n);
        t->ms_thresholds((const float (*)[64]) eb, t1, mld, ath, athlower, msfix, n);
        int const at = first_diff(&t0[0][0], &t1[0][0], 4 * 64);
        if (!CHECK(at == 4 * 64, "ms_thresholds %s kind %d n %d msfix %g: thr[%d][%d] %a, scalar %a",
                   rl_simd_name(t->level), kind, n, msfix, at / 64, at % 64,
                   at < 256 ? t1[at / 64][at % 64] : 0, at < 256 ? t0[at / 64][at % 64] : 0)
            || !guards_ok(2, "ms_thresholds", t->level))
            return;
    }
}

/* one long block's 63 partitions */
static double bench_ms_thresholds(const RlDsp *t)
{
    float meb[4][64], mthr[4][64], mthr0[4][64], mmld[64], math[64];
    for (int b = 0; b < 64; b++) {
        for (int c = 0; c < 4; c++) {
            meb[c][b] = 3.0f * (1000.0f + 500.0f * sinf(0.3f * (float) (b + 17 * c)));
            mthr0[c][b] = 1000.0f + 400.0f * sinf(0.2f * (float) (b + 5 * c));
        }
        mmld[b] = 1.0f + 0.5f * sinf((float) b);
        math[b] = 900.0f;
    }
    double best;
    BEST_NS(best, 15, 5000, {
        memcpy(mthr, mthr0, sizeof mthr);
        t->ms_thresholds((const float (*)[64]) meb, mthr, mmld, math, 1.0f, 1.5f, 63);
    });
    return best;
}

/* ---- the band noise (rl_noise_x34_batch) ---- */

#define NLINES 576

/* the smallest step whose quantization of max stays in the tables (the
 * bound the VBR search keeps) */
static int lowest_step(float max)
{
    for (int sf = 0; sf < 256; sf++)
        if (rl_ipow20[sf] * max <= (float) RL_IXMAX_VAL)
            return sf;
    return 255;
}

/* one spectral line of kind: 0 music-like (log-uniform 1e-6..1e4, signed),
 * 1 zero, 2 denormal, 3 large (1e5..1e8), 4 mixed */
static float line(int kind)
{
    float const sign = rnd() % 2 ? -1.0f : 1.0f;
    switch (kind) {
    case 0: return sign * powf(10.0f, -6.0f + 10.0f * frnd());
    case 1: return rnd() % 2 ? 0.0f : -0.0f;
    case 2: return sign * (float) (rnd() % 100000) * 1e-45f;
    case 3: return sign * powf(10.0f, 5.0f + 3.0f * frnd());  /* up to what step 255 holds */
    default: return line((int) (rnd() % 4));
    }
}

static void fill_lines(float *xr, float *xr34, int kind)
{
    for (int i = 0; i < NLINES; i++) {
        xr[i] = line(kind);
        float const a = fabsf(xr[i]);
        xr34[i] = sqrtf(a * sqrtf(a));     /* as rl_init_xrpow */
    }
}

/* music-like lines of a bench, the same every run: seed's lines, the
 * tests' sequence left where it was */
static void bench_lines(uint64_t seed, float *xr, float *xr34)
{
    uint64_t const saved = rng_state;
    rng_state = seed;
    fill_lines(xr, xr34, 0);
    rng_state = saved;
}

/* the first index where two int outputs differ (n: none) */
static int first_int_diff(const int *a, const int *b, int n)
{
    int i = 0;
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* the largest of the job's xr34 */
static float lines_max(const float *xr34, int off, int n)
{
    float max = 0;
    for (int i = 0; i < n; i++)
        if (max < xr34[off + i])
            max = xr34[off + i];
    return max;
}

/* a valid step for the job's lines: the lowest, one above it, the top,
 * or any in between */
static int job_step(const float *xr34, int off, int n)
{
    int const lo = lowest_step(lines_max(xr34, off, n));
    switch (rnd() % 4) {
    case 0: return lo;
    case 1: return lo < 255 ? lo + 1 : lo;
    case 2: return 255;
    default: return lo + (int) (rnd() % (uint32_t) (256 - lo));
    }
}

static int compare_noise(const RlDsp *t, const RlDsp *s, const float *xr, const float *xr34,
                         const RlNoiseJob *jobs, int nj)
{
    float *const n0 = slot(0, sizeof(float) * (size_t) nj, 0x55);
    float *const n1 = slot(1, sizeof(float) * (size_t) nj, 0xaa);
    s->noise_x34(xr, xr34, jobs, nj, n0);
    t->noise_x34(xr, xr34, jobs, nj, n1);
    int const k = first_diff(n0, n1, nj);
    return CHECK(k == nj, "noise_x34 %s, job %d of %d (off %d n %d sf %d): %a, scalar %a",
                 rl_simd_name(t->level), k, nj, k < nj ? jobs[k].off : 0, k < nj ? jobs[k].n : 0,
                 k < nj ? jobs[k].sf : 0, k < nj ? n1[k] : 0, k < nj ? n0[k] : 0)
           && guards_ok(2, "noise_x34", t->level);
}

static void check_noise_x34(const RlDsp *t, const RlDsp *s)
{
    static float xr[NLINES], xr34[NLINES];
    RlNoiseJob jobs[64];
    int fails = 0;
    /* every band layout of every rate and block type, in band order as the
     * search batches them, on every kind of line */
    for (int kind = 0; kind <= 4; kind++)
        for (int r = 0; r < NRATES; r++) {
            for (int shrt = 0; shrt < 2 && fails < 10; shrt++) {
                const RlConfig *const cfg = &layout_enc[r]->k.cfg;
                fill_lines(xr, xr34, kind);
                int nj = 0, off = 0;
                int const nsfb = shrt ? RL_SBMAX_S : RL_SBMAX_L;
                for (int b = 0; b < nsfb && nj < 60; b++) {
                    int const w = shrt ? cfg->sfb.s[b + 1] - cfg->sfb.s[b]
                                       : cfg->sfb.l[b + 1] - cfg->sfb.l[b];
                    for (int win = 0; win < (shrt ? 3 : 1); win++) {
                        if (off + w > NLINES || w <= 0)
                            break;
                        jobs[nj].off = off;
                        jobs[nj].n = w;
                        jobs[nj].sf = job_step(xr34, off, w);
                        jobs[nj].max34 = lines_max(xr34, off, w);
                        nj++;
                        off += w;
                    }
                }
                fails += !compare_noise(t, s, xr, xr34, jobs, nj);
            }
        }
    /* random batches: any length 0..96 (cut bands), any offset, any count */
    for (int rep = 0; rep < 3000 && fails < 10; rep++) {
        if (rep % 20 == 0)
            fill_lines(xr, xr34, (int) (rnd() % 5));
        int const nj = 1 + (int) (rnd() % 40);
        for (int k = 0; k < nj; k++) {
            int const n = (int) (rnd() % 97);
            jobs[k].n = n;
            jobs[k].off = (int) (rnd() % (uint32_t) (NLINES - n + 1));
            jobs[k].sf = job_step(xr34, jobs[k].off, n);
            /* the largest line, or (the bound may exceed it) one above */
            jobs[k].max34 = lines_max(xr34, jobs[k].off, n) * (rnd() % 4 ? 1.0f : 1.5f);
        }
        fails += !compare_noise(t, s, xr, xr34, jobs, nj);
    }
}

/* ns per three batches: the 21 long bands of a 44.1 kHz granule at
 * music-like lines, at the steps that quantize each band's largest line to
 * about 15, 200 and 6000 (the search probes steps of all these sizes; the
 * large values leave the kernels' register tables) */
static double bench_noise_x34(const RlDsp *t)
{
    static const int width[] = { 4, 4, 4, 4, 4, 4, 6, 6, 8, 8, 10, 12, 16, 20, 24, 28, 34, 42,
                                 50, 54, 76 };
    static const float top[3] = { 15.0f, 200.0f, 6000.0f };
    enum { NB = (int) (sizeof(width) / sizeof(width[0])) };
    static float xr[NLINES], xr34[NLINES];
    RlNoiseJob jobs[3][NB];
    float out[NB];
    uint64_t const saved = rng_state;
    rng_state = 11;
    fill_lines(xr, xr34, 0);
    int off = 0;
    for (int b = 0; b < NB; b++) {
        float max = 0;
        for (int i = 0; i < width[b]; i++)
            max = max < xr34[off + i] ? xr34[off + i] : max;
        for (int s = 0; s < 3; s++) {
            jobs[s][b].off = off;
            jobs[s][b].n = width[b];
            jobs[s][b].sf = lowest_step(max * (float) RL_IXMAX_VAL / top[s]);
            jobs[s][b].max34 = max;
        }
        off += width[b];
    }
    rng_state = saved;
    double best;
    BEST_NS(best, 5, 10000, for (int s = 0; s < 3; s++) t->noise_x34(xr, xr34, jobs[s], NB, out));
    return best;
}

/* rl_x34_thr (noise_x34.h) against the scalar rounding it stands for:
 * floats spread over the whole range of the first rounding, and every
 * float within 8 steps of each point.  The AVX-512 noise and line kernels
 * read it: tested with them. */
static int x34_thr_rounding(float q)
{
    RlX34Bits b;
    b.f = q + (float) RL_X34_MAGIC_FLOAT;
    int const i0 = b.i - RL_X34_MAGIC_INT;
    float const t = rl_x34_thr[i0];
    return signbit(t) ? i0 + (q >= -t) : i0 - (q < t);
}

static void check_x34_thresholds(void)
{
    float const top = (float) RL_IXMAX_VAL + 0.5f;
    uint32_t end;
    int fails = 0;
    memcpy(&end, &top, sizeof end);
    rl_x34_thr_init();
    if (!CHECK(rl_x34_thr_ok, "rl_x34_thr: the rounding did not have the expected shape"))
        return;
    for (uint32_t u = 0; u <= end && fails < 10; u += 61) {
        float q;
        memcpy(&q, &u, sizeof q);
        fails += !CHECK(x34_thr_rounding(q) == rl_k_34_one(q), "rl_x34_thr at %a: %d, scalar %d", q,
                        x34_thr_rounding(q), rl_k_34_one(q));
    }
    for (int i = 1; i < RL_X34_THR_N && fails < 10; i++) {
        float const t = fabsf(rl_x34_thr[i]);
        if (isinf(t))
            continue;
        float q = t;
        for (int k = 0; k < 8; k++)
            q = nextafterf(q, 0.0f);
        for (int k = 0; k < 17; k++, q = nextafterf(q, INFINITY))
            fails += !CHECK(x34_thr_rounding(q) == rl_k_34_one(q),
                            "rl_x34_thr near point %d at %a: %d, scalar %d", i, q,
                            x34_thr_rounding(q), rl_k_34_one(q));
    }
    /* rl_x34_sure: the value is monotone in q, so the ends of the range
     * |q - i| < sure decide it */
    for (int i = RL_X34_SMALL_N; i <= RL_IXMAX_VAL && fails < 10; i++) {
        float const lo = nextafterf((float) i - rl_x34_sure, INFINITY);
        float const hi = nextafterf((float) i + rl_x34_sure, 0.0f);
        fails += !CHECK(fabsf(lo - (float) i) < rl_x34_sure && fabsf(hi - (float) i) < rl_x34_sure,
                        "rl_x34_sure %a: ends around %d", rl_x34_sure, i);
        fails += !CHECK(rl_k_34_one(lo) == i && rl_k_34_one(hi) == i,
                        "rl_x34_sure %a around %d: %d at %a, %d at %a", rl_x34_sure, i,
                        rl_k_34_one(lo), lo, rl_k_34_one(hi), hi);
    }
    CHECK(rl_x34_sure > 0.49f, "rl_x34_sure %a: the shortcut is almost never taken", rl_x34_sure);
}

/* ---- |xr|^(3/4) (rl_xrpow_lines) ---- */

static void check_xrpow(const RlDsp *t, const RlDsp *s)
{
    static float xr[NLINES];
    int fails = 0;
    for (int rep = 0; rep < 3000 && fails < 10; rep++) {
        int const kind = rep % 5;
        int const n = rep < 577 ? rep : (int) (rnd() % (NLINES + 1));
        for (int i = 0; i < NLINES; i++)
            xr[i] = kind == 3 ? line(3) * 1e20f : line(kind);   /* large: up to 1e28 */
        size_t const bytes = sizeof(float) * (size_t) n;
        float *const p0 = slot(0, bytes, 0x55), *const a0 = slot(1, sizeof(float), 0x55);
        float *const p1 = slot(2, bytes, 0xaa), *const a1 = slot(3, sizeof(float), 0xaa);
        float const m0 = s->xrpow(xr, p0, n, a0);
        float const m1 = t->xrpow(xr, p1, n, a1);
        int const i = first_diff(p0, p1, n);
        fails += !(CHECK(i == n && memcmp(&m0, &m1, sizeof m0) == 0 && same_floats(a0, a1, 1),
                         "xrpow %s, kind %d n %d: line %d %a (scalar %a), max %a (%a), absmax %a (%a)",
                         rl_simd_name(t->level), kind, n, i, i < n ? p1[i] : 0, i < n ? p0[i] : 0,
                         m1, m0, *a1, *a0)
                   && guards_ok(4, "xrpow", t->level));
    }
}

/* ns per granule of 576 music-like lines */
static double bench_xrpow(const RlDsp *t)
{
    static float xr[NLINES], p[NLINES];
    uint64_t const saved = rng_state;
    rng_state = 3;
    for (int i = 0; i < NLINES; i++)
        xr[i] = line(0);
    rng_state = saved;
    float a;
    volatile float sink = 0;
    double best;
    BEST_NS(best, 5, 5000, sink += t->xrpow(xr, p, NLINES, &a));
    (void) sink;
    return best;
}

/* ---- the line quantizer (rl_quantize_lines): an odd last line is left,
 * so both outputs start alike ---- */

static void check_quantize_lines(const RlDsp *t, const RlDsp *s)
{
    static float xp[NLINES], xr[NLINES];
    int fails = 0;
    for (int rep = 0; rep < 3000 && fails < 10; rep++) {
        int const kind = rep % 5;
        unsigned int const n = rep < 577 ? (unsigned int) rep : rnd() % (NLINES + 1);
        fill_lines(xr, xp, kind);
        float max = 0;
        for (unsigned int i = 0; i < n; i++)
            max = max < xp[i] ? xp[i] : max;
        /* a step that keeps every line in the tables (the callers' bound):
         * the lowest, one above, or any above */
        int const lo = lowest_step(max);
        uint32_t const pick = rnd() % 3;
        int const sf = pick == 0 ? lo
                       : pick == 1 ? (lo < 255 ? lo + 1 : lo)
                                   : lo + (int) (rnd() % (uint32_t) (256 - lo));
        int *const i0 = slot(0, sizeof(int) * n, 0xf9);
        int *const i1 = slot(1, sizeof(int) * n, 0xf9);
        s->quantize_lines(n, rl_ipow20[sf], xp, i0);
        t->quantize_lines(n, rl_ipow20[sf], xp, i1);
        unsigned int const i = (unsigned int) first_int_diff(i0, i1, (int) n);
        fails += !(CHECK(i == n, "quantize_lines %s, kind %d n %u step %d: ix[%u] %d, scalar %d",
                         rl_simd_name(t->level), kind, n, sf, i, i < n ? i1[i] : 0, i < n ? i0[i] : 0)
                   && guards_ok(2, "quantize_lines", t->level));
    }
}

/* ns per granule of 576 music-like lines at a step that quantizes the
 * largest to about 15 */
static double bench_quantize_lines(const RlDsp *t)
{
    static float xr[NLINES], xp[NLINES];
    static int ix[NLINES];
    bench_lines(17, xr, xp);
    float max = 0;
    for (int i = 0; i < NLINES; i++)
        max = max < xp[i] ? xp[i] : max;
    float const istep = rl_ipow20[lowest_step(max * (float) RL_IXMAX_VAL / 15.0f)];
    double best;
    BEST_NS(best, 5, 5000, t->quantize_lines(NLINES, istep, xp, ix));
    return best;
}

/* ---- the count1 region (rl_count1_region) ---- */

/* quantized values as count_bits leaves them: from the top, zeros
 * (trailing pairs), then values <= 1 (count1), then any (big values);
 * each boundary anywhere, with now and then a stray value in a region */
static void fill_count1(int *ix, int n)
{
    int const zeros = n - (int) (rnd() % (uint32_t) (n + 1));
    int const ones = zeros - (int) (rnd() % (uint32_t) (zeros + 1));
    int const vmax = rnd() % 4 == 0 ? RL_IXMAX_VAL : 2 + (int) (rnd() % 30);
    for (int i = 0; i < NLINES; i++) {
        if (i >= n || i >= zeros)
            ix[i] = 0;
        else if (i >= ones)
            ix[i] = (int) (rnd() % 2);
        else
            ix[i] = rnd() % 3 ? (int) (rnd() % (uint32_t) (vmax + 1)) : (int) (rnd() % 2);
        if (i < n && rnd() % 97 == 0)
            ix[i] = rnd() % 2 ? 2 : (int) (rnd() % (RL_IXMAX_VAL + 1));
    }
}

static int compare_count1(const RlDsp *t, const RlDsp *s, const int *ix, int n)
{
    int *const b0 = slot(0, 2 * sizeof(int), 0x55);
    int *const v0 = slot(1, sizeof(int), 0x55);
    int *const b1 = slot(2, 2 * sizeof(int), 0xaa);
    int *const v1 = slot(3, sizeof(int), 0xaa);
    int const c0 = s->count1(ix, n, v0, b0);
    int const c1 = t->count1(ix, n, v1, b1);
    return CHECK(c0 == c1 && *v0 == *v1 && b0[0] == b1[0] && b0[1] == b1[1],
                 "count1 %s, n %d: count1 %d big_values %d bits %d %d, scalar %d %d %d %d",
                 rl_simd_name(t->level), n, c1, *v1, b1[0], b1[1], c0, *v0, b0[0], b0[1])
           && guards_ok(4, "count1", t->level);
}

static void check_count1(const RlDsp *t, const RlDsp *s)
{
    static int ix[NLINES];
    int fails = 0;
    /* every even length, then random ones; every length also all zeros
     * and all ones (no value above 1: the scan runs to the bottom) */
    for (int rep = 0; rep < 6000 && fails < 10; rep++) {
        int const n = rep < 289 ? 2 * rep : 2 * (int) (rnd() % 289);
        fill_count1(ix, n);
        fails += !compare_count1(t, s, ix, n);
    }
    for (int n = 0; n <= NLINES && fails < 10; n += 2) {
        for (int i = 0; i < NLINES; i++)
            ix[i] = 0;
        fails += !compare_count1(t, s, ix, n);
        for (int i = 0; i < n; i++)
            ix[i] = 1;
        fails += !compare_count1(t, s, ix, n);
    }
}

/* ns per call: 576 lines, big values to 200, count1 to 440, zeros above
 * (a CBR 128 granule of music below its 17 kHz cut-off) */
static double bench_count1(const RlDsp *t)
{
    static int ix[NLINES];
    uint64_t const saved = rng_state;
    rng_state = 19;
    for (int i = 0; i < NLINES; i++)
        ix[i] = i < 200 ? (int) (rnd() % 8) : i < 440 ? (int) (rnd() % 4 == 0) : 0;
    rng_state = saved;
    int bv, bits[2], sink = 0;
    double best;
    BEST_NS(best, 5, 20000, sink += t->count1(ix, NLINES, &bv, bits));
    (void) sink;
    return best;
}

/* ---- the band amplification (rl_amplify_lines) ---- */

static void check_amplify(const RlDsp *t, const RlDsp *s)
{
    static const float amps[] = { 1.29683955465100964055f, 1.68179283050742922612f };
    static float xr[NLINES], xp[NLINES];
    int fails = 0;
    /* every length 0..576 (a band is 4..192 lines, the last one cut), on
     * every kind of line, at the scalefactor amplifications and the
     * subblock gain's (rl_ipow20), with a running largest below, between
     * and above the lines */
    for (int rep = 0; rep < 3000 && fails < 10; rep++) {
        int const n = rep <= NLINES ? rep : (int) (rnd() % (NLINES + 1));
        fill_lines(xr, xp, rep % 5);
        uint32_t const pick = rnd() % 4;
        float const amp = pick < 2 ? amps[pick] : pick == 2 ? rl_ipow20[202] : rl_ipow20[rnd() % 211];
        float max = rnd() % 3 == 0 ? 0.0f : xp[rnd() % NLINES] * (rnd() % 2 ? 1.0f : 3.0f);
        float *const x0 = slot(0, sizeof(float) * (size_t) n, 0x55);
        float *const x1 = slot(1, sizeof(float) * (size_t) n, 0xaa);
        memcpy(x0, xp, sizeof(float) * (size_t) n);
        memcpy(x1, xp, sizeof(float) * (size_t) n);
        float const m0 = s->amplify(x0, n, amp, max);
        float const m1 = t->amplify(x1, n, amp, max);
        int const k = first_diff(x0, x1, n);
        fails += !(CHECK(k == n && same_floats(&m0, &m1, 1),
                         "amplify %s, n %d amp %a: line %d %a, scalar %a; max %a, scalar %a",
                         rl_simd_name(t->level), n, (double) amp, k, k < n ? x1[k] : 0,
                         k < n ? x0[k] : 0, m1, m0)
                   && guards_ok(2, "amplify", t->level));
    }
}

/* ns per granule: the 21 long bands of 44.1 kHz, each amplified once */
static double bench_amplify(const RlDsp *t)
{
    static const int width[] = { 4, 4, 4, 4, 4, 4, 6, 6, 8, 8, 10, 12, 16, 20, 24, 28, 34, 42,
                                 50, 54, 76 };
    static float xr[NLINES], xp[NLINES];
    bench_lines(23, xr, xp);
    float sink = 0;
    double best;
    /* amp 1: the lines stay as they are from call to call */
    BEST_NS(best, 5, 20000, for (int b = 0, off = 0; b < 21; off += width[b], b++)
                                sink += t->amplify(xp + off, width[b], 1.0f, 0.0f));
    (void) sink;
    return best;
}

/* ---- the substep truncation (rl_substep_lines) ---- */

static void check_substep(const RlDsp *t, const RlDsp *s)
{
    static float xr[NLINES], xp[NLINES];
    static int ix[NLINES];
    int fails = 0;
    /* every length 0..576 (runs of bands), every kind of line, a rounding
     * point at a line's own value (the comparison's edge), between lines,
     * above and below all */
    for (int rep = 0; rep < 3000 && fails < 10; rep++) {
        int const n = rep <= NLINES ? rep : (int) (rnd() % (NLINES + 1));
        fill_lines(xr, xp, rep % 5);
        fill_count1(ix, NLINES);
        uint32_t const pick = rnd() % 4;
        float const r = pick == 0 ? xp[rnd() % NLINES]
                        : pick == 1 ? xp[rnd() % NLINES] * 1.0001f
                        : pick == 2 ? 0.0f : 1e30f;
        int *const i0 = slot(0, sizeof(int) * (size_t) n, 0x55);
        int *const i1 = slot(1, sizeof(int) * (size_t) n, 0xaa);
        memcpy(i0, ix, sizeof(int) * (size_t) n);
        memcpy(i1, ix, sizeof(int) * (size_t) n);
        s->substep(i0, xp, n, r);
        t->substep(i1, xp, n, r);
        int const k = first_int_diff(i0, i1, n);
        fails += !(CHECK(k == n, "substep %s, n %d roundfac %a: ix[%d] %d, scalar %d",
                         rl_simd_name(t->level), n, (double) r, k, k < n ? i1[k] : 0,
                         k < n ? i0[k] : 0)
                   && guards_ok(2, "substep", t->level));
    }
}

/* ns per granule: 576 music-like lines, a rounding point that truncates
 * about half of them */
static double bench_substep(const RlDsp *t)
{
    static float xr[NLINES], xp[NLINES];
    static int ix[NLINES];
    bench_lines(29, xr, xp);
    for (int i = 0; i < NLINES; i++)
        ix[i] = 1;
    float const r = xp[NLINES / 2];
    double best;
    BEST_NS(best, 5, 20000, t->substep(ix, xp, NLINES, r));
    return best;
}

/* ---- the driver: one case per table field ---- */

typedef void (*AnyFn)(void);

typedef struct Kernel {
    const char *name;                                  /* the RlDsp field */
    size_t off;                                        /* its offset */
    void (*check)(const RlDsp *t, const RlDsp *s);     /* t's kernel against s's (scalar) */
    double (*bench)(const RlDsp *t);                   /* ns per call of t's kernel */
} Kernel;

#define KERNEL(field) { #field, offsetof(RlDsp, field), check_##field, bench_##field }

static const Kernel kernels[] = {
    KERNEL(choose_table), KERNEL(spread), KERNEL(noise_x34), KERNEL(xrpow),
    KERNEL(quantize_lines), KERNEL(count1), KERNEL(amplify), KERNEL(substep),
    KERNEL(window_granule), KERNEL(attack_fir), KERNEL(block_peaks),
    KERNEL(gain_filter), KERNEL(fht), KERNEL(mdct_long), KERNEL(pcm_s16le),
    KERNEL(ms_thresholds),
};
#define NKERNELS ((int) (sizeof kernels / sizeof kernels[0]))

static AnyFn entry(const RlDsp *t, size_t off)
{
    AnyFn f;
    memcpy(&f, (const char *) t + off, sizeof f);
    return f;
}

/* Every field of RlDsp after level is a kernel with a case above: the
 * offsets of the cases fill the struct from the first kernel to the end. */
static void check_cases_cover_table(void)
{
    _Static_assert(sizeof(RlChooseTableFn) == sizeof(AnyFn), "one size for every function pointer");
    size_t first = sizeof(RlDsp);
    unsigned char seen[sizeof(RlDsp) / sizeof(AnyFn) + 1] = { 0 };
    for (int k = 0; k < NKERNELS; k++)
        first = kernels[k].off < first ? kernels[k].off : first;
    int distinct = 0;
    for (int k = 0; k < NKERNELS; k++) {
        size_t const slot_no = (kernels[k].off - first) / sizeof(AnyFn);
        distinct += (kernels[k].off - first) % sizeof(AnyFn) == 0 && !seen[slot_no];
        seen[slot_no] = 1;
    }
    CHECK(distinct == NKERNELS && first == offsetof(RlDsp, level) + sizeof(AnyFn)
              && sizeof(RlDsp) == first + (size_t) NKERNELS * sizeof(AnyFn),
          "checkasm's kernel cases do not cover RlDsp (%d cases, %zu bytes of table): a kernel "
          "without a case?", NKERNELS, sizeof(RlDsp));
}

static int matches(const char *pattern, const char *name)
{
    return !pattern || fnmatch(pattern, name, 0) == 0
           || strncmp(name, pattern, strlen(pattern)) == 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: checkasm [--bench] [--function PATTERN] [--level NAME] [--seed N] "
                    "[--list]\n");
    exit(2);
}

/* "level NAME": the level, or a usage error */
static int level_arg(const char *what, const char *name)
{
    int const level = rl_simd_parse(name);
    if (level < 0) {
        fprintf(stderr, "checkasm: %s %s: not a level (scalar, sse4.1, avx2, avx512)\n", what, name);
        exit(2);
    }
    return level;
}

int main(int argc, char **argv)
{
    const char *pattern = NULL;
    int bench = 0, top = RL_SIMD_LEVELS - 1, seed_given = 0;
    unsigned long seed = 0;
    const char *const env = getenv("RINGLAME_SIMD");
    if (env && *env)
        top = level_arg("RINGLAME_SIMD", env);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0)
            bench = 1;
        else if (strcmp(argv[i], "--list") == 0) {
            for (int k = 0; k < NKERNELS; k++)
                printf("%s\n", kernels[k].name);
            return 0;
        } else if (strcmp(argv[i], "--function") == 0 && i + 1 < argc)
            pattern = argv[++i];
        else if (strcmp(argv[i], "--level") == 0 && i + 1 < argc)
            top = level_arg("--level", argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            seed = strtoul(argv[++i], &end, 0);
            if (errno || *end || end == argv[i])
                usage();
            seed_given = 1;
        } else
            usage();
    }
    if (seed_given)
        printf("seed %lu (replay: checkasm --seed %lu)\n", seed, seed);
    else
        seed = rl_test_seed(1);
    rng_state = (uint64_t) seed;

    int const cpu = rl_cpu_simd_level();
    printf("CPU level: %s; levels tested: up to %s%s%s\n", rl_simd_name(cpu),
           rl_simd_name(top < cpu ? top : cpu), pattern ? "; kernels matching " : "",
           pattern ? pattern : "");
    check_cases_cover_table();
    layouts_init();
    rl_quant_tables_init();

    const RlDsp *const scalar = rl_dsp_table_at(RL_SIMD_SCALAR);
    int tested[RL_SIMD_LEVELS] = { 0 }, kept[RL_SIMD_LEVELS] = { 0 };
    int failures_at[RL_SIMD_LEVELS] = { 0 };
    int total = 0;
    double base[NKERNELS];
    for (int level = RL_SIMD_SCALAR; level <= top && level <= cpu; level++) {
        const RlDsp *const t = rl_dsp_table_at(level);
        const RlDsp *const below = level > RL_SIMD_SCALAR ? rl_dsp_table_at(level - 1) : NULL;
        int const before_level = rl_test_failures();
        CHECK_EQ(t->level, level, "rl_dsp_table_at(%s)->level", rl_simd_name(level));
        for (int k = 0; k < NKERNELS; k++) {
            const Kernel *const kc = &kernels[k];
            if (!matches(pattern, kc->name))
                continue;
            AnyFn const fn = entry(t, kc->off);
            if (below && fn == entry(below, kc->off)) {
                kept[level]++;        /* the level below's kernel, tested there */
                continue;
            }
            if (below) {
                int const before = rl_test_failures();
                kc->check(t, scalar);
                tested[level]++;
                total++;
                printf("%-14s %-7s %s\n", kc->name, rl_simd_name(level),
                       rl_test_failures() == before ? "ok" : "FAILED");
            }
            if (bench) {
                double const ns = kc->bench(t);
                if (!below)
                    base[k] = ns;
                printf("bench %-14s %-7s %9.1f ns/call  x%.2f\n", kc->name, rl_simd_name(level),
                       ns, base[k] / ns);
            }
        }
        /* the rounding points of the AVX-512 noise and line kernels */
        if (level == RL_SIMD_AVX512 && (matches(pattern, "x34_thr") || matches(pattern, "noise_x34")
                                        || matches(pattern, "quantize_lines"))) {
            int const before = rl_test_failures();
            check_x34_thresholds();
            tested[level]++;
            total++;
            printf("%-14s %-7s %s\n", "x34_thr", rl_simd_name(level),
                   rl_test_failures() == before ? "ok" : "FAILED");
        }
        failures_at[level] = rl_test_failures() - before_level;
    }
    layouts_free();

    printf("summary:\n");
    for (int level = RL_SIMD_SCALAR; level < RL_SIMD_LEVELS; level++) {
        printf("  %-7s ", rl_simd_name(level));
        if (level > cpu)
            printf("skipped: not on this CPU or build\n");
        else if (level > top)
            printf("skipped: above --level / RINGLAME_SIMD (%s)\n", rl_simd_name(top));
        else if (level == RL_SIMD_SCALAR)
            printf("the reference\n");
        else if (tested[level] == 0)
            printf("nothing to test (%d unchanged from %s)\n", kept[level], rl_simd_name(level - 1));
        else
            printf("%d tested, %d unchanged from %s: %s\n", tested[level], kept[level],
                   rl_simd_name(level - 1), failures_at[level] ? "FAILED" : "ok");
    }
    if (rl_test_failures() == 0 && total == 0)
        rl_test_skip("no kernel compared (CPU level %s, up to %s, kernels %s)", rl_simd_name(cpu),
                     rl_simd_name(top), pattern ? pattern : "all");
    return rl_test_done();
}
