/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the driver (batch.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "batch_manifest.h"
#include "batch_plan.h"
#include "batch_progress.h"
#include "batch_walk.h"
#include "compare_run.h"
#include "executor.h"
#include "pcm_reader.h"
#include "progress.h"
#include "ring.h"
#include "session_files.h"
#include "sha256.h"
#include "signals.h"

#define EXIT_USAGE 1
#define EXIT_IO    2
/* Files in flight: one per thread, at most this many (each its own ring). */
#define MAX_IN_FLIGHT 64
/* A ring's frame records are sized for this many threads, or for its share
 * of the threads when that is larger: the batch holds T rings of a few
 * records each, not T rings sized for all T threads. */
#define RING_SIZE_THREADS 4
#define MAX_STALLED   4             /* files given up on before the batch stops */
#define MAX_SLOTS     (MAX_IN_FLIGHT + MAX_STALLED)
#define STALL_DEFAULT_S 120.0       /* --stall-timeout's default */
#define STOP_GRACE_S  2.0           /* after a signal: files in flight get this long to drain */
#define MANIFEST_NAME ".ringlame-manifest.jsonl"

struct Batch;

typedef struct Slot {
    struct Batch *b;
    pthread_t th;
    int started;
    /* the file in flight (under b->lock), and its ring's progress */
    const RlBatchItem *item;
    int active;
    int watched;                /* opening or encoding: a stall counts */
    int abandoned;              /* given up on (stalled): its thread records nothing more */
    _Atomic int64_t beat_ms;    /* the last sign of progress (monotonic ms) */
    double file_audio;
    int64_t file_bytes;
    _Atomic int64_t frames_done, frames_total;
} Slot;

typedef struct Batch {
    const RlArgs *a;
    RlBatchList list;
    unsigned char *todo;        /* 1: to encode; 0: skipped (done before) or not this shard's */
    unsigned char *mine;        /* --shard: 1 for this shard's files */
    char *options;              /* the options' JSON array */
    int manifest_fd;
    RlExecutor *ex;
    RlRingStop *stop;
    int threads;
    int in_flight;              /* files encoded at once (slots started) */
    int to_start;               /* files to encode that no slot has taken yet */
    int holding;                /* slots encoding a file (not given up on) */
    _Atomic int max_workers;    /* pool workers per ring (RlRingParams.max_workers) */
    int verbose;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t next;
    int running;                /* slot threads not yet finished */
    int files_total, files_done, encoded, skipped, failed;
    int shard_files;            /* --shard: this shard's files */
    int unplanned, gone;        /* --shard: files not in the stored plan; planned ones gone */
    RlPlanEntry *gone_v;        /* this shard's planned files that are gone (recorded failed) */
    int manifest_failed;        /* a record could not be written: the batch stops */
    int stalled;                /* files given up on (no progress for stall_s) */
    int hard_stop;              /* threads left behind: the process must end without teardown */
    double stall_s;             /* 0: no limit */
    /* --compare: lame's outputs go to cmp_dir; verdict[i] is file i's
     * (malloc'ed, NULL: none), cmp_rc[i] its RL_COMPARE_* (-1: none) */
    char cmp_dir[RL_ARGS_PATH_MAX + 1];
    unsigned char *skip_arg;    /* the inputs' argv indices, not lame's options */
    char **verdict;
    signed char *cmp_rc;
    int argc;
    char **argv;
    int64_t shard_bytes;
    double audio_done;
    int64_t bytes_total, bytes_done;
    Slot slot[MAX_SLOTS];
} Batch;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static void stop_ring(void *token)
{
    rl_ring_stop_request(token);
}

static int64_t now_ms(void)
{
    return (int64_t) (now_s() * 1000.0);
}

/* Assumes b->lock: waits for b->cond, a quarter of a second at most (the
 * watchdogs' tick). */
static void wait_a_moment(Batch *b)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 250000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    (void) pthread_cond_timedwait(&b->cond, &b->lock, &ts);
}

static void on_progress(void *arg, int64_t done, int64_t total)
{
    Slot *s = arg;
    atomic_store_explicit(&s->beat_ms, now_ms(), memory_order_relaxed);
    atomic_store_explicit(&s->frames_done, done, memory_order_relaxed);
    atomic_store_explicit(&s->frames_total, total, memory_order_relaxed);
}

/* mkdir -p of path's folder.  0 or -errno. */
static int make_parent(const char *path)
{
    char buf[RL_ARGS_PATH_MAX + 1];
    char *slash;
    if (snprintf(buf, sizeof buf, "%s", path) >= (int) sizeof buf)
        return -ENAMETOOLONG;
    slash = strrchr(buf, '/');
    if (!slash || slash == buf)
        return 0;
    *slash = '\0';
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -errno;
    return 0;
}

/* The file's SHA-256 and size.  0 or -errno. */
static int hash_file(const char *path, char hex[2 * RL_SHA256_BYTES + 1], int64_t *size)
{
    uint8_t buf[65536], d[RL_SHA256_BYTES];
    RlSha256 s;
    int const fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;
    if (fd < 0)
        return -errno;
    rl_sha256_init(&s);
    while ((n = read(fd, buf, sizeof buf)) > 0)
        rl_sha256_update(&s, buf, (size_t) n);
    if (n < 0) {
        int const e = -errno;
        close(fd);
        return e;
    }
    close(fd);
    rl_sha256_final(&s, d);
    rl_sha256_hex(d, hex);
    *size = (int64_t) s.total;
    return 0;
}

/* Records and reports one finished file (called without the lock); s:
 * the slot that encoded it (NULL: the main thread, for a file given up
 * on), whose later results are dropped once it was given up on. */
