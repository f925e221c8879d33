/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the I/O scheduler's internal state, shared by io_sched.c and its two backends. */
#ifndef RL_IO_SCHED_IMPL_H
#define RL_IO_SCHED_IMPL_H

#include <pthread.h>
#include <sys/types.h>

#include "io_sched.h"
#include "pcm_reader.h"

enum { SLOT_FREE, SLOT_READING, SLOT_READY, SLOT_HELD };
enum { REQ_READ, REQ_DECODE, REQ_WRITE, REQ_TAG };

#define IO_MAX_REQ 8

typedef struct IoSlot {
    RlInBlock blk;
    uint8_t  *buf;
    int       state;
    int64_t   seq;
} IoSlot;

/* One request; fields written under the lock, the buffer used outside it. */
typedef struct IoReq {
    int      active;
    int      kind;
    int      slot;        /* REQ_READ / REQ_DECODE */
    int      fd;
    uint8_t *buf;
    size_t   len, done;
    int64_t  off;         /* file offset of buf[0]; -1: write() at the stream position */
    uint64_t qpos;        /* REQ_WRITE: position of buf[0] in the output queue */
} IoReq;

struct RlIoSched {
    pthread_mutex_t mu;
    pthread_cond_t  io_cv;     /* thread backend: the I/O thread sleeps here */
    pthread_cond_t  user_cv;   /* out_write waiting for space, finish waiting for the end */
    pthread_t thr;
    int       thr_started;
    RlIoBackend backend;

    /* input */
    RlPcmReader *in;
    int       raw;             /* 1: direct reads of lay */
    RlRawLayout lay;
    int       in_fd;
    int       fmt, channels, frame_bytes, block_frames, nslots;
    size_t    slot_bytes;
    IoSlot   *slots;
    int64_t   issue_seq;       /* next block to read (I/O thread) */
    int64_t   deliver_seq;     /* next block to hand out (consumer) */
    int64_t   last_seq;        /* the eof block's seq once known, else -1 */
    int       in_err;

    /* output: a ring of ocap bytes; positions count bytes since start */
    int       out_fd, out_seekable;
    int64_t   out_base;        /* file offset of queue position 0 */
    uint8_t  *obuf;
    size_t    ocap, othresh;
    uint64_t  oq, oiss, odone; /* queued >= issued >= written (freed) */
    int       out_err;
    uint8_t  *tag;
    size_t    taglen;
    int64_t   tag_off;      /* where the tag goes (after an ID3v2 tag) */

    int       finishing, tag_done, stopped, cancel;
    int       buffers_lent;    /* 1: the kernel may still hold requests on the blocks, the
                                * output queue and the tag (io_uring failed and could not
                                * be drained): free_sched leaves them allocated */

    IoReq     reqs[IO_MAX_REQ];
    int       reads_inflight, writes_inflight, max_reads, max_writes;

    int       io_sleeping;     /* the I/O thread waits: wake it */
    int       notify_pending;
    void    (*notify)(void *arg);
    void     *notify_arg;
    void    (*trace)(void *arg, int kind, double t0, double t1, long amount);   /* fixed */
    void     *trace_arg;

    void     *backend_priv;    /* io_uring state */
    RlIoStats st;
};

/* io_sched.c, all with mu held */
int  rl_io__next_req(RlIoSched *s, IoReq **out);        /* 1: a request to run */
int  rl_io__complete(RlIoSched *s, IoReq *rq, long res); /* 1: run rq again (the rest) */
long rl_io__run_sync(RlIoSched *s, IoReq *rq);           /* blocking execution, mu NOT held */
int  rl_io__should_exit(const RlIoSched *s);
int  rl_io__flush_notify(RlIoSched *s);                 /* calls notify with mu dropped: 1 if it did
                                                          * (the state may have changed: look again) */
void rl_io__thread_exit(RlIoSched *s);                  /* the I/O thread's last act: marks it stopped,
                                                          * wakes the waiters, a last notify; releases mu */

/* backends: the I/O thread's body; io_uring setup can fail (then 0 is not returned) */
int   rl_io__uring_init(RlIoSched *s);    /* 0 or -errno */
void  rl_io__uring_wake(RlIoSched *s);    /* mu held */
void  rl_io__uring_free(RlIoSched *s);
void *rl_io__uring_main(void *arg);
void  rl_io__thread_wake(RlIoSched *s);   /* mu held */
void *rl_io__thread_main(void *arg);

#endif
