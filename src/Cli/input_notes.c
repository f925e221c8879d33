/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's notes about its input (input_notes.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>

#include "input_notes.h"
#include "pcm_reader.h"

void rl_console_open_notes(const RlPcmReader *in, int silent)
{
    char notes[3 * RL_PCM_NOTE_MAX];

    rl_pcm_open_notes(in, silent, notes, sizeof notes);
    fputs(notes, stderr);
}

void rl_console_read_refusal(const RlPcmReader *in, int silent)
{
    const char *why = rl_pcm_read_refusal(in);

    if (why && silent < 10)
        fprintf(stderr, "%s\n", why);
}