static void finish_file(Batch *b, Slot *s, const RlBatchItem *it, int encoded,
                        const char *reason, const char *sha, int64_t out_size, double secs,
                        double audio, const char *verdict, int cmp_rc)
{
    size_t const i = (size_t) (it - b->list.v);
    RlManifestRec r;
    int rc;

    pthread_mutex_lock(&b->lock);
    rc = s && s->abandoned;
    pthread_mutex_unlock(&b->lock);
    if (rc)
        return;

    if (!encoded)
        fprintf(stderr, "ringlame: %s: %s (skipped)\n", it->in, reason);
    else if (b->verbose)
        fprintf(stderr, "ringlame: %s -> %s: encoded in %.2f s%s%s\n", it->in, it->out, secs,
                verdict ? ", " : "", verdict ? verdict : "");
    if (verdict && cmp_rc == RL_COMPARE_FAILED)
        fprintf(stderr, "ringlame: %s: %s\n", it->in, verdict);
    memset(&r, 0, sizeof r);
    r.input = it->in;
    r.size = it->size;
    r.mtime_ns = it->mtime_ns;
    r.options = b->options;
    r.output = it->out;
    r.output_size = out_size;
    r.sha256 = sha;
    r.encoded = encoded;
    r.reason = reason;
    r.seconds = secs;
    r.audio_seconds = audio;
    r.compare = verdict;
    rc = rl_manifest_append(b->manifest_fd, &r);
    pthread_mutex_lock(&b->lock);
    if (rc < 0 && !b->manifest_failed) {
        /* a batch that cannot keep its log stops: what it does next
         * could not be resumed (the output stays valid; a rerun encodes
         * it again) */
        b->manifest_failed = 1;
        fprintf(stderr, "ringlame: --batch: the manifest: cannot record %s: %s; the batch "
                "stops (its output stays; the next run encodes it again)\n", it->in,
                strerror(-rc));
        rl_ring_stop_request(b->stop);
    }
    b->files_done++;
    b->bytes_done += it->size;
    if (verdict) {
        b->verdict[i] = strdup(verdict);
        b->cmp_rc[i] = (signed char) (b->verdict[i] ? cmp_rc : RL_COMPARE_FAILED);
    }
    if (encoded) {
        b->encoded++;
        b->audio_done += audio;
    }
    else {
        b->failed++;
    }
    pthread_mutex_unlock(&b->lock);
}

/* The reason of a "FILE: problem" message about file path: the problem
 * only (the manifest and the skip line name the file themselves). */
static const char *reason_of(const char *msg, const char *path)
{
    size_t const n = strlen(path);
    if (strncmp(msg, path, n) == 0 && msg[n] == ':')
        return msg + n + 1 + (msg[n + 1] == ' ');
    return msg;
}

/* The reason a named input that is not a regular file, or cannot be
 * read, is not encoded. */
static const char *not_readable(const RlBatchItem *it, char *buf, size_t len)
{
    if (it->error != RL_BATCH_NOT_REGULAR)
        return strerror(-it->error);
    snprintf(buf, len, "not a regular file (%s): --batch reads regular files only, whose reads "
             "cannot block", rl_batch_type_name(it->mode));
    return buf;
}

/* Just before the file is opened: the input is still a regular file
 * (opened without blocking: it may have been replaced by a FIFO since
 * the walk), and the output, if it exists, is one too (opening a FIFO
 * to write would block).  0, or -EINVAL with the reason in why. */
static int check_files(const RlBatchItem *it, char *why, size_t len)
{
    struct stat st;
    int const fd = open(it->in, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int const e = errno;
        if (e == ENXIO)     /* what opening a socket gives */
            snprintf(why, len, "not a regular file (a socket): --batch reads regular files only");
        else
            snprintf(why, len, "%s", strerror(e));
        return -EINVAL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, len, "not a regular file (%s): --batch reads regular files only",
                 rl_batch_type_name(st.st_mode));
        close(fd);
        return -EINVAL;
    }
    close(fd);
    if (stat(it->out, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(why, len, "the output %s is not a regular file (%s)", it->out,
                 rl_batch_type_name(st.st_mode));
        return -EINVAL;
    }
    return 0;
}

/* The slot starts (watched 1) or ends a stage where a stall counts. */
static void set_stage(Batch *b, Slot *s, const RlBatchItem *it, int watched)
{
    pthread_mutex_lock(&b->lock);
    s->item = it;
    s->watched = watched;
    atomic_store(&s->beat_ms, now_ms());
    pthread_mutex_unlock(&b->lock);
}

/* 1 if the main thread gave up on this slot's file (it stalled). */
static int given_up(Batch *b, Slot *s)
{
    int g;
    pthread_mutex_lock(&b->lock);
    g = s->abandoned;
    pthread_mutex_unlock(&b->lock);
    return g;
}

/* Assumes b->lock.  The threads each file's ring may use at once, its
 * slot's thread and pool workers: one while files wait to start (each file
 * on a thread of its own runs as at --threads 1, with no search of a state
 * that may not hold and no thread waiting for another), then, for the
 * batch's last files, the threads shared among the files still encoding. */
static int ring_share(const Batch *b)
{
    int const share = b->to_start > 0 ? b->threads / b->in_flight
                    : b->threads / (b->holding > 0 ? b->holding : 1);
    return share > 1 ? share : 1;
}

/* Assumes b->lock.  Sets each ring's pool workers (ring_share less the
 * slot's own thread); more of them wake the idle ones. */
static void set_max_workers(Batch *b)
{
    int const w = ring_share(b) - 1;
    if (w > atomic_exchange(&b->max_workers, w))
        rl_executor_notify(b->ex);
}

/* Assumes b->lock.  The frame records of a ring started now
 * (RING_SIZE_THREADS). */
static int ring_slots(const Batch *b)
{
    int const share = ring_share(b);
    int const w = share > RING_SIZE_THREADS ? share
                : b->threads < RING_SIZE_THREADS ? b->threads : RING_SIZE_THREADS;
    return rl_ring_slots(0, w - 1);
}

/* Encodes one file through the file session on the shared executor.
 * Returns -EINTR when stopped (nothing recorded, nothing left),
 * -ECANCELED when given up on (the main thread recorded it), else 0
 * (recorded either way). */
