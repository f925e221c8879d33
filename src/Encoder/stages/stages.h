/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encoder as a scheduler sees it: an opaque encoder, opaque
 * frame records and one entry point per stage.  Stage order per frame:
 * Dispatch -> Prepare -> Resolve -> Search -> Encode, with the ReplayGain
 * channel tasks beside it.  Dispatch, Resolve and Encode are serial (each
 * owns its part of the encoder and runs frames in order); Prepare and Search
 * read only constants and their frame record, so they run on any thread.
 * Each entry point takes the encoder's constants (read-only) and exactly
 * the state its stage owns, all reached through the accessors below, so a
 * stage cannot touch another stage's state.
 * Everything here returns 0 (or a count) on success, -errno on failure.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_STAGES_H
#define RL_STAGES_H

#include <stddef.h>
#include <stdint.h>

#include "settings.h"     /* RlOptions */
#include "rl_carried.h"   /* RlCarried */
#include "pcm_format.h"   /* RlInBlock */

typedef struct RlEncoder RlEncoder;           /* defined in core/rl_encoder.h */
typedef struct RlFrame RlFrame;               /* defined in core/rl_frame.h */
/* the encoder's parts (opaque here) */
typedef struct RlEncoderConst RlEncoderConst; /* constants fixed at init: every stage reads them */
typedef struct RlDispatchState RlDispatchState; /* Dispatch's state */
typedef struct RlPsyState RlPsyState;         /* Resolve's state */
typedef struct RlEncodeStage RlEncodeStage;   /* Encode's state */
typedef struct RlGainFeed RlGainFeed;         /* the ReplayGain feed (thread-safe) */
typedef struct RlRedecode RlRedecode;         /* Redecode's state (decode on the fly) */

/* ------------------------------------------------------------ life cycle */

/* lame_init_params' derivation (init writes LAME's derived values back
 * into *opt, like LAME writes into gfp) plus every module's init: tables,
 * Huffman config, bitstream + tag placeholder, psy, ReplayGain, Dispatch.
 * Every LAME mode is ported (VBR mt/mtrh/rh, CBR, ABR); the rate-control
 * mode is chosen here, once (quantize/rate_control.h). */
int  rl_encoder_create(RlEncoder **out, RlOptions *opt);
void rl_encoder_destroy(RlEncoder *e);               /* NULL: nothing */

/* lame_get_framesize(): samples per channel LAME's front end reads per
 * lame_encode_buffer call (the chunking the bytes depend on through
 * ReplayGain and the flush). */
int  rl_encoder_frame_size(const RlEncoder *e);

/* Frames the stream will have for input_frames input samples per channel
 * (LAME's count, for progress displays); -1 when input_frames < 0. */
int64_t rl_encoder_frames_for(const RlEncoder *e, int64_t input_frames);

/* lame_get_encoder_padding: the padding the flush chose (0 before it). */
int  rl_encoder_padding(const RlEncoder *e);

/* The parts of e each stage takes (pointers into e, valid until
 * rl_encoder_destroy). */
const RlEncoderConst *rl_encoder_const(const RlEncoder *e);
RlDispatchState *rl_encoder_dispatch(RlEncoder *e);
RlPsyState      *rl_encoder_psy(RlEncoder *e);
RlEncodeStage   *rl_encoder_encode_stage(RlEncoder *e);
RlGainFeed      *rl_encoder_gain(RlEncoder *e);

/* Frame records: n of them, zeroed; rl_frame_at gives record i. */
RlFrame *rl_frames_create(int n);
void     rl_frames_free(RlFrame *frames);
RlFrame *rl_frame_at(RlFrame *frames, int i);

/* ------------------------------------------------------- Dispatch (serial) */

/* Dispatch owns d and pushes into the gain feed rg (rl_dispatch_next). */

