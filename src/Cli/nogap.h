/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: --nogap FILE...: a gapless set, one output per input, encoded
 * as one stream (lame's frontend/lame_main.c nogap loop). */
#ifndef RL_NOGAP_H
#define RL_NOGAP_H

#include "cli_args.h"

/* Encodes the set a names (a->input_argi into argv).  Returns the exit
 * status: 0, 1 (usage: files that do not match), 2 (I/O or encoding
 * error: no output of the set is left), 130/143 (stopped by a signal). */
int rl_nogap_main(const RlArgs *a, char **argv);

#endif
