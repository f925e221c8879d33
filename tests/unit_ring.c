/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: stress test of the frame ring: tiny rings, many threads and
 * random delays at the stage boundaries (stress_hook), hundreds of encodes
 * of short inputs, each compared byte for byte with Debian's lame (when
 * installed) and with --sequential (the ring inline on one thread); plus the stop flag, the
 * speculative-search redo path and gapless sets (rl_run_ring_nogap, with
 * the reports of each file's read points and end for the console).
 *
 * usage: unit_ring [RUNS] [SEED]     (defaults 400 runs; the seed is SEED,
 *        else RL_TEST_SEED, else drawn from the clock and the pid; it is
 *        printed so that a failure can be replayed)
 * env:   RL_TEST_SEED=n (the seed when SEED is not given)
 *        LAME=path (default /usr/bin/lame; missing: lame's comparisons are
 *        skipped, the threads are compared with --sequential only) */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <math.h>

#include "harness.h"
#include "test_encode.h"

#include "cli_args.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "ring.h"
#include "trace.h"
#include "stages.h"
#include "stage_search.h"   /* rl_search_test_force_invalid */
#include "stress_hook.h"

typedef struct Case {
    const char *name;
    int rate, channels;
    long frames;
    const char *opts;        /* space separated lame options */
    uint8_t *ref;            /* reference bytes */
    size_t ref_len;
    int cbr;                 /* CBR: test_cbr_redo forces its redos */
} Case;

static char g_dir[256];

/* a deterministic test signal with tones, noise bursts and clicks, so that
 * long and short blocks, M/S and L/R frames all occur */
static int write_wav(const char *path, int rate, int channels, long frames, unsigned seed)
{
    FILE *fp = fopen(path, "wb");
    uint32_t data = (uint32_t)(frames * channels * 2), x = seed * 2654435761u + 1;
    uint8_t h[44];
    long i;
    int c;
    if (!fp)
        return -errno;
    memcpy(h, "RIFF", 4);
    h[4] = (uint8_t)(36 + data); h[5] = (uint8_t)((36 + data) >> 8);
    h[6] = (uint8_t)((36 + data) >> 16); h[7] = (uint8_t)((36 + data) >> 24);
    memcpy(h + 8, "WAVEfmt ", 8);
    h[16] = 16; h[17] = h[18] = h[19] = 0;
    h[20] = 1; h[21] = 0; h[22] = (uint8_t)channels; h[23] = 0;
    h[24] = (uint8_t)rate; h[25] = (uint8_t)(rate >> 8); h[26] = (uint8_t)(rate >> 16); h[27] = 0;
    {
        uint32_t br = (uint32_t)(rate * channels * 2);
        h[28] = (uint8_t)br; h[29] = (uint8_t)(br >> 8); h[30] = (uint8_t)(br >> 16); h[31] = (uint8_t)(br >> 24);
    }
    h[32] = (uint8_t)(channels * 2); h[33] = 0; h[34] = 16; h[35] = 0;
    memcpy(h + 36, "data", 4);
    h[40] = (uint8_t)data; h[41] = (uint8_t)(data >> 8); h[42] = (uint8_t)(data >> 16); h[43] = (uint8_t)(data >> 24);
    fwrite(h, 1, 44, fp);
    for (i = 0; i < frames; i++) {
        double t = (double)i / rate;
        int burst = (i / (rate / 7 + 1)) % 3 == 0;
        for (c = 0; c < channels; c++) {
            double v = 6000 * sin(2 * M_PI * (220 + 110 * c) * t) + 3000 * sin(2 * M_PI * 3150 * t);
            int16_t s;
            x = x * 1103515245u + 12345u;
            if (burst)
                v += ((int)(x >> 16) % 16000) - 8000;
            if (i % 9000 == 4500)
                v = 30000;
            s = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
            fputc(s & 0xff, fp);
            fputc((s >> 8) & 0xff, fp);
        }
    }
    return fclose(fp) == 0 ? 0 : -EIO;
}

static void in_path(const Case *c, char *p, size_t n)
{
    snprintf(p, n, "%s/%s.wav", g_dir, c->name);
}

static int g_trace;      /* the stress loop: record a trace of the run */
static RlRingStats *g_stats;     /* the run's task counts, when set */
static const _Atomic int *g_max_workers;   /* RlRingParams.max_workers of the runs */

/* Encodes case c with the ring (threads > 0) or as --sequential does
 * (threads == 0) into out_path.  Returns the driver's result. */
static int encode_on(const Case *c, const char *out_path, int threads, int slots, RlRingIo io_backend,
                     RlRingStop *stop,
                     void (*progress)(void *, int64_t, int64_t), void *parg, RlExecutor *ex)
{
    char inp[512];
    RlRingParams p;
    int rc;

    in_path(c, inp, sizeof inp);
    memset(&p, 0, sizeof p);
    if (threads > 0) {
        p.threads = threads;
        p.slots = slots;
        p.io_backend = io_backend;
        p.stop = stop;
        p.progress = progress;
        p.progress_arg = parg;
        p.exec = ex;
        p.stats = g_stats;
        p.max_workers = g_max_workers;
        /* every other stress run records a trace (trace.h: the
         * per-thread buffers, under TSan too) */
        if (g_trace && rl_trace_create(&p.trace) < 0)
            p.trace = NULL;
    }
    else {
        /* --sequential: one thread, no pool workers, direct I/O */
        p.threads = 1;
        p.io_backend = RL_RING_IO_DIRECT;
    }
    rc = rl_test_encode_file(c->opts, inp, out_path, &p);
    if (p.trace) {
        int const wrc = rl_trace_write(p.trace, "/dev/null");
        CHECK_EQ(wrc, 0, "%s: trace write", c->name);
        rl_trace_free(p.trace);
    }
    return rc;
}

static int encode(const Case *c, const char *out_path, int threads, int slots, RlRingIo io_backend,
                  RlRingStop *stop,
                  void (*progress)(void *, int64_t, int64_t), void *parg)
{
    return encode_on(c, out_path, threads, slots, io_backend, stop, progress, parg, NULL);
}

/* encode with the ring and compare with the case's reference */
static int run_and_compare(Case *c, int threads, int slots, RlRingIo io, const char *what)
{
    char outp[512];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc, same;

    snprintf(outp, sizeof outp, "%s/out.mp3", g_dir);
    rc = encode(c, outp, threads, slots, io, NULL, NULL, NULL);
    if (rc != 0) {
        CHECK(0, "%s: %s threads=%d slots=%d io=%d: rc %d", c->name, what, threads, slots, io, rc);
        return 0;
    }
    rc = rl_test_slurp(outp, &buf, &len);
    same = rc == 0 && len == c->ref_len && memcmp(buf, c->ref, len) == 0;
    CHECK(same, "%s: %s threads=%d slots=%d io=%d: bytes differ (%zu vs %zu)", c->name, what,
          threads, slots, io, len, c->ref_len);
    free(buf);
    unlink(outp);
    return same;
}

typedef struct StopAt {
    RlRingStop *token;
    int64_t at;
    int64_t last;
} StopAt;

/* the progress callback runs on a worker without the ring's lock: a normal
 * thread, so it may request the stop (that locks the token, then the ring) */
static void stop_progress(void *arg, int64_t done, int64_t total)
{
    StopAt *s = arg;
    s->last = done;
    if (done >= s->at)
        rl_ring_stop_request(s->token);
}

/* a thread that requests the stop after s->at microseconds */
static void *stop_later(void *arg)
{
    StopAt *s = arg;
    usleep((useconds_t)s->at);
    rl_ring_stop_request(s->token);
    return NULL;
}

/* a fresh stop token (requests are sticky) */
static RlRingStop *new_token(void)
{
    RlRingStop *t = NULL;
    int rc = rl_ring_stop_create(&t);
    CHECK(rc == 0 && t, "rl_ring_stop_create: %d", rc);
    return t;
}

/* ---- several rings on one shared executor, from different threads ---- */

typedef struct SharedJob {
    Case *c;
    RlExecutor *ex;
    int k, slots, rc, same;
    RlRingIo io;
    size_t len;
} SharedJob;

static void *shared_job(void *arg)
{
    SharedJob *j = arg;
    char outp[512];
    uint8_t *buf = NULL;

    snprintf(outp, sizeof outp, "%s/shared-%d.mp3", g_dir, j->k);
    /* threads only sizes the default ring; the pool is ex */
    j->rc = encode_on(j->c, outp, 2, j->slots, j->io, NULL, NULL, NULL, j->ex);
    j->same = 0;
    if (j->rc == 0 && rl_test_slurp(outp, &buf, &j->len) == 0)
        j->same = j->len == j->c->ref_len && memcmp(buf, j->c->ref, j->len) == 0;
    free(buf);
    unlink(outp);
    return NULL;
}

/* Three encodes at once on one pool of `workers` threads (0: each ring runs
 * inline on its own caller, the pool only wakes them). */
static void test_shared_pool(Case *cases, int ncases, int workers, int round)
{
    RlExecutor *ex = NULL;
    SharedJob job[3];
    pthread_t tid[3];
    int started[3], k, rc;

    rc = rl_executor_create(&ex, workers);
    CHECK(rc == 0, "shared pool of %d: %d", workers, rc);
    if (rc != 0)
        return;
    for (k = 0; k < 3; k++) {
        job[k].c = &cases[(round * 3 + k * 5) % ncases];
        job[k].ex = ex;
        job[k].k = k;
        job[k].slots = (round + k) % 3 == 0 ? 0 : 1 + (round + k) % 4;
        job[k].io = k == 1 ? RL_RING_IO_DIRECT : (round % 2 ? RL_RING_IO_THREAD : RL_RING_IO_AUTO);
        job[k].rc = -1;
        started[k] = pthread_create(&tid[k], NULL, shared_job, &job[k]) == 0;
        CHECK(started[k], "shared pool: thread %d", k);
    }
    for (k = 0; k < 3; k++) {
        if (!started[k])
            continue;
        pthread_join(tid[k], NULL);
        CHECK(job[k].rc == 0 && job[k].same, "shared pool of %d (round %d): %s slots=%d io=%d: rc %d, "
              "%s (%zu vs %zu bytes)", workers, round, job[k].c->name, job[k].slots, job[k].io,
              job[k].rc, job[k].same ? "same" : "differs", job[k].len, job[k].c->ref_len);
    }
    rl_executor_destroy(ex);
}

/* ---- a limit on the pool workers per ring (RlRingParams.max_workers) ---- */

typedef struct Toggle {
    RlExecutor *ex;
    _Atomic int *limit;
    _Atomic int quit;
    unsigned seed;
} Toggle;

/* moves the limit among 0, 1 and 2 every few hundred microseconds, as a
 * batch does when its last files start */
static void *toggle_limit(void *arg)
{
    Toggle *t = arg;
    while (!atomic_load(&t->quit)) {
        int const v = (int) (rand_r(&t->seed) % 3);
        if (v > atomic_exchange(t->limit, v))
            rl_executor_notify(t->ex);
        usleep(100 + rand_r(&t->seed) % 900);
    }
    return NULL;
}

/* With no pool worker allowed a ring on a pool of 3 runs on its own
 * thread alone: no worker ran one of Encode's items, and (every search
 * from the state of the Encode before it, as on one thread) none was
 * redone; the bytes are the reference's.  Then three rings at once on
 * that pool while the limit moves. */
static void test_max_workers(Case *cases, int ncases, unsigned seed)
{
    static _Atomic int limit;
    RlExecutor *ex = NULL;
    RlRingStats st;
    char outp[512];
    int rc = rl_executor_create(&ex, 3);

    CHECK(rc == 0, "max_workers: pool of 3: %d", rc);
    if (rc != 0)
        return;
    atomic_store(&limit, 0);
    g_max_workers = &limit;
    snprintf(outp, sizeof outp, "%s/limited.mp3", g_dir);
    for (int i = 0; i < ncases; i++) {
        Case *const c = &cases[i];
        uint8_t *buf = NULL;
        size_t len = 0;
        memset(&st, 0, sizeof st);
        g_stats = &st;
        rc = encode_on(c, outp, 4, 0, RL_RING_IO_AUTO, NULL, NULL, NULL, ex);
        g_stats = NULL;
        CHECK(rc == 0 && rl_test_slurp(outp, &buf, &len) == 0 && len == c->ref_len
              && memcmp(buf, c->ref, len) == 0, "%s: no pool worker allowed: rc %d, bytes differ",
              c->name, rc);
        CHECK(st.frames > 0 && st.side_tasks == 0 && st.search_redos == 0,
              "%s: no pool worker allowed, yet %lld items ran on workers and %lld of %lld "
              "searches were redone", c->name, (long long) st.side_tasks,
              (long long) st.search_redos, (long long) st.frames);
        free(buf);
        unlink(outp);
    }
    rl_executor_destroy(ex);

    for (int round = 0; round < 3; round++) {
        Toggle t;
        pthread_t tid;
        rc = rl_executor_create(&ex, 2);
        CHECK(rc == 0, "max_workers: pool of 2: %d", rc);
        if (rc != 0)
            break;
        t.ex = ex;
        t.limit = &limit;
        atomic_store(&t.quit, 0);
        t.seed = seed + (unsigned) round;
        rc = pthread_create(&tid, NULL, toggle_limit, &t);
        CHECK(rc == 0, "max_workers: toggle thread: %d", rc);
        if (rc == 0) {
            SharedJob job[3];
            pthread_t jt[3];
            int ok[3];
            for (int k = 0; k < 3; k++) {
                job[k].c = &cases[(round * 4 + k * 3) % ncases];
                job[k].ex = ex;
                job[k].k = k;
                job[k].slots = k == 0 ? 0 : k + round;
                job[k].io = RL_RING_IO_AUTO;
                job[k].rc = -1;
                ok[k] = pthread_create(&jt[k], NULL, shared_job, &job[k]) == 0;
                CHECK(ok[k], "max_workers: job thread %d", k);
            }
            for (int k = 0; k < 3; k++) {
                if (!ok[k])
                    continue;
                pthread_join(jt[k], NULL);
                CHECK(job[k].rc == 0 && job[k].same, "moving max_workers (round %d): %s: rc %d, %s",
                      round, job[k].c->name, job[k].rc, job[k].same ? "same" : "differs");
            }
            atomic_store(&t.quit, 1);
            pthread_join(tid, NULL);
        }
        rl_executor_destroy(ex);
    }
    g_max_workers = NULL;
}

/* ---- the ring's own API with in-memory ports (what the public API does) ---- */

typedef struct MemPorts {
    pthread_mutex_t mu;
    RlInBlock *blocks;          /* queued by the test thread ("send") */
    int nblocks, sent, taken, released;
    uint8_t *out;               /* the stream */
    size_t len, cap;
    int finished;
    int fail_in_at;             /* > 0: next fails (-EIO) once this many blocks were taken */
    size_t fail_out_at;         /* > 0: a write past this many bytes fails (-ENOSPC) */
} MemPorts;

static int mem_next(void *ctx, const RlInBlock **blk)
{
    MemPorts *m = ctx;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    if (m->fail_in_at > 0 && m->taken >= m->fail_in_at)
        rc = -EIO;
    else if (m->taken < m->sent) {
        *blk = &m->blocks[m->taken++];
        rc = 1;
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static void mem_release(void *ctx, const RlInBlock *blk)
{
    MemPorts *m = ctx;
    (void) blk;
    pthread_mutex_lock(&m->mu);
    m->released++;
    pthread_mutex_unlock(&m->mu);
}

static int mem_write(void *ctx, const uint8_t *p, size_t n)
{
    MemPorts *m = ctx;
    pthread_mutex_lock(&m->mu);
    if (m->fail_out_at > 0 && m->len + n > m->fail_out_at) {
        pthread_mutex_unlock(&m->mu);
        return -ENOSPC;
    }
    if (m->len + n > m->cap) {
        size_t cap = (m->len + n) * 2;
        uint8_t *q = realloc(m->out, cap);
        if (!q) {
            pthread_mutex_unlock(&m->mu);
            return -ENOMEM;
        }
        m->out = q;
        m->cap = cap;
    }
    memcpy(m->out + m->len, p, n);
    m->len += n;
    pthread_mutex_unlock(&m->mu);
    return 0;
}

static int mem_finish(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset)
{
    MemPorts *m = ctx;
    (void) offset;
    pthread_mutex_lock(&m->mu);
    if (tag_len <= m->len)
        memcpy(m->out, tag, tag_len);
    m->finished = 1;
    pthread_mutex_unlock(&m->mu);
    return tag_len <= m->len ? 0 : -EINVAL;
}

typedef struct OutSince {
    MemPorts *m;
    size_t seen;
} OutSince;

static int mem_out_grew(void *arg)
{
    OutSince *o = arg;
    int grew;
    pthread_mutex_lock(&o->m->mu);
    grew = o->m->len > o->seen;
    pthread_mutex_unlock(&o->m->mu);
    return grew;
}

/* Sends the input a block at a time; after each, "receive" helps until
 * output came or the ring starved, then helps to starvation: it must be
 * STARVED (never RUNNING with nothing to do, never DONE early).  The eof
 * block then ends it; the stream must equal the reference.  fail_end
 * RL_RING_END_INPUT / _OUTPUT: the input port's third next, or a write
 * past half the stream, fails instead; the run must fail and its result
 * name that port. */
static void test_mem_ports(Case *c, int workers, int frames_per_block, int fail_end)
{
    char inp[512], opts[256], *argv[32], *tok, *save = NULL, err[256];
    RlArgs *a = calloc(1, sizeof *a);
    RlPcmReader *in = NULL;
    RlExecutor *ex = NULL;
    RlRing *ring = NULL;
    RlRingInput ip;
    RlRingOutput op;
    RlRingParams p;
    RlRingResult res;
    MemPorts m;
    int32_t *pcm = NULL;
    int argc = 0, rc, fs, n, starved = 0, bad_state = 0;
    FILE *devnull = fopen("/dev/null", "w");

    memset(&m, 0, sizeof m);
    pthread_mutex_init(&m.mu, NULL);
    in_path(c, inp, sizeof inp);
    snprintf(opts, sizeof opts, "%s", c->opts);
    argv[argc++] = "ringlame";
    for (tok = strtok_r(opts, " ", &save); tok && argc < 28; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc++] = inp;
    argv[argc++] = "out.mp3";
    argv[argc] = NULL;
    rc = a && devnull ? rl_args_parse(a, argc, argv, NULL, getenv("RINGLAME_SIMD"), devnull, devnull) : -ENOMEM;
    if (devnull)
        fclose(devnull);
    if (rc == RL_ARGS_OK)
        rc = rl_pcm_open(&in, a->in_path, NULL, err, sizeof err);
    else
        rc = -EINVAL;
    if (rc == 0)
        rc = rl_set_num_channels(&a->lame.opt, rl_pcm_channels(in));
    if (rc == 0)
        rc = rl_set_in_samplerate(&a->lame.opt, rl_pcm_samplerate(in));
    if (rc == 0)
        rc = rl_executor_create(&ex, workers);
    CHECK(rc == 0, "mem ports %s: setup %d", c->name, rc);
    if (rc != 0)
        goto out;

    memset(&ip, 0, sizeof ip);
    ip.next = mem_next;
    ip.release = mem_release;
    ip.ctx = &m;
    ip.frames = rl_pcm_frames(in);
    memset(&op, 0, sizeof op);
    op.write = mem_write;
    op.finish = mem_finish;
    op.ctx = &m;
    op.wants_tag = 1;
    memset(&p, 0, sizeof p);
    memset(&res, 0, sizeof res);
    p.result = &res;
    m.fail_in_at = fail_end == RL_RING_END_INPUT ? 2 : 0;
    m.fail_out_at = fail_end == RL_RING_END_OUTPUT ? c->ref_len / 2 : 0;
    /* the blocks are fixed before the ring starts: the ring reads them
     * while we append (m.blocks never moves) */
    m.blocks = calloc(1 + (size_t)(c->frames / 64 + 2), sizeof *m.blocks);
    rc = m.blocks ? rl_ring_create(&ring, &a->lame.opt, ex, &ip, &op, &p) : -ENOMEM;
    CHECK(rc == 0, "mem ports %s: rl_ring_create %d", c->name, rc);
    if (rc != 0)
        goto out;
    fs = rl_ring_frame_size(ring);
    if (frames_per_block <= 0)
        frames_per_block = fs;
    else
        frames_per_block = (frames_per_block + fs - 1) / fs * fs;  /* LAME's reads */
    rl_pcm_set_read_size(in, fs);
    pcm = malloc(((size_t)c->frames + 1) * 2 * sizeof *pcm);
    n = pcm ? rl_pcm_read(in, pcm, (int)c->frames + 1) : -ENOMEM;
    CHECK(n == c->frames, "mem ports %s: read %d frames", c->name, n);
    if (n < 0)
        goto out;
    {
        int pos = 0, nch = rl_pcm_channels(in) > 1 ? 2 : 1;
        for (;;) {
            int k = n - pos < frames_per_block ? n - pos : frames_per_block;
            RlInBlock *b = &m.blocks[m.nblocks++];
            OutSince o;
            int st;
            b->data = pcm + (size_t)pos * (size_t)nch;
            b->nframes = k;
            b->eof = pos + k == n;
            b->first_frame = pos;
            b->fmt = RL_SF_I32;
            b->channels = nch;
            b->frame_bytes = nch * (int)sizeof(int32_t);
            pos += k;
            pthread_mutex_lock(&m.mu);          /* send() */
            m.sent++;
            pthread_mutex_unlock(&m.mu);
            rl_ring_input_ready(ring);
            if (b->eof)
                break;
            if (fail_end)
                continue;       /* the states of a failing run are its error */
            /* receive(): output or EAGAIN */
            pthread_mutex_lock(&m.mu);
            o.m = &m;
            o.seen = m.len;
            pthread_mutex_unlock(&m.mu);
            st = rl_ring_help_until(ring, mem_out_grew, &o);
            if (st != RL_RING_RUNNING && st != RL_RING_STARVED)
                bad_state++;
            /* drain to starvation: nothing more can happen without input */
            st = rl_ring_help_until(ring, NULL, NULL);
            starved += st == RL_RING_STARVED;
            if (st != RL_RING_STARVED || rl_ring_state(ring) != RL_RING_STARVED)
                bad_state++;
        }
    }
    rc = rl_ring_wait(ring);
    if (fail_end) {
        rl_ring_destroy(ring);      /* fills the result's failed_end */
        ring = NULL;
        CHECK(rc == (fail_end == RL_RING_END_INPUT ? -EIO : -ENOSPC) && res.failed_end == fail_end,
              "mem ports %s (%d workers): a failing %s port gave %d, failed_end %d", c->name,
              workers, fail_end == RL_RING_END_INPUT ? "input" : "output", rc, res.failed_end);
        goto out;
    }
    CHECK(rc == 0 && rl_ring_state(ring) == RL_RING_DONE && m.finished,
          "mem ports %s (%d workers): wait %d, state %d", c->name, workers, rc, rl_ring_state(ring));
    CHECK(bad_state == 0 && starved == m.nblocks - 1, "mem ports %s (%d workers): %d bad states, "
          "starved %d of %d times", c->name, workers, bad_state, starved, m.nblocks - 1);
    CHECK(m.len == c->ref_len && memcmp(m.out, c->ref, m.len) == 0,
          "mem ports %s (%d workers): bytes differ (%zu vs %zu)", c->name, workers, m.len, c->ref_len);
    rl_ring_destroy(ring);
    ring = NULL;
    CHECK(m.released == m.taken, "mem ports %s: %d blocks taken, %d released", c->name, m.taken,
          m.released);
out:
    rl_ring_destroy(ring);
    rl_executor_destroy(ex);
    if (in)
        rl_pcm_close(in);
    free(pcm);
    free(m.blocks);
    free(m.out);
    pthread_mutex_destroy(&m.mu);
    free(a);
}

/* CBR's redo path: with every frame's first search rejected (the test
 * hook) Encode redoes each frame from the true state, serially, and the
 * bytes stay the reference's; with one thread no search is redone (each
 * had the true state).  Counted through the ring's stats. */
static void test_cbr_redo(Case *cases, int ncases)
{
    static const int th[] = { 2, 3, 16 };
    for (int i = 0; i < ncases; i++) {
        Case *const c = &cases[i];
        RlRingStats st;
        if (!c->cbr)
            continue;
        g_stats = &st;
        memset(&st, 0, sizeof st);
        run_and_compare(c, 1, 0, RL_RING_IO_AUTO, "cbr one thread");
        CHECK(st.frames > 0 && st.search_redos == 0, "%s: one thread redid %lld of %lld searches",
              c->name, (long long) st.search_redos, (long long) st.frames);
        rl_search_test_force_invalid(1);
        for (int k = 0; k < 3; k++) {
            memset(&st, 0, sizeof st);
            run_and_compare(c, th[k], k + 1, RL_RING_IO_AUTO, "cbr every search rejected");
            CHECK(st.frames > 0 && st.search_redos == st.frames,
                  "%s: %d threads, every search rejected: %lld of %lld redone", c->name, th[k],
                  (long long) st.search_redos, (long long) st.frames);
        }
        rl_search_test_force_invalid(0);
        g_stats = NULL;
    }
}

/* The stress seed: argv's SEED, else RL_TEST_SEED, else the clock and the
 * pid (32 bits: the seed feeds srand and rl_stress_set).  Printed with the
 * way to replay it. */
static unsigned pick_seed(int argc, char **argv)
{
    unsigned long seed;
    if (argc > 2) {
        char *end;
        errno = 0;
        seed = strtoul(argv[2], &end, 0);
        if (errno || end == argv[2] || *end)
            rl_test_fatal("SEED %s is not a number", argv[2]);
        printf("seed %u (the SEED argument; replay: RL_TEST_SEED=%u, or unit_ring RUNS %u)\n",
               (unsigned)seed, (unsigned)seed, (unsigned)seed);
        return (unsigned)seed;
    }
    seed = rl_test_seed(((unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16)) & 0xffffffffu);
    return (unsigned)seed;
}

/* Gapless sets (rl_run_ring_nogap): three files (one shorter than a
 * frame, lengths not multiples of the frame size) at -V 2 and CBR with
 * their LAME tags (per-file ReplayGain titles: Encode waits for the gain
 * tasks at each boundary), and decoding on the fly (Encode decodes each
 * file's end, then waits for its title), on random thread counts, tiny rings, random
 * delays and forced search redos; every file compared with lame's (else
 * with --sequential's). */
/* What a gapless run reports for lame's console text: Dispatch's read
 * points (file_read_progress) and Encode's file ends (file_end, progress);
 * each side writes only its own fields. */
typedef struct NogapReport {
    /* Dispatch */
    int     read_file;          /* the file of the last read point */
    int64_t read_frames;        /* its frames */
    int     read_bad;           /* a read point out of order */
    /* Encode */
    int64_t done;               /* the last progress call's frames */
    int     ends;               /* file_end calls */
    int64_t end_frames[3];
    int64_t file_start;         /* the first frame of the file being written */
    int     end_bad;            /* a file_end out of order or before its frames */
} NogapReport;

static void nogap_on_read(void *arg, int file, int64_t frames)
{
    NogapReport *rep = arg;
    if (file < rep->read_file || file > rep->read_file + 1
        || (file == rep->read_file && frames < rep->read_frames) || frames < 0)
        rep->read_bad = 1;
    rep->read_file = file;
    rep->read_frames = frames;
}

static void nogap_on_progress(void *arg, int64_t done, int64_t total)
{
    (void) total;
    ((NogapReport *) arg)->done = done;
}

static void nogap_on_file_end(void *arg, int file, const RlRingResult *res)
{
    NogapReport *rep = arg;
    if (file != rep->ends || file > 1 || rep->done != rep->file_start + res->frames
        || res->tag_len <= 0 || !res->replay_gain)
        rep->end_bad = 1;
    else
        rep->end_frames[file] = res->frames;
    rep->ends++;
    rep->file_start += res->frames;
}

static void test_nogap(const char *lame, unsigned seed, int runs)
{
    int64_t want_frames[3] = { -1, -1, -1 };
    static const char *const opts[] = { "-V 2 --nogaptags", "-b 128 --nogaptags",
                                         "-V 2 --nogaptags --clipdetect" };
    static const char *const names[] = { "ng_a", "ng_b", "ng_c" };
    static const long lens[] = { 60001, 700, 30007 };
    char in[3][512], ref[3][3][512], out[3][512], cmd[4096];
    const char *inp[3], *outp[3], *refp[3];
    int i, k, m;

    for (i = 0; i < 3; i++) {
        snprintf(in[i], sizeof in[i], "%s/%s.wav", g_dir, names[i]);
        snprintf(out[i], sizeof out[i], "%s/%s.out.mp3", g_dir, names[i]);
        inp[i] = in[i];
        outp[i] = out[i];
        CHECK(write_wav(in[i], 44100, 2, lens[i], 40u + (unsigned)i) == 0, "nogap: input %d", i);
    }
    for (m = 0; m < 3; m++) {
        RlRingParams p;
        char dir[300];
        snprintf(dir, sizeof dir, "%s/ng%d", g_dir, m);
        CHECK(mkdir(dir, 0755) == 0, "nogap: mkdir %s", dir);
        for (i = 0; i < 3; i++) {
            snprintf(ref[m][i], sizeof ref[m][i], "%s/%s.mp3", dir, names[i]);
            refp[i] = ref[m][i];
        }
        if (lame) {
            snprintf(cmd, sizeof cmd, "'%s' --quiet %s --nogapout '%s' --nogap '%s' '%s' '%s' "
                     "</dev/null 2>/dev/null", lame, opts[m], dir, in[0], in[1], in[2]);
            CHECK(rl_test_run(cmd, NULL, NULL) == 0, "nogap: lame failed: %s", cmd);
        }
        else {
            memset(&p, 0, sizeof p);
            p.threads = 1;
            p.io_backend = RL_RING_IO_DIRECT;
            CHECK(rl_test_encode_nogap(opts[m], inp, refp, 3, &p) == 0, "nogap: sequential");
        }
    }
    srand(seed ^ 0x9e3779b9u);
    for (k = 0; k < runs; k++) {
        RlRingParams p;
        RlRingResult res;
        NogapReport rep;
        int const mode = k % 3, force = rand() % 3 == 0 ? 1 + rand() % 4 : 0;
        int rc, same = 1;
        memset(&p, 0, sizeof p);
        memset(&res, 0, sizeof res);
        memset(&rep, 0, sizeof rep);
        p.progress_arg = &rep;
        p.file_read_progress = nogap_on_read;
        p.progress = nogap_on_progress;
        p.file_end = nogap_on_file_end;
        p.result = &res;
        p.threads = k < 2 ? 1 : 1 + rand() % 12;
        p.slots = k < 2 ? 0 : 1 + rand() % 4;
        p.io_backend = RL_RING_IO_DIRECT;
        rl_stress_set(seed + 7000u + (unsigned)k, k < 2 ? 0 : 1 + rand() % 300);
        rl_search_test_force_invalid(force);
        rc = rl_test_encode_nogap(opts[mode], inp, outp, 3, &p);
        for (i = 0; i < 3 && rc == 0; i++) {
            uint8_t *a = NULL, *b = NULL;
            size_t la = 0, lb = 0;
            if (rl_test_slurp(ref[mode][i], &a, &la) != 0 || rl_test_slurp(out[i], &b, &lb) != 0
                || la != lb || memcmp(a, b, la) != 0)
                same = 0;
            free(a);
            free(b);
        }
        CHECK(rc == 0 && same, "nogap %s: threads=%d slots=%d force=%d: rc %d, %s", opts[mode],
              p.threads, p.slots, force, rc, same ? "same" : "bytes differ");
        /* the console's reports: in order, each file's frames the same at
         * every thread count, the last file's the rest of the run's */
        rep.end_frames[2] = res.frames - rep.file_start;
        CHECK(rc != 0 || (!rep.read_bad && rep.read_file == 2 && !rep.end_bad && rep.ends == 2
                          && rep.done == res.frames),
              "nogap reports: threads=%d: read order %s (last file %d), file ends %d%s, "
              "progress %lld of %lld", p.threads, rep.read_bad ? "bad" : "ok", rep.read_file,
              rep.ends, rep.end_bad ? " (bad)" : "", (long long) rep.done, (long long) res.frames);
        for (i = 0; i < 3 && rc == 0 && mode == 0; i++) {
            if (want_frames[i] < 0)
                want_frames[i] = rep.end_frames[i];
            CHECK(rep.end_frames[i] == want_frames[i], "nogap file %d: %lld frames, first run %lld",
                  i, (long long) rep.end_frames[i], (long long) want_frames[i]);
        }
    }
    rl_stress_set(0, 0);
    rl_search_test_force_invalid(0);
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 400;
    unsigned seed;
    const char *lame = rl_test_lame();
    int have_lame = lame != NULL;
    Case cases[] = {
        { "st44_2s_V4", 44100, 2, 88200, "-V 4 --noreplaygain", NULL, 0, 0 },
        { "st44_1153_V2", 44100, 2, 1153, "-V 2", NULL, 0, 0 },
        { "mono22_1s_V0", 22050, 1, 22050, "-V 0", NULL, 0, 0 },
        { "st48_1s_V9", 48000, 2, 48000, "-V 9", NULL, 0, 0 },
        { "st44_0_V4", 44100, 2, 0, "-V 4", NULL, 0, 0 },
        { "st44_1_V4", 44100, 2, 1, "-V 4", NULL, 0, 0 },
        { "st44_1152_V2r", 44100, 2, 1152, "-V 2 --resample 32", NULL, 0, 0 },
        { "st44_2s_cbr", 44100, 2, 88200, "", NULL, 0, 1 },
        { "st44_1s_abr160", 44100, 2, 44100, "--abr 160", NULL, 0, 0 },
        { "st44_1s_b320q0", 44100, 2, 44100, "-b 320 -q 0 --noreplaygain", NULL, 0, 1 },
        { "mono22_1153_abr64", 22050, 1, 1153, "--abr 64", NULL, 0, 0 },
        { "st44_1s_vbrold", 44100, 2, 44100, "--vbr-old -V 3", NULL, 0, 0 },
        /* decode on the fly: the Redecode task after Encode */
        { "st44_2s_rgacc", 44100, 2, 88200, "-V 2 --replaygain-accurate", NULL, 0, 0 },
        { "mono22_1s_clipcbr", 22050, 1, 22050, "-b 64 --clipdetect", NULL, 0, 1 },
        /* CBR without a reservoir to move (free format, --nores), MPEG-2.5 */
        { "st44_1s_free400", 44100, 2, 44100, "--freeformat -b 400 --noreplaygain", NULL, 0, 1 },
        { "st44_1s_nores_q3", 44100, 2, 44100, "-b 192 --nores -q 3 --noreplaygain", NULL, 0, 1 },
        { "st8_2s_b24", 8000, 2, 16000, "-b 24", NULL, 0, 1 },
    };
    int ncases = (int)(sizeof cases / sizeof cases[0]);
    int i;

    setvbuf(stdout, NULL, _IOLBF, 0);
    seed = pick_seed(argc, argv);
    printf("unit_ring: seed %u, %d runs, reference: %s\n", seed, runs,
           have_lame ? lame : "--sequential only");
    if (!have_lame)
        printf("note: no lame ($LAME, else /usr/bin/lame): lame's comparisons are SKIPPED; "
               "the threads are compared with --sequential only\n");
    {
        int rc = rl_test_tmpdir(g_dir, sizeof g_dir, "unit-ring");
        if (rc != 0)
            rl_test_fatal("cannot create a temporary directory: %s", strerror(-rc));
    }

    /* inputs and references */
    for (i = 0; i < ncases; i++) {
        Case *c = &cases[i];
        char inp[512], outp[512], cmd[2048];
        uint8_t *seq = NULL;
        size_t seq_len = 0;
        int rc;
        in_path(c, inp, sizeof inp);
        rc = write_wav(inp, c->rate, c->channels, c->frames, (unsigned)i + 1);
        CHECK(rc == 0, "%s: cannot write the input (%d)", c->name, rc);
        snprintf(outp, sizeof outp, "%s/%s.seq.mp3", g_dir, c->name);
        rc = encode(c, outp, 0, 0, RL_RING_IO_AUTO, NULL, NULL, NULL);
        CHECK(rc == 0, "%s: sequential encode failed (%d)", c->name, rc);
        if (rc == 0)
            rl_test_slurp(outp, &seq, &seq_len);
        if (have_lame) {
            snprintf(outp, sizeof outp, "%s/%s.lame.mp3", g_dir, c->name);
            snprintf(cmd, sizeof cmd, "'%s' --quiet %s '%s' '%s' </dev/null", lame, c->opts, inp, outp);
            rc = rl_test_run(cmd, NULL, NULL);
            CHECK(rc == 0, "%s: lame failed (%d): %s", c->name, rc, cmd);
            if (rc == 0 && rl_test_slurp(outp, &c->ref, &c->ref_len) == 0) {
                CHECK(seq && seq_len == c->ref_len && memcmp(seq, c->ref, seq_len) == 0,
                      "%s: --sequential differs from lame", c->name);
                free(seq);
                continue;
            }
        }
        c->ref = seq;
        c->ref_len = seq_len;
    }

    /* plain runs first: every thread count of the identity matrix */
    for (i = 0; i < ncases; i++) {
        static const int th[] = { 1, 2, 3, 8, 64 };
        int k;
        for (k = 0; k < 5; k++)
            run_and_compare(&cases[i], th[k], 0, RL_RING_IO_AUTO, "plain");
    }

    test_cbr_redo(cases, ncases);

    /* several rings at once on one pool */
    for (i = 0; i < 4; i++) {
        rl_stress_set(seed + 1000u + (unsigned)i, i % 2 ? 100 : 0);
        test_shared_pool(cases, ncases, i == 3 ? 0 : 2, i);
    }
    rl_stress_set(0, 0);

    test_max_workers(cases, ncases, seed);

    /* the ring's API on in-memory ports: STARVED after each block */
    test_mem_ports(&cases[0], 0, 0, 0);
    test_mem_ports(&cases[0], 2, 4096, 0);
    test_mem_ports(&cases[1], 1, 0, 0);
    test_mem_ports(&cases[8], 3, 1152 * 3, 0);
    /* which port failed, through the result */
    for (int w = 0; w <= 3; w += 3) {
        test_mem_ports(&cases[0], w, 0, RL_RING_END_INPUT);
        test_mem_ports(&cases[0], w, 0, RL_RING_END_OUTPUT);
    }

    /* the stress loop: tiny rings, many threads, random delays, and in a
     * third of the runs forced speculative-search redos */
    srand(seed);
    for (i = 0; i < runs; i++) {
        Case *c = &cases[rand() % ncases];
        /* mostly 1-12 workers, every eighth run 16-64 */
        int threads = rand() % 8 == 0 ? 16 + rand() % 49 : 1 + rand() % 12;
        int slots = 1 + rand() % 4;
        int force = rand() % 3 == 0 ? 1 + rand() % 4 : 0;
        static const RlRingIo ios[3] = { RL_RING_IO_DIRECT, RL_RING_IO_AUTO, RL_RING_IO_THREAD };
        RlRingIo const io = ios[rand() % 3];
        rl_stress_set(seed + (unsigned)i, 1 + rand() % 300);
        g_trace = i % 2;
        rl_search_test_force_invalid(force);
        if (getenv("RL_VERBOSE"))
            printf("run %d: %s threads=%d slots=%d io=%d force=%d\n", i, c->name, threads, slots, io, force);
        if (!run_and_compare(c, threads, slots, io, "stress")) {
            printf("     replay: unit_ring %d %u, or RL_TEST_SEED=%u unit_ring %d (run %d, force_invalid %d)\n",
                   runs, seed, seed, runs, i, force);
            break;
        }
    }
    rl_stress_set(0, 0);
    rl_search_test_force_invalid(0);
    g_trace = 0;

    /* gapless sets under the same stress */
    test_nogap(lame, seed, runs / 10 + 4);

    /* the stop flag: set before the start, and from the progress callback
     * in the middle of the stream */
    {
        char outp[512];
        StopAt s;
        int rc;
        snprintf(outp, sizeof outp, "%s/stop.mp3", g_dir);
        s.token = new_token();
        CHECK(rl_ring_stop_requested(s.token) == 0, "a new token is not requested");
        rl_ring_stop_request(s.token);
        CHECK(rl_ring_stop_requested(s.token) == 1, "the request is recorded");
        s.at = 0;
        rc = encode(&cases[0], outp, 4, 0, RL_RING_IO_AUTO, s.token, NULL, NULL);
        CHECK_EQ(rc, -EINTR, "stop before start: rc");
        CHECK(access(outp, F_OK) != 0, "stop before start: the partial output was kept");
        /* sticky: a second ring with the same token stops too */
        rc = encode(&cases[0], outp, 2, 0, RL_RING_IO_DIRECT, s.token, NULL, NULL);
        CHECK_EQ(rc, -EINTR, "stop before start (again): rc");
        rl_ring_stop_free(s.token);
        s.token = new_token();
        s.at = 10;
        s.last = 0;
        rl_stress_set(seed, 100);
        rc = encode(&cases[0], outp, 4, 4, RL_RING_IO_AUTO, s.token, stop_progress, &s);
        rl_stress_set(0, 0);
        CHECK_EQ(rc, -EINTR, "stop at frame 10: rc");
        CHECK(s.last >= 10 && s.last < 60, "stop at frame 10: stopped after %lld frames",
              (long long)s.last);
        rl_ring_stop_free(s.token);
        s.token = new_token();
        s.at = 1 << 30;
        rc = encode(&cases[0], outp, 3, 0, RL_RING_IO_DIRECT, s.token, stop_progress, &s);
        CHECK(rc == 0 && s.last > 70, "progress: rc %d, last %lld", rc, (long long)s.last);
        CHECK(rl_ring_stop_requested(s.token) == 0, "an unused token stays clear");
        rl_ring_stop_free(s.token);
        /* from a foreign thread, while workers run or sleep (TSan checks the
         * token -> ring locking); the encode may also finish first */
        {
            int k;
            for (k = 0; k < 6; k++) {
                pthread_t tid;
                StopAt late;
                late.token = new_token();
                late.at = 2000 + 3000 * k;   /* microseconds before the request */
                rl_stress_set(seed + (unsigned)k, 50);
                if (late.token && pthread_create(&tid, NULL, stop_later, &late) == 0) {
                    rc = encode(&cases[0], outp, 1 + k * 2, k % 3 + 1,
                                k % 2 ? RL_RING_IO_THREAD : RL_RING_IO_DIRECT,
                                late.token, NULL, NULL);
                    pthread_join(tid, NULL);
                    CHECK(rc == -EINTR || rc == 0, "stop from a thread (%d): rc %d", k, rc);
                }
                rl_stress_set(0, 0);
                rl_ring_stop_free(late.token);
            }
        }
        unlink(outp);
    }

    /* an output error in the middle of the stream (ENOSPC on /dev/full, or
     * wherever it first shows): the ring drains and reports it, with and
     * without the I/O scheduler, also with delays */
    if (access("/dev/full", W_OK) == 0) {
        static const RlRingIo ios[2] = { RL_RING_IO_DIRECT, RL_RING_IO_THREAD };
        for (int k = 0; k < 2; k++) {
            RlRingIo const io = ios[k];
            int rc;
            rl_stress_set(seed, 200);
            rc = encode(&cases[0], "/dev/full", 6, 3, io, NULL, NULL, NULL);
            rl_stress_set(0, 0);
            CHECK(rc < 0, "output error (io=%d): rc %d, want an error", io, rc);
        }
    }

    for (i = 0; i < ncases; i++)
        free(cases[i].ref);
    if (rl_test_rmtree(g_dir) != 0)
        printf("note: could not remove %s\n", g_dir);
    return rl_test_done();
}
