/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the progress line on stderr (frames, percent, times, speed),
 * like lame's, fed from the ring's progress callback.
 *
 * Threading contract: rl_progress_update may be called from any thread,
 * also concurrently; it costs one clock read and one atomic load when it
 * does not print, and prints at most once per interval (atomic claim; a
 * call that finds another one printing skips).  create/finish/free are
 * called by the main thread only, finish after the encode threads have
 * stopped calling update. */
#ifndef RL_PROGRESS_H
#define RL_PROGRESS_H

#include <stdint.h>

typedef struct RlProgress RlProgress;

/* 1 if a progress line should be shown: fd is a terminal and silent <= 0
 * (lame's scale: -S, --silent, --quiet and stdin input are all > 0). */
int rl_progress_wanted(int fd, int silent);

/* A progress printer writing to fd.  samplerate and frame_size (samples per
 * channel per frame) turn frames into seconds of audio; interval_ms is the
 * shortest time between two lines (100: ten lines a second).  The column
 * header comes with the first line.  0 or -errno. */
int rl_progress_create(RlProgress **p, int fd, int samplerate, int frame_size, int interval_ms);

/* The ring's progress callback (arg: the RlProgress).  total < 0: unknown. */
void rl_progress_update(void *arg, int64_t frames_done, int64_t frames_total);

/* Prints the last line (whatever the interval) and ends it with a newline;
 * nothing if no update ever arrived. */
void rl_progress_finish(RlProgress *p);

void rl_progress_free(RlProgress *p);

/* Formats one line (no '\r'/newline) into buf for the given figures; used by
 * update and by the unit test.  Returns the length (truncated to buflen-1). */
int rl_progress_format(char *buf, int buflen, int64_t done, int64_t total,
                       double elapsed_s, double cpu_s, double audio_s_per_frame);

#endif
