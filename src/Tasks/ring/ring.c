/* ringlame: the threaded encode driver: a ring of frame records that worker
 * threads move through the five stages (Dispatch, Prepare, Resolve, Search,
 * Encode), ReplayGain channel tasks beside it and the I/O scheduler thread at
 * both ends; byte-identical with rl_run_sequential.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 *
 * THE THREADING CONTRACT
 *
 * Objects.  One Ring (ring_impl.h): the encoder (RlEncoder, whose serial
 * states belong to the serial stages), `nslots` frame records and the
 * scheduler fields, guarded by ONE mutex `mu` (the scheduler lock) and one
 * condition variable `cv` on which idle workers sleep.  Frame t lives in slot
 * t % nslots; frames enter (Dispatch) and leave (Encode) in index order, so
 * the slots in use are always the frames [encoded, cut].
 *
 * Cursors (under mu; each only grows):
 *     encoded <= search_take <= resolved <= prep_take <= cut
 *   cut          frames Dispatch has written (frame `cut` is being written
 *                while dispatch_running)
 *   prep_take    frames handed to Prepare (in order; they finish in any
 *                order: per-slot flag `prepared`)
 *   resolved     frames Resolve finished (strictly in order)
 *   search_take  frames handed to Search (in order; finish flag `searched`)
 *   encoded      frames Encode finished; their slots are free again
 *
 * Tasks.  A worker takes one task under mu (pick_task), marks it taken, drops
 * mu, runs it, takes mu again and publishes the result (complete_task).  No
 * stage function and no I/O call runs under mu.  Priority (oldest frames
 * first, so slots drain): Encode > Resolve > Search (oldest) > Prepare
 * (oldest) > ReplayGain channel 0, 1 > Dispatch > Finish.  Serial stages are
 * not threads: the flags dispatch_running / resolve_running / encode_running /
 * gain_running[ch] (under mu) let at most one worker run each, and
 * Resolve/Encode take the next frame in index order only.
 *
 * Who may touch what, when:
 *   frame record t   Dispatch writes it while it is frame `cut` and
 *                    dispatch_running (the slot is free: cut - encoded <
 *                    nslots was checked under mu when the task was taken).
 *                    Then exactly the one worker that took its Prepare /
 *                    Resolve / Search / Encode task, one after another; the
 *                    hand-over is the publish under mu (the mutex orders the
 *                    writes before the next stage's reads).  A record is
 *                    reused for any later frame: no stage reads fields a
 *                    previous frame left behind.
 *   e->dispatch, the reader (direct mode), the I/O input side (rl_io_in_*),
 *                    r->pcm / blk / in_eof       only the Dispatch task.
 *   e->psy           only the Resolve task.
 *   e->enc, the writer (direct mode), the I/O output side (rl_io_out_*),
 *                    the progress callback       only the Encode task and,
 *                    after the last Encode, the Finish task.
 *   e->rg (the gain feed)   Dispatch pushes; gain task ch runs channel ch;
 *                    the feed's own mutex makes that safe (gain_feed.h).
 *                    pick_task asks it rl_gain_task_pending/space under mu:
 *                    lock order mu -> feed, and the feed never calls back
 *                    (no notify is set), so no cycle.
 *   e->cfg/ath/psyc         read-only after init: any task.
 *   Search reads no serial state: it gets `assumed` (RlCarried), Encode's state after
 *   the last committed Encode, copied under mu when the task is taken
 *   (resv_committed, written by complete_task of Encode).  Encode checks the
 *   speculation (rl_encode calls rl_search_valid with the true reservoir)
 *   and re-runs the search itself, serially, when it does not hold.
 *
 * Wake-ups.  Readiness is derived from the cursors and flags, never polled:
 * a worker that publishes a result looks for its next task itself; when it
 * takes one and more work is ready while workers sleep, it signals cv once
 * (each woken worker does the same: a chain, no thundering herd).  The I/O
 * thread's notify (a block arrived) takes mu, bumps io_events and signals.
 * Dispatch that found no block waits until io_events moves past the value it
 * saw when it was taken (so a notify between its rl_io_in_next and its
 * publish is not lost).  Idle workers use plain pthread_cond_wait: there is
 * no timed wait anywhere in the ring.
 *
 * Stopping.  A stop token (RlRingStop, ring.h) is an object with its own
 * mutex, a sticky `requested` flag and the list of rings attached to it.
 * rl_run_ring attaches its Ring (under the token's lock; an already
 * requested token sets stop_req at once) before the workers start and
 * detaches it after they are joined, before mu is destroyed.
 * rl_ring_stop_request, from any normal thread (never a signal handler: the
 * command's signal thread sigwait()s and calls it), takes the token's lock,
 * then each attached ring's mu, sets stop_req and broadcasts cv.  Lock
 * order: token -> mu; no worker takes the token's lock.  A worker sees
 * stop_req under mu at the top of its loop (after a wake-up, or after
 * publishing its task) and fails with -EINTR as below: the worker that
 * fails first also cancels the I/O scheduler, the same path as any error.
 *
 * Errors and shutdown.  The first error (a task's -errno, or -EINTR once
 * stop_req is set) wins: `err` is set under mu, `quit` is raised and every
 * sleeper is woken; nothing new is taken.  The worker that failed first also
 * cancels the I/O scheduler (outside mu), which makes an Encode blocked on a
 * full output queue return; the others finish their current call and leave.
 * The caller's thread is worker 0; it joins the others, aborts the I/O
 * scheduler unless Finish already closed it, and returns err.  A normal end
 * is the Finish task (taken once Dispatch's flush is done, every frame is
 * encoded and no gain work is left): it flushes the bitstream, builds the
 * LAME tag, rl_io_finish writes the rest and the tag, and quit is raised.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ring_impl.h"
#include "pcm_reader.h"
#include "mp3_writer.h"
#include "stress_hook.h"

#define RING_MAX_THREADS 256
#define RING_MAX_SLOTS   256

int rl_ring_default_threads(void)
{
    cpu_set_t set;
    int n;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 1;
    n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}

/* ----------------------------------------------------------- stop token */

