/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the public API's input queue and output FIFO (api_ports.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api_ports.h"
#include "ringlame/ringlame.h"

/* ----------------------------------------------------------------- input */

int rl_api_input_init(RlApiInput *q, int frame_size, int channels, int nblocks)
{
    return rl_api_input_init_fmt(q, frame_size, channels, nblocks, RL_SF_I32,
                                 channels * (int) sizeof(int32_t));
}

int rl_api_input_init_fmt(RlApiInput *q, int frame_size, int channels, int nblocks, int fmt,
                          int frame_bytes)
{
    int i, rc;

    memset(q, 0, sizeof *q);
    if (frame_size <= 0 || channels < 1 || channels > 2 || nblocks < 1 || frame_bytes < 1)
        return -EINVAL;
    q->frame_size = frame_size;
    q->channels = channels;
    q->nblocks = nblocks;
    q->fmt = fmt;
    q->frame_bytes = frame_bytes;
    q->buf = malloc((size_t) nblocks * (size_t) frame_size * (size_t) frame_bytes);
    q->blk = calloc((size_t) nblocks, sizeof *q->blk);
    if (!q->buf || !q->blk) {
        free(q->buf);
        free(q->blk);
        return -ENOMEM;
    }
    for (i = 0; i < nblocks; i++) {
        q->blk[i].data = q->buf + (size_t) i * (size_t) frame_size * (size_t) frame_bytes;
        q->blk[i].fmt = fmt;
        q->blk[i].channels = channels;
        q->blk[i].frame_bytes = frame_bytes;
    }
    q->eof_blk = q->blk[0];
    q->eof_blk.data = NULL;
    q->eof_blk.nframes = 0;
    q->eof_blk.eof = 1;
    rc = pthread_mutex_init(&q->mu, NULL);
    if (rc != 0) {
        free(q->buf);
        free(q->blk);
        q->buf = NULL;
        q->blk = NULL;       /* rl_api_input_free: nothing to free */
        return -rc;
    }
    return 0;
}

void rl_api_input_free(RlApiInput *q)
{
    if (!q->blk)
        return;
    pthread_mutex_destroy(&q->mu);
    free(q->buf);
    free(q->blk);
    q->buf = NULL;
    q->blk = NULL;
}

static int32_t sample_at(const void *const data[2], int format, int planar, int channels,
                         size_t frame, int ch)
{
    size_t const i = planar ? frame : frame * (size_t) channels + (size_t) ch;
    const void *p = data[planar ? ch : 0];
    switch (format) {
    case RINGLAME_S16:
        return (int32_t) ((uint32_t) (uint16_t) ((const int16_t *) p)[i] << 16);
    case RINGLAME_S32:
        return ((const int32_t *) p)[i];
    default:
        return rl_pcm_f32_to_s32(((const float *) p)[i]);
    }
}

/* what rl_api_input_put converts: the caller's buffers and their layout */
typedef struct RlApiPcm {
    const void *const *data;
    int format, planar, channels;
} RlApiPcm;

static void fill_int32(void *ctx, size_t at, size_t n, void *dst)
{
    const RlApiPcm *pcm = ctx;
    int32_t *d = dst;
    size_t i;
    int ch;

    for (i = 0; i < n; i++)
        for (ch = 0; ch < pcm->channels; ch++)
            *d++ = sample_at(pcm->data, pcm->format, pcm->planar, pcm->channels, at + i, ch);
}

size_t rl_api_input_put(RlApiInput *q, const void *const data[2], int format, int planar,
                        size_t from, size_t frames, int *published)
{
    RlApiPcm pcm = { data, format, planar, q->channels };
    return rl_api_input_write(q, fill_int32, &pcm, from, frames, published);
}

size_t rl_api_input_write(RlApiInput *q, RlApiFill fill, void *ctx, size_t from, size_t frames,
                          int *published)
{
    size_t done = 0;

    *published = 0;
    pthread_mutex_lock(&q->mu);
    while (done < frames && !q->eof && q->published - q->released < q->nblocks) {
        RlInBlock *b = &q->blk[q->published % q->nblocks];
        uint8_t *dst = (uint8_t *) b->data + (size_t) q->fill * (size_t) q->frame_bytes;
        size_t n = (size_t) (q->frame_size - q->fill);

        if (n > frames - done)
            n = frames - done;
        /* the copy runs under the lock: the block is not visible to
         * Dispatch before it is published, but `published` may move */
        fill(ctx, from + done, n, dst);
        q->fill += (int) n;
        done += n;
        if (q->fill == q->frame_size) {
            b->nframes = q->frame_size;
            b->eof = 0;
            b->first_frame = q->frames_in;
            q->frames_in += q->frame_size;
            q->fill = 0;
            q->published++;
            *published = 1;
        }
    }
    pthread_mutex_unlock(&q->mu);
    return done;
}

