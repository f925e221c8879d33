/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the bodies of the ring's serial tasks: Dispatch (input -> frame
 * records), Encode (commit + bytes out) and Finish (flush + LAME tag).  They
 * run without the scheduler lock; see the contract at the top of ring.c. */
#include <errno.h>
#include <string.h>

#include "ring_impl.h"

/* Dispatch: queues the input of one lame_encode_buffer_int call (frame_size
 * frames, fewer only at a block's end, like LAME's frontend reads).
 * 1: queued; 0: end of input, or *no_input = 1 when the input port has no
 * block ready yet; <0: error. */
static int feed_next_piece(Ring *r, int *no_input)
{
    RlEncoder *e = r->e;
    int n, rc;

    *no_input = 0;
    for (;;) {
        if (!r->blk) {
            rc = r->in.next(r->in.ctx, &r->blk);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                r->blk = NULL;
                *no_input = 1;
                return 0;
            }
            r->blk_pos = 0;
        }
        if (r->blk_pos < r->blk->nframes) {
            n = r->blk->nframes - r->blk_pos;
            if (n > r->frame_size)
                n = r->frame_size;
            if (r->p.read_progress)     /* lame: before each read's encode call */
                r->p.read_progress(r->p.progress_arg, r->cut);
            rc = rl_dispatch_feed_block(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e),
                                       r->blk, r->blk_pos, n);
            if (rc < 0)
                return rc;
            r->blk_pos += n;
            if (r->blk_pos == r->blk->nframes && r->blk->eof) {
                /* the last piece: hand the eof block back at once */
                r->in.release(r->in.ctx, r->blk);
                r->blk = NULL;
                r->in_eof = 1;
            }
            return 1;
        }
        /* block used up: hand it back; the eof block ends the input */
        {
            int eof = r->blk->eof;
            r->in.release(r->in.ctx, r->blk);
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
        if (!r->read_end_reported) {    /* lame: the call for the empty last read */
            r->read_end_reported = 1;
            if (r->p.read_progress)
                r->p.read_progress(r->p.progress_arg, r->cut);
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
        rc = r->out.write(r->out.ctx, r->out_bytes, (size_t) n);
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
                       r->fork ? &fj : NULL);
    if (rc < 0)
        return rc;
    r->redo_count += rc;        /* 1: the search was redone */
    rc = ring_write_ready_bytes(r);
    if (rc < 0)
        return rc;
    if (r->p.progress)
        r->p.progress(r->p.progress_arg, t + 1, r->total_estimate);
    return 0;
}

/* Finish: after the flush, the last Encode and the last gain task: stuffing,
 * the final bytes, an ID3v1 tag, and the LAME tag frame over the placeholder
 * (when the output port wants it, after an ID3v2 tag), handed to the port's
 * finish. */
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
    if (r->p.id3v1_len > 0) {
        rc = r->out.write(r->out.ctx, r->p.id3v1, r->p.id3v1_len);
        if (rc < 0)
            return rc;
    }
    if (r->out.wants_tag) {
        len = rl_encoder_tag_frame(rl_encoder_const(e), rl_encoder_encode_stage(e), rl_encoder_dispatch(e),
                                   rl_encoder_gain(e), r->out_bytes, RL_ENCODER_BYTES_MAX);
        if (len < 0)
            return len;
    }
    if (r->p.result) {
        r->p.result->frames = r->encoded;
        r->p.result->tag_len = len;
        r->p.result->radio_gain = rl_encoder_radio_gain(rl_encoder_const(e), rl_encoder_gain(e),
                                                        &r->p.result->replay_gain);
    }
    return r->out.finish(r->out.ctx, r->out_bytes, (size_t)len, (uint64_t) r->p.id3v2_len);
}
