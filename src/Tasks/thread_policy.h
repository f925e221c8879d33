/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: how many threads an encode runs on and how many frame records
 * a ring gets: every limit in one place (the command's --threads, the
 * library's settings and pools, the executor, the ring's own pool and its
 * slots all ask here). */
#ifndef RL_THREAD_POLICY_H
#define RL_THREAD_POLICY_H

/* The most threads an encode or a pool may be asked for, the caller's
 * included (--threads, ringlame_settings_set_threads, a pool's workers + 1). */
#define RL_THREADS_MAX 1024

/* The frame records of a ring: RL_RING_SLOTS_PER_THREAD per thread that runs
 * it unless the caller says, never more than RL_RING_SLOTS_MAX.  A pool made
 * for one ring has at most RL_RING_SLOTS_MAX threads: a thread beyond the
 * frames in flight finds no work. */
#define RL_RING_SLOTS_PER_THREAD 4
#define RL_RING_SLOTS_MIN        4
#define RL_RING_SLOTS_MAX        256

/* The default thread count: the CPUs in this process's affinity mask
 * (taskset and cgroup cpusets count), 1 .. RL_THREADS_MAX. */
int rl_threads_default(void);

/* The threads of an encode asked for `requested`: <= 0 the default, else
 * requested, at most RL_THREADS_MAX. */
int rl_threads_resolve(int requested);

/* The threads of a pool made for one ring: rl_threads_resolve, at most
 * RL_RING_SLOTS_MAX. */
int rl_threads_for_ring(int requested);

/* The frame records of a ring on `workers` pool workers (and the thread
 * that waits for it): requested > 0 that many (tests use rings of 1 to 3),
 * else RL_RING_SLOTS_PER_THREAD per thread from RL_RING_SLOTS_MIN; at most
 * RL_RING_SLOTS_MAX either way. */
int rl_ring_slots(int requested, int workers);

#endif