static int encode_one(Batch *b, Slot *s, const RlBatchItem *it)
{
    const RlArgs *a = b->a;
    RlFileSession *fs = NULL;
    RlSessionRun run;
    char why[RL_ARGS_PATH_MAX + 640], fail[RL_ARGS_PATH_MAX * 2 + 700];
    char hex[2 * RL_SHA256_BYTES + 1];
    double const t0 = now_s();
    double audio = 0;
    int64_t out_size = 0;
    int rc, run_slots;

    if (it->error) {
        finish_file(b, s, it, 0, not_readable(it, why, sizeof why), "", 0, 0, 0, NULL, -1);
        return 0;
    }
    /* watched from here to the output's hash: an open, a read, the
     * commit or the hash that does not return is a stall */
    set_stage(b, s, it, 1);
    rc = check_files(it, why, sizeof why);
    if (rc < 0) {
        finish_file(b, s, it, 0, why, "", 0, 0, 0, NULL, -1);
        return 0;
    }
    rc = rl_file_session_create(&fs, &a->lame, 1, 0);
    why[0] = '\0';
    if (rc == 0)
        rc = rl_file_session_add_input(fs, it->in, why, sizeof why);
    if (given_up(b, s)) {
        rl_file_session_free(fs);
        return -ECANCELED;
    }
    if (rc < 0) {
        rl_file_session_free(fs);
        finish_file(b, s, it, 0, why[0] ? reason_of(why, it->in) : strerror(-rc), "", 0,
                    now_s() - t0, 0, NULL, -1);
        return 0;
    }
    {
        RlPcmReader *in = rl_file_session_reader(fs, 0);
        int const rate = rl_file_session_options(fs)->samplerate_in;
        if (rl_pcm_frames(in) > 0 && rate > 0)
            audio = (double) rl_pcm_frames(in) / rate;
    }
    rc = make_parent(it->out);
    if (rc < 0)
        snprintf(why, sizeof why, "%s", strerror(-rc));
    else
        rc = rl_file_session_add_output(fs, it->out, why, sizeof why);
    if (rc < 0) {
        rl_file_session_free(fs);
        finish_file(b, s, it, 0, why, "", 0, now_s() - t0, 0, NULL, -1);
        return 0;
    }

    pthread_mutex_lock(&b->lock);
    s->active = 1;
    atomic_store(&s->beat_ms, now_ms());
    s->file_audio = audio;
    s->file_bytes = it->size;
    run_slots = ring_slots(b);
    atomic_store(&s->frames_done, 0);
    atomic_store(&s->frames_total, -1);
    pthread_mutex_unlock(&b->lock);

    memset(&run, 0, sizeof run);
    run.threads = b->threads;
    run.exec = b->ex;
    run.slots = run_slots;
    run.max_workers = &b->max_workers;
    run.stop = b->stop;
    run.hooks.arg = s;
    run.hooks.progress = on_progress;
    rc = rl_file_session_run(fs, &run, why, sizeof why);

    pthread_mutex_lock(&b->lock);
    s->active = 0;
    pthread_mutex_unlock(&b->lock);
    if (given_up(b, s)) {
        rl_file_session_free(fs);
        return -ECANCELED;
    }

    if (rc >= 0 && rl_ring_stop_requested(b->stop))
        rc = -EINTR;        /* stopped during the last frames: still nothing */
    if (rc < 0) {
        rl_file_session_free(fs);
        if (rc == -EINTR && rl_ring_stop_requested(b->stop))
            return -EINTR;
        snprintf(fail, sizeof fail, "encoding to %s failed: %s", it->out, strerror(-rc));
        finish_file(b, s, it, 0, fail, "", 0, now_s() - t0, 0, NULL, -1);
        return 0;
    }
    rc = rl_file_session_commit(fs, why, sizeof why);
    rl_file_session_free(fs);
    if (rc == 0)
        rc = hash_file(it->out, hex, &out_size);
    else
        rc = 1;             /* why holds the commit's message */
    if (rc != 0) {
        if (rc < 0)
            snprintf(why, sizeof why, "%s: %s", it->out, strerror(-rc));
        finish_file(b, s, it, 0, why, "", 0, now_s() - t0, 0, NULL, -1);
        return 0;
    }
    set_stage(b, s, it, 0);     /* lame's encode takes its own time */
    if (a->compare) {
        char lame_out[RL_ARGS_PATH_MAX + 32], verdict[RL_ARGS_PATH_MAX * 3 + 256];
        int cmp;
        snprintf(lame_out, sizeof lame_out, "%s/lame-%d.mp3", b->cmp_dir, (int) (s - b->slot));
        cmp = rl_compare_batch_file(a, b->argc, b->argv, b->skip_arg, it->in, it->out, lame_out,
                                    verdict, sizeof verdict);
        if (cmp == RL_COMPARE_FAILED && rl_ring_stop_requested(b->stop))
            snprintf(verdict, sizeof verdict, "not compared: stopped");
        finish_file(b, s, it, 1, "", hex, out_size, now_s() - t0, audio, verdict, cmp);
        return 0;
    }
    finish_file(b, s, it, 1, "", hex, out_size, now_s() - t0, audio, NULL, -1);
    return 0;
}

