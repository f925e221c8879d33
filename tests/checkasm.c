/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: every kernel of the DSP table (src/Encoder/dsp/dsp.h) at every
 * SIMD level this CPU has, against the scalar kernel: random and
 * adversarial inputs, exact comparison.  Levels the CPU (or the build) lacks
 * are reported as skipped.
 *   checkasm           the comparison (CTest test checkasm)
 *   checkasm --bench   also each kernel's speed-up per level */
#include "harness.h"

#include <time.h>

#include "attack.h"
#include "dsp.h"
#include "fast_log.h"
#include "fft.h"
#include "huffman_count.h"
#include "mdct.h"
#include "polyphase_window.h"
#include "psy_spread.h"
#include "replaygain.h"
#include "noise_x34.h"
#include "quant_tables.h"
#include "quantize_common.h"
#include "rl_encoder.h"
#include "settings.h"
#include "stages.h"

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

/* CPU time: the machine is shared, other jobs must not count */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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


/* ---- spread: the psy partition layouts of every sample rate ---- */

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
        if (!CHECK(rl_encoder_create(&layout_enc[r], &o) == 0, "encoder at %d Hz", layout_rates[r]))
            continue;
        layouts[nlayouts++] = &layout_enc[r]->k.psyc.l;
        layouts[nlayouts++] = &layout_enc[r]->k.psyc.s;
    }
}

static void layouts_free(void)
{
    for (int r = 0; r < NRATES; r++)
        rl_encoder_destroy(layout_enc[r]);
}

static float frnd(void)            /* [0, 1) */
{
    return (float) (rnd() >> 8) * (1.0f / 8388608.0f);
}

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
        uint32_t c = rnd() % 8;
        if (c == 0) return 0.0f;
        if (c == 1) return -0.0f;
        if (c == 2) return -powf(10.0f, -5.0f + 10.0f * frnd());
        return powf(10.0f, -10.0f + 20.0f * frnd());
    }
    default: return 0.0f;
    }
}

static int compare_spread(RlSpreadFn fn, int level, const RlPsyBands *gd, int kind, int ikind)
{
    float eb[RL_CBANDS], max[RL_CBANDS];
    unsigned char idx[RL_CBANDS + 2];
    float e0[RL_CBANDS], c0[RL_CBANDS], e1[RL_CBANDS], c1[RL_CBANDS];
    for (int b = 0; b < RL_CBANDS; b++) {
        eb[b] = energy(kind);
        max[b] = eb[b] * frnd();
        idx[b] = (unsigned char) (ikind == 0 ? rnd() % 9 : ikind == 1 ? 0 : 8);
        e0[b] = c0[b] = e1[b] = c1[b] = 0;
    }
    rl_psy_spread(gd, eb, max, idx, e0, c0);
    fn(gd, eb, max, idx, e1, c1);
    int const n = gd->npart;
    int ok = memcmp(e0, e1, sizeof(float) * (size_t) n) == 0
             && memcmp(c0, c1, sizeof(float) * (size_t) n) == 0;
    if (!ok) {
        int b = 0;
        while (b < n && memcmp(&e0[b], &e1[b], sizeof(float)) == 0
               && memcmp(&c0[b], &c1[b], sizeof(float)) == 0)
            b++;
        CHECK(0, "spread %s, npart %d kind %d idx %d: b=%d ecb %a cap %a, scalar %a %a",
              rl_simd_name(level), n, kind, ikind, b, e1[b], c1[b], e0[b], c0[b]);
    }
    return ok;
}

/* Every layout as the encoder built it (with its 16-lane plan where one
 * exists) and without the plan (the general kernel). */
static void check_spread(RlSpreadFn fn, int level)
{
    int fails = 0, planned = 0;
    for (int li = 0; li < nlayouts && fails < 10; li++) {
        RlPsyBands bare = *layouts[li];
        bare.plan = NULL;
        planned += layouts[li]->plan != NULL;
        for (int kind = 0; kind <= 5; kind++)
            for (int ikind = 0; ikind < 3; ikind++)
                for (int rep = 0; rep < (kind < 2 ? 300 : 20); rep++) {
                    fails += !compare_spread(fn, level, layouts[li], kind, ikind);
                    if (layouts[li]->plan && rep < 20)
                        fails += !compare_spread(fn, level, &bare, kind, ikind);
                }
    }
    CHECK(planned == nlayouts, "spread plans: %d of %d layouts", planned, nlayouts);
}

