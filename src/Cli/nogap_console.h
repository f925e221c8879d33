/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's console text for a --nogap set: for each file in turn
 * what lame prints for a single encode (the banner, "Encoding X to Y",
 * "Encoding as ...", the progress lines and histogram with the frame count
 * restarting at the file, "Writing LAME Tag...done", "ReplayGain: ..." and
 * --clipdetect's verdict on the file's own peak).
 * The ring's Dispatch reads ahead into the next file while Encode still
 * writes the last one: the next file's read points wait here until Encode
 * has ended the file before (the ring's file_end), so the text comes out
 * in lame's order at every thread count.
 * Threading contract: the ring's callbacks (rl_nogap_console_params) may
 * run on two threads at once (a mutex); create/begin/end/free on the main
 * thread, begin before the ring starts, end after it returned.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_NOGAP_CONSOLE_H
#define RL_NOGAP_CONSOLE_H

#include <stdint.h>

#include "cli_args.h"
#include "session.h"
#include "rl_config.h"

typedef struct RlNogapConsole RlNogapConsole;

/* The text of the n files (in_path[i] to out_path[i], samples[i] input
 * frames each, -1: unknown) encoded with what lame_init_params derived
 * (cfg, opt: console.h) under a's silence, --verbose
 * and --nohist.  The arrays must outlive the console.  0 or -ENOMEM. */
int rl_nogap_console_create(RlNogapConsole **c, const RlArgs *a, const RlConfig *cfg,
                            const RlOptions *opt, int n,
                            const char *const *in_path, char *const *out_path,
                            const int64_t *samples);

/* Sets the session's hooks: the file ends, and the progress (none when
 * silent). */
void rl_nogap_console_hooks(RlNogapConsole *c, RlSessionHooks *h);

/* The first file's banner (before the ring starts). */
void rl_nogap_console_begin(RlNogapConsole *c);

/* After the ring: ok, the last file's lines from the run's result (its
 * frames: the set's); else the progress line shown ended. */
void rl_nogap_console_end(RlNogapConsole *c, int ok, const RlRingResult *res);

void rl_nogap_console_free(RlNogapConsole *c);

#endif