/* LAME lame_encode_buffer_int + lame_copy_inbuffer: queue nframes of
 * interleaved int32 PCM (channels_in values per frame, full scale = INT32
 * range).  One call here equals one lame_encode_buffer_int call: the
 * ReplayGain chunking follows it.  The previous feed must have been drained
 * by rl_dispatch_next (else -EBUSY). */
int  rl_dispatch_feed(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg,
                      const int32_t *pcm, int nframes);

/* rl_dispatch_feed for nframes frames of an input block, starting at frame
 * offset_frames: converts the block's bytes to exactly the int32 a
 * libsndfile read gives and queues them with rl_dispatch_feed's float math
 * (bit-identical).  -EINVAL: bad range or channel count, -EBUSY: not
 * drained. */
int  rl_dispatch_feed_block(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg,
                            const RlInBlock *b, int offset_frames, int nframes);

/* Runs LAME's lame_encode_buffer_sample_t loop on the queued input until a
 * frame is complete: fills *f (index, padding, input samples) and returns 1;
 * returns 0 when the queued input is used up (feed more).
 * -EAGAIN (ReplayGain on): the gain feed has no room for one step; nothing
 * was consumed: run the gain tasks and call again.  A caller that checks
 * rl_encoder_gain_room first never sees it. */
int  rl_dispatch_next(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg, RlFrame *f);

/* lame_encode_flush's zero feeding.  Call repeatedly; each call that returns
 * 1 has queued one zero bunch: drain it with rl_dispatch_next, then call
 * again.  Returns 0 when the flush is complete. */
int  rl_dispatch_flush_step(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg);
/* After the flush ended: the stream goes on (libmp3lame encodes into the
 * ended stream when samples come after lame_encode_flush).  The input
 * buffer keeps what the flush left in it; mf_samples_to_encode stays 0,
 * which the next feed restarts at the delay, as LAME does. */
void rl_dispatch_reopen(RlDispatchState *d);
/* LAME's mf_samples_to_encode: the encoder delay and the (resampled)
 * samples taken in, less the frames cut (0 once a flush finished). */
int  rl_dispatch_samples_to_encode(const RlDispatchState *d);

/* ------------------------------------------ ReplayGain tasks (beside the ring) */

int  rl_encoder_gain_channels(const RlEncoder *e);   /* 0: ReplayGain off */
/* 1 if the gain feed has room for what one rl_dispatch_next pushes. */
int  rl_encoder_gain_room(RlGainFeed *rg);
/* Work queued for channel ch (> 0: rl_encoder_gain_run has something to do). */
int  rl_encoder_gain_pending(RlGainFeed *rg, int ch);
/* Analyses what Dispatch pushed for channel ch.  One caller per channel at a
 * time; safe beside Dispatch and the other channel (the feed's own lock). */
int  rl_encoder_gain_run(RlGainFeed *rg, int ch);

/* --------------------------------------------------- Prepare (parallel) */

/* Psy FFTs/energies/attack peaks and the polyphase filterbank of the
 * previous granule and this frame's granules. */
void rl_prepare(const RlEncoderConst *k, RlFrame *f);

/* ---------------------------------------------------- Resolve (serial) */

/* Psy decisions, adjust_ATH, block types, M/S decision.  Afterwards the
 * frame holds its final block types. */
int  rl_resolve(const RlEncoderConst *k, RlPsyState *psy, RlFrame *f);

/* ---------------------------------------------------- Search (parallel) */

/* The carried state a scheduler hands Search for a frame, given
 * *committed, the newest state it knows before the frame (Encode's state
 * after the last committed Encode, rl_encoder_carried, or the state a
 * later frame's search predicts, rl_search_predict), and `ahead`, the
 * Encodes that still run before the frame's own (0: *committed is
 * Encode's state, and the one the frame's Encode will see).  The rate-control
 * mode chooses it (quantize/rate_control.h: *committed, CBR with `ahead`
 * noted in it).  Cheap and pure: call it under the scheduler's lock when
 * the Search task is taken. */