struct RlRingStop {
    pthread_mutex_t mu;     /* guards requested and rings; taken before any Ring's mu */
    int   requested;
    Ring *rings;            /* attached rings, linked by Ring.stop_next */
};

int rl_ring_stop_create(RlRingStop **out)
{
    RlRingStop *s;
    int rc;

    if (!out)
        return -EINVAL;
    *out = NULL;
    s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    rc = pthread_mutex_init(&s->mu, NULL);
    if (rc != 0) {
        free(s);
        return -rc;
    }
    *out = s;
    return 0;
}

void rl_ring_stop_free(RlRingStop *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->mu);
    free(s);
}

void rl_ring_stop_request(RlRingStop *s)
{
    Ring *r;

    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->requested = 1;
    /* lock order token -> ring: a ring detaches under the token's lock
     * before it destroys mu, so every ring on the list is alive here */
    for (r = s->rings; r; r = r->stop_next) {
        pthread_mutex_lock(&r->mu);
        r->stop_req = 1;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
    }
    pthread_mutex_unlock(&s->mu);
}

int rl_ring_stop_requested(RlRingStop *s)
{
    int v;

    if (!s)
        return 0;
    pthread_mutex_lock(&s->mu);
    v = s->requested;
    pthread_mutex_unlock(&s->mu);
    return v;
}

/* Before any worker runs (no other thread knows r yet, so stop_req is
 * written without mu here). */
static void stop_attach(Ring *r)
{
    RlRingStop *s = r->p->stop;

    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    r->stop_req = s->requested;
    r->stop_next = s->rings;
    s->rings = r;
    pthread_mutex_unlock(&s->mu);
}

/* After the workers are joined, before mu is destroyed. */
static void stop_detach(Ring *r)
{
    RlRingStop *s = r->p->stop;
    Ring **pp;

    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    for (pp = &s->rings; *pp; pp = &(*pp)->stop_next) {
        if (*pp == r) {
            *pp = r->stop_next;
            break;
        }
    }
    pthread_mutex_unlock(&s->mu);
}

/* ------------------------------------------------------------ scheduler */

/* Assumes mu.  1 if Dispatch may run: a free slot, input possibly there, and
 * room in the gain feed for what one dispatch step pushes. */
static int dispatch_ready(Ring *r)
{
    if (r->dispatch_running || r->dispatch_done || r->cut - r->encoded >= r->nslots)
        return 0;
    if (r->dispatch_wait_input && r->io_events == r->io_events_seen)
        return 0;
    if (r->gain_channels > 0) {
        if (r->dispatch_wait_gain)
            return 0;
        if (!rl_encoder_gain_room(rl_encoder_gain(r->e)))
            return 0;
    }
    return 1;
}

/* Assumes mu.  1 if gain task ch has work and is not running. */
static int gain_ready(Ring *r, int ch)
{
    return ch < r->gain_channels && !r->gain_running[ch]
        && rl_encoder_gain_pending(rl_encoder_gain(r->e), ch) > 0;
}

