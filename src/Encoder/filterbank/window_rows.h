/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the 15 window rows of one polyphase time slot (the first part
 * of LAME's window_subband), the part the DSP kernels compute.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_WINDOW_ROWS_H
#define RL_WINDOW_ROWS_H

/* LAME's enwindow: 15 rows of 18 (16 taps, then the factors w[6], w[7]
 * of the row, read as w[-10 .. 7] around row + 10), then the centre taps. */
extern const float rl_enwindow[];

/* out[2 r], out[2 r + 1] for the rows r = 0 .. 14 of the time slot at x
 * (reads x[-286 .. 224]): row r's two sums of 16 products, each in tap
 * order, then t + s and w[7] * (t - s).  The scalar kernel. */
void rl_window_rows(const float *x, float *out);

#endif
