/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch --shard K/N: the shard plan, made once and stored
 * beside the manifest as DIR/.ringlame-plan.N.jsonl, so that every shard
 * of one run encodes its share of the same corpus even when the tree
 * changes between shards.  A JSON Lines file: the first line
 *   {"plan":N,"files":T,"bytes":B}
 * then one line per input, sorted by input (bytewise):
 *   {"input":PATH,"size":BYTES,"mtime_ns":NS,"shard":K}
 * (strings escaped as the manifest's, batch_manifest.h).  The first shard
 * to run writes it (a temporary file linked to the name, so that of
 * shards starting together one wins and the others read its plan);
 * --merge-manifests lists the planned inputs that no part records and
 * removes the plan once every planned input is recorded. */
#ifndef RL_BATCH_PLAN_H
#define RL_BATCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "batch_walk.h"

typedef struct RlPlanEntry {
    char   *input;
    int64_t size, mtime_ns;
    int     shard;
} RlPlanEntry;

typedef struct RlPlan {
    RlPlanEntry *v;     /* sorted by input */
    size_t n;
    int shards;         /* N */
} RlPlan;

/* DIR/.ringlame-plan.N.jsonl beside manifest.  0 or -ENAMETOOLONG. */
int rl_plan_path(char *buf, size_t len, const char *manifest, int n);

/* 1 if name is a plan's file name (.ringlame-plan.N.jsonl). */
int rl_plan_is_name(const char *name);

/* The plan of l for n shares (rl_batch_shares).  0 or -ENOMEM. */
int rl_plan_make(RlPlan *p, const RlBatchList *l, int n);

/* Stores p at path unless a plan is there already: 1 stored, 0 one was
 * there (left as it is), -errno. */
int rl_plan_store(const RlPlan *p, const char *path);

/* Reads the plan at path (without blocking; a regular file only).  0,
 * -ENOENT when there is none, -EINVAL when it is not a plan (a line that
 * does not parse, inputs out of order, a share out of range), -errno. */
int rl_plan_load(RlPlan *p, const char *path);

/* The entry for input, NULL if none. */
const RlPlanEntry *rl_plan_find(const RlPlan *p, const char *input);

void rl_plan_free(RlPlan *p);

#endif