/* ns per call: long and short partitions of 44.1 kHz, music-like energies */
static double bench_spread(RlSpreadFn fn)
{
    enum { SETS = 32 };
    static float eb[SETS][RL_CBANDS], max[SETS][RL_CBANDS];
    static unsigned char idx[SETS][RL_CBANDS + 2];
    static float ecb[RL_CBANDS], cap[RL_CBANDS];
    const RlPsyBands *gl = NULL, *gs = NULL;
    for (int r = 0; r < NRATES; r++)
        if (layout_rates[r] == 44100 && layout_enc[r]) {
            gl = &layout_enc[r]->k.psyc.l;
            gs = &layout_enc[r]->k.psyc.s;
        }
    if (!gl)
        return 0;
    uint64_t saved = rng_state;
    rng_state = 7;
    for (int s = 0; s < SETS; s++)
        for (int b = 0; b < RL_CBANDS; b++) {
            eb[s][b] = powf(10.0f, 2.0f + 6.0f * frnd() - 0.05f * (float) b);
            max[s][b] = eb[s][b] * 0.3f;
            idx[s][b] = (unsigned char) (rnd() % 9);
        }
    rng_state = saved;
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int it = 0; it < 500; it++)
            for (int s = 0; s < SETS; s++) {
                fn(gl, eb[s], max[s], idx[s], ecb, cap);  /* one long block */
                fn(gs, eb[s], max[s], idx[s], ecb, cap);  /* and a short one */
            }
        double t = (now() - t0) / (500.0 * SETS) * 1e9;
        if (t < best)
            best = t;
    }
    return best;
}

/* ---- the Prepare-side and ReplayGain kernels (polyphase rows, attack
 * high-pass and peaks, ReplayGain filters) ---- */

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

/* input of one granule's polyphase: x[-286 .. 17 * 32 + 224] */
#define POLY_PRE 286
#define POLY_LEN (POLY_PRE + 17 * 32 + 225)

static void check_window_granule(const RlDsp *d, const RlDsp *s)
{
    static float buf[POLY_LEN];
    float sb0[18][RL_SBLIMIT], sb1[18][RL_SBLIMIT];
    for (int kind = 0; kind < SAMPLE_KINDS; kind++)
        for (int rep = 0; rep < 40; rep++) {
            for (int i = 0; i < POLY_LEN; i++)
                buf[i] = sample(kind, i + rep * 1000);
            memset(sb0, 0x55, sizeof sb0);
            memset(sb1, 0xaa, sizeof sb1);
            s->window_granule(buf + POLY_PRE, sb0);
            d->window_granule(buf + POLY_PRE, sb1);
            if (!same_floats(&sb0[0][0], &sb1[0][0], 18 * RL_SBLIMIT)) {
                int at = first_diff(&sb0[0][0], &sb1[0][0], 18 * RL_SBLIMIT);
                CHECK(0, "window_granule %s kind %d: slot %d band %d %a, scalar %a",
                      rl_simd_name(d->level), kind, at / 32, at % 32, sb1[at / 32][at % 32],
                      sb0[at / 32][at % 32]);
                return;
            }
        }
    CHECK(1, "window_granule");
}

static void check_attack(const RlDsp *d, const RlDsp *s)
{
    float fir[576 + 21], h0[576], h1[576], p0[9], p1[9];
    for (int kind = 0; kind < SAMPLE_KINDS; kind++)
        for (int rep = 0; rep < 40; rep++) {
            for (int i = 0; i < 576 + 21; i++)
                fir[i] = sample(kind, i + rep * 700);
            s->attack_fir(fir, h0);
            d->attack_fir(fir, h1);
            if (!same_floats(h0, h1, 576)) {
                int at = first_diff(h0, h1, 576);
                CHECK(0, "attack_fir %s kind %d: i=%d %a, scalar %a", rl_simd_name(d->level),
                      kind, at, h1[at], h0[at]);
                return;
            }
            /* peaks of the filtered values and of the raw (adversarial) ones */
            for (int pass = 0; pass < 2; pass++) {
                const float *pf = pass ? fir : h0;
                s->block_peaks(pf, p0);
                d->block_peaks(pf, p1);
                if (!same_floats(p0, p1, 9)) {
                    int at = first_diff(p0, p1, 9);
                    CHECK(0, "block_peaks %s kind %d: block %d %a, scalar %a",
                          rl_simd_name(d->level), kind, at, p1[at], p0[at]);
                    return;
                }
            }
        }
    CHECK(1, "attack");
}

