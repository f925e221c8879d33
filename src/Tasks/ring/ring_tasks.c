/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the bodies of the ring's serial tasks: Dispatch (input -> frame
 * records), Encode (commit + bytes out) and Finish (flush + LAME tag).  They
 * run without the scheduler lock; see the contract at the top of ring.c. */
#include <errno.h>
#include <string.h>

#include "ring_impl.h"

/* Dispatch: where lame's front end calls encoder_progress (a gapless
 * set's frame count restarts at each file, as lame_init_bitstream's). */
static void report_read(Ring *r)
{
    if (r->p.file_read_progress)
        r->p.file_read_progress(r->p.progress_arg, r->in_file, r->cut - r->in_file_cut);
    else if (r->p.read_progress)
        r->p.read_progress(r->p.progress_arg, r->cut);
}

/* Dispatch: queues the input of one lame_encode_buffer_int call (frame_size
 * frames, fewer only at a block's end, like LAME's frontend reads; with
 * next_read, at most what is left of lame's read).
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
            if (rc < 0) {
                r->in_failed = 1;
                return rc;
            }
            if (rc == RL_RING_IN_FILE_END) {
                /* every frame of the file was cut (the queued input is used
                 * up): the frames cut from now on are the next file's */
                r->blk = NULL;
                if (r->p.nogap_files <= 0 || r->in_file + 1 >= r->p.nogap_files)
                    return -EPROTO;
                report_read(r);         /* lame: the file's last read, which got nothing */
                /* (decoding on the fly, Encode marks it where it decodes
                 * the file's end) */
                rc = r->rd ? 0 : rl_encoder_gain_mark(rl_encoder_gain(e));
                if (rc < 0)
                    return rc;
                r->file_empty[r->in_file] = !r->in_file_fed;
                r->in_file_fed = 0;
                r->read_left = 0;       /* the next file's reads are its own */
                r->skip_left = r->p.skip_frames > 0 ? r->p.skip_frames : 0;
                r->in_file++;
                r->in_file_cut = r->cut;
                continue;
            }
            if (rc == 0) {
                r->blk = NULL;
                *no_input = 1;
                return 0;
            }
            r->blk_pos = 0;
        }
        if (r->blk_pos < r->blk->nframes && r->skip_left > 0) {
            /* dropped before any encode call: lame's reads that its buffer
             * drops whole make none */
            int const k = r->blk->nframes - r->blk_pos < r->skip_left ? r->blk->nframes - r->blk_pos
                                                                       : r->skip_left;
            r->blk_pos += k;
            r->skip_left -= k;
            continue;
        }
        if (r->blk_pos < r->blk->nframes) {
            if (r->read_left <= 0) {    /* lame: before each read's encode call */
                r->read_left = r->p.file_next_read
                               ? r->p.file_next_read(r->p.next_read_arg, r->in_file)
                               : r->p.next_read ? r->p.next_read(r->p.next_read_arg) : r->frame_size;
                if (r->read_left <= 0)
                    r->read_left = r->frame_size;
                report_read(r);
            }
            n = r->blk->nframes - r->blk_pos;
            if (n > r->frame_size)
                n = r->frame_size;
            if (n > r->read_left)
                n = r->read_left;
            /* a read of frame_size ends with the block's piece too */
            r->read_left = r->p.next_read || r->p.file_next_read ? r->read_left - n : 0;
            rc = rl_dispatch_feed_block(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e),
                                       r->blk, r->blk_pos, n);
            if (rc < 0)
                return rc;
            r->in_file_fed = 1;
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

int rl_ring_run_dispatch(Ring *r, RlFrame *f)
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
            report_read(r);
        }
        /* lame_encode_flush: zero bunches until the last frame is out */
        rc = rl_dispatch_flush_step(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e));
        if (rc < 0)
            return rc;
        if (rc == 0)
            return RING_D_DONE;
    }
}

/* Hands the bytes the bitstream has finished to the output, *kept their
 * count; keep (when not NULL, RL_ENCODER_BYTES_MAX bytes) also gets a copy
 * of them: LAME's copy_buffer chunk that decode on the fly decodes. */
