/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MPEG audio input: a file or stdin read as LAME's front end reads
 * it (ID3v2 and AiD skipped, the first frame header found, the Xing/Info
 * tag's encoder delay and padding applied) and decoded by src/Decoder.
 * Algorithms derived from LAME 3.100's frontend/get_audio.c (LGPL-2.0-or-later). */
#ifndef RL_MPA_READER_H
#define RL_MPA_READER_H

#include <stddef.h>
#include <stdint.h>

typedef struct RlMpaReader RlMpaReader;

/* Which MPEG input: a layer asked for (--mp1input .. --mp3input: headers of
 * other layers are passed over while looking for the first frame), or any
 * layer (the file name's .mp1/.mp2/.mp3/.mpg). */
enum { RL_MPA_ANY_LAYER = 0 };

/* How to open: the layer (or RL_MPA_ANY_LAYER) and --decode-mp3delay n
 * (delay_set: n samples, plus the decoder's delay, are skipped at the start
 * instead of the tag's delay, and no padding at the end; n = 0 keeps the
 * tag's values, as in lame).  encoder_delay: what lame_get_encoder_delay()
 * says when lame opens the file, skipped (with the decoder's delay) from a
 * Layer III stream whose tag gives neither delay nor padding: 0 before
 * lame_init_params (a single input, a --nogap set's first), 576 after it
 * (the later files of a --nogap set). */
typedef struct RlMpaOpen {
    int layer;
    int delay_set, delay;
    int encoder_delay;
} RlMpaOpen;

/* Opens path ("-" = stdin) and reads up to the first frame (of Layer I, II
 * or III).  Returns 0, or a negative errno with a message in err. */
int  rl_mpa_reader_open(RlMpaReader **out, const char *path, const RlMpaOpen *how, char *err,
                        size_t errlen);
int  rl_mpa_reader_channels(const RlMpaReader *r);
int  rl_mpa_reader_samplerate(const RlMpaReader *r);
/* LAME's num_samples for the input: the tag's count less the delay and
 * padding, else an estimate from the file size; -1 unknown */
int64_t rl_mpa_reader_frames(const RlMpaReader *r);
/* the stream's first ID3v2 tag (header included), NULL and 0 if none */
const uint8_t *rl_mpa_reader_id3v2(const RlMpaReader *r, size_t *len);
/* the samples to drop at the start and the end (Layer III: encoder delay +
 * decoder delay, padding - decoder delay; Layers I, II: the decoder delay) */
void rl_mpa_reader_skips(const RlMpaReader *r, int *start, int *end);
/* Up to max_frames (at most 1152) decoded frames, interleaved (mono: one
 * value per frame), as LAME's get_audio16 gives them.  Returns the frames,
 * 0 at the end, or -EIO on a read error. */
int  rl_mpa_reader_read(RlMpaReader *r, int16_t *buf, int max_frames);
/* The header of the frame decoded last (LAME's mp3data_struct, as its
 * front end shows it while decoding): layer, bitrate in kbit/s, mode and
 * mode extension, samples per frame. */
typedef struct RlMpaFrameInfo {
    int layer, bitrate, mode, mode_ext, frame_samples;
} RlMpaFrameInfo;
void rl_mpa_reader_frame_info(const RlMpaReader *r, RlMpaFrameInfo *out);
/* Why the stream ended early, once rl_mpa_reader_read returned 0: a frame
 * whose channels or rate differ from the first's (LAME stops there, with
 * "Error: number of channels has changed in MP3 file - not supported" and
 * "Error: sample frequency has changed ...", and its read gives no
 * samples, not even 0); 0: it did not. */
enum { RL_MPA_CHANGED_CHANNELS = 1, RL_MPA_CHANGED_RATE = 2 };
int  rl_mpa_reader_changed(const RlMpaReader *r);
/* 1 once rl_mpa_reader_read returned 0 because the stream ended with fewer
 * frames left than the end's skip: LAME's read then gives a negative count
 * (its PcmBuffer's frames less the skip), which its --decode loop neither
 * shows nor writes. */
int  rl_mpa_reader_short_end(const RlMpaReader *r);
/* Where the decoder's messages on damaged streams go from now on (lame's
 * front end prints them unless --quiet); NULL: nowhere. */
void rl_mpa_reader_set_report(RlMpaReader *r, void (*fn)(void *arg, const char *text), void *arg);
/* The frames rl_mpa_reader_read handed out so far.  The reader decodes only
 * when all it buffered was handed out (but the end's skip), so from the
 * report callback this is where the lame read making the message began,
 * however the caller sizes its reads. */
int64_t rl_mpa_reader_handed_out(const RlMpaReader *r);
/* --decode --swap-channel of a mono stream, as lame's get_audio16 gives it:
 * lame's mono decoder fills only the left buffer and the swap then hands
 * out the right one, which holds the left samples of lame's previous read
 * (zeros before the first), so the output is the stream one read late.
 * Before the first read; mono only (-EINVAL), 0 or -ENOMEM. */
int  rl_mpa_reader_swap_mono(RlMpaReader *r);
void rl_mpa_reader_close(RlMpaReader *r);

/* The sizes of LAME's front-end reads of an MPEG input (get_audio: frames
 * decoded until some are left beyond the end's skip, then at most 1152 of
 * them), from the stream's samples per frame and skips alone: the reads
 * an encode makes (its progress lines come before each). */
typedef struct RlMpaReadPlan {
    int frame_samples, skip_left, skip_end;
    int64_t buffered;
} RlMpaReadPlan;
void rl_mpa_read_plan_init(RlMpaReadPlan *p, const RlMpaReader *r);
int  rl_mpa_read_plan_next(void *plan);    /* the next read's frames */

#endif