/* the filters of every ReplayGain rate over one stream cut into pieces of
 * random lengths (1 .. a window), as the gain feed calls them */
#define GAIN_TOTAL 6000

static void check_gain_filter(const RlDsp *d, const RlDsp *s)
{
    static float in[RL_RG_MAX_ORDER + GAIN_TOTAL];
    static float st0[RL_RG_MAX_ORDER + GAIN_TOTAL], o0[RL_RG_MAX_ORDER + GAIN_TOTAL];
    static float st1[RL_RG_MAX_ORDER + GAIN_TOTAL], o1[RL_RG_MAX_ORDER + GAIN_TOTAL];
    int const M = RL_RG_MAX_ORDER;
    for (int fi = 0; fi < 9; fi++)
        for (int kind = 0; kind < SAMPLE_KINDS; kind++)
            for (int rep = 0; rep < 4; rep++) {
                for (int i = 0; i < M + GAIN_TOTAL; i++)
                    in[i] = sample(kind, i + rep * 7000);
                for (int i = 0; i < M; i++) {
                    st0[i] = st1[i] = sample(kind, i);
                    o0[i] = o1[i] = sample(kind, i + 50);
                }
                int pos = 0;
                while (pos < GAIN_TOTAL) {
                    int n = rep == 0 ? 1 + (int) (rnd() % 2401) : 1 + (int) (rnd() % 40);
                    if (n > GAIN_TOTAL - pos)
                        n = GAIN_TOTAL - pos;
                    s->gain_filter(fi, in + M + pos, st0 + M + pos, o0 + M + pos, n);
                    d->gain_filter(fi, in + M + pos, st1 + M + pos, o1 + M + pos, n);
                    pos += n;
                }
                if (!same_floats(st0, st1, M + GAIN_TOTAL) || !same_floats(o0, o1, M + GAIN_TOTAL)) {
                    int a = first_diff(st0, st1, M + GAIN_TOTAL);
                    int b = first_diff(o0, o1, M + GAIN_TOTAL);
                    CHECK(0, "gain_filter %s rate %d kind %d: step i=%d, out i=%d",
                          rl_simd_name(d->level), fi, kind, a - M, b - M);
                    return;
                }
            }
    CHECK(1, "gain_filter");
}

/* the psy FHT on the long (1024) and short (256) sizes */
static void check_fht(const RlDsp *d, const RlDsp *s)
{
    float a[RL_BLKSIZE], b[RL_BLKSIZE];
    static const int sizes[2] = { RL_BLKSIZE, RL_BLKSIZE_S };
    for (int z = 0; z < 2; z++)
        for (int kind = 0; kind < SAMPLE_KINDS; kind++)
            for (int rep = 0; rep < 30; rep++) {
                int const n = sizes[z];
                for (int i = 0; i < n; i++)
                    a[i] = b[i] = sample(kind, i + rep * 1100);
                s->fht(a, n / 2);
                d->fht(b, n / 2);
                if (!same_floats(a, b, n)) {
                    int at = first_diff(a, b, n);
                    CHECK(0, "fht %s n=%d kind %d: i=%d %a, scalar %a", rl_simd_name(d->level),
                          n, kind, at, b[at], a[at]);
                    return;
                }
            }
    CHECK(1, "fht");
}