static int write_bytes_keep(Ring *r, uint8_t *keep, size_t *kept)
{
    *kept = 0;
    for (;;) {
        long n = rl_encoder_take_bytes(rl_encoder_encode_stage(r->e), r->out_bytes, RL_ENCODER_BYTES_MAX);
        int rc;
        if (n <= 0)
            return (int) n;
        if (keep) {
            if ((size_t) n > RL_ENCODER_BYTES_MAX - *kept)
                return -EOVERFLOW;  /* cannot happen: one frame's bytes at a time */
            memcpy(keep + *kept, r->out_bytes, (size_t) n);
        }
        *kept += (size_t) n;
        rc = rl_ring_out_rc(r, r->out.write(r->out.ctx, r->out_bytes, (size_t) n));
        if (rc < 0)
            return rc;
    }
}

int rl_ring_write_ready_bytes(Ring *r)
{
    size_t kept;
    return write_bytes_keep(r, NULL, &kept);
}

/* Redecode: frame t's bytes (kept by its Encode) through decode on the
 * fly; RING_R_GAIN_FULL when the gain feed has no room (again later). */
int rl_ring_run_redecode(Ring *r, int64_t t)
{
    size_t const slot = (size_t) (t % r->nslots);
    int const rc = rl_encoder_redecode_chunk(r->rd, rl_encoder_gain(r->e),
                                             r->slot_bytes + slot * RL_ENCODER_BYTES_MAX,
                                             r->slot_nbytes[slot]);
    return rc == -EAGAIN ? RING_R_GAIN_FULL : rc;
}

/* Finish: the gain work pushed so far, on this thread (the gain tasks are
 * not taken once Finish was). */
int rl_ring_run_gain_here(Ring *r)
{
    RlGainFeed *rg = rl_encoder_gain(r->e);
    int rc;
    for (int ch = 0; ch < r->gain_channels; ch++)
        while (rl_encoder_gain_pending(rg, ch) > 0)
            if ((rc = rl_encoder_gain_run(rg, ch)) < 0)
                return rc;
    return 0;
}

/* Finish: the flush's chunk through decode on the fly, on this thread,
 * running the gain work itself when the feed is full. */
int rl_ring_redecode_here(Ring *r, const uint8_t *bytes, size_t n)
{
    for (;;) {
        int rc = rl_encoder_redecode_chunk(r->rd, rl_encoder_gain(r->e), bytes, n);
        if (rc != -EAGAIN)
            return rc;
        if ((rc = rl_ring_run_gain_here(r)) < 0)
            return rc;
    }
}

/* Encode at a gapless boundary: bytes through decode on the fly into the
 * gain feed, which the scheduler left idle for it (room for a file's end:
 * a full feed here is an error); Finish runs the gain work itself. */
static int redecode_now(Ring *r, const uint8_t *bytes, size_t n, int in_finish)
{
    int rc;
    if (in_finish)
        return rl_ring_redecode_here(r, bytes, n);
    rc = rl_encoder_redecode_chunk(r->rd, rl_encoder_gain(r->e), bytes, n);
    return rc == -EAGAIN ? -ENOBUFS : rc;
}

/* The bitstream flush at a file's end; notes when LAME would print its
 * "strange error flushing buffer" (reported with the file's end). */
static int flush_bits(Ring *r)
{
    int const rc = rl_encoder_flush_bits(rl_encoder_const(r->e), rl_encoder_encode_stage(r->e));
    if (rc == 1)
        r->flush_empty = 1;
    return rc < 0 ? rc : 0;
}

/* The ID3v2 tag of output file i (the same for every file unless a gapless
 * set gives each its own). */
static const uint8_t *file_id3v2(const Ring *r, int i, size_t *len)
{
    if (r->p.nogap_id3v2 && r->p.nogap_id3v2_len && i < r->p.nogap_files) {
        *len = r->p.nogap_id3v2_len[i];
        return r->p.nogap_id3v2[i];
    }
    *len = r->p.id3v2_len;
    return r->p.id3v2;
}

