/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's encode state: the encode session's
 * ring (src/Api/session.h) between the library's input queue (blocks of
 * lame's converted input floats) and its output FIFO (api_ports.h), on a
 * pool of RINGLAME_THREADS threads made at lame_init_params.
 *
 * Frames in flight: an encode call returns once the ring has finished
 * every frame libmp3lame would have finished by then, less `inflight`
 * frames; inflight is what lame.h's 7,200-byte flush promise leaves when
 * each of those frames takes its largest possible size beside the bytes
 * libmp3lame's own flush would return (mp3lame_session.c, docs/api.md). */
#ifndef RL_MP3LAME_SESSION_H
#define RL_MP3LAME_SESSION_H

#include <stdint.h>

#include "api_ports.h"
#include "session.h"
#include "pcm_typed.h"
#include "mp3lame_calls.h"

/* frames whose output counts the session keeps: more than the frames
 * lame_encode_flush adds after the input's last frame */
#define RL_MP3_FRAME_MARKS 64

typedef struct RlMp3Session {
    RlSessionStream st;         /* the options (lame_init_params' input) and the tags */
    const RlConfig *cfg;        /* what lame_init_params derives */
    RlExecutor *ex;
    RlRing     *ring;
    RlApiInput  in;
    RlApiOutput out;
    int      frame_size;
    int      threads;
    int      inflight;          /* frames the ring may lag behind libmp3lame */
    int      frame_max;         /* the largest frame's bytes (max_frame_bytes) */
    int64_t  samples_in;        /* samples per channel given to the encode calls */
    int      by_call;           /* resampling: Dispatch feeds one encode call at a time */
    RlMp3Calls calls;           /* ... the calls' counts (by_call only) */
    int64_t  frames_cut;        /* ... and the frames Dispatch had cut when the input's
                                 * last call was fed: libmp3lame's count (atomic) */
    size_t   head_len;          /* the head (ID3v2 tag, tag placeholder: the stream's
                                 * first, or lame_init_bitstream's) lame holds in its
                                 * bit buffer until an encode call takes it; 0: none */
    uint64_t head_at;           /* ... the output's byte count where it starts */
    int64_t  frames_done;       /* frames Encode finished (atomic) */
    /* the output's byte count (rl_api_output_written) once frame k was
     * finished, at [k % RL_MP3_FRAME_MARKS] ([0]: the stream's head): the
     * bytes libmp3lame has handed out when it has made k frames (its
     * copy_buffer after each frame gives what the ring's Encode writes).
     * Written by Encode, read after the ring ended */
    uint64_t frame_out[RL_MP3_FRAME_MARKS];
    uint64_t handed;            /* bytes the encode and flush calls returned */
    /* during a flush (flush_sizes set, atomic): lame_get_size_mp3buffer
     * on Encode's state once frame k was finished, at [k % RL_MP3_FRAME_MARKS],
     * and whether lame prints its "strange error" there */
    int      flush_sizes;
    int      frame_flush_size[RL_MP3_FRAME_MARKS];
    unsigned char frame_flush_strange[RL_MP3_FRAME_MARKS];
    /* where a flush that failed as libmp3lame's stopped (stop_frames < 0:
     * none): its frame count, lame_get_size_mp3buffer there, and whether it
     * stopped before save_gain_values (at a frame: the ReplayGain and
     * clipping getters keep what they said before the flush, kept in
     * prev_*) */
    int64_t  stop_frames;
    int      stop_size, stop_strange, stop_unsaved;
    int      prev_radio_gain, prev_noclip_change;
    float    prev_noclip_scale;
    int64_t  owed;              /* after a flush that failed as libmp3lame's (-1): the bytes
                                 * libmp3lame had handed out before it that the caller
                                 * still gets; -1: no flush failed */
    int      flushed;           /* the end of the input is published */
    int      ended;             /* the ring finished: every byte is in the FIFO */
    int      flushes;           /* lame_encode_flush calls that ended the stream (an
                                 * encode call after one goes on into the ended stream) */
    /* where libmp3lame's frame count restarts after such a flush: the
     * samples given and frames made by then, and the samples its input
     * buffer holds (mf_size; the delay's zeros at the start) */
    int64_t  base_samples, base_frames;
    int      base_have;
    int      err;               /* the error the ring stopped with */
    RlRingResult result;
    /* gapless sequences (lame_encode_flush_nogap): what lame's LAME tag of
     * each file carries (lame_set_nogap_total / _currentindex, set by the
     * front end before each flush), the frame count's start for the file
     * (lame_init_bitstream), the RadioGain of the file that ended last */
    int      nogap_total, nogap_current;
    int64_t  file_first_frame;
    int      file_radio_gain;
    int      file_noclip_change;        /* ... and its clipping verdict */
    float    file_noclip_scale;
    int      gains_of_file;     /* lame's last save_gain_values was a nogap flush's
                                 * (the getters say the file_* values) */
    int      nogap_ending;      /* a nogap flush waits for its file's end */
    /* a nogap flush that did not fit (lame's -1) left the file's flush in
     * lame's bit buffer, held as the head is (head_at, head_len), out of
     * the music and undecoded (rl_ring_held_out) */
    int      nogap_held;
    int      tag_restarted;     /* lame_init_bitstream after the flush: lame's seek
                                 * table is empty (no tag) until an encode call */
    float    peak;              /* lame_get_PeakSample as the last file end, flush,
                                 * retried nogap flush or lame_init_bitstream left it */
    int      file_open;         /* the current file takes frames: not ended by a nogap
                                 * flush that no lame_init_bitstream or encode call followed */
    int      flush_strange;     /* the file that ended last had nothing to flush, where
                                 * lame prints "strange error flushing buffer" (atomic) */
    /* lame's statistics (ov_enc's histograms, updated by Encode, atomic):
     * [bitrate index][mode extension, 4: all] and [bitrate index][block
     * type, 4: mixed, 5: all]; row 15 sums the bitrates */
    int      bitrate_stmode[16][5];
    int      bitrate_btype[16][6];
} RlMp3Session;