/* Assumes mu.  Returns the most urgent task that can run now; with take=1
 * marks it taken (cursor/flag) and returns its frame in *frame and, for
 * Search, the reservoir to assume in *resv.  take=0 only looks. */
static RingTask pick_task(Ring *r, int take, int64_t *frame, RlCarried *assumed)
{
    int ch;

    if (r->quit)
        return T_NONE;
    /* a piece of the running Encode: it is on the serial chain */
    if (r->side_fn != NULL && r->side_next < r->side_n) {
        if (take) {
            *frame = r->side_next++;
            r->side_running++;
        }
        return T_SIDE;
    }
    if (!r->encode_running && r->encoded < r->search_take
        && r->searched[r->encoded % r->nslots]) {
        if (take) {
            r->encode_running = 1;
            *frame = r->encoded;
        }
        return T_ENCODE;
    }
    if (!r->resolve_running && r->resolved < r->prep_take
        && r->prepared[r->resolved % r->nslots]) {
        if (take) {
            r->resolve_running = 1;
            *frame = r->resolved;
        }
        return T_RESOLVE;
    }
    if (r->search_take < r->resolved) {
        if (take) {
            *frame = r->search_take++;
            *assumed = r->committed;
        }
        return T_SEARCH;
    }
    if (r->prep_take < r->cut) {
        if (take)
            *frame = r->prep_take++;
        return T_PREPARE;
    }
    for (ch = 0; ch < 2; ch++) {
        if (gain_ready(r, ch)) {
            if (take)
                r->gain_running[ch] = 1;
            return ch ? T_GAIN1 : T_GAIN0;
        }
    }
    if (dispatch_ready(r)) {
        if (take) {
            int s = (int)(r->cut % r->nslots);
            r->prepared[s] = r->searched[s] = 0;
            r->dispatch_running = 1;
            r->dispatch_wait_input = 0;
            r->io_events_seen = r->io_events;
            *frame = r->cut;
        }
        return T_DISPATCH;
    }
    if (r->dispatch_done && !r->finish_taken && r->encoded == r->cut
        && !r->gain_running[0] && !r->gain_running[1]
        && !gain_ready(r, 0) && !gain_ready(r, 1)) {
        if (take)
            r->finish_taken = 1;
        return T_FINISH;
    }
    return T_NONE;
}

/* Assumes mu.  The first error wins; everyone is told to stop.  Returns 1
 * if the caller must cancel the I/O scheduler (after dropping mu): only the
 * first failure does, and never once Finish was taken (it frees io). */
static int fail(Ring *r, int rc)
{
    int first = !r->err;
    if (first)
        r->err = rc;
    r->quit = 1;
    pthread_cond_broadcast(&r->cv);
    return first && r->io && !r->finish_taken;
}

/* Assumes mu.  Publishes a task's result: the hand-over of its frame.
 * Returns fail()'s answer on an error, else 0. */
static int complete_task(Ring *r, RingTask t, int64_t frame, int rc, const RlCarried *after)
{
    switch (t) {
    case T_SIDE:
        if (--r->side_running == 0)
            pthread_cond_signal(&r->side_cv);
        break;
    case T_DISPATCH:
        r->dispatch_running = 0;
        if (rc == RING_D_CUT)
            r->cut++;
        else if (rc == RING_D_DONE)
            r->dispatch_done = 1;
        else if (rc == RING_D_NO_INPUT)
            r->dispatch_wait_input = 1;
        else if (rc == RING_D_GAIN_FULL)
            r->dispatch_wait_gain = 1;
        break;
    case T_PREPARE:
        r->prepared[frame % r->nslots] = 1;
        break;
    case T_RESOLVE:
        r->resolve_running = 0;
        if (rc == 0)
            r->resolved++;
        break;
    case T_SEARCH:
        r->searched[frame % r->nslots] = 1;
        break;
    case T_ENCODE:
        r->encode_running = 0;
        if (rc == 0) {
            r->encoded++;
            r->committed = *after;
        }
        break;
    case T_GAIN0:
    case T_GAIN1:
        r->gain_running[t == T_GAIN1] = 0;
        r->dispatch_wait_gain = 0;     /* space was freed: Dispatch may retry */
        break;
    case T_FINISH:
        if (rc == 0) {
            r->quit = 1;
            pthread_cond_broadcast(&r->cv);
        }
        break;
    case T_NONE:
        break;
    }
    return rc < 0 ? fail(r, rc) : 0;
}

/* Runs one task without mu; *after: Encode's carried state after an Encode
 * (Encode's own state, read by the Encode task itself). */
