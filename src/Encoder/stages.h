/* ringlame: the encoder's stage functions and its life cycle (init/free).
 * Stage order per frame: Dispatch -> Prepare -> Resolve -> Search -> Encode.
 * Prepare and Search read only constants and their frame (thread-safe);
 * Resolve and Encode run in frame order (serial states in RlEncoder).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_STAGES_H
#define RL_STAGES_H

#include "rl_encoder.h"
#include "settings.h"
#include "dispatch.h"

/* The part of Encode's state a search depends on: the reservoir before the
 * frame and the CBR/ABR step-search starts.  Search gets a snapshot (an
 * assumption); Encode checks it against the true state. */
typedef struct RlCarried {
    int resv_size;
    RlStepState step;
} RlCarried;

/* lame_init_params' derivation (rl_config_init writes back into *opt like
 * LAME writes into gfp) plus every module's init: tables, Huffman config,
 * bitstream + tag placeholder, psy, ReplayGain, Dispatch.  *e is zeroed
 * first.  Every LAME mode is ported (VBR mt/mtrh/rh, CBR, ABR).
 * Returns 0 or -errno; on error *e is already freed. */
int  rl_encoder_init(RlEncoder *e, RlOptions *opt);
void rl_encoder_free(RlEncoder *e);

/* Prepare (stateless): psy FFTs/energies/attack peaks and the polyphase
 * filterbank of the previous granule and this frame's granules. */
void rl_prepare(const RlEncoder *e, RlFrame *f);

/* Resolve (serial): psy decisions, adjust_ATH, block types, M/S decision.
 * Afterwards f->side.tt[gr][ch].block_type holds the final block types. */
int  rl_resolve(RlEncoder *e, RlFrame *f);

/* Search (stateless): MDCT of both granules and the quantization, as if
 * Encode's carried state were *assumed (a snapshot; see RlCarried).
 *   VBR mt/mtrh: VBR quantization and main-data packing;
 *   ABR: targets, outer loops and packing;
 *   CBR, vbr_rh: only the reservoir-free part (M/S, xr^(3/4), allowed
 *        distortion); Encode runs the loops, whose bit budgets chain
 *        through the reservoir.
 * Reads only constants of e, never its serial states, so it may run on any
 * thread while Encode commits earlier frames; writes only f.  Records in f
 * what rl_search_valid needs.  Quantizer failures are kept in f and reported
 * by rl_encode.  0 or -errno (-ENOTSUP: mode not ported).
 * Inputs: f->poly (Prepare) and Resolve's outputs (block types, pe, ratio,
 * mode_ext, ath_adjust_factor, padding); nothing else of the record, so a
 * fresh ring slot gives the same result.  These inputs must stay intact
 * until the frame's Encode, which may redo the search from them. */
int  rl_search(const RlEncoder *e, RlFrame *f, const RlCarried *assumed);

/* 1 if the search result in f is bit for bit what rl_search(e, f, truth)
 * would give (exact rules: quantize_vbr.h, quantize_cbr.h), 0 if it must be
 * redone.  Cheap (integer checks, two on_pe, at most a few step-search
 * counts for ABR). */
int  rl_search_valid(const RlEncoder *e, RlFrame *f, const RlCarried *truth);

/* Tests only: make rl_search_valid answer 0 for the first search of every
 * frame whose index is a multiple of every_n (0: off).  Atomic; the redo
 * that follows is then accepted, so drivers looping on validity terminate. */
void rl_search_test_force_invalid(int every_n);

/* Encode's carried state after the last committed Encode (read it only
 * where no Encode runs concurrently, e.g. under the ring's lock). */
void rl_encoder_carried(const RlEncoder *e, RlCarried *c);
int  rl_encoder_resv_size(const RlEncoder *e);

/* Encode (serial): validates the search against the true carried state
 * and, if invalid, re-runs rl_search with it here (serial redo path); runs
 * the CBR loops; then bitrate choice + reservoir, frame formatting,
 * CRC/TOC bookkeeping.  The
 * bytes are then available from rl_bits_take.  f->spec_searches > 1 tells
 * that a redo ran (counted from rl_prepare). */
int  rl_encode(RlEncoder *e, RlFrame *f);

/* A fork-join a driver lends Encode for work inside one frame: run(ctx, n,
 * fn, arg) calls fn(arg, i) for every i in [0, n), possibly on other
 * threads, and returns when every call has returned.  The calls touch
 * disjoint data (CBR: one channel's outer loop each). */
typedef struct RlForkJoin {
    void (*run)(void *ctx, int n, void (*fn)(void *arg, int i), void *arg);
    void *ctx;
} RlForkJoin;

/* rl_encode with a fork-join (NULL: everything on the calling thread).
 * The bytes are the same either way. */
int  rl_encode_forked(RlEncoder *e, RlFrame *f, const RlForkJoin *fj);

/* The final LAME tag frame (lame_get_lametag_frame), after the flush and
 * rl_bits_flush: encoder delay/padding from Dispatch, RadioGain from the
 * ReplayGain feed (save_gain_values; any gain work still queued is finished
 * here, so no gain task may be running).  Returns its length, 0 when the tag
 * is off (-t, or a frame too small for it), or -errno. */
int  rl_encoder_tag_frame(RlEncoder *e, uint8_t *buf, size_t cap);

#endif
