/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the driver (batch.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "batch_manifest.h"
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
#define MAX_IN_FLIGHT 2
#define MANIFEST_NAME ".ringlame-manifest.jsonl"

struct Batch;

typedef struct Slot {
    struct Batch *b;
    pthread_t th;
    int started;
    /* the file in flight (under b->lock), and its ring's progress */
    int active;
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
    int verbose;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t next;
    int running;                /* slot threads not yet finished */
    int files_total, files_done, encoded, skipped, failed;
    int shard_files;            /* --shard: this shard's files */
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
    Slot slot[MAX_IN_FLIGHT];
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

static void on_progress(void *arg, int64_t done, int64_t total)
{
    Slot *s = arg;
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

/* Records and reports one finished file (called without the lock). */
static void finish_file(Batch *b, const RlBatchItem *it, int encoded, const char *reason,
                        const char *sha, int64_t out_size, double secs, double audio,
                        const char *verdict, int cmp_rc)
{
    size_t const i = (size_t) (it - b->list.v);
    RlManifestRec r;
    int rc;

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
    if (rc < 0)
        fprintf(stderr, "ringlame: the manifest: %s\n", strerror(-rc));
    pthread_mutex_lock(&b->lock);
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

/* Encodes one file through the file session on the shared executor.
 * Returns -EINTR when stopped (nothing recorded, nothing left), else 0
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
    int rc;

    if (it->error) {
        finish_file(b, it, 0, strerror(-it->error), "", 0, 0, 0, NULL, -1);
        return 0;
    }
    rc = rl_file_session_create(&fs, &a->lame, 1, 0);
    why[0] = '\0';
    if (rc == 0)
        rc = rl_file_session_add_input(fs, it->in, why, sizeof why);
    if (rc < 0) {
        rl_file_session_free(fs);
        finish_file(b, it, 0, why[0] ? reason_of(why, it->in) : strerror(-rc), "", 0,
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
        finish_file(b, it, 0, why, "", 0, now_s() - t0, 0, NULL, -1);
        return 0;
    }

    pthread_mutex_lock(&b->lock);
    s->active = 1;
    s->file_audio = audio;
    s->file_bytes = it->size;
    atomic_store(&s->frames_done, 0);
    atomic_store(&s->frames_total, -1);
    pthread_mutex_unlock(&b->lock);

    memset(&run, 0, sizeof run);
    run.threads = b->threads;
    run.exec = b->ex;
    run.stop = b->stop;
    run.hooks.arg = s;
    run.hooks.progress = on_progress;
    rc = rl_file_session_run(fs, &run, why, sizeof why);

    pthread_mutex_lock(&b->lock);
    s->active = 0;
    pthread_mutex_unlock(&b->lock);

    if (rc >= 0 && rl_ring_stop_requested(b->stop))
        rc = -EINTR;        /* stopped during the last frames: still nothing */
    if (rc < 0) {
        rl_file_session_free(fs);
        if (rc == -EINTR && rl_ring_stop_requested(b->stop))
            return -EINTR;
        snprintf(fail, sizeof fail, "encoding to %s failed: %s", it->out, strerror(-rc));
        finish_file(b, it, 0, fail, "", 0, now_s() - t0, 0, NULL, -1);
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
        finish_file(b, it, 0, why, "", 0, now_s() - t0, 0, NULL, -1);
        return 0;
    }
    if (a->compare) {
        char lame_out[RL_ARGS_PATH_MAX + 32], verdict[RL_ARGS_PATH_MAX * 3 + 256];
        int cmp;
        snprintf(lame_out, sizeof lame_out, "%s/lame-%d.mp3", b->cmp_dir, (int) (s - b->slot));
        cmp = rl_compare_batch_file(a, b->argc, b->argv, b->skip_arg, it->in, it->out, lame_out,
                                    verdict, sizeof verdict);
        if (cmp == RL_COMPARE_FAILED && rl_ring_stop_requested(b->stop))
            snprintf(verdict, sizeof verdict, "not compared: stopped");
        finish_file(b, it, 1, "", hex, out_size, now_s() - t0, audio, verdict, cmp);
        return 0;
    }
    finish_file(b, it, 1, "", hex, out_size, now_s() - t0, audio, NULL, -1);
    return 0;
}

static void *slot_main(void *arg)
{
    Slot *s = arg;
    Batch *b = s->b;
    for (;;) {
        size_t i;
        pthread_mutex_lock(&b->lock);
        while (b->next < b->list.n && !b->todo[b->next])
            b->next++;
        i = b->next;
        if (i < b->list.n)
            b->next++;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->list.n || rl_ring_stop_requested(b->stop))
            break;
        if (encode_one(b, s, &b->list.v[i]) == -EINTR)
            break;
    }
    pthread_mutex_lock(&b->lock);
    b->running--;
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

/* The progress line until the slots are done (the caller holds no lock). */
static void draw_progress(Batch *b, double t0)
{
    char line[256];
    int width = 0;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        double audio = b->audio_done;
        double bytes = (double) b->bytes_done;
        int flight = 0, n;
        struct timespec ts;
        for (int k = 0; k < MAX_IN_FLIGHT; k++) {
            Slot *s = &b->slot[k];
            int64_t const d = atomic_load(&s->frames_done), t = atomic_load(&s->frames_total);
            if (!s->active)
                continue;
            flight++;
            if (t > 0) {
                double const f = d < t ? (double) d / (double) t : 1.0;
                audio += f * s->file_audio;
                bytes += f * (double) s->file_bytes;
            }
        }
        n = rl_batch_progress_format(line, sizeof line, b->files_done, b->files_total, audio,
                                     now_s() - t0,
                                     b->bytes_total > 0 ? bytes / (double) b->bytes_total : 0,
                                     flight);
        fprintf(stderr, "\r%s%*s", line, width > n ? width - n : 0, "");
        width = n;
        if (b->running == 0)
            break;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        (void) pthread_cond_timedwait(&b->cond, &b->lock, &ts);
    }
    pthread_mutex_unlock(&b->lock);
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

/* The options lame gets: argv less the inputs and ringlame's own
 * options, LAMEOPT's value first when it is set. */
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
        for (int i = 1; i < argc; i++)
            if (!input[i] && !(i < RL_ARGS_MAX_ARGV && a->own_arg[i]))
                tok[n++] = argv[i];
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

static int run(Batch *b, int argc, char **argv)
{
    const RlArgs *a = b->a;
    char err[RL_ARGS_PATH_MAX * 3 + 64], mpath[RL_ARGS_PATH_MAX + 64];
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

    for (int i = 0; i < a->n_inputs; i++) {
        err[0] = '\0';
        rc = rl_batch_walk(&b->list, argv[a->input_argi[i]], a->out_dir, a->lame.raw_input, err,
                           sizeof err);
        if (rc < 0) {
            fprintf(stderr, "ringlame: %s\n", err[0] ? err : strerror(-rc));
            return rc == -ENOMEM ? EXIT_IO : EXIT_USAGE;
        }
    }
    /* an earlier run's outputs found in the walked folders are not inputs */
    if (rl_batch_drop_outputs(&b->list) < 0)
        return refuse("out of memory");
    rc = rl_batch_check_collisions(&b->list, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --batch: %s; nothing encoded\n",
                rc == -EEXIST ? err : strerror(-rc));
        return rc == -EEXIST ? EXIT_USAGE : EXIT_IO;
    }
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
    if (a->shard_n > 0) {
        if (rl_batch_shard(&b->list, a->shard_k, a->shard_n, b->mine) < 0)
            return refuse("out of memory");
    }
    else {
        memset(b->mine, 1, b->list.n);
    }
    if (a->out_dir[0] && (rc = make_parent(mpath)) < 0) {
        fprintf(stderr, "ringlame: %s: %s\n", a->out_dir, strerror(-rc));
        return EXIT_IO;
    }
    rc = rl_manifest_load(&m, mpath);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s: %s\n", mpath, strerror(-rc));
        return EXIT_IO;
    }
    rc = ppath[0] ? rl_manifest_load(&part, ppath) : (memset(&part, 0, sizeof part), 0);
    if (rc < 0) {
        rl_manifest_free(&m);
        fprintf(stderr, "ringlame: %s: %s\n", ppath, strerror(-rc));
        return EXIT_IO;
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
    b->manifest_fd = rl_manifest_open(ppath[0] ? ppath : mpath);
    if (b->manifest_fd < 0) {
        fprintf(stderr, "ringlame: %s: %s\n", ppath[0] ? ppath : mpath,
                strerror(-b->manifest_fd));
        return EXIT_IO;
    }

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
    slots = b->threads > 1 ? MAX_IN_FLIGHT : 1;
    if (slots > b->files_total)
        slots = b->files_total;
    t0 = now_s();
    b->running = slots;
    for (int k = 0; k < slots; k++) {
        b->slot[k].b = b;
        int const trc = pthread_create(&b->slot[k].th, NULL, slot_main, &b->slot[k]);
        if (trc != 0) {
            pthread_mutex_lock(&b->lock);
            b->running -= slots - k;
            pthread_mutex_unlock(&b->lock);
            if (k == 0) {
                fprintf(stderr, "ringlame: --batch: cannot start a thread: %s\n", strerror(trc));
                return EXIT_IO;
            }
            break;
        }
        b->slot[k].started = 1;
    }
    if (slots > 0 && rl_progress_wanted(STDERR_FILENO, a->lame.silent))
        draw_progress(b, t0);
    for (int k = 0; k < slots; k++)
        if (b->slot[k].started)
            pthread_join(b->slot[k].th, NULL);
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
    if (rl_signals_caught())
        return rl_signals_exit_status();
    if (b->failed)
        return EXIT_IO;
    for (size_t i = 0; i < b->list.n; i++)
        if (b->cmp_rc[i] == RL_COMPARE_FAILED)
            return EXIT_IO;
    for (size_t i = 0; i < b->list.n; i++)
        if (b->cmp_rc[i] == RL_COMPARE_DIFFER)
            return RL_COMPARE_DIFFER;
    return 0;
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
    rc = pthread_mutex_init(&b->lock, NULL);
    if (rc == 0 && (rc = pthread_cond_init(&b->cond, NULL)) != 0)
        pthread_mutex_destroy(&b->lock);
    if (rc != 0) {
        fprintf(stderr, "ringlame: --batch: %s\n", strerror(rc));
        free(b);
        return EXIT_IO;
    }
    rc = run(b, argc, argv);
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
    pthread_cond_destroy(&b->cond);
    pthread_mutex_destroy(&b->lock);
    free(b);
    return rc;
}
