/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: the per-channel ReplayGain feed (gain_feed.h) gives
 * exactly rl_gain_analyze's histogram and title gain for the same call
 * chunking, whatever the order the channel tasks run in, including two
 * task threads running concurrently with the pushing thread. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "gain_feed.h"
#include "replaygain.h"

static uint32_t lcg;
static uint32_t seed_base;   /* RL_TEST_SEED (default 0), mixed into every seed */
static uint32_t next_rnd(void) { lcg = lcg * 1103515245u + 12345u; return lcg >> 8; }
static float rnd(void) { return (float)(next_rnd() & 0xffff) / 32768.0f - 1.0f; }

/* deterministic signals: 0 loud noise with a slow envelope, 1 quiet
 * correlated stereo, 2 silence, 3 bursts over silence (wide histogram) */
static void make_signal(float *l, float *r, long n, int kind, uint32_t seed)
{
    lcg = seed ^ seed_base;
    for (long i = 0; i < n; i++) {
        float env = (float)((i / 2205) % 7 + 1) / 7.0f;
        if (kind == 0) { l[i] = rnd() * 30000.0f * env; r[i] = rnd() * 9000.0f; }
        else if (kind == 1) { l[i] = rnd() * 200.0f; r[i] = l[i] * 0.25f + rnd() * 50.0f; }
        else if (kind == 2) { l[i] = 0; r[i] = 0; }
        else { int on = (i / 3000) % 3 == 0; l[i] = on ? rnd() * 20000.0f : rnd() * 0.5f; r[i] = on ? 0 : rnd() * 3.0f; }
    }
}

/* Call lengths: 0 LAME's (1152 each, then flush bunches 368 and 1152),
 * 1 odd small and window-crossing sizes, 2 random 1..5000. */
static long *make_chunks(long n, int chunking, uint32_t seed, long maxlen, int *count)
{
    static const long odd[] = { 1, 5, 9, 10, 11, 333, 1152, 2205, 2300, 4, 3, 4801, 12 };
    long *c = malloc((size_t)(n + 1) * sizeof *c);
    long pos = 0;
    int k = 0;
    lcg = seed ^ seed_base;
    while (pos < n) {
        long len;
        if (chunking == 0)
            len = n - pos <= 1520 && n - pos > 1152 ? 368 : 1152;
        else if (chunking == 1)
            len = odd[k % 13];
        else
            len = 1 + (long)(next_rnd() % 5000);
        if (len > maxlen)
            len = maxlen;
        if (len > n - pos)
            len = n - pos;
        c[k++] = len;
        pos += len;
    }
    *count = k;
    return c;
}

/* ---- a tiny scheduler for the threaded case: notify -> condvar ---- */
typedef struct Sched {
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    int             finished;
    RlGainFeed     *feed;
    int             errors;
} Sched;

static void sched_notify(void *arg)
{
    Sched *s = arg;
    pthread_mutex_lock(&s->mu);
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

typedef struct Worker { Sched *s; int ch; } Worker;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Sched *s = w->s;
    for (;;) {
        int go;
        pthread_mutex_lock(&s->mu);
        while (!(go = rl_gain_task_pending(s->feed, w->ch)) && !s->finished)
            pthread_cond_wait(&s->cv, &s->mu);
        pthread_mutex_unlock(&s->mu);
        if (!go)
            return NULL;   /* finished and nothing left */
        if (rl_gain_task_run(s->feed, w->ch) != 0) {
            pthread_mutex_lock(&s->mu);
            s->errors++;
            pthread_mutex_unlock(&s->mu);
        }
    }
}

/* Feeds the chunks with task schedule `mode`:
 *  0 push everything (capacity permitting), tasks at the end / when full
 *  1 after every push run ch1 then ch0
 *  2 pseudo-random: after a push run none, one or both channels
 *  3 two worker threads, one per channel, woken by notify
 * marks (may be NULL): a title mark is pushed after chunk marks[k] (sorted,
 * repeats allowed: an empty title), nmarks of them */
