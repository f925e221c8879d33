/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the I/O scheduler's shared part: block pool, output queue, request selection and
 * the consumer/producer calls (the backends run the requests). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io_sched_impl.h"
#include "mp3_writer.h"

#define DEFAULT_BLOCKS   6
#define DEFAULT_OUT      (1u << 20)
#define WRITE_CHUNK      (256u << 10)

static void set_err(char *err, size_t errlen, const char *msg, int e)
{
    if (err && errlen)
        snprintf(err, errlen, "%s: %s", msg, strerror(e));
}

static void wake_io(RlIoSched *s)
{
    if (s->backend == RL_IO_URING)
        rl_io__uring_wake(s);
    else
        rl_io__thread_wake(s);
}

/* ---------- request selection and completion (mu held) ---------- */

static IoReq *alloc_req(RlIoSched *s)
{
    int i;
    for (i = 0; i < IO_MAX_REQ; i++)
        if (!s->reqs[i].active) {
            memset(&s->reqs[i], 0, sizeof s->reqs[i]);
            s->reqs[i].active = 1;
            return &s->reqs[i];
        }
    return NULL;
}

static int next_write(RlIoSched *s, IoReq **out)
{
    uint64_t pending = s->oq - s->oiss;
    size_t at, len;
    IoReq *rq;

    if (pending == 0 || s->out_err || s->writes_inflight >= s->max_writes)
        return 0;
    /* gather small frames into larger writes unless the end is near */
    if (pending < s->othresh && !s->finishing)
        return 0;
    rq = alloc_req(s);
    if (!rq)
        return 0;
    at = (size_t)(s->oiss % s->ocap);
    len = s->ocap - at;
    if (len > pending)
        len = (size_t)pending;
    if (len > WRITE_CHUNK)
        len = WRITE_CHUNK;
    rq->kind = REQ_WRITE;
    rq->fd = s->out_fd;
    rq->buf = s->obuf + at;
    rq->len = len;
    rq->qpos = s->oiss;
    rq->off = s->out_seekable ? s->out_base + (int64_t)s->oiss : -1;
    s->oiss += len;
    s->writes_inflight++;
    *out = rq;
    return 1;
}

/* Frames of raw block seq (the stream has lay.frames frames). */
static int raw_block_frames(const RlIoSched *s, int64_t seq)
{
    int64_t left = s->lay.frames - seq * s->block_frames;
    if (left <= 0)
        return 0;
    return left < s->block_frames ? (int)left : s->block_frames;
}

static int next_read(RlIoSched *s, IoReq **out)
{
    IoSlot *sl;
    IoReq *rq;
    int64_t seq = s->issue_seq;

    /* (after finish began nobody takes blocks any more: read nothing new) */
    if (s->in_err || s->finishing || (s->last_seq >= 0 && seq > s->last_seq) ||
        s->reads_inflight >= s->max_reads)
        return 0;
    sl = &s->slots[seq % s->nslots];
    if (sl->state != SLOT_FREE)
        return 0;
    memset(&sl->blk, 0, sizeof sl->blk);
    sl->blk.data = sl->buf;
    sl->blk.first_frame = seq * s->block_frames;
    sl->blk.fmt = s->fmt;
    sl->blk.channels = s->channels;
    sl->blk.frame_bytes = s->frame_bytes;
    sl->seq = seq;
    if (s->raw) {
        int n = raw_block_frames(s, seq);
        sl->blk.eof = seq == s->last_seq;
        /* (the last block also reads the lone sample after the last frame:
         * rl_io__complete shifts LAME's last read by it, see raw_layout.h) */
        if (n == 0) {                     /* empty stream: an empty eof block */
            sl->state = SLOT_READY;
            s->issue_seq++;
            s->notify_pending = 1;
            return 0;
        }
        sl->blk.nframes = n;
    }
    rq = alloc_req(s);
    if (!rq)
        return 0;
    sl->state = SLOT_READING;
    rq->kind = s->raw ? REQ_READ : REQ_DECODE;
    rq->slot = (int)(seq % s->nslots);
    rq->fd = s->in_fd;
    rq->buf = sl->buf;
    rq->len = s->raw ? (size_t)sl->blk.nframes * (size_t)s->frame_bytes : (size_t)s->block_frames;
    if (s->raw && sl->blk.eof && s->lay.shift_frames > 0)
        rq->len += (size_t)rl_raw_sample_bytes(s->fmt);
    rq->off = s->raw ? s->lay.data_offset + sl->blk.first_frame * s->frame_bytes : 0;
    s->issue_seq++;
    s->reads_inflight++;
    if (s->reads_inflight > s->st.max_reads_in_flight)
        s->st.max_reads_in_flight = s->reads_inflight;
    *out = rq;
    return 1;
}

