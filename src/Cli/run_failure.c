/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the message and exit status of a failed run (run_failure.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "exit_status.h"
#include "run_failure.h"
#include "signals.h"

static const char *shown_name(const char *path, const char *std_name)
{
    return strcmp(path, "-") == 0 ? std_name : path;
}

int rl_run_failure(int rc, int end, const char *in_path, const char *out_path, int stream,
                   const char *what)
{
    const char *left = stream ? "the output written so far is incomplete" : "no output written";

    if (end == RL_RING_END_OUTPUT) {
        if (rc == -EPIPE)
            rl_signals_broken_pipe();      /* returns only when SIGPIPE is ignored */
        fprintf(stderr, "ringlame: error writing %s output to %s: %s (%s)\n", what,
                shown_name(out_path, "<stdout>"), strerror(-rc), left);
        return RL_EXIT_WRITE;
    }
    if (end == RL_RING_END_INPUT)
        fprintf(stderr, "ringlame: error reading %s: %s (%s)\n", shown_name(in_path, "<stdin>"),
                strerror(-rc), left);
    else
        fprintf(stderr, "ringlame: encoding %s to %s failed: %s (%s)\n",
                shown_name(in_path, "<stdin>"), shown_name(out_path, "<stdout>"), strerror(-rc),
                left);
    return RL_EXIT_IO;
}
