/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the CBR and ABR quantization loops (LAME CBR_iteration_loop,
 * ABR_iteration_loop) cut at the reservoir.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 *
 * CBR: every granule's bit target comes from the reservoir after the
 * previous granule, so the outer loops form one serial chain.  Search runs
 * the reservoir-free part (rl_loop_prepare); Encode runs the loops
 * (rl_cbr_encode).
 * ABR: the targets depend on the reservoir only through a cap at the
 * largest frame, and the loops on the previous granule only through the
 * step search's start.  Search runs everything with an assumed state
 * (rl_abr_search); Encode checks it exactly (rl_abr_commit) and redoes the
 * frame when the check fails. */
#ifndef RL_QUANTIZE_CBR_H
#define RL_QUANTIZE_CBR_H

#include "rl_encoder_const.h"
#include "rl_encode_stage.h"
#include "rl_frame.h"
#include "stages.h"     /* RlForkJoin, RlCarried */

/* Reservoir-free part of both loops, after the MDCT: M/S conversion, granule
 * set-up, xr^(3/4) and the allowed distortion into f->xrpow, pseudohalf,
 * l3_xmin, has_energy, ath_over.  Reads the constants k only.
 * Stage: Search. */
void rl_loop_prepare(const RlEncoderConst *k, RlFrame *f);

/* CBR, serial: ResvFrameBegin, per granule the targets from the true
 * reservoir enc->enc (on_pe, reduce_side), the outer loops from enc->step,
 * scalefactor storage, ResvAdjust; ResvFrameEnd.  Sets f->bitrate_index.
 * Once a granule's targets are known its channels are independent (each
 * has its own step-search start and scalefactor storage), so they run
 * through fj when there is one.
 * Stage: Encode. */
int rl_cbr_encode(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f, const RlForkJoin *fj);

/* ABR search with an assumed reservoir and step state (no serial state is
 * read): targets, outer loops, scalefactor storage; records what
 * rl_abr_commit checks.
 * Stage: Search (and Encode's serial redo). */
void rl_abr_search(const RlEncoderConst *k, RlFrame *f, int assumed_resv, const RlStepState *assumed);

/* 1 if the ABR search in f is exactly what a search from the true state
 * *truth (Encode's reservoir and step state) gives: the same targets, and
 * the step searches replayed from the true starts end at the same gains.
 * On 1, *step_after receives the true step state after the frame.
 * Stage: Encode (rl_search_valid). */
int rl_abr_check(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                 RlStepState *step_after);

/* ABR, serial, after a valid search: ResvAdjust per granule on the
 * reservoir s, the lowest bitrate that keeps it non-negative, ResvFrameEnd.
 * Stage: Encode. */
int rl_abr_commit(const RlEncoderConst *k, RlEncodeState *s, RlFrame *f);

#endif
