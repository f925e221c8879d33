/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: random delays at stage boundaries (test hook, off by default).
 * The only mutable globals of the program live here: two atomics that tests
 * set before an encode; workers read them without a lock. */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "stress_hook.h"

static atomic_int      g_max_delay_us;
static atomic_uint_least64_t g_state;

void rl_stress_set(unsigned seed, int max_delay_us)
{
    atomic_store(&g_state, (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1);
    atomic_store(&g_max_delay_us, max_delay_us > 0 ? max_delay_us : 0);
}

/* splitmix64 over a shared counter: one atomic add per call, no lock */
static uint64_t next_random(void)
{
    uint64_t z = atomic_fetch_add_explicit(&g_state, 0x9E3779B97F4A7C15ull, memory_order_relaxed);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rl_stress_point(void)
{
    int max = atomic_load_explicit(&g_max_delay_us, memory_order_relaxed);
    uint64_t r;
    if (max <= 0)
        return;
    r = next_random();
    switch (r & 3) {
    case 0: {
        struct timespec ts;
        long us = (long)((r >> 8) % (uint64_t)(max + 1));
        ts.tv_sec = us / 1000000;
        ts.tv_nsec = (us % 1000000) * 1000;
        nanosleep(&ts, NULL);
        break;
    }
    case 1:
        sched_yield();
        break;
    default:
        break;
    }
}
