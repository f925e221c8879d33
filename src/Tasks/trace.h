/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: a run's timeline (--trace): one record per task the ring ran
 * and per I/O the I/O thread did, written as Chrome trace-event JSON (the
 * "traceEvents" array that Perfetto and chrome://tracing load).
 *
 * Threading contract:
 *   - create / write / free: the owner (the command), before and after the
 *     run; write and free only once no thread records any more (the ring
 *     destroyed, the I/O scheduler finished or aborted: both join or detach
 *     their threads, which orders every record before the write);
 *   - rl_trace_add / rl_trace_name_thread: any thread, during the run.  Each
 *     thread writes its own buffer, found through a thread-local cache, with
 *     no lock; the trace's mutex is taken only the first time a thread
 *     records into a trace (it registers its buffer), so the hot path is an
 *     append (a realloc now and then, by the buffer's thread).
 * A trace serves one run; records from several rings at once are allowed
 * (each thread still has one buffer). */
#ifndef RL_TRACE_H
#define RL_TRACE_H

#include <stdint.h>

typedef struct RlRingTrace RlRingTrace;

typedef enum RlTraceKind {
    RL_TR_DISPATCH, RL_TR_PREPARE, RL_TR_RESOLVE, RL_TR_SEARCH, RL_TR_ENCODE,
    RL_TR_ENCODE_SIDE,          /* an Encode channel loop run by another worker */
    RL_TR_GAIN0, RL_TR_GAIN1, RL_TR_FINISH,
    RL_TR_REDECODE,             /* decode on the fly of one Encode's bytes */
    RL_TR_READ, RL_TR_WRITE, RL_TR_DECODE,     /* the I/O thread */
    RL_TR_NKINDS
} RlTraceKind;

/* The run starts now (ts 0).  0 or -ENOMEM / -errno. */
int  rl_trace_create(RlRingTrace **out);
void rl_trace_free(RlRingTrace *t);            /* NULL: nothing */

/* CLOCK_MONOTONIC in seconds: the clock of rl_trace_add's times. */
double rl_trace_now(void);

/* Names the calling thread in the trace (the default: "worker", or "io"
 * when its first record is an I/O kind).  0 or -ENOMEM. */
int  rl_trace_name_thread(RlRingTrace *t, const char *name);

/* One complete task of the calling thread, from t0 to t1 (rl_trace_now).
 * frame: the frame it worked on, or -1; arg: Encode's redo flag, the
 * channel loop's item (encode-side), the byte count (I/O), the Dispatch
 * result (dispatch with frame -1), else 0.  A record that finds no memory
 * is dropped (counted; the write says so in the trace's metadata). */
void rl_trace_add(RlRingTrace *t, RlTraceKind kind, double t0, double t1, int64_t frame,
                  int64_t arg);

/* The JSON to path ("-": stdout).  0 or -errno. */
int  rl_trace_write(const RlRingTrace *t, const char *path);

/* The stage name of a kind ("dispatch", "encode-side", "gain0", "read"...). */
const char *rl_trace_kind_name(RlTraceKind kind);

#endif
