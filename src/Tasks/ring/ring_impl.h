/* ringlame: the frame ring's private state, shared by the scheduler (ring.c)
 * and the task bodies (ring_tasks.c).  The threading contract is the comment
 * at the top of ring.c; each field below names who may touch it. */
#ifndef RL_RING_IMPL_H
#define RL_RING_IMPL_H

#include <pthread.h>
#include <stdint.h>

#include "ring.h"
#include "stages.h"
#include "io_sched.h"

struct RlPcmReader;
struct RlMp3Writer;

typedef enum RingTask {
    T_NONE, T_SIDE, T_ENCODE, T_RESOLVE, T_SEARCH, T_PREPARE, T_GAIN0, T_GAIN1, T_DISPATCH,
    T_FINISH
} RingTask;

/* What one Dispatch task did (>= 0), or -errno. */
enum {
    RING_D_CUT = 0,        /* cut frame `cut` into its slot */
    RING_D_DONE = 1,       /* flush complete: no more frames */
    RING_D_NO_INPUT = 2,   /* the I/O scheduler has no block yet (notify will come) */
    RING_D_GAIN_FULL = 3   /* the ReplayGain feed is full: gain tasks first */
};

typedef struct Ring {
    /* ---- fixed after setup (any thread reads) ---- */
    RlEncoder   *e;
    RlFrame     *frames;
    int          nslots;
    int          nthreads;             /* workers (1: Encode forks nothing) */
    int          gain_channels;        /* ReplayGain tasks (0: RG off) */
    const RlRingParams *p;
    struct RlPcmReader *in;
    struct RlMp3Writer *out;
    RlIoSched   *io;                   /* NULL: Dispatch reads, Encode writes directly */

    /* ---- scheduler state: under mu ---- */
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    int64_t cut, prep_take, resolved, search_take, encoded;
    unsigned char *prepared, *searched;    /* per slot */
    int     dispatch_running, resolve_running, encode_running;
    int     gain_running[2];
    int     dispatch_done, finish_taken;
    int     dispatch_wait_input;       /* last Dispatch found no block ... */
    uint64_t io_events;                /* ... and notify has not fired since */
    uint64_t io_events_seen;           /* io_events when Dispatch was taken */
    int     dispatch_wait_gain;        /* last Dispatch found the gain feed full */
    RlCarried committed;               /* Encode's carried state after the last finished Encode */
    int     idle;                      /* workers sleeping on cv */
    /* Encode's fork-join (ring_fork_join): items [side_next, side_n) are
     * free for any worker, side_running are being run; side_cv wakes the
     * Encode task waiting for them */
    void  (*side_fn)(void *arg, int i);
    void   *side_arg;
    int     side_n, side_next, side_running;
    pthread_cond_t side_cv;
    RlRingStats stats;                 /* task times (only when p->stats) */
    int     stop_req;                  /* the stop token was requested */
    int     quit;
    int     err;

    /* ---- the Dispatch task only ---- */
    int32_t *pcm;                      /* direct-read buffer (io == NULL) */
    const RlInBlock *blk;              /* current I/O block, or NULL */
    int      blk_pos;                  /* frames of blk already fed */
    int      frame_size;
    int      in_eof;

    /* ---- the Encode task only, then the Finish task ---- */
    uint8_t *out_bytes;
    int64_t  total_estimate;
    int64_t  redo_count;               /* searches Encode had to redo */

    /* ---- the stop token's list of attached rings: under the token's lock ---- */
    struct Ring *stop_next;
} Ring;

/* Task bodies (ring_tasks.c).  Called without mu, by the one worker that
 * took the task; they touch only what ring.c's contract gives that task. */
int ring_run_dispatch(Ring *r, RlFrame *f);
int ring_run_encode(Ring *r, RlFrame *f, int64_t t);
int ring_run_finish(Ring *r);
int ring_write_ready_bytes(Ring *r);   /* Encode, Finish and setup */
/* The fork-join the Encode task lends rl_encode_forked (ctx: the Ring). */
void ring_fork_join(void *ctx, int n, void (*fn)(void *arg, int i), void *arg);

#endif
