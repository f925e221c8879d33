/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: the I/O scheduler (both backends): blocks read straight from WAV/AIFF/raw
 * files (or decoded) convert to exactly rl_pcm_read's int32 stream; rl_dispatch_feed_block queues
 * the same floats as rl_dispatch_feed; output comes out in order with the tag at offset 0, also
 * through a pipe; abort/cancel leave no thread behind. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifdef RL_TEST_HAVE_URING
#include <liburing.h>
#endif
#include <sndfile.h>

#include "harness.h"

#include "dispatch.h"
#include "io_sched.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "rl_encoder.h"

static char tmpdir[256];

/* the test data: seeded from RL_TEST_SEED (default 12345) in main */
static uint32_t rng;
static uint32_t next_rand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *de;
    int n = 0;
    if (!d)
        return -1;
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

/* notify callback: counts calls */
static pthread_mutex_t nmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ncv = PTHREAD_COND_INITIALIZER;
static long notifications;
static void on_notify(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&nmu);
    notifications++;
    pthread_cond_broadcast(&ncv);
    pthread_mutex_unlock(&nmu);
}

/* Waits for the next block: returns rl_io_in_next's result, never 0. */
static int next_block(RlIoSched *io, const RlInBlock **b)
{
    for (;;) {
        long seen;
        int rc;
        pthread_mutex_lock(&nmu);
        seen = notifications;
        pthread_mutex_unlock(&nmu);
        rc = rl_io_in_next(io, b);
        if (rc != 0)
            return rc;
        pthread_mutex_lock(&nmu);
        while (notifications == seen)   /* a block arriving always notifies */
            pthread_cond_wait(&ncv, &nmu);
        pthread_mutex_unlock(&nmu);
    }
}

/* ---------- test files ---------- */

typedef struct Case {
    const char *name;
    int format;        /* SF format, or 0 for a headerless -r file */
    int raw_bits, raw_be;
    int expect_raw;    /* 1: direct reads expected */
} Case;

static const Case cases[] = {
    { "wav-s16", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 0, 0, 1 },
    { "wav-s24", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 0, 0, 1 },
    { "wav-s32", SF_FORMAT_WAV | SF_FORMAT_PCM_32, 0, 0, 1 },
    { "wav-u8",  SF_FORMAT_WAV | SF_FORMAT_PCM_U8, 0, 0, 1 },
    { "aiff-s16", SF_FORMAT_AIFF | SF_FORMAT_PCM_16, 0, 0, 1 },
    { "aiff-s24", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, 0, 0, 1 },
    { "aiff-s8",  SF_FORMAT_AIFF | SF_FORMAT_PCM_S8, 0, 0, 1 },
    { "aifc-sowt-s16", SF_FORMAT_AIFF | SF_FORMAT_PCM_16 | SF_ENDIAN_LITTLE, 0, 0, 1 },
    { "wavex-s24", SF_FORMAT_WAVEX | SF_FORMAT_PCM_24, 0, 0, 1 },
    { "au-s16", SF_FORMAT_AU | SF_FORMAT_PCM_16, 0, 0, 1 },
    { "au-s32-le", SF_FORMAT_AU | SF_FORMAT_PCM_32 | SF_ENDIAN_LITTLE, 0, 0, 1 },
    { "raw-s16be", 0, 16, 1, 1 },
    { "raw-s32le", 0, 32, 0, 1 },
    { "raw-s24le", 0, 24, 0, 1 },
    { "flac-s16", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 0, 0, 0 },
    { "wav-float", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 0, 0, 0 },
};

