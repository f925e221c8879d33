/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the thread and slot limits (see thread_policy.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>

#include "thread_policy.h"

int rl_threads_default(void)
{
    cpu_set_t set;
    int n;

    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 1;
    n = CPU_COUNT(&set);
    if (n < 1)
        return 1;
    return n < RL_THREADS_MAX ? n : RL_THREADS_MAX;
}

int rl_threads_resolve(int requested)
{
    if (requested <= 0)
        return rl_threads_default();
    return requested < RL_THREADS_MAX ? requested : RL_THREADS_MAX;
}

int rl_threads_for_ring(int requested)
{
    int const n = rl_threads_resolve(requested);
    return n < RL_RING_SLOTS_MAX ? n : RL_RING_SLOTS_MAX;
}

int rl_ring_slots(int requested, int workers)
{
    int n = requested;

    if (n <= 0) {
        n = RL_RING_SLOTS_PER_THREAD * (workers + 1);
        if (n < RL_RING_SLOTS_MIN)
            n = RL_RING_SLOTS_MIN;
    }
    return n < RL_RING_SLOTS_MAX ? n : RL_RING_SLOTS_MAX;
}
