/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the run's timeline (see trace.h for the contract).
 *
 * Each recording thread owns one TraceBuf per trace: a growable array of
 * records that only it appends to, so recording takes no lock.  A thread
 * finds its buffer through a thread-local cache (the trace's id, which is
 * never reused, and the buffer); on a miss it takes the trace's mutex once,
 * looks for its buffer (a thread that alternates between traces) or
 * registers a new one.  The writer reads the buffers after every recording
 * thread was joined or detached (trace.h). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace.h"

typedef struct TraceRec {
    double  t0, t1;
    int64_t frame, arg;
    int     kind;
} TraceRec;

typedef struct TraceBuf {
    struct TraceBuf *next;       /* the trace's list (under its mutex) */
    pthread_t thr;               /* the owner */
    int       tid;               /* 1, 2, ... in registration order */
    char      name[32];
    /* the owner only, until the write */
    TraceRec *rec;
    size_t    n, cap;
    int64_t   dropped;
} TraceBuf;

struct RlRingTrace {
    pthread_mutex_t mu;          /* guards bufs, nbufs */
    uint64_t  id;                /* fixed */
    double    t0;                /* fixed: the start of the run */
    TraceBuf *bufs;
    int       nbufs;
};

static atomic_uint_fast64_t trace_next_id = 1;

static _Thread_local struct {
    uint64_t  id;
    TraceBuf *buf;
} tl_cache;

double rl_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int rl_trace_create(RlRingTrace **out)
{
    RlRingTrace *t;
    int rc;

    if (!out)
        return -EINVAL;
    *out = NULL;
    t = calloc(1, sizeof *t);
    if (!t)
        return -ENOMEM;
    rc = pthread_mutex_init(&t->mu, NULL);
    if (rc != 0) {
        free(t);
        return -rc;
    }
    t->id = atomic_fetch_add(&trace_next_id, 1);
    t->t0 = rl_trace_now();
    *out = t;
    return 0;
}

void rl_trace_free(RlRingTrace *t)
{
    TraceBuf *b, *next;

    if (!t)
        return;
    for (b = t->bufs; b; b = next) {
        next = b->next;
        free(b->rec);
        free(b);
    }
    pthread_mutex_destroy(&t->mu);
    free(t);
}

/* The calling thread's buffer in t (NULL: no memory). */
static TraceBuf *my_buf(RlRingTrace *t, int io)
{
    pthread_t const self = pthread_self();
    TraceBuf *b;

    if (tl_cache.id == t->id)
        return tl_cache.buf;
    pthread_mutex_lock(&t->mu);
    for (b = t->bufs; b; b = b->next)
        if (pthread_equal(b->thr, self))
            break;
    if (!b) {
        b = calloc(1, sizeof *b);
        if (b) {
            b->thr = self;
            b->tid = ++t->nbufs;
            snprintf(b->name, sizeof b->name, io ? "io" : "worker %d", b->tid);
            b->next = t->bufs;
            t->bufs = b;
        }
    }
    pthread_mutex_unlock(&t->mu);
    if (b) {
        tl_cache.id = t->id;
        tl_cache.buf = b;
    }
    return b;
}

int rl_trace_name_thread(RlRingTrace *t, const char *name)
{
    TraceBuf *b;

    if (!t)
        return 0;
    b = my_buf(t, 0);
    if (!b)
        return -ENOMEM;
    snprintf(b->name, sizeof b->name, "%s", name);
    return 0;
}

void rl_trace_add(RlRingTrace *t, RlTraceKind kind, double t0, double t1, int64_t frame,
                  int64_t arg)
{
    TraceBuf *b = my_buf(t, kind >= RL_TR_READ);
    TraceRec *r;

    if (!b)
        return;
    if (b->n == b->cap) {
        size_t const cap = b->cap ? 2 * b->cap : 4096;
        TraceRec *p = realloc(b->rec, cap * sizeof *p);
        if (!p) {
            b->dropped++;
            return;
        }
        b->rec = p;
        b->cap = cap;
    }
    r = &b->rec[b->n++];
    r->t0 = t0;
    r->t1 = t1;
    r->frame = frame;
    r->arg = arg;
    r->kind = (int) kind;
}