int rl_api_input_room(RlApiInput *q)
{
    int room;

    pthread_mutex_lock(&q->mu);
    room = q->eof ? 0 : (int) (q->nblocks - (q->published - q->released));
    pthread_mutex_unlock(&q->mu);
    return room;
}

/* Assumes mu.  The block being filled, as it is (there was room to start
 * it), with eof as given. */
static void publish_partial(RlApiInput *q, int eof)
{
    RlInBlock *b = &q->blk[q->published % q->nblocks];
    b->nframes = q->fill;
    b->eof = eof;
    b->first_frame = q->frames_in;
    q->frames_in += q->fill;
    q->fill = 0;
    q->published++;
}

void rl_api_input_end(RlApiInput *q)
{
    pthread_mutex_lock(&q->mu);
    if (!q->eof) {
        if (q->fill > 0) {
            publish_partial(q, 1);      /* it ends the stream */
            q->eof_handed = 1;          /* no separate end block */
        }
        else {
            q->eof_blk.first_frame = q->frames_in;
        }
        q->eof = 1;
    }
    pthread_mutex_unlock(&q->mu);
}

int rl_api_input_publish(RlApiInput *q)
{
    int done = 0;

    pthread_mutex_lock(&q->mu);
    if (!q->eof && q->fill > 0) {
        publish_partial(q, 0);
        done = 1;
    }
    pthread_mutex_unlock(&q->mu);
    return done;
}

void rl_api_input_reopen(RlApiInput *q)
{
    pthread_mutex_lock(&q->mu);
    q->eof = 0;
    q->eof_handed = 0;
    pthread_mutex_unlock(&q->mu);
}

