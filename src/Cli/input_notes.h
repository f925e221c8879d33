/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: what lame's front end prints about its input while it opens
 * it and at its first read (stderr), for lame's silence level (-S 5,
 * --silent 9, --quiet 10).  Algorithms derived from LAME 3.100's
 * frontend/get_audio.c (LGPL-2.0-or-later). */
#ifndef RL_INPUT_NOTES_H
#define RL_INPUT_NOTES_H

struct RlPcmReader;

/* Before the banner: pcm_reader.h's rl_pcm_open_notes ("Assuming raw pcm
 * input file", the messages of a -r file libsndfile refuses). */
void rl_console_open_notes(const struct RlPcmReader *in, int silent);
/* lame's message at its first read of an input whose sample format its
 * reader refuses (the stream is then empty; rl_pcm_read_refusal), unless
 * --quiet.  Nothing for other inputs. */
void rl_console_read_refusal(const struct RlPcmReader *in, int silent);

#endif