static void *slot_main(void *arg)
{
    Slot *s = arg;
    Batch *b = s->b;
    int rc;
    for (;;) {
        size_t i;
        pthread_mutex_lock(&b->lock);
        while (b->next < b->list.n && !b->todo[b->next])
            b->next++;
        i = b->next;
        if (i < b->list.n) {
            b->next++;
            b->to_start--;
            b->holding++;
        }
        set_max_workers(b);
        pthread_mutex_unlock(&b->lock);
        if (i >= b->list.n || rl_ring_stop_requested(b->stop))
            break;
        rc = encode_one(b, s, &b->list.v[i]);
        if (rc == -ECANCELED)
            return NULL;        /* given up on: no longer counted as running */
        pthread_mutex_lock(&b->lock);
        if (!s->abandoned)
            b->holding--;
        pthread_mutex_unlock(&b->lock);
        set_stage(b, s, NULL, 0);
        if (rc == -EINTR)
            break;
    }
    pthread_mutex_lock(&b->lock);
    if (!s->abandoned)
        b->running--;
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

static int start_slot(Batch *b, int k)
{
    int rc;
    b->slot[k].b = b;
    rc = pthread_create(&b->slot[k].th, NULL, slot_main, &b->slot[k]);
    if (rc == 0)
        b->slot[k].started = 1;
    return rc;
}

/* Gives up on slot k's file (it made no progress for stall_s): records
 * it as failed, leaves its thread behind (a read that never returns
 * cannot be taken back) and starts another slot for the files left, up
 * to MAX_STALLED times.  Called with the lock held. */
static void give_up(Batch *b, int k, double idle)
{
    Slot *s = &b->slot[k];
    const RlBatchItem *it = s->item;
    char why[160];
    s->abandoned = 1;
    s->active = 0;
    b->running--;
    b->holding--;               /* its thread waits in the kernel, on no core */
    set_max_workers(b);
    b->stalled++;
    b->hard_stop = 1;
    snprintf(why, sizeof why, "stalled: no progress for %.0f s (a read that does not return; "
             "--stall-timeout)", idle);
    pthread_mutex_unlock(&b->lock);
    finish_file(b, NULL, it, 0, why, "", 0, idle, 0, NULL, -1);
    pthread_mutex_lock(&b->lock);
    if (b->stalled < MAX_STALLED && !rl_ring_stop_requested(b->stop)
        && b->next < b->list.n) {
        int const n = MAX_IN_FLIGHT + b->stalled - 1;
        if (start_slot(b, n) == 0)
            b->running++;
    }
    else if (b->stalled >= MAX_STALLED && !rl_ring_stop_requested(b->stop)) {
        fprintf(stderr, "ringlame: --batch: %d files stalled: the batch stops\n", b->stalled);
        rl_ring_stop_request(b->stop);
    }
}

/* Waits for the slots, drawing the progress line when draw is set
 * (the caller holds no lock).  A file without progress for stall_s is
 * given up on; after a signal, files in flight get STOP_GRACE_S to drain,
 * then the batch ends without them (hard_stop). */
static void wait_slots(Batch *b, double t0, int draw)
{
    char line[256];
    int width = 0;
    double stop_seen = 0;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        double audio = b->audio_done;
        double bytes = (double) b->bytes_done;
        double const now = now_s();
        int flight = 0, n;
        for (int k = 0; k < MAX_SLOTS; k++) {
            Slot *s = &b->slot[k];
            int64_t const d = atomic_load(&s->frames_done), t = atomic_load(&s->frames_total);
            double const idle = (double) (now_ms() - atomic_load(&s->beat_ms)) / 1000.0;
            if (s->started && !s->abandoned && s->watched && b->stall_s > 0 && idle > b->stall_s) {
                give_up(b, k, idle);
                continue;
            }
            if (!s->active)
                continue;
            flight++;
            if (t > 0) {
                double const f = d < t ? (double) d / (double) t : 1.0;
                audio += f * s->file_audio;
                bytes += f * (double) s->file_bytes;
            }
        }
        if (draw) {
            n = rl_batch_progress_format(line, sizeof line, b->files_done, b->files_total,
                                         audio, now - t0,
                                         b->bytes_total > 0 ? bytes / (double) b->bytes_total : 0,
                                         flight);
            fprintf(stderr, "\r%s%*s", line, width > n ? width - n : 0, "");
            width = n;
        }
        if (b->running == 0)
            break;
        if (rl_ring_stop_requested(b->stop) && stop_seen == 0)
            stop_seen = now;
        if (stop_seen > 0 && now - stop_seen > STOP_GRACE_S) {
            b->hard_stop = 1;   /* a file that does not drain (a stalled read) is left */
            break;
        }
        wait_a_moment(b);
    }
    pthread_mutex_unlock(&b->lock);
    if (draw)
        fputc('\n', stderr);
}

/* Where the manifest goes: DIR with --out-dir, else the first input's
 * folder (the input itself when it is a folder). */
static int manifest_path(const RlArgs *a, char **argv, char *out, size_t outlen)
{
    const char *first = argv[a->input_argi[0]];
    struct stat st;
    int n;
    if (a->out_dir[0]) {
        n = snprintf(out, outlen, "%s/%s", a->out_dir, MANIFEST_NAME);
    }
    else if (stat(first, &st) == 0 && S_ISDIR(st.st_mode)) {
        n = snprintf(out, outlen, "%s/%s", first, MANIFEST_NAME);
    }
    else {
        const char *slash = strrchr(first, '/');
        if (slash)
            n = snprintf(out, outlen, "%.*s/%s", (int) (slash - first), first, MANIFEST_NAME);
        else
            n = snprintf(out, outlen, "%s", MANIFEST_NAME);
    }
    return n < (int) outlen ? 0 : -ENAMETOOLONG;
}

/* lame's options that change only what goes to the terminal, never the
 * bytes: not recorded, so that adding one does not redo the corpus.  The
 * number of tokens the option takes (with its value), 0 when it is not
 * one of them. */
static int console_only(const char *tok)
{
    static const char *const flags[] = { "--verbose", "--silent", "--quiet", "--nohist",
                                         "--flush", "-S" };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcasecmp(tok, flags[i]) == 0 && (flags[i][1] == '-' || strcmp(tok, "-S") == 0))
            return 1;
    return strcasecmp(tok, "--disptime") == 0 ? 2 : 0;
}

/* The options lame gets, as recorded: argv less the inputs, ringlame's
 * own options and the console-only ones, LAMEOPT's value first when it
 * is set. */
static char *options_json(const RlArgs *a, int argc, char **argv)
{
    const char **tok = malloc((size_t) (argc + 1) * sizeof *tok);
    unsigned char *input = calloc((size_t) argc + 1, 1);
    const char *env = getenv("LAMEOPT");
    char *json = NULL, *envtok = NULL;
    int n = 0;
    if (tok && input) {
        for (int i = 0; i < a->n_inputs; i++)
            input[a->input_argi[i]] = 1;
        if (env && env[0]) {
            envtok = malloc(strlen(env) + 9);
            if (envtok) {
                sprintf(envtok, "LAMEOPT=%s", env);
                tok[n++] = envtok;
            }
        }
        for (int i = 1; i < argc; i++) {
            int const skip = console_only(argv[i]);
            if (skip) {
                i += skip - 1;  /* the option and its value */
                continue;
            }
            if (!input[i] && !(i < RL_ARGS_MAX_ARGV && a->own_arg[i]))
                tok[n++] = argv[i];
        }
        json = rl_manifest_options_json(tok, n);
    }
    free(envtok);
    free(tok);
    free(input);
    return json;
}

/* 1 if the manifest says it is done with these options and unchanged
 * (with --shard: the shard's part, else the whole batch's manifest). */