int rl_api_input_file_end(RlApiInput *q)
{
    int rc = 0;

    pthread_mutex_lock(&q->mu);
    if (q->eof || q->file_end_pending)
        rc = -EBUSY;
    else {
        /* the file's last samples: a short block (the bytes do not
         * depend on how the samples are cut) */
        if (q->fill > 0)
            publish_partial(q, 0);
        q->file_end_at = q->published;
        q->file_end_pending = 1;
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}

static int input_next(void *ctx, const RlInBlock **blk)
{
    RlApiInput *q = ctx;
    int rc = 0;

    pthread_mutex_lock(&q->mu);
    if (q->file_end_pending && q->handed == q->file_end_at) {
        q->file_end_pending = 0;
        rc = RL_RING_IN_FILE_END;
    }
    else if (q->handed < q->published) {
        *blk = &q->blk[q->handed % q->nblocks];
        q->handed++;
        rc = 1;
    }
    else if (q->eof && !q->eof_handed) {
        *blk = &q->eof_blk;
        q->eof_handed = 1;
        rc = 1;
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}

static void input_release(void *ctx, const RlInBlock *blk)
{
    RlApiInput *q = ctx;

    if (blk == &q->eof_blk)
        return;
    pthread_mutex_lock(&q->mu);
    q->released++;              /* Dispatch releases in the order it took */
    pthread_mutex_unlock(&q->mu);
}

void rl_api_input_port(RlApiInput *q, RlRingInput *port)
{
    memset(port, 0, sizeof *port);
    port->next = input_next;
    port->release = input_release;
    port->ctx = q;
    port->frames = -1;
}

/* ---------------------------------------------------------------- output */

int rl_api_output_init(RlApiOutput *o)
{
    int rc;

    memset(o, 0, sizeof *o);
    o->cap = 1 << 16;
    o->buf = malloc(o->cap);
    if (!o->buf)
        return -ENOMEM;
    rc = pthread_mutex_init(&o->mu, NULL);
    if (rc != 0) {
        free(o->buf);
        o->buf = NULL;       /* rl_api_output_free: nothing to free */
        return -rc;
    }
    return 0;
}

void rl_api_output_free(RlApiOutput *o)
{
    if (!o->buf)
        return;
    pthread_mutex_destroy(&o->mu);
    free(o->buf);
    o->buf = NULL;
}

static size_t take(RlApiOutput *o, uint8_t *dst, size_t cap, int file_only)
{
    size_t n;

    pthread_mutex_lock(&o->mu);
    n = o->tail - o->head;
    if (file_only && n > o->file_left)
        n = o->file_left;
    if (n > cap)
        n = cap;
    o->file_left -= n < o->file_left ? n : o->file_left;
    memcpy(dst, o->buf + o->head, n);
    o->head += n;
    if (o->head == o->tail)
        o->head = o->tail = 0;
    pthread_mutex_unlock(&o->mu);
    return n;
}

size_t rl_api_output_take(RlApiOutput *o, uint8_t *dst, size_t cap)
{
    return take(o, dst, cap, 0);
}

size_t rl_api_output_take_file(RlApiOutput *o, uint8_t *dst, size_t cap)
{
    return take(o, dst, cap, 1);
}

size_t rl_api_output_count(RlApiOutput *o)
{
    size_t n;
    pthread_mutex_lock(&o->mu);
    n = o->tail - o->head;
    pthread_mutex_unlock(&o->mu);
    return n;
}

uint64_t rl_api_output_written(RlApiOutput *o)
{
    uint64_t n;
    pthread_mutex_lock(&o->mu);
    n = o->written;
    pthread_mutex_unlock(&o->mu);
    return n;
}

int rl_api_output_pending(RlApiOutput *o)
{
    return rl_api_output_count(o) > 0;
}

static int output_write(void *ctx, const uint8_t *p, size_t n)
{
    RlApiOutput *o = ctx;
    int rc = 0;

    pthread_mutex_lock(&o->mu);
    if (o->tail + n > o->cap && o->head > 0) {
        /* move the pending bytes to the front before growing */
        memmove(o->buf, o->buf + o->head, o->tail - o->head);
        o->tail -= o->head;
        o->head = 0;
    }
    if (o->tail + n > o->cap) {
        size_t cap = o->cap;
        uint8_t *b;
        while (cap < o->tail + n)
            cap *= 2;
        b = realloc(o->buf, cap);
        if (!b)
            rc = -ENOMEM;
        else {
            o->buf = b;
            o->cap = cap;
        }
    }
    if (rc == 0) {
        memcpy(o->buf + o->tail, p, n);
        o->tail += n;
        o->written += n;
    }
    pthread_mutex_unlock(&o->mu);
    return rc;
}

/* A file's LAME tag kept for the program; last: the stream ended (else a
 * gapless set's file did: where its bytes end) */
static int keep_tag(RlApiOutput *o, const uint8_t *tag, size_t tag_len, uint64_t offset,
                    int last)
{
    if (tag_len > sizeof o->tag)
        return -ENOSPC;
    pthread_mutex_lock(&o->mu);
    memcpy(o->tag, tag, tag_len);
    o->tag_len = tag_len;
    o->tag_offset = offset;
    if (last)
        o->finished = 1;
    else {
        o->file_left = o->tail - o->head;
        o->file_end_written = o->written;
        o->files_ended++;
    }
    pthread_mutex_unlock(&o->mu);
    return 0;
}

size_t rl_api_output_swap_tag(RlApiOutput *o, const uint8_t *tag, size_t len, uint8_t *old,
                              size_t cap)
{
    size_t n;
    pthread_mutex_lock(&o->mu);
    n = o->tag_len < cap ? o->tag_len : cap;
    memcpy(old, o->tag, n);
    if (len > sizeof o->tag)
        len = sizeof o->tag;
    memcpy(o->tag, tag, len);
    o->tag_len = len;
    pthread_mutex_unlock(&o->mu);
    return n;
}

static int output_finish(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset)
{
    return keep_tag(ctx, tag, tag_len, offset, 1);
}

static int output_next_file(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset)
{
    return keep_tag(ctx, tag, tag_len, offset, 0);
}

void rl_api_output_port(RlApiOutput *o, RlRingOutput *port)
{
    memset(port, 0, sizeof *port);
    port->write = output_write;
    port->finish = output_finish;
    port->next_file = output_next_file;
    port->ctx = o;
    port->wants_tag = 1;
}
