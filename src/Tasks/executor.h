/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: a persistent pool of worker threads shared by any number of
 * clients (e.g. several frame rings).  It knows nothing of MP3: a client is
 * a run_one callback that runs at most one unit of its own work.
 *
 * Workers go round the attached clients calling run_one, never holding the
 * executor's lock while inside it; a worker that finds work at a client
 * keeps calling it (a bounded run) before it moves on.  A worker sleeps on
 * a condition variable only after a whole pass over the clients found
 * nothing and no rl_executor_notify came meanwhile (a generation counter,
 * so a notify between a client's "nothing ready" and the sleep is not
 * lost).  notify takes no lock and makes no system call when nobody sleeps.
 * There is no polling and no timed wait.  With 0 workers nothing runs on its own:
 * a client's work runs only in rl_executor_help, on the caller's thread.
 *
 * Threading contract:
 *   - create/destroy: the owner; destroy only with no client attached (it
 *     wakes and joins the workers);
 *   - attach/detach: the client's owner, once each; from attach until
 *     detach returns, run_one may be called on any worker (several at once:
 *     the client serialises what must be serial itself).  detach returns
 *     once no worker is inside the client's run_one and none will enter it;
 *   - notify, workers: any thread, any time between create and destroy,
 *     also from inside run_one and with the client's own locks held (the
 *     executor's lock is a leaf: nothing is called while it is held);
 *   - help: any thread but a worker, for an attached client.  done(arg) is
 *     called without the executor's lock; whoever makes it true must call
 *     rl_executor_notify (helpers sleep on the notify, like workers). */
#ifndef RL_EXECUTOR_H
#define RL_EXECUTOR_H

#include <stdatomic.h>
#include <stdint.h>

typedef struct RlExecutor RlExecutor;

typedef struct RlExecClient {
    /* run at most one unit of work: 1 ran one, 0 nothing ready now */
    int (*run_one)(void *ctx);
    void *ctx;
    /* private to the executor (under its lock; ex_attached is also read
     * without it by a worker inside the client) */
    struct RlExecClient *ex_next;
    int ex_busy;                /* workers inside run_one */
    atomic_int ex_attached;
} RlExecClient;

/* workers >= 0 threads (0: none, everything runs in rl_executor_help), at
 * most RL_THREADS_MAX - 1 (thread_policy.h).  0, -EINVAL, -ENOMEM, or the
 * -errno of pthread_mutex_init / pthread_cond_init / pthread_create (-EAGAIN:
 * the system cannot make that many threads); on an error nothing is left. */
int  rl_executor_create(RlExecutor **out, int workers);
void rl_executor_destroy(RlExecutor *ex);            /* NULL: nothing */
int  rl_executor_workers(const RlExecutor *ex);

void rl_executor_attach(RlExecutor *ex, RlExecClient *c);
void rl_executor_detach(RlExecutor *ex, RlExecClient *c);

/* New work may be ready (or a helper's done() may have become true): wakes
 * one sleeping worker and every sleeping helper.  Lock-free when nobody
 * sleeps. */
void rl_executor_notify(RlExecutor *ex);

/* A hint for more parallelism, from inside run_one (or ring-side code a
 * run_one called): more of this client's work is ready than the caller
 * takes.  The caller comes back to the client itself (a worker's pass, a
 * helper's loop), so nothing is lost if nobody wakes: rl_executor_notify
 * when a thread sleeps, else nothing (not even the generation bump). */
void rl_executor_nudge(RlExecutor *ex);

/* The calling thread works for client c until done(arg) returns 1: runs c's
 * work while there is some, sleeps until notified otherwise. */
void rl_executor_help(RlExecutor *ex, RlExecClient *c, int (*done)(void *arg), void *arg);

#endif