static const RlManifestRec *already_done(const RlManifest *part, const RlManifest *m,
                                        const RlBatchItem *it, const char *options, int compare)
{
    const RlManifestRec *r = rl_manifest_find(part, it->in);
    struct stat st;
    if (!r)
        r = rl_manifest_find(m, it->in);
    /* with --compare, done means compared too (identical or not) */
    if (r && compare && strncmp(r->compare, "identical", 9) != 0
        && strncmp(r->compare, "differs", 7) != 0)
        return NULL;
    return r && r->encoded && it->error == 0 && r->size == it->size
           && r->mtime_ns == it->mtime_ns && strcmp(r->options, options) == 0
           && strcmp(r->output, it->out) == 0 && stat(it->out, &st) == 0
           && S_ISREG(st.st_mode) && (int64_t) st.st_size == r->output_size ? r : NULL;
}

static int64_t total_bytes(const RlBatchList *l)
{
    int64_t t = 0;
    for (size_t i = 0; i < l->n; i++)
        t += l->v[i].size;
    return t;
}

static int refuse(const char *what)
{
    fprintf(stderr, "ringlame: --batch: %s\n", what);
    return EXIT_USAGE;
}

/* --compare: the differing files and the counts, on stdout (the result,
 * as for one file), in the batch's order; files skipped as done count
 * with the verdict the manifest recorded. */
static void report_compare(const Batch *b)
{
    int same = 0, differ = 0, not_compared = 0;
    for (size_t i = 0; i < b->list.n; i++) {
        if (!b->mine[i])
            continue;
        if (b->cmp_rc[i] == RL_COMPARE_SAME)
            same++;
        else if (b->cmp_rc[i] == RL_COMPARE_DIFFER) {
            differ++;
            printf("%s: %s\n", b->list.v[i].in, b->verdict[i]);
        }
        else
            not_compared++;
    }
    printf("compare: %d identical, %d differ, %d not compared\n", same, differ, not_compared);
    fflush(stdout);
}

static void report_irregular(void *arg, const RlBatchItem *it)
{
    const Batch *b = arg;
    if (b->a->lame.silent < 10)
        fprintf(stderr, "ringlame: %s: not a regular file (%s): not an input (skipped)\n", it->in,
                rl_batch_type_name(it->mode));
}

typedef struct FileIds {
    RlFileId *v;
    size_t n, cap;
    const RlBatchList *l;       /* whose visit hook sees each recorded output */
} FileIds;

static int add_recorded(void *arg, const char *line, size_t len, RlManifestRec *r)
{
    FileIds *f = arg;
    struct stat st;
    int rc = 0;
    (void) line;
    (void) len;
    if (r->encoded && f->l->visit)
        f->l->visit(f->l->visit_arg, r->output);
    if (r->encoded && stat(r->output, &st) == 0 && S_ISREG(st.st_mode)) {
        rc = rl_grow((void **) &f->v, &f->cap, f->n, sizeof *f->v, 64);
        if (rc == 0) {
            f->v[f->n].dev = st.st_dev;
            f->v[f->n].ino = st.st_ino;
            f->n++;
        }
    }
    free((void *) r->input);
    return rc;
}

/* Drops the walked files that a manifest found in a walked folder
 * records as an output (an earlier batch's out-dir inside the tree).
 * A manifest that cannot be read is passed over.  0 or -ENOMEM. */
static int drop_recorded_outputs(RlBatchList *l)
{
    FileIds f = { NULL, 0, 0, l };
    int rc = 0;
    for (size_t i = 0; i < l->n_manifests && rc == 0; i++) {
        if (l->visit)
            l->visit(l->visit_arg, l->manifests[i]);
        if (rl_manifest_read(l->manifests[i], -1, add_recorded, &f) == -ENOMEM)
            rc = -ENOMEM;
    }
    if (rc == 0)
        rc = rl_batch_drop_files(l, f.v, f.n);
    free(f.v);
    return rc;
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp(*(char *const *) x, *(char *const *) y);
}

/* --shard: this shard's files from the stored plan (made by the first
 * shard that finds none); the corpus's differences from it are reported
 * and counted (unplanned, gone).  0, or an exit status. */
static int apply_plan(Batch *b, const char *mpath)
{
    const RlArgs *a = b->a;
    char path[RL_ARGS_PATH_MAX + 96];
    RlPlan plan;
    char **names;
    int rc;

    if (rl_plan_path(path, sizeof path, mpath, a->shard_n) < 0)
        return refuse("the shard plan's name is too long");
    rc = rl_plan_load(&plan, path);
    if (rc == -ENOENT) {
        RlPlan fresh;
        if (rl_plan_make(&fresh, &b->list, a->shard_n) < 0)
            return refuse("out of memory");
        rc = rl_plan_store(&fresh, path);
        rl_plan_free(&fresh);
        if (rc < 0) {
            fprintf(stderr, "ringlame: --batch: %s: cannot store the shard plan: %s\n", path,
                    strerror(-rc));
            return EXIT_IO;
        }
        if (rc == 1 && a->lame.silent < 10)
            fprintf(stderr, "ringlame: batch: shard plan for %d shards stored in %s (%zu files)\n",
                    a->shard_n, path, b->list.n);
        rc = rl_plan_load(&plan, path);
    }
    if (rc < 0) {
        fprintf(stderr, "ringlame: --batch: %s: %s\n", path,
                rc == -EINVAL ? "not a shard plan (remove it to plan anew)" : strerror(-rc));
        return EXIT_IO;
    }
    names = malloc((b->list.n + 1) * sizeof *names);
    if (!names) {
        rl_plan_free(&plan);
        return refuse("out of memory");
    }
    for (size_t i = 0; i < b->list.n; i++) {
        const RlPlanEntry *e = rl_plan_find(&plan, b->list.v[i].in);
        names[i] = b->list.v[i].in;
        b->mine[i] = e && e->shard == a->shard_k;
        if (!e) {
            b->unplanned++;
            fprintf(stderr, "ringlame: %s: not in the shard plan %s (added after it was made): "
                    "no shard of this plan encodes it\n", b->list.v[i].in, path);
        }
    }
    qsort(names, b->list.n, sizeof *names, cmp_names);
    for (size_t i = 0; i < plan.n; i++) {
        char *key = plan.v[i].input;
        if (plan.v[i].shard != a->shard_k)
            continue;
        if (b->list.n > 0 && bsearch(&key, names, b->list.n, sizeof *names, cmp_names) != NULL)
            continue;
        fprintf(stderr, "ringlame: %s: planned for shard %d/%d (%s) but no longer in the "
                "corpus\n", plan.v[i].input, a->shard_k, a->shard_n, path);
        /* recorded as failed (record_gone), so that the merge finds every
         * planned input accounted for */
        if (!b->gone_v)
            b->gone_v = calloc(plan.n, sizeof *b->gone_v);
        if (!b->gone_v) {
            free(names);
            rl_plan_free(&plan);
            return refuse("out of memory");
        }
        b->gone_v[b->gone] = plan.v[i];
        plan.v[i].input = NULL;       /* now gone_v's */
        b->gone++;
    }
    free(names);
    rl_plan_free(&plan);
    return 0;
}