static int feed_run(RlGainFeed *g, const float *l, const float *r, const long *chunks, int count,
                    int nch, int mode, uint32_t seed, Sched *s, const int *marks, int nmarks)
{
    int next_mark = 0;
    long pos = 0;
    int i, ch, rc;
    pthread_t th[2];
    Worker w[2];

    if (mode == 3) {
        for (ch = 0; ch < nch; ch++) {
            w[ch].s = s;
            w[ch].ch = ch;
            if (pthread_create(&th[ch], NULL, worker_main, &w[ch]) != 0)
                return -1;
        }
    }
    lcg = seed ^ seed_base;
    for (i = 0; i < count; i++) {
        size_t n = (size_t)chunks[i];
        if (mode == 3) {
            /* wait for space without polling: runs notify after freeing */
            pthread_mutex_lock(&s->mu);
            while (rl_gain_feed_space(g) < n)
                pthread_cond_wait(&s->cv, &s->mu);
            pthread_mutex_unlock(&s->mu);
            rc = rl_gain_feed_push(g, l + pos, nch == 2 ? r + pos : NULL, n);
        } else {
            while ((rc = rl_gain_feed_push(g, l + pos, nch == 2 ? r + pos : NULL, n)) == -EAGAIN) {
                /* all or nothing: run the tasks and retry */
                for (ch = 0; ch < nch; ch++)
                    if (rl_gain_task_run(g, ch) != 0)
                        return -2;
            }
        }
        if (rc != 0)
            return -3;
        while (marks && next_mark < nmarks && marks[next_mark] == i) {
            if (rl_gain_feed_mark(g) != 0)
                return -9;
            next_mark++;
        }
        pos += chunks[i];
        if (mode == 1) {
            for (ch = nch - 1; ch >= 0; ch--)
                if (rl_gain_task_run(g, ch) != 0)
                    return -4;
        } else if (mode == 2) {
            uint32_t pick = next_rnd() % 4;
            if ((pick & 1) && rl_gain_task_run(g, 0) != 0)
                return -5;
            if ((pick & 2) && nch == 2 && rl_gain_task_run(g, 1) != 0)
                return -6;
        }
    }
    if (mode == 3) {
        pthread_mutex_lock(&s->mu);
        s->finished = 1;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        for (ch = 0; ch < nch; ch++)
            pthread_join(th[ch], NULL);
        if (s->errors)
            return -7;
    } else {
        for (ch = 0; ch < 2; ch++)
            if (rl_gain_task_pending(g, ch) > 0 && rl_gain_task_run(g, ch) != 0)
                return -8;
    }
    return 0;
}

/* Sets up sched and the feed (notify for mode 3) and runs the chunks. */
static int feed_start(RlGainFeed *feed, Sched *sched, long sr, int nch, size_t cap, int mode,
                      const float *l, const float *r, const long *chunks, int count, uint32_t seed,
                      const int *marks, int nmarks)
{
    int rc;
    memset(sched, 0, sizeof *sched);
    pthread_mutex_init(&sched->mu, NULL);
    pthread_cond_init(&sched->cv, NULL);
    sched->feed = feed;
    rc = rl_gain_feed_init(feed, sr, nch, cap, NULL, mode == 3 ? sched_notify : NULL, sched);
    if (rc == 0)
        rc = feed_run(feed, l, r, chunks, count, nch, mode, seed, sched, marks, nmarks);
    return rc;
}

static void feed_end(RlGainFeed *feed, Sched *sched)
{
    rl_gain_feed_free(feed);
    pthread_cond_destroy(&sched->cv);
    pthread_mutex_destroy(&sched->mu);
}