void rl_search_assume(const RlEncoderConst *k, const RlCarried *committed, int64_t ahead,
                      RlCarried *assumed);

/* After rl_search: 1 and *after, the carried state Encode will hold after
 * the frame if the state the search assumed is the true one (a scheduler
 * may assume it for the next frame); 0 when the mode predicts none.
 * Stage: Search (the task that searched f). */
int  rl_search_predict(const RlEncoderConst *k, const RlFrame *f, RlCarried *after);

/* MDCT of both granules and the rate-control mode's search, as if Encode's
 * carried state were *assumed (from rl_search_assume):
 *   VBR mt/mtrh: VBR quantization and main-data packing;
 *   ABR, CBR: targets, outer loops and packing (CBR with an old state
 *        whose targets would likely move: only the reservoir-free part,
 *        the loops left to Encode);
 *   vbr_rh: only the reservoir-free part (M/S, xr^(3/4), allowed
 *        distortion); Encode runs the loops, whose bit budgets chain
 *        through the reservoir.
 * Reads only the constants k, never a serial state, so it may run on any
 * thread while Encode commits earlier frames; writes only f.  Quantizer
 * failures are kept in f and reported by rl_encode.  Inputs: Prepare's
 * filterbank output and Resolve's outputs, nothing else of the record, so
 * a fresh slot gives the same result; they must stay intact until the
 * frame's Encode, which may redo the search. */
int  rl_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed);

/* 1 if the search result in f is bit for bit what rl_search(k, f, truth)
 * would give (each mode's exact rule, argued at its `valid`:
 * quantize_vbr.c, quantize_abr.c, quantize_cbr.c, quantize_vbr_old.c),
 * 0 if it must be redone.  truth: Encode's true carried state
 * (rl_encoder_carried).  Cheap (integer checks, two on_pe, at most a few
 * step-search counts for ABR); it may record in f what the mode's commit
 * takes from the check (ABR: the step state after the frame). */
int  rl_search_valid(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth);

/* ----------------------------------------------------- Encode (serial) */

/* Encode's carried state after the last committed Encode (read it only
 * where no Encode runs concurrently, e.g. under a scheduler's lock). */
void rl_encoder_carried(const RlEncodeStage *enc, RlCarried *c);

/* A fork-join a driver lends Encode for work inside one frame: run(ctx, n,
 * fn, arg) calls fn(arg, i) for every i in [0, n), possibly on other
 * threads, and returns when every call has returned.  The calls touch
 * disjoint data (CBR: one channel's outer loop each). */
typedef struct RlForkJoin {
    void (*run)(void *ctx, int n, void (*fn)(void *arg, int i), void *arg);
    void *ctx;
} RlForkJoin;

/* Validates the search against the true carried state and, if invalid,
 * redoes it here from the truth (serial redo); commits it through the
 * rate-control mode: the loops left to Encode (CBR's, and a redo: on fj when given,
 * NULL: on this thread; the bytes are the same), bitrate choice and
 * reservoir; then frame formatting, CRC/TOC bookkeeping.  The bytes are
 * then available from rl_encoder_take_bytes.  Returns 0, or 1 when the search
 * had to be redone, or -errno. */
int  rl_encode(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f, const RlForkJoin *fj);

/* A frame rl_encode has finished, as LAME's updateStats counts it for the
 * front end's histogram: its header's bitrate index (0: free format) and
 * mode extension (stereo output only, else -1), and its granules' block
 * types (block_count[0..3]: normal, start, short, stop; [4]: mixed). */
void rl_frame_stats(const RlEncoderConst *k, const RlFrame *f, int *bitrate_index,
                    int *mode_ext, int block_count[5]);

/* Bytes the bitstream can hold between two rl_encoder_take_bytes calls. */
#define RL_ENCODER_BYTES_MAX 16384

