/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the frame ring's private state, shared by the scheduler (ring.c)
 * and the task bodies (ring_tasks.c).  The threading contract is the comment
 * at the top of ring.c; each field below names who may touch it. */
#ifndef RL_RING_IMPL_H
#define RL_RING_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "ring.h"
#include "executor.h"
#include "stages.h"

typedef enum RingTask {
    T_NONE, T_ENCODE, T_REDECODE, T_RESOLVE, T_SEARCH, T_PREPARE, T_GAIN0, T_GAIN1, T_DISPATCH,
    T_FINISH
} RingTask;

/* What one Redecode task did (>= 0), or -errno. */
enum {
    RING_R_DONE = 0,       /* frame `redecoded`'s bytes are decoded */
    RING_R_GAIN_FULL = 1   /* the ReplayGain feed is full: gain tasks first, then again */
};

/* What one Encode task did (>= 0), or -errno. */
enum {
    RING_E_DONE = 0,       /* frame `encoded` is encoded */
    RING_E_BOUNDARY = 1    /* decode on the fly: a gapless file's end was flushed and
                            * decoded, its ReplayGain title marked; Encode runs again
                            * for the same frame once the title is closed */
};

/* What one Dispatch task did (>= 0), or -errno. */
enum {
    RING_D_CUT = 0,        /* cut frame `cut` into its slot */
    RING_D_DONE = 1,       /* flush complete: no more frames */
    RING_D_NO_INPUT = 2,   /* the input port has no block yet (input_ready will come) */
    RING_D_GAIN_FULL = 3   /* the ReplayGain feed is full: gain tasks first */
};

typedef struct RlRing Ring;

struct RlRing {
    /* ---- fixed after setup (any thread reads) ---- */
    RlEncoder   *e;
    RlFrame     *frames;
    int          nslots;
    int          fork;                 /* Encode forks its channel loops (pool workers > 0) */
    int          gain_channels;        /* ReplayGain tasks (0: RG off) */
    RlRedecode  *rd;                   /* decode on the fly (NULL: off): the Redecode task's */
    uint8_t     *slot_bytes;           /* with rd, per slot: the bytes Encode handed out for the
                                        * frame (RL_ENCODER_BYTES_MAX each; Encode writes them,
                                        * then Redecode reads them) */
    size_t      *slot_nbytes;
    int          frame_size;
    float        scale;                /* the options' scale after init (lame_get_scale) */
    RlRingParams p;                    /* the caller's, copied */
    RlRingInput  in;
    RlRingOutput out;
    RlExecutor  *ex;
    RlExecClient client;               /* run_one = ring_run_one (ring.c) */
    double       t0;                   /* when the ring started (stats) */
    int          attached;             /* rl_ring_start attached it (stop token, executor) */

    /* ---- scheduler state: under mu ---- */
    pthread_mutex_t mu;
    int64_t cut, prep_take, resolved, search_take, encoded;
    unsigned char *prepared, *searched;    /* per slot */
    int    *slot_file;                 /* per slot: the gapless set's file of the frame (Dispatch
                                        * writes it with the cut, Encode reads it) */
    int     dispatch_running, resolve_running, encode_running;
    int64_t redecoded;                 /* with rd: frames Redecode finished (<= encoded); their
                                        * slots are free again */
    int     redecode_running;
    int     redecode_wait_gain;        /* last Redecode found the gain feed full */
    int     gain_running[2];
    int     dispatch_done, finish_taken, finished;
    int     dispatch_wait_input;       /* last Dispatch found no block ... */
    uint64_t in_events;                /* ... and input_ready has not come since */
    uint64_t in_events_seen;           /* in_events when Dispatch was taken */
    int     dispatch_wait_gain;        /* last Dispatch found the gain feed full */
    RlCarried committed;               /* Encode's carried state after the last finished Encode */
    RlCarried predicted;               /* the state after frame predicted_after, as its
                                        * search predicts it (rl_search_predict) */
    int64_t   predicted_after;         /* -1: no prediction newer than `committed` */
    RlCarried *slot_pred;              /* per slot: the frame's search prediction ... */
    unsigned char *slot_has_pred;      /* ... if it made one */
    int     running;                   /* tasks taken and not yet completed */
    int     helpers;                   /* threads in rl_ring_wait / rl_ring_help_until */
    atomic_int pool_running;           /* tasks taken by pool workers (p.max_workers); also
                                        * changed without mu by fork_join.c's items */
    int     out_waiters;               /* of those, in rl_ring_help_until */
    RlRingStats stats;                 /* task times (only when p.stats) */
    int     stop_req;                  /* the stop token was requested */
    int     quit;
    int     err;
    int     err_end;                   /* the RlRingEnd err came from ... */
    int     err_file;                  /* ... and that end's file (gapless sets) */
    int     out_cancelled;             /* the output port's cancel was called (or is due) */

