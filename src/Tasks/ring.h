/* ringlame: the threaded encode driver: a ring of frame records moved through
 * the five stages by a pool of worker threads (see ring.c's top comment and
 * docs/architecture.md).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_RING_H
#define RL_RING_H

#include <signal.h>
#include <stdint.h>

#include "settings.h"

struct RlPcmReader;
struct RlMp3Writer;

typedef struct RlRingParams {
    int threads;        /* workers; <= 0: the CPUs this process may run on */
    int slots;          /* frame records; 0: 4*threads, clamped to [4, 256] */
    int io_backend;     /* I/O scheduler (io_sched.h): 0 auto, 1 io_uring only, 2 thread
                         * only; -1 none: Dispatch reads and Encode writes directly */
    /* called from a worker (never two at once) as frames are finished; may be NULL */
    void (*progress)(void *arg, int64_t frames_done, int64_t frames_total_or_minus1);
    void *progress_arg;
    /* set by a signal handler: the ring drains and returns -EINTR; may be NULL */
    volatile sig_atomic_t *stop;
} RlRingParams;

/* Whole encode like rl_run_sequential (same bytes), on p->threads workers.
 * p may be NULL (defaults).  Returns 0 or -errno (-EINTR when stopped); the
 * caller closes reader and writer. */
int rl_run_ring(const RlOptions *opt, struct RlPcmReader *in, struct RlMp3Writer *out,
                const RlRingParams *p);

/* The default worker count: CPUs in this process's affinity mask (>= 1). */
int rl_ring_default_threads(void);

#endif