/* Moves finished bytes out (at most cap; call until it returns 0). */
long rl_encoder_take_bytes(RlEncodeStage *enc, uint8_t *dst, size_t cap);

/* After the flush's last frame: pads the last frame's main data out
 * (lame_encode_flush's final bits); take the bytes afterwards.  0, 1
 * when LAME would print "strange error flushing buffer" (a gapless set
 * that has no frame yet: nothing to flush), or -errno. */
int  rl_encoder_flush_bits(const RlEncoderConst *k, RlEncodeStage *enc);
/* lame_get_size_mp3buffer on the encoder's present state (rl_bits_flush_size). */
int  rl_encoder_flush_size(const RlEncoderConst *k, const RlEncodeStage *enc, int *strange);
/* What the LAME tag counts as music so far (nMusicCRC and the seek table's
 * nBytesWritten): a gapless file's flush whose bytes lame_encode_flush_nogap
 * could not hand out is taken back out of it by setting an earlier mark. */
typedef struct RlMusicMark {
    uint16_t      crc;
    unsigned long bytes;
} RlMusicMark;
void rl_encoder_music_mark(const RlEncodeStage *enc, RlMusicMark *m);
void rl_encoder_set_music_mark(RlEncodeStage *enc, const RlMusicMark *m);

/* The longest LAME tag frame the calls below write (LAME's MAXFRAMESIZE:
 * 640 kbps free format at 32 kHz): a buffer of this many bytes takes any. */
#define RL_ENCODER_TAG_MAX 2880

/* The final LAME tag frame (lame_get_lametag_frame), after
 * rl_encoder_flush_bits and Dispatch's last flush step: encoder
 * delay/padding from d, RadioGain from the ReplayGain feed rg (gain work
 * still queued is finished here, so no gain task may be running), the
 * peak sample from rd (NULL: decode on the fly is off).  Returns its
 * length, 0 when the tag is off (-t, or a frame too small for it). */
int  rl_encoder_tag_frame(const RlEncoderConst *k, const RlEncodeStage *enc,
                          const RlDispatchState *d, RlGainFeed *rg, const RlRedecode *rd,
                          uint8_t *buf, size_t cap);

/* ------------------------------------ Redecode (serial, after Encode)
 *
 * Decode on the fly (lame --replaygain-accurate, --clipdetect): every
 * chunk of music bytes Encode hands out (LAME's copy_buffer: one per
 * frame, then the flush's) is decoded in stream order by LAME's decoder;
 * the peak sample goes into the LAME tag and, with ReplayGain on, the
 * decoded frames go into the gain feed (Dispatch then pushes nothing). */

/* Redecode's state, NULL when decode on the fly is off. */
RlRedecode *rl_encoder_redecode(RlEncoder *e);
/* 1 if the gain feed has room for one decoded frame (what Redecode pushes
 * before it looks again). */
int  rl_encoder_redecode_room(RlGainFeed *rg);
/* One chunk (n > 0): 0 done; -EAGAIN: the gain feed is full, call again
 * with the same chunk after the gain tasks ran; or -errno. */
int  rl_encoder_redecode_chunk(RlRedecode *rd, RlGainFeed *rg, const uint8_t *bytes, size_t n);
/* After the last chunk: lame_get_noclipGainChange (tenths of a dB) and
 * lame_get_noclipScale (-1: no clipping). */
void rl_encoder_noclip(const RlRedecode *rd, int *gain_change, float *scale);
/* lame_get_PeakSample: the peak of the decoded output (0: rd NULL). */
float rl_encoder_peak(const RlRedecode *rd);

/* ------------------------------------------------------- gapless sets
 *
 * One stream, several output files (lame --nogap): the input of file i+1
 * follows file i's without a flush, so the filterbank, psy, Dispatch's
 * buffers and the step-search starts run on; at each boundary LAME calls
 * lame_encode_flush_nogap (bitstream flush: the reservoir ends empty;
 * GetTitleGain: ReplayGain restarts) and lame_init_bitstream (frame count,
 * seek table, a new tag placeholder).  The music CRC and the ancillary
 * flag run on.  The frames of file i are those cut before file i+1's
 * first samples were fed. */

