/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: a gapless file's flush that the drop-in libmp3lame's caller had
 * no room for (lame_encode_flush_nogap's copy_buffer failed): libmp3lame
 * leaves it in its bit buffer, out of the file's music and undecoded, until
 * its next copy hands it out, as music or not (rl_ring_held_out, ring.h).
 * The work runs as Encode (ring.c's run_as_encode). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ring_impl.h"

void rl_ring_decide_held(Ring *r, size_t n)
{
    size_t total;

    if (!r->end_cap_set)
        return;
    r->end_cap_set = 0;
    total = r->end_head_held + n;
    /* lame's do_copy_buffer: nothing to copy always fits; mp3buffer_size 0
     * is no limit */
    r->end_held = total > 0 && (r->end_cap < 0 || (r->end_cap > 0 && total > (size_t) r->end_cap));
}

int rl_ring_keep_held(Ring *r, const uint8_t *bytes, size_t n)
{
    if (n == 0)
        return 0;
    if (r->held_len + n > r->held_size) {
        size_t const size = (r->held_len + n) * 2;
        uint8_t *p = realloc(r->held, size);
        if (!p)
            return -ENOMEM;
        r->held = p;
        r->held_size = size;
    }
    memcpy(r->held + r->held_len, bytes, n);
    r->held_len += n;
    return 0;
}

/* The held bytes through decode on the fly, as lame's copy_buffer(.., 1)
 * decodes them; the gain work done (every pushed frame analysed) */
static int decode_held(Ring *r)
{
    int rc = 0;

    if (r->rd && r->held_len > 0)
        rc = rl_ring_redecode_here(r, r->held, r->held_len);
    r->held_len = 0;
    if (rc == 0)
        rc = rl_ring_run_gain_here(r);
    return rc;
}

/* The retry's save_gain_values: the title of what it decoded closes (a
 * title of its own: the next file's is one further on) */
static int retry_gains(Ring *r, RlRingResult *res)
{
    RlEncoder *e = r->e;
    int rc;

    if (r->rd && r->gain_channels > 0) {
        rc = rl_encoder_gain_mark(rl_encoder_gain(e));
        if (rc == 0)
            rc = rl_ring_run_gain_here(r);
        if (rc < 0)
            return rc;
    }
    memset(res, 0, sizeof *res);
    res->decoded = r->rd != NULL;
    res->scale = r->scale;
    res->replay_gain = r->gain_channels > 0;
    /* (undecoded, the retry's title is empty: lame's RadioGain 0) */
    if (r->rd && r->gain_channels > 0) {
        res->radio_gain = rl_encoder_file_radio_gain(rl_encoder_const(e), rl_encoder_gain(e),
                                                     r->title_base + r->out_file,
                                                     &res->replay_gain);
        r->title_base++;
    }
    if (r->rd) {
        rl_encoder_noclip(r->rd, &res->noclip_gain_change, &res->noclip_scale);
        res->peak_sample = rl_encoder_peak(r->rd);
    }
    return 0;
}

/* The held bytes as music ahead of the new head: end_after's CRC is
 * end_before's gone on over them; they are decoded in one chunk with the
 * rest of lame's copy, at the file's end (ring_tasks.c's boundary_flush) */
static void held_ahead(Ring *r)
{
    RlEncodeStage *enc = rl_encoder_encode_stage(r->e);
    RlMusicMark m;

    rl_encoder_music_mark(enc, &m);
    m.crc = r->end_after.crc;
    m.bytes += r->end_after.bytes - r->end_before.bytes;
    rl_encoder_set_music_mark(enc, &m);
}

void rl_ring_held_into_end(Ring *r)
{
    RlMusicMark before;

    rl_encoder_music_mark(rl_encoder_encode_stage(r->e), &before);
    if (r->held_open)
        held_ahead(r);
    r->held_open = 0;
    r->end_before = before;
}

int rl_ring_held_work(Ring *r)
{
    RlEncodeStage *enc = rl_encoder_encode_stage(r->e);
    RlRingResult spare;
    int rc;

    r->held_open = 0;
    switch (r->held_how) {
    case RL_RING_HELD_RETRY:
        rl_encoder_set_music_mark(enc, &r->end_after);
        rc = decode_held(r);
        return rc < 0 ? rc : retry_gains(r, r->held_res ? r->held_res : &spare);
    case RL_RING_HELD_AHEAD:
        held_ahead(r);
        return 0;
    default:
        r->held_len = 0;
        return 0;
    }
}
