/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame measurement tool (not a test): how often a rate-control mode's
 * exact check accepts a search that assumed an older carried state, the
 * ring's situation when `ahead` Encodes still run before the frame's own.
 * Encodes a 16-bit WAV in order; every frame is also searched with the
 * carried state Encode had `ahead` frames earlier (for each ahead listed)
 * and with the state the previous frame's search predicted (rl_search_predict,
 * from a search that itself assumed the state one frame old), and checked
 * against the true state with rl_search_valid.
 * usage: rc_accept [--candidates K [--age A]] FILE.wav [lame options...]
 *        e.g. rc_accept a.wav -b 320
 * prints: accepted/frames per assumption.
 * --candidates K (CBR): also, for the state A frames old (default 16),
 * how far the true reservoir lies from the assumed one, over which
 * reservoir interval one search's decisions all hold (its check passes
 * for every reservoir in it, with the search's own step starts), and how
 * many frames K searches would keep when each further one assumes the
 * reservoir just outside the interval the searches before it cover
 * (alternately above and below), every one checked exactly against the
 * truth.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"
#include "rl_encoder.h"
#include "rl_frame.h"
#include "rate_control.h"
#include "bitstream.h"
#include "cli_args.h"
#include "reservoir.h"
#include "tables.h"

static const int aheads[] = { 1, 2, 4, 8, 16 };
#define NAHEAD ((int) (sizeof aheads / sizeof aheads[0]))
#define HIST 17

typedef struct Count {
    long frames, ok[NAHEAD], ok_pred1, spec[NAHEAD], spec_pred1;
    long kept_gr[NAHEAD], kept_gr_pred1;    /* granules searched, in accepted frames */
} Count;

/* --candidates: histograms in steps of 8 bits (a reservoir after a
 * frame is a whole number of bytes) */
#define SPREAD_BINS 2048
#define MAX_CAND 16

typedef struct Candidates {
    int k, age;
    long frames;
    long err[SPREAD_BINS];      /* |true - assumed reservoir| / 8 */
    long width[SPREAD_BINS];    /* the first search's interval width / 8 */
    long err_sum;               /* true - assumed, summed */
    long inside;                /* the truth in the first search's interval */
    long step_differs;          /* the true step starts are not the assumed ones */
    long step_only;             /* kept with the assumed reservoir but the true step starts */
    long kept[MAX_CAND];        /* kept by one of the first j+1 searches */
    long covered[MAX_CAND];     /* the truth in the union of their intervals */
} Candidates;

typedef struct Tool {
    RlEncoder *e;
    RlFrame *f, *w;
    RlCarried hist[HIST];       /* hist[k]: the state before frame t-k */
    RlCarried pred;             /* the previous frame's prediction from a 1-old state */
    int have_pred;
    Count c;
    Candidates cand;
    uint8_t buf[RL_BS_BUFFER_SIZE];
} Tool;

/* the search ran the loops (a CBR search may leave them to Encode) */
static int speculated(const Tool *T, const RlFrame *w)
{
    return strcmp(T->e->k.rc->name, "cbr") != 0 || w->rc.cbr.deferred_from == T->e->k.cfg.mode_gr;
}

/* the granules whose loops ran in the search */
static int searched_granules(const Tool *T, const RlFrame *w)
{
    return strcmp(T->e->k.rc->name, "cbr") != 0 ? T->e->k.cfg.mode_gr : w->rc.cbr.deferred_from;
}

static void add_bin(long *h, int bits)
{
    int const b = (bits < 0 ? -bits : bits) / 8;
    h[b < SPREAD_BINS ? b : SPREAD_BINS - 1]++;
}

/* the bin below which a fraction q of the counts lie, in bits */
static int quantile(const long *h, long n, double q)
{
    long acc = 0;
    for (int b = 0; b < SPREAD_BINS; b++)
        if ((acc += h[b]) >= q * (double) n)
            return 8 * b;
    return 8 * SPREAD_BINS;
}

/* The reservoirs [*lo, *hi] around s's (in whole bytes, within 0..max) for
 * which w, searched from s, passes the check with s's step starts. */