static void one_case(long sr, int nch, int kind, int chunking, int mode, size_t cap)
{
    static RlGainState ref;
    static RlGainFeed feed;
    static Sched sched;
    long n = sr * 3 + 777;
    float *l = malloc((size_t)n * sizeof *l), *r = malloc((size_t)n * sizeof *r);
    int count, i, rc;
    long pos = 0;
    long *chunks;
    float want, got = 0;
    uint32_t wb, gb;

    make_signal(l, r, n, kind, (uint32_t)(sr + kind * 7 + nch));
    chunks = make_chunks(n, chunking, (uint32_t)(sr ^ (uint32_t)kind), (long)cap, &count);

    /* the reference: rl_gain_analyze over the same calls */
    rc = rl_gain_init(&ref, sr);
    for (i = 0; i < count && rc == 0; i++) {
        rc = rl_gain_analyze(&ref, l + pos, r + pos, (size_t)chunks[i], nch);
        pos += chunks[i];
    }

    if (rc == 0)
        rc = feed_start(&feed, &sched, sr, nch, cap, mode, l, r, chunks, count,
                        (uint32_t)(sr * 3 + mode), NULL, 0);
    CHECK(rc == 0, "sr %ld ch %d sig %d chunk %d mode %d cap %zu: run failed %d", sr, nch, kind, chunking, mode, cap, rc);
    if (rc == 0) {
        CHECK(memcmp(feed.hist, ref.hist, sizeof ref.hist) == 0,
              "sr %ld ch %d sig %d chunk %d mode %d cap %zu: histograms differ", sr, nch, kind, chunking, mode, cap);
        rc = rl_gain_feed_result(&feed, &got);
        want = rl_gain_title(&ref);
        memcpy(&wb, &want, 4);
        memcpy(&gb, &got, 4);
        CHECK(rc == 0 && wb == gb && rl_gain_radio_value(got) == rl_gain_radio_value(want),
              "sr %ld ch %d sig %d chunk %d mode %d cap %zu: gain %.9g (%08x) want %.9g (%08x) rc %d",
              sr, nch, kind, chunking, mode, cap, got, (unsigned)gb, want, (unsigned)wb, rc);
    }
    feed_end(&feed, &sched);
    free(chunks);
    free(l);
    free(r);
}

/* Gapless titles: marks after some calls (one pair back to back: an empty
 * title); every closed title's gain and the last one equal the
 * reference's, which calls rl_gain_title (GetTitleGain) at the same places. */
static void titles_case(long sr, int nch, int kind, int chunking, int mode, size_t cap)
{
    static RlGainState ref;
    static RlGainFeed feed;
    static Sched sched;
    long n = sr * 3 + 555;
    float *l = malloc((size_t)n * sizeof *l), *r = malloc((size_t)n * sizeof *r);
    float want[8], got;
    int marks[4], count, i, k, rc, nt = 0;
    long pos = 0;
    long *chunks;

    make_signal(l, r, n, kind, (uint32_t)(sr + kind * 5 + nch));
    chunks = make_chunks(n, chunking, (uint32_t)(sr ^ (uint32_t)kind ^ 77u), (long)cap, &count);
    marks[0] = count / 4;
    marks[1] = count / 2;
    marks[2] = count / 2;
    marks[3] = count - 2;
    rc = rl_gain_init(&ref, sr);
    for (i = 0, k = 0; i < count && rc == 0; i++) {
        rc = rl_gain_analyze(&ref, l + pos, r + pos, (size_t)chunks[i], nch);
        pos += chunks[i];
        for (; k < 4 && marks[k] == i; k++)
            want[nt++] = rl_gain_title(&ref);
    }
    want[nt] = rl_gain_title(&ref);

    if (rc == 0)
        rc = feed_start(&feed, &sched, sr, nch, cap, mode, l, r, chunks, count,
                        (uint32_t)(sr * 5 + mode), marks, 4);
    CHECK(rc == 0, "titles sr %ld ch %d mode %d: run failed %d", sr, nch, mode, rc);
    if (rc == 0) {
        CHECK(rl_gain_titles_closed(&feed) == 4, "titles sr %ld ch %d mode %d: %d closed", sr, nch,
              mode, rl_gain_titles_closed(&feed));
        for (k = 0; k <= 4; k++) {
            uint32_t wb, gb;
            rc = k < 4 ? rl_gain_feed_title(&feed, k, &got) : rl_gain_feed_result(&feed, &got);
            memcpy(&wb, &want[k], 4);
            memcpy(&gb, &got, 4);
            CHECK(rc == 0 && wb == gb, "titles sr %ld ch %d mode %d: title %d gain %.9g want %.9g (rc %d)",
                  sr, nch, mode, k, got, want[k], rc);
        }
        CHECK(rl_gain_feed_title(&feed, 4, &got) == -EBUSY, "title 4 is not closed");
    }
    feed_end(&feed, &sched);
    free(chunks);
    free(l);
    free(r);
}