/* the long-block MDCT of a granule's 32 bands, every long window */
static void check_mdct_long(const RlDsp *d, const RlDsp *s)
{
    static float prev[18 * RL_SBLIMIT], cur[18 * RL_SBLIMIT];
    float a[576], b[576];
    static const int types[3] = { RL_NORM_TYPE, RL_START_TYPE, RL_STOP_TYPE };
    for (int t = 0; t < 3; t++)
        for (int kind = 0; kind < SAMPLE_KINDS; kind++)
            for (int rep = 0; rep < 30; rep++) {
                for (int i = 0; i < 18 * RL_SBLIMIT; i++) {
                    prev[i] = sample(kind, i + rep * 1300);
                    cur[i] = sample(kind, i + 18 * RL_SBLIMIT + rep * 1300);
                }
                memset(a, 0x55, sizeof a);
                memset(b, 0xaa, sizeof b);
                s->mdct_long(prev, cur, rl_mdct_win[types[t]], a);
                d->mdct_long(prev, cur, rl_mdct_win[types[t]], b);
                if (!same_floats(a, b, 576)) {
                    int at = first_diff(a, b, 576);
                    CHECK(0, "mdct_long %s type %d kind %d: band %d line %d %a, scalar %a",
                          rl_simd_name(d->level), types[t], kind, at / 18, at % 18, b[at], a[at]);
                    return;
                }
            }
    CHECK(1, "mdct_long");
}

/* 16-bit PCM to the input floats: every bit pattern, odd lengths, mono
 * and stereo, matrices with norm and M/S-like factors */
static void check_pcm_s16le(const RlDsp *d, const RlDsp *s)
{
    static uint16_t pcm[2 * 300];
    float a0[300], a1[300], b0[300], b1[300];
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
        memset(a0, 0x55, sizeof a0);
        memset(a1, 0x55, sizeof a1);
        memset(b0, 0xaa, sizeof b0);
        memset(b1, 0xaa, sizeof b1);
        s->pcm_s16le(pcm, n, nch, m, a0, a1);
        d->pcm_s16le(pcm, n, nch, m, b0, b1);
        if (!same_floats(a0, b0, n) || !same_floats(a1, b1, n)) {
            int at = same_floats(a0, b0, n) ? first_diff(a1, b1, n) : first_diff(a0, b0, n);
            CHECK(0, "pcm_s16le %s n=%d nch %d: frame %d", rl_simd_name(d->level), n, nch, at);
            return;
        }
        static const unsigned char untouched[4] = { 0xaa, 0xaa, 0xaa, 0xaa };
        if (n < 300 && (memcmp(&b0[n], untouched, 4) != 0 || memcmp(&b1[n], untouched, 4) != 0)) {
            CHECK(0, "pcm_s16le %s n=%d: wrote past n", rl_simd_name(d->level), n);
            return;
        }
    }
    CHECK(1, "pcm_s16le");
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

static void check_ms_thresholds(const RlDsp *d, const RlDsp *s)
{
    float eb[4][64], t0[4][64], t1[4][64], mld[64], ath[64];
    for (int rep = 0; rep < 600; rep++) {
        int const kind = rep % 3, n = 1 + (int) (rnd() % 64);
        float const msfix = rep % 4 == 0 ? 0.0f : 1.0f + 2.0f * frnd();
        float const athlower = 0.5f + frnd();
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
        d->ms_thresholds((const float (*)[64]) eb, t1, mld, ath, athlower, msfix, n);
        if (memcmp(t0, t1, sizeof t0) != 0) {
            int at = first_diff(&t0[0][0], &t1[0][0], 4 * 64);
            CHECK(0, "ms_thresholds %s kind %d n %d msfix %g: thr[%d][%d] %a, scalar %a",
                  rl_simd_name(d->level), kind, n, msfix, at / 64, at % 64,
                  t1[at / 64][at % 64], t0[at / 64][at % 64]);
            return;
        }
    }
    CHECK(1, "ms_thresholds");
}

