/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame's unit-test harness: header only, one test program per .c file.
 *
 *   CHECK(cond, fmt, ...)          counts a pass, or a failure printed as
 *                                  "FAIL file:line: message"; its value is cond
 *   CHECK_EQ(got, want, fmt, ...)  the same for two integers, printing both
 *   return rl_test_done();         prints "N passed, M failed" (CTest and the
 *                                  identity scripts read that line); exit
 *                                  status 1 on a failure or when no check ran
 *   rl_test_skip(fmt, ...)         "skip: reason" and exit 77 (CTest's
 *                                  SKIP_RETURN_CODE): the test cannot run here
 *   rl_test_fatal(fmt, ...)        a broken setup: one more failure, the
 *                                  summary line, exit 1
 *   rl_test_seed(default)          RL_TEST_SEED from the environment, else the
 *                                  default; prints the seed so that a failure
 *                                  can be replayed
 * and the helpers several tests share: the reference lame, temporary
 * folders, whole files, running a command for its output.  The counters are
 * updated atomically, so CHECK may be called from any thread.  Functions
 * that can fail return 0 (or a count) on success and a negative errno. */
#ifndef RL_TEST_HARNESS_H
#define RL_TEST_HARNESS_H

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RL_TEST_SKIP_CODE 77

static int rl_test_passed_, rl_test_failed_;

__attribute__((format(printf, 3, 0)))
static inline void rl_test_vfail_(const char *file, int line, const char *fmt, va_list ap)
{
    __atomic_add_fetch(&rl_test_failed_, 1, __ATOMIC_RELAXED);
    flockfile(stdout);
    if (file)
        printf("FAIL %s:%d: ", file, line);
    else
        printf("FAIL: ");
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    funlockfile(stdout);
}

__attribute__((format(printf, 4, 5)))
static inline int rl_test_check_(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        __atomic_add_fetch(&rl_test_passed_, 1, __ATOMIC_RELAXED);
        return 1;
    }
    va_start(ap, fmt);
    rl_test_vfail_(file, line, fmt, ap);
    va_end(ap);
    return 0;
}

__attribute__((format(printf, 5, 6)))
static inline int rl_test_check_eq_(long long got, long long want, const char *file, int line,
                                    const char *fmt, ...)
{
    va_list ap;
    if (got == want) {
        __atomic_add_fetch(&rl_test_passed_, 1, __ATOMIC_RELAXED);
        return 1;
    }
    flockfile(stdout);
    va_start(ap, fmt);
    rl_test_vfail_(file, line, fmt, ap);
    va_end(ap);
    printf("     got %lld (0x%llx), want %lld (0x%llx)\n", got, (unsigned long long)got, want,
           (unsigned long long)want);
    fflush(stdout);
    funlockfile(stdout);
    return 0;
}

