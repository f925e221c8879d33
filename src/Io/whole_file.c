/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: a small file read whole into memory (whole_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "whole_file.h"

int rl_whole_file_read(const char *path, uint8_t **buf, size_t *len)
{
    struct stat st;
    uint8_t *b;
    size_t n, got = 0;
    int fd, rc = 0;

    *buf = NULL;
    *len = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno ? -errno : -ENOENT;
    if (fstat(fd, &st) < 0) {
        rc = -EIO;
    }
    else if (S_ISDIR(st.st_mode) || st.st_size < 0 || (uintmax_t) st.st_size > SIZE_MAX - 1) {
        rc = -ENOMEM;           /* lame's malloc of a folder's "size" fails */
    }
    else {
        /* what is not a regular file has no size: it counts as empty */
        n = S_ISREG(st.st_mode) ? (size_t) st.st_size : 0;
        b = malloc(n + 1);
        if (!b) {
            rc = -ENOMEM;
        }
        else {
            while (got < n) {
                ssize_t const r = read(fd, b + got, n - got);
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0) {
                    rc = -EIO;
                    break;
                }
                got += (size_t) r;
            }
            if (rc < 0)
                free(b);
            else {
                *buf = b;
                *len = got;
            }
        }
    }
    close(fd);
    return rc;
}
