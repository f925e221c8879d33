/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* An MP3 stream's layout: the ID3v2 tag at the start, the frames found by
 * their 4-byte headers (ISO/IEC 11172-3 and 13818-3, with MPEG-2.5), the
 * Xing/Info tag frame, and the ID3v1 tag at the end.  Every read is bounded
 * by the buffer: any bytes give a layout. */
#ifndef RL_MP3_FRAMES_H
#define RL_MP3_FRAMES_H

#include <stddef.h>
#include <stdint.h>

typedef struct RlMp3Header {
    int version;        /* 1: MPEG-1, 2: MPEG-2, 25: MPEG-2.5 */
    int layer;          /* 1, 2 or 3 */
    int crc;            /* 1: a 16-bit CRC follows the header */
    int bitrate_kbps;
    int samplerate;     /* Hz */
    int padding;        /* 0 or 1 */
    int mode;           /* 0 stereo, 1 joint stereo, 2 dual channel, 3 mono */
    int mode_ext;       /* 0..3 */
    int frame_bytes;    /* the whole frame, header included */
    int samples;        /* PCM samples per channel in the frame */
    int side_info_bytes; /* Layer III side information (0 for layers I, II) */
} RlMp3Header;

typedef struct RlMp3Frame {
    size_t offset;      /* of the header in the buffer */
    size_t bytes;       /* frame_bytes, or less for a frame the buffer cuts */
    RlMp3Header h;
} RlMp3Frame;

typedef struct RlMp3Layout {
    size_t id3v2_bytes;    /* the ID3v2 tag at offset 0 (0: none) */
    int has_id3v1;         /* the last 128 bytes are an ID3v1 tag */
    size_t audio_end;      /* where the frames must end (the ID3v1 tag's offset or the length) */
    size_t junk_bytes;     /* bytes between the tags that are in no frame */
    int tag_frame;         /* frame 0 carries a "Xing" or "Info" tag */
    size_t nframes;
    RlMp3Frame *frames;    /* malloc'ed; rl_mp3_layout_free */
} RlMp3Layout;

/* Decodes the header at p (avail bytes readable): 0, or -EINVAL when the
 * bytes are no valid header (no sync, reserved version, layer, bitrate or
 * rate index, free format) or fewer than 4 bytes are given. */
int rl_mp3_parse_header(const uint8_t *p, size_t avail, RlMp3Header *h);

/* Walks buf: 0, or -ENOMEM.  A byte run that is no frame is skipped to the
 * next valid header (counted in junk_bytes); a last frame cut short by the
 * end is listed with the bytes there are. */
int rl_mp3_walk(const uint8_t *buf, size_t len, RlMp3Layout *out);
void rl_mp3_layout_free(RlMp3Layout *l);

/* "MPEG-1", "MPEG-2" or "MPEG-2.5"; "stereo", "joint stereo", ... */
const char *rl_mp3_version_name(int version);
const char *rl_mp3_mode_name(int mode);

#endif
