/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the public API's encoder: a frame ring on a worker pool, fed
 * from ringlame_send through the input queue and drained by
 * ringlame_receive through the output FIFO (api_ports.h).  Without pool
 * workers the ring runs inside ringlame_receive, on the caller's thread. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "api_ports.h"

/* Input blocks the queue holds beyond what the ring's slots take. */
#define RL_API_QUEUE_BLOCKS 16

struct RingLameEncoder {
    RlRing      *ring;
    RlExecutor  *own_ex;        /* the encoder's own pool, or NULL (shared) */
    RlApiInput   in;
    RlApiOutput  out;
    int          flushed;
    int          ended;         /* the ring finished: the FIFO holds the rest */
    int          err;           /* the error the encoder stopped with */
    RlArgsTags   tags;          /* the ID3 tags the ring writes (kept for its run) */
};

RINGLAME_API int ringlame_open(RingLameEncoder **out, const RingLameSettings *s)
{
    RingLameEncoder *enc;
    RlArgs *a;
    RlRingInput inp;
    RlRingOutput outp;
    RlRingParams p;
    RlExecutor *ex;
    int threads = 0, rc;

    if (!out || !s)
        return -EINVAL;
    *out = NULL;
    enc = calloc(1, sizeof *enc);
    a = malloc(sizeof *a);
    if (!enc || !a) {
        free(enc);
        free(a);
        return -ENOMEM;
    }
    rc = rl_api_settings_build(s, a, &threads, NULL, 0);
    if (rc < 0)
        goto fail;
    threads = rl_threads_for_ring(threads);
    if (s->pool)
        ex = s->pool->ex;
    else {
        rc = rl_executor_create(&enc->own_ex, threads - 1);
        if (rc < 0)
            goto fail;
        ex = enc->own_ex;
    }
    rc = rl_api_output_init(&enc->out);
    if (rc >= 0)
        rc = rl_options_frame_size(&a->opt);
    if (rc < 0)
        goto fail;
    /* blocks of lame's read size: the bytes follow its chunking */
    rc = rl_api_input_init(&enc->in, rc, s->channels, RL_API_QUEUE_BLOCKS + 2 * threads);
    if (rc < 0)
        goto fail;
    rl_api_input_port(&enc->in, &inp);
    rl_api_output_port(&enc->out, &outp);
    memset(&p, 0, sizeof p);
    p.threads = threads;
    p.exec = ex;
    {
        char why[64];
        rc = rl_args_tags_build(a, s->length, a->opt.samplerate_in, NULL, 0, &enc->tags, why,
                                sizeof why);
    }
    if (rc < 0)
        goto fail;
    p.id3v2 = enc->tags.v2;
    p.id3v2_len = enc->tags.v2_len;
    p.id3v1 = enc->tags.v1;
    p.id3v1_len = enc->tags.v1_len;
    rc = rl_ring_create(&enc->ring, &a->opt, ex, &inp, &outp, &p);
    if (rc < 0)
        goto fail;
    free(a);
    *out = enc;
    return 0;
fail:
    free(a);
    ringlame_close(enc);
    return rc;
}

RINGLAME_API void ringlame_close(RingLameEncoder *enc)
{
    if (!enc)
        return;
    rl_ring_destroy(enc->ring);
    rl_executor_destroy(enc->own_ex);
    rl_api_input_free(&enc->in);
    rl_api_output_free(&enc->out);
    rl_args_tags_free(&enc->tags);
    free(enc);
}

RINGLAME_API long ringlame_send(RingLameEncoder *enc, const RingLamePcm *pcm)
{
    size_t n;
    int published, ch;

    if (!enc || !pcm)
        return -EINVAL;
    if (enc->err)
        return enc->err;
    if (enc->flushed)
        return -EPIPE;
    if (pcm->format != RINGLAME_S16 && pcm->format != RINGLAME_S32 && pcm->format != RINGLAME_F32)
        return -EINVAL;
    for (ch = 0; ch < (pcm->planar ? enc->in.channels : 1); ch++)
        if (!pcm->data[ch] && pcm->frames > 0)
            return -EINVAL;
    if (pcm->frames == 0)
        return 0;
    n = rl_api_input_put(&enc->in, pcm->data, pcm->format, pcm->planar, 0, pcm->frames,
                         &published);
    if (published)
        rl_ring_input_ready(enc->ring);
    if (n == 0)
        return -EAGAIN;
    return n > (size_t) 0x7fffffff ? 0x7fffffff : (long) n;
}

RINGLAME_API int ringlame_flush(RingLameEncoder *enc)
{
    if (!enc)
        return -EINVAL;
    if (enc->err)
        return enc->err;
    if (!enc->flushed) {
        enc->flushed = 1;
        rl_api_input_end(&enc->in);
        rl_ring_input_ready(enc->ring);
    }
    return 0;
}

static int output_waiting(void *arg)
{
    RingLameEncoder *enc = arg;
    return rl_api_output_pending(&enc->out);
}

RINGLAME_API long ringlame_receive(RingLameEncoder *enc, uint8_t *buf, size_t cap)
{
    if (!enc || (!buf && cap > 0))
        return -EINVAL;
    if (cap == 0)
        return -EINVAL;
    for (;;) {
        size_t n = rl_api_output_take(&enc->out, buf, cap);
        int st;

        if (n > 0)
            return n > (size_t) 0x7fffffff ? 0x7fffffff : (long) n;
        if (enc->err)
            return enc->err;
        if (enc->ended)
            return 0;
        st = rl_ring_help_until(enc->ring, output_waiting, enc);
        if (st < 0) {
            enc->err = st;
            continue;           /* bytes written before the error are not handed out */
        }
        if (st == RL_RING_DONE)
            enc->ended = 1;
        else if (st == RL_RING_STARVED && !rl_api_output_pending(&enc->out))
            return -EAGAIN;
    }
}

RINGLAME_API int ringlame_tag_frame(RingLameEncoder *enc, uint8_t *buf, size_t cap,
                                    uint64_t *offset)
{
    int len;

    if (!enc || (!buf && cap > 0))
        return -EINVAL;
    if (enc->err)
        return enc->err;
    if (!enc->ended || rl_api_output_pending(&enc->out))
        return -EAGAIN;
    len = (int) enc->out.tag_len;
    if ((size_t) len > cap)
        return -ENOSPC;
    memcpy(buf, enc->out.tag, (size_t) len);
    if (offset)
        *offset = enc->out.tag_offset;
    return len;
}
