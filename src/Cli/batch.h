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
 * Exit status: 0 all files encoded or skipped (and, with --compare,
 * identical); 1 usage error or colliding outputs (nothing encoded), or
 * with --compare a file differs; 2 one file or more failed (or, with
 * --compare, lame failed on one); 130/143 stopped by SIGINT/SIGTERM (finished files stay and are in the manifest, files in
 * progress leave nothing). */
#ifndef RL_BATCH_H
#define RL_BATCH_H

#include "cli_args.h"

int rl_batch_main(const RlArgs *a, int argc, char **argv);

#endif
