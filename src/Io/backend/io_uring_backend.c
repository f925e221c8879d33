/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the I/O scheduler's io_uring backend: several block reads and ordered output writes
 * in flight on one ring; other threads wake the I/O thread through an eventfd poll.
 *
 * Buffers lent to the kernel.  A read queued here writes into an input
 * block and a write reads the output queue (or the tag) until its
 * completion is reaped, whatever happens to the ring meanwhile.  `held`
 * counts the submissions whose completion has not been reaped yet (the
 * eventfd poll and a cancel included: each posts exactly one).  When the
 * ring itself fails, the thread cancels everything (IORING_ASYNC_CANCEL_ANY;
 * a kernel without it fails the cancel, and the reads and writes of files
 * then end on their own), wakes its own poll and reaps until held is 0
 * before the scheduler frees anything (drain).  If even that cannot be
 * done, the buffers stay allocated (s->buffers_lent): a leak on a path
 * that already failed, never memory the kernel may still write. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <liburing.h>

#include "io_sched_impl.h"

#define RING_ENTRIES 16
#define WAKE_TAG     ((void *)1)   /* user_data of the eventfd poll */
#define CANCEL_TAG   ((void *)2)   /* user_data of the cancel of a drain */

typedef struct UringPriv {
    struct io_uring ring;
    int evfd;
    int poll_armed;
    int held;                      /* submissions without a reaped completion */
} UringPriv;

int rl_io__uring_init(RlIoSched *s)
{
    UringPriv *u = calloc(1, sizeof *u);
    int rc;
    if (!u)
        return -ENOMEM;
    /* fails with -EPERM under seccomp/sysctl limits or -ENOSYS on old kernels */
    rc = io_uring_queue_init(RING_ENTRIES, &u->ring, 0);
    if (rc < 0) {
        free(u);
        return rc;
    }
    u->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (u->evfd < 0) {
        rc = -errno;
        io_uring_queue_exit(&u->ring);
        free(u);
        return rc;
    }
    s->backend_priv = u;
    return 0;
}

void rl_io__uring_free(RlIoSched *s)
{
    UringPriv *u = s->backend_priv;
    if (!u)
        return;
    io_uring_queue_exit(&u->ring);
    close(u->evfd);
    free(u);
    s->backend_priv = NULL;
}

void rl_io__uring_wake(RlIoSched *s)
{
    UringPriv *u = s->backend_priv;
    /* only a sleeping I/O thread needs the syscall; it re-checks the state
     * under mu before it sleeps again */
    if (s->io_sleeping) {
        s->io_sleeping = 0;
        (void)!eventfd_write(u->evfd, 1);
    }
}

/* Queues rq on the ring, or runs it here when io_uring has no use for it
 * (decoding, write() on a pipe: ordered and blocking by nature).  mu held. */
static void issue(RlIoSched *s, UringPriv *u, IoReq *rq)
{
    struct io_uring_sqe *sqe;
    if (rq->kind != REQ_DECODE && rq->off >= 0 && (sqe = io_uring_get_sqe(&u->ring)) != NULL) {
        if (rq->kind == REQ_READ)
            io_uring_prep_read(sqe, rq->fd, rq->buf + rq->done, (unsigned)(rq->len - rq->done),
                               (uint64_t)(rq->off + (int64_t)rq->done));
        else
            io_uring_prep_write(sqe, rq->fd, rq->buf + rq->done, (unsigned)(rq->len - rq->done),
                                (uint64_t)(rq->off + (int64_t)rq->done));
        io_uring_sqe_set_data(sqe, rq);
        u->held++;
        return;
    }
    for (;;) {
        long res;
        pthread_mutex_unlock(&s->mu);
        res = rl_io__run_sync(s, rq);
        pthread_mutex_lock(&s->mu);
        if (!rl_io__complete(s, rq, res))
            break;
    }
}