/* Writes n frames of random samples; returns 0 on success. */
static int make_file(const char *path, const Case *c, int ch, long n)
{
    long i;
    if (c->format == 0) {
        FILE *fp = fopen(path, "wb");
        long bytes = n * ch * (c->raw_bits / 8);
        if (!fp)
            return -1;
        for (i = 0; i < bytes; i++)
            fputc((int)(next_rand() & 0xFF), fp);
        return fclose(fp);
    } else {
        SF_INFO info;
        SNDFILE *sf;
        memset(&info, 0, sizeof info);
        info.samplerate = 44100;
        info.channels = ch;
        info.format = c->format;
        sf = sf_open(path, SFM_WRITE, &info);
        if (!sf)
            return -1;
        if ((c->format & SF_FORMAT_SUBMASK) == SF_FORMAT_FLOAT) {
            float *buf = malloc(sizeof(float) * (size_t)(n * ch + 1));
            for (i = 0; i < n * ch; i++)
                buf[i] = ((float)(next_rand() % 20001) - 10000.0f) / 16384.0f;
            sf_write_float(sf, buf, n * ch);
            free(buf);
        } else {
            int32_t *buf = malloc(sizeof(int32_t) * (size_t)(n * ch + 1));
            for (i = 0; i < n * ch; i++)
                buf[i] = (int32_t)(next_rand() << 8 ^ next_rand());
            /* FLAC keeps 16 bits: the top ones after libsndfile's scaling */
            sf_write_int(sf, buf, n * ch);
            free(buf);
        }
        return sf_close(sf);
    }
}

static int open_reader(RlPcmReader **r, const char *path, const Case *c, int ch)
{
    RlRawFormat raw;
    char err[256];
    memset(&raw, 0, sizeof raw);
    if (c->format == 0) {
        raw.enabled = 1;
        raw.samplerate = 44100;
        raw.channels = ch;
        raw.bitwidth = c->raw_bits;
        raw.is_signed = -1;
        raw.big_endian = c->raw_be;
    }
    return rl_pcm_open(r, path, c->format == 0 ? &raw : NULL, err, sizeof err);
}

/* Float queue equality of rl_dispatch_feed_block vs rl_dispatch_feed. */
static void init_dispatch(RlEncoder *e, int ch)
{
    e->k.cfg.channels_in = e->k.cfg.channels_out = ch;
    e->k.cfg.mode_gr = 2;
    e->k.cfg.samplerate_in = e->k.cfg.samplerate_out = 44100;
    e->k.cfg.frame_size = 1152;
    /* a matrix with every term non-zero and inexact scales */
    e->k.cfg.pcm_transform[0][0] = 0.7f;
    e->k.cfg.pcm_transform[0][1] = 0.3f;
    e->k.cfg.pcm_transform[1][0] = -0.25f;
    e->k.cfg.pcm_transform[1][1] = 1.1f;
    /* the kernels of the CPU's level: the 16-bit block path then runs the
     * SIMD conversion, which must queue the floats of the int32 path */
    e->k.cfg.dsp = rl_dsp_table_at(rl_cpu_simd_level());
    rl_dispatch_init(&e->k, &e->dispatch);
}

static void drain(RlEncoder *e, RlFrame *f)
{
    while (rl_dispatch_next(&e->k, &e->dispatch, &e->rg, f) > 0) {
    }
}