/* The planned files that are gone, in this shard's part: failed. */
static int record_gone(Batch *b)
{
    char why[160];
    for (int i = 0; i < b->gone; i++) {
        RlManifestRec r;
        memset(&r, 0, sizeof r);
        snprintf(why, sizeof why, "planned for shard %d/%d but no longer in the corpus",
                 b->a->shard_k, b->a->shard_n);
        r.input = b->gone_v[i].input;
        r.size = b->gone_v[i].size;
        r.mtime_ns = b->gone_v[i].mtime_ns;
        r.options = b->options;
        r.output = "";
        r.sha256 = "";
        r.reason = why;
        int const rc = rl_manifest_append(b->manifest_fd, &r);
        if (rc < 0) {
            fprintf(stderr, "ringlame: --batch: the manifest: cannot record %s: %s\n", r.input,
                    strerror(-rc));
            return EXIT_IO;
        }
    }
    return 0;
}

/* The inputs' list: the walk of every named input, then what is not an
 * input dropped and the outputs checked.  0, or an exit status (the
 * message printed).  Runs on the walk thread (walk_list). */
static int make_list(Batch *b, char **argv)
{
    const RlArgs *a = b->a;
    char err[RL_ARGS_PATH_MAX * 3 + 64];
    int rc;

    for (int i = 0; i < a->n_inputs; i++) {
        err[0] = '\0';
        rc = rl_batch_walk(&b->list, argv[a->input_argi[i]], a->out_dir, a->lame.raw_input, err,
                           sizeof err);
        if (rc < 0) {
            fprintf(stderr, "ringlame: %s\n", err[0] ? err : strerror(-rc));
            return rc == -ENOMEM ? EXIT_IO : EXIT_USAGE;
        }
    }
    /* FIFOs, sockets and devices found in walked folders are not inputs:
     * opening or reading them may block the batch for ever */
    rl_batch_drop_irregular(&b->list, report_irregular, b);
    /* an earlier run's outputs found in the walked folders are not inputs:
     * those of this batch's own plan, and those the manifests found in
     * the walked folders record */
    if (drop_recorded_outputs(&b->list) < 0 || rl_batch_drop_outputs(&b->list) < 0)
        return refuse("out of memory");
    rc = rl_batch_check_collisions(&b->list, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --batch: %s; nothing encoded\n",
                rc == -EEXIST ? err : strerror(-rc));
        return rc == -EEXIST ? EXIT_USAGE : EXIT_IO;
    }
    return 0;
}

/* The walk's state, under b->lock: the path it is at and when it got
 * there (the stall watch's heartbeat), its result once done. */
typedef struct Walk {
    Batch *b;
    char **argv;
    char at[RL_ARGS_PATH_MAX + 1];
    int64_t beat_ms;
    int done, status;
} Walk;

static void walk_visit(void *arg, const char *path)
{
    Walk *w = arg;
    pthread_mutex_lock(&w->b->lock);
    snprintf(w->at, sizeof w->at, "%s", path);
    w->beat_ms = now_ms();
    pthread_mutex_unlock(&w->b->lock);
}

static void *walk_main(void *arg)
{
    Walk *w = arg;
    int const status = make_list(w->b, w->argv);
    pthread_mutex_lock(&w->b->lock);
    w->status = status;
    w->done = 1;
    pthread_cond_broadcast(&w->b->cond);
    pthread_mutex_unlock(&w->b->lock);
    return NULL;
}

/* make_list on a thread of its own, watched like a file in flight: a
 * folder or file that does not answer (a hung mount) for stall_s is
 * reported with its path and the batch ends, exit 2, nothing encoded;
 * the walk's thread is left behind (hard_stop: the process ends without
 * joining it).  Signals are not taken over yet: SIGINT/SIGTERM end the
 * process at once, as there is nothing to remove. */
static int walk_list(Batch *b, char **argv)
{
    static Walk w;              /* outlives run() when the walk is left behind */
    pthread_t th;
    int status;

    memset(&w, 0, sizeof w);
    w.b = b;
    w.argv = argv;
    w.beat_ms = now_ms();
    b->list.visit = walk_visit;
    b->list.visit_arg = &w;
    if (pthread_create(&th, NULL, walk_main, &w) != 0) {
        status = make_list(b, argv);    /* no thread: unwatched, as a single encode */
        b->list.visit = NULL;
        return status;
    }
    pthread_mutex_lock(&b->lock);
    while (!w.done) {
        double const idle = (double) (now_ms() - w.beat_ms) / 1000.0;
        if (b->stall_s > 0 && idle > b->stall_s) {
            fprintf(stderr, "ringlame: --batch: the walk of the inputs stalled at %s: no "
                    "progress for %.0f s (a folder or file that does not answer; "
                    "--stall-timeout); nothing encoded\n", w.at, idle);
            b->hard_stop = 1;
            pthread_mutex_unlock(&b->lock);
            return EXIT_IO;
        }
        wait_a_moment(b);
    }
    status = w.status;
    pthread_mutex_unlock(&b->lock);
    pthread_join(th, NULL);
    b->list.visit = NULL;
    return status;
}

