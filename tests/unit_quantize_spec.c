/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: every rate-control mode through its interface
 * (rl_search_assume, rl_search with an assumed carried state,
 * rl_search_valid, rl_encode's serial redo and commit).
 * Encodes generated signals (full-scale square: the second pass runs in
 * almost every frame at -V0; noise; silence; impulses) with VBR-new, ABR,
 * CBR and vbr_rh, and for every frame searches with wrong states (extreme,
 * near and random reservoirs and step-search starts): a "valid" answer
 * must mean bit-identical search output, and rl_encode of any wrong-state
 * search must redo exactly the rejected ones and leave Encode's state
 * byte for byte as the encode of the true-state search does; modes that
 * read the carried state must reject some, the others none; a stream
 * encoded from wrong-state searches with forced invalidations must equal
 * the plain in-order stream, which never redoes.
 * The noise's and the wrong states' generators start from RL_TEST_SEED
 * (default 1); the seed is printed.  No reference lame is needed.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "stages.h"
#include "stage_search.h"   /* rl_search_test_force_invalid */
#include "rl_encoder.h"
#include "rate_control.h"
#include "bitstream.h"
#include "cli_args.h"

#define SR 44100
#define NSAMP (SR * 3)

/* 0.75 s full-scale square, 0.75 s noise at about -10 dB (its generator
 * starts at seed), 0.5 s silence, 1 s impulses; left and right differ */
static void make_signal(int32_t *pcm, unsigned seed)
{
    unsigned r = seed;
    long i;
    for (i = 0; i < NSAMP; i++) {
        int32_t l, rr;
        if (i < SR * 3 / 4) {
            l = ((i / 50) & 1) ? 32767 : -32767;
            rr = ((i / 15) & 1) ? 32767 : -32767;
        } else if (i < SR * 3 / 2) {
            r = r * 1103515245u + 12345u;
            l = (int32_t)((r >> 16) & 0x7fff) - 16384;
            r = r * 1103515245u + 12345u;
            rr = (int32_t)((r >> 16) & 0x7fff) - 16384;
        } else if (i < SR * 2) {
            l = rr = 0;
        } else {
            l = (i % 441 == 0) ? 32767 : 0;
            rr = (i % 441 == 1) ? -32767 : 0;
        }
        pcm[2 * i] = (int32_t)((uint32_t)l << 16);
        pcm[2 * i + 1] = (int32_t)((uint32_t)rr << 16);
    }
}

/* the search outputs every mode's Encode reads from the generic record */
static int same_search(const RlFrame *a, const RlFrame *b)
{
    if (memcmp(&a->side, &b->side, sizeof a->side) != 0)
        return 0;
    if (a->search_rc != b->search_rc)
        return 0;
    if (a->search_rc == 0
        && (a->main.total_bits != b->main.total_bits
            || memcmp(a->main.bits, b->main.bits, sizeof a->main.bits) != 0
            || memcmp(a->main.buf, b->main.buf, (size_t)(a->main.total_bits + 7) / 8) != 0))
        return 0;
    return 1;
}

typedef struct Run {
    uint8_t *out;
    size_t len, cap;
    long frames, valid_wrong, invalid, rejected, mismatches, encode_mismatches, redone, second_pass;
    long valid_moved_start;     /* accepted with another step-search start */
    long deferred;              /* CBR searches that left the loops to Encode */
} Run;

/* A rate-control mode under test: its options, whether its search reads the
 * carried state (else every assumption must be accepted), and whether the
 * signal must make VBR-new's second pass run. */
typedef struct Mode {
    const char *name;
    const char *rc_name;        /* the rate-control unit the options select */
    const char *opt[5];
    int reads_carried;
    int second_pass;
} Mode;

static const Mode modes[] = {
    { "-V0", "vbr-new", { "-V0" }, 1, 1 },
    { "--abr 160", "abr", { "--abr", "160" }, 1, 0 },
    { "--abr 320", "abr", { "--abr", "320" }, 1, 0 },
    { "-b 128", "cbr", { "-b", "128" }, 1, 0 },
    { "-b 128 -q 0", "cbr", { "-b", "128", "-q", "0" }, 1, 0 },
    { "-b 128 -q 1", "cbr", { "-b", "128", "-q", "1" }, 1, 0 },
    { "-b 128 -q 2", "cbr", { "-b", "128", "-q", "2" }, 1, 0 },
    { "-b 128 -q 4", "cbr", { "-b", "128", "-q", "4" }, 1, 0 },
    { "-b 128 -q 5", "cbr", { "-b", "128", "-q", "5" }, 1, 0 },
    { "-b 128 -q 6", "cbr", { "-b", "128", "-q", "6" }, 1, 0 },
    { "-b 128 -q 7", "cbr", { "-b", "128", "-q", "7" }, 1, 0 },
    { "-b 128 -q 8", "cbr", { "-b", "128", "-q", "8" }, 1, 0 },
    { "-b 128 -q 9", "cbr", { "-b", "128", "-q", "9" }, 1, 0 },
    { "-b 320", "cbr", { "-b", "320" }, 1, 0 },
    { "-b 96 -m m", "cbr", { "-b", "96", "-m", "m" }, 1, 0 },
    { "-b 64 --resample 22.05", "cbr", { "-b", "64", "--resample", "22.05" }, 1, 0 },
    /* no reservoir to move: the search runs at every age */
    { "--freeformat -b 400", "cbr", { "--freeformat", "-b", "400" }, 1, 0 },
    { "-b 192 --nores", "cbr", { "-b", "192", "--nores" }, 1, 0 },
    { "--vbr-old -V 2", "vbr-old", { "--vbr-old", "-V", "2" }, 0, 0 },
};
static const Mode *g_mode = &modes[0];

static unsigned g_rand;         /* the wrong states' generator (seeded in main) */

static unsigned next_rand(void)
{
    g_rand = g_rand * 1103515245u + 12345u;
    return (g_rand >> 8) & 0xffffff;
}

static int take(RlEncoder *e, Run *run)
{
    uint8_t buf[RL_BS_BUFFER_SIZE];
    long n;
    while ((n = rl_bits_take(&e->encode.enc, buf, sizeof buf)) > 0) {
        if (run->len + (size_t)n > run->cap) {
            size_t cap = (run->cap + (size_t)n) * 2;
            uint8_t *p = realloc(run->out, cap);
            if (!p)
                return -1;
            run->out = p;
            run->cap = cap;
        }
        memcpy(run->out + run->len, buf, (size_t)n);
        run->len += (size_t)n;
    }
    return (int)n;
}

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The wrong states a frame is searched with: the extreme reservoirs, two
 * near the truth with moved step starts, and NRANDOM random ones, which
 * also claim to be 0..16 Encodes old (a CBR search may then leave its
 * loops to Encode). */
#define NFIXED 4
#define NRANDOM 3
#define NWRONG (NFIXED + NRANDOM)
static void wrong_states(const RlCarried *truth, RlCarried wrong[NWRONG])
{
    int const tr = truth->resv_size;
    int const fixed[NFIXED] = { 0, 4088, clamp(tr + 8, 0, 4088), clamp(tr - 64, 0, 4088) };
    for (int k = 0; k < NWRONG; k++) {
        wrong[k] = *truth;
        if (k < NFIXED) {
            wrong[k].resv_size = fixed[k];
            if (k & 1) {        /* another step-search start too (ABR reads it) */
                wrong[k].step.old_value[0] += 3 + 5 * k;
                wrong[k].step.current_step[1] = wrong[k].step.current_step[1] == 4 ? 2 : 4;
            }
            continue;
        }
        wrong[k].resv_size = (int)(next_rand() % 4089);
        wrong[k].ahead = (int)(next_rand() % 17);
        for (int ch = 0; ch < 2; ch++) {
            unsigned const r = next_rand();
            if (r & 1)
                wrong[k].step.old_value[ch] = clamp(truth->step.old_value[ch] + (int)(r >> 1) % 21 - 10,
                                                    0, 255);
            if (r & 2)
                wrong[k].step.current_step[ch] = 1 << (int)((r >> 9) % 3);
        }
    }
}

static int moved_start(const RlCarried *a, const RlCarried *b)
{
    return memcmp(&a->step, &b->step, sizeof a->step) != 0;
}

/* Encode (rl_encode: the mode's check, redo and commit) of w and of u on
 * two copies of Encode's state: the states after them must be the same
 * bytes.  Returns 0, or a negative error; *redone: rl_encode redid w. */
static int same_encode(RlEncoder *e, RlFrame *w, RlFrame *u, int *redone, int *same)
{
    RlEncodeStage *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    int rc = -1, ra, rb;
    if (a && b) {
        memcpy(a, &e->encode, sizeof *a);
        memcpy(b, &e->encode, sizeof *b);
        ra = rl_encode(&e->k, a, w, NULL);
        rb = rl_encode(&e->k, b, u, NULL);
        rc = ra < 0 ? ra : rb < 0 ? rb : 0;
        *redone = ra == 1;
        *same = memcmp(a, b, sizeof *a) == 0;
    }
    free(a);
    free(b);
    return rc;
}

/* speculative = 0: in-order search with the mode's assumption from the true
 * state (the sequential driver).  1: every frame is also searched with wrong
 * states, each checked against the true-state search and encoded beside
 * it, and the frame encoded comes from a wrong-state search. */
static int frame_step(RlEncoder *e, RlFrame *f, RlFrame *fr[3], int speculative, Run *run)
{
    RlFrame *const t = fr[0], *const w = fr[1], *const u = fr[2];
    int rc, k;
    RlCarried truth, assumed, wrong[NWRONG];
    rl_prepare(&e->k, f);
    if ((rc = rl_resolve(&e->k, &e->psy, f)) < 0)
        return rc;
    rl_encoder_carried(&e->encode, &truth);
    run->frames++;
    if (!speculative) {
        rl_search_assume(&e->k, &truth, 0, &assumed);
        if ((rc = rl_search(&e->k, f, &assumed)) < 0)
            return rc;
        if (!rl_search_valid(&e->k, f, &truth))
            run->invalid++;     /* only the forced ones */
        if ((rc = rl_encode(&e->k, &e->encode, f, NULL)) < 0)
            return rc;
        run->redone += f->search_runs > 1;
        return take(e, run);
    }
    *t = *f;
    if ((rc = rl_search(&e->k, t, &truth)) < 0)
        return rc;
    if (g_mode->second_pass)
        run->second_pass += t->rc.vbr_new.second_pass;
    wrong_states(&truth, wrong);
    for (k = 0; k < NWRONG; k++) {
        int valid, redone, same, deferred;
        *w = *f;
        if ((rc = rl_search(&e->k, w, &wrong[k])) < 0)
            return rc;
        deferred = strcmp(g_mode->rc_name, "cbr") == 0 && w->rc.cbr.deferred_from < e->k.cfg.mode_gr;
        valid = rl_search_valid(&e->k, w, &truth);
        run->deferred += deferred;
        if (valid) {
            run->valid_wrong++;
            /* a search that left its loops to Encode read no start */
            run->valid_moved_start += moved_start(&wrong[k], &truth) && !deferred;
            /* a search that left its loops to Encode holds only their
             * inputs: same_encode below compares what Encode makes of it */
            if (!deferred && !same_search(w, t)) {
                run->mismatches++;
                printf("frame %ld: valid with resv %d (true %d) but differs\n",
                       (long)f->index, wrong[k].resv_size, truth.resv_size);
            }
        } else {
            run->invalid++;
            run->rejected += f->index % 3 != 0;     /* not a forced one */
        }
        *u = *t;
        if ((rc = same_encode(e, w, u, &redone, &same)) < 0)
            return rc;
        if (redone == valid || !same) {
            run->encode_mismatches++;
            printf("frame %ld, state %d: rl_encode %s, %s state\n", (long)f->index, k,
                   redone ? "redid" : "kept", same ? "the same" : "another");
        }
    }
    /* encode a wrong-state search; rl_encode validates and redoes */
    *w = *f;
    if ((rc = rl_search(&e->k, w, &wrong[f->index % NWRONG])) < 0)
        return rc;
    if ((rc = rl_encode(&e->k, &e->encode, w, NULL)) < 0)
        return rc;
    run->redone += w->search_runs > 1;
    *f = *w;            /* the record carries on from frame to frame, like LAME's one l3_side */
    return take(e, run);
}

static int encode(const int32_t *pcm, int speculative, Run *run)
{
    char *argv[12];
    int argc = 0;
    RlArgs *args = calloc(1, sizeof *args);
    RlEncoder *e = NULL;
    RlFrame *f = calloc(1, sizeof *f);
    RlFrame *fr[3] = { calloc(1, sizeof *f), calloc(1, sizeof *f), calloc(1, sizeof *f) };
    long i;
    int rc = -1;

    if (!args || !f || !fr[0] || !fr[1] || !fr[2])
        goto done;
    argv[argc++] = "unit";
    for (i = 0; i < 5 && g_mode->opt[i] != NULL; i++)
        argv[argc++] = (char *) g_mode->opt[i];
    argv[argc++] = "--noreplaygain";
    argv[argc++] = "--quiet";
    argv[argc++] = "in.wav";
    argv[argc++] = "out.mp3";
    argv[argc] = NULL;
    if (rl_args_parse(args, argc, argv, NULL, getenv("RINGLAME_SIMD"), stdout, stdout) != RL_ARGS_OK)
        goto done;
    rl_set_num_channels(&args->lame.opt, 2);
    rl_set_in_samplerate(&args->lame.opt, SR);
    if ((rc = rl_encoder_create(&e, &args->lame.opt)) < 0)
        goto done;
    if (strcmp(e->k.rc->name, g_mode->rc_name) != 0) {
        printf("%s: rate control %s, want %s\n", g_mode->name, e->k.rc->name, g_mode->rc_name);
        rc = -1;
        goto out;
    }
    if ((rc = take(e, run)) < 0)
        goto out;
    for (i = 0; i < NSAMP; i += 1152) {
        int n = NSAMP - i < 1152 ? (int)(NSAMP - i) : 1152;
        if ((rc = rl_dispatch_feed(&e->k, &e->dispatch, &e->rg, pcm + 2 * i, n)) < 0)
            goto out;
        while ((rc = rl_dispatch_next(&e->k, &e->dispatch, &e->rg, f)) > 0)
            if ((rc = frame_step(e, f, fr, speculative, run)) < 0)
                goto out;
        if (rc < 0)
            goto out;
    }
    while ((rc = rl_dispatch_flush_step(&e->k, &e->dispatch, &e->rg)) > 0) {
        while ((rc = rl_dispatch_next(&e->k, &e->dispatch, &e->rg, f)) > 0)
            if ((rc = frame_step(e, f, fr, speculative, run)) < 0)
                goto out;
        if (rc < 0)
            goto out;
    }
    if (rc < 0)
        goto out;
    if ((rc = rl_bits_flush(&e->encode.enc, &e->k.cfg)) < 0)
        goto out;
    rc = take(e, run);
out:
    rl_encoder_destroy(e);
done:
    free(args);
    free(f);
    for (i = 0; i < 3; i++)
        free(fr[i]);
    return rc;
}

/* the hook alone: a forced frame is invalid once, its redo is accepted */
static void check_hook(const int32_t *pcm)
{
    Run plain, forced;
    memset(&plain, 0, sizeof plain);
    memset(&forced, 0, sizeof forced);
    CHECK(encode(pcm, 0, &plain) == 0, "plain encode succeeds");
    CHECK(plain.invalid == 0 && plain.redone == 0, "in-order searches are valid, never redone");
    rl_search_test_force_invalid(2);
    CHECK(encode(pcm, 0, &forced) == 0, "encode with forced invalidation succeeds");
    rl_search_test_force_invalid(0);
    CHECK(forced.redone == (forced.frames + 1) / 2 && forced.invalid == forced.redone,
          "forced: %ld of %ld frames redone (want %ld), %ld invalid", forced.redone, forced.frames,
          (forced.frames + 1) / 2, forced.invalid);
    CHECK(plain.len == forced.len && memcmp(plain.out, forced.out, plain.len) == 0,
          "forced redo: same bytes as the plain encode");

    {
        Run spec;
        memset(&spec, 0, sizeof spec);
        rl_search_test_force_invalid(3);
        CHECK(encode(pcm, 1, &spec) == 0, "speculative encode succeeds");
        rl_search_test_force_invalid(0);
        printf("speculative: %ld frames, %ld second-pass, %ld valid with a wrong state, "
               "%ld invalid (%ld not forced)\n",
               spec.frames, spec.second_pass, spec.valid_wrong, spec.invalid, spec.rejected);
        if (g_mode->second_pass)
            CHECK(spec.second_pass > 0, "%s: the square makes the second pass run", g_mode->name);
        if (g_mode->reads_carried) {
            CHECK(spec.rejected > 0, "%s: some wrong-state searches are rejected", g_mode->name);
        } else {
            CHECK(spec.rejected == 0, "%s: the search reads no carried state: every one is accepted",
                  g_mode->name);
        }
        CHECK(spec.valid_wrong > 0, "%s: some wrong-state searches are accepted", g_mode->name);
        if (strcmp(g_mode->rc_name, "cbr") == 0)
            CHECK(spec.deferred > 0 && spec.deferred < spec.valid_wrong,
                  "%s: old states leave some loops to Encode (%ld), others are searched",
                  g_mode->name, spec.deferred);
        CHECK(spec.valid_moved_start > 0, "%s: searches from another step start are accepted",
              g_mode->name);
        CHECK(spec.mismatches == 0, "%s: every accepted search equals the true-state search",
              g_mode->name);
        CHECK(spec.encode_mismatches == 0,
              "%s: rl_encode redoes exactly the rejected ones and leaves the true-state encode's state",
              g_mode->name);
        CHECK(spec.redone >= (spec.frames + 2) / 3, "%s: rl_encode redid at least the forced frames",
              g_mode->name);
        CHECK(plain.len == spec.len && memcmp(plain.out, spec.out, plain.len) == 0,
              "speculative encode: same bytes as the plain encode");
        free(spec.out);
    }
    free(plain.out);
    free(forced.out);
}

int main(void)
{
    int32_t *pcm = malloc(sizeof(int32_t) * 2 * NSAMP);
    unsigned seed = (unsigned)rl_test_seed(1);
    if (!pcm)
        rl_test_fatal("out of memory");
    make_signal(pcm, seed);
    g_rand = seed * 2654435761u + 1u;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        g_mode = &modes[m];
        printf("mode %s\n", g_mode->name);
        check_hook(pcm);
    }
    free(pcm);
    return rl_test_done();
}
