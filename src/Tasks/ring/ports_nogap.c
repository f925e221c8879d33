/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the ring's ports for a gapless set (lame --nogap): one input
 * stream made of the set's readers in turn, with RL_RING_IN_FILE_END
 * between two files, and one writer per file, switched by the ring's
 * Encode at each boundary (next_file).  Reads and writes are direct (on the
 * Dispatch and Encode tasks), frame_size frames per read like lame's
 * front end, so every thread count reads the same pieces. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ring_impl.h"
#include "pcm_reader.h"
#include "mp3_writer.h"


typedef struct NogapPorts {
    RlPcmReader **readers;
    RlMp3Writer **writers;
    int           n;
    int           in_file;     /* the reader being read (Dispatch) */
    int           out_file;    /* the writer being written (Encode, Finish) */
    int32_t      *pcm;
    RlInBlock     blk;
    int           frame_size;
} NogapPorts;

static int nogap_next(void *ctx, const RlInBlock **blk)
{
    NogapPorts *np = ctx;
    int n = rl_ring_direct_read(np->readers[np->in_file], np->pcm, np->frame_size, &np->blk);

    if (n < 0)
        return n;
    if (n == 0 && np->in_file + 1 < np->n) {
        np->blk.eof = 0;
        np->in_file++;            /* lame_encode_flush_nogap, then the next file */
        return RL_RING_IN_FILE_END;
    }
    *blk = &np->blk;
    return 1;
}

static void nogap_release(void *ctx, const RlInBlock *blk)
{
    (void) ctx;
    (void) blk;
}

static int nogap_write(void *ctx, const uint8_t *p, size_t n)
{
    NogapPorts *np = ctx;
    return rl_mp3_write(np->writers[np->out_file], p, n);
}

static int nogap_finish(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset)
{
    NogapPorts *np = ctx;
    if (tag_len > 0)
        return rl_mp3_write_at(np->writers[np->out_file], offset, tag, tag_len);
    return 0;
}

static int nogap_next_file(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset)
{
    NogapPorts *np = ctx;
    int rc;

    if (np->out_file + 1 >= np->n)
        return -EPROTO;
    rc = nogap_finish(ctx, tag, tag_len, offset);
    if (rc < 0)
        return rc;
    np->out_file++;
    return 0;
}

int rl_run_ring_nogap(const RlOptions *opt, struct RlPcmReader **in, struct RlMp3Writer **out,
                      int n, const RlRingParams *p)
{
    RlRingParams params;
    RlExecutor *own = NULL, *ex;
    NogapPorts np;
    RlRingInput rin;
    RlRingOutput rout;
    Ring *r = NULL;
    int rc, threads;

    if (!opt || !in || !out || n < 1 || !p)
        return -EINVAL;
    params = *p;
    params.nogap_files = n;
    ex = params.exec;
    if (!ex) {
        threads = rl_threads_for_ring(params.threads);
        rc = rl_executor_create(&own, threads - 1);
        if (rc < 0)
            return rc;
        ex = own;
    }
    memset(&np, 0, sizeof np);
    np.readers = in;
    np.writers = out;
    np.n = n;
    rc = rl_ring_alloc(&r, opt, ex, &params);
    if (rc == 0) {
        np.frame_size = rl_ring_frame_size(r);
        rc = rl_ring_direct_block_init(&np.blk, &np.pcm, np.frame_size, rl_pcm_channels(in[0]));
    }
    if (rc == 0) {
        memset(&rin, 0, sizeof rin);
        rin.next = nogap_next;
        rin.release = nogap_release;
        rin.ctx = &np;
        rin.frames = 0;
        for (int i = 0; i < n && rin.frames >= 0; i++)
            rin.frames = rl_pcm_frames(in[i]) < 0 ? -1 : rin.frames + rl_pcm_frames(in[i]);
        memset(&rout, 0, sizeof rout);
        rout.write = nogap_write;
        rout.finish = nogap_finish;
        rout.next_file = nogap_next_file;
        rout.ctx = &np;
        rout.wants_tag = 1;
        for (int i = 0; i < n; i++)
            rout.wants_tag &= rl_mp3_is_seekable(out[i]);
        rc = rl_ring_start(r, &rin, &rout);
    }
    if (rc == 0)
        rc = rl_ring_wait(r);
    if (rc == 0 && np.out_file != n - 1)
        rc = -EPROTO;           /* every file must have been reached */
    if (r)
        rl_ring_halt(r);
    rl_ring_destroy(r);
    free(np.pcm);
    rl_executor_destroy(own);
    return rc;
}
