/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* --compare (compare_run.h). */
#include "compare_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mp3_compare.h"
#include "sha256.h"

#define LAME_OUT "lame.mp3"

extern char **environ;

int rl_compare_tmpdir(char *dir, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    int const n = snprintf(dir, size, "%s/ringlame-compare.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (n < 0 || (size_t) n >= size)
        return -ENAMETOOLONG;
    return mkdtemp(dir) ? 0 : -errno;
}

static int join(char *buf, size_t size, const char *dir, const char *name)
{
    int const n = snprintf(buf, size, "%s/%s", dir, name);
    return n < 0 || (size_t) n >= size ? -ENAMETOOLONG : 0;
}

void rl_compare_tmpdir_remove(const char *dir)
{
    char path[RL_ARGS_PATH_MAX + 64];
    if (join(path, sizeof path, dir, LAME_OUT) == 0)
        (void) unlink(path);
    if (join(path, sizeof path, dir, "ringlame.mp3") == 0)
        (void) unlink(path);
    (void) rmdir(dir);
}

/* A whole file into a malloc'ed buffer: 0 or a negative errno. */
static int slurp(const char *path, uint8_t **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    uint8_t *p;
    int rc = 0;

    if (!f)
        return -errno;
    p = malloc(cap);
    while (p) {
        n += fread(p + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *q = cap < SIZE_MAX / 2 ? realloc(p, cap * 2) : NULL;
        if (!q) {
            free(p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    if (!p)
        rc = -ENOMEM;
    else if (ferror(f))
        rc = -EIO;
    fclose(f);
    if (rc < 0) {
        free(p);
        return rc;
    }
    *buf = p;
    *len = n;
    return 0;
}

/* The last non-empty line of a log lame wrote (its error message) into
 * buf ("" when none); lame's progress redraws end in '\r'. */
static void last_line(const char *log, char *buf, size_t len)
{
    char tail[1024];
    FILE *f = fopen(log, "rb");
    size_t n = 0;
    buf[0] = '\0';
    if (!f)
        return;
    if (fseek(f, -(long) (sizeof tail - 1), SEEK_END) != 0)
        rewind(f);
    n = fread(tail, 1, sizeof tail - 1, f);
    fclose(f);
    tail[n] = '\0';
    while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == '\r' || tail[n - 1] == ' '))
        tail[--n] = '\0';
    {
        char *start = tail + n;
        while (start > tail && start[-1] != '\n' && start[-1] != '\r')
            start--;
        size_t m = strlen(start);
        if (m >= len)
            m = len - 1;
        memcpy(buf, start, m);
        buf[m] = '\0';
    }
}

/* Runs lame with argv's options (all but ringlame's own and skip[i]'s)
 * on in into out, its stdout and stderr into log (NULL: this process's):
 * 0, or RL_COMPARE_FAILED with the reason in why. */
static int run_lame(const RlArgs *a, int argc, char **argv, const unsigned char *skip,
                    const char *in, const char *out, const char *log, char *why, size_t whylen)
{
    posix_spawn_file_actions_t fa;
    const char *lame = a->lame_path[0] ? a->lame_path : "lame";
    char **cargv = calloc((size_t) argc + 3, sizeof(*cargv));
    posix_spawnattr_t attr;
    sigset_t none, dflt;
    pid_t pid;
    int n = 0, rc, status;

    if (!cargv) {
        snprintf(why, whylen, "out of memory");
        return RL_COMPARE_FAILED;
    }
    cargv[n++] = (char *) lame;
    for (int i = 1; i < argc && i < RL_ARGS_MAX_ARGV; i++)
        if (!a->own_arg[i] && !skip[i])
            cargv[n++] = argv[i];
    cargv[n++] = (char *) in;
    cargv[n++] = (char *) out;
    cargv[n] = NULL;

    /* the child starts with no blocked signals and the default actions
     * (this process blocks the stopping signals for its signal thread) */
    sigemptyset(&none);
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGINT);
    sigaddset(&dflt, SIGTERM);
    sigaddset(&dflt, SIGHUP);
    sigaddset(&dflt, SIGQUIT);
    sigaddset(&dflt, SIGPIPE);
    rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0 && log) {
        rc = posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (rc == 0)
            rc = posix_spawn_file_actions_adddup2(&fa, 2, 1);
    }
    if (rc == 0)
        rc = posix_spawnattr_init(&attr);
    if (rc == 0) {
        (void) posix_spawnattr_setsigmask(&attr, &none);
        (void) posix_spawnattr_setsigdefault(&attr, &dflt);
        (void) posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        fflush(stdout);
        if (a->lame_path[0])
            rc = posix_spawn(&pid, lame, &fa, &attr, cargv, environ);
        else
            rc = posix_spawnp(&pid, lame, &fa, &attr, cargv, environ);
        posix_spawnattr_destroy(&attr);
    }
    posix_spawn_file_actions_destroy(&fa);
    free(cargv);
    if (rc != 0) {
        snprintf(why, whylen, "cannot run lame '%s': %s", lame, strerror(rc));
        return RL_COMPARE_FAILED;
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(why, whylen, "waiting for lame '%s': %s", lame, strerror(errno));
            return RL_COMPARE_FAILED;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(why, whylen, "lame '%s' could not be run (exit 127)", lame);
    else if (WIFEXITED(status)) {
        char msg[256] = "";
        if (log)
            last_line(log, msg, sizeof msg);
        snprintf(why, whylen, "lame '%s' failed (exit %d) on %s%s%s", lame, WEXITSTATUS(status),
                 in, msg[0] ? ": " : "", msg);
    }
    else
        snprintf(why, whylen, "lame '%s' was killed by signal %d", lame,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return RL_COMPARE_FAILED;
}

int rl_compare_batch_file(const RlArgs *a, int argc, char **argv, const unsigned char *skip,
                          const char *in, const char *ours, const char *lame_out,
                          char *verdict, size_t len)
{
    char why[RL_ARGS_PATH_MAX * 3 + 128], log[RL_ARGS_PATH_MAX + 40];
    uint8_t *buf[2] = {NULL, NULL};
    size_t blen[2] = {0, 0};
    RlMp3Diff d;
    int rc;

    snprintf(log, sizeof log, "%s.log", lame_out);
    rc = run_lame(a, argc, argv, skip, in, lame_out, log, why, sizeof why);
    (void) unlink(log);
    if (rc != 0) {
        (void) unlink(lame_out);
        snprintf(verdict, len, "lame failed: %s", why);
        return RL_COMPARE_FAILED;
    }
    rc = slurp(ours, &buf[0], &blen[0]);
    if (rc == 0) {
        rc = slurp(lame_out, &buf[1], &blen[1]);
        if (rc < 0)
            snprintf(verdict, len, "not compared: lame's output: %s", strerror(-rc));
    }
    else {
        snprintf(verdict, len, "not compared: %s: %s", ours, strerror(-rc));
    }
    (void) unlink(lame_out);
    if (rc == 0) {
        rc = rl_mp3_compare(buf[0], blen[0], buf[1], blen[1], &d);
        if (rc == 0) {
            snprintf(verdict, len, "identical");
        }
        else if (rc == 1) {
            int n = snprintf(verdict, len, "differs: byte %zu, ", d.offset);
            if (n >= 0 && (size_t) n < len && d.frame >= 0)
                n += snprintf(verdict + n, len - (size_t) n, "frame %ld, ", d.frame);
            if (n >= 0 && (size_t) n < len)
                snprintf(verdict + n, len - (size_t) n, "%s; %zu of %zu frames differ (%zu vs %zu bytes)",
                         rl_mp3_part_name(d.part), d.frames_differ, d.frames[1], blen[0], blen[1]);
        }
        else {
            snprintf(verdict, len, "not compared: %s", strerror(-rc));
        }
    }
    free(buf[0]);
    free(buf[1]);
    return rc == 0 ? RL_COMPARE_SAME : rc == 1 ? RL_COMPARE_DIFFER : RL_COMPARE_FAILED;
}

int rl_compare_run(const RlArgs *a, int argc, char **argv, const char *ours, const char *tmpdir)
{
    char lame_out[RL_ARGS_PATH_MAX + 64];
    const char *ref = a->compare_to;
    const char *names[2] = {"ringlame", a->compare_to[0] ? "reference" : "lame"};
    uint8_t *buf[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    RlMp3Diff d;
    int rc;

    if (!ref[0]) {
        if (join(lame_out, sizeof lame_out, tmpdir, LAME_OUT) < 0) {
            fprintf(stderr, "ringlame: --compare: %s: %s\n", tmpdir, strerror(ENAMETOOLONG));
            return RL_COMPARE_FAILED;
        }
        unsigned char skip[RL_ARGS_MAX_ARGV] = {0};
        char why[RL_ARGS_PATH_MAX * 2 + 128];
        if (a->in_argi > 0 && a->in_argi < RL_ARGS_MAX_ARGV)
            skip[a->in_argi] = 1;
        if (a->out_argi > 0 && a->out_argi < RL_ARGS_MAX_ARGV)
            skip[a->out_argi] = 1;
        rc = run_lame(a, argc, argv, skip, a->in_path, lame_out, NULL, why, sizeof why);
        if (rc != 0) {
            fprintf(stderr, "ringlame: --compare: %s\n", why);
            return rc;
        }
        ref = lame_out;
    }
    rc = slurp(ours, &buf[0], &len[0]);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --compare: %s: %s\n", ours, strerror(-rc));
        return RL_COMPARE_FAILED;
    }
    rc = slurp(ref, &buf[1], &len[1]);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --compare: %s%s: %s\n", a->compare_to[0] ? "" : "lame's output ",
                ref, strerror(-rc));
        free(buf[0]);
        return RL_COMPARE_FAILED;
    }
    rc = rl_mp3_compare(buf[0], len[0], buf[1], len[1], &d);
    if (rc == 0) {
        uint8_t digest[RL_SHA256_BYTES];
        char hex[2 * RL_SHA256_BYTES + 1];
        rl_sha256(buf[0], len[0], digest);
        rl_sha256_hex(digest, hex);
        printf("identical: %zu bytes, SHA-256 %s\n", len[0], hex);
        rc = RL_COMPARE_SAME;
    }
    else if (rc == 1) {
        if (a->compare_to[0])
            printf("reference: %s\n", a->compare_to);
        rl_mp3_diff_print(stdout, &d, names, len);
        rc = RL_COMPARE_DIFFER;
    }
    else {
        fprintf(stderr, "ringlame: --compare: %s\n", strerror(-rc));
        rc = RL_COMPARE_FAILED;
    }
    fflush(stdout);
    free(buf[0]);
    free(buf[1]);
    return rc;
}
