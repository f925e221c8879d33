/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* --compare: the reference encode (lame as a child process, or the file of
 * --compare-to) and the comparison with ringlame's output. */
#ifndef RL_COMPARE_RUN_H
#define RL_COMPARE_RUN_H

#include <stddef.h>
#include "cli_args.h"

#define RL_COMPARE_SAME    0   /* exit status: the outputs are identical */
#define RL_COMPARE_DIFFER  1   /* they differ (the report is on stdout) */
#define RL_COMPARE_FAILED  2   /* lame is missing or failed, or a file cannot be read */

/* A fresh folder for the temporary outputs ($TMPDIR or /tmp) into dir:
 * 0 or a negative errno. */
int rl_compare_tmpdir(char *dir, size_t size);

/* Removes the folder and the files named in it by this module. */
void rl_compare_tmpdir_remove(const char *dir);

/* After ringlame wrote ours: runs lame (argv without ringlame's own
 * options, the input, an output in tmpdir) or takes a->compare_to, then
 * compares.  One line (identical) or the report goes to stdout, errors
 * to stderr.  Returns RL_COMPARE_*. */
int rl_compare_run(const RlArgs *a, int argc, char **argv, const char *ours, const char *tmpdir);

/* --compare with --batch, one file: runs lame with argv's options (less
 * ringlame's own and the arguments marked in skip, RL_ARGS_MAX_ARGV of
 * them: the inputs) on in into lame_out, compares it with ours and
 * removes lame_out.  The short verdict goes into verdict: "identical",
 * "differs: byte B, frame F, PART; D of N frames differ (X vs Y bytes)",
 * "lame failed: REASON" or "not compared: REASON".  Returns RL_COMPARE_*
 * (thread-safe: prints nothing). */
int rl_compare_batch_file(const RlArgs *a, int argc, char **argv, const unsigned char *skip,
                          const char *in, const char *ours, const char *lame_out,
                          char *verdict, size_t len);

#endif
