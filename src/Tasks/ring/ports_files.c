/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the ring's ports for a PCM reader and an MP3 writer, in two
 * kinds: through the I/O scheduler (io_sched.h: its thread reads blocks
 * ahead and writes the queued bytes), or direct (Dispatch's next() reads one
 * frame size with rl_pcm_read, Encode's write() is rl_mp3_write); and
 * rl_run_ring, the file convenience on top of them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ring_impl.h"
#include "trace.h"
#include "io_sched.h"
#include "pcm_reader.h"
#include "mp3_writer.h"


typedef struct FilePorts {
    RlPcmReader *reader;
    RlMp3Writer *writer;
    RlIoSched   *io;          /* NULL: direct */
    int          finished;    /* the output port's finish was called (it frees io) */
    /* direct input: one block of up to frame_size frames, reused */
    int32_t     *pcm;
    RlInBlock    blk;
    int          frame_size;
    RlRingInput  in;
    RlRingOutput out;
} FilePorts;

/* ---- through the I/O scheduler ---- */

static int io_next(void *ctx, const RlInBlock **blk)
{
    FilePorts *fp = ctx;
    return rl_io_in_next(fp->io, blk);
}

static void io_release(void *ctx, const RlInBlock *blk)
{
    FilePorts *fp = ctx;
    rl_io_in_release(fp->io, blk);
}

static int io_write(void *ctx, const uint8_t *p, size_t n)
{
    FilePorts *fp = ctx;
    return rl_io_out_write(fp->io, p, n);
}

static int io_finish(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset)
{
    FilePorts *fp = ctx;
    fp->finished = 1;       /* rl_io_finish frees io whatever it returns */
    return rl_io_finish(fp->io, tag, tag_len, offset);
}

static void io_cancel(void *ctx)
{
    FilePorts *fp = ctx;
    rl_io_cancel(fp->io);
}

/* the I/O thread's callback (a block arrived, space was freed, an error):
 * called without any rl_io lock, so taking the ring's lock cannot deadlock */
static void io_notify(void *arg)
{
    rl_ring_input_ready(arg);
}

/* ---- direct ---- */

int rl_ring_direct_block_init(RlInBlock *blk, int32_t **pcm, int frame_size, int channels)
{
    memset(blk, 0, sizeof *blk);
    *pcm = malloc((size_t)frame_size * 2 * sizeof(int32_t));
    if (!*pcm)
        return -ENOMEM;
    blk->data = *pcm;
    blk->fmt = RL_SF_I32;
    blk->channels = channels > 1 ? 2 : 1;
    blk->frame_bytes = blk->channels * (int) sizeof(int32_t);
    return 0;
}

int rl_ring_direct_read(struct RlPcmReader *rd, int32_t *pcm, int frame_size, RlInBlock *blk)
{
    int n = rl_pcm_read(rd, pcm, frame_size);

    if (n < 0)
        return n;
    blk->first_frame += blk->nframes;
    blk->nframes = n;
    blk->eof = n == 0;
    return n;
}

/* LAME's frontend reads: frame_size frames per rl_pcm_read, fewer only at
 * the end; the read that returns 0 is the eof block. */
static int direct_next(void *ctx, const RlInBlock **blk)
{
    FilePorts *fp = ctx;
    int n = rl_ring_direct_read(fp->reader, fp->pcm, fp->frame_size, &fp->blk);

    if (n < 0)
        return n;
    *blk = &fp->blk;
    return 1;
}

static void direct_release(void *ctx, const RlInBlock *blk)
{
    (void) ctx;
    (void) blk;
}

static int direct_write(void *ctx, const uint8_t *p, size_t n)
{
    FilePorts *fp = ctx;
    return rl_mp3_write(fp->writer, p, n);
}

static int direct_finish(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset)
{
    FilePorts *fp = ctx;
    fp->finished = 1;
    if (tag_len > 0)
        return rl_mp3_write_at(fp->writer, offset, tag, tag_len);
    return 0;
}

/* The I/O scheduler's trace hook: into the ring's trace (trace.h: the I/O
 * thread's own buffer, no lock). */
static void io_trace(void *arg, int kind, double t0, double t1, long amount)
{
    static const RlTraceKind kinds[] = { RL_TR_READ, RL_TR_WRITE, RL_TR_DECODE };
    rl_trace_add(arg, kinds[kind >= 0 && kind <= 2 ? kind : 0], t0, t1, -1, amount);
}

/* Sets up the ports for ring r (input_ready is the I/O thread's notify). */
/* The I/O scheduler's backend for a ring's choice (not RL_RING_IO_DIRECT). */
static RlIoBackend io_backend_of(RlRingIo io)
{
    switch (io) {
    case RL_RING_IO_URING:  return RL_IO_URING;
    case RL_RING_IO_THREAD: return RL_IO_THREAD;
    default:                return RL_IO_AUTO;
    }
}

static int ports_open(FilePorts *fp, RlPcmReader *in, RlMp3Writer *out, Ring *r, RlRingIo io)
{
    memset(fp, 0, sizeof *fp);
    fp->reader = in;
    fp->writer = out;
    fp->frame_size = rl_ring_frame_size(r);
    fp->in.ctx = fp;
    fp->in.frames = rl_pcm_frames(in);
    fp->out.ctx = fp;
    fp->out.wants_tag = rl_mp3_is_seekable(out);
    if (io != RL_RING_IO_DIRECT) {
        RlIoParams ip;
        char msg[256];
        int rc, side = 0;

        memset(&ip, 0, sizeof ip);
        ip.frame_size = fp->frame_size;
        ip.backend = io_backend_of(io);
        ip.notify = io_notify;
        ip.notify_arg = r;
        if (r->p.trace) {
            ip.trace = io_trace;
            ip.trace_arg = r->p.trace;
        }
        ip.failed_side = &side;
        msg[0] = '\0';
        rc = rl_io_start(&fp->io, in, out, &ip, msg, sizeof msg);
        if (rc < 0) {
            fp->io = NULL;
            if (r->p.result && side)    /* which file failed, as the ring's own errors */
                r->p.result->failed_end = side == RL_IO_SIDE_INPUT ? RL_RING_END_INPUT
                                                                   : RL_RING_END_OUTPUT;
            return rc;
        }
        fp->in.next = io_next;
        fp->in.release = io_release;
        fp->out.write = io_write;
        fp->out.finish = io_finish;
        fp->out.cancel = io_cancel;
        return 0;
    }
    {
        int const rc = rl_ring_direct_block_init(&fp->blk, &fp->pcm, fp->frame_size, rl_pcm_channels(in));
        if (rc < 0)
            return rc;
    }
    fp->in.next = direct_next;
    fp->in.release = direct_release;
    fp->out.write = direct_write;
    fp->out.finish = direct_finish;
    return 0;
}

/* After the ring is destroyed: stops the I/O scheduler unless the port's
 * finish did. */
static void ports_close(FilePorts *fp)
{
    if (fp->io && !fp->finished)
        rl_io_abort(fp->io);
    fp->io = NULL;
    free(fp->pcm);
    fp->pcm = NULL;
}

int rl_run_ring(const RlOptions *opt, struct RlPcmReader *in, struct RlMp3Writer *out,
                const RlRingParams *p)
{
    RlRingParams defaults;
    RlExecutor *own = NULL, *ex;
    FilePorts fp;
    Ring *r = NULL;
    int rc;

    if (!opt || !in || !out)
        return -EINVAL;
    if (!p) {
        memset(&defaults, 0, sizeof defaults);
        p = &defaults;
    }
    ex = p->exec;
    if (!ex) {
        int const threads = rl_threads_for_ring(p->threads);
        /* the calling thread is one of them: it helps in rl_ring_wait */
        rc = rl_executor_create(&own, threads - 1);
        if (rc < 0)
            return rc;
        ex = own;
    }
    memset(&fp, 0, sizeof fp);
    rc = rl_ring_alloc(&r, opt, ex, p);
    if (rc == 0)
        rc = ports_open(&fp, in, out, r, p->io_backend);
    if (rc == 0)
        rc = rl_ring_start(r, &fp.in, &fp.out);
    if (rc == 0)
        rc = rl_ring_wait(r);
    if (r)
        rl_ring_halt(r);            /* no task runs after this ... */
    ports_close(&fp);            /* ... and the I/O thread's notify no more */
    rl_ring_destroy(r);
    rl_executor_destroy(own);
    return rc;
}