/* ns per call of each Prepare-side kernel on music-like input */
#define NPREP 8
static void bench_prepare(const RlDsp *d, double base[NPREP], int level)
{
    static float buf[POLY_LEN];
    static float in[RL_RG_MAX_ORDER + 1152], st[RL_RG_MAX_ORDER + 1152], o[RL_RG_MAX_ORDER + 1152];
    float sb[18][RL_SBLIMIT], h[576], pk[9];
    uint64_t saved = rng_state;
    rng_state = 11;
    for (int i = 0; i < POLY_LEN; i++)
        buf[i] = sample(4, i);
    for (int i = 0; i < RL_RG_MAX_ORDER + 1152; i++)
        in[i] = st[i] = o[i] = sample(4, i);
    rng_state = saved;
    double ns[NPREP] = { 1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 1e30 };
    float meb[4][64], mthr[4][64], mthr0[4][64], mmld[64], math[64];
    for (int b = 0; b < 64; b++) {
        for (int c = 0; c < 4; c++) {
            meb[c][b] = 3.0f * (1000.0f + 500.0f * sinf(0.3f * (float) (b + 17 * c)));
            mthr0[c][b] = 1000.0f + 400.0f * sinf(0.2f * (float) (b + 5 * c));
        }
        mmld[b] = 1.0f + 0.5f * sinf((float) b);
        math[b] = 900.0f;
    }
    static const float mat[4] = { 1.0f / 65536, 0.0f, 0.0f, 1.0f / 65536 };
    float u[1152], v[1152];
    float xr[576];
    float fz[RL_BLKSIZE];
    for (int rep = 0; rep < 15; rep++) {
        double t0 = now();
        for (int it = 0; it < 2000; it++)
            d->window_granule(buf + POLY_PRE, sb);
        double t1 = now();
        for (int it = 0; it < 20000; it++)
            d->attack_fir(buf, h);
        double t2 = now();
        for (int it = 0; it < 20000; it++)
            d->block_peaks(buf + (it & 63), pk);
        double t3 = now();
        for (int it = 0; it < 500; it++)    /* one frame's samples of one channel */
            d->gain_filter(1, in + RL_RG_MAX_ORDER, st + RL_RG_MAX_ORDER, o + RL_RG_MAX_ORDER, 1152);
        double t4 = now();
        for (int it = 0; it < 5000; it++) {    /* one long and three short transforms */
            memcpy(fz, buf, sizeof fz);
            d->fht(fz, RL_BLKSIZE / 2);
            for (int b = 0; b < 3; b++)
                d->fht(fz + 256 * b, RL_BLKSIZE_S / 2);
        }
        double t5 = now();
        for (int it = 0; it < 5000; it++)      /* one granule's 32 bands */
            d->mdct_long(in, in + 18 * RL_SBLIMIT, rl_mdct_win[RL_NORM_TYPE], xr);
        double t6 = now();
        for (int it = 0; it < 5000; it++)      /* one stereo frame's bytes (4608) */
            d->pcm_s16le(in, 1152, 2, mat, u, v);
        double t7 = now();
        for (int it = 0; it < 5000; it++) {    /* one long block's 63 partitions */
            memcpy(mthr, mthr0, sizeof mthr);
            d->ms_thresholds((const float (*)[64]) meb, mthr, mmld, math, 1.0f, 1.5f, 63);
        }
        double t8 = now();
        double const t[NPREP] = { (t1 - t0) / 2000, (t2 - t1) / 20000, (t3 - t2) / 20000,
                                  (t4 - t3) / 500, (t5 - t4) / 5000, (t6 - t5) / 5000,
                                  (t7 - t6) / 5000, (t8 - t7) / 5000 };
        for (int k = 0; k < NPREP; k++)
            if (t[k] * 1e9 < ns[k])
                ns[k] = t[k] * 1e9;
    }
    static const char *const names[NPREP] = { "window_granule", "attack_fir", "block_peaks",
                                              "gain_filter", "fht", "mdct_long",
                                              "pcm_s16le", "ms_thresholds" };
    for (int k = 0; k < NPREP; k++) {
        if (level == RL_SIMD_SCALAR)
            base[k] = ns[k];
        printf("bench %-14s %-7s %9.1f ns/call  x%.2f\n", names[k], rl_simd_name(level), ns[k],
               base[k] / ns[k]);
    }
}

