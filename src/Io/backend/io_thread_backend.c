/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the I/O scheduler's plain-thread backend: the I/O thread runs each request with a
 * blocking pread/pwrite/write (or rl_pcm_read) itself. */
#include "io_sched_impl.h"

void rl_io__thread_wake(RlIoSched *s)
{
    pthread_cond_signal(&s->io_cv);
}

void *rl_io__thread_main(void *arg)
{
    RlIoSched *s = arg;
    IoReq *rq;

    pthread_mutex_lock(&s->mu);
    for (;;) {
        if (rl_io__flush_notify(s))
            continue;
        if (rl_io__next_req(s, &rq)) {
            long res;
            do {
                /* the request's buffer is not touched by anyone else meanwhile */
                pthread_mutex_unlock(&s->mu);
                res = rl_io__run_sync(s, rq);
                pthread_mutex_lock(&s->mu);
            } while (rl_io__complete(s, rq, res));
            continue;
        }
        if (s->notify_pending)
            continue;
        if (rl_io__should_exit(s))
            break;
        pthread_cond_wait(&s->io_cv, &s->mu);
    }
    rl_io__thread_exit(s);
    return NULL;
}