    /* ---- the Dispatch task only ---- */
    int      in_failed;                /* the input port's last next failed (read by the
                                        * thread that ran Dispatch, when it publishes) */
    const RlInBlock *blk;              /* current input block, or NULL */
    int      blk_pos;                  /* frames of blk already fed */
    int      in_eof;
    int      in_file;                  /* gapless sets: the file being fed */
    int      in_file_fed;              /* ... and whether a sample of it was fed */
    int      skip_left;                /* frames of p.skip_frames still to drop */
    int64_t  in_file_cut;              /* ... and the frames cut before its first */
    unsigned char *file_empty;         /* gapless sets, per file: it had no sample (Dispatch
                                        * writes it before the next file's first cut) */
    int      read_end_reported;        /* the read_progress call of the end was made */
    int      read_left;                /* frames of lame's current read not yet fed */

    /* ---- Encode's fork-join (fork_join.c, its comment says who touches
     * what): atomics, and fields the Encode task writes while it is closed */
    _Atomic uint64_t side_word;        /* (items << 32) | next free item; 0 items: closed */
    atomic_int side_done;              /* items others claimed and finished */
    atomic_int side_sleeping;          /* the joiner waits on side_cv (under mu) */
    pthread_cond_t side_cv;
    void  (*side_fn)(void *arg, int i);
    void   *side_arg;
    int64_t side_frame;                /* the frame being encoded (the items' trace) */
    double  side_wait_s;               /* the Encode task's time in its joins (stats) */

    /* ---- the Encode task only, then the Finish task ---- */
    int      out_failed;               /* an output port call failed (as in_failed) */
    uint8_t *out_bytes;
    int64_t  total_estimate;
    int64_t  redo_count;               /* searches Encode had to redo */
    int      out_file;                 /* gapless sets: the file being written (the scheduler
                                        * reads it under mu while Encode is not running) */
    int64_t  out_file_start;           /* gapless sets: that file's first frame */
    int      boundary_flushed;         /* decode on the fly: out_file's end was flushed and
                                        * decoded (RING_E_BOUNDARY; the scheduler reads it
                                        * under mu while Encode is not running) */
    uint8_t *file_head;                /* decode on the fly, gapless: out_file's tag
                                        * placeholder, decoded at its end if it was empty */
    size_t   file_head_len;
    /* rl_ring_end_file (written by the thread that calls it, read as
     * Encode): the bytes of the head lame holds, the caller's room for the
     * flush (end_cap_set: not decided yet), and whether the flush was held */
    size_t   end_head_held;
    int      end_cap, end_cap_set, end_held;
    /* what was music before the ended file's flush and after it; a held
     * flush still in lame's bit buffer (held_open: rl_ring_held_out not
     * called since) */
    RlMusicMark end_before, end_after;
    int      held_open;
    /* decode on the fly: the held flush's bytes, undecoded (held_len 0:
     * none), and rl_ring_held_out's request and result */
    uint8_t *held;
    size_t   held_len, held_size;
    RlRingHeld held_how;
    RlRingResult *held_res;
    int      flush_empty;              /* the file's end had nothing to flush */
    int      title_base;               /* ReplayGain titles closed by a lame_encode_flush the
                                        * stream went on after (rl_ring_reopen): file i's
                                        * title is title_base + i (written while no task runs) */
    int      flush_padding;            /* the padding of that flush (lame_get_encoder_padding),
                                        * which a gapless file's LAME tag carries (0: none yet) */

    /* ---- the stop token's list of attached rings: under the token's lock ---- */
    struct RlRing *stop_next;
};

/* Task bodies (ring_tasks.c).  Called without mu, by the one worker that
 * took the task; they touch only what ring.c's contract gives that task. */
int rl_ring_run_dispatch(Ring *r, RlFrame *f);
int rl_ring_run_encode(Ring *r, RlFrame *f, int64_t t);
int rl_ring_run_finish(Ring *r);
/* The ends of the gapless files Dispatch has passed and Encode not yet
 * ended (Finish, rl_ring_end_file): Encode's and the gain tasks' work,
 * run by a thread that holds both. */
