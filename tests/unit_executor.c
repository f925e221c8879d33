/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: unit test of the executor alone (src/Tasks/executor.h): every
 * work item runs exactly once whatever the worker count, a producer's
 * notify is never lost (a lost wake-up hangs, and the alarm fails the
 * test), 0 workers run everything inline on the helping thread, and a
 * client detached while the workers are inside it is never entered again
 * while the other clients go on. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "executor.h"
#include "thread_policy.h"

static int g_pass, g_fail;

#define CHECK(cond, ...) do { if (cond) g_pass++; else { g_fail++; \
    printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

/* ---- a fixed number of items, counted ---- */

#define ITEMS 20000

typedef struct Counted {
    atomic_int next, done;
    unsigned char ran[ITEMS];    /* each item marks itself (no two run the same) */
    pthread_t only;              /* 0 workers: the only thread allowed */
    atomic_int foreign;          /* run_one calls on another thread */
    int check_thread;
    RlExecutor *ex;
} Counted;

static int counted_run(void *ctx)
{
    Counted *c = ctx;
    int i;

    if (c->check_thread && !pthread_equal(pthread_self(), c->only))
        atomic_fetch_add(&c->foreign, 1);
    i = atomic_fetch_add(&c->next, 1);
    if (i >= ITEMS)
        return 0;
    c->ran[i]++;
    /* the last item makes the helper's done() true: tell it (the contract) */
    if (atomic_fetch_add(&c->done, 1) + 1 == ITEMS)
        rl_executor_notify(c->ex);
    return 1;
}

static int counted_done(void *arg)
{
    Counted *c = arg;
    return atomic_load(&c->done) == ITEMS;
}

static void test_counted(int workers)
{
    RlExecutor *ex = NULL;
    RlExecClient cl;
    Counted *c = calloc(1, sizeof *c);
    int i, once = 1, rc;

    rc = rl_executor_create(&ex, workers);
    CHECK(rc == 0 && ex, "create(%d): %d", workers, rc);
    if (rc != 0 || !c) {
        free(c);
        return;
    }
    CHECK(rl_executor_workers(ex) == workers, "workers: %d, want %d", rl_executor_workers(ex), workers);
    c->only = pthread_self();
    c->ex = ex;
    c->check_thread = workers == 0;
    memset(&cl, 0, sizeof cl);
    cl.run_one = counted_run;
    cl.ctx = c;
    rl_executor_attach(ex, &cl);
    rl_executor_help(ex, &cl, counted_done, c);
    rl_executor_detach(ex, &cl);
    for (i = 0; i < ITEMS; i++)
        once &= c->ran[i] == 1;
    CHECK(atomic_load(&c->done) == ITEMS && once, "%d workers: %d items done, each once: %d",
          workers, atomic_load(&c->done), once);
    if (workers == 0)
        CHECK(atomic_load(&c->foreign) == 0, "0 workers: run_one on another thread (%d calls)",
              atomic_load(&c->foreign));
    rl_executor_destroy(ex);
    free(c);
}

/* ---- a producer that adds items one at a time ---- */

typedef struct Fed {
    pthread_mutex_t mu;
    pthread_cond_t  cv;          /* the test thread waits here (workers-only case) */
    int avail, consumed, total;
    RlExecutor *ex;
} Fed;

static int fed_run(void *ctx)
{
    Fed *f = ctx;
    int ran = 0;

    pthread_mutex_lock(&f->mu);
    if (f->avail > 0) {
        f->avail--;
        f->consumed++;
        ran = 1;
        if (f->consumed == f->total)
            pthread_cond_broadcast(&f->cv);
    }
    pthread_mutex_unlock(&f->mu);
    /* a helper waits for consumed == total: tell it (like the ring does) */
    if (ran)
        rl_executor_notify(f->ex);
    return ran;
}

static int fed_done(void *arg)
{
    Fed *f = arg;
    int d;
    pthread_mutex_lock(&f->mu);
    d = f->consumed == f->total;
    pthread_mutex_unlock(&f->mu);
    return d;
}

static void *producer(void *arg)
{
    Fed *f = arg;
    int i;

    for (i = 0; i < f->total; i++) {
        pthread_mutex_lock(&f->mu);
        f->avail++;
        pthread_mutex_unlock(&f->mu);
        rl_executor_notify(f->ex);
        if (i % 64 == 0)
            usleep(50);         /* let the workers fall asleep now and then */
        else if (i % 7 == 0)
            sched_yield();
    }
    return NULL;
}

/* helper = 1: the test thread helps until everything is consumed;
 * helper = 0: only the pool's workers consume, the test thread waits. */
