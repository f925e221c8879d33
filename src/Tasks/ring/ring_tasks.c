/* ringlame: the bodies of the ring's serial tasks: Dispatch (input -> frame
 * records), Encode (commit + bytes out) and Finish (flush + LAME tag).  They
 * run without the scheduler lock; see the contract at the top of ring.c.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <string.h>

#include "ring_impl.h"
#include "pcm_reader.h"
#include "mp3_writer.h"

/* Dispatch: queues the input of one lame_encode_buffer_int call (frame_size
 * frames, fewer only at the end, like LAME's frontend reads).  1: queued;
 * 0: end of input, or *no_input = 1 when the I/O scheduler has no block
 * ready yet; <0: error. */
static int feed_next_piece(Ring *r, int *no_input)
{
    RlEncoder *e = r->e;
    int n, rc;

    *no_input = 0;
    if (!r->io) {
        n = rl_pcm_read(r->in, r->pcm, r->frame_size);
        if (n <= 0)
            return n;                  /* 0: EOF */
        rc = rl_dispatch_feed(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e), r->pcm, n);
        return rc < 0 ? rc : 1;
    }
    for (;;) {
        if (!r->blk) {
            rc = rl_io_in_next(r->io, &r->blk);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                *no_input = 1;
                return 0;
            }
            r->blk_pos = 0;
        }
        if (r->blk_pos < r->blk->nframes) {
            n = r->blk->nframes - r->blk_pos;
            if (n > r->frame_size)
                n = r->frame_size;
            rc = rl_dispatch_feed_block(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e),
                                       r->blk, r->blk_pos, n);
            if (rc < 0)
                return rc;
            r->blk_pos += n;
            return 1;
        }
        /* block used up: hand it back; the eof block ends the input */
        {
            int eof = r->blk->eof;
            rl_io_in_release(r->io, r->blk);
            r->blk = NULL;
            if (eof)
                return 0;
        }
    }
}

int ring_run_dispatch(Ring *r, RlFrame *f)
{
    RlEncoder *e = r->e;
    int rc, no_input;

    for (;;) {
        rc = rl_dispatch_next(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e), f);
        if (rc > 0)
            return RING_D_CUT;
        if (rc == -EAGAIN)
            return RING_D_GAIN_FULL;   /* nothing consumed: call again later */
        if (rc < 0)
            return rc;
        if (!r->in_eof) {
            rc = feed_next_piece(r, &no_input);
            if (rc < 0)
                return rc;
            if (no_input)
                return RING_D_NO_INPUT;
            if (rc == 0)
                r->in_eof = 1;
            continue;
        }
        /* lame_encode_flush: zero bunches until the last frame is out */
        rc = rl_dispatch_flush_step(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e));
        if (rc < 0)
            return rc;
        if (rc == 0)
            return RING_D_DONE;
    }
}

/* Hands the bytes the bitstream has finished to the output. */
int ring_write_ready_bytes(Ring *r)
{
    for (;;) {
        long n = rl_encoder_take_bytes(rl_encoder_encode_stage(r->e), r->out_bytes, RL_ENCODER_BYTES_MAX);
        int rc;
        if (n <= 0)
            return (int) n;
        rc = r->io ? rl_io_out_write(r->io, r->out_bytes, (size_t) n)
                   : rl_mp3_write(r->out, r->out_bytes, (size_t) n);
        if (rc < 0)
            return rc;
    }
}

/* Encode: rl_encode validates the speculative search against the true
 * reservoir and redoes it serially when needed; then bitrate choice,
 * reservoir and the frame's bytes. */
int ring_run_encode(Ring *r, RlFrame *f, int64_t t)
{
    RlForkJoin const fj = { ring_fork_join, r };
    int rc = rl_encode(rl_encoder_const(r->e), rl_encoder_encode_stage(r->e), f,
                       r->nthreads > 1 ? &fj : NULL);
    if (rc < 0)
        return rc;
    r->redo_count += rc;        /* 1: the search was redone */
    rc = ring_write_ready_bytes(r);
    if (rc < 0)
        return rc;
    if (r->p->progress)
        r->p->progress(r->p->progress_arg, t + 1, r->total_estimate);
    return 0;
}

/* Finish: after the flush, the last Encode and the last gain task: stuffing,
 * the final bytes and the LAME tag frame over the placeholder (seekable
 * output only); with the I/O scheduler, waits for every write. */
int ring_run_finish(Ring *r)
{
    RlEncoder *e = r->e;
    int len = 0, rc;

    rc = rl_encoder_flush_bits(rl_encoder_const(e), rl_encoder_encode_stage(e));
    if (rc < 0)
        return rc;
    rc = ring_write_ready_bytes(r);
    if (rc < 0)
        return rc;
    if (rl_mp3_is_seekable(r->out)) {
        len = rl_encoder_tag_frame(rl_encoder_const(e), rl_encoder_encode_stage(e), rl_encoder_dispatch(e),
                                   rl_encoder_gain(e), r->out_bytes, RL_ENCODER_BYTES_MAX);
        if (len < 0)
            return len;
    }
    if (r->io)   /* frees io whatever it returns (rl_run_ring knows: finish_taken) */
        return rl_io_finish(r->io, r->out_bytes, (size_t)len);
    if (len > 0)
        return rl_mp3_write_at(r->out, 0, r->out_bytes, (size_t)len);
    return 0;
}
