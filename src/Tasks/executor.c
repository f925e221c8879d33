/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the worker pool (see executor.h for the contract).
 *
 * Under `mu`: the attached clients (a singly linked list), `rr` (the client
 * the next pass starts at, so that passes rotate over the clients),
 * `members` (bumped by attach/detach), each client's ex_busy, and the
 * sleeps themselves.  A worker's pass visits every client once from its
 * start point; it follows the list's links only while `members` is
 * unchanged (a detached client's link may be stale), and it sleeps only if
 * nothing ran and `gen` did not move since the pass began.
 *
 * `gen` (bumped by every notify and attach/detach) and the sleeper counts
 * are atomics, so that notify needs mu only when someone sleeps: a Dekker
 * pair (seq_cst) where a sleeper counts itself before its last look at
 * `gen`, under mu and until its wait begins, and a notifier bumps `gen`
 * before it looks at the counts.  One of them sees the other; a notifier
 * that sees a sleeper takes mu once (the sleeper is then inside its wait)
 * and signals after it lets mu go, so the woken thread does not block on
 * mu at once.  The helper takes mu only to sleep, a worker once per run
 * of tasks at one client. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "executor.h"
#include "thread_policy.h"

/* The most tasks a worker runs at one client before its pass moves on
 * (other clients get their turn; one client alone is entered again). */
#define RUN_MAX 16

struct RlExecutor {
    pthread_mutex_t mu;
    pthread_cond_t  work_cv;    /* sleeping workers */
    pthread_cond_t  help_cv;    /* sleeping helpers */
    pthread_cond_t  idle_cv;    /* detach waits for a client's busy count */
    RlExecClient   *clients;
    RlExecClient   *rr;
    int             nclients;
    uint64_t        members;
    _Atomic uint64_t gen;
    atomic_int      sleeping_workers, sleeping_helpers;
    int             quit;
    int             nworkers;
    pthread_t      *tid;
};

/* Assumes mu.  Calls c->run_one without mu, up to RUN_MAX times while it
 * finds work and c stays attached; c stays attached meanwhile (detach
 * waits for ex_busy).  1: it ran something. */
static int run_client(RlExecutor *ex, RlExecClient *c)
{
    int ran = 0;

    c->ex_busy++;
    pthread_mutex_unlock(&ex->mu);
    while (ran < RUN_MAX && atomic_load_explicit(&c->ex_attached, memory_order_relaxed)
           && c->run_one(c->ctx) > 0)
        ran++;
    pthread_mutex_lock(&ex->mu);
    if (--c->ex_busy == 0 && !atomic_load_explicit(&c->ex_attached, memory_order_relaxed))
        pthread_cond_broadcast(&ex->idle_cv);
    return ran > 0;
}

/* Assumes mu: sleeps on cv unless `gen` moved from seen (see the top). */
static void sleep_unless_moved(RlExecutor *ex, atomic_int *sleeping, pthread_cond_t *cv,
                               uint64_t seen)
{
    atomic_fetch_add(sleeping, 1);
    if (atomic_load(&ex->gen) == seen)
        pthread_cond_wait(cv, &ex->mu);
    atomic_fetch_sub(sleeping, 1);
}

static void *worker(void *arg)
{
    RlExecutor *ex = arg;

    pthread_mutex_lock(&ex->mu);
    while (!ex->quit) {
        uint64_t const gen = atomic_load(&ex->gen), members = ex->members;
        RlExecClient *c = ex->rr ? ex->rr : ex->clients;
        int n = ex->nclients, ran = 0;

        if (c)
            ex->rr = c->ex_next;      /* the next pass starts one further */
        while (n-- > 0 && c) {
            RlExecClient *next;
            ran = run_client(ex, c);
            if (ran || ex->members != members || ex->quit)
                break;
            next = c->ex_next ? c->ex_next : ex->clients;
            c = next;
        }
        if (!ran && !ex->quit)
            sleep_unless_moved(ex, &ex->sleeping_workers, &ex->work_cv, gen);
    }
    pthread_mutex_unlock(&ex->mu);
    return NULL;
}

/* The lock and condition variables, all or none: 0 or an errno. */
static int sync_init(RlExecutor *ex)
{
    int rc = pthread_mutex_init(&ex->mu, NULL);
    if (rc != 0)
        return rc;
    rc = pthread_cond_init(&ex->work_cv, NULL);
    if (rc != 0)
        goto no_work;
    rc = pthread_cond_init(&ex->help_cv, NULL);
    if (rc != 0)
        goto no_help;
    rc = pthread_cond_init(&ex->idle_cv, NULL);
    if (rc == 0)
        return 0;
    pthread_cond_destroy(&ex->help_cv);
no_help:
    pthread_cond_destroy(&ex->work_cv);
no_work:
    pthread_mutex_destroy(&ex->mu);
    return rc;
}

int rl_executor_create(RlExecutor **out, int workers)
{
    RlExecutor *ex;
    int i, rc;

    if (!out)
        return -EINVAL;
    *out = NULL;
    if (workers < 0 || workers > RL_THREADS_MAX - 1)
        return -EINVAL;
    ex = calloc(1, sizeof *ex);
    if (!ex)
        return -ENOMEM;
    if (workers > 0) {
        ex->tid = calloc((size_t)workers, sizeof *ex->tid);
        if (!ex->tid) {
            free(ex);
            return -ENOMEM;
        }
    }
    rc = sync_init(ex);
    if (rc != 0) {
        free(ex->tid);
        free(ex);
        return -rc;
    }
    /* a pool of the size asked for or none: a thread that cannot be
     * created fails the call (the caller says why, rather than running on
     * fewer threads than it asked for) */
    for (i = 0; i < workers; i++) {
        rc = pthread_create(&ex->tid[i], NULL, worker, ex);
        if (rc != 0) {
            rl_executor_destroy(ex);
            return -rc;
        }
        ex->nworkers++;
    }
    *out = ex;
    return 0;
}

void rl_executor_destroy(RlExecutor *ex)
{
    int i;

    if (!ex)
        return;
    pthread_mutex_lock(&ex->mu);
    ex->quit = 1;
    pthread_cond_broadcast(&ex->work_cv);
    pthread_mutex_unlock(&ex->mu);
    for (i = 0; i < ex->nworkers; i++)
        pthread_join(ex->tid[i], NULL);
    pthread_cond_destroy(&ex->idle_cv);
    pthread_cond_destroy(&ex->help_cv);
    pthread_cond_destroy(&ex->work_cv);
    pthread_mutex_destroy(&ex->mu);
    free(ex->tid);
    free(ex);
}

int rl_executor_workers(const RlExecutor *ex)
{
    return ex ? ex->nworkers : 0;   /* fixed after create */
}

/* Bumps gen; wakes one sleeping worker and every sleeping helper (see the
 * top for why mu is taken and let go before the signals). */
static void wake(RlExecutor *ex)
{
    int workers, helpers;

    atomic_fetch_add(&ex->gen, 1);
    workers = atomic_load(&ex->sleeping_workers);
    helpers = atomic_load(&ex->sleeping_helpers);
    if (workers == 0 && helpers == 0)
        return;
    pthread_mutex_lock(&ex->mu);
    pthread_mutex_unlock(&ex->mu);
    if (workers > 0)
        pthread_cond_signal(&ex->work_cv);
    if (helpers > 0)
        pthread_cond_broadcast(&ex->help_cv);
}

void rl_executor_attach(RlExecutor *ex, RlExecClient *c)
{
    pthread_mutex_lock(&ex->mu);
    c->ex_busy = 0;
    atomic_store_explicit(&c->ex_attached, 1, memory_order_relaxed);
    c->ex_next = ex->clients;
    ex->clients = c;
    ex->nclients++;
    ex->members++;
    pthread_mutex_unlock(&ex->mu);
    wake(ex);
}

void rl_executor_detach(RlExecutor *ex, RlExecClient *c)
{
    RlExecClient **pp;

    pthread_mutex_lock(&ex->mu);
    for (pp = &ex->clients; *pp; pp = &(*pp)->ex_next) {
        if (*pp == c) {
            *pp = c->ex_next;
            ex->nclients--;
            break;
        }
    }
    if (ex->rr == c)
        ex->rr = c->ex_next;
    atomic_store_explicit(&c->ex_attached, 0, memory_order_relaxed);
    c->ex_next = NULL;
    ex->members++;
    atomic_fetch_add(&ex->gen, 1);
    while (c->ex_busy > 0)
        pthread_cond_wait(&ex->idle_cv, &ex->mu);
    pthread_mutex_unlock(&ex->mu);
}

void rl_executor_notify(RlExecutor *ex)
{
    wake(ex);
}

void rl_executor_nudge(RlExecutor *ex)
{
    if (atomic_load_explicit(&ex->sleeping_workers, memory_order_relaxed) > 0
        || atomic_load_explicit(&ex->sleeping_helpers, memory_order_relaxed) > 0)
        wake(ex);
}

void rl_executor_help(RlExecutor *ex, RlExecClient *c, int (*done)(void *arg), void *arg)
{
    for (;;) {
        uint64_t const gen = atomic_load(&ex->gen);

        if (done(arg))
            return;
        /* the helper is the client's owner: it does not count in ex_busy
         * (it never detaches while it helps) */
        if (c->run_one(c->ctx) > 0)
            continue;
        pthread_mutex_lock(&ex->mu);
        sleep_unless_moved(ex, &ex->sleeping_helpers, &ex->help_cv, gen);
        pthread_mutex_unlock(&ex->mu);
    }
}
