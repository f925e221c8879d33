/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* --compare (compare_run.h). */
#include "compare_run.h"

#include <errno.h>
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

/* Runs lame on the input into out: 0, or RL_COMPARE_FAILED after a message. */
static int run_lame(const RlArgs *a, int argc, char **argv, const char *out)
{
    const char *lame = a->lame_path[0] ? a->lame_path : "lame";
    char **cargv = calloc((size_t) argc + 3, sizeof(*cargv));
    posix_spawnattr_t attr;
    sigset_t none, dflt;
    pid_t pid;
    int n = 0, rc, status;

    if (!cargv) {
        fprintf(stderr, "ringlame: --compare: out of memory\n");
        return RL_COMPARE_FAILED;
    }
    cargv[n++] = (char *) lame;
    for (int i = 1; i < argc && i < RL_ARGS_MAX_ARGV; i++)
        if (!a->own_arg[i] && i != a->in_argi && i != a->out_argi)
            cargv[n++] = argv[i];
    cargv[n++] = (char *) a->in_path;
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
    rc = posix_spawnattr_init(&attr);
    if (rc == 0) {
        (void) posix_spawnattr_setsigmask(&attr, &none);
        (void) posix_spawnattr_setsigdefault(&attr, &dflt);
        (void) posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        fflush(stdout);
        if (a->lame_path[0])
            rc = posix_spawn(&pid, lame, NULL, &attr, cargv, environ);
        else
            rc = posix_spawnp(&pid, lame, NULL, &attr, cargv, environ);
        posix_spawnattr_destroy(&attr);
    }
    free(cargv);
    if (rc != 0) {
        fprintf(stderr, "ringlame: --compare: cannot run lame '%s': %s\n", lame, strerror(rc));
        return RL_COMPARE_FAILED;
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "ringlame: --compare: waiting for lame '%s': %s\n", lame,
                    strerror(errno));
            return RL_COMPARE_FAILED;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        fprintf(stderr, "ringlame: --compare: lame '%s' could not be run (exit 127)\n", lame);
    else if (WIFEXITED(status))
        fprintf(stderr, "ringlame: --compare: lame '%s' failed (exit %d) on %s\n", lame,
                WEXITSTATUS(status), a->in_path);
    else
        fprintf(stderr, "ringlame: --compare: lame '%s' was killed by signal %d\n", lame,
                WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return RL_COMPARE_FAILED;
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
        rc = run_lame(a, argc, argv, lame_out);
        if (rc != 0)
            return rc;
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