/* Decoding on the fly, the end of gapless file out_file as
 * lame_encode_flush_nogap ends it: the bitstream flush and its bytes
 * decoded (copy_buffer), the ReplayGain title closed there (save_gain_values).
 * Its copy is of lame's whole bit buffer, decoded as one chunk: a flush
 * still held from before (rl_ring_held_out), and where the file had no
 * sample its head (lame copies a head out undecoded only when samples are
 * encoded after it: libmp3lame's own ID3v2 tag, the tag placeholder) ahead
 * of the flush's bytes.  Where rl_ring_end_file's caller has no room for
 * them, lame's copy fails: they all wait undecoded in `held`.  Frame t (the
 * next file's first, or `encoded` in Finish) has not used its slot's
 * buffer yet. */
static int boundary_flush(Ring *r, int64_t t, int in_finish)
{
    uint8_t *keep = r->slot_bytes + (size_t) (t % r->nslots) * RL_ENCODER_BYTES_MAX;
    int const empty = r->file_empty[r->out_file];
    size_t v2_len = 0, kept;
    const uint8_t *v2 = empty && r->p.head_by_caller ? file_id3v2(r, r->out_file, &v2_len) : NULL;
    int rc = 0;

    if (empty)
        rc = rl_ring_count_empty_file(r);
    if (rc == 0)
        rc = flush_bits(r);
    if (rc == 0)
        rc = write_bytes_keep(r, keep, &kept);
    if (rc < 0)
        return rc;
    rl_ring_decide_held(r, kept);
    if (r->end_held || r->held_len > 0 || (empty && r->file_head_len + v2_len > 0)) {
        rc = rl_ring_keep_held(r, v2, v2_len);
        if (rc == 0 && empty)
            rc = rl_ring_keep_held(r, r->file_head, r->file_head_len);
        if (rc == 0)
            rc = rl_ring_keep_held(r, keep, kept);
        if (rc == 0 && !r->end_held) {
            rc = redecode_now(r, r->held, r->held_len, in_finish);
            r->held_len = 0;
        }
    } else
        rc = redecode_now(r, keep, kept, in_finish);
    r->file_head_len = 0;
    if (rc == 0)
        rc = rl_encoder_gain_mark(rl_encoder_gain(r->e));
    return rc;
}

int rl_ring_write_file_head(Ring *r)
{
    if (r->file_head)
        return write_bytes_keep(r, r->file_head, &r->file_head_len);
    return rl_ring_write_ready_bytes(r);
}

int rl_ring_count_empty_file(Ring *r)
{
    size_t n = 0;
    /* only libmp3lame's own ID3v2 tag is in its bit buffer (lame's front
     * end writes its tag itself) */
    const uint8_t *v2 = r->p.head_by_caller ? file_id3v2(r, r->out_file, &n) : NULL;
    return rl_encoder_empty_file(rl_encoder_const(r->e), rl_encoder_encode_stage(r->e), v2, n);
}

/* A gapless file's LAME tag frame (lame_get_lametag_frame after its
 * lame_encode_flush_nogap) into buf; length, 0 (tag off) or -errno. */
static int file_tag(Ring *r, int file, int files, uint8_t *buf, size_t cap)
{
    RlEncoder *e = r->e;
    return rl_encoder_file_tag_frame(rl_encoder_const(e), rl_encoder_encode_stage(e),
                                     rl_encoder_gain(e), r->rd, r->title_base + r->out_file,
                                     r->flush_padding, file, files, buf, cap);
}

/* The end of the output file being written (lame_encode_flush's or
 * lame_encode_flush_nogap's bitstream flush, the ID3v1 tag): its bytes go
 * out and its LAME tag frame, when the output wants one, is left in
 * r->out_bytes; the set's last file has the final padding and ReplayGain.
 * Returns the tag's length or -errno. */