/* Dispatch, after the last sample of a file that another follows: closes
 * the ReplayGain title there (no-op without ReplayGain). */
int  rl_encoder_gain_mark(RlGainFeed *rg);
/* Titles the ReplayGain tasks have closed (any thread; 0 without RG).  The
 * tag of file i needs i < this. */
int  rl_encoder_gain_titles(RlGainFeed *rg);
/* Encode, at a boundary, before rl_encoder_flush_bits, when the file had no
 * samples at all: the head's n bytes lame has in its bit buffer before the
 * tag placeholder (libmp3lame's own ID3v2 tag; none: NULL, 0) and the
 * placeholder then count as music, as in LAME. */
int  rl_encoder_empty_file(const RlEncoderConst *k, RlEncodeStage *enc, const uint8_t *head,
                           size_t n);
/* Encode, at a boundary, after rl_encoder_flush_bits and taking the bytes:
 * the LAME tag frame of the file ending, ReplayGain title `title`
 * (lame_get_lametag_frame after lame_encode_flush_nogap: the padding of
 * the last lame_encode_flush, 0 before one, the title's RadioGain, the
 * nogap flags `file` of `files` as lame's caller set them, the file's peak
 * when rd decodes on the fly).  Length, 0 when the tag is off. */
int  rl_encoder_file_tag_frame(const RlEncoderConst *k, const RlEncodeStage *enc, RlGainFeed *rg,
                               const RlRedecode *rd, int title, int padding, int file, int files,
                               uint8_t *buf, size_t cap);
/* The LAME tag frame of the frames encoded so far, while no task runs
 * (lame_get_lametag_frame mid-stream): encoder padding `padding` (what
 * lame's last flush set, 0 before one), RadioGain radio_gain (what lame's
 * last save_gain_values left), the peak decoded so far when rd decodes on
 * the fly, the nogap flags `file` of `files`.  Length, 0 when the tag is
 * off or no frame was encoded, -ENOSPC. */
int  rl_encoder_tag_frame_now(const RlEncoderConst *k, const RlEncodeStage *enc,
                              const RlRedecode *rd, int radio_gain, int padding, int file,
                              int files, uint8_t *buf, size_t cap);
/* Encode, after a gapless file's tag (decode on the fly): the next file's
 * peak starts from 0 (lame_init_bitstream's PeakSample = 0). */
void rl_encoder_redecode_new_file(RlRedecode *rd);
/* Encode, after the tag: lame_init_bitstream for the next file; take its
 * bytes (the tag placeholder) as the new file's first. */
int  rl_encoder_new_file(const RlEncoderConst *k, RlEncodeStage *enc);
/* Finish's tag for the set's last file (rl_encoder_tag_frame with the
 * nogap flags; files 0: not a gapless set). */
int  rl_encoder_tag_frame_nogap(const RlEncoderConst *k, const RlEncodeStage *enc,
                                const RlDispatchState *d, RlGainFeed *rg, const RlRedecode *rd,
                                int file, int files, uint8_t *buf, size_t cap);

/* lame's RadioGain (tenths of a dB, as the LAME tag stores it) at the end,
 * under the same conditions as rl_encoder_tag_frame; *found: ReplayGain
 * was computed (lame_get_findReplayGain). */
int  rl_encoder_radio_gain(const RlEncoderConst *k, RlGainFeed *rg, int *found);
/* The RadioGain of file `file` of a gapless set, not its last (its title
 * closed at the boundary: rl_encoder_gain_titles > file), as lame_get_RadioGain
 * gives it after lame_encode_flush_nogap; *found as above. */
int  rl_encoder_file_radio_gain(const RlEncoderConst *k, RlGainFeed *rg, int file, int *found);

#endif
