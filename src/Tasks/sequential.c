/* ringlame: the single-threaded encode driver: reads PCM one frame size at a
 * time like LAME's frontend (get_audio + lame_encode_buffer_int), runs the
 * stages frame by frame, flushes and writes the LAME tag.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sequential.h"
#include "stages.h"
#include "pcm_reader.h"
#include "mp3_writer.h"

/* Everything the driver allocates, freed in one place. */
typedef struct SeqCtx {
    RlEncoder  *enc;
    RlFrame    *frame;
    int32_t    *pcm;
    uint8_t    *out_bytes;
    RlMp3Writer *out;
} SeqCtx;

/* Hands the bytes the bitstream has finished to the writer. */
static int write_ready_bytes(SeqCtx *c)
{
    for (;;) {
        long n = rl_encoder_take_bytes(rl_encoder_encode_stage(c->enc), c->out_bytes, RL_ENCODER_BYTES_MAX);
        int rc;
        if (n < 0)
            return (int)n;
        if (n == 0)
            return 0;
        rc = rl_mp3_write(c->out, c->out_bytes, (size_t)n);
        if (rc < 0)
            return rc;
    }
}

/* One frame through Prepare, Resolve, Search and Encode. */
static int encode_frame(SeqCtx *c)
{
    RlEncoder *e = c->enc;
    RlFrame *f = c->frame;
    int rc;

    rl_prepare(rl_encoder_const(e), f);
    rc = rl_resolve(rl_encoder_const(e), rl_encoder_psy(e), f);
    if (rc < 0)
        return rc;
    /* in order, the search sees the true reservoir: never redone */
    RlCarried truth;
    rl_encoder_carried(rl_encoder_encode_stage(e), &truth);
    rc = rl_search(rl_encoder_const(e), f, &truth);
    if (rc < 0)
        return rc;
    rc = rl_encode(rl_encoder_const(e), rl_encoder_encode_stage(e), f, NULL);
    if (rc < 0)
        return rc;
    return write_ready_bytes(c);
}

/* The ReplayGain channel tasks, inline: they consume whatever Dispatch has
 * pushed (nothing is queued when RG is off). */
static int run_gain_tasks(RlEncoder *e)
{
    int ch, rc;
    for (ch = 0; ch < 2; ch++) {
        while (rl_encoder_gain_pending(rl_encoder_gain(e), ch) > 0) {
            rc = rl_encoder_gain_run(rl_encoder_gain(e), ch);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

/* Encodes every frame Dispatch can cut from the queued input, running the
 * gain tasks after each dispatch step (-EAGAIN: the gain feed was full). */
static int drain_dispatch(SeqCtx *c)
{
    int rc, grc;
    for (;;) {
        rc = rl_dispatch_next(rl_encoder_const(c->enc), rl_encoder_dispatch(c->enc), rl_encoder_gain(c->enc),
                              c->frame);
        grc = run_gain_tasks(c->enc);
        if (grc < 0)
            return grc;
        if (rc == -EAGAIN)
            continue;      /* the tasks above made room */
        if (rc <= 0)
            return rc;
        rc = encode_frame(c);
        if (rc < 0)
            return rc;
    }
}

static int run(SeqCtx *c, RlPcmReader *in)
{
    RlEncoder *e = c->enc;
    int frame_size = rl_encoder_frame_size(e);
    int rc, n;

    /* the tag placeholder frame (non-music bytes) */
    rc = write_ready_bytes(c);
    if (rc < 0)
        return rc;

    /* LAME's frontend reads lame_get_framesize() samples per call and hands
     * each read to one lame_encode_buffer_int call */
    for (;;) {
        n = rl_pcm_read(in, c->pcm, frame_size);
        if (n < 0)
            return n;
        if (n == 0)
            break;
        rc = rl_dispatch_feed(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e), c->pcm, n);
        if (rc < 0)
            return rc;
        rc = drain_dispatch(c);
        if (rc < 0)
            return rc;
    }

    /* lame_encode_flush: zero bunches until the last frame is out */
    while ((rc = rl_dispatch_flush_step(rl_encoder_const(e), rl_encoder_dispatch(e), rl_encoder_gain(e))) > 0) {
        rc = drain_dispatch(c);
        if (rc < 0)
            return rc;
    }
    if (rc < 0)
        return rc;
    rc = rl_encoder_flush_bits(rl_encoder_const(e), rl_encoder_encode_stage(e));
    if (rc < 0)
        return rc;
    rc = write_ready_bytes(c);
    if (rc < 0)
        return rc;

    /* the final tag frame over the placeholder (the frontend seeks to the
     * ID3v2 size, 0 here); no tag on unseekable output */
    if (rl_mp3_is_seekable(c->out)) {
        int len = rl_encoder_tag_frame(rl_encoder_const(e), rl_encoder_encode_stage(e), rl_encoder_dispatch(e),
                                       rl_encoder_gain(e), c->out_bytes, RL_ENCODER_BYTES_MAX);
        if (len < 0)
            return len;
        if (len > 0) {
            rc = rl_mp3_write_at(c->out, 0, c->out_bytes, (size_t)len);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

int rl_run_sequential(const RlOptions *opt, RlPcmReader *in, RlMp3Writer *out)
{
    SeqCtx c;
    RlOptions o;
    int rc;

    if (!opt || !in || !out)
        return -EINVAL;
    memset(&c, 0, sizeof c);
    o = *opt;
    c.out = out;
    /* one frame record, reused: like LAME's gfc->l3_side, whatever a stage
     * does not rewrite keeps the previous frame's value */
    c.frame = rl_frames_create(1);
    c.out_bytes = malloc(RL_ENCODER_BYTES_MAX);
    if (!c.frame || !c.out_bytes) {
        rc = -ENOMEM;
        goto done;
    }
    rc = rl_encoder_create(&c.enc, &o);
    if (rc < 0)
        goto done;
    c.pcm = malloc((size_t)1152 * 2 * sizeof(int32_t));
    if (!c.pcm)
        rc = -ENOMEM;
    else
        rc = run(&c, in);
    rl_encoder_destroy(c.enc);
done:
    free(c.pcm);
    free(c.out_bytes);
    rl_frames_free(c.frame);
    return rc;
}