/* The most frames in flight a caller may ask for (RINGLAME_FRAMES_IN_FLIGHT):
 * each holds a frame record of the ring (about 130 kB) */
#define RL_MP3_INFLIGHT_MAX 64

/* The session for options o (lame_init_params' input; the ring derives
 * its configuration again from them) on `threads` threads (the caller's
 * included; 1: the caller's only), `inflight` frames in flight (< 0: what
 * lame.h's 7,200-byte flush promise allows; 0 .. RL_MP3_INFLIGHT_MAX: that
 * many, for callers that flush until nothing is left; with one thread
 * always 0), with the ID3 tags the library writes
 * (v2 at the front, v1 at the end; len 0: none; copied).  *derived: o as
 * lame_init_params writes it back.  0, -EINVAL (options refused) or
 * -errno. */
int  rl_mp3_session_create(RlMp3Session **out, const RlOptions *o, int threads, int inflight,
                           const uint8_t *v2, size_t v2_len, const uint8_t *v1, size_t v1_len,
                           RlOptions *derived);
void rl_mp3_session_destroy(RlMp3Session *s);

/* One encode call: n frames of src with the entry point's norm; the bytes
 * ready (at most cap; cap 0: no limit) into buf.  >= 0 bytes, or lame's
 * codes (-1: cap is smaller than the stream's head, which lame copies out
 * before it takes a sample; nothing is taken then; -2: no memory, -4: the
 * encoder failed). */
int  rl_mp3_session_encode(RlMp3Session *s, const RlPcmTyped *src, int n, float norm,
                           uint8_t *buf, int cap);
/* lame_encode_flush: the input ends, every frame in flight is waited for
 * (an encode call after it goes on with the stream, as libmp3lame does:
 * its flush's padding frames, bitstream flush and ID3v1 tag stay in it).
 * Where libmp3lame's own flush would not fit in cap (its bytes after the
 * last encode call's), -1 as libmp3lame, and the stream's end is dropped:
 * the next calls hand out only the bytes libmp3lame had handed out before
 * the flush (what fits in cap, the rest on the call after), then 0.  Else
 * what fits in cap (0: no limit), the rest on the next call. */
