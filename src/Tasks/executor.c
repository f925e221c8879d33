/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the worker pool (see executor.h for the contract).
 *
 * State, all under `mu`: the attached clients (a singly linked list), `rr`
 * (the client the next pass starts at, so that passes rotate over the
 * clients), `gen` (bumped by every notify and every attach/detach) and
 * `members` (bumped by attach/detach only).  A worker's pass visits every
 * client once from its start point; it follows the list's links only while
 * `members` is unchanged (a detached client's link may be stale), and it
 * sleeps only if nothing ran and `gen` did not move since the pass began. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "executor.h"
#include "thread_policy.h"

struct RlExecutor {
    pthread_mutex_t mu;
    pthread_cond_t  work_cv;    /* sleeping workers */
    pthread_cond_t  help_cv;    /* sleeping helpers */
    pthread_cond_t  idle_cv;    /* detach waits for a client's busy count */
    RlExecClient   *clients;
    RlExecClient   *rr;
    int             nclients;
    uint64_t        gen, members;
    int             sleeping_workers, sleeping_helpers;
    atomic_int      sleeping;   /* their sum, for rl_executor_nudge's look without mu */
    int             quit;
    int             nworkers;
    pthread_t      *tid;
};

/* Assumes mu.  Calls c->run_one without mu; c stays attached meanwhile
 * (detach waits for ex_busy). */
static int run_client(RlExecutor *ex, RlExecClient *c)
{
    int ran;

    c->ex_busy++;
    pthread_mutex_unlock(&ex->mu);
    ran = c->run_one(c->ctx);
    pthread_mutex_lock(&ex->mu);
    if (--c->ex_busy == 0 && !c->ex_attached)
        pthread_cond_broadcast(&ex->idle_cv);
    return ran > 0;
}

static void *worker(void *arg)
{
    RlExecutor *ex = arg;

    pthread_mutex_lock(&ex->mu);
    while (!ex->quit) {
        uint64_t const gen = ex->gen, members = ex->members;
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
        if (!ran && ex->gen == gen && !ex->quit) {
            ex->sleeping_workers++;
            atomic_fetch_add_explicit(&ex->sleeping, 1, memory_order_relaxed);
            pthread_cond_wait(&ex->work_cv, &ex->mu);
            atomic_fetch_sub_explicit(&ex->sleeping, 1, memory_order_relaxed);
            ex->sleeping_workers--;
        }
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

/* Assumes mu. */
static void wake(RlExecutor *ex)
{
    ex->gen++;
    if (ex->sleeping_workers > 0)
        pthread_cond_signal(&ex->work_cv);
    if (ex->sleeping_helpers > 0)
        pthread_cond_broadcast(&ex->help_cv);
}

void rl_executor_attach(RlExecutor *ex, RlExecClient *c)
{
    pthread_mutex_lock(&ex->mu);
    c->ex_busy = 0;
    c->ex_attached = 1;
    c->ex_next = ex->clients;
    ex->clients = c;
    ex->nclients++;
    ex->members++;
    wake(ex);
    pthread_mutex_unlock(&ex->mu);
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
    c->ex_attached = 0;
    c->ex_next = NULL;
    ex->members++;
    ex->gen++;
    while (c->ex_busy > 0)
        pthread_cond_wait(&ex->idle_cv, &ex->mu);
    pthread_mutex_unlock(&ex->mu);
}

void rl_executor_notify(RlExecutor *ex)
{
    pthread_mutex_lock(&ex->mu);
    wake(ex);
    pthread_mutex_unlock(&ex->mu);
}

void rl_executor_nudge(RlExecutor *ex)
{
    if (atomic_load_explicit(&ex->sleeping, memory_order_relaxed) > 0)
        rl_executor_notify(ex);
}

void rl_executor_help(RlExecutor *ex, RlExecClient *c, int (*done)(void *arg), void *arg)
{
    pthread_mutex_lock(&ex->mu);
    for (;;) {
        uint64_t const gen = ex->gen;
        int ran;

        pthread_mutex_unlock(&ex->mu);
        if (done(arg))
            return;
        /* the helper is the client's owner: it does not count in ex_busy
         * (it never detaches while it helps) */
        ran = c->run_one(c->ctx) > 0;
        pthread_mutex_lock(&ex->mu);
        if (!ran && ex->gen == gen) {
            ex->sleeping_helpers++;
            atomic_fetch_add_explicit(&ex->sleeping, 1, memory_order_relaxed);
            pthread_cond_wait(&ex->help_cv, &ex->mu);
            atomic_fetch_sub_explicit(&ex->sleeping, 1, memory_order_relaxed);
            ex->sleeping_helpers--;
        }
    }
}