static void search_interval(Tool *T, RlFrame *w, const RlCarried *s, int max, int *lo, int *hi)
{
    RlCarried r = *s;
    int const step = 8, reach = 8 * 1024;
    for (*lo = s->resv_size; *lo - step >= 0 && s->resv_size - *lo < reach; *lo -= step) {
        r.resv_size = *lo - step;
        if (!rl_search_valid(&T->e->k, w, &r))
            break;
    }
    for (*hi = s->resv_size; *hi + step <= max && *hi - s->resv_size < reach; *hi += step) {
        r.resv_size = *hi + step;
        if (!rl_search_valid(&T->e->k, w, &r))
            break;
    }
}

/* --candidates: frame f searched from the state age frames old and from
 * reservoirs just outside what the searches before cover. */
static int candidates(Tool *T, const RlFrame *f, const RlCarried *truth)
{
    Candidates *const C = &T->cand;
    RlFrame *const w = T->w;
    const RlConfig *const cfg = &T->e->k.cfg;
    int const idx = cfg->free_format ? 0
        : rl_bitrate_index(cfg->avg_bitrate, cfg->version, cfg->samplerate_out);
    RlCarried s = T->hist[C->age], r;
    int lo = 0, hi = 0, kept = 0, covered = 0, rc, max, mean_bits;

    s.ahead = 0;        /* every loop runs in the search */
    (void) rl_resv_frame_begin(cfg, s.resv_size, idx, f->padding, &mean_bits, &max);
    max = max > s.resv_size ? max : s.resv_size;
    C->frames++;
    C->err_sum += truth->resv_size - s.resv_size;
    C->step_differs += memcmp(&truth->step, &s.step, sizeof s.step) != 0;
    add_bin(C->err, truth->resv_size - s.resv_size);
    for (int j = 0; j < C->k; j++) {
        int a, b;
        r = s;
        if (j > 0) {
            int const up = j % 2 == 1 ? hi + 8 <= max : lo - 8 < 0;
            if (up ? hi + 8 > max : lo - 8 < 0)
                goto count;     /* the whole range is covered */
            r.resv_size = up ? hi + 8 : lo - 8;
        }
        *w = *f;
        if ((rc = rl_search(&T->e->k, w, &r)) < 0)
            return rc;
        if (!kept && rl_search_valid(&T->e->k, w, truth))
            kept = 1;
        if (j == 0) {
            r.step = truth->step;
            C->step_only += rl_search_valid(&T->e->k, w, &r);
            r.step = s.step;
        }
        search_interval(T, w, &r, max, &a, &b);
        if (j == 0) {
            lo = a;
            hi = b;
            add_bin(C->width, b - a + 8);
            C->inside += truth->resv_size >= a && truth->resv_size <= b;
        } else {
            lo = a < lo ? a : lo;
            hi = b > hi ? b : hi;
        }
        covered = truth->resv_size >= lo && truth->resv_size <= hi;
count:
        C->kept[j] += kept;
        C->covered[j] += covered;
    }
    return 0;
}

