/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the Layer III bit reservoir (frame begin/adjust/end bookkeeping).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_RESERVOIR_H
#define RL_RESERVOIR_H

#include "rl_config.h"
#include "bitstream.h"

/* Pure ResvFrameBegin for a hypothetical bitrate: returns fullFrameBits,
 * stores meanBits (per granule) and the ResvMax this frame would get.
 * resv_size is the reservoir before the frame.  resv_max may be NULL.
 * Stage: Search (VBR-new, ABR: pure); Encode. */
int rl_resv_frame_begin(const RlConfig *cfg, int resv_size, int bitrate_index, int padding,
                        int *mean_bits, int *resv_max);

/* Current ResvSize (bits).
 * Stage: Encode. */
int rl_resv_size(const RlEncodeState *s);

/* ResvFrameBegin with its side effects on the state (ResvMax).  LAME also
 * zeroes l3_side->resvDrain_pre here; ResvFrameEnd zeroes it again before
 * use, so nothing is lost by not touching the frame.  Returns fullFrameBits.
 * Stage: Encode. */
int rl_resv_frame_begin_commit(RlEncodeState *s, const RlConfig *cfg, int bitrate_index,
                               int padding, int *mean_bits);

/* ResvAdjust: the granule used `bits` = part2_3_length + part2_length.
 * Stage: Encode. */
void rl_resv_adjust(RlEncodeState *s, int bits);

/* The reservoir ResvFrameEnd leaves when it finds resv_size bits (after
 * the frame's ResvAdjusts) with the frame's resv_max and mean_bits.
 * Stage: Search (CBR's prediction); Encode. */
int rl_resv_after_frame(const RlConfig *cfg, int resv_size, int resv_max, int mean_bits);

/* ResvFrameEnd: byte alignment and overflow into stuffing.  Fills
 * side->main_data_begin (from the carried value), resv_drain_pre/post.
 * Stage: Encode. */
void rl_resv_frame_end(RlEncodeState *s, const RlConfig *cfg, RlSideInfo *side, int mean_bits);

#endif