/* Every level the CPU has, against the scalar table. */
static void check_prepare(int bench, int cpu)
{
    const RlDsp *const s = rl_dsp_table_at(RL_SIMD_SCALAR);
    double base[NPREP] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    for (int level = RL_SIMD_SCALAR; level <= cpu && level < RL_SIMD_LEVELS; level++) {
        RlDsp d;
        rl_dsp_init(&d, level);
        if (level > RL_SIMD_SCALAR) {
            int before = rl_test_failed_;
            check_window_granule(&d, s);
            check_attack(&d, s);
            check_gain_filter(&d, s);
            check_fht(&d, s);
            check_mdct_long(&d, s);
            check_pcm_s16le(&d, s);
            check_ms_thresholds(&d, s);
            printf("prepare      %-7s %s\n", rl_simd_name(level),
                   rl_test_failed_ == before ? "ok" : "FAILED");
        }
        if (bench)
            bench_prepare(&d, base, level);
    }
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

static int compare_noise(RlNoiseX34Fn fn, int level, const float *xr, const float *xr34,
                         const RlNoiseJob *jobs, int nj)
{
    float n0[64], n1[64];
    rl_noise_x34_batch(xr, xr34, jobs, nj, n0);
    fn(xr, xr34, jobs, nj, n1);
    for (int k = 0; k < nj; k++)
        if (memcmp(&n0[k], &n1[k], sizeof(float)) != 0)
            return CHECK(0, "noise_x34 %s, job %d of %d (off %d n %d sf %d): %a, scalar %a",
                         rl_simd_name(level), k, nj, jobs[k].off, jobs[k].n, jobs[k].sf, n1[k], n0[k]);
    return 1;
}

static void check_noise(RlNoiseX34Fn fn, int level)
{
    static float xr[NLINES], xr34[NLINES];
    RlNoiseJob jobs[64];
    int fails = 0;
    /* every band layout of every rate and block type, in band order as the
     * search batches them, on every kind of line */
    for (int kind = 0; kind <= 4; kind++)
        for (int r = 0; r < NRATES; r++) {
            for (int shrt = 0; shrt < 2 && fails < 10; shrt++) {
                if (!layout_enc[r])
                    continue;
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
                fails += !compare_noise(fn, level, xr, xr34, jobs, nj);
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
        fails += !compare_noise(fn, level, xr, xr34, jobs, nj);
    }
}

/* rl_x34_thr (noise_x34.h) against the scalar rounding it stands for:
 * floats spread over the whole range of the first rounding, and every
 * float within 8 steps of each point */
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
        if (x34_thr_rounding(q) != rl_k_34_one(q))
            fails += !CHECK(0, "rl_x34_thr at %a: %d, scalar %d", q, x34_thr_rounding(q), rl_k_34_one(q));
    }
    for (int i = 1; i < RL_X34_THR_N && fails < 10; i++) {
        float const t = fabsf(rl_x34_thr[i]);
        if (isinf(t))
            continue;
        float q = t;
        for (int k = 0; k < 8; k++)
            q = nextafterf(q, 0.0f);
        for (int k = 0; k < 17; k++, q = nextafterf(q, INFINITY))
            if (x34_thr_rounding(q) != rl_k_34_one(q))
                fails += !CHECK(0, "rl_x34_thr near point %d at %a: %d, scalar %d", i, q,
                                x34_thr_rounding(q), rl_k_34_one(q));
    }
    /* rl_x34_sure: the value is monotone in q, so the ends of the range
     * |q - i| < sure decide it */
    for (int i = RL_X34_SMALL_N; i <= RL_IXMAX_VAL && fails < 10; i++) {
        float const lo = nextafterf((float) i - rl_x34_sure, INFINITY);
        float const hi = nextafterf((float) i + rl_x34_sure, 0.0f);
        if (!(fabsf(lo - (float) i) < rl_x34_sure && fabsf(hi - (float) i) < rl_x34_sure))
            fails += !CHECK(0, "rl_x34_sure %a: ends around %d", rl_x34_sure, i);
        if (rl_k_34_one(lo) != i || rl_k_34_one(hi) != i)
            fails += !CHECK(0, "rl_x34_sure %a around %d: %d at %a, %d at %a", rl_x34_sure, i,
                            rl_k_34_one(lo), lo, rl_k_34_one(hi), hi);
    }
    CHECK(rl_x34_sure > 0.49f, "rl_x34_sure %a: the shortcut is almost never taken", rl_x34_sure);
}

