/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MP3 output file: written as an unnamed file in the output's
 * directory and linked into place on commit. */
#ifndef RL_MP3_WRITER_H
#define RL_MP3_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct RlMp3Writer RlMp3Writer;

/* Opens the output.  path "-" = stdout (never seekable: no tag frame).  A
 * regular file (through a symlink: its target) is written as an unnamed
 * file (O_TMPFILE) in its directory, which rl_mp3_close(w, 1) links into
 * place: whatever ends the process before that, no file is left.  Where
 * the filesystem has no O_TMPFILE, a named temporary
 * ".ringlame-<pid>-<n>.tmp" in that directory is used instead
 * (rl_mp3_temp_name).  An existing output is replaced only if this user
 * can open it for writing (else -EACCES/-EPERM and nothing is created),
 * and the new file takes its mode and owner as far as this user may set
 * them; the old inode is replaced, so other hard links to it keep the old
 * content.  A device or FIFO path is written directly.  On failure *out is
 * NULL, err holds a message naming the path, and a negative errno is
 * returned. */
int rl_mp3_open(RlMp3Writer **out, const char *path, char *err, size_t errlen);

/* Appends n bytes (buffered).  0 or -errno; after an error every call fails. */
int rl_mp3_write(RlMp3Writer *w, const uint8_t *p, size_t n);

/* Overwrites n bytes at offset (the tag frame at 0).  -ESPIPE when the
 * output cannot seek (stdout, pipes). */
int rl_mp3_write_at(RlMp3Writer *w, uint64_t offset, const uint8_t *p, size_t n);

/* 1 if rl_mp3_write_at can work. */
int rl_mp3_is_seekable(const RlMp3Writer *w);

/* For the I/O scheduler: writes out the buffer and returns the
 * file descriptor, which the scheduler then writes to directly (pwrite at
 * offsets from the current file position, or write() when not seekable)
 * until it stops.  -errno if an earlier write failed. */
int rl_mp3_take_fd(RlMp3Writer *w);

/* The named temporary of the fallback, NULL when the file is unnamed,
 * written directly or stdout (what an immediate exit must remove). */
const char *rl_mp3_temp_name(const RlMp3Writer *w);

/* commit=1: flush and move the file into place; commit=0: remove the partial
 * output.  Frees w in every case.  0 or -errno (a failed commit removes the
 * temporary file: no partial output is left). */
int rl_mp3_close(RlMp3Writer *w, int commit);

#endif
