/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* Comparing two MP3 streams: where the first differing byte is (which
 * frame, which part of it) and how many frames differ, on the layouts of
 * mp3_frames.h. */
#ifndef RL_MP3_COMPARE_H
#define RL_MP3_COMPARE_H

#include <stdio.h>
#include "mp3_frames.h"

typedef enum RlMp3Part {
    RL_PART_NONE = 0,       /* identical */
    RL_PART_ID3V2,          /* an ID3v2 tag at the start (on either side) */
    RL_PART_TAG_FRAME,      /* the first frame, which carries the Xing/Info tag */
    RL_PART_HEADER,         /* a frame's 4-byte header */
    RL_PART_CRC,            /* the CRC after it */
    RL_PART_SIDE_INFO,      /* Layer III side information */
    RL_PART_MAIN_DATA,      /* the rest of the frame */
    RL_PART_JUNK,           /* bytes in no frame */
    RL_PART_ID3V1,          /* an ID3v1 tag at the end (on either side) */
    RL_PART_LENGTH          /* one stream is the other's beginning */
} RlMp3Part;

typedef struct RlMp3Diff {
    RlMp3Part part;
    size_t offset;          /* the first differing byte */
    long frame;             /* the frame that byte is in (first stream's numbering), -1: none */
    size_t frame_pos;       /* the byte's place in that frame */
    long first_frame;       /* the first frame that differs frame by frame, -1: none */
    double first_time_s;    /* its start in seconds */
    int have[2];            /* first_frame exists in stream 0 / 1 */
    RlMp3Frame at[2];       /* first_frame in each stream */
    size_t frames[2];       /* frames in each stream */
    size_t frames_differ;   /* frame-by-frame differences (unmatched frames count) */
    long last_frame;        /* the last differing frame, -1: none */
} RlMp3Diff;

/* Compares a (la bytes) with b (lb bytes): 0 identical, 1 different (the
 * report in *d), or -ENOMEM. */
int rl_mp3_compare(const uint8_t *a, size_t la, const uint8_t *b, size_t lb, RlMp3Diff *d);

/* "header", "side info", ... */
const char *rl_mp3_part_name(RlMp3Part part);

/* The report, for a person: names[0] and names[1] label the streams. */
void rl_mp3_diff_print(FILE *fp, const RlMp3Diff *d, const char *const names[2],
                       const size_t sizes[2]);

#endif