/* One file through the scheduler, compared with a second reader. */
static void run_read_case(const Case *c, int ch, long n, RlIoBackend backend, int frame_size, int block_frames,
                          int with_dispatch)
{
    char path[512], err[256];
    RlPcmReader *rin = NULL, *rref = NULL;
    RlMp3Writer *w = NULL;
    RlIoSched *io = NULL;
    RlIoParams p;
    RlIoStats st;
    const RlInBlock *b;
    int32_t *got = NULL, *want = NULL;
    RlEncoder *e1 = NULL, *e2 = NULL;
    RlFrame *f = NULL;
    int64_t frames = 0;
    int rc, ok = 1, order_ok = 1, disp_ok = 1, eof_seen = 0;

    snprintf(path, sizeof path, "%s/%s-%d-%ld.%s", tmpdir, c->name, ch, n,
             c->format == 0 ? "raw" : (c->format & SF_FORMAT_TYPEMASK) == SF_FORMAT_AIFF ? "aiff"
             : (c->format & SF_FORMAT_TYPEMASK) == SF_FORMAT_FLAC ? "flac"
             : (c->format & SF_FORMAT_TYPEMASK) == SF_FORMAT_AU ? "au" : "wav");
    if (getenv("UNIT_IO_VERBOSE"))
        fprintf(stderr, "case %s backend %d\n", path, backend);
    if ((c->format & SF_FORMAT_TYPEMASK) == SF_FORMAT_FLAC && n == 0)
        return;                     /* libsndfile writes no empty FLAC */
    if (make_file(path, c, ch, n) != 0 || open_reader(&rin, path, c, ch) != 0 ||
        open_reader(&rref, path, c, ch) != 0 || rl_mp3_open(&w, "/dev/null", err, sizeof err) != 0) {
        CHECK(0, "%s: setup", path);
        goto done;
    }
    memset(&p, 0, sizeof p);
    p.frame_size = frame_size;
    p.block_frames = block_frames;
    p.max_in_blocks = 3;
    p.backend = backend;
    p.notify = on_notify;
    rc = rl_io_start(&io, rin, w, &p, err, sizeof err);
    if (rc != 0) {
        CHECK(0, "%s: rl_io_start %d %s", path, rc, err);
        goto done;
    }
    CHECK(rl_io_backend(io) == backend, "%s: backend %d wanted %d", path, rl_io_backend(io), backend);
    got = malloc(sizeof(int32_t) * 2 * (size_t)block_frames);
    want = malloc(sizeof(int32_t) * 2 * (size_t)block_frames);
    if (with_dispatch) {
        e1 = calloc(1, sizeof *e1);
        e2 = calloc(1, sizeof *e2);
        f = calloc(1, sizeof *f);
        init_dispatch(e1, ch);
        init_dispatch(e2, ch);
    }
    while (!eof_seen && (rc = next_block(io, &b)) > 0) {
        int m;
        order_ok &= b->first_frame == frames && b->channels == ch;
        order_ok &= b->nframes == block_frames || b->eof;
        rl_raw_convert(b->data, b->fmt, got, (long)b->nframes * ch);
        m = rl_pcm_read(rref, want, b->nframes);
        ok &= m == b->nframes && memcmp(got, want, sizeof(int32_t) * (size_t)m * (size_t)ch) == 0;
        if (with_dispatch) {
            int off;
            for (off = 0; off < b->nframes; off += frame_size) {
                int k = b->nframes - off < frame_size ? b->nframes - off : frame_size;
                disp_ok &= rl_dispatch_feed_block(&e1->k, &e1->dispatch, &e1->rg, b, off, k) == 0;
                disp_ok &= rl_dispatch_feed(&e2->k, &e2->dispatch, &e2->rg, want + (size_t)off * ch, k) == 0;
                disp_ok &= e1->dispatch.in_len == k &&
                           memcmp(e1->dispatch.in_buf[0], e2->dispatch.in_buf[0], sizeof(float) * (size_t)k) == 0 &&
                           memcmp(e1->dispatch.in_buf[1], e2->dispatch.in_buf[1], sizeof(float) * (size_t)k) == 0;
                drain(e1, f);
                drain(e2, f);
            }
        }
        frames += b->nframes;
        eof_seen = b->eof;
        rl_io_in_release(io, b);
    }
    CHECK(rc > 0 && eof_seen, "%s: ended with eof (rc %d)", path, rc);
    CHECK(rl_pcm_read(rref, want, 16) == 0, "%s: reference also at its end", path);
    /* (8-bit mono AIFF of odd length: libsndfile counts the pad byte as a frame) */
    CHECK(frames == n || (n & 1), "%s: %lld frames, want %ld", path, (long long)frames, n);
    CHECK(ok, "%s backend %d: block samples == rl_pcm_read's", path, backend);
    CHECK(order_ok, "%s: blocks in order, full but the last", path);
    if (with_dispatch)
        CHECK(disp_ok, "%s: rl_dispatch_feed_block floats == rl_dispatch_feed", path);
    rl_io_stats(io, &st);
    CHECK(st.raw_input == c->expect_raw, "%s: direct reads %d, expected %d", path, st.raw_input, c->expect_raw);
    if (backend == RL_IO_URING && st.raw_input && n >= 3L * block_frames)
        CHECK(st.max_reads_in_flight >= 2, "%s: io_uring reads in flight %d", path, st.max_reads_in_flight);
    rc = rl_io_finish(io, NULL, 0, 0);
    CHECK(rc == 0, "%s: finish %d", path, rc);
done:
    if (e1) {
        rl_dispatch_free(&e1->dispatch);
        rl_dispatch_free(&e2->dispatch);
    }
    free(e1);
    free(e2);
    free(f);
    free(got);
    free(want);
    if (w)
        rl_mp3_close(w, 0);
    rl_pcm_close(rin);
    rl_pcm_close(rref);
    unlink(path);
}

/* ---------- output ---------- */

static uint8_t pattern_byte(uint64_t i) { return (uint8_t)(i * 2654435761u >> 13); }