static void test_fed(int workers, int helper)
{
    RlExecutor *ex = NULL;
    RlExecClient cl;
    Fed f;
    pthread_t tid;
    int rc;

    memset(&f, 0, sizeof f);
    pthread_mutex_init(&f.mu, NULL);
    pthread_cond_init(&f.cv, NULL);
    f.total = 5000;
    rc = rl_executor_create(&ex, workers);
    CHECK(rc == 0, "create(%d): %d", workers, rc);
    if (rc != 0)
        return;
    f.ex = ex;
    memset(&cl, 0, sizeof cl);
    cl.run_one = fed_run;
    cl.ctx = &f;
    rl_executor_attach(ex, &cl);
    rc = pthread_create(&tid, NULL, producer, &f);
    CHECK(rc == 0, "producer thread: %d", rc);
    if (rc == 0) {
        if (helper) {
            rl_executor_help(ex, &cl, fed_done, &f);
        }
        else {
            pthread_mutex_lock(&f.mu);
            while (f.consumed < f.total)
                pthread_cond_wait(&f.cv, &f.mu);
            pthread_mutex_unlock(&f.mu);
        }
        pthread_join(tid, NULL);
    }
    rl_executor_detach(ex, &cl);
    CHECK(f.consumed == f.total && f.avail == 0, "fed (%d workers, helper %d): %d of %d", workers,
          helper, f.consumed, f.total);
    rl_executor_destroy(ex);
    pthread_cond_destroy(&f.cv);
    pthread_mutex_destroy(&f.mu);
}

/* ---- detach while the workers are inside the client ---- */

typedef struct Endless {
    atomic_int inside, calls;
} Endless;

static int endless_run(void *ctx)
{
    Endless *e = ctx;
    atomic_fetch_add(&e->inside, 1);
    atomic_fetch_add(&e->calls, 1);
    usleep(200);
    atomic_fetch_sub(&e->inside, 1);
    return 1;
}

static void test_detach(void)
{
    RlExecutor *ex = NULL;
    RlExecClient a, b;
    Endless e;
    Counted *c = calloc(1, sizeof *c);
    int rc, calls;

    atomic_init(&e.inside, 0);
    atomic_init(&e.calls, 0);
    rc = rl_executor_create(&ex, 3);
    CHECK(rc == 0 && c, "create(3): %d", rc);
    if (rc != 0 || !c) {
        free(c);
        return;
    }
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.run_one = endless_run;
    a.ctx = &e;
    c->ex = ex;
    b.run_one = counted_run;
    b.ctx = c;
    rl_executor_attach(ex, &a);
    rl_executor_attach(ex, &b);
    while (atomic_load(&e.calls) < 50)
        usleep(100);
    rl_executor_detach(ex, &a);
    CHECK(atomic_load(&e.inside) == 0, "detach returned with %d workers inside",
          atomic_load(&e.inside));
    calls = atomic_load(&e.calls);
    /* the other client still gets its work done by the workers */
    rl_executor_help(ex, &b, counted_done, c);
    usleep(2000);
    CHECK(atomic_load(&e.calls) == calls, "a detached client was entered again (%d -> %d)", calls,
          atomic_load(&e.calls));
    CHECK(atomic_load(&c->done) == ITEMS, "the other client: %d of %d", atomic_load(&c->done), ITEMS);
    rl_executor_detach(ex, &b);
    rl_executor_destroy(ex);
    free(c);
}

/* The thread policy: one set of limits for every caller. */
static void test_policy(void)
{
    RlExecutor *ex = NULL;
    int const d = rl_threads_default();

    CHECK(d >= 1 && d <= RL_THREADS_MAX, "default threads %d", d);
    CHECK(rl_threads_resolve(0) == d, "resolve(0) is the default");
    CHECK(rl_threads_resolve(-3) == d, "resolve(-3) is the default");
    CHECK(rl_threads_resolve(7) == 7, "resolve(7)");
    CHECK(rl_threads_resolve(RL_THREADS_MAX + 5) == RL_THREADS_MAX, "resolve clamps");
    CHECK(rl_threads_for_ring(RL_THREADS_MAX) == RL_RING_SLOTS_MAX, "a ring's pool stops at its slots");
    CHECK(rl_threads_for_ring(3) == 3, "for_ring(3)");
    CHECK(rl_ring_slots(0, 0) == RL_RING_SLOTS_MIN, "slots of one thread");
    CHECK(rl_ring_slots(0, 3) == 4 * RL_RING_SLOTS_PER_THREAD, "slots of four threads");
    CHECK(rl_ring_slots(2, 10) == 2, "slots asked for");
    CHECK(rl_ring_slots(0, 500) == RL_RING_SLOTS_MAX, "default slots clamp");
    CHECK(rl_ring_slots(1000, 1) == RL_RING_SLOTS_MAX, "asked slots clamp");
    CHECK(rl_executor_create(&ex, RL_THREADS_MAX) == -EINVAL && ex == NULL,
          "a pool of more than RL_THREADS_MAX threads is refused");
}

int main(void)
{
    int w;

    setvbuf(stdout, NULL, _IOLBF, 0);
    alarm(120);     /* a lost wake-up hangs: SIGALRM ends the test as failed */
    CHECK(rl_executor_create(NULL, 1) < 0, "create(NULL) fails");
    {
        RlExecutor *ex = (RlExecutor *)&g_pass;
        CHECK(rl_executor_create(&ex, -1) < 0 && ex == NULL, "negative workers fail");
    }
    test_policy();
    for (w = 0; w <= 3; w++)
        test_counted(w);
    for (w = 0; w <= 3; w++)
        test_fed(w, 1);
    for (w = 1; w <= 3; w++)
        test_fed(w, 0);
    test_detach();
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
