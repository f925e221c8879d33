/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the io_uring backend of a build without liburing: its setup
 * fails with -ENOSYS, so the scheduler runs the plain-thread backend
 * (io_sched.c never calls the others without a successful setup). */
#include <errno.h>
#include <stddef.h>

#include "io_sched_impl.h"

int rl_io__uring_init(RlIoSched *s)
{
    (void) s;
    return -ENOSYS;
}

void rl_io__uring_wake(RlIoSched *s)
{
    (void) s;
}

void rl_io__uring_free(RlIoSched *s)
{
    (void) s;
}

void *rl_io__uring_main(void *arg)
{
    (void) arg;
    return NULL;
}