/* Queues `total` pattern bytes in random chunk sizes after a placeholder. */
static int queue_pattern(RlIoSched *io, uint64_t total, size_t place)
{
    uint8_t chunk[5000];
    uint64_t pos = 0;
    memset(chunk, 0, place);
    if (rl_io_out_write(io, chunk, place) != 0)
        return -1;
    while (pos < total) {
        size_t k = 1 + next_rand() % sizeof chunk, i;
        if (k > total - pos)
            k = (size_t)(total - pos);
        for (i = 0; i < k; i++)
            chunk[i] = pattern_byte(pos + i);
        if (rl_io_out_write(io, chunk, k) != 0)
            return -1;
        pos += k;
    }
    return 0;
}

static RlIoSched *start_out(RlPcmReader **rin, RlMp3Writer *w, RlIoBackend backend, size_t cap, char *err)
{
    RlIoSched *io = NULL;
    RlIoParams p;
    Case c = { "out-in", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 0, 0, 1 };
    char path[512];
    snprintf(path, sizeof path, "%s/outin.wav", tmpdir);
    if (make_file(path, &c, 2, 100000) != 0 || open_reader(rin, path, &c, 2) != 0)
        return NULL;
    memset(&p, 0, sizeof p);
    p.frame_size = 1152;
    p.backend = backend;
    p.max_out_bytes = cap;
    p.notify = on_notify;
    if (rl_io_start(&io, *rin, w, &p, err, 256) != 0)
        return NULL;
    return io;
}

static void run_file_output(RlIoBackend backend)
{
    char path[512], err[256];
    RlMp3Writer *w = NULL;
    RlPcmReader *rin = NULL;
    RlIoSched *io;
    uint64_t total = 3000000, i;
    uint8_t tag[417];
    FILE *fp;
    int ok = 1, rc;

    snprintf(path, sizeof path, "%s/out-%d.mp3", tmpdir, backend);
    if (rl_mp3_open(&w, path, err, sizeof err) != 0) {
        CHECK(0, "open %s", path);
        return;
    }
    io = start_out(&rin, w, backend, 8192, err);
    if (!io) {
        CHECK(0, "start output %s", err);
        rl_mp3_close(w, 0);
        return;
    }
    CHECK(queue_pattern(io, total, sizeof tag) == 0, "backend %d: queued output", backend);
    memset(tag, 0xAB, sizeof tag);
    rc = rl_io_finish(io, tag, sizeof tag, 0);
    CHECK(rc == 0, "backend %d: finish with tag %d", backend, rc);
    CHECK(rl_mp3_close(w, 1) == 0, "backend %d: commit", backend);
    rl_pcm_close(rin);
    fp = fopen(path, "rb");
    if (!fp) {
        CHECK(0, "reopen %s", path);
        return;
    }
    for (i = 0; i < sizeof tag; i++)
        ok &= fgetc(fp) == 0xAB;
    for (i = 0; i < total; i++)
        ok &= fgetc(fp) == pattern_byte(i);
    ok &= fgetc(fp) == EOF;
    fclose(fp);
    CHECK(ok, "backend %d: file = tag + bytes in order", backend);
    unlink(path);
}

typedef struct PipeSink { int fd; uint8_t *buf; size_t len, cap; } PipeSink;
static void *pipe_reader(void *arg)
{
    PipeSink *s = arg;
    for (;;) {
        ssize_t r;
        if (s->len == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 65536;
            s->buf = realloc(s->buf, s->cap);
        }
        r = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (r <= 0)
            break;
        s->len += (size_t)r;
    }
    return NULL;
}