const char *rl_trace_kind_name(RlTraceKind kind)
{
    static const char *const names[RL_TR_NKINDS] = {
        "dispatch", "prepare", "resolve", "search", "encode", "encode-side",
        "gain0", "gain1", "finish", "redecode", "read", "write", "decode"
    };
    return (unsigned) kind < RL_TR_NKINDS ? names[kind] : "?";
}

/* Dispatch's results other than a cut frame (ring_impl.h's RING_D_*). */
static const char *dispatch_result(int64_t arg)
{
    switch (arg) {
    case 1:  return "done";
    case 2:  return "no-input";
    case 3:  return "gain-full";
    case 0:  return "cut";
    default: return "error";
    }
}

static void write_args(FILE *f, const TraceRec *r)
{
    switch (r->kind) {
    case RL_TR_DISPATCH:
        if (r->frame >= 0)
            fprintf(f, "{\"frame\":%lld}", (long long) r->frame);
        else
            fprintf(f, "{\"frame\":-1,\"result\":\"%s\"}", dispatch_result(r->arg));
        break;
    case RL_TR_ENCODE:
        fprintf(f, "{\"frame\":%lld,\"redo\":%lld}", (long long) r->frame, (long long) r->arg);
        break;
    case RL_TR_ENCODE_SIDE:
        fprintf(f, "{\"frame\":%lld,\"item\":%lld}", (long long) r->frame, (long long) r->arg);
        break;
    case RL_TR_REDECODE:
        fprintf(f, "{\"frame\":%lld,\"gain_full\":%lld}", (long long) r->frame, (long long) r->arg);
        break;
    case RL_TR_READ:
    case RL_TR_WRITE:
        fprintf(f, "{\"bytes\":%lld}", (long long) r->arg);
        break;
    case RL_TR_DECODE:
        fprintf(f, "{\"frames\":%lld}", (long long) r->arg);
        break;
    case RL_TR_GAIN0:
    case RL_TR_GAIN1:
    case RL_TR_FINISH:
        fprintf(f, "{}");
        break;
    default:
        fprintf(f, "{\"frame\":%lld}", (long long) r->frame);
        break;
    }
}

/* A thread name as a JSON string body (names are ours: plain ASCII, but
 * quotes and backslashes are escaped anyway). */
static void write_name(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char) *s >= 0x20)
            fputc(*s, f);
    }
}

/* Nanoseconds from the start of the run (>= 0). */
static long long ns_since(const RlRingTrace *t, double when)
{
    double const ns = (when - t->t0) * 1e9;
    return ns > 0 ? (long long) (ns + 0.5) : 0;
}

int rl_trace_write(const RlRingTrace *t, const char *path)
{
    FILE *f;
    const TraceBuf *b;
    int64_t dropped = 0;
    int rc = 0;

    if (!t || !path)
        return -EINVAL;
    f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f)
        return -errno;
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
               "\"args\":{\"name\":\"ringlame\"}}");
    for (b = t->bufs; b; b = b->next) {
        size_t i;

        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                   "\"args\":{\"name\":\"", b->tid);
        write_name(f, b->name);
        fprintf(f, "\"}}");
        fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                   "\"args\":{\"sort_index\":%d}}", b->tid, b->tid);
        for (i = 0; i < b->n; i++) {
            const TraceRec *r = &b->rec[i];
            /* whole nanoseconds, printed exactly as microseconds: the end
             * ts + dur of one record never passes the next one's ts */
            long long const ts = ns_since(t, r->t0), end = ns_since(t, r->t1);
            long long const dur = end > ts ? end - ts : 0;
            fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                       "\"ts\":%lld.%03lld,\"dur\":%lld.%03lld,\"args\":",
                    rl_trace_kind_name((RlTraceKind) r->kind), b->tid, ts / 1000, ts % 1000,
                    dur / 1000, dur % 1000);
            write_args(f, r);
            fputc('}', f);
        }
        dropped += b->dropped;
    }
    fprintf(f, "\n],\"metadata\":{\"dropped_events\":%lld}}\n", (long long) dropped);
    if (fflush(f) != 0 || ferror(f))
        rc = errno ? -errno : -EIO;
    if (f != stdout && fclose(f) != 0 && rc == 0)
        rc = -errno;
    return rc;
}