/* Lockstep: after every call, the channel states (the double window sum,
 * the window position, the filter histories) and the histogram equal the
 * reference's bit for bit.  This sees a float-sum difference that the
 * 0.01 dB histogram bins would hide. */
static void lockstep_case(long sr, int nch, int kind, int chunking, size_t cap)
{
    static RlGainState ref;
    static RlGainFeed feed;
    long n = sr * 2 + 333, pos = 0;
    float *l = malloc((size_t)n * sizeof *l), *r = malloc((size_t)n * sizeof *r);
    int count, i, ch, bad = 0;
    long *chunks;

    make_signal(l, r, n, kind, (uint32_t)(sr * 5 + kind));
    chunks = make_chunks(n, chunking, (uint32_t)(sr + 17u * (uint32_t)kind), (long)cap, &count);
    if (rl_gain_init(&ref, sr) != 0 || rl_gain_feed_init(&feed, sr, nch, cap, NULL, NULL, NULL) != 0) {
        CHECK(0, "lockstep init sr %ld", sr);
        goto out;
    }
    for (i = 0; i < count && !bad; i++) {
        if (rl_gain_analyze(&ref, l + pos, r + pos, (size_t)chunks[i], nch) != 0
            || rl_gain_feed_push(&feed, l + pos, r + pos, (size_t)chunks[i]) != 0) {
            bad = 1;
            break;
        }
        pos += chunks[i];
        for (ch = 0; ch < nch; ch++)
            if (rl_gain_task_run(&feed, ch) != 0)
                bad = 2;
        for (ch = 0; ch < nch; ch++) {
            const RlGainChan *c = &feed.chan[ch];
            if (memcmp(&c->sum, &ref.sum[ch], sizeof c->sum) != 0 || c->totsamp != ref.totsamp
                || memcmp(c->out, ref.out[ch], (size_t)(RL_RG_MAX_ORDER + c->totsamp) * sizeof(float)) != 0
                || memcmp(c->step, ref.step[ch], (size_t)(RL_RG_MAX_ORDER + c->totsamp) * sizeof(float)) != 0
                || memcmp(c->in, ref.inpre[ch], RL_RG_MAX_ORDER * sizeof(float)) != 0)
                bad = 3;
        }
        if (memcmp(feed.hist, ref.hist, sizeof ref.hist) != 0)
            bad = 4;
    }
    CHECK(!bad, "lockstep sr %ld ch %d sig %d chunk %d cap %zu: differs (%d) after call %d",
          sr, nch, kind, chunking, cap, bad, i);
out:
    rl_gain_feed_free(&feed);
    free(chunks);
    free(l);
    free(r);
}