int rl_io__next_req(RlIoSched *s, IoReq **out)
{
    if (s->cancel)
        return 0;
    if (next_write(s, out) || next_read(s, out))
        return 1;
    /* the end: every byte written, or a write error (no more writes will
     * come: the bytes still queued are dropped) */
    if (s->finishing && !s->tag_done && s->writes_inflight == 0
        && (s->oiss == s->oq || s->out_err)) {
        IoReq *rq;
        if (s->taglen == 0 || !s->out_seekable || s->out_err) {
            s->tag_done = 1;
            return 0;
        }
        rq = alloc_req(s);
        if (!rq)
            return 0;
        rq->kind = REQ_TAG;
        rq->fd = s->out_fd;
        rq->buf = s->tag;
        rq->len = s->taglen;
        rq->off = s->tag_off;
        s->writes_inflight++;
        *out = rq;
        return 1;
    }
    return 0;
}

static void finish_write(RlIoSched *s, IoReq *rq)
{
    uint64_t low = s->oiss;
    int i;
    rq->active = 0;
    s->writes_inflight--;
    if (rq->kind == REQ_TAG) {
        s->tag_done = 1;
        return;
    }
    /* free the queue up to the oldest write still in flight */
    for (i = 0; i < IO_MAX_REQ; i++)
        if (s->reqs[i].active && s->reqs[i].kind == REQ_WRITE && s->reqs[i].qpos < low)
            low = s->reqs[i].qpos;
    if (low > s->odone) {
        s->st.out_bytes += (int64_t)(low - s->odone);
        s->odone = low;
        pthread_cond_broadcast(&s->user_cv);
        s->notify_pending = 1;
    }
}

int rl_io__complete(RlIoSched *s, IoReq *rq, long res)
{
    if (rq->kind == REQ_WRITE || rq->kind == REQ_TAG) {
        if (res < 0 || (res == 0 && rq->len > rq->done)) {
            if (!s->out_err)
                s->out_err = res < 0 ? (int)res : -EIO;
            /* drop what is queued: nothing more will be written */
            s->oiss = s->oq;
            finish_write(s, rq);
            s->odone = s->oq;
            pthread_cond_broadcast(&s->user_cv);
            s->notify_pending = 1;
            return 0;
        }
        rq->done += (size_t)res;
        if (rq->done < rq->len)
            return 1;                     /* short write: the rest */
        finish_write(s, rq);
        return 0;
    } else {
        IoSlot *sl = &s->slots[rq->slot];
        int done_now = 1;
        if (res < 0) {
            if (!s->in_err)
                s->in_err = (int)res;
            sl->state = SLOT_FREE;
            s->notify_pending = 1;
            rq->active = 0;
            s->reads_inflight--;
            return 0;
        }
        if (rq->kind == REQ_DECODE) {
            sl->blk.nframes = (int)res;
            sl->blk.eof = res < s->block_frames;
            s->st.in_bytes += res * (long)s->channels * 4;
        } else if (res == 0) {
            /* the file got shorter since it was opened: end here */
            sl->blk.nframes = (int)(rq->done / (size_t)s->frame_bytes);
            sl->blk.eof = 1;
        } else {
            rq->done += (size_t)res;
            s->st.in_bytes += res;
            done_now = rq->done >= rq->len;
        }
        if (!done_now)
            return 1;                     /* short read: the rest */
        if (rq->kind == REQ_READ && sl->blk.eof && s->lay.shift_frames > 0 && rq->done == rq->len &&
            rq->len > (size_t)sl->blk.nframes * (size_t)s->frame_bytes) {
            /* LAME's last read: a whole number of frames plus one sample,
             * kept from the end: every value moves one sample on */
            size_t const bps = (size_t)rl_raw_sample_bytes(s->fmt);
            size_t const len = (size_t)s->lay.shift_frames * (size_t)s->frame_bytes;
            uint8_t *p = sl->buf + rq->len - bps - len;
            memmove(p, p + bps, len);
        }
        if (sl->blk.eof && (s->last_seq < 0 || sl->seq < s->last_seq))
            s->last_seq = sl->seq;
        sl->state = SLOT_READY;
        s->notify_pending = 1;
        rq->active = 0;
        s->reads_inflight--;
        return 0;
    }
}

