/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: a small file read whole into memory (the album art of --ti). */
#ifndef RL_WHOLE_FILE_H
#define RL_WHOLE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Reads path into *buf (malloc'd, at least one byte even for an empty
 * file) and *len.  0, or: -ENOENT (or another open error) when it cannot
 * be opened, -ENOMEM when it does not fit in memory (a folder counts as
 * that, as lame finds it), -EIO when reading fails. */
int rl_whole_file_read(const char *path, uint8_t **buf, size_t *len);

#endif