static int end_file(Ring *r, int last)
{
    RlEncoder *e = r->e;
    int len = 0, rc, files, file;

    /* (decoding on the fly, a gapless file's end was flushed by
     * boundary_flush) */
    rc = r->rd && !last ? 0 : flush_bits(r);
    if (rc < 0)
        return rc;
    if (r->rd && last) {
        /* lame_encode_flush: the last music bytes are decoded too, before
         * save_gain_values; slot 0's buffer is free (every frame decoded) */
        size_t kept;
        rc = write_bytes_keep(r, r->slot_bytes, &kept);
        if (rc == 0)
            rc = rl_ring_redecode_here(r, r->slot_bytes, kept);
    }
    else {
        size_t kept;
        rc = write_bytes_keep(r, NULL, &kept);
        if (rc == 0 && !r->rd)
            rl_ring_decide_held(r, kept);
    }
    if (rc < 0)
        return rc;
    if (!last && r->end_held) {
        /* lame's copy of the flush failed: not music (yet) */
        RlEncodeStage *enc = rl_encoder_encode_stage(e);
        rl_encoder_music_mark(enc, &r->end_after);
        rl_encoder_set_music_mark(enc, &r->end_before);
    }
    if (r->p.id3v1_len > 0 && (last || !r->p.id3v1_last_only)) {
        rc = rl_ring_out_rc(r, r->out.write(r->out.ctx, r->p.id3v1, r->p.id3v1_len));
        if (rc < 0)
            return rc;
    }
    files = r->p.nogap_files;
    file = r->out_file;
    if (r->p.tag_nogap)
        r->p.tag_nogap(r->p.progress_arg, r->out_file, &files, &file);
    if (r->out.wants_tag && last)
        len = rl_encoder_tag_frame_nogap(rl_encoder_const(e), rl_encoder_encode_stage(e),
                                         rl_encoder_dispatch(e), rl_encoder_gain(e), r->rd, file,
                                         files, r->out_bytes, RL_ENCODER_BYTES_MAX);
    else if (r->out.wants_tag)
        len = file_tag(r, file, files, r->out_bytes, RL_ENCODER_BYTES_MAX);
    return len;
}

/* The end of one file of a gapless set and the start of the next, before
 * the next file's first frame `first` (lame_encode_flush_nogap, the tags,
 * then lame_init_bitstream with the ID3v2 tag in front). */
static int next_file(Ring *r, int64_t first)
{
    RlEncoder *e = r->e;
    size_t v2_len;
    int len, rc;

    if (!r->out.next_file)
        return -EPROTO;
    if (!r->rd && r->file_empty[r->out_file]) {
        rc = rl_ring_count_empty_file(r);
        if (rc < 0)
            return rc;
    }
    len = end_file(r, 0);
    if (len < 0)
        return len;
    (void) file_id3v2(r, r->out_file, &v2_len);
    rc = rl_ring_out_rc(r, r->out.next_file(r->out.ctx, r->out_bytes, (size_t) len,
                                            (uint64_t) v2_len));
    if (rc < 0)
        return rc;
    if (r->p.file_end) {
        RlRingResult res;
        memset(&res, 0, sizeof res);
        res.frames = first - r->out_file_start;
        res.tag_len = len;
        res.radio_gain = rl_encoder_file_radio_gain(rl_encoder_const(e), rl_encoder_gain(e),
                                                    r->title_base + r->out_file, &res.replay_gain);
        res.decoded = r->rd != NULL;
        res.scale = r->scale;
        res.flush_empty = r->flush_empty;
        if (r->rd) {
            rl_encoder_noclip(r->rd, &res.noclip_gain_change, &res.noclip_scale);
            res.peak_sample = rl_encoder_peak(r->rd);
        }
        r->p.file_end(r->p.progress_arg, r->out_file, &res);
    }
    r->boundary_flushed = 0;
    r->flush_empty = 0;
    r->out_file_start = first;
    r->out_file++;
    return r->p.head_by_caller ? 0 : rl_ring_new_head(r);
}

int rl_ring_new_head(Ring *r)
{
    RlEncoder *e = r->e;
    size_t v2_len;
    const uint8_t *v2 = file_id3v2(r, r->out_file, &v2_len);
    int rc;

    rl_encoder_redecode_new_file(r->rd);
    /* the bit buffer is empty here (Encode takes every frame's bytes), so
     * the tag written straight out lands where lame puts it */
    if (v2_len > 0) {
        rc = rl_ring_out_rc(r, r->out.write(r->out.ctx, v2, v2_len));
        if (rc < 0)
            return rc;
    }
    rc = rl_encoder_new_file(rl_encoder_const(e), rl_encoder_encode_stage(e));
    if (rc < 0)
        return rc;
    return rl_ring_write_file_head(r);
}