static int frame_step(Tool *T)
{
    RlFrame *const f = T->f, *const w = T->w;
    RlCarried truth;
    int rc;

    rl_prepare(&T->e->k, f);
    if ((rc = rl_resolve(&T->e->k, &T->e->psy, f)) < 0)
        return rc;
    rl_encoder_carried(&T->e->encode, &truth);
    memmove(&T->hist[1], &T->hist[0], sizeof T->hist[0] * (HIST - 1));
    T->hist[0] = truth;
    if (T->c.frames >= HIST) {
        for (int a = 0; a < NAHEAD; a++) {
            *w = *f;
            RlCarried s = T->hist[aheads[a]];
            s.ahead = aheads[a];
            if ((rc = rl_search(&T->e->k, w, &s)) < 0)
                return rc;
            T->c.spec[a] += speculated(T, w);
            if (rl_search_valid(&T->e->k, w, &truth)) {
                T->c.ok[a] += speculated(T, w);
                T->c.kept_gr[a] += searched_granules(T, w);
            }
        }
        if (T->cand.k > 0 && (rc = candidates(T, f, &truth)) < 0)
            return rc;
        if (T->have_pred) {
            *w = *f;
            T->pred.ahead = 1;
            if ((rc = rl_search(&T->e->k, w, &T->pred)) < 0)
                return rc;
            T->c.spec_pred1 += speculated(T, w);
            if (rl_search_valid(&T->e->k, w, &truth)) {
                T->c.ok_pred1 += speculated(T, w);
                T->c.kept_gr_pred1 += searched_granules(T, w);
            }
        }
    }
    /* the prediction the next frame's search would get from this frame's
     * search when it assumed the state one frame old */
    *w = *f;
    {
        RlCarried s = T->c.frames >= 1 ? T->hist[1] : truth;
        s.ahead = 0;        /* the search the next frame's prediction comes from runs its loops */
        if ((rc = rl_search(&T->e->k, w, &s)) < 0)
            return rc;
    }
    T->have_pred = rl_search_predict(&T->e->k, w, &T->pred);
    T->c.frames++;
    if ((rc = rl_search(&T->e->k, f, &truth)) < 0)
        return rc;
    if ((rc = rl_encode(&T->e->k, &T->e->encode, f, NULL)) < 0)
        return rc;
    while (rl_bits_take(&T->e->encode.enc, T->buf, sizeof T->buf) > 0)
        ;
    return 0;
}

/* the data chunk of a 16-bit PCM WAV: its samples and channel count */
static int16_t *read_wav(const char *path, long *frames, int *channels, int *rate)
{
    FILE *fp = fopen(path, "rb");
    uint8_t h[12], ck[8];
    int16_t *pcm = NULL;
    if (!fp || fread(h, 1, 12, fp) != 12 || memcmp(h, "RIFF", 4) || memcmp(h + 8, "WAVE", 4))
        goto bad;
    while (fread(ck, 1, 8, fp) == 8) {
        uint32_t const n = ck[4] | ck[5] << 8 | ck[6] << 16 | (uint32_t) ck[7] << 24;
        if (!memcmp(ck, "fmt ", 4)) {
            uint8_t fm[16];
            if (n < 16 || fread(fm, 1, 16, fp) != 16 || fm[14] != 16)
                goto bad;
            *channels = fm[2];
            *rate = fm[4] | fm[5] << 8 | fm[6] << 16;
            fseek(fp, (long) n - 16, SEEK_CUR);
        } else if (!memcmp(ck, "data", 4)) {
            pcm = malloc(n);
            if (!pcm || fread(pcm, 1, n, fp) != n)
                goto bad;
            *frames = (long) n / 2 / *channels;
            fclose(fp);
            return pcm;
        } else {
            fseek(fp, (long) n, SEEK_CUR);
        }
    }
bad:
    fprintf(stderr, "rc_accept: %s: not a 16-bit PCM WAV file\n", path);
    free(pcm);
    if (fp)
        fclose(fp);
    return NULL;
}

