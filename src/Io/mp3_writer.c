/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MP3 output file: written as an unnamed file in the output's
 * directory and linked into place on commit. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
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
    char    *tmp;            /* named temporary (only without O_TMPFILE), else NULL */
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

/* The directory part of path ("." for a bare name), malloc'ed. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n;
    char *d;
    if (!slash)
        return strdup(".");
    n = slash == path ? 1 : (size_t) (slash - path);
    d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* A name in dir that is ours alone: "<dir>/.ringlame-<pid>-<n>.tmp" (short,
 * so that it fits wherever the output name fits).  With create, the file is
 * created exclusively (mode 0666 minus umask, like fopen) and its fd is
 * returned; without, only the name is made (the caller's link reserves it
 * and retries on EEXIST).  fd/0 or -errno; *name_out malloc'ed. */
static int temp_name(const char *dir, int create, char **name_out)
{
    size_t const len = strlen(dir) + 64;
    char *name = malloc(len);
    struct timespec ts;
    if (!name)
        return -ENOMEM;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    for (unsigned tries = 0; tries < 100; tries++) {
        int fd;
        snprintf(name, len, "%s/.ringlame-%ld-%lx.tmp", dir, (long) getpid(),
                 (unsigned long) ts.tv_nsec + tries);
        if (!create) {
            *name_out = name;
            return 0;
        }
        fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *name_out = name;
            return fd;
        }
        if (errno != EEXIST) {
            int const e = errno;
            free(name);
            return -e;
        }
    }
    free(name);
    return -EEXIST;
}

/* The new file: unnamed (O_TMPFILE) in the target's directory, so that
 * nothing is left behind whatever ends the process; a named temporary only
 * where the filesystem has no O_TMPFILE. */
static int open_new_file(RlMp3Writer *w, const char *target)
{
    char *dir = dir_of(target);
    int fd;
    if (!dir)
        return -ENOMEM;
    fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
        fd = temp_name(dir, 1, &w->tmp);
    else if (fd < 0)
        fd = -errno;
    free(dir);
    return fd;
}

/* An existing output is replaced only where this user could open it for
 * writing (as lame's fopen would), and the new file takes its mode and
 * owner as far as this user may set them.  0 or -errno. */
static int take_over_existing(int fd, const char *target, const struct stat *st)
{
    int const probe = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (probe < 0)
        return -errno;
    close(probe);
    if (fchown(fd, st->st_uid, st->st_gid) < 0 && fchown(fd, (uid_t) -1, st->st_gid) < 0) {
        /* neither owner nor group may be given away: the file stays ours */
    }
    (void) fchmod(fd, st->st_mode & 07777);
    return 0;
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
    fd = open_new_file(w, target);
    if (fd < 0) {
        set_err(err, errlen, "cannot create output file for", path, -fd);
        free(target);
        free(w);
        return fd;
    }
    if (stat(target, &st) == 0) {
        int const rc = take_over_existing(fd, target, &st);
        if (rc < 0) {
            close(fd);
            if (w->tmp)
                unlink(w->tmp);
            set_err(err, errlen, "cannot write", path, -rc);
            free(w->tmp);
            free(target);
            free(w);
            return rc;
        }
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

const char *rl_mp3_temp_name(const RlMp3Writer *w)
{
    return w ? w->tmp : NULL;
}

/* Gives the unnamed file fd the name target.  A new name is linked
 * directly.  An existing output is replaced atomically: a link to a
 * temporary name renamed over the target, with the catchable signals
 * blocked for those two calls (only SIGKILL or a crash between them can
 * leave the temporary name). */
static int link_into_place(int fd, const char *target)
{
    char proc[64];
    char *dir, *tmp = NULL;
    sigset_t all, old;
    int rc = -EEXIST;

    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno == ENOENT && linkat(fd, "", AT_FDCWD, target, AT_EMPTY_PATH) == 0)
        return 0;               /* no /proc: needs CAP_DAC_READ_SEARCH */
    if (errno != EEXIST)
        return -errno;
    dir = dir_of(target);
    if (!dir)
        return -ENOMEM;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int tries = 0; tries < 100 && rc == -EEXIST; tries++) {
        rc = temp_name(dir, 0, &tmp);
        if (rc < 0)
            break;
        if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0
            || (errno == ENOENT && linkat(fd, "", AT_FDCWD, tmp, AT_EMPTY_PATH) == 0)) {
            rc = rename(tmp, target) == 0 ? 0 : -errno;
            if (rc < 0)
                unlink(tmp);
        } else {
            rc = -errno;
        }
        free(tmp);
        tmp = NULL;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(dir);
    return rc;
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
    if (commit && ret == 0 && w->path && !w->tmp)
        ret = link_into_place(w->fd, w->path);
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
