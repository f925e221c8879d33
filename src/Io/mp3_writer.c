/* ringlame: MP3 output file: written through a temporary file and renamed into place on commit.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mp3_writer.h"

#define WRITER_BUF 65536

struct RlMp3Writer {
    int      fd;
    int      seekable;
    int      is_stdout;
    int      error;          /* first error, sticky */
    char    *path;           /* final path (NULL for stdout / direct) */
    char    *tmp;            /* temporary path (NULL when written directly) */
    size_t   fill;
    uint8_t  buf[WRITER_BUF];
};

static void set_err(char *err, size_t errlen, const char *what, const char *path, int e)
{
    if (err && errlen)
        snprintf(err, errlen, "%s '%s': %s", what, path, strerror(e));
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t const r = write(fd, p, n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static int pwrite_all(int fd, const uint8_t *p, size_t n, off_t off)
{
    while (n > 0) {
        ssize_t const r = pwrite(fd, p, n, off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        p += r;
        n -= (size_t)r;
        off += r;
    }
    return 0;
}

static int flush_buf(RlMp3Writer *w)
{
    int ret;
    if (w->error)
        return w->error;
    if (w->fill == 0)
        return 0;
    ret = write_all(w->fd, w->buf, w->fill);
    w->fill = 0;
    if (ret < 0)
        w->error = ret;
    return ret;
}

/* Creates "<path>.<pid>-<n>.tmp" exclusively; mode 0666 minus umask like fopen. */
static int open_temp(const char *path, char **tmp_out)
{
    size_t const len = strlen(path) + 64;
    char *tmp = malloc(len);
    struct timespec ts;
    if (!tmp)
        return -ENOMEM;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    for (unsigned tries = 0; tries < 100; tries++) {
        int fd;
        snprintf(tmp, len, "%s.%ld-%lx.tmp", path, (long)getpid(),
                 (unsigned long)ts.tv_nsec + tries);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp_out = tmp;
            return fd;
        }
        if (errno != EEXIST) {
            int const e = errno;
            free(tmp);
            return -e;
        }
    }
    free(tmp);
    return -EEXIST;
}

int rl_mp3_open(RlMp3Writer **out, const char *path, char *err, size_t errlen)
{
    RlMp3Writer *w;
    struct stat st;
    char *target = NULL;
    int fd;

    *out = NULL;
    if (!path || !*path) {
        set_err(err, errlen, "invalid output path", "", EINVAL);
        return -EINVAL;
    }
    w = calloc(1, sizeof *w);
    if (!w) {
        set_err(err, errlen, "cannot open", path, ENOMEM);
        return -ENOMEM;
    }
    if (strcmp(path, "-") == 0) {
        w->fd = STDOUT_FILENO;
        w->is_stdout = 1;
        w->seekable = 0;   /* LAME never writes the tag to stdout */
        *out = w;
        return 0;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* device or FIFO: write in place, nothing to rename or remove */
        fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            int const e = errno;
            set_err(err, errlen, "cannot open", path, e);
            free(w);
            return -e;
        }
        w->fd = fd;
        w->seekable = lseek(fd, 0, SEEK_CUR) >= 0 && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode);
        *out = w;
        return 0;
    }
    /* write through a symlink to its target */
    target = realpath(path, NULL);
    if (!target) {
        target = strdup(path);
        if (!target) {
            set_err(err, errlen, "cannot open", path, ENOMEM);
            free(w);
            return -ENOMEM;
        }
    }
    fd = open_temp(target, &w->tmp);
    if (fd < 0) {
        set_err(err, errlen, "cannot create output file for", path, -fd);
        free(target);
        free(w);
        return fd;
    }
    w->fd = fd;
    w->path = target;
    w->seekable = 1;
    *out = w;
    return 0;
}

int rl_mp3_write(RlMp3Writer *w, const uint8_t *p, size_t n)
{
    if (w->error)
        return w->error;
    if (n >= WRITER_BUF) {
        int ret = flush_buf(w);
        if (ret < 0)
            return ret;
        ret = write_all(w->fd, p, n);
        if (ret < 0)
            w->error = ret;
        return ret;
    }
    if (w->fill + n > WRITER_BUF) {
        int const ret = flush_buf(w);
        if (ret < 0)
            return ret;
    }
    memcpy(w->buf + w->fill, p, n);
    w->fill += n;
    return 0;
}

int rl_mp3_write_at(RlMp3Writer *w, uint64_t offset, const uint8_t *p, size_t n)
{
    int ret;
    if (!w->seekable)
        return -ESPIPE;
    ret = flush_buf(w);
    if (ret < 0)
        return ret;
    ret = pwrite_all(w->fd, p, n, (off_t)offset);
    if (ret < 0)
        w->error = ret;
    return ret;
}

int rl_mp3_is_seekable(const RlMp3Writer *w)
{
    return w->seekable;
}

int rl_mp3_take_fd(RlMp3Writer *w)
{
    int const ret = flush_buf(w);
    return ret < 0 ? ret : w->fd;
}

int rl_mp3_close(RlMp3Writer *w, int commit)
{
    int ret = 0;
    if (!w)
        return 0;
    if (commit)
        ret = flush_buf(w);
    if (w->is_stdout) {
        free(w);
        return ret;
    }
    if (close(w->fd) < 0 && ret == 0 && commit)
        ret = -errno;
    if (w->tmp) {
        if (commit && ret == 0 && rename(w->tmp, w->path) < 0)
            ret = -errno;
        if (!commit || ret < 0)
            unlink(w->tmp);
    }
    free(w->tmp);
    free(w->path);
    free(w);
    return ret;
}