/* Encode: rl_encode validates the speculative search against the true
 * reservoir and redoes it serially when needed; then bitrate choice,
 * reservoir and the frame's bytes. */
int rl_ring_run_encode(Ring *r, RlFrame *f, int64_t t)
{
    RlForkJoin const fj = { rl_ring_fork_join, r };
    int const file = r->slot_file[t % r->nslots];
    int rc;

    /* a file of a gapless set too short for a frame of its own ends here too */
    while (r->out_file < file) {
        if (r->rd && !r->boundary_flushed) {
            /* the file's end decoded; its tag once its title is closed */
            rc = boundary_flush(r, t, 0);
            return rc < 0 ? rc : RING_E_BOUNDARY;
        }
        rc = next_file(r, t);
        if (rc < 0)
            return rc;
    }
    r->side_frame = t;
    rc = rl_encode(rl_encoder_const(r->e), rl_encoder_encode_stage(r->e), f, r->fork ? &fj : NULL);
    if (rc < 0)
        return rc;
    r->redo_count += rc;        /* 1: the search was redone */
    if (r->rd) {                /* the frame's chunk, for Redecode */
        size_t const slot = (size_t) (t % r->nslots);
        rc = write_bytes_keep(r, r->slot_bytes + slot * RL_ENCODER_BYTES_MAX, &r->slot_nbytes[slot]);
    }
    else
        rc = rl_ring_write_ready_bytes(r);
    if (rc < 0)
        return rc;
    if (r->p.frame_info) {
        RlRingFrameInfo fi;
        rl_frame_stats(rl_encoder_const(r->e), f, &fi.bitrate_index, &fi.mode_ext, fi.block_count);
        r->p.frame_info(r->p.progress_arg, t, &fi);
    }
    if (r->p.progress)
        r->p.progress(r->p.progress_arg, t + 1, r->total_estimate);
    return 0;
}

int rl_ring_end_files(Ring *r)
{
    int rc;
    while (r->out_file < r->in_file) {
        rl_ring_held_into_end(r);
        /* the file's ReplayGain title closes with the gain work done */
        if (!r->rd && (rc = rl_ring_run_gain_here(r)) < 0)
            return rc;
        if (r->rd) {
            rc = boundary_flush(r, r->encoded, 1);
            if (rc == 0)
                rc = rl_ring_run_gain_here(r);      /* closes the title */
            if (rc < 0)
                return rc;
        }
        rc = next_file(r, r->encoded);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Finish: after the flush, the last Encode and the last gain task: stuffing,
 * the final bytes, an ID3v1 tag, and the LAME tag frame over the placeholder
 * (when the output port wants it, after an ID3v2 tag), handed to the port's
 * finish. */
int rl_ring_run_finish(Ring *r)
{
    size_t v2_len;
    int len, rc;

    /* (the flush always cuts a frame, so the last file has one: this
     * only guards the order) */
    rc = rl_ring_end_files(r);
    if (rc < 0)
        return rc;
    len = end_file(r, 1);
    if (len < 0)
        return len;
    if (r->p.result) {
        r->p.result->frames = r->encoded;
        r->p.result->tag_len = len;
        r->p.result->radio_gain = rl_encoder_radio_gain(rl_encoder_const(r->e), rl_encoder_gain(r->e),
                                                        &r->p.result->replay_gain);
        r->p.result->decoded = r->rd != NULL;
        r->p.result->flush_empty = r->flush_empty;
        r->p.result->encoder_padding = rl_encoder_padding(r->e);
        r->p.result->scale = r->scale;
        if (r->rd) {
            rl_encoder_noclip(r->rd, &r->p.result->noclip_gain_change,
                              &r->p.result->noclip_scale);
            r->p.result->peak_sample = rl_encoder_peak(r->rd);
        }
    }
    (void) file_id3v2(r, r->out_file, &v2_len);
    return rl_ring_out_rc(r, r->out.finish(r->out.ctx, r->out_bytes, (size_t)len,
                                           (uint64_t) v2_len));
}
