/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encode driver: a ring of frame records that the threads of
 * an executor (executor.h) move through the five stages (Dispatch, Prepare,
 * Resolve, Search, Encode), ReplayGain channel tasks beside it, an input
 * port at one end and an output port at the other (ring.h).
 *
 * THE THREADING CONTRACT
 *
 * Objects.  One Ring (ring_impl.h): the encoder (RlEncoder, whose serial
 * states belong to the serial stages), `nslots` frame records and the
 * scheduler fields, guarded by ONE mutex `mu` (the scheduler lock).  The
 * ring is a client of an executor: the executor's threads (pool workers,
 * and helpers: threads in rl_ring_wait / rl_ring_help_until) call
 * ring_run_one, which runs at most one task.  The ring has no threads and
 * no condition variable of its own for idling: sleeping is the executor's.
 * Frame t lives in slot t % nslots; frames enter (Dispatch) and leave
 * (Encode) in index order, so the slots in use are always the frames
 * [encoded, cut].
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
 * Tasks.  ring_run_one takes one task under mu (pick_task), marks it taken,
 * drops mu, runs it, takes mu again and publishes the result
 * (complete_task).  No stage function, no port callback and no executor
 * call that may sleep runs under mu (rl_executor_notify may: the executor's
 * lock is a leaf).  Encode's forked items are taken without mu, before any
 * other task (fork_join.c).  Priority (oldest frames first, so slots drain):
 * Encode > Redecode > Resolve > Search (oldest) > Prepare (oldest) >
 * ReplayGain channel 0, 1 > Dispatch > Finish.  Serial stages are not
 * threads: the flags dispatch_running / resolve_running / encode_running /
 * gain_running[ch] (under mu) let at most one thread run each, and
 * Resolve/Encode take the next frame in index order only.  `running`
 * counts the tasks taken and not yet published (not forked items: the
 * Encode that waits for them counts), `pool_running` those of
 * them that pool workers took (not a thread in rl_ring_wait /
 * rl_ring_help_until on this ring: `helping`, a thread-local); a worker
 * takes nothing while pool_running is at *p.max_workers.  At 0 the
 * waiting thread runs the ring alone, one task at a time: Encode runs its
 * forked items itself and, Encode coming before Search, each Search
 * assumes the state that the Encode before it left, as at --threads 1.
 *
 * Who may touch what, when:
 *   frame record t   Dispatch writes it while it is frame `cut` and
 *                    dispatch_running (the slot is free: cut - encoded <
 *                    nslots was checked under mu when the task was taken).
 *                    Then exactly the one thread that took its Prepare /
 *                    Resolve / Search / Encode task, one after another; the
 *                    hand-over is the publish under mu (the mutex orders the
 *                    writes before the next stage's reads).  A record is
 *                    reused for any later frame: no stage reads fields a
 *                    previous frame left behind.
 *   e->dispatch, the input port (next/release), r->blk / blk_pos / in_eof,
 *   the read_progress callback
 *                    only the Dispatch task (the callback may run beside
 *                    Encode's progress callback: its receiver locks).
 *   e->psy           only the Resolve task.
 *   e->encode, the output port's write, the progress callback
 *                    only the Encode task and, after the last Encode, the
 *                    Finish task (which calls the port's finish).  So the
 *                    port sees the bytes in stream order, one call at a time.
 *   e->redecode, slot_bytes of frames [redecoded, encoded)
 *                    decode on the fly only: the Redecode task (frame
 *                    `redecoded`, after its Encode published; a slot is
 *                    free again once its frame is redecoded), then Finish
 *                    (the flush's chunk, gain tasks run inline: none is
 *                    taken once Finish was).
 *   e->rg (the gain feed)   Dispatch (with decode on the fly: Redecode)
 *                    pushes; gain task ch runs channel ch;
 *                    the feed's own mutex makes that safe (gain_feed.h).
 *                    pick_task asks it rl_gain_task_pending/space under mu:
 *                    lock order mu -> feed, and the feed never calls back
 *                    (no notify is set), so no cycle.
 *   e->k (cfg, ath, psyc, dsp)  read-only after init: any task.
 *   p.trace (trace.h)       the thread that ran a task appends it to its own
 *                    buffer, after the task and before the publish, without
 *                    mu (the trace's lock only the first time a thread
 *                    records); redo_count is read there by the Encode task
 *                    itself.  The owner reads the buffers after
 *                    rl_ring_destroy (the executor's detach orders every
 *                    record before it).
 *   Search reads no serial state: it gets `assumed` (RlCarried), which the
 *   rate-control mode chooses (rl_search_assume), when the task is taken
 *   under mu, from the newest state the ring knows before the frame:
 *   `committed`, Encode's state after the last committed Encode (written by
 *   complete_task of Encode), or `predicted`, the state a later frame's
 *   search predicts after it (rl_search_predict; written by complete_task
 *   of that Search, dropped by the Encode of a frame whose prediction was
 *   not the truth, as every prediction after it builds on it).  Encode
 *   checks the speculation against its true state (rl_encode: the mode's
 *   rl_search_valid) and redoes the search itself, serially, when it does
 *   not hold.
 *
 * Wake-ups.  Readiness is derived from the cursors and flags, never polled.
 * A thread that publishes a result returns to the executor, whose pass
 * brings it back to this ring before it may sleep (executor.c), so work a
 * publish made ready is never stranded.  When a thread takes a task and
 * more work is ready, it calls rl_executor_nudge once (a notify when a
 * thread sleeps; each woken thread does the same: a chain, no thundering
 * herd); rl_ring_fork_join nudges when it offers items (Encode runs what
 * nobody took itself; a nudge is a notify only when a thread sleeps).
 * The input port's rl_ring_input_ready takes mu, bumps in_events and
 * notifies if Dispatch waits for input; Dispatch that found no block waits
 * until in_events moves past the value it saw when it was taken (so a
 * block that arrives between the port's "none" and the publish is not
 * lost).  Helpers are woken (notify) when a task publishes
 * with helpers present and the ring ended or failed, and, when a
 * rl_ring_help_until caller waits (its done() is typically "output
 * arrived"), after each Encode / Finish and whenever nothing is running.
 *
 * States (rl_ring_state, decided under mu): the error once `err` is set;
 * DONE once Finish returned 0; STARVED when Dispatch waits for input (no
 * input_ready since it found none), no task is running and none is ready
 * (so every frame cut so far is encoded); RUNNING otherwise.
 *
 * Stopping.  A stop token (RlRingStop, ring.h) is an object with its own
 * mutex, a sticky `requested` flag and the list of rings attached to it.
 * A ring attaches (under the token's lock; an already requested token sets
 * stop_req at once) before it joins the executor and detaches after it
 * left it, before mu is destroyed.  rl_ring_stop_request, from any normal
 * thread (never a signal handler: the command's signal thread sigwait()s
 * and calls it), takes the token's lock, then each attached ring's mu, sets
 * stop_req and notifies the ring's executor.  Lock order: token -> mu ->
 * executor; no ring thread takes the token's lock.  ring_run_one and
 * rl_ring_state see stop_req under mu and fail the ring with -EINTR as
 * below.
 *
 * Errors and shutdown.  The first error (a task's -errno, -EINTR once
 * stop_req is set, -ECANCELED when rl_ring_destroy aborts) wins: `err` is
 * set under mu, `quit` is raised, helpers are notified; nothing new is
 * taken.  With it the ring keeps which port it came from (the input's
 * next, set by Dispatch, or an output call, by Encode / Finish: each flag
 * is read by the thread that set it), so that the caller can tell a read
 * error from a write error.  The thread that failed the ring first also calls the output
 * port's cancel (outside mu), which makes an Encode blocked in the port's
 * write return; other tasks finish their current call.  Never once Finish
 * was taken: the port's finish owns the end then.  A normal end is the
 * Finish task (taken once Dispatch's flush is done, every frame is encoded
 * and no gain work is left): it flushes the bitstream, builds the LAME tag
 * (when the output port wants it) and calls the port's finish; then quit
 * is raised and the state is DONE.  rl_ring_destroy detaches from the
 * executor, which returns once no thread is inside ring_run_one, so the
 * ring is freed with no task running.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ring_impl.h"
#include "stress_hook.h"
#include "thread_policy.h"
#include "trace.h"

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
        pthread_mutex_unlock(&r->mu);
        /* a worker or helper that runs the ring next fails it */
        rl_executor_notify(r->ex);
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

/* Before the ring is attached to the executor. */
static void stop_attach(Ring *r)
{
    RlRingStop *s = r->p.stop;

    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    pthread_mutex_lock(&r->mu);
    r->stop_req = s->requested;
    pthread_mutex_unlock(&r->mu);
    r->stop_next = s->rings;
    s->rings = r;
    pthread_mutex_unlock(&s->mu);
}

/* After the ring left the executor, before mu is destroyed. */
static void stop_detach(Ring *r)
{
    RlRingStop *s = r->p.stop;
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

double rl_ring_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Assumes mu.  Frames whose slots are free again: encoded, or with decode
 * on the fly redecoded (Redecode reads the slot's bytes). */
static int64_t released(const Ring *r)
{
    return r->rd ? r->redecoded : r->encoded;
}

/* Assumes mu.  1 if Dispatch may run: a free slot, input possibly there, and
 * room in the gain feed for what one dispatch step pushes (when Dispatch
 * feeds it: not with decode on the fly). */
static int dispatch_ready(Ring *r)
{
    if (r->dispatch_running || r->dispatch_done || r->cut - released(r) >= r->nslots)
        return 0;
    if (r->dispatch_wait_input && r->in_events == r->in_events_seen)
        return 0;
    if (r->gain_channels > 0 && !r->rd) {
        if (r->dispatch_wait_gain)
            return 0;
        if (!rl_encoder_gain_room(rl_encoder_gain(r->e)))
            return 0;
    }
    return 1;
}

/* Assumes mu.  1 if gain task ch has work and is not running (never once
 * Finish was taken: Finish runs what its last chunk pushed itself). */
static int gain_ready(Ring *r, int ch)
{
    return ch < r->gain_channels && !r->gain_running[ch] && !r->finish_taken
        && rl_encoder_gain_pending(rl_encoder_gain(r->e), ch) > 0;
}

/* Assumes mu.  1 if Redecode may take frame `redecoded`. */
static int redecode_ready(const Ring *r)
{
    return r->rd && !r->redecode_running && !r->redecode_wait_gain && r->redecoded < r->encoded;
}

/* Assumes mu, Encode not running.  1 unless frame `encoded` starts a new
 * file of a gapless set whose previous files' ReplayGain titles are not
 * closed yet (the boundary's LAME tag needs them; the gain tasks close them
 * without waiting for Encode). */
static int file_gain_ready(Ring *r)
{
    int const file = r->slot_file[r->encoded % r->nslots];
    if (file <= r->out_file)
        return 1;
    if (r->rd && !r->boundary_flushed)
        /* decode on the fly: the file's end is decoded by Encode, after
         * every frame before it, into an idle gain feed (room for it) */
        return r->redecoded == r->encoded && !r->redecode_running && !r->gain_running[0]
               && !r->gain_running[1] && !gain_ready(r, 0) && !gain_ready(r, 1);
    if (r->rd)      /* ... then its title, marked there, is closed */
        return r->gain_channels == 0
               || rl_encoder_gain_titles(rl_encoder_gain(r->e)) > r->title_base + r->out_file;
    return r->gain_channels == 0
           || rl_encoder_gain_titles(rl_encoder_gain(r->e)) >= r->title_base + file;
}

/* The ring the calling thread waits for (in help), NULL on a pool worker. */
static _Thread_local const Ring *helping;

/* Assumes mu.  Returns the most urgent task that can run now; with take=1
 * marks it taken (cursor/flag) and returns its frame in *frame and, for
 * Search, the carried state to assume in *assumed.  take=0 only looks. */
static RingTask pick_task(Ring *r, int take, int64_t *frame, RlCarried *assumed)
{
    int ch;

    if (r->quit)
        return T_NONE;
    if (!r->encode_running && r->encoded < r->search_take
        && r->searched[r->encoded % r->nslots] && file_gain_ready(r)) {
        if (take) {
            r->encode_running = 1;
            *frame = r->encoded;
        }
        return T_ENCODE;
    }
    if (redecode_ready(r)) {
        if (take) {
            r->redecode_running = 1;
            *frame = r->redecoded;
        }
        return T_REDECODE;
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
            rl_search_assume(rl_encoder_const(r->e),
                             r->predicted_after >= r->encoded ? &r->predicted : &r->committed,
                             *frame - r->encoded, assumed);
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
            r->in_events_seen = r->in_events;
            *frame = r->cut;
        }
        return T_DISPATCH;
    }
    if (r->dispatch_done && !r->finish_taken && r->encoded == r->cut
        && (!r->rd || (r->redecoded == r->cut && !r->redecode_running))
        && !r->gain_running[0] && !r->gain_running[1]
        && !gain_ready(r, 0) && !gain_ready(r, 1)) {
        if (take)
            r->finish_taken = 1;
        return T_FINISH;
    }
    return T_NONE;
}

/* Assumes mu.  The first error wins; nothing new is taken; `end` (an
 * RlRingEnd) is the port it came from, reported in the run's result.
 * Returns 1 if the caller must call the output port's cancel (after
 * dropping mu): only the first failure does, and never once Finish was
 * taken (the port's finish owns the end). */
static int fail_at(Ring *r, int rc, int end)
{
    int first = !r->err;
    if (first) {
        r->err = rc;
        r->err_end = end;
        r->err_file = end == RL_RING_END_INPUT ? r->in_file
                    : end == RL_RING_END_OUTPUT ? r->out_file : 0;
    }
    r->quit = 1;
    if (first && !r->finish_taken && !r->out_cancelled) {
        r->out_cancelled = 1;
        return r->out.cancel != NULL;
    }
    return 0;
}

/* Assumes mu.  An error from neither port (fail_at's answer). */
static int fail(Ring *r, int rc)
{
    return fail_at(r, rc, RL_RING_END_NONE);
}

/* Assumes mu, called by the thread that ran task t: the port a failed
 * task's error came from (the flags are that thread's own writes). */
static int task_end(const Ring *r, RingTask t)
{
    if (t == T_DISPATCH && r->in_failed)
        return RL_RING_END_INPUT;
    if ((t == T_ENCODE || t == T_FINISH) && r->out_failed)
        return RL_RING_END_OUTPUT;
    return RL_RING_END_NONE;
}

/* Assumes mu.  A requested stop fails the ring (returns fail()'s answer). */
static int check_stop(Ring *r)
{
    if (r->stop_req && !r->quit)
        return fail(r, -EINTR);
    return 0;
}

/* Assumes mu.  Publishes a task's result: the hand-over of its frame.
 * Returns fail()'s answer on an error, else 0. */
static int complete_task(Ring *r, RingTask t, int64_t frame, int rc, const RlCarried *after,
                         int has_after)
{
    int const s = (int) (frame % r->nslots);
    r->running--;
    switch (t) {
    case T_DISPATCH:
        r->dispatch_running = 0;
        if (rc == RING_D_CUT)
            r->cut++;
        else if (rc == RING_D_DONE)
            r->dispatch_done = 1;
        else if (rc == RING_D_NO_INPUT)
            r->dispatch_wait_input = 1;
        else if (rc == RING_D_GAIN_FULL)
            /* only while the feed lacks room (as T_REDECODE) */
            r->dispatch_wait_gain = !rl_encoder_gain_room(rl_encoder_gain(r->e));
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
        r->searched[s] = 1;
        r->slot_has_pred[s] = (unsigned char) has_after;
        if (has_after) {
            r->slot_pred[s] = *after;
            if (frame > r->predicted_after) {
                r->predicted = *after;
                r->predicted_after = frame;
            }
        }
        break;
    case T_ENCODE:
        r->encode_running = 0;
        if (rc == RING_E_BOUNDARY)
            r->boundary_flushed = 1;
        else if (rc == 0) {
            r->encoded++;
            r->committed = *after;
            /* the predictions from here on build on this frame's */
            if (r->predicted_after >= frame
                && !(r->slot_has_pred[s] && memcmp(&r->slot_pred[s], after, sizeof *after) == 0))
                r->predicted_after = -1;
        }
        break;
    case T_REDECODE:
        r->redecode_running = 0;
        if (rc == RING_R_DONE)
            r->redecoded++;
        else if (rc == RING_R_GAIN_FULL)
            /* only while the feed is still full: a gain task that emptied
             * it after Redecode looked has already published (and cleared
             * the flag), and none may come again */
            r->redecode_wait_gain = !rl_encoder_redecode_room(rl_encoder_gain(r->e));
        break;
    case T_GAIN0:
    case T_GAIN1:
        r->gain_running[t == T_GAIN1] = 0;
        r->dispatch_wait_gain = 0;     /* space was freed: Dispatch may retry */
        r->redecode_wait_gain = 0;     /* ... and Redecode */
        break;
    case T_FINISH:
        if (rc == 0) {
            r->finished = 1;
            r->quit = 1;
        }
        break;
    case T_NONE:
        break;
    }
    return rc < 0 ? fail_at(r, rc, task_end(r, t)) : 0;
}

/* Runs one task without mu; *after: Encode's carried state after an Encode
 * (Encode's own state, read by the Encode task itself), or the state a
 * Search predicts after its frame; *has_after: *after was set. */
static int run_task(Ring *r, RingTask t, int64_t frame, const RlCarried *assumed,
                    RlCarried *after, int *has_after)
{
    RlFrame *f = rl_frame_at(r->frames, (int) (frame % r->nslots));
    int rc = 0;

    rl_stress_point();
    switch (t) {
    case T_DISPATCH:
        rc = rl_ring_run_dispatch(r, f);
        if (rc == RING_D_CUT)
            r->slot_file[frame % r->nslots] = r->in_file;
        break;
    case T_PREPARE:
        rl_prepare(rl_encoder_const(r->e), f);
        break;
    case T_RESOLVE:
        rc = rl_resolve(rl_encoder_const(r->e), rl_encoder_psy(r->e), f);
        break;
    case T_SEARCH:
        rc = rl_search(rl_encoder_const(r->e), f, assumed);
        *has_after = rc >= 0 && rl_search_predict(rl_encoder_const(r->e), f, after);
        break;
    case T_ENCODE:
        rc = rl_ring_run_encode(r, f, frame);
        rl_encoder_carried(rl_encoder_encode_stage(r->e), after);
        *has_after = 1;
        break;
    case T_REDECODE:
        rc = rl_ring_run_redecode(r, frame);
        break;
    case T_GAIN0:
    case T_GAIN1:
        rc = rl_encoder_gain_run(rl_encoder_gain(r->e), t == T_GAIN1);
        break;
    case T_FINISH:
        rc = rl_ring_run_finish(r);
        break;
    case T_NONE:
        break;
    }
    rl_stress_point();
    return rc;
}

/* Assumes mu.  wait: the part of an Encode's s spent waiting in its
 * fork-joins (not work). */
static void add_stats(RlRingStats *st, RingTask t, double s, double wait)
{
    switch (t) {
    case T_DISPATCH: st->dispatch_s += s; break;
    case T_PREPARE:  st->prepare_s += s; break;
    case T_RESOLVE:  st->resolve_s += s; break;
    case T_SEARCH:   st->search_s += s; break;
    case T_ENCODE:   st->encode_s += s - wait; st->join_wait_s += wait; st->frames++; break;
    case T_REDECODE: st->redecode_s += s; break;
    case T_GAIN0:
    case T_GAIN1:    st->gain_s += s; break;
    case T_FINISH:   st->finish_s += s; break;
    case T_NONE:     break;
    }
}

/* Without mu: the task into the calling thread's trace buffer (trace.h).
 * redos: redo_count before an Encode (read back here by the Encode task). */
static void trace_task(Ring *r, RingTask t, double t0, double t1, int64_t frame, int rc,
                       int64_t redos)
{
    RlRingTrace *tr = r->p.trace;

    switch (t) {
    case T_DISPATCH:
        /* a frame only when it cut one; else the result (RING_D_*) */
        rl_trace_add(tr, RL_TR_DISPATCH, t0, t1, rc == RING_D_CUT ? frame : -1,
                     rc < 0 ? -1 : rc);
        break;
    case T_PREPARE:  rl_trace_add(tr, RL_TR_PREPARE, t0, t1, frame, 0); break;
    case T_RESOLVE:  rl_trace_add(tr, RL_TR_RESOLVE, t0, t1, frame, 0); break;
    case T_SEARCH:   rl_trace_add(tr, RL_TR_SEARCH, t0, t1, frame, 0); break;
    case T_ENCODE:
        rl_trace_add(tr, RL_TR_ENCODE, t0, t1, frame, r->redo_count - redos);
        break;
    case T_REDECODE: rl_trace_add(tr, RL_TR_REDECODE, t0, t1, frame, rc == RING_R_GAIN_FULL); break;
    case T_GAIN0:    rl_trace_add(tr, RL_TR_GAIN0, t0, t1, -1, 0); break;
    case T_GAIN1:    rl_trace_add(tr, RL_TR_GAIN1, t0, t1, -1, 0); break;
    case T_FINISH:   rl_trace_add(tr, RL_TR_FINISH, t0, t1, -1, 0); break;
    case T_NONE:     break;
    }
}

static void cancel_output(Ring *r)
{
    r->out.cancel(r->out.ctx);
}

/* The executor's entry (RlExecClient.run_one): at most one task. */
static int ring_run_one(void *ctx)
{
    Ring *r = ctx;
    int64_t frame = 0;
    RlCarried assumed, after;
    RingTask t;
    int const pooled = helping != r;
    int rc, cancel, more, wake, timed, has_after = 0;
    int64_t redos = 0;
    double t0, t1;

    /* a piece of the running Encode first: it is on the serial chain */
    if (rl_ring_side_run(r, pooled))
        return 1;
    pthread_mutex_lock(&r->mu);
    if (r->stop_req && !r->quit) {   /* set under mu by rl_ring_stop_request */
        cancel = check_stop(r);
        wake = r->helpers > 0;
        pthread_mutex_unlock(&r->mu);
        if (cancel)
            cancel_output(r);
        if (wake)
            rl_executor_notify(r->ex);
        return 0;
    }
    t = pooled && rl_ring_pool_full(r) ? T_NONE : pick_task(r, 1, &frame, &assumed);
    if (t == T_NONE) {
        pthread_mutex_unlock(&r->mu);
        return 0;
    }
    r->running++;
    atomic_fetch_add_explicit(&r->pool_running, pooled, memory_order_relaxed);
    /* chain wake-up: one more thread if more work is ready (only a worker
     * would take it) */
    more = !rl_ring_pool_full(r) && pick_task(r, 0, NULL, NULL) != T_NONE;
    pthread_mutex_unlock(&r->mu);
    if (more)
        rl_executor_nudge(r->ex);

    timed = r->p.stats != NULL || r->p.trace != NULL;
    t0 = timed ? rl_ring_now_s() : 0;
    if (r->p.trace && t == T_ENCODE)
        redos = r->redo_count;          /* the Encode task's own field */
    if (t == T_ENCODE)
        r->side_wait_s = 0;             /* ... as this one */
    rc = run_task(r, t, frame, &assumed, &after, &has_after);
    t1 = timed ? rl_ring_now_s() : 0;
    if (r->p.trace)
        trace_task(r, t, t0, t1, frame, rc, redos);

    pthread_mutex_lock(&r->mu);
    if (r->p.stats) {
        add_stats(&r->stats, t, t1 - t0, t == T_ENCODE ? r->side_wait_s : 0);
        if (t == T_ENCODE && rc == RING_E_BOUNDARY)
            r->stats.frames--;      /* a file's end, not a frame */
    }
    cancel = complete_task(r, t, frame, rc, &after, has_after);
    atomic_fetch_sub_explicit(&r->pool_running, pooled, memory_order_relaxed);
    /* helpers: rl_ring_wait waits for the end; rl_ring_help_until also for
     * STARVED (nothing running) and for output */
    wake = (r->helpers > 0 && r->quit)
        || (r->out_waiters > 0 && (r->running == 0 || t == T_ENCODE || t == T_FINISH));
    pthread_mutex_unlock(&r->mu);
    if (cancel)
        cancel_output(r);
    if (wake)
        rl_executor_notify(r->ex);
    return 1;
}

/* --------------------------------------------------------- public calls */

void rl_ring_input_ready(RlRing *r)
{
    int wake;

    pthread_mutex_lock(&r->mu);
    r->in_events++;
    wake = r->dispatch_wait_input;
    pthread_mutex_unlock(&r->mu);
    if (wake)
        rl_executor_notify(r->ex);
}

/* Assumes mu. */
static int state_locked(Ring *r)
{
    if (r->err)
        return r->err;
    if (r->finished)
        return RL_RING_DONE;
    if (!r->quit && r->running == 0 && r->dispatch_wait_input
        && r->in_events == r->in_events_seen && pick_task(r, 0, NULL, NULL) == T_NONE)
        return RL_RING_STARVED;
    return RL_RING_RUNNING;
}

int rl_ring_state(RlRing *r)
{
    int st, cancel, stopped_now, wake;

    pthread_mutex_lock(&r->mu);
    stopped_now = r->stop_req && !r->quit;
    cancel = check_stop(r);
    st = state_locked(r);
    wake = stopped_now && r->helpers > 0;   /* another thread may be helping */
    pthread_mutex_unlock(&r->mu);
    if (cancel)
        cancel_output(r);
    if (wake)
        rl_executor_notify(r->ex);
    return st;
}

int rl_ring_flush_size(RlRing *r, int *strange)
{
    return rl_encoder_flush_size(rl_encoder_const(r->e), rl_encoder_encode_stage(r->e), strange);
}

int rl_ring_tag_frame_now(RlRing *r, int radio_gain, int file, int files, int of_file,
                          uint8_t *buf, size_t cap)
{
    /* mid-stream no flush has set the padding yet: lame_init_params' 0 */
    return rl_encoder_tag_frame_now(rl_encoder_const(r->e), rl_encoder_encode_stage(r->e), r->rd,
                                    radio_gain, of_file ? r->flush_padding : 0, file, files,
                                    buf, cap);
}

float rl_ring_peak_now(RlRing *r)
{
    return rl_encoder_peak(r->rd);
}

int rl_ring_samples_to_encode_now(RlRing *r)
{
    return rl_dispatch_samples_to_encode(rl_encoder_dispatch(r->e));
}

int rl_ring_reopen(RlRing *r)
{
    int rc = 0;

    pthread_mutex_lock(&r->mu);
    if (r->err)
        rc = r->err;
    else if (!r->finished)
        rc = -EBUSY;
    else {
        /* no task runs once Finish was published: this thread may touch
         * Dispatch's, Encode's and the gain feed's state */
        rc = rl_encoder_gain_mark(rl_encoder_gain(r->e));
        if (rc == 0) {
            if (r->gain_channels > 0)
                r->title_base++;
            r->flush_padding = rl_encoder_padding(r->e);
            rl_dispatch_reopen(rl_encoder_dispatch(r->e));
            r->in_eof = 0;
            r->read_end_reported = 0;
            r->flush_empty = 0;
            r->dispatch_done = 0;
            r->finish_taken = 0;
            r->finished = 0;
            r->quit = 0;
            /* Dispatch waits for the port's next block (input_ready wakes it) */
            r->dispatch_wait_input = 1;
            r->in_events_seen = r->in_events;
        }
    }
    pthread_mutex_unlock(&r->mu);
    return rc;
}

/* Runs work(r) on this thread as Encode and the gain tasks (as Finish
 * does: nothing else is taken meanwhile), where the ring is STARVED (and,
 * with ended_file, a gapless file's end was passed) or, with done_too,
 * DONE.  work's result, -again where the state does not allow it, or the
 * error the ring failed with. */
static int run_as_encode(Ring *r, int (*work)(Ring *r), int ended_file, int done_too, int again)
{
    int rc, st, cancel = 0, was_encode, was_finish;

    pthread_mutex_lock(&r->mu);
    if (r->err) {
        rc = r->err;
        pthread_mutex_unlock(&r->mu);
        return rc;
    }
    st = state_locked(r);
    if (!(st == RL_RING_STARVED && (!ended_file || r->out_file < r->in_file))
        && !(done_too && st == RL_RING_DONE)) {
        pthread_mutex_unlock(&r->mu);
        return -again;
    }
    was_encode = r->encode_running;
    was_finish = r->finish_taken;
    r->encode_running = 1;
    r->finish_taken = 1;
    r->running++;
    pthread_mutex_unlock(&r->mu);
    rc = work(r);
    pthread_mutex_lock(&r->mu);
    r->running--;
    r->encode_running = was_encode;
    r->finish_taken = was_finish;
    if (rc < 0)
        cancel = fail_at(r, rc, r->out_failed ? RL_RING_END_OUTPUT : RL_RING_END_NONE);
    pthread_mutex_unlock(&r->mu);
    if (cancel)
        cancel_output(r);
    rl_executor_notify(r->ex);
    return rc;
}

/* the caller's word on the ended file's head replaces Dispatch's guess
 * (no sample fed: an encode call takes the head only when it brings some) */
static int end_files_told(Ring *r)
{
    int rc;

    if (r->p.head_by_caller)
        r->file_empty[r->out_file] = (unsigned char) (r->end_head_held > 0);
    rc = rl_ring_end_files(r);
    r->end_cap_set = 0;
    if (rc == 0 && r->end_held)
        rc = r->held_open = 1;
    r->end_held = 0;
    return rc;
}

int rl_ring_end_file(RlRing *r, size_t head_held, int cap)
{
    /* read as Encode by run_as_encode's work on this thread only */
    r->end_head_held = head_held;
    r->end_cap = cap;
    r->end_cap_set = 1;
    return run_as_encode(r, end_files_told, 1, 0, EAGAIN);
}

int rl_ring_held_out(RlRing *r, RlRingHeld how, RlRingResult *res)
{
    r->held_how = how;
    r->held_res = res;
    return run_as_encode(r, rl_ring_held_work, 0, 1, EBUSY);
}

int rl_ring_init_bitstream(RlRing *r)
{
    return run_as_encode(r, rl_ring_new_head, 0, 1, EBUSY);
}

int rl_ring_head_as_music(RlRing *r)
{
    return run_as_encode(r, rl_ring_count_empty_file, 0, 1, EBUSY);
}

int rl_ring_frame_size(const RlRing *r)
{
    return r->frame_size;
}

typedef struct HelpArg {
    Ring *r;
    int (*done)(void *arg);    /* NULL: rl_ring_wait */
    void *arg;
} HelpArg;

static int help_done(void *arg)
{
    HelpArg *h = arg;
    int const st = rl_ring_state(h->r);

    if (!h->done)
        return st == RL_RING_DONE || st < 0;
    return st != RL_RING_RUNNING || h->done(h->arg);
}

static int help(Ring *r, int (*done)(void *arg), void *arg)
{
    HelpArg h;
    const Ring *const outer = helping;

    h.r = r;
    h.done = done;
    h.arg = arg;
    pthread_mutex_lock(&r->mu);
    r->helpers++;
    if (done)
        r->out_waiters++;
    pthread_mutex_unlock(&r->mu);
    helping = r;
    rl_executor_help(r->ex, &r->client, help_done, &h);
    helping = outer;
    pthread_mutex_lock(&r->mu);
    r->helpers--;
    if (done)
        r->out_waiters--;
    pthread_mutex_unlock(&r->mu);
    return rl_ring_state(r);
}

int rl_ring_wait(RlRing *r)
{
    int const st = help(r, NULL, NULL);
    return st < 0 ? st : 0;
}

static int never(void *arg)
{
    (void) arg;
    return 0;
}

int rl_ring_help_until(RlRing *r, int (*done)(void *arg), void *arg)
{
    return help(r, done ? done : never, arg);
}

/* ---------------------------------------------------------------- setup */

int rl_ring_alloc(Ring **out, const RlOptions *opt, RlExecutor *ex, const RlRingParams *p)
{
    Ring *r;
    RlOptions o;
    int workers, rc;

    *out = NULL;
    if (!opt || !ex)
        return -EINVAL;
    r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    /* first, so that rl_ring_destroy always has them to destroy */
    rc = pthread_mutex_init(&r->mu, NULL);
    if (rc != 0) {
        free(r);
        return -rc;
    }
    rc = pthread_cond_init(&r->side_cv, NULL);
    if (rc != 0) {
        pthread_mutex_destroy(&r->mu);
        free(r);
        return -rc;
    }
    if (p)
        r->p = *p;
    r->skip_left = r->p.skip_frames > 0 ? r->p.skip_frames : 0;
    r->ex = ex;
    workers = rl_executor_workers(ex);
    r->fork = workers > 0;
    r->nslots = rl_ring_slots(r->p.slots, workers);
    r->client.run_one = ring_run_one;
    r->client.ctx = r;

    r->frames = rl_frames_create(r->nslots);
    r->prepared = calloc((size_t)r->nslots, 1);
    r->searched = calloc((size_t)r->nslots, 1);
    r->slot_file = calloc((size_t)r->nslots, sizeof *r->slot_file);
    r->slot_pred = calloc((size_t)r->nslots, sizeof *r->slot_pred);
    r->slot_has_pred = calloc((size_t)r->nslots, 1);
    r->predicted_after = -1;
    r->file_empty = calloc((size_t)(r->p.nogap_files > 0 ? r->p.nogap_files : 1), 1);
    r->out_bytes = malloc(RL_ENCODER_BYTES_MAX);
    if (!r->frames || !r->prepared || !r->searched || !r->slot_file || !r->slot_pred
        || !r->slot_has_pred || !r->file_empty || !r->out_bytes) {
        rl_ring_destroy(r);
        return -ENOMEM;
    }
    o = *opt;
    rc = rl_encoder_create(&r->e, &o);
    if (rc < 0) {
        rl_ring_destroy(r);
        return rc;
    }
    r->frame_size = rl_encoder_frame_size(r->e);
    r->scale = o.scale;
    r->gain_channels = rl_encoder_gain_channels(r->e);   /* 0 unless ReplayGain runs */
    r->rd = rl_encoder_redecode(r->e);                    /* NULL unless decoding on the fly */
    if (r->rd) {
        r->slot_bytes = malloc((size_t)r->nslots * RL_ENCODER_BYTES_MAX);
        r->slot_nbytes = calloc((size_t)r->nslots, sizeof *r->slot_nbytes);
        if (r->p.nogap_files > 0)
            r->file_head = malloc(RL_ENCODER_BYTES_MAX);
        if (!r->slot_bytes || !r->slot_nbytes || (r->p.nogap_files > 0 && !r->file_head)) {
            rl_ring_destroy(r);
            return -ENOMEM;
        }
    }
    rl_encoder_carried(rl_encoder_encode_stage(r->e), &r->committed);
    *out = r;
    return 0;
}

int rl_ring_start(Ring *r, const RlRingInput *in, const RlRingOutput *outp)
{
    int rc;

    if (!in || !outp || !in->next || !in->release || !outp->write || !outp->finish)
        return -EINVAL;
    r->in = *in;
    r->out = *outp;
    r->total_estimate = rl_encoder_frames_for(r->e, in->frames);
    /* an ID3v2 tag, then the tag placeholder frame (non-music bytes) */
    if (r->p.id3v2_len > 0)
        rc = rl_ring_out_rc(r, r->out.write(r->out.ctx, r->p.id3v2, r->p.id3v2_len));
    else
        rc = 0;
    if (rc == 0)
        rc = rl_ring_write_file_head(r);
    if (rc < 0) {
        if (r->p.result && r->out_failed)
            r->p.result->failed_end = RL_RING_END_OUTPUT;
        return rc;
    }
    r->t0 = rl_ring_now_s();
    stop_attach(r);
    r->attached = 1;
    rl_executor_attach(r->ex, &r->client);
    return 0;
}

int rl_ring_create(RlRing **out, const RlOptions *opt, RlExecutor *ex, const RlRingInput *in,
                   const RlRingOutput *outp, const RlRingParams *p)
{
    Ring *r;
    int rc;

    if (!out)
        return -EINVAL;
    *out = NULL;
    rc = rl_ring_alloc(&r, opt, ex, p);
    if (rc < 0)
        return rc;
    rc = rl_ring_start(r, in, outp);
    if (rc < 0) {
        rl_ring_destroy(r);
        return rc;
    }
    *out = r;
    return 0;
}

void rl_ring_halt(Ring *r)
{
    if (r->attached) {
        int cancel = 0;
        pthread_mutex_lock(&r->mu);
        if (!r->quit)
            cancel = fail(r, -ECANCELED);
        pthread_mutex_unlock(&r->mu);
        if (cancel)
            cancel_output(r);
        rl_executor_detach(r->ex, &r->client);   /* no task runs after this */
        stop_detach(r);
        if (r->blk) {      /* an aborted Dispatch's block, back to the port */
            r->in.release(r->in.ctx, r->blk);
            r->blk = NULL;
        }
        if (r->p.result && r->err) {
            r->p.result->failed_end = r->err_end;
            r->p.result->failed_file = r->err_file;
        }
        if (r->p.stats) {
            r->stats.wall_s = rl_ring_now_s() - r->t0;
            r->stats.search_redos = r->redo_count;
            *r->p.stats = r->stats;
        }
        r->attached = 0;
    }
}

void rl_ring_destroy(RlRing *r)
{
    if (!r)
        return;
    rl_ring_halt(r);
    rl_encoder_destroy(r->e);
    free(r->out_bytes);
    free(r->slot_bytes);
    free(r->slot_nbytes);
    free(r->searched);
    free(r->slot_pred);
    free(r->slot_has_pred);
    free(r->slot_file);
    free(r->file_head);
    free(r->held);
    free(r->file_empty);
    free(r->prepared);
    rl_frames_free(r->frames);
    pthread_cond_destroy(&r->side_cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
}