/* ns per three batches: the 21 long bands of a 44.1 kHz granule at
 * music-like lines, at the steps that quantize each band's largest line to
 * about 15, 200 and 6000 (the search probes steps of all these sizes; the
 * large values leave the kernels' register tables) */
static double bench_noise(RlNoiseX34Fn fn)
{
    static const int width[] = { 4, 4, 4, 4, 4, 4, 6, 6, 8, 8, 10, 12, 16, 20, 24, 28, 34, 42,
                                 50, 54, 76 };
    static const float top[3] = { 15.0f, 200.0f, 6000.0f };
    enum { NB = (int) (sizeof(width) / sizeof(width[0])) };
    static float xr[NLINES], xr34[NLINES];
    RlNoiseJob jobs[3][NB];
    float out[NB];
    uint64_t saved = rng_state;
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
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int it = 0; it < 10000; it++)
            for (int s = 0; s < 3; s++)
                fn(xr, xr34, jobs[s], NB, out);
        double t = (now() - t0) / 10000.0 * 1e9;
        if (t < best)
            best = t;
    }
    return best;
}

/* ---- |xr|^(3/4) (rl_xrpow_lines) ---- */

static void check_xrpow(RlXrpowFn fn, int level)
{
    static float xr[NLINES], p0[NLINES + 8], p1[NLINES + 8];
    int fails = 0;
    for (int rep = 0; rep < 3000 && fails < 10; rep++) {
        int const kind = rep % 5;
        int const n = rep < 577 ? rep : (int) (rnd() % (NLINES + 1));
        for (int i = 0; i < NLINES; i++)
            xr[i] = kind == 3 ? line(3) * 1e20f : line(kind);   /* large: up to 1e28 */
        for (int i = 0; i < NLINES + 8; i++)
            p0[i] = p1[i] = -1.0f;
        float a0, a1;
        float const m0 = rl_xrpow_lines(xr, p0, n, &a0);
        float const m1 = fn(xr, p1, n, &a1);
        if (memcmp(p0, p1, sizeof p0) != 0 || memcmp(&m0, &m1, sizeof m0) != 0
            || memcmp(&a0, &a1, sizeof a0) != 0) {
            int i = 0;
            while (i < NLINES + 8 && memcmp(&p0[i], &p1[i], sizeof(float)) == 0)
                i++;
            fails++;
            CHECK(0, "xrpow %s, kind %d n %d: line %d %a (scalar %a), max %a (%a), absmax %a (%a)",
                  rl_simd_name(level), kind, n, i, i < NLINES + 8 ? p1[i] : 0, i < NLINES + 8 ? p0[i] : 0,
                  m1, m0, a1, a0);
        }
    }
}

/* ns per granule of 576 music-like lines */
static double bench_xrpow(RlXrpowFn fn)
{
    static float xr[NLINES], p[NLINES];
    uint64_t saved = rng_state;
    rng_state = 3;
    for (int i = 0; i < NLINES; i++)
        xr[i] = line(0);
    rng_state = saved;
    double best = 1e30;
    float a, sink = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int it = 0; it < 5000; it++)
            sink += fn(xr, p, NLINES, &a);
        double t = (now() - t0) / 5000.0 * 1e9;
        if (t < best)
            best = t;
    }
    return sink > 0 ? best : best;
}

/* ---- the line quantizer (rl_quantize_lines) ---- */

static void check_quantize_lines(RlQuantLinesFn fn, int level)
{
    static float xp[NLINES], xr[NLINES];
    static int i0[NLINES + 4], i1[NLINES + 4];
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
        for (int i = 0; i < NLINES + 4; i++)
            i0[i] = i1[i] = -7;
        rl_quantize_lines(n, rl_ipow20[sf], xp, i0);
        fn(n, rl_ipow20[sf], xp, i1);
        if (memcmp(i0, i1, sizeof i0) != 0) {
            int i = 0;
            while (i0[i] == i1[i])
                i++;
            fails++;
            CHECK(0, "quantize_lines %s, kind %d n %u step %d: ix[%d] %d, scalar %d", rl_simd_name(level),
                  kind, n, sf, i, i1[i], i0[i]);
        }
    }
}