static void reap(RlIoSched *s, UringPriv *u)
{
    struct io_uring_cqe *cqe;
    while (io_uring_peek_cqe(&u->ring, &cqe) == 0) {
        void *data = io_uring_cqe_get_data(cqe);
        int res = cqe->res;
        io_uring_cqe_seen(&u->ring, cqe);
        u->held--;
        if (data == WAKE_TAG) {
            eventfd_t v;
            (void)!eventfd_read(u->evfd, &v);
            u->poll_armed = 0;
            continue;
        }
        if (res == -EINTR || res == -EAGAIN) {
            issue(s, u, data);             /* try again */
            continue;
        }
        if (rl_io__complete(s, data, res))
            issue(s, u, data);             /* short read/write: the rest */
    }
}

/* The ring failed: cancels what the kernel holds and reaps every
 * completion (requests end as cancelled: nothing is issued again).  mu
 * held; dropped while waiting.  0 once the kernel holds nothing, else the
 * -errno that stopped the wait (also after DRAIN_TRIES calls in a row that
 * failed and reaped nothing). */
#define DRAIN_TRIES 1000
static int drain(RlIoSched *s, UringPriv *u)
{
    struct io_uring_sqe *sqe;
    int idle = 0;

    if (u->poll_armed)
        (void)!eventfd_write(u->evfd, 1);   /* the poll completes */
    sqe = io_uring_get_sqe(&u->ring);
    if (sqe) {
        io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
        io_uring_sqe_set_data(sqe, CANCEL_TAG);
        u->held++;
    }
    while (u->held > 0) {
        struct io_uring_cqe *cqe;
        int rc, reaped = 0;

        /* (also submits what is still queued: the cancel, and requests the
         * failed call may not have handed over, which complete or are
         * cancelled like the others) */
        pthread_mutex_unlock(&s->mu);
        rc = io_uring_submit_and_wait(&u->ring, 1);
        pthread_mutex_lock(&s->mu);
        if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
            return rc;
        while (u->held > 0 && io_uring_peek_cqe(&u->ring, &cqe) == 0) {
            void *data = io_uring_cqe_get_data(cqe);
            int const res = cqe->res;
            io_uring_cqe_seen(&u->ring, cqe);
            u->held--;
            reaped++;
            if (data == WAKE_TAG)
                u->poll_armed = 0;
            else if (data != CANCEL_TAG)
                (void) rl_io__complete(s, data, res < 0 ? res : -ECANCELED);
        }
        idle = reaped ? 0 : idle + 1;
        if (rc < 0 && idle >= DRAIN_TRIES)
            return rc;
    }
    return 0;
}

void *rl_io__uring_main(void *arg)
{
    RlIoSched *s = arg;
    UringPriv *u = s->backend_priv;
    IoReq *rq;

    pthread_mutex_lock(&s->mu);
    for (;;) {
        int rc;
        while (rl_io__next_req(s, &rq))
            issue(s, u, rq);
        if (rl_io__flush_notify(s))
            continue;                      /* mu was dropped: look again */
        if (rl_io__should_exit(s))
            break;
        if (!u->poll_armed) {
            struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
            if (sqe) {
                io_uring_prep_poll_add(sqe, u->evfd, POLLIN);
                io_uring_sqe_set_data(sqe, WAKE_TAG);
                u->poll_armed = 1;
                u->held++;
            }
        }
        s->io_sleeping = 1;
        pthread_mutex_unlock(&s->mu);
        rc = io_uring_submit_and_wait(&u->ring, 1);
        pthread_mutex_lock(&s->mu);
        s->io_sleeping = 0;
        if (rc < 0 && rc != -EINTR && rc != -EBUSY) {
            /* the ring itself failed: nothing in flight can be trusted to finish */
            if (!s->in_err)
                s->in_err = rc;
            if (!s->out_err)
                s->out_err = rc;
            s->cancel = 1;
            if (drain(s, u) < 0)
                s->buffers_lent = 1;
            break;
        }
        reap(s, u);
    }
    rl_io__thread_exit(s);
    return NULL;
}
