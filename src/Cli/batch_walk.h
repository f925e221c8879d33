/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the inputs expanded into a list of (input, output)
 * pairs.  A named file is taken whatever its name; a named folder is
 * walked recursively (names sorted bytewise in each folder, entries whose
 * name starts with '.' skipped, symbolic links to folders not followed)
 * and gives the files whose suffix is one of lame's audio suffixes that
 * libsndfile reads: .wav .aif .aiff .au .snd .flac .w64 .ogg (any case),
 * and lame's MPEG suffixes .mp3 .mp2 .mp1 .mpg (not with -r, which would
 * read them as raw PCM); with -r also .raw and .pcm.  Outputs: lame's default name
 * (rl_args_default_output) beside the input, or with an output folder
 * under it, mirroring the path below a walked folder. */
#ifndef RL_BATCH_WALK_H
#define RL_BATCH_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct RlBatchItem {
    char   *in;           /* the input's path */
    char   *out;          /* the output's path */
    int64_t size;         /* the input's size and modification time (ns) */
    int64_t mtime_ns;
    dev_t   dev;          /* the input file (to find an output that is an input) */
    ino_t   ino;
    mode_t  mode;         /* its type (st_mode & S_IFMT), 0 when it could not be read */
    int     error;        /* -errno: the input could not be read (stat), or
                           * RL_BATCH_NOT_REGULAR: a FIFO, socket or device */
    int     walked;       /* 1: found in a walked folder; 0: named */
} RlBatchItem;

#define RL_BATCH_NOT_REGULAR (-4096 - 1)

typedef struct RlBatchList {
    RlBatchItem *v;
    size_t n, cap;
    /* the manifests (.ringlame-manifest*.jsonl) found in walked folders:
     * earlier batches' records of the outputs they wrote there */
    char **manifests;
    size_t n_manifests;
    /* may be NULL: called with each path just before the walk (and the
     * drop and collision checks below) stats, lists or opens it: the
     * caller's stall watch takes it as a sign of progress and as the place
     * where a stall is */
    void (*visit)(void *arg, const char *path);
    void *visit_arg;
} RlBatchList;

/* A file, as the same file whatever its name. */
typedef struct RlFileId {
    dev_t dev;
    ino_t ino;
} RlFileId;

/* "a FIFO", "a socket", ... for a file type (st_mode & S_IFMT). */
const char *rl_batch_type_name(mode_t mode);

/* Appends the items of one named input (a file, or a folder walked).  A
 * name that cannot be read is added with .error set; so is a file that
 * is not a regular one (RL_BATCH_NOT_REGULAR: named, or found in a walked
 * folder, where the caller reports and drops it, rl_batch_drop_irregular).  out_dir NULL or "":
 * beside the inputs.  0, or -ENOMEM / -ENAMETOOLONG (err says which
 * path). */
int rl_batch_walk(RlBatchList *l, const char *input, const char *out_dir, int raw,
                  char *err, size_t errlen);

/* Drops the walked items that are an output of the batch (any item's,
 * by name or as the same file): an earlier run's outputs beside the
 * inputs (x.wav's x.mp3, an MP3 input's x.mp3.mp3, as lame names them)
 * or in an output folder inside a walked one are not inputs of the next
 * run.  A named input is never dropped.  0 or -ENOMEM. */
int rl_batch_drop_outputs(RlBatchList *l);

/* Drops the walked items that are not regular files, calling report(arg,
 * item) for each first. */
void rl_batch_drop_irregular(RlBatchList *l, void (*report)(void *arg, const RlBatchItem *it),
                             void *arg);

/* Drops the walked items that are one of the n files ids (sorted or not):
 * the outputs an earlier batch recorded in a manifest found in a walked
 * folder.  A named input is never dropped.  0 or -ENOMEM. */
int rl_batch_drop_files(RlBatchList *l, const RlFileId *ids, size_t n);

/* 0, or -EEXIST with err naming the conflict: two inputs with one output,
 * or an output that is (by name or as a file) one of the inputs. */
int rl_batch_check_collisions(const RlBatchList *l, char *err, size_t errlen);

/* --shard k/n: mine[i] = 1 for the items of share k.  The items are
 * taken by size, largest first (ties: input name, bytewise), each given
 * to the share with the smallest total size so far (ties: the lowest
 * share), so every share computes the same plan and no share's total is
 * more than the largest item above the average.  0 or -ENOMEM. */
int rl_batch_shard(const RlBatchList *l, int k, int n, unsigned char *mine);
/* The same plan for every share: share[i] is item i's.  0 or -ENOMEM. */
int rl_batch_shares(const RlBatchList *l, int n, int *share);

void rl_batch_list_free(RlBatchList *l);

#endif
