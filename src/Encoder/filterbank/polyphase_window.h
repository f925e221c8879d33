/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the analysis window of the polyphase filterbank and the part of
 * one time slot that follows its 15 rows (the centre taps and the butterfly
 * network), shared by the scalar slot (polyphase.c) and the SIMD kernels,
 * which compute the 15 rows several at once.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_POLYPHASE_WINDOW_H
#define RL_POLYPHASE_WINDOW_H

#include <math.h>
#include <stddef.h>

#include "dsp.h"   /* RL_DECL_* */
#include "mdct.h"

/* 15 rows of 18 (16 taps, the s factor, the d factor), then the centre
 * taps read by rl_window_tail. */
#define RL_ENWINDOW_ROWS 15
#define RL_ENWINDOW_ROW  18
extern const float rl_enwindow[];

/* The 18 time slots of one granule starting at x (reads x[-286 .. 18*32-32+224]),
 * the odd slots' odd bands negated; output rows in rl_band_pos order. */
RL_DECL_WINDOW_GRANULE(rl_window_granule);

/* The scalar butterflies (polyphase_butterfly.h at float). */
#define RL_BF_FN rl_window_butterflies
#define RL_BF_T float
#define RL_BF_SQ2(x) ((float) ((double) (x) * M_SQRT2))
#define RL_BF_SQ2_SUB(x, y) ((float) ((double) (x) * M_SQRT2 - (double) (y)))
#define RL_BF_NSQ2(x) ((float) (-M_SQRT2 * (double) (x)))
#define RL_BF_CENTRE rl_window_centre
#define RL_BF_XA(c, off) ((c)[off])
#include "polyphase_butterfly.h"

/* The rest of a slot once the rows have written out[0..29] (row r, -15 <= r
 * < 0: out[30 + 2r] = t + s, out[31 + 2r] = d factor * (t - s)).
 * xa = x - 15 and w = rl_enwindow + 10 + 15 * 18: the scalar row loop's
 * pointers after its last row. */
static inline void rl_window_tail(const float *xa, const float *w, float out[RL_SBLIMIT])
{
    float u, v;
    rl_window_centre(xa, w, &u, &v);
    rl_window_butterflies(out, u, v, w);
}

#endif