int main(int argc, char **argv)
{
    static Tool T;
    char *av[64];
    int ac = 0, channels = 0, rate = 0, rc;
    long n = 0;
    int16_t *pcm16;
    int32_t *pcm;
    RlArgs *args = calloc(1, sizeof *args);

    T.cand.age = 16;
    while (argc > 2 && (!strcmp(argv[1], "--candidates") || !strcmp(argv[1], "--age"))) {
        int const v = atoi(argv[2]);
        if (!strcmp(argv[1], "--age") ? v < 1 || v >= HIST : v < 1 || v > MAX_CAND) {
            fprintf(stderr, "rc_accept: %s %s: out of range\n", argv[1], argv[2]);
            return 2;
        }
        *(!strcmp(argv[1], "--age") ? &T.cand.age : &T.cand.k) = v;
        argc -= 2;
        argv += 2;
    }
    if (argc < 2 || argc > 60 || !args) {
        fprintf(stderr, "usage: rc_accept [--candidates K [--age A]] FILE.wav [lame options]\n");
        return 2;
    }
    if (!(pcm16 = read_wav(argv[1], &n, &channels, &rate)))
        return 1;
    av[ac++] = "rc_accept";
    for (int i = 2; i < argc; i++)
        av[ac++] = argv[i];
    av[ac++] = "--noreplaygain";
    av[ac++] = "--quiet";
    av[ac++] = "in.wav";
    av[ac++] = "out.mp3";
    av[ac] = NULL;
    if (rl_args_parse(args, ac, av, NULL, NULL, stdout, stderr) != RL_ARGS_OK)
        return 2;
    rl_set_num_channels(&args->lame.opt, channels);
    rl_set_in_samplerate(&args->lame.opt, rate);
    pcm = malloc(sizeof *pcm * (size_t) n * (size_t) channels);
    T.f = calloc(1, sizeof *T.f);
    T.w = calloc(1, sizeof *T.w);
    if (!pcm || !T.f || !T.w || rl_encoder_create(&T.e, &args->lame.opt) < 0)
        return 1;
    if (T.cand.k > 0 && strcmp(T.e->k.rc->name, "cbr") != 0) {
        fprintf(stderr, "rc_accept: --candidates measures CBR only\n");
        return 2;
    }
    for (long i = 0; i < n * channels; i++)
        pcm[i] = (int32_t) ((uint32_t) (uint16_t) pcm16[i] << 16);
    rc = 0;
    for (long i = 0; i < n && rc >= 0; i += 1152) {
        int const m = n - i < 1152 ? (int) (n - i) : 1152;
        rc = rl_dispatch_feed(&T.e->k, &T.e->dispatch, &T.e->rg, pcm + channels * i, m);
        while (rc >= 0 && (rc = rl_dispatch_next(&T.e->k, &T.e->dispatch, &T.e->rg, T.f)) > 0)
            rc = frame_step(&T);
    }
    while (rc >= 0 && (rc = rl_dispatch_flush_step(&T.e->k, &T.e->dispatch, &T.e->rg)) > 0)
        while (rc >= 0 && (rc = rl_dispatch_next(&T.e->k, &T.e->dispatch, &T.e->rg, T.f)) > 0)
            rc = frame_step(&T);
    if (rc < 0) {
        fprintf(stderr, "rc_accept: encode failed (%d)\n", rc);
        return 1;
    }
    printf("%s:", T.e->k.rc->name);
    for (int i = 2; i < argc; i++)
        printf(" %s", argv[i]);
    {
        double const nf = (double) (T.c.frames - HIST), ng = nf * T.e->k.cfg.mode_gr;
        printf(", %ld frames; whole frame searched / kept, granules kept, with the state:",
               T.c.frames - HIST);
        for (int a = 0; a < NAHEAD; a++)
            printf(" %d old %.1f / %.1f / %.1f%%", aheads[a], 100.0 * T.c.spec[a] / nf,
                   100.0 * T.c.ok[a] / nf, 100.0 * T.c.kept_gr[a] / ng);
        printf("; predicted from 1 old %.1f / %.1f / %.1f%%\n", 100.0 * T.c.spec_pred1 / nf,
               100.0 * T.c.ok_pred1 / nf, 100.0 * T.c.kept_gr_pred1 / ng);
    }
    if (T.cand.k > 0 && T.cand.frames > 0) {
        const Candidates *const C = &T.cand;
        double const nf = (double) C->frames;
        printf("state %d old: true - assumed reservoir: mean %+.0f bits, |.| median %d, 90%% %d; "
               "one search's interval: median %d bits (25%% %d, 75%% %d), holds the truth in "
               "%.1f%%; step starts differ in %.1f%%, kept with the assumed reservoir and the true "
               "step starts %.1f%%; "
               "searches / kept / truth covered:",
               C->age, (double) C->err_sum / nf, quantile(C->err, C->frames, 0.5),
               quantile(C->err, C->frames, 0.9), quantile(C->width, C->frames, 0.5),
               quantile(C->width, C->frames, 0.25), quantile(C->width, C->frames, 0.75),
               100.0 * (double) C->inside / nf, 100.0 * (double) C->step_differs / nf,
               100.0 * (double) C->step_only / nf);
        for (int j = 0; j < C->k; j++)
            printf(" %d %.1f / %.1f%%", j + 1, 100.0 * (double) C->kept[j] / nf,
                   100.0 * (double) C->covered[j] / nf);
        printf("\n");
    }
    rl_encoder_destroy(T.e);
    return 0;
}