static void run_pipe_output(int backend)
{
    char path[64], err[256];
    int fds[2];
    RlMp3Writer *w = NULL;
    RlPcmReader *rin = NULL;
    RlIoSched *io;
    PipeSink sink = { 0, NULL, 0, 0 };
    pthread_t th;
    uint64_t total = 500000, i;
    uint8_t tag[417];
    int ok = 1, rc;

    if (pipe(fds) != 0)
        return;
    snprintf(path, sizeof path, "/dev/fd/%d", fds[1]);
    if (rl_mp3_open(&w, path, err, sizeof err) != 0) {
        CHECK(0, "open %s: %s", path, err);
        return;
    }
    close(fds[1]);      /* the writer holds its own descriptor */
    sink.fd = fds[0];
    pthread_create(&th, NULL, pipe_reader, &sink);
    io = start_out(&rin, w, backend, 4096, err);
    CHECK(io != NULL, "pipe: start %s", err);
    if (io) {
        CHECK(queue_pattern(io, total, sizeof tag) == 0, "pipe backend %d: queued", backend);
        memset(tag, 0xAB, sizeof tag);
        rc = rl_io_finish(io, tag, sizeof tag, 0);
        CHECK(rc == 0, "pipe backend %d: finish %d", backend, rc);
    }
    rl_mp3_close(w, 1);
    pthread_join(th, NULL);
    close(fds[0]);
    rl_pcm_close(rin);
    ok = sink.len == sizeof tag + total;
    for (i = 0; ok && i < sizeof tag; i++)
        ok &= sink.buf[i] == 0;          /* the placeholder stays: no seek on a pipe */
    for (i = 0; ok && i < total; i++)
        ok &= sink.buf[sizeof tag + i] == pattern_byte(i);
    CHECK(ok, "pipe backend %d: %zu bytes in order, no tag", backend, sink.len);
    free(sink.buf);
}

/* A failing output (/dev/full): the error reaches out_write and finish. */
static void run_write_error(int backend)
{
    char err[256];
    RlMp3Writer *w = NULL;
    RlPcmReader *rin = NULL;
    RlIoSched *io;
    static uint8_t chunk[4096];
    int i, rc = 0, frc;

    if (rl_mp3_open(&w, "/dev/full", err, sizeof err) != 0)
        return;                          /* no /dev/full here */
    io = start_out(&rin, w, backend, 16384, err);
    if (!io) {
        CHECK(0, "write error: start");
        rl_mp3_close(w, 0);
        return;
    }
    for (i = 0; i < 1000 && rc == 0; i++)
        rc = rl_io_out_write(io, chunk, sizeof chunk);
    frc = rl_io_finish(io, NULL, 0, 0);
    CHECK(rc == -ENOSPC && frc == -ENOSPC, "backend %d: /dev/full gives -ENOSPC (%d, %d)", backend, rc, frc);
    rl_mp3_close(w, 0);
    rl_pcm_close(rin);
}

/* ---------- abort ---------- */

typedef struct Blocked { RlIoSched *io; int rc; } Blocked;
static void *blocked_writer(void *arg)
{
    Blocked *b = arg;
    static uint8_t big[1 << 20];
    b->rc = rl_io_out_write(b->io, big, sizeof big);
    return NULL;
}

static void run_abort(int backend)
{
    char path[64], err[256];
    int fds[2], before = count_threads(), during, after;
    RlMp3Writer *w = NULL;
    RlPcmReader *rin = NULL;
    RlIoSched *io;
    const RlInBlock *b;
    Blocked bl;
    pthread_t th;

    /* a pipe nobody reads: the writer fills it and blocks */
    if (pipe(fds) != 0)
        return;
    snprintf(path, sizeof path, "/dev/fd/%d", fds[1]);
    if (rl_mp3_open(&w, path, err, sizeof err) != 0)
        return;
    close(fds[1]);
    io = start_out(&rin, w, backend, 65536, err);
    if (!io) {
        CHECK(0, "abort: start");
        return;
    }
    during = count_threads();
    CHECK(next_block(io, &b) == 1, "abort backend %d: a first block", backend);
    rl_io_in_release(io, b);
    bl.io = io;
    bl.rc = 0;
    pthread_create(&th, NULL, blocked_writer, &bl);
    usleep(50000);
    rl_io_cancel(io);
    pthread_join(th, NULL);
    CHECK(bl.rc == -ECANCELED, "abort backend %d: blocked writer cancelled (%d)", backend, bl.rc);
    CHECK(rl_io_in_next(io, &b) == -ECANCELED, "abort backend %d: input cancelled", backend);
    /* the I/O thread may sit in write() on the full pipe: closing the read end frees it */
    close(fds[0]);
    rl_io_abort(io);
    after = count_threads();
    CHECK(during == before + 1 && after == before, "abort backend %d: threads %d -> %d -> %d",
          backend, before, during, after);
    rl_mp3_close(w, 0);
    rl_pcm_close(rin);
}