static long run_sync(RlIoSched *s, IoReq *rq)
{
    ssize_t r;
    for (;;) {
        switch (rq->kind) {
        case REQ_DECODE:
            return rl_pcm_read(s->in, (int32_t *)(void *)rq->buf, (int)rq->len);
        case REQ_READ:
            r = pread(rq->fd, rq->buf + rq->done, rq->len - rq->done, (off_t)(rq->off + (int64_t)rq->done));
            break;
        default:
            if (rq->off < 0)
                r = write(rq->fd, rq->buf + rq->done, rq->len - rq->done);
            else
                r = pwrite(rq->fd, rq->buf + rq->done, rq->len - rq->done, (off_t)(rq->off + (int64_t)rq->done));
            break;
        }
        if (r < 0 && errno == EINTR)
            continue;
        return r < 0 ? -errno : (long)r;
    }
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

long rl_io__run_sync(RlIoSched *s, IoReq *rq)
{
    double t0;
    long res;

    if (!s->trace)
        return run_sync(s, rq);
    t0 = mono_s();
    res = run_sync(s, rq);
    s->trace(s->trace_arg, rq->kind == REQ_DECODE ? RL_IO_TRACE_DECODE
                           : rq->kind == REQ_READ ? RL_IO_TRACE_READ : RL_IO_TRACE_WRITE,
             t0, mono_s(), res);
    return res;
}

int rl_io__should_exit(const RlIoSched *s)
{
    if (s->reads_inflight || s->writes_inflight)
        return 0;                         /* never leave the kernel writing into freed memory */
    return s->cancel || (s->finishing && s->tag_done);
}

int rl_io__flush_notify(RlIoSched *s)
{
    if (s->notify_pending) {
        s->notify_pending = 0;
        if (s->notify) {
            pthread_mutex_unlock(&s->mu);
            s->notify(s->notify_arg);
            pthread_mutex_lock(&s->mu);
            return 1;
        }
    }
    return 0;
}

void rl_io__thread_exit(RlIoSched *s)
{
    s->stopped = 1;
    pthread_cond_broadcast(&s->user_cv);
    s->notify_pending = 1;
    rl_io__flush_notify(s);
    pthread_mutex_unlock(&s->mu);
}

/* ---------- setup ---------- */

static void free_sched(RlIoSched *s)
{
    int i;
    if (s->backend == RL_IO_URING)
        rl_io__uring_free(s);
    if (!s->buffers_lent) {   /* else the kernel may still use them: left allocated */
        if (s->slots)
            for (i = 0; i < s->nslots; i++)
                free(s->slots[i].buf);
        free(s->obuf);
        free(s->tag);
    }
    free(s->slots);
    if (s->in_fd >= 0)
        close(s->in_fd);
    pthread_cond_destroy(&s->io_cv);
    pthread_cond_destroy(&s->user_cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* The lock and condition variables, all or none: 0 or an errno. */
static int sync_init(RlIoSched *s)
{
    int rc = pthread_mutex_init(&s->mu, NULL);
    if (rc != 0)
        return rc;
    rc = pthread_cond_init(&s->io_cv, NULL);
    if (rc != 0) {
        pthread_mutex_destroy(&s->mu);
        return rc;
    }
    rc = pthread_cond_init(&s->user_cv, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&s->io_cv);
        pthread_mutex_destroy(&s->mu);
    }
    return rc;
}

int rl_io_start(RlIoSched **io, RlPcmReader *in, RlMp3Writer *out, const RlIoParams *p,
                char *err, size_t errlen)
{
    RlIoSched *s;
    int rc, i;

    if (!io || !in || !out || !p || p->frame_size <= 0) {
        set_err(err, errlen, "I/O scheduler", EINVAL);
        return -EINVAL;
    }
    *io = NULL;
    s = calloc(1, sizeof *s);
    if (!s) {
        set_err(err, errlen, "I/O scheduler", ENOMEM);
        return -ENOMEM;
    }
    rc = sync_init(s);
    if (rc != 0) {
        set_err(err, errlen, "I/O scheduler", rc);
        free(s);
        return -rc;
    }
    s->in_fd = -1;
    s->in = in;
    s->last_seq = -1;
    s->notify = p->notify;
    s->notify_arg = p->notify_arg;
    s->trace = p->trace;
    s->trace_arg = p->trace_arg;
    s->block_frames = p->block_frames > 0 ? p->block_frames : 32 * p->frame_size;
    if (s->block_frames % p->frame_size != 0) {
        set_err(err, errlen, "I/O scheduler: block size", EINVAL);
        free_sched(s);
        return -EINVAL;
    }
    s->nslots = p->max_in_blocks >= 2 ? p->max_in_blocks : DEFAULT_BLOCKS;
    s->backend = RL_IO_THREAD;

    /* input: direct reads where the bytes are the samples, else decode */
    rc = rl_raw_layout_probe(in, &s->lay);
    if (rc < 0) {
        if (p->failed_side)
            *p->failed_side = RL_IO_SIDE_INPUT;
        set_err(err, errlen, "input", -rc);
        free_sched(s);
        return rc;
    }
    s->channels = rl_pcm_channels(in);
    if (rc == 1) {
        s->in_fd = open(s->lay.path, O_RDONLY | O_CLOEXEC);
        if (s->in_fd >= 0) {
            s->raw = 1;
            s->fmt = s->lay.fmt;
            s->frame_bytes = s->lay.frame_bytes;
            s->last_seq = s->lay.frames == 0 ? 0 : (s->lay.frames - 1) / s->block_frames;
            /* blocks are whole reads of LAME's front end (block_frames is
             * a multiple of frame_size): its last read is in the last block */
            rl_raw_layout_set_read_size(&s->lay, p->frame_size);
        }
    }
    if (!s->raw) {
        s->fmt = RL_SF_I32;
        s->frame_bytes = s->channels * 4;
        /* a block is block_frames / frame_size reads of LAME's front end */
        rl_pcm_set_read_size(in, p->frame_size);
    }
    s->st.raw_input = s->raw;
    s->slot_bytes = (size_t)s->block_frames * (size_t)s->frame_bytes;
    s->slots = calloc((size_t)s->nslots, sizeof *s->slots);
    if (!s->slots) {
        free_sched(s);
        set_err(err, errlen, "I/O scheduler", ENOMEM);
        return -ENOMEM;
    }
    for (i = 0; i < s->nslots; i++) {
        void *b = NULL;
        /* page-aligned: cheap for the kernel's copy, ready for O_DIRECT */
        if (posix_memalign(&b, 4096, s->slot_bytes) != 0) {
            free_sched(s);
            set_err(err, errlen, "I/O scheduler", ENOMEM);
            return -ENOMEM;
        }
        s->slots[i].buf = b;
    }

    /* output */
    s->ocap = p->max_out_bytes > 0 ? p->max_out_bytes : DEFAULT_OUT;
    if (s->ocap < 4096)
        s->ocap = 4096;
    s->othresh = s->ocap / 4 < 65536 ? s->ocap / 4 : 65536;
    s->obuf = malloc(s->ocap);
    if (!s->obuf) {
        free_sched(s);
        set_err(err, errlen, "I/O scheduler", ENOMEM);
        return -ENOMEM;
    }
    rc = rl_mp3_take_fd(out);
    if (rc < 0) {
        if (p->failed_side)
            *p->failed_side = RL_IO_SIDE_OUTPUT;
        set_err(err, errlen, "output", -rc);
        free_sched(s);
        return rc;
    }
    s->out_fd = rc;
    s->out_seekable = rl_mp3_is_seekable(out);
    if (s->out_seekable) {
        off_t pos = lseek(s->out_fd, 0, SEEK_CUR);
        if (pos < 0)
            s->out_seekable = 0;
        else
            s->out_base = pos;
    }

    /* backend */
    if (p->backend != RL_IO_THREAD) {
        rc = rl_io__uring_init(s);
        if (rc == 0)
            s->backend = RL_IO_URING;
        else if (p->backend == RL_IO_URING) {
            set_err(err, errlen, "io_uring", -rc);
            free_sched(s);
            return rc;
        }
    }
    if (s->backend == RL_IO_URING) {
        s->max_reads = s->nslots - 1 < 4 ? s->nslots - 1 : 4;
        s->max_writes = s->out_seekable ? 2 : 1;
    } else {
        s->max_reads = 1;
        s->max_writes = 1;
    }
    rc = pthread_create(&s->thr, NULL,
                        s->backend == RL_IO_URING ? rl_io__uring_main : rl_io__thread_main, s);
    if (rc != 0) {
        set_err(err, errlen, "I/O thread", rc);
        free_sched(s);
        return -rc;
    }
    s->thr_started = 1;
    *io = s;
    return 0;
}

RlIoBackend rl_io_backend(const RlIoSched *io)
{
    return io->backend;
}

/* ---------- consumer (Dispatch) ---------- */

int rl_io_in_next(RlIoSched *s, const RlInBlock **blk)
{
    IoSlot *sl;
    int ret = 0;
    pthread_mutex_lock(&s->mu);
    sl = &s->slots[s->deliver_seq % s->nslots];
    if (s->cancel)
        ret = s->in_err ? s->in_err : -ECANCELED;   /* a failed ring says why */
    else if (sl->state == SLOT_READY && sl->seq == s->deliver_seq) {
        sl->state = SLOT_HELD;
        *blk = &sl->blk;
        s->deliver_seq++;
        ret = 1;
    } else if (s->in_err)
        ret = s->in_err;
    pthread_mutex_unlock(&s->mu);
    return ret;
}

void rl_io_in_release(RlIoSched *s, const RlInBlock *blk)
{
    int i;
    pthread_mutex_lock(&s->mu);
    for (i = 0; i < s->nslots; i++)
        if (&s->slots[i].blk == blk && s->slots[i].state == SLOT_HELD) {
            s->slots[i].state = SLOT_FREE;
            wake_io(s);
            break;
        }
    pthread_mutex_unlock(&s->mu);
}

/* ---------- producer (Encode) ---------- */

int rl_io_out_space(const RlIoSched *cs, size_t n)
{
    RlIoSched *s = (RlIoSched *)cs;   /* the lock is not part of the logical state */
    size_t used;
    int ok;
    pthread_mutex_lock(&s->mu);
    used = (size_t)(s->oq - s->odone);
    ok = n <= s->ocap ? n <= s->ocap - used : used == 0;
    if (s->out_err || s->cancel)
        ok = 1;                        /* the write will not block: it fails */
    pthread_mutex_unlock(&s->mu);
    return ok;
}

int rl_io_out_write(RlIoSched *s, const uint8_t *p, size_t n)
{
    int ret = 0;
    pthread_mutex_lock(&s->mu);
    while (n > 0) {
        size_t room, at, c;
        if (s->cancel) {
            ret = s->out_err ? s->out_err : -ECANCELED;
            break;
        }
        if (s->out_err) {
            ret = s->out_err;
            break;
        }
        room = s->ocap - (size_t)(s->oq - s->odone);
        if (room == 0) {
            wake_io(s);
            pthread_cond_wait(&s->user_cv, &s->mu);
            continue;
        }
        at = (size_t)(s->oq % s->ocap);
        c = n < room ? n : room;
        if (c > s->ocap - at)
            c = s->ocap - at;
        memcpy(s->obuf + at, p, c);
        s->oq += c;
        p += c;
        n -= c;
        if (s->oq - s->oiss >= s->othresh)
            wake_io(s);
    }
    pthread_mutex_unlock(&s->mu);
    return ret;
}

/* ---------- the end ---------- */

static void stop_and_free(RlIoSched *s)
{
    if (s->thr_started)
        pthread_join(s->thr, NULL);
    free_sched(s);
}

int rl_io_finish(RlIoSched *s, const uint8_t *tag, size_t taglen, uint64_t offset)
{
    int ret;
    pthread_mutex_lock(&s->mu);
    s->tag_off = offset;
    if (taglen > 0 && tag) {
        s->tag = malloc(taglen);
        if (s->tag) {
            memcpy(s->tag, tag, taglen);
            s->taglen = taglen;
        } else if (!s->out_err) {
            s->out_err = -ENOMEM;
        }
    }
    s->finishing = 1;
    wake_io(s);
    while (!s->stopped)
        pthread_cond_wait(&s->user_cv, &s->mu);
    ret = s->out_err ? s->out_err : s->in_err ? s->in_err : s->cancel ? -ECANCELED : 0;
    pthread_mutex_unlock(&s->mu);
    /* leave the file position after the last byte, as plain writes would */
    if (s->out_seekable && ret == 0)
        (void)lseek(s->out_fd, (off_t)(s->out_base + (int64_t)s->oq), SEEK_SET);
    stop_and_free(s);
    return ret;
}

void rl_io_cancel(RlIoSched *s)
{
    pthread_mutex_lock(&s->mu);
    s->cancel = 1;
    wake_io(s);
    pthread_cond_broadcast(&s->user_cv);
    pthread_mutex_unlock(&s->mu);
}

void rl_io_abort(RlIoSched *s)
{
    if (!s)
        return;
    rl_io_cancel(s);
    stop_and_free(s);
}

void rl_io_stats(const RlIoSched *cs, RlIoStats *st)
{
    RlIoSched *s = (RlIoSched *)cs;
    pthread_mutex_lock(&s->mu);
    *st = s->st;
    pthread_mutex_unlock(&s->mu);
}
