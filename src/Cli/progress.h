/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's progress display on stderr (frames, percent, CPU and
 * real times with their estimates, play/CPU, ETA: lame's timestatus), fed
 * from the ring's progress callbacks.  The lines are lame's, terminal or
 * not: where lame's front end calls encoder_progress (before each read goes
 * to the encoder, and once at the end of the input; the ring's Dispatch
 * reports those points: rl_progress_read) lame's rule picks the lines (the
 * header at the first call, then a line when no frame came since the last
 * one or 100 more did), and each is printed once the ring's Encode has
 * finished that frame (rl_progress_update); then the last line and a
 * newline after the flush.  With a histogram (rl_progress_set_hist, fed
 * by rl_progress_frame) each line has lame's bitrate histogram under it,
 * counted to the line's frame.
 *
 * Threading contract: rl_progress_read and rl_progress_update may run at
 * the same time on two threads (a mutex); each alone is called by one
 * thread at a time.  create/finish/free by the main thread, finish after
 * the encode has ended.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PROGRESS_H
#define RL_PROGRESS_H

#include <stdint.h>

#include "brhist.h"

typedef struct RlProgress RlProgress;

/* 1 if a progress line should be shown on a terminal: fd is one and
 * silent <= 0 (lame's scale: -S, --silent, --quiet and stdin input are
 * all > 0).  (ringlame --batch's own display.) */
int rl_progress_wanted(int fd, int silent);

/* lame's estimate of the frames (lame_get_totalframes) for samples per
 * channel at rate_in encoded at rate_out in frames of frame_size; 0 when
 * unknown (samples < 0). */
int64_t rl_progress_total(int64_t samples, int rate_in, int rate_out, int frame_size);

/* A progress display on fd.  samplerate (output) and frame_size make the
 * play/CPU speed; total: lame's estimate of the frames (rl_progress_total).
 * 0 or -errno. */
int rl_progress_create(RlProgress **p, int fd, int samplerate, int frame_size, int64_t total);

/* Draws h (owned from now on) under each line.  0 or -ENOMEM (h not
 * taken).  Before the encode. */
int rl_progress_set_hist(RlProgress *p, RlBrhist *h);

/* The counts of the frame Encode finished last, called by the thread of
 * rl_progress_update just before its call for that frame (the ring's
 * frame_info). */
void rl_progress_frame(RlProgress *p, int bitrate_index, int mode_ext, const int block_count[5]);

/* The ring's read_progress callback (arg: the RlProgress). */
void rl_progress_read(void *arg, int64_t frames_encoded);

/* The ring's progress callback (arg: the RlProgress). */
/* An input read in the reads rl_progress_read_at announces, whose last read
 * may fail: ended_short(arg) says, once the input ended, whether it did
 * (an MPEG stream ending inside its end's skip: lame's read count is
 * negative).  lame then makes no display before that read, and with no
 * read at all its end shows only the header and the histogram. */
void rl_progress_set_short_end(RlProgress *p, int (*ended_short)(void *arg), void *arg);
/* Where the read whose read_progress call comes next begins: its first
 * input sample (frames per channel after the decoder's skip). */
void rl_progress_read_at(RlProgress *p, int64_t sample);
/* Queues a message of the input's decoder made in the read that began at
 * input sample `at`: printed where lame prints it, after the display that
 * preceded that read (any thread).  0, or -ENOMEM. */
int  rl_progress_note(RlProgress *p, int64_t at, const char *text);
void rl_progress_update(void *arg, int64_t frames_done, int64_t frames_total);

/* The last line (frames: all frames encoded) and the newline. */
void rl_progress_finish(RlProgress *p, int64_t frames);

/* A failed or stopped encode: ends the line shown, if any (the message
 * that follows gets a line of its own). */
void rl_progress_abort(RlProgress *p);

void rl_progress_free(RlProgress *p);

/* One line as lame's timestatus prints it, without its leading '\r':
 * frame of total (total raised to frame), real and CPU seconds so far.
 * Returns the length (truncated to buflen-1). */
int rl_progress_format(char *buf, int buflen, int64_t frame, int64_t total, double real_s,
                       double cpu_s, int samplerate, int frame_size);

#endif
