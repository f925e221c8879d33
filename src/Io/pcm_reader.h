/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: PCM input (libsndfile for named files, LAME's own WAV/AIFF/raw parser for stdin).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PCM_READER_H
#define RL_PCM_READER_H

#include <stddef.h>
#include <stdint.h>

#include "mpa_reader.h"

typedef struct RlPcmReader RlPcmReader;

/* the longest note rl_pcm_open_notes keeps (a path and lame's words) */
#define RL_PCM_NOTE_MAX 4352

/* Raw PCM description (-r, -s, --bitwidth, --signed/--unsigned, --big-endian/
 * --little-endian XOR -x).
 *   enabled     1 when -r was given
 *   samplerate  Hz (LAME: -s, default 44100)
 *   channels    1 or 2 (LAME: 2, 1 with -m m)
 *   bitwidth    8, 16, 24 or 32 (default 16)
 *   is_signed   1 = --signed, 0 = --unsigned, -1 = neither given.  LAME's
 *               default differs by path: named raw files read 8-bit as
 *               signed, raw stdin reads 8-bit as unsigned.
 *   big_endian  effective byte order of 16/24/32-bit samples (after -x);
 *               on stdin it swaps a WAV or AIFF header's order too (lame)
 *   swap_bytes  -x given (lame's note "Forcing byte-swapping")
 *   ignore_length  --ignorelength: a WAV on stdin is read to EOF whatever
 *               its data chunk says (also without -r)
 *   mpeg        MPEG audio input (mpa_reader.h): 0 = not MPEG, 1..3 = the
 *               layer asked for (--mp1input..--mp3input), RL_RAW_MPEG_ANY =
 *               any layer (lame's file-name rule: .mp1 .mp2 .mp3 .mpg),
 *               RL_RAW_MPEG_NONE = no file-name rule: the file goes to
 *               libsndfile whatever its name (lame --nogap's inputs)
 *   mpeg_delay  --decode-mp3delay n (with mpeg_delay_set): the samples to
 *               skip instead of the tag's delay (mpa_reader.h)
 *   mpeg_encoder_delay  RlMpaOpen.encoder_delay (mpa_reader.h): 0, or 576
 *               for the files after the first of a --nogap set */
#define RL_RAW_MPEG_ANY 4
#define RL_RAW_MPEG_NONE (-1)

typedef struct RlRawFormat {
    int enabled, samplerate, channels, bitwidth, is_signed, big_endian;
    int ignore_length;
    int mpeg;
    int mpeg_delay, mpeg_delay_set;
    int mpeg_encoder_delay;
    int swap_bytes;
} RlRawFormat;

/* Opens path ("-" = stdin).  Named files go through libsndfile exactly as
 * LAME's front end does (SFC_SET_SCALE_FLOAT_INT_READ, sf_read_int); unlike
 * LAME a file libsndfile cannot parse is refused unless raw->enabled.  stdin
 * is parsed as WAV/AIFF by LAME's own rules, or read as raw with raw->enabled.
 * raw may be NULL.  Returns 0, or a negative errno with a message in err. */
int  rl_pcm_open(RlPcmReader **out, const char *path, const RlRawFormat *raw,
                 char *err, size_t errlen);
int  rl_pcm_samplerate(const RlPcmReader *r);
int  rl_pcm_channels(const RlPcmReader *r);
/* frames announced by the header (LAME's num_samples); -1 unknown */
int64_t rl_pcm_frames(const RlPcmReader *r);
/* Reads up to max_frames frames as interleaved, left-justified int32 exactly
 * as LAME's front end passes them to lame_encode_buffer_int (mono: one
 * value per frame).  The values depend on how the stream is cut into reads:
 * LAME's last read of a stereo stream cut mid-frame can end with a lone
 * whole sample, and LAME then drops that read's first sample (left = sample
 * 2i+1, right = sample 2i+2; see lame_read in pcm_reader.c).  So the reads
 * must be LAME's: one call per lame_get_framesize() frames (576*mode_gr),
 * or rl_pcm_set_read_size(frame_size) and calls of any multiple of it.
 * Returns the frames read (fewer only at the end), 0 at EOF, <0 -errno. */
int  rl_pcm_read(RlPcmReader *r, int32_t *buf, int max_frames);
/* LAME's read size in frames: rl_pcm_read splits each call into reads of
 * this many frames (LAME's get_audio calls).  0 (the default): each call
 * is one read. */
void rl_pcm_set_read_size(RlPcmReader *r, int frames);
void rl_pcm_close(RlPcmReader *r);
/* MPEG input: the input's first ID3v2 tag (whole), which lame copies to
 * its output when it writes no ID3v2 tag of its own; NULL (and *len 0)
 * when there is none or the input is not MPEG */
/* --decode-mp3delay's skip of `frames` at the start, as lame's stdin
 * reader counts it: a WAV or AIFF on stdin whose header gives its length
 * is then read only to that length less the skip (lame lowers its sample
 * count by the skip, and its reader stops there; a count that falls to 0
 * means "to the end").  The caller drops the frames themselves.  Nothing
 * for named files, raw input and lengths read to the end. */
void rl_pcm_skip_counted(RlPcmReader *r, int frames);
/* lame's reader refuses the sample format of this input (a width other
 * than 8, 16, 24 or 32 bits, as a 64-bit float WAV on stdin has, or
 * --unsigned wider than 8 bits, where lame's own reader reads it): lame
 * opens the input and its first read fails, so the stream is empty.  The
 * reads give no frames; this is lame's message at that read (silent < 10);
 * NULL when the reads are normal. */
const char *rl_pcm_read_refusal(const RlPcmReader *r);
/* What lame prints while it opens this input ("Assuming raw pcm input
 * file", the messages of a -r file libsndfile refuses), for lame's silence
 * level silent (-S 5, --silent 9, --quiet 10): lines into buf[n], "" when
 * none. */
void rl_pcm_open_notes(const RlPcmReader *r, int silent, char *buf, size_t n);
const uint8_t *rl_pcm_input_id3v2(const RlPcmReader *r, size_t *len);

/* MPEG input: its reader (for lame's --decode display, which reads it as
 * LAME's get_audio16 does); NULL for PCM input. */
RlMpaReader *rl_pcm_mpeg(RlPcmReader *r);

/* What lame's front end calls the input (its input_format): MPEG input by
 * its layer, stdin by its header, -r input raw, a named file by lame's
 * file-name rule (.wav, .aif, .raw, else unknown). */
typedef enum {
    RL_PCM_KIND_UNKNOWN, RL_PCM_KIND_WAVE, RL_PCM_KIND_AIFF, RL_PCM_KIND_RAW,
    RL_PCM_KIND_MP1, RL_PCM_KIND_MP2, RL_PCM_KIND_MP3
} RlPcmKind;
RlPcmKind rl_pcm_kind(const RlPcmReader *r);

/* For the I/O scheduler's direct-read path (raw_layout.c).
 * rl_pcm_sf_info: what libsndfile made of a named file: its path, SF_INFO
 * format and frames (unclamped), and for -r files the byte order asked for.
 * -ENOTSUP for stdin.  rl_pcm_sf_read_at: sf_read_int of nframes frames at
 * frame, then back to frame 0; only before the first rl_pcm_read.  Frames
 * read or -errno. */
typedef struct RlPcmSfInfo {
    const char *path;
    int     format;
    int64_t frames;
    int     channels;
    int     raw_big_endian;
} RlPcmSfInfo;
int  rl_pcm_sf_info(const RlPcmReader *r, RlPcmSfInfo *out);
int  rl_pcm_sf_read_at(RlPcmReader *r, int64_t frame, int32_t *buf, int nframes);
/* rl_pcm_sf_tail: 1 when sf_read_int returns one more whole sample after the
 * last whole frame (a stereo file that ends mid-frame, or has a lone sample
 * after its data), with that sample in *value; 0 when not (mono, no such
 * sample, or a frame's worth or more after the data: libsndfile then cuts
 * reads back to whole frames); -errno.  Same rules as rl_pcm_sf_read_at. */
int  rl_pcm_sf_tail(RlPcmReader *r, int32_t *value);

#endif