static int run_task(Ring *r, RingTask t, int64_t frame, const RlCarried *assumed,
                    RlCarried *after)
{
    RlFrame *f = rl_frame_at(r->frames, (int) (frame % r->nslots));
    int rc = 0;

    rl_stress_point();
    switch (t) {
    case T_SIDE:
        /* side_fn/side_arg stay set until every taken item completed */
        r->side_fn(r->side_arg, (int) frame);
        break;
    case T_DISPATCH:
        rc = ring_run_dispatch(r, f);
        break;
    case T_PREPARE:
        rl_prepare(rl_encoder_const(r->e), f);
        break;
    case T_RESOLVE:
        rc = rl_resolve(rl_encoder_const(r->e), rl_encoder_psy(r->e), f);
        break;
    case T_SEARCH:
        rc = rl_search(rl_encoder_const(r->e), f, assumed);
        break;
    case T_ENCODE:
        rc = ring_run_encode(r, f, frame);
        rl_encoder_carried(rl_encoder_encode_stage(r->e), after);
        break;
    case T_GAIN0:
    case T_GAIN1:
        rc = rl_encoder_gain_run(rl_encoder_gain(r->e), t == T_GAIN1);
        break;
    case T_FINISH:
        rc = ring_run_finish(r);
        break;
    case T_NONE:
        break;
    }
    rl_stress_point();
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Assumes mu. */
static void add_stats(RlRingStats *st, RingTask t, double s)
{
    switch (t) {
    case T_SIDE:     st->side_s += s; st->side_tasks++; break;
    case T_DISPATCH: st->dispatch_s += s; break;
    case T_PREPARE:  st->prepare_s += s; break;
    case T_RESOLVE:  st->resolve_s += s; break;
    case T_SEARCH:   st->search_s += s; break;
    case T_ENCODE:   st->encode_s += s; st->frames++; break;
    case T_GAIN0:
    case T_GAIN1:    st->gain_s += s; break;
    case T_FINISH:   st->finish_s += s; break;
    case T_NONE:     break;
    }
}

/* Assumes mu (cond_wait releases it while asleep). */
static void wait_for_work(Ring *r)
{
    r->idle++;
    pthread_cond_wait(&r->cv, &r->mu);
    r->idle--;
}

static void *worker(void *arg)
{
    Ring *r = arg;
    int64_t frame = 0;
    RlCarried assumed, after;
    int cancel = 0;
    double t0, t1;

    memset(&assumed, 0, sizeof assumed);
    memset(&after, 0, sizeof after);
    pthread_mutex_lock(&r->mu);
    while (!r->quit) {
        RingTask t;
        int rc;
        if (r->stop_req) {   /* set under mu by rl_ring_stop_request */
            cancel = fail(r, -EINTR);
            break;
        }
        t = pick_task(r, 1, &frame, &assumed);
        if (t == T_NONE) {
            wait_for_work(r);
            continue;
        }
        /* chain wake-up: one more sleeper if more work is ready */
        if (r->idle > 0 && pick_task(r, 0, NULL, NULL) != T_NONE)
            pthread_cond_signal(&r->cv);
        pthread_mutex_unlock(&r->mu);
        t0 = r->p->stats ? now_s() : 0;
        rc = run_task(r, t, frame, &assumed, &after);
        t1 = r->p->stats ? now_s() : 0;
        pthread_mutex_lock(&r->mu);
        if (r->p->stats)
            add_stats(&r->stats, t, t1 - t0);
        cancel = complete_task(r, t, frame, rc, &after);
    }
    pthread_mutex_unlock(&r->mu);
    if (cancel)
        rl_io_cancel(r->io);
    return NULL;
}

/* Encode's fork-join: item 0 here, the others offered to idle workers
 * (first in pick_task's order); what nobody took, Encode runs itself, then
 * it waits for the items others run.  A stop does not cut it short: items
 * are short and the frame's Encode must complete or fail as a whole. */
void ring_fork_join(void *ctx, int n, void (*fn)(void *arg, int i), void *arg)
{
    Ring *r = ctx;

    pthread_mutex_lock(&r->mu);
    r->side_fn = fn;
    r->side_arg = arg;
    r->side_n = n;
    r->side_next = 1;
    r->side_running = 0;
    if (r->idle > 0)
        pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);

    rl_stress_point();
    fn(arg, 0);

    pthread_mutex_lock(&r->mu);
    while (r->side_next < r->side_n) {
        int const i = r->side_next++;
        pthread_mutex_unlock(&r->mu);
        fn(arg, i);
        pthread_mutex_lock(&r->mu);
    }
    while (r->side_running > 0)
        pthread_cond_wait(&r->side_cv, &r->mu);
    r->side_fn = NULL;
    r->side_arg = NULL;
    pthread_mutex_unlock(&r->mu);
}