int  rl_mp3_session_flush(RlMp3Session *s, uint8_t *buf, int cap);

/* lame_encode_flush_nogap: the current file ends (the input goes on in
 * the next one, the samples lame holds included); every frame of it is
 * waited for, then what fits in cap as above.  Where libmp3lame's flush
 * (its bit buffer: the file's flush, a head it held) does not fit in cap,
 * -1 as libmp3lame: those bytes stay held outside the file's music (its
 * LAME tag without them) until an encode call, lame_encode_flush or a
 * retried nogap flush (which counts them as music) hands them out.
 * -EOPNOTSUPP (lame's -1) where the session cannot split. */
int  rl_mp3_session_flush_nogap(RlMp3Session *s, uint8_t *buf, int cap);
/* What lame's last save_gain_values left (lame_get_RadioGain,
 * _noclipGainChange, _noclipScale): a nogap flush's file or the stream's
 * flush; 0, 0, -1 before either. */
void rl_mp3_session_gains(const RlMp3Session *s, int *radio_gain, int *noclip_change,
                          float *noclip_scale);
/* 1 once after the flush that ended a file with nothing to flush (lame's
 * flush_bitstream then reports "strange error flushing buffer"), else 0. */
int  rl_mp3_session_take_flush_strange(RlMp3Session *s);
/* lame_init_bitstream: the head (the ID3v2 tag the library writes, a tag
 * placeholder) goes into the stream where libmp3lame's bit buffer is, held
 * there until an encode call takes it; the frame count, statistics, tag
 * and peak restart.  0 (lame's answer; a failure fails the next call). */
int  rl_mp3_session_next_file(RlMp3Session *s);

/* Mid-stream, Encode's true state (lame_get_lametag_frame and
 * lame_get_size_mp3buffer before the flush): the ring first encodes every
 * frame libmp3lame has encoded for the samples given (the frames in flight,
 * the block being filled handed over short) and is left starved, so that
 * nothing touches the encoder until the next call gives input; what the
 * later calls return does not change.  Only before the flush. */
/* The LAME tag frame of the frames so far, with lame's nogap numbers:
 * its length (0: no frame yet, or the tag is off), or -ENOSPC where cap is
 * too small, or the error the ring stopped with. */
int  rl_mp3_session_tag_now(RlMp3Session *s, int nogap_total, int nogap_current, uint8_t *buf,
                            size_t cap);
/* lame's compute_flushbits: the bytes lame_encode_flush_nogap would return
 * now (*strange: lame reports "strange error flushing buffer"), or the
 * error the ring stopped with. */
int  rl_mp3_session_flush_size_now(RlMp3Session *s, int *strange);

/* Before the flush, lets the ring catch up with libmp3lame as above, so
 * that what Encode and the decoding on the fly keep per frame (the
 * histograms, the peak) is libmp3lame's; nothing after the flush or an
 * error.  0 or the error the ring stopped with. */
int  rl_mp3_session_catch_up(RlMp3Session *s);
/* lame_get_PeakSample: before the flush, decoding on the fly, the peak of
 * every frame libmp3lame has decoded (the ring catches up first); else as
 * the last file end, flush, retried nogap flush or lame_init_bitstream
 * left it. */
float rl_mp3_session_peak(RlMp3Session *s);
/* lame_get_mf_samples_to_encode before the flush with resampling (the
 * resampler's output, which only Dispatch counts): the ring catches up
 * first.  -errno: the ring stopped with that error. */
int  rl_mp3_session_resampled_to_encode(RlMp3Session *s);

/* Frames libmp3lame has encoded after `samples` input samples per
 * channel given in all (exact without resampling, estimated with it). */
int64_t rl_mp3_session_lame_frames(const RlMp3Session *s, int64_t samples);

/* Frames finished so far. */
int64_t rl_mp3_session_frames(const RlMp3Session *s);

#endif