static int run(Batch *b, int argc, char **argv)
{
    const RlArgs *a = b->a;
    char mpath[RL_ARGS_PATH_MAX + 64];
    char ppath[RL_ARGS_PATH_MAX + 96];
    RlManifest m, part;
    double t0;
    int rc, slots;

    if (manifest_path(a, argv, mpath, sizeof mpath) < 0)
        return refuse("the manifest's name is too long");
    if (a->merge_manifests) {
        rc = rl_manifest_merge(mpath, a->lame.silent >= 10);
        return rc == 0 ? 0 : EXIT_IO;  /* missing shards too */
    }
    ppath[0] = '\0';
    if (a->shard_n > 0
        && rl_manifest_part_path(ppath, sizeof ppath, mpath, a->shard_k, a->shard_n) < 0)
        return refuse("the manifest's name is too long");

    rc = walk_list(b, argv);
    if (rc != 0)
        return rc;
    b->options = options_json(a, argc, argv);
    b->todo = calloc(b->list.n + 1, 1);
    b->mine = calloc(b->list.n + 1, 1);
    b->verdict = calloc(b->list.n + 1, sizeof *b->verdict);
    b->cmp_rc = malloc(b->list.n + 1);
    if (!b->options || !b->todo || !b->mine || !b->verdict || !b->cmp_rc)
        return refuse("out of memory");
    memset(b->cmp_rc, -1, b->list.n + 1);
    if (a->compare) {
        b->skip_arg = calloc(RL_ARGS_MAX_ARGV, 1);
        if (!b->skip_arg)
            return refuse("out of memory");
        for (int i = 0; i < a->n_inputs; i++)
            if (a->input_argi[i] > 0 && a->input_argi[i] < RL_ARGS_MAX_ARGV)
                b->skip_arg[a->input_argi[i]] = 1;
        rc = rl_compare_tmpdir(b->cmp_dir, sizeof b->cmp_dir);
        if (rc < 0) {
            b->cmp_dir[0] = '\0';
            fprintf(stderr, "ringlame: --compare: cannot create a temporary folder: %s\n",
                    strerror(-rc));
            return EXIT_IO;
        }
    }
    if (a->out_dir[0] && (rc = make_parent(mpath)) < 0) {
        fprintf(stderr, "ringlame: %s: %s\n", a->out_dir, strerror(-rc));
        return EXIT_IO;
    }
    if (a->shard_n > 0) {
        rc = apply_plan(b, mpath);
        if (rc != 0)
            return rc;
    }
    else {
        memset(b->mine, 1, b->list.n);
    }
    /* the log this run appends to, locked for the run: a second batch on
     * the same files refuses */
    {
        const char *log = ppath[0] ? ppath : mpath;
        char msg[RL_ARGS_PATH_MAX * 2 + 200];
        b->manifest_fd = rl_manifest_open(log);
        if (b->manifest_fd < 0) {
            fprintf(stderr, "ringlame: --batch: %s: %s%s\n", log,
                    rl_manifest_strerror(b->manifest_fd),
                    b->manifest_fd == RL_MANIFEST_LOCKED ? "; nothing encoded" : "");
            return b->manifest_fd == RL_MANIFEST_LOCKED ? EXIT_USAGE : EXIT_IO;
        }
        rc = rl_manifest_set_aside_tail(b->manifest_fd, log, msg, sizeof msg);
        if (msg[0])
            fprintf(stderr, "ringlame: %s\n", msg);
        if (rc < 0)
            return EXIT_IO;
        rc = record_gone(b);
        if (rc != 0)
            return rc;
        rc = ppath[0] ? rl_manifest_load(&m, mpath) : rl_manifest_load_fd(&m, mpath, b->manifest_fd);
        if (rc < 0) {
            fprintf(stderr, "ringlame: %s: %s\n", mpath, rl_manifest_strerror(rc));
            return EXIT_IO;
        }
        rc = ppath[0] ? rl_manifest_load_fd(&part, ppath, b->manifest_fd)
                      : (memset(&part, 0, sizeof part), 0);
        if (rc < 0) {
            rl_manifest_free(&m);
            fprintf(stderr, "ringlame: %s: %s\n", ppath, rl_manifest_strerror(rc));
            return EXIT_IO;
        }
    }
    for (size_t i = 0; i < b->list.n; i++) {
        if (!b->mine[i])
            continue;
        b->shard_files++;
        b->shard_bytes += b->list.v[i].size;
        const RlManifestRec *done = a->force ? NULL
            : already_done(&part, &m, &b->list.v[i], b->options, a->compare);
        b->todo[i] = done == NULL;
        if (done && a->compare) {   /* its recorded verdict counts */
            b->verdict[i] = strdup(done->compare);
            b->cmp_rc[i] = done->compare[0] == 'i' ? RL_COMPARE_SAME : RL_COMPARE_DIFFER;
            if (!b->verdict[i])
                return refuse("out of memory");
        }
        if (b->todo[i]) {
            b->files_total++;
            b->bytes_total += b->list.v[i].size;
        }
        else {
            b->skipped++;
        }
    }
    rl_manifest_free(&m);
    rl_manifest_free(&part);
    if (ppath[0] && a->lame.silent < 10)
        fprintf(stderr, "ringlame: batch: shard %d/%d: %d of %zu files, %lld of %lld bytes\n",
                a->shard_k, a->shard_n, b->shard_files, b->list.n, (long long) b->shard_bytes,
                (long long) total_bytes(&b->list));

    /* before any thread: they inherit the blocked signals (signals.h) */
    rc = rl_signals_install(0);
    if (rc == 0)
        rc = rl_ring_stop_create(&b->stop);
    if (rc == 0)
        rc = rl_signals_set_stop_callback(stop_ring, b->stop);
    b->threads = rl_threads_resolve(a->threads);
    if (rc == 0)
        rc = rl_executor_create(&b->ex, b->threads - 1);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --batch: %s\n", strerror(-rc));
        return EXIT_IO;
    }
    slots = b->threads < MAX_IN_FLIGHT ? b->threads : MAX_IN_FLIGHT;
    if (slots > b->files_total)
        slots = b->files_total;
    t0 = now_s();
    b->running = slots;
    b->in_flight = slots > 0 ? slots : 1;
    b->to_start = b->files_total;
    atomic_store(&b->max_workers, 0);
    for (int k = 0; k < slots; k++) {
        int const trc = start_slot(b, k);
        if (trc != 0) {
            pthread_mutex_lock(&b->lock);
            b->running -= slots - k;
            b->in_flight = k > 0 ? k : 1;
            set_max_workers(b);
            pthread_mutex_unlock(&b->lock);
            if (k == 0) {
                fprintf(stderr, "ringlame: --batch: cannot start a thread: %s\n", strerror(trc));
                return EXIT_IO;
            }
            break;
        }
    }
    if (slots > 0)
        wait_slots(b, t0, rl_progress_wanted(STDERR_FILENO, a->lame.silent));
    /* a slot given up on, or one that did not drain after a signal, is
     * left running: the process ends without the teardown (batch_main) */
    for (int k = 0; k < MAX_SLOTS && !b->hard_stop; k++)
        if (b->slot[k].started)
            pthread_join(b->slot[k].th, NULL);
    if (!b->hard_stop)
        (void) rl_signals_set_stop_callback(NULL, NULL);

    {
        double const wall = now_s() - t0;
        int const left = b->files_total - b->files_done;
        if (a->lame.silent < 10 || b->failed)
            fprintf(stderr, "ringlame: batch: %d encoded, %d skipped, %d failed%s%.0d%s; "
                    "%.1f s of audio in %.1f s (%.1fx)\n", b->encoded, b->skipped, b->failed,
                    left ? ", " : "", left, left ? " not done (stopped)" : "", b->audio_done,
                    wall, wall > 0 ? b->audio_done / wall : 0.0);
    }
    if (a->compare)
        report_compare(b);
    if (b->unplanned || b->gone)
        fprintf(stderr, "ringlame: batch: shard %d/%d: the corpus changed since its plan was "
                "made: %d file%s added (encoded by no shard of the plan), %d planned file%s "
                "gone; --merge-manifests lists what is missing, and once every planned file "
                "is recorded the next sharded run plans anew\n", a->shard_k, a->shard_n,
                b->unplanned, b->unplanned == 1 ? "" : "s", b->gone, b->gone == 1 ? "" : "s");
    if (rl_signals_caught())
        return rl_signals_exit_status();
    if (b->failed || b->manifest_failed || b->unplanned || b->gone)
        return EXIT_IO;
    for (size_t i = 0; i < b->list.n; i++)
        if (b->cmp_rc[i] == RL_COMPARE_FAILED)
            return EXIT_IO;
    for (size_t i = 0; i < b->list.n; i++)
        if (b->cmp_rc[i] == RL_COMPARE_DIFFER)
            return RL_COMPARE_DIFFER;
    return 0;
}

