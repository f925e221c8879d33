/* ringlame: the threaded encode driver: a ring of frame records moved through
 * the five stages by a pool of worker threads (see ring.c's top comment and
 * docs/architecture.md).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_RING_H
#define RL_RING_H

#include <stdint.h>

#include "settings.h"

struct RlPcmReader;
struct RlMp3Writer;

/* A stop token: a request, from any thread, that the rings using it drain
 * and return -EINTR.  rl_ring_stop_request takes the token's mutex and the
 * mutex of every ring attached to it and broadcasts their condition
 * variable, so idle workers wake at once (no polling, no timed waits).
 *
 * Threading contract:
 *   - create/free: by the owner, never while a ring uses the token (free
 *     only after rl_run_ring returned and no thread can still call
 *     rl_ring_stop_request on it);
 *   - rl_ring_stop_request / rl_ring_stop_requested: any normal thread, at
 *     any time, also while rings run; NOT from a signal handler (they lock
 *     mutexes: a signal thread that sigwait()s calls them instead, see
 *     src/Cli/signals.h);
 *   - a request is sticky: a ring started with an already stopped token
 *     returns -EINTR without encoding;
 *   - one token may serve several rings at once (each attaches itself for
 *     the length of rl_run_ring).  Lock order: token -> ring scheduler lock.
 *     The ring never takes the token's lock while it holds its own. */
typedef struct RlRingStop RlRingStop;

/* 0, -ENOMEM or -errno of pthread_mutex_init. */
int rl_ring_stop_create(RlRingStop **out);
void rl_ring_stop_free(RlRingStop *s);          /* NULL: nothing */
void rl_ring_stop_request(RlRingStop *s);       /* idempotent */
int rl_ring_stop_requested(RlRingStop *s);      /* 1 once requested */

/* What a ring run spent where (filled at the end when RlRingParams.stats is
 * set): task counts and summed task times per kind, in seconds of worker
 * time.  encode_s includes the channel loops Encode runs itself and its
 * waits for the ones other workers run (side_s). */
typedef struct RlRingStats {
    int64_t frames;
    int64_t search_redos;       /* searches Encode redid serially */
    double  dispatch_s, prepare_s, resolve_s, search_s, encode_s, side_s, gain_s, finish_s;
    int64_t side_tasks;         /* forked Encode items run by another worker */
    double  wall_s;
} RlRingStats;

typedef struct RlRingParams {
    int threads;        /* workers; <= 0: the CPUs this process may run on */
    int slots;          /* frame records; 0: 4*threads, clamped to [4, 256] */
    int io_backend;     /* I/O scheduler (io_sched.h): 0 auto, 1 io_uring only, 2 thread
                         * only; -1 none: Dispatch reads and Encode writes directly */
    /* called from a worker (never two at once) as frames are finished; may be NULL */
    void (*progress)(void *arg, int64_t frames_done, int64_t frames_total_or_minus1);
    void *progress_arg;
    /* a stop token (see above): once requested, the ring drains and returns
     * -EINTR; may be NULL.  (Formerly a polled volatile sig_atomic_t flag.) */
    RlRingStop *stop;
    RlRingStats *stats; /* may be NULL */
} RlRingParams;

/* Whole encode like rl_run_sequential (same bytes), on p->threads workers.
 * p may be NULL (defaults).  Returns 0 or -errno (-EINTR when stopped); the
 * caller closes reader and writer. */
int rl_run_ring(const RlOptions *opt, struct RlPcmReader *in, struct RlMp3Writer *out,
                const RlRingParams *p);

/* The default worker count: CPUs in this process's affinity mask (>= 1). */
int rl_ring_default_threads(void);

#endif
