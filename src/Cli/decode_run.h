/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: --decode (lame's lame_decoder): the input decoded to 16-bit
 * PCM, written as WAV (raw with -t).  Sequential: no ring, no threads; a
 * signal exits at once and removes the partial output file. */
#ifndef RL_DECODE_RUN_H
#define RL_DECODE_RUN_H

#include "cli_args.h"

/* Returns the exit status (0, or 2 with a message on stderr). */
int rl_decode_run(const RlArgs *a);

#endif