int rl_ring_end_files(Ring *r);
int rl_ring_run_redecode(Ring *r, int64_t t);
/* The bytes of a gapless file's start (its tag placeholder): kept in
 * file_head when decoding on the fly, else as rl_ring_write_ready_bytes. */
int rl_ring_write_file_head(Ring *r);
/* lame_init_bitstream: the current output file's ID3v2 tag, then a new
 * tag placeholder (the frame count and seek table restart), the decoded
 * peak restarted; Encode's work (or a thread that is Encode meanwhile). */
int rl_ring_new_head(Ring *r);
/* Encode: the current file had no sample: its head counts as music
 * (rl_encoder_empty_file).  0 or -errno. */
int rl_ring_count_empty_file(Ring *r);
/* Finish's (or a thread that is Finish meanwhile): the gain work pushed
 * so far, and a chunk through decode on the fly with the gain work run
 * here when the feed is full.  0 or -errno. */
int rl_ring_run_gain_here(Ring *r);
int rl_ring_redecode_here(Ring *r, const uint8_t *bytes, size_t n);
/* rl_ring_end_file's flush of n bytes (behind the head lame holds) against
 * the caller's room: sets end_held once per call (held_flush.c). */
void rl_ring_decide_held(Ring *r, size_t n);
/* end_held: the n bytes (decoded on the fly) wait in `held`.  0 or -ENOMEM. */
int rl_ring_keep_held(Ring *r, const uint8_t *bytes, size_t n);
/* rl_ring_held_out's work (held_how, held_res), as Encode.  0 or -errno. */
int rl_ring_held_work(Ring *r);
/* A gapless file's end: end_before is what is music now; where a flush
 * is still held (lame_init_bitstream, then a sample-less nogap flush with
 * no room for it) lame's copy takes the held bytes ahead of the new head,
 * so the music counts then go on over them, before the head's.  As
 * Encode. */
void rl_ring_held_into_end(Ring *r);
int rl_ring_write_ready_bytes(Ring *r);   /* Encode, Finish and setup */

/* An output port call's result, remembered as the output's failure
 * (out_failed) when it is one; by the thread that owns the output. */
static inline int rl_ring_out_rc(Ring *r, int rc)
{
    if (rc < 0)
        r->out_failed = 1;
    return rc;
}

/* Direct input (ports_files.c): a block over a buffer of frame_size
 * frames (*pcm, malloc'ed; the caller frees it), and one read of LAME's
 * front end into it (frames read, 0 at the end: the eof block, or -errno). */
struct RlPcmReader;
int  rl_ring_direct_block_init(RlInBlock *blk, int32_t **pcm, int frame_size, int channels);
int  rl_ring_direct_read(struct RlPcmReader *rd, int32_t *pcm, int frame_size, RlInBlock *blk);

/* rl_ring_create in two steps, for rl_run_ring, whose file ports need the
 * frame size and the ring (input_ready) before the ring may start:
 * rl_ring_alloc makes the encoder (rl_ring_frame_size works, input_ready is
 * safe, nothing runs); rl_ring_start writes the placeholder through outp and
 * attaches the ring to the stop token and the executor.  After a failed
 * rl_ring_start, rl_ring_destroy frees. */
int  rl_ring_alloc(Ring **out, const RlOptions *opt, RlExecutor *ex, const RlRingParams *p);
int  rl_ring_start(Ring *r, const RlRingInput *in, const RlRingOutput *outp);
/* rl_ring_destroy's first half: fails the ring with -ECANCELED unless it
 * ended, leaves the executor (no task runs afterwards) and the stop token,
 * fills p.stats.  Idempotent; then only the ports may still hold r (an
 * input port's thread calling input_ready) until they are closed. */
void rl_ring_halt(Ring *r);
/* The fork-join the Encode task lends rl_encode (RlForkJoin.run; ctx: the Ring). */
void rl_ring_fork_join(void *ctx, int n, void (*fn)(void *arg, int i), void *arg);
/* Any thread of the ring's executor, without mu: runs one free item of an
 * open fork-join; 1 if it ran one.  pooled: a pool worker (p.max_workers). */
int  rl_ring_side_run(Ring *r, int pooled);
/* Without mu: p.max_workers pool workers run the ring's tasks already. */
int  rl_ring_pool_full(const Ring *r);
/* CLOCK_MONOTONIC in seconds. */
double rl_ring_now_s(void);

#endif