/* io_uring refused (as under a container's seccomp profile): in a child
 * process whose io_uring_setup fails with EPERM, auto falls back to the
 * thread backend and io_uring-only fails cleanly. */
static void run_fallback(void)
{
#ifdef __NR_io_uring_setup
    pid_t pid = fork();
    int status = 0;
    if (pid == 0) {
        struct sock_filter prog[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog fp = { (unsigned short)(sizeof prog / sizeof prog[0]), prog };
        char err[256];
        RlMp3Writer *w = NULL;
        RlPcmReader *rin = NULL;
        RlIoSched *io;
        int code = 0;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) != 0)
            _exit(3);                               /* cannot test here */
        rl_mp3_open(&w, "/dev/null", err, sizeof err);
        io = start_out(&rin, w, RL_IO_AUTO, 0, err);
        if (!io || rl_io_backend(io) != RL_IO_THREAD)
            code = 1;
        if (io)
            rl_io_finish(io, NULL, 0, 0);
        rl_pcm_close(rin);
        rin = NULL;
        io = start_out(&rin, w, RL_IO_URING, 0, err);
        if (io) {
            code = 2;
            rl_io_abort(io);
        }
        rl_pcm_close(rin);
        rl_mp3_close(w, 0);
        _exit(code);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
        printf("seccomp unavailable: fallback not tested\n");
        return;
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "io_uring refused (EPERM): auto -> thread backend, io_uring-only fails (child status %d)", status);
#endif
}

int main(void)
{
    static const long lengths[] = { 0, 1, 4097, 3 * 384 + 7 };
#ifdef RL_TEST_HAVE_URING
    struct io_uring ring;
#endif
    int have_uring = 0, nb = 0, bi;
    RlIoBackend backends[2];
    size_t ci, li;

    signal(SIGPIPE, SIG_IGN);   /* the abort test closes a pipe under a blocked write() */
    rng = (uint32_t)rl_test_seed(12345);
    if (rl_test_tmpdir(tmpdir, sizeof tmpdir, "unit-io") != 0)
        rl_test_fatal("cannot create a temporary directory");
#ifdef RL_TEST_HAVE_URING   /* a build without liburing has the thread backend only */
    have_uring = io_uring_queue_init(4, &ring, 0) == 0;
    if (have_uring)
        io_uring_queue_exit(&ring);
#endif
    backends[nb++] = RL_IO_THREAD;
    if (have_uring)
        backends[nb++] = RL_IO_URING;
    printf("io_uring %s here\n", have_uring ? "available: both backends tested" : "unavailable: thread backend only");

    /* auto picks io_uring where it works */
    {
        char err[256];
        RlMp3Writer *w = NULL;
        RlPcmReader *rin = NULL;
        RlIoSched *io;
        rl_mp3_open(&w, "/dev/null", err, sizeof err);
        io = start_out(&rin, w, RL_IO_AUTO, 0, err);
        CHECK(io != NULL, "auto start");
        if (io) {
            printf("rl_io_backend (auto) = %d (%s)\n", rl_io_backend(io),
                   rl_io_backend(io) == RL_IO_URING ? "io_uring" : "thread");
            CHECK(rl_io_backend(io) == (have_uring ? RL_IO_URING : RL_IO_THREAD), "auto backend");
            rl_io_finish(io, NULL, 0, 0);
        }
        rl_mp3_close(w, 0);
        rl_pcm_close(rin);
    }

    run_fallback();
    for (bi = 0; bi < nb; bi++)
        for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
            for (li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
                int ch;
                for (ch = 1; ch <= 2; ch++)
                    /* tiny blocks: many blocks and reads in flight; dispatch check on one backend */
                    run_read_case(&cases[ci], ch, lengths[li], backends[bi], 128, 384, bi == 0);
            }
    /* real block size, long file */
    for (bi = 0; bi < nb; bi++) {
        run_read_case(&cases[0], 2, 200000, backends[bi], 1152, 32 * 1152, 1);
        run_read_case(&cases[14], 2, 100000, backends[bi], 1152, 32 * 1152, 0);   /* flac */
    }
    for (bi = 0; bi < nb; bi++) {
        run_file_output(backends[bi]);
        run_pipe_output(backends[bi]);
        run_write_error(backends[bi]);
        run_abort(backends[bi]);
    }
    rl_test_rmtree(tmpdir);
    return rl_test_done();
}
