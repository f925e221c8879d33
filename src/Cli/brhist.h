/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's bitrate histogram, drawn under each progress line (its
 * rows of kbps with a bar of '%' for L/R frames and '*' for M/S ones, the
 * bar of the time left, and the stereo-mode and block-type percentages),
 * then the cursor moved back up before the next line.  Laid out as lame
 * does on the terminal that TERM names (the width, the "clear to end of
 * line" and "up" sequences from termcap, where ringlame was built with it;
 * without them: 80 columns, lines padded with spaces, ESC [ A), whether
 * stderr is a terminal or not.
 * Not thread-safe: the caller (progress.c) serializes.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_BRHIST_H
#define RL_BRHIST_H

#include <stddef.h>
#include <stdint.h>

typedef struct RlBrhist RlBrhist;

/* What lame reads after lame_init_params: kbps[i] the bitrate of index
 * i+1 (or, in free format, kbps[0] the bitrate and the rest -1), the VBR
 * bounds lame_get_VBR_min/max_bitrate_kbps give (0: none), the samples
 * per frame and the output rate (the time left).  0 or -errno (-EINVAL:
 * lame's "VBR min/max not allowed", no histogram). */
int rl_brhist_create(RlBrhist **h, const int kbps[14], int free_format, int vbr_min_kbps,
                     int vbr_max_kbps, int frame_size, int samplerate);

/* One finished frame (lame's updateStats): bitrate index (0 free format),
 * mode extension (-1 mono output), granule-channels by block type. */
void rl_brhist_add(RlBrhist *h, int bitrate_index, int mode_ext, const int block_count[5]);

/* Appends to buf (capacity cap, *len used) the sequences moving the cursor
 * back over the histogram last drawn. */
void rl_brhist_jump_back(RlBrhist *h, char *buf, size_t cap, size_t *len);

/* Appends the histogram of the frames added so far; total_frames: lame's
 * estimate of the stream's frames. */
void rl_brhist_draw(RlBrhist *h, int64_t total_frames, char *buf, size_t cap, size_t *len);

/* The space one jump back plus one draw may take. */
size_t rl_brhist_max_len(const RlBrhist *h);

void rl_brhist_free(RlBrhist *h);

#endif
