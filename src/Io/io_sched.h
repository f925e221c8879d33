/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the I/O scheduler: one thread that reads the input into a bounded pool of blocks
 * and writes the encoded bytes in order (io_uring, or plain blocking calls as the fallback). */
#ifndef RL_IO_SCHED_H
#define RL_IO_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "raw_layout.h"   /* RlInBlock, RlSampleFmt */

struct RlPcmReader;
struct RlMp3Writer;

typedef struct RlIoSched RlIoSched;

/* The I/O scheduler's backend. */
typedef enum RlIoBackend {
    RL_IO_AUTO   = 0,   /* io_uring where the kernel allows it, else the thread */
    RL_IO_URING  = 1,   /* io_uring only: rl_io_start fails without it */
    RL_IO_THREAD = 2    /* one blocking call at a time on the I/O thread */
} RlIoBackend;

typedef struct RlIoParams {
    int    frame_size;      /* samples per channel per lame read (cfg.frame_size) */
    int    block_frames;    /* multiple of frame_size; 0: 32 * frame_size */
    int    max_in_blocks;   /* blocks in the pool (>= 2); 0: 6 */
    size_t max_out_bytes;   /* output queue capacity; 0: 1 MiB */
    RlIoBackend backend;    /* RL_IO_AUTO (io_uring, else thread), RL_IO_URING (only), RL_IO_THREAD */
    /* Called on the I/O thread, with no rl_io lock held, after a block became
     * ready, after output space was freed, and after an error.  May call
     * rl_io_* query functions; must not block for long.  May be NULL. */
    void (*notify)(void *arg);
    void  *notify_arg;
    /* Called on the I/O thread after each read, write or decode it ran
     * itself (with io_uring: the decodes and what the ring could not take;
     * the kernel's asynchronous reads and writes are not seen), with no
     * rl_io lock held: kind RL_IO_TRACE_*, start and end (CLOCK_MONOTONIC
     * seconds), bytes (read, write) or frames (decode), or -errno.  Must be
     * cheap and take no lock shared with other threads.  May be NULL. */
    void (*trace)(void *arg, int kind, double t0, double t1, long amount);
    void  *trace_arg;
    /* May be NULL: when rl_io_start fails on the input's first read (its
     * layout probe) or on the output, set to RL_IO_SIDE_INPUT or
     * RL_IO_SIDE_OUTPUT (left alone otherwise) */
    int   *failed_side;
} RlIoParams;

enum { RL_IO_SIDE_INPUT = 1, RL_IO_SIDE_OUTPUT = 2 };

enum { RL_IO_TRACE_READ = 0, RL_IO_TRACE_WRITE = 1, RL_IO_TRACE_DECODE = 2 };

/* Threading contract.
 *  - rl_io_start, rl_io_finish, rl_io_abort: the owner of the run, once each
 *    (start, then exactly one of finish/abort), when no other thread is inside
 *    an rl_io_* call.  finish and abort join the I/O thread and free io.
 *  - rl_io_in_next / rl_io_in_release: the input consumer (Dispatch).  Calls
 *    must be serialised (Dispatch may move between threads if the caller's
 *    own lock orders the calls); blocks are handed out in stream order.
 *  - rl_io_out_space / rl_io_out_write: the output producer (Encode),
 *    serialised the same way; bytes are written in the order queued.
 *  - rl_io_backend, rl_io_cancel: any thread, any time between start and
 *    finish/abort.
 *  - The reader `in` belongs to the I/O thread from rl_io_start until
 *    finish/abort (it may decode on it); the writer's fd too: nobody else
 *    writes to `out` meanwhile.  Both stay open; the caller closes them
 *    after finish/abort (rl_mp3_close(out, 0) after an abort).
 * Internally one mutex guards the state; blocking I/O and notify run outside it.
 *
 * Backends.  io_uring: up to 4 block reads (regular files) and 2 output
 * writes (seekable output, at increasing offsets) in flight; other threads
 * wake the I/O thread through an eventfd poll.  Thread: the I/O thread runs
 * one blocking pread/pwrite at a time.  In both, decoding (rl_pcm_read) and
 * writes to pipes/stdout (write(), in order) run on the I/O thread itself;
 * such a write() blocked on a pipe nobody reads delays finish/abort until
 * the reader reads or goes away (EPIPE).
 * Output bytes are gathered into writes of up to 256 KiB (a write starts
 * once 64 KiB, a quarter of the queue, or the end is pending). */

/* Starts the I/O thread.  Named WAV/AIFF/raw integer PCM is read straight
 * into the blocks (RlInBlock.fmt = the file's encoding); anything else is
 * decoded by rl_pcm_read on the I/O thread (fmt RL_SF_I32).  Must come
 * before any rl_pcm_read on `in` and after everything written to `out`
 * through rl_mp3_write (the placeholder may be queued with rl_io_out_write
 * instead).  0 or -errno with a message in err. */
int  rl_io_start(RlIoSched **io, struct RlPcmReader *in, struct RlMp3Writer *out,
                 const RlIoParams *p, char *err, size_t errlen);

/* RL_IO_URING or RL_IO_THREAD: the backend actually running. */
RlIoBackend rl_io_backend(const RlIoSched *io);

/* 1: *blk is the next block (in order); 0: none ready yet (notify fires when
 * one arrives); <0: read error (the input file's, or the one that failed the
 * io_uring ring), -ECANCELED after cancel.
 * Do not call again after a block with eof=1. */
int  rl_io_in_next(RlIoSched *io, const RlInBlock **blk);

/* Dispatch is done with blk: its buffer is reused. */
void rl_io_in_release(RlIoSched *io, const RlInBlock *blk);

/* 1 if n bytes can be queued now without blocking (n above the capacity:
 * if the queue is empty). */
int  rl_io_out_space(const RlIoSched *io, size_t n);

/* Copies n bytes into the output queue, waiting for space if needed.
 * 0, or the first output error (-errno), -ECANCELED after cancel (the ring's
 * error if the io_uring ring failed). */
int  rl_io_out_write(RlIoSched *io, const uint8_t *p, size_t n);

/* Writes out everything queued, then the tag at offset when taglen > 0
 * and the output can seek; stops the thread and frees io.  Returns the
 * first error: output errors first, then input errors. */
int  rl_io_finish(RlIoSched *io, const uint8_t *tag, size_t taglen, uint64_t offset);

/* Stops now: in-flight requests are drained, nothing more is written; joins
 * the thread and frees io.  The caller then closes the writer uncommitted. */
void rl_io_abort(RlIoSched *io);

/* Makes every waiting or later rl_io_* call return -ECANCELED promptly; no
 * free (for another thread to unblock the workers before rl_io_abort). */
void rl_io_cancel(RlIoSched *io);

/* I/O statistics for tests and benchmarks. */
typedef struct RlIoStats {
    int64_t in_bytes, out_bytes;
    int     raw_input;       /* 1: direct reads, 0: rl_pcm_read decode */
    int     max_reads_in_flight;
} RlIoStats;
void rl_io_stats(const RlIoSched *io, RlIoStats *st);

#endif
