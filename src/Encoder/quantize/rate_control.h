/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: rate control behind one interface.  Each mode (VBR-new, the old
 * VBR, ABR, CBR) is one unit: a table of the functions below, its part of
 * the frame record (RlFrame.rc, a union: a mode touches only its own
 * member) and, next to its `valid`, the argument that an accepted search
 * equals the serial one.  The stages and the ring reach the mode only
 * through the table the encoder chose at init (RlEncoderConst.rc).
 *
 * One frame's life, as the stages drive it:
 *   ring      assume(known, ahead)       -> the state Search assumes
 *   Search    MDCT, then search(assumed)  (any thread, writes f only);
 *             predict: the state after f if assumed was the truth
 *             (the ring's `known` for the next frames)
 *   Encode    valid(truth)?  no: MDCT, then redo(truth)   (serial)
 *             commit: loops left to Encode, bitrate, reservoir, packing
 *             then the stage formats the frame (side info, bytes).
 * `truth` is Encode's carried state before the frame (rl_encoder_carried).
 *
 * Adding a mode: a table in the mode's file, its frame part in the union
 * of rl_frame.h, its case in rl_rate_control_for; the stages, the ring and
 * the tests of the interface (tests/unit_quantize_spec.c) need nothing else.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_RATE_CONTROL_H
#define RL_RATE_CONTROL_H

#include <stdint.h>

#include "stages.h"       /* RlFrame, RlEncoderConst, RlEncodeStage, RlCarried, RlForkJoin */
#include "rl_config.h"    /* RlVbrMode */

typedef struct RlRateControl {
    const char *name;
    /* The carried state Search is to assume for a frame, given the newest
     * state the scheduler knows before it (*committed: Encode's after the
     * last committed Encode, or a later frame's predicted one) and `ahead`,
     * the Encodes that still run before the frame's own (0: *committed is
     * the state the frame's Encode will see).
     * A scheduler calls it under its lock: cheap, pure, no allocation.
     * Stage: the scheduler, when it hands a frame to Search. */
    void (*assume)(const RlEncoderConst *k, const RlCarried *committed, int64_t ahead,
                   RlCarried *assumed);
    /* NULL, or after search: 1 and the carried state commit leaves after
     * the frame when *assumed was the truth (what a scheduler may assume
     * for the next frame), or 0 when the search cannot tell.
     * Stage: Search. */
    int  (*predict)(const RlEncoderConst *k, const RlFrame *f, RlCarried *after);
    /* After the MDCT: the frame's quantization as if Encode's carried state
     * were *assumed.  Writes f only; a quantizer failure goes into
     * f->search_rc (reported by Encode), a negative return is fatal.
     * Stage: Search. */
    int  (*search)(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed);
    /* 1 iff f's result is bit for bit what search(truth) gives (the
     * argument is at each mode's definition), else 0.  May record in the
     * mode's frame part what commit takes from the check.
     * Stage: Encode. */
    int  (*valid)(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth);
    /* After the MDCT again, when valid said 0: the frame's result from the
     * truth, serially (on fj when given), as valid would have accepted it.
     * Stage: Encode. */
    int  (*redo)(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                 const RlForkJoin *fj);
    /* The serial rest on the true state: the loops that chain through it
     * (on fj when given), bitrate choice, reservoir, the step-search
     * starts, main-data packing.  Sets f->bitrate_index.
     * Stage: Encode. */
    int  (*commit)(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f,
                   const RlForkJoin *fj);
} RlRateControl;

extern const RlRateControl rl_rc_vbr_new;   /* -V, --vbr-new, --vbr-mtrh (quantize_vbr.c) */
extern const RlRateControl rl_rc_vbr_old;   /* --vbr-old: vbr_rh (quantize_vbr_old.c) */
extern const RlRateControl rl_rc_abr;       /* --abr (quantize_abr.c) */
extern const RlRateControl rl_rc_cbr;       /* CBR (quantize_cbr.c) */

/* The mode's table, NULL for a mode without one.
 * Stage: init. */
const RlRateControl *rl_rate_control_for(RlVbrMode vbr);

/* The assumption of VBR-new and ABR: the state given, whatever `ahead`.
 * Stage: the scheduler. */
void rl_rc_assume_committed(const RlEncoderConst *k, const RlCarried *committed, int64_t ahead,
                            RlCarried *assumed);

/* The check of a mode whose search reads no carried state (vbr_rh: its
 * search is one function of the frame, whatever was assumed): 1.
 * Stage: Encode. */
int rl_rc_valid_always(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth);

/* The redo of VBR-new, ABR and vbr_rh: its search from the truth, which its
 * valid must then accept (-EIO if not: a broken rule).
 * Stage: Encode. */
int rl_rc_redo_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth,
                      const RlForkJoin *fj);

#endif
