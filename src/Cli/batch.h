/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: many files on one executor (see docs/options.md).
 * The inputs are expanded (batch_walk.h), checked for output collisions
 * before anything is encoded, filtered through the manifest
 * (batch_manifest.h, skipped unless --force), then encoded two files at a
 * time: one thread per file in flight runs the file session
 * (session_files.h) on the shared executor (--threads - 1 workers), so
 * the next file's ring starts while the current one drains.  The main thread draws the progress line.
 *
 * With --compare each encoded file is also encoded by lame (same options,
 * into a temporary folder) and compared (compare_run.h); the verdicts go
 * to the manifest and the differing files to stdout at the end.
 *
 * It never blocks on an input: the walk runs on a thread of its own,
 * watched for stalls like a file (a hung mount in the tree ends the batch,
 * nothing encoded); only regular files are inputs (checked
 * again, opened with O_NONBLOCK, just before each is opened); the main
 * thread watches each file in flight and gives up on one that makes no
 * progress for --stall-timeout seconds (recorded as failed; its thread is
 * left behind, the batch goes on, and the process ends without joining
 * it); after a signal the files in flight get a short grace to drain.
 * The manifest is a locked, append-only log (batch_manifest.h); with
 * --shard the share comes from the plan stored once (batch_plan.h).
 *
 * Exit status: 0 all files encoded or skipped (and, with --compare,
 * identical); 1 usage error, colliding outputs or a manifest locked by
 * another batch (nothing encoded), or with --compare a file differs; 2
 * one file or more failed or stalled, the manifest could not be written,
 * or the corpus differs from the shard plan (or, with --compare, lame
 * failed on one); 130/143 stopped by SIGINT/SIGTERM (finished files stay
 * and are in the manifest, files in progress leave nothing). */
#ifndef RL_BATCH_H
#define RL_BATCH_H

#include "cli_args.h"

int rl_batch_main(const RlArgs *a, int argc, char **argv);

#endif
