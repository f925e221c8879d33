/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: test hook that injects random delays at the ring's stage
 * boundaries, so that tests see many interleavings of the worker threads.
 * Compiled only into the test build of the library (RL_TEST_HOOKS). */
#ifndef RL_STRESS_HOOK_H
#define RL_STRESS_HOOK_H

#ifdef RL_TEST_HOOKS
/* max_delay_us <= 0 turns the hook off.  seed makes a run's delay sequence
 * repeatable per call order (the threads still race).  Call it while no
 * encode runs (it is read with relaxed atomics by the workers). */
void rl_stress_set(unsigned seed, int max_delay_us);

/* A stage boundary: sleeps 0..max_delay_us microseconds when enabled (about
 * a quarter of the calls sleep, the rest only yield or return); returns at
 * once when disabled.  Thread-safe, takes no lock. */
void rl_stress_point(void);
#else
/* production builds: no hook at all */
#define rl_stress_point() ((void) 0)
#endif

#endif
