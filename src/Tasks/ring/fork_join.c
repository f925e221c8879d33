/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Encode's fork-join (rl_ring_fork_join) and the worker side that
 * runs its items (rl_ring_side_run), without the scheduler lock.
 *
 * An open fork-join is one 64-bit atomic, side_word = (n << 32) | next:
 * items [next, n) are free.  A thread claims item i with one fetch-add; the
 * word carries n with the index, so a claim never pairs one fork-join's
 * index with another's count.  n = 0: closed (a late fetch-add on a closed
 * word claims nothing).  The Encode task writes side_fn / side_arg /
 * side_frame and zeroes side_done while the word is closed, then opens it
 * with a release store; a claim (acquire) sees them, and they stay until
 * the join, which waits for the claimed item's side_done increment.
 *
 * The join: Encode runs item 0, then claims what nobody took; if items that
 * others claimed are still running, it spins a bounded while on side_done
 * (the item is known to be running, so it ends soon), then sleeps on side_cv
 * under mu.  side_sleeping and side_done are a Dekker pair (seq_cst): the
 * joiner sets side_sleeping before its last look at side_done, a worker
 * bumps side_done before it looks at side_sleeping, so one of them sees the
 * other, and the worker signals only when the joiner sleeps. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "ring_impl.h"
#include "stress_hook.h"
#include "trace.h"

/* How long the joiner spins on a running item before it sleeps: about two
 * channel loops of a CBR granule. */
#define JOIN_SPIN_S 50e-6

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* 1 when a pool worker may take no task of the ring (p.max_workers of them
 * run its tasks already); the same test as the scheduler's, lock-free. */
int rl_ring_pool_full(const Ring *r)
{
    return r->p.max_workers != NULL
           && atomic_load_explicit(&r->pool_running, memory_order_relaxed)
                  >= atomic_load(r->p.max_workers);
}

int rl_ring_side_run(Ring *r, int pooled)
{
    uint64_t w = atomic_load_explicit(&r->side_word, memory_order_relaxed);
    int i, n, counted = 0;
    double t0 = 0, t1 = 0;
    int const timed = r->p.stats != NULL || r->p.trace != NULL;

    if ((uint32_t) w >= (uint32_t) (w >> 32))
        return 0;                       /* closed, or every item taken */
    if (pooled && r->p.max_workers != NULL) {
        if (atomic_fetch_add_explicit(&r->pool_running, 1, memory_order_relaxed)
            >= atomic_load(r->p.max_workers)) {
            atomic_fetch_sub_explicit(&r->pool_running, 1, memory_order_relaxed);
            return 0;
        }
        counted = 1;
    }
    w = atomic_fetch_add_explicit(&r->side_word, 1, memory_order_acquire);
    i = (int) (uint32_t) w;
    n = (int) (w >> 32);
    if (i < n) {
        rl_stress_point();
        t0 = timed ? rl_ring_now_s() : 0;
        r->side_fn(r->side_arg, i);
        t1 = timed ? rl_ring_now_s() : 0;
        if (r->p.trace)
            rl_trace_add(r->p.trace, RL_TR_ENCODE_SIDE, t0, t1, r->side_frame, i);
        if (r->p.stats) {
            pthread_mutex_lock(&r->mu);
            r->stats.side_s += t1 - t0;
            r->stats.side_tasks++;
            pthread_mutex_unlock(&r->mu);
        }
        rl_stress_point();
        /* the last touch of the fork-join's fields: after it, the joiner
         * may close it and open the next */
        atomic_fetch_add(&r->side_done, 1);
        if (atomic_load(&r->side_sleeping)) {
            pthread_mutex_lock(&r->mu);
            pthread_cond_signal(&r->side_cv);
            pthread_mutex_unlock(&r->mu);
        }
    }
    if (counted)
        atomic_fetch_sub_explicit(&r->pool_running, 1, memory_order_relaxed);
    return i < n;
}

/* Waits until `need` items others claimed are done; returns the seconds it
 * waited (0 when they already were). */
static double join_wait(Ring *r, int need)
{
    double t0, t;
    unsigned k;

    if (atomic_load_explicit(&r->side_done, memory_order_acquire) >= need)
        return 0;
    t0 = t = rl_ring_now_s();
    for (k = 1; t - t0 < JOIN_SPIN_S; k++) {
        if (atomic_load_explicit(&r->side_done, memory_order_acquire) >= need)
            return rl_ring_now_s() - t0;
        cpu_relax();
        if ((k & 31) == 0)
            t = rl_ring_now_s();
    }
    pthread_mutex_lock(&r->mu);
    atomic_store(&r->side_sleeping, 1);
    while (atomic_load(&r->side_done) < need)
        pthread_cond_wait(&r->side_cv, &r->mu);
    atomic_store(&r->side_sleeping, 0);
    pthread_mutex_unlock(&r->mu);
    return rl_ring_now_s() - t0;
}

/* Encode's fork-join: item 0 here, the others offered to the executor's
 * threads (before any other task of the ring); what nobody took, Encode runs
 * itself, then it waits for the items others run.  A stop does not cut it
 * short: items are short and the frame's Encode must complete or fail as a
 * whole. */
void rl_ring_fork_join(void *ctx, int n, void (*fn)(void *arg, int i), void *arg)
{
    Ring *r = ctx;
    int own = 0;

    r->side_fn = fn;
    r->side_arg = arg;
    atomic_store_explicit(&r->side_done, 0, memory_order_relaxed);
    atomic_store_explicit(&r->side_word, ((uint64_t) (uint32_t) n << 32) | 1u,
                          memory_order_release);
    if (n > 1 && !rl_ring_pool_full(r))
        rl_executor_nudge(r->ex);       /* a notify only when a thread sleeps */

    rl_stress_point();
    fn(arg, 0);
    for (;;) {
        int const i = (int) (uint32_t) atomic_fetch_add_explicit(&r->side_word, 1,
                                                                 memory_order_relaxed);
        if (i >= n)
            break;
        fn(arg, i);
        own++;
    }
    r->side_wait_s += join_wait(r, n - 1 - own);
    atomic_store_explicit(&r->side_word, 0, memory_order_relaxed);
}
