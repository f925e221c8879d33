/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the manifest, a JSON Lines file with one object per
 * finished file:
 *   {"input":PATH,"size":BYTES,"mtime_ns":NS,"options":[TOKEN,...],
 *    "output":PATH,"output_size":BYTES,"sha256":HEX,"status":"encoded"|"failed",
 *    "reason":TEXT,"seconds":WALL,"audio_seconds":S[,"compare":VERDICT]}
 * ("compare" only with --compare: compare_run.h's short verdict).
 * Strings are JSON strings of the bytes: valid UTF-8 as it is, and each
 * byte that is not part of valid UTF-8 written as the lone surrogate
 * \udcXX (XX the byte; Python's "surrogateescape": os.fsencode of the
 * decoded string gives the bytes back), so any file name makes valid JSON
 * and reads back to itself.
 *
 * The file is a log that cannot tear: it is opened without blocking and
 * only as a regular file, locked (flock, exclusive, not waiting) for the
 * whole run, each record is one line written with one write() on an
 * O_APPEND descriptor and fdatasync'ed; a write that fails or is short
 * (a full disk) is cut off again.  A run that finds an incomplete last
 * line (a crash in the middle of a write) moves it to PATH.torn before it
 * appends.  Lines that do not parse are ignored when the file is read.
 * For an input named on several lines the last one counts. */
#ifndef RL_BATCH_MANIFEST_H
#define RL_BATCH_MANIFEST_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct RlManifestRec {
    const char *input;
    int64_t     size, mtime_ns;
    const char *options;      /* the JSON array text (rl_manifest_options_json) */
    const char *output;
    int64_t     output_size;
    const char *sha256;       /* 64 hex digits, "" when failed */
    int         encoded;      /* 1 "encoded", 0 "failed" */
    const char *reason;       /* "" when encoded */
    double      seconds, audio_seconds;
    const char *compare;      /* --compare's verdict; NULL or "" (read: "") when none */
} RlManifestRec;

/* The records read from a manifest (strings owned by it). */
typedef struct RlManifest {
    RlManifestRec *v;
    size_t n;
} RlManifest;

/* The JSON array of the tokens, malloc'ed; NULL when out of memory. */
char *rl_manifest_options_json(const char *const *tok, int n);

/* rl_manifest_open's errors besides -errno: path is not a regular file
 * (a FIFO, a socket, a device, a folder); another run holds its lock. */
#define RL_MANIFEST_NOT_REGULAR (-ENOTSUP - 4096)
#define RL_MANIFEST_LOCKED      (-EWOULDBLOCK - 4096)
const char *rl_manifest_strerror(int rc);

/* Reads path (without blocking; regular files only) or, fd >= 0, the
 * open file from its start; a missing path gives an empty manifest.
 * 0 or -errno. */
int rl_manifest_load(RlManifest *m, const char *path);
int rl_manifest_load_fd(RlManifest *m, const char *path, int fd);

/* Calls fn for each complete line that parses, in order (line: its text
 * with the newline, len bytes; r's strings are the caller's to free,
 * with free((void *) r->input)).  fn returns 0 to go on, or -errno to
 * stop with it.  path/fd as for rl_manifest_load. */
typedef int (*RlManifestLineFn)(void *arg, const char *line, size_t len, RlManifestRec *r);
int rl_manifest_read(const char *path, int fd, RlManifestLineFn fn, void *arg);

/* An incomplete last line of the open manifest fd (named path) is
 * appended to path.torn and cut off; if that fails, a newline ends it.
 * msg says what was done ("" when the file ended with a whole line).
 * 0, or -errno when nothing could be done (msg says so). */
int rl_manifest_set_aside_tail(int fd, const char *path, char *msg, size_t msglen);
void rl_manifest_free(RlManifest *m);

/* The last record for input, NULL if none. */
const RlManifestRec *rl_manifest_find(const RlManifest *m, const char *input);

/* Opens path for appending and reading (created 0644), a regular file
 * only, without blocking, and locked for the process's life (closing
 * the fd unlocks it).  fd, or RL_MANIFEST_NOT_REGULAR, RL_MANIFEST_LOCKED
 * or -errno. */
int rl_manifest_open(const char *path);

/* 1 if a running batch holds path's lock. */
int rl_manifest_in_use(const char *path);

/* Appends r as one line with one write, then fdatasync.  A failed write
 * leaves the file as it was.  0 or -errno. */
int rl_manifest_append(int fd, const RlManifestRec *r);

/* Parses one line into r (its strings malloc'ed into *store, to be freed
 * with free()).  0, or -EINVAL when it is not a complete record. */
int rl_manifest_parse_line(const char *line, RlManifestRec *r, char **store);

/* Makes room for one more element of size bytes in *v (n used, *cap
 * allocated; the first allocation holds first).  0 or -ENOMEM. */
int rl_grow(void **v, size_t *cap, size_t n, size_t size, size_t first);

/* A new file written beside path, to be put in its place whole: opens
 * path.TAG-PID (in tmp) for writing.  The stream, or NULL with -errno in
 * *err. */
FILE *rl_temp_open(const char *path, const char *tag, char *tmp, size_t tmplen, int *err);
/* Flushes, syncs and closes the stream; rc: an earlier error (kept).  The
 * temporary file is removed when the result is an error.  0 or -errno. */
int rl_temp_close(FILE *f, const char *tmp, int rc);

/* The JSON string (quotes included) of s, escaped as the manifest's
 * strings are; malloc'ed, NULL when out of memory. */
char *rl_json_string(const char *s);

/* The fields keys[0..nkeys) (nkeys <= 30) of the flat JSON object in
 * line: a string value into str[i] (malloc'ed, decoded as the manifest's
 * strings), an integer into num[i]; the first of a repeated key counts.
 * A bit mask of the keys found, or -EINVAL (nothing to free) when line
 * is not such an object. */
int rl_json_fields(const char *line, const char *const *keys, int nkeys, char **str,
                   int64_t *num);

/* --shard k/n: the part of the manifest that share k of n writes,
 * beside it: DIR/.ringlame-manifest.k-of-n.jsonl.  0 or -ENAMETOOLONG. */
int rl_manifest_part_path(char *buf, size_t len, const char *manifest, int k, int n);

/* --merge-manifests: the parts beside manifest (any k-of-n) and manifest
 * itself are read, oldest file (modification time) first, and manifest is
 * replaced (a temporary file renamed over it, under manifest's lock) by
 * their last line for each input, sorted by input.  The parts stay.  A
 * share k of an n that has a part while k's part is missing, or is still
 * locked by its shard, is named on stderr, and so is every input of a
 * shard plan beside it (batch_plan.h) that no line records; a plan whose
 * every input is recorded, with no share missing, is removed (done).  A
 * summary line unless quiet.  The number of missing shares and
 * unrecorded planned inputs, or -errno (-ENOENT: no part at all;
 * RL_MANIFEST_LOCKED: a batch is using the manifest). */
int rl_manifest_merge(const char *manifest, int quiet);

#endif