/* The I/O thread's callback (a block arrived, space was freed, an error):
 * called without any rl_io lock, so taking mu here cannot deadlock. */
static void io_notify(void *arg)
{
    Ring *r = arg;
    pthread_mutex_lock(&r->mu);
    r->io_events++;
    if (r->idle > 0)
        pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

/* ---------------------------------------------------------------- setup */

/* Worker 0 is the caller; threads-1 more.  If a thread cannot be created
 * the ring still completes with fewer workers. */
static void run_workers(Ring *r, int threads)
{
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int i, started = 0;

    for (i = 1; tid && i < threads; i++) {
        if (pthread_create(&tid[started], NULL, worker, r) != 0)
            break;
        started++;
    }
    worker(r);
    for (i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
}

static int start_io(Ring *r)
{
    RlIoParams ip;
    char msg[256];

    memset(&ip, 0, sizeof ip);
    ip.frame_size = r->frame_size;
    ip.backend = r->p->io_backend;
    ip.notify = io_notify;
    ip.notify_arg = r;
    msg[0] = '\0';
    return rl_io_start(&r->io, r->in, r->out, &ip, msg, sizeof msg);
}

static int setup_and_run(Ring *r, RlOptions *o, int threads)
{
    int rc = rl_encoder_create(&r->e, o);
    if (rc < 0)
        return rc;
    r->frame_size = rl_encoder_frame_size(r->e);
    r->gain_channels = rl_encoder_gain_channels(r->e);   /* 0 unless ReplayGain runs */
    r->total_estimate = rl_encoder_frames_for(r->e, rl_pcm_frames(r->in));
    rl_encoder_carried(rl_encoder_encode_stage(r->e), &r->committed);

    /* the tag placeholder frame (non-music bytes) goes out first, before the
     * I/O scheduler owns the writer */
    rc = ring_write_ready_bytes(r);
    if (rc == 0 && r->p->io_backend >= 0)
        rc = start_io(r);
    if (rc == 0) {
        double const t0 = now_s();
        stop_attach(r);
        run_workers(r, threads);
        stop_detach(r);
        if (r->p->stats) {
            r->stats.wall_s = now_s() - t0;
            r->stats.search_redos = r->redo_count;
            *r->p->stats = r->stats;
        }
        rc = r->err;
        if (r->io && !r->finish_taken)
            rl_io_abort(r->io);   /* Finish closes it otherwise */
    }
    rl_encoder_destroy(r->e);
    r->e = NULL;
    return rc;
}

int rl_run_ring(const RlOptions *opt, struct RlPcmReader *in, struct RlMp3Writer *out,
                const RlRingParams *p)
{
    RlRingParams defaults;
    RlOptions o;
    Ring *r;
    int threads, rc;

    if (!opt || !in || !out)
        return -EINVAL;
    if (!p) {
        memset(&defaults, 0, sizeof defaults);
        p = &defaults;
    }
    threads = p->threads > 0 ? p->threads : rl_ring_default_threads();
    if (threads > RING_MAX_THREADS)
        threads = RING_MAX_THREADS;

    r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    r->p = p;
    r->in = in;
    r->out = out;
    r->nslots = p->slots > 0 ? p->slots : 4 * threads;
    if (p->slots <= 0 && r->nslots < 4)
        r->nslots = 4;
    if (r->nslots > RING_MAX_SLOTS)
        r->nslots = RING_MAX_SLOTS;
    o = *opt;

    r->frames = rl_frames_create(r->nslots);
    r->prepared = calloc((size_t)r->nslots, 1);
    r->searched = calloc((size_t)r->nslots, 1);
    r->out_bytes = malloc(RL_ENCODER_BYTES_MAX);
    r->pcm = malloc((size_t)1152 * 2 * sizeof(int32_t));
    if (!r->frames || !r->prepared || !r->searched || !r->out_bytes || !r->pcm) {
        rc = -ENOMEM;
    }
    else {
        pthread_mutex_init(&r->mu, NULL);
        pthread_cond_init(&r->cv, NULL);
        pthread_cond_init(&r->side_cv, NULL);
        r->nthreads = threads;
        rc = setup_and_run(r, &o, threads);
        pthread_cond_destroy(&r->side_cv);
        pthread_cond_destroy(&r->cv);
        pthread_mutex_destroy(&r->mu);
    }
    free(r->pcm);
    free(r->out_bytes);
    free(r->searched);
    free(r->prepared);
    rl_frames_free(r->frames);
    free(r);
    return rc;
}