static void api_checks(void)
{
    static RlGainFeed g;
    static const float z[4000];
    float t = 0;

    memset(&g, 0, sizeof g);
    CHECK(rl_gain_task_pending(&g, 0) == 0 && rl_gain_feed_space(&g) == 0, "zeroed feed is idle");
    rl_gain_feed_free(&g);   /* must be harmless */
    CHECK(rl_gain_feed_init(&g, 96000, 2, 8192, NULL, NULL, NULL) == -ENOTSUP, "96 kHz refused");
    CHECK(rl_gain_feed_init(&g, 44100, 3, 8192, NULL, NULL, NULL) == -EINVAL, "3 channels refused");
    CHECK(rl_gain_feed_init(&g, 44100, 2, 100, NULL, NULL, NULL) == -EINVAL, "tiny capacity refused");

    CHECK(rl_gain_feed_init(&g, 44100, 2, 3000, NULL, NULL, NULL) == 0, "init");
    CHECK(rl_gain_feed_space(&g) == 3000, "empty space %zu", rl_gain_feed_space(&g));
    CHECK(rl_gain_feed_push(&g, z, z, 0) == 0 && rl_gain_task_pending(&g, 0) == 0, "empty push is a no-op");
    CHECK(rl_gain_feed_push(&g, z, z, 2000) == 0, "push 2000");
    CHECK(rl_gain_feed_space(&g) == 1000, "space after push %zu", rl_gain_feed_space(&g));
    CHECK(rl_gain_feed_push(&g, z, z, 1001) == -EAGAIN, "full push -EAGAIN");
    CHECK(rl_gain_feed_push(&g, z, z, 3001) == -EINVAL, "push over capacity -EINVAL");
    CHECK(rl_gain_feed_space(&g) == 1000, "-EAGAIN changed nothing");
    CHECK(rl_gain_task_pending(&g, 0) > 0 && rl_gain_task_pending(&g, 1) > 0
          && rl_gain_task_pending(&g, 2) == 0, "pending");
    CHECK(rl_gain_feed_result(&g, &t) == -EBUSY, "result while pending -EBUSY");
    CHECK(rl_gain_task_run(&g, 0) == 0 && rl_gain_task_pending(&g, 0) == 0, "run ch 0");
    CHECK(rl_gain_feed_space(&g) == 1000, "space waits for the slower channel");
    CHECK(rl_gain_task_run(&g, 1) == 0 && rl_gain_feed_space(&g) == 3000, "run ch 1 frees");
    CHECK(rl_gain_task_run(&g, 2) == -EINVAL, "bad channel");
    CHECK(rl_gain_feed_result(&g, &t) == 0 && t == RL_RG_NOT_ENOUGH, "no full window: not enough (%g)", t);
    rl_gain_feed_free(&g);
    CHECK(rl_gain_feed_init(&g, 8000, 1, 2000, NULL, NULL, NULL) == 0, "init mono");
    CHECK(rl_gain_feed_push(&g, z, NULL, 400) == 0 && rl_gain_task_pending(&g, 1) == 0, "mono: one task");
    CHECK(rl_gain_task_run(&g, 0) == 0 && rl_gain_feed_result(&g, &t) == 0 && t == 64.82f,
          "mono silent window: %g", t);
    rl_gain_feed_free(&g);
}

int main(void)
{
    static const long rates[] = { 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000 };
    int ri, mode;

    seed_base = (uint32_t)rl_test_seed(0);
    api_checks();
    /* every rate, both channel counts, LAME's chunking, all schedules */
    for (ri = 0; ri < 9; ri++)
        for (mode = 0; mode < 4; mode++)
            one_case(rates[ri], 1 + (ri + mode) % 2, (ri + mode) % 4, 0, mode, RL_GAIN_FEED_DEFAULT_CAP);
    /* odd and random chunkings, small capacities (wrap-around, -EAGAIN) */
    for (mode = 0; mode < 4; mode++) {
        one_case(44100, 2, 0, 1, mode, 1152);
        one_case(44100, 2, 3, 2, mode, 5000);
        one_case(48000, 1, 1, 2, mode, 5003);
        one_case(8000, 2, 3, 1, mode, 1200);
        one_case(22050, 2, 1, 0, mode, 4000);
    }
    for (mode = 0; mode < 4; mode++) {
        titles_case(44100, 2, mode, 0, mode, RL_GAIN_FEED_DEFAULT_CAP);
        titles_case(22050, 1, (mode + 1) % 4, 2, mode, 5000);
        titles_case(48000, 2, (mode + 2) % 4, 1, mode, 1152);
    }
    for (ri = 0; ri < 9; ri++) {
        lockstep_case(rates[ri], 2, ri % 4 == 2 ? 0 : ri % 4, ri % 3, 4096);
        lockstep_case(rates[ri], 1, (ri + 1) % 4 == 2 ? 3 : (ri + 1) % 4, (ri + 1) % 3, 8192);
    }
    return rl_test_done();
}
