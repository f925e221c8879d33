/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz targets: shared helpers (a byte consumer, a private temporary
 * folder, files in and out, stdin redirection).  Header-only: each target is
 * one translation unit, linked either with libFuzzer (clang,
 * -fsanitize=fuzzer) or with standalone_main.c (any compiler; CTest).
 * See docs/reliability.md. */
#ifndef RL_FUZZ_UTIL_H
#define RL_FUZZ_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the entry point every target defines (libFuzzer's, or standalone_main.c's caller) */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if defined(__GNUC__)
#define FZ_UNUSED __attribute__((unused))
#else
#define FZ_UNUSED
#endif

/* A finding that is not a crash (a broken invariant): say what, then abort()
 * so that libFuzzer saves the input and the standalone run fails. */
#define FZ_CHECK(cond, ...)                                                    \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "FUZZ INVARIANT BROKEN (%s:%d): ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* ---- the fuzz bytes, consumed from the front; zeros once exhausted ---- */
typedef struct FzBytes {
    const uint8_t *p;
    size_t n;
} FzBytes;

static FZ_UNUSED unsigned fz_u8(FzBytes *b)
{
    unsigned v;
    if (b->n == 0)
        return 0;
    v = b->p[0];
    b->p++;
    b->n--;
    return v;
}

static FZ_UNUSED unsigned fz_u16(FzBytes *b)
{
    unsigned v = fz_u8(b);
    return v | fz_u8(b) << 8;
}

/* one of n choices (n >= 1) */
static FZ_UNUSED unsigned fz_pick(FzBytes *b, unsigned n)
{
    return fz_u8(b) % n;
}

/* ---- a private folder for this process, removed at exit ---- */
static char fz_dir_path[256];

static void fz_dir_cleanup(void)
{
    static const char *const names[] = { "in.wav", "in.aiff", "in.raw", "in.bin", "in.vox",
                                         "in.mp3", "in.pcm", "stdin.bin", "seq.mp3",
                                         "ring.mp3", NULL };
    char p[320];
    int i;
    if (!fz_dir_path[0])
        return;
    for (i = 0; names[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", fz_dir_path, names[i]);
        unlink(p);
    }
    rmdir(fz_dir_path);   /* fails harmlessly if something else is left */
}

/* Removes the folders of fuzz processes that died without their atexit
 * (a crash, a timeout, an out-of-memory kill): rlfuzz.<pid>.* whose
 * process is gone.  Long fork-mode runs would otherwise fill /dev/shm. */
static void fz_sweep_stale(const char *base)
{
    DIR *d = opendir(base);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        long pid;
        char *end;
        if (strncmp(e->d_name, "rlfuzz.", 7) != 0)
            continue;
        pid = strtol(e->d_name + 7, &end, 10);
        if (end == e->d_name + 7 || *end != '.' || pid <= 0 || pid == (long)getpid()
            || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        {
            char dir[320], f[640];
            DIR *sd;
            struct dirent *se;
            snprintf(dir, sizeof dir, "%s/%s", base, e->d_name);
            sd = opendir(dir);
            if (!sd)
                continue;
            while ((se = readdir(sd)) != NULL) {
                if (strcmp(se->d_name, ".") == 0 || strcmp(se->d_name, "..") == 0)
                    continue;
                snprintf(f, sizeof f, "%s/%s", dir, se->d_name);
                unlink(f);
            }
            closedir(sd);
            rmdir(dir);
        }
    }
    closedir(d);
}

/* The folder: $RL_FUZZ_TMPDIR, else /dev/shm (fast), else $TMPDIR, else /tmp. */
static FZ_UNUSED const char *fz_dir(void)
{
    if (!fz_dir_path[0]) {
        const char *bases[4];
        int i, nb = 0;
        const char *e = getenv("RL_FUZZ_TMPDIR");
        if (e && *e)
            bases[nb++] = e;
        bases[nb++] = "/dev/shm";
        e = getenv("TMPDIR");
        if (e && *e)
            bases[nb++] = e;
        bases[nb++] = "/tmp";
        for (i = 0; i < nb; i++) {
            fz_sweep_stale(bases[i]);
            snprintf(fz_dir_path, sizeof fz_dir_path, "%s/rlfuzz.%ld.XXXXXX", bases[i],
                     (long)getpid());
            if (mkdtemp(fz_dir_path))
                break;
            fz_dir_path[0] = '\0';
        }
        if (!fz_dir_path[0]) {
            fprintf(stderr, "fuzz: cannot create a temporary folder\n");
            abort();
        }
        atexit(fz_dir_cleanup);
    }
    return fz_dir_path;
}

static FZ_UNUSED void fz_path(char *out, size_t outlen, const char *name)
{
    snprintf(out, outlen, "%s/%s", fz_dir(), name);
}

/* Writes the file (truncating); aborts on failure (the harness, not the code
 * under test, is broken then). */
static FZ_UNUSED void fz_write_file(const char *path, const uint8_t *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    size_t off = 0;
    if (fd < 0) {
        fprintf(stderr, "fuzz: cannot create %s: %s\n", path, strerror(errno));
        abort();
    }
    while (off < n) {
        ssize_t w = write(fd, data + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            fprintf(stderr, "fuzz: cannot write %s: %s\n", path, strerror(errno));
            abort();
        }
        off += (size_t)w;
    }
    close(fd);
}

/* Reads a whole file into a malloc'd buffer; 0 or -errno (missing file). */
static FZ_UNUSED int fz_read_file(const char *path, uint8_t **buf, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    long len;
    *buf = NULL;
    *n = 0;
    if (!fp)
        return -errno;
    if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        return -EIO;
    }
    *buf = malloc((size_t)len + 1);
    if (!*buf || fread(*buf, 1, (size_t)len, fp) != (size_t)len) {
        free(*buf);
        *buf = NULL;
        fclose(fp);
        return -EIO;
    }
    fclose(fp);
    *n = (size_t)len;
    return 0;
}

/* Makes the process's stdin (fd 0 and the stdin FILE, buffer reset) read the
 * bytes: from a regular file (seekable, like `< file`) or from a pipe (like
 * `cat file |`; the pipe is filled and closed before the parser runs, so no
 * writer thread is needed: n must fit the pipe, 64 KiB by default). */
static FZ_UNUSED void fz_stdin_from(const uint8_t *data, size_t n, int use_pipe)
{
    char p[320];
    if (use_pipe && n <= 65536) {
        int fds[2];
        size_t off = 0;
        if (pipe(fds) != 0) {
            fprintf(stderr, "fuzz: pipe: %s\n", strerror(errno));
            abort();
        }
        while (off < n) {
            ssize_t w = write(fds[1], data + off, n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                fprintf(stderr, "fuzz: pipe write: %s\n", strerror(errno));
                abort();
            }
            off += (size_t)w;
        }
        close(fds[1]);
        /* freopen resets the FILE (buffer, EOF and error flags) and puts
         * the new descriptor on fd 0 */
        snprintf(p, sizeof p, "/proc/self/fd/%d", fds[0]);
        if (!freopen(p, "rb", stdin)) {
            fprintf(stderr, "fuzz: freopen %s: %s\n", p, strerror(errno));
            abort();
        }
        close(fds[0]);
        return;
    }
    fz_path(p, sizeof p, "stdin.bin");
    fz_write_file(p, data, n);
    if (!freopen(p, "rb", stdin)) {
        fprintf(stderr, "fuzz: freopen %s: %s\n", p, strerror(errno));
        abort();
    }
}

#endif