/* The named temporary outputs of the files left in flight
 * (rl_mp3_open's ".ringlame-PID-N.tmp", only where the file system has
 * no unnamed files), removed. */
static void remove_own_temps(const Batch *b)
{
    char prefix[64];
    int const np = snprintf(prefix, sizeof prefix, ".ringlame-%ld-", (long) getpid());
    for (int k = 0; k < MAX_SLOTS; k++) {
        const RlBatchItem *it = b->slot[k].item;
        char dir[RL_ARGS_PATH_MAX + 1];
        const char *slash;
        DIR *d;
        struct dirent *e;
        if (!b->slot[k].started || !it)
            continue;
        slash = strrchr(it->out, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int) (slash - it->out) + 1 : 1,
                 slash ? it->out : ".");
        d = opendir(dir);
        while (d && (e = readdir(d)) != NULL) {
            size_t const n = strlen(e->d_name);
            char path[RL_ARGS_PATH_MAX * 2 + 2];
            if (strncmp(e->d_name, prefix, (size_t) np) != 0 || n < 4
                || strcmp(e->d_name + n - 4, ".tmp") != 0)
                continue;
            if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int) sizeof path)
                (void) unlink(path);
        }
        if (d)
            closedir(d);
    }
}

int rl_batch_main(const RlArgs *a, int argc, char **argv)
{
    Batch *b;
    int rc;

    if (a->compare_to[0])
        return refuse("--compare-to names one reference file; use --compare (or --lame PATH) "
                      "to run lame on every file of the batch");
    if (a->compare && a->merge_manifests)
        return refuse("--merge-manifests encodes nothing: not with --compare");
    if (a->sequential)
        return refuse("--sequential runs one file on one thread; use --threads 1");
    if (a->trace_path[0])
        return refuse("--trace records one file's encode");
    if (a->merge_manifests && (a->shard_n || a->force))
        return refuse("--merge-manifests encodes nothing: not with --shard or --force");
    if (a->n_inputs == 0 && !(a->merge_manifests && a->out_dir[0]))
        return refuse("no input named");
    b = calloc(1, sizeof *b);
    if (!b) {
        fprintf(stderr, "ringlame: out of memory\n");
        return EXIT_IO;
    }
    b->a = a;
    b->argc = argc;
    b->argv = argv;
    b->manifest_fd = -1;
    b->verbose = a->lame.silent <= -10;
    b->stall_s = a->stall_timeout >= 0 ? a->stall_timeout : STALL_DEFAULT_S;
    rc = pthread_mutex_init(&b->lock, NULL);
    if (rc == 0 && (rc = pthread_cond_init(&b->cond, NULL)) != 0)
        pthread_mutex_destroy(&b->lock);
    if (rc != 0) {
        fprintf(stderr, "ringlame: --batch: %s\n", strerror(rc));
        free(b);
        return EXIT_IO;
    }
    rc = run(b, argc, argv);
    if (b->hard_stop) {
        /* a file given up on, or one that did not drain after a signal:
         * its thread may be in a read that never returns, so the process
         * ends here, without joining it; its output is an unnamed file
         * that goes with the process (a named temporary is removed) */
        remove_own_temps(b);
        if (b->cmp_dir[0])
            rl_compare_tmpdir_remove(b->cmp_dir);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    if (b->manifest_fd >= 0)
        close(b->manifest_fd);
    rl_executor_destroy(b->ex);
    rl_ring_stop_free(b->stop);
    if (b->cmp_dir[0])
        rl_compare_tmpdir_remove(b->cmp_dir);
    if (b->verdict)
        for (size_t i = 0; i < b->list.n; i++)
            free(b->verdict[i]);
    free(b->verdict);
    rl_batch_list_free(&b->list);
    free(b->cmp_rc);
    free(b->skip_arg);
    free(b->todo);
    free(b->mine);
    free(b->options);
    for (int i = 0; i < b->gone; i++)
        free(b->gone_v[i].input);
    free(b->gone_v);
    pthread_cond_destroy(&b->cond);
    pthread_mutex_destroy(&b->lock);
    free(b);
    return rc;
}
