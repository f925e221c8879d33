/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's console text for --decode (stderr): the "input:" and
 * "output:" lines, the samples skipped, and a "Frame#" line after each
 * read (lame's decoder_progress), ended by a newline.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_DECODE_CONSOLE_H
#define RL_DECODE_CONSOLE_H

#include <stdint.h>
#include <stdio.h>

/* The lines before the decode: in_path/out_path as given ("-": stdin,
 * stdout), the input's rate and channels, lame's name of its format
 * ("MPEG-1 Layer III", "Microsoft WAVE", ...), the samples skipped at the
 * start and the end (0: no line). */
void rl_decode_console_head(FILE *fp, const char *in_path, const char *out_path, int samplerate,
                            int channels, const char *format, int skip_start, int skip_end);

/* lame's decoder progress: samples (lame_get_num_samples, -1 unknown) and
 * the samples per frame it counts by. */
typedef struct RlDecodeProgress {
    int64_t frames_total, frame_ctr, samples;
    int framesize, last_mode_ext;
} RlDecodeProgress;

void rl_decode_progress_init(RlDecodeProgress *dp, int64_t samples, int framesize);

/* After a read of n samples: the frame count and the header of the frame
 * decoded last (kbps; mode 1 joint stereo: its mode extension shown). */
void rl_decode_progress_line(FILE *fp, RlDecodeProgress *dp, int n, int kbps, int mode,
                             int mode_ext);

void rl_decode_progress_finish(FILE *fp);

#endif