#define CHECK(cond, ...) rl_test_check_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ(got, want, ...) \
    rl_test_check_eq_((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)

/* The failures so far. */
static inline int rl_test_failures(void)
{
    return __atomic_load_n(&rl_test_failed_, __ATOMIC_RELAXED);
}

/* The summary line; the test's exit status.  A test that checked nothing
 * has not passed. */
static inline int rl_test_done(void)
{
    int passed = __atomic_load_n(&rl_test_passed_, __ATOMIC_RELAXED);
    int failed = __atomic_load_n(&rl_test_failed_, __ATOMIC_RELAXED);
    if (passed + failed == 0) {
        printf("FAIL: no check ran\n");
        failed = 1;
    }
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed ? 1 : 0;
}

__attribute__((format(printf, 1, 2), noreturn))
static inline void rl_test_skip(const char *fmt, ...)
{
    va_list ap;
    printf("skip: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    exit(RL_TEST_SKIP_CODE);
}

__attribute__((format(printf, 1, 2), noreturn))
static inline void rl_test_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rl_test_vfail_(NULL, 0, fmt, ap);
    va_end(ap);
    exit(rl_test_done());
}

/* RL_TEST_SEED (decimal, or 0x hex) when set, else dflt; printed either way. */
static inline unsigned long rl_test_seed(unsigned long dflt)
{
    const char *s = getenv("RL_TEST_SEED");
    unsigned long seed = dflt;
    if (s && *s) {
        char *end;
        errno = 0;
        seed = strtoul(s, &end, 0);
        if (errno || *end)
            rl_test_fatal("RL_TEST_SEED=%s is not a number", s);
    }
    printf("seed %lu (replay: RL_TEST_SEED=%lu)\n", seed, seed);
    fflush(stdout);
    return seed;
}

/* The reference encoder: $LAME, else /usr/bin/lame; NULL when it cannot run. */
static inline const char *rl_test_lame(void)
{
    const char *p = getenv("LAME");
    if (!p || !*p)
        p = "/usr/bin/lame";
    return access(p, X_OK) == 0 ? p : NULL;
}

/* A fresh folder $TMPDIR/rl-<tag>.XXXXXX (TMPDIR default /tmp) into buf. */
static inline int rl_test_tmpdir(char *buf, size_t size, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(buf, size, "%s/rl-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
    if (n < 0 || (size_t)n >= size)
        return -ENAMETOOLONG;
    return mkdtemp(buf) ? 0 : -errno;
}

static inline int rl_test_rm_entry_(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path) == 0 ? 0 : -errno;
}

/* Removes path and everything below it (links are not followed). */
static inline int rl_test_rmtree(const char *path)
{
    return nftw(path, rl_test_rm_entry_, 16, FTW_DEPTH | FTW_PHYS);
}

static inline int rl_test_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The number of entries in a folder, "." and ".." not counted. */
static inline int rl_test_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -errno;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* Up to cap bytes of path into buf: the count read. */
static inline long rl_test_read_file(const char *path, void *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n;
    int bad;
    if (!f)
        return -errno;
    n = fread(buf, 1, cap, f);
    bad = ferror(f);
    fclose(f);
    return bad ? -EIO : (long)n;
}

/* A whole stream into a malloc'ed buffer (*buf, *len; free(*buf)). */
static inline int rl_test_read_stream_(FILE *f, uint8_t **buf, size_t *len)
{
    size_t cap = 65536, n = 0;
    uint8_t *p = malloc(cap);
    if (!p)
        return -ENOMEM;
    for (;;) {
        size_t got = fread(p + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        uint8_t *q = realloc(p, cap *= 2);
        if (!q) {
            free(p);
            return -ENOMEM;
        }
        p = q;
    }
    if (ferror(f)) {
        free(p);
        return -EIO;
    }
    *buf = p;
    *len = n;
    return 0;
}

/* A whole file into a malloc'ed buffer (*buf, *len; free(*buf)). */
static inline int rl_test_slurp(const char *path, uint8_t **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    int rc;
    if (!f)
        return -errno;
    rc = rl_test_read_stream_(f, buf, len);
    fclose(f);
    return rc;
}

static inline int rl_test_write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    int rc;
    if (!f)
        return -errno;
    rc = fwrite(p, 1, n, f) == n ? 0 : -EIO;
    if (fclose(f) != 0 && rc == 0)
        rc = -EIO;
    return rc;
}

/* 1: the two files hold the same bytes, 0: they differ, or a negative errno. */
static inline int rl_test_files_equal(const char *a, const char *b)
{
    uint8_t *pa = NULL, *pb = NULL;
    size_t la = 0, lb = 0;
    int rc = rl_test_slurp(a, &pa, &la);
    if (rc == 0)
        rc = rl_test_slurp(b, &pb, &lb);
    if (rc == 0)
        rc = la == lb && memcmp(pa, pb, la) == 0;
    free(pa);
    free(pb);
    return rc;
}

/* Runs a shell command; with out, its standard output is kept in a malloc'ed
 * buffer (*out, *len), else it is discarded.  The command's exit status, or a
 * negative errno (-EINTR: killed by a signal). */
static inline int rl_test_run(const char *cmd, uint8_t **out, size_t *len)
{
    FILE *p;
    int rc = 0, status;
    fflush(stdout);
    p = popen(cmd, "r");
    if (!p)
        return -errno;
    if (out) {
        rc = rl_test_read_stream_(p, out, len);
    } else {
        char sink[4096];
        while (fread(sink, 1, sizeof sink, p) > 0) {
        }
    }
    status = pclose(p);
    if (rc < 0) {
        if (out)
            *out = NULL;
        return rc;
    }
    if (status == -1)
        return -errno;
    if (!WIFEXITED(status))
        return -EINTR;
    return WEXITSTATUS(status);
}

#endif
