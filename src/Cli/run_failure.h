/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the message and exit status of a run that failed after its
 * output was opened, by the end that failed (lame's statuses: its front
 * end returns 1 from a failed write and is ended by SIGPIPE on a closed
 * pipe; docs/options.md "Exit statuses"). */
#ifndef RL_RUN_FAILURE_H
#define RL_RUN_FAILURE_H

#include "ring.h"

/* Prints why the run failed (-errno rc) and returns the exit status:
 * end RL_RING_END_OUTPUT: "error writing <what> output to OUT", status 1
 * (EPIPE: the process ends by SIGPIPE first, as lame's does, unless
 * SIGPIPE was ignored on entry); RL_RING_END_INPUT: "error reading IN",
 * anything else: "IN to OUT failed", status 2.  stream: the output is a
 * stream (what was written stays, the message says so), else nothing was
 * left.  what: "mp3" or "WAV". */
int rl_run_failure(int rc, int end, const char *in_path, const char *out_path, int stream,
                   const char *what);

#endif
