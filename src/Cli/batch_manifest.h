/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the manifest, a JSON Lines file with one object per
 * finished file:
 *   {"input":PATH,"size":BYTES,"mtime_ns":NS,"options":[TOKEN,...],
 *    "output":PATH,"output_size":BYTES,"sha256":HEX,"status":"encoded"|"failed",
 *    "reason":TEXT,"seconds":WALL,"audio_seconds":S[,"compare":VERDICT]}
 * ("compare" only with --compare: compare_run.h's short verdict).
 * Each line is appended with one write() on an O_APPEND descriptor, so an
 * interrupted batch leaves whole lines; a line that does not parse (a
 * crash in the middle of a write) is ignored when the file is read.  For
 * an input named on several lines the last one counts. */
#ifndef RL_BATCH_MANIFEST_H
#define RL_BATCH_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

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

/* Reads path; a missing file gives an empty manifest.  0 or -errno. */
int rl_manifest_load(RlManifest *m, const char *path);
void rl_manifest_free(RlManifest *m);

/* The last record for input, NULL if none. */
const RlManifestRec *rl_manifest_find(const RlManifest *m, const char *input);

/* Opens path for appending (created 0644).  fd or -errno. */
int rl_manifest_open(const char *path);

/* Appends r as one line with one write.  0 or -errno. */
int rl_manifest_append(int fd, const RlManifestRec *r);

/* Parses one line into r (its strings malloc'ed into *store, to be freed
 * with free()).  0, or -EINVAL when it is not a complete record. */
int rl_manifest_parse_line(const char *line, RlManifestRec *r, char **store);

/* --shard k/n: the part of the manifest that share k of n writes,
 * beside it: DIR/.ringlame-manifest.k-of-n.jsonl.  0 or -ENAMETOOLONG. */
int rl_manifest_part_path(char *buf, size_t len, const char *manifest, int k, int n);

/* --merge-manifests: the parts beside manifest (any k-of-n) and manifest
 * itself are read, oldest file (modification time) first, and manifest is
 * replaced (a temporary file renamed over it) by their last line for each
 * input, sorted by input.  The parts stay.  A share k of an n that has a
 * part while k's part is missing is named on stderr; a summary line
 * unless quiet.  The number of missing shares, or -errno (-ENOENT: no
 * part at all). */
int rl_manifest_merge(const char *manifest, int quiet);

#endif