/* ns per granule of 576 music-like lines at a step that quantizes the
 * largest to about 15 */
static double bench_quantize_lines(RlQuantLinesFn fn)
{
    static float xr[NLINES], xp[NLINES];
    static int ix[NLINES];
    uint64_t saved = rng_state;
    rng_state = 17;
    fill_lines(xr, xp, 0);
    rng_state = saved;
    float max = 0;
    for (int i = 0; i < NLINES; i++)
        max = max < xp[i] ? xp[i] : max;
    float const istep = rl_ipow20[lowest_step(max * (float) RL_IXMAX_VAL / 15.0f)];
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int it = 0; it < 5000; it++)
            fn(NLINES, istep, xp, ix);
        double t = (now() - t0) / 5000.0 * 1e9;
        if (t < best)
            best = t;
    }
    return best;
}

static void report_check(const char *name, int level, int before, int in_table)
{
    printf("%-12s %-7s %s%s\n", name, rl_simd_name(level), rl_test_failed_ == before ? "ok" : "FAILED",
           in_table ? "" : " (not in the table)");
}

static void report_bench(const char *name, int level, double ns, double *base)
{
    if (level == RL_SIMD_SCALAR)
        *base = ns;
    printf("bench %-12s %-7s %7.1f ns/call  x%.2f\n", name, rl_simd_name(level), ns, *base / ns);
}

/* one kernel at one level: the comparison with the scalar kernel, the
 * speed with --bench */
#define KERNEL(type, name, at, check, bench_fn, field, base)                   \
    do {                                                                       \
        type const fn_ = at(level);                                            \
        if (level > RL_SIMD_SCALAR && fn_) {                                   \
            int const before = rl_test_failed_;                                \
            check(fn_, level);                                                 \
            report_check(name, level, before, d.field == fn_);                 \
        }                                                                      \
        if (bench && fn_)                                                      \
            report_bench(name, level, bench_fn(fn_), &base);                   \
    } while (0)

static RlSpreadFn spread_at(int level) { return rl_dsp_table_at(level)->spread; }
static RlNoiseX34Fn noise_x34_at(int level) { return rl_dsp_table_at(level)->noise_x34; }
static RlXrpowFn xrpow_at(int level) { return rl_dsp_table_at(level)->xrpow; }
static RlQuantLinesFn quantize_lines_at(int level) { return rl_dsp_table_at(level)->quantize_lines; }

int main(int argc, char **argv)
{
    int const bench = argc > 1 && strcmp(argv[1], "--bench") == 0;
    int const cpu = rl_cpu_simd_level();
    rng_state = (uint64_t) rl_test_seed(1);
    double base = 0, base_sp = 0, base_nz = 0, base_xp = 0, base_ql = 0;
    layouts_init();
    rl_quant_tables_init();

    printf("CPU level: %s\n", rl_simd_name(cpu));
    check_x34_thresholds();
    for (int level = RL_SIMD_SCALAR; level < RL_SIMD_LEVELS; level++) {
        if (level > cpu) {
            printf("%-7s skipped (not on this CPU or build)\n", rl_simd_name(level));
            continue;
        }
        RlDsp d;
        rl_dsp_init(&d, level);
        CHECK_EQ(d.level, level, "rl_dsp_init level");
        if (level > RL_SIMD_SCALAR) {
            int before = rl_test_failed_;
            check_choose_table(&d);
            report_check("choose_table", level, before, 1);
        }
        if (bench)
            report_bench("choose_table", level, bench_choose_table(d.choose_table), &base);
        KERNEL(RlSpreadFn, "spread", spread_at, check_spread, bench_spread, spread, base_sp);
        KERNEL(RlNoiseX34Fn, "noise_x34", noise_x34_at, check_noise, bench_noise, noise_x34,
               base_nz);
        KERNEL(RlXrpowFn, "xrpow", xrpow_at, check_xrpow, bench_xrpow, xrpow, base_xp);
        KERNEL(RlQuantLinesFn, "quant_lines", quantize_lines_at, check_quantize_lines,
               bench_quantize_lines, quantize_lines, base_ql);
    }
    check_prepare(bench, cpu);
    layouts_free();
    return rl_test_done();
}
