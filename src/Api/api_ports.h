/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the public API's two ends of the ring: a bounded queue of PCM
 * blocks (ringlame_send fills it, Dispatch takes from it) and a byte FIFO
 * (Encode appends, ringlame_receive takes).  Each has its own lock: the
 * caller's thread and the ring's workers use them at the same time. */
#ifndef RL_API_PORTS_H
#define RL_API_PORTS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ring.h"
#include "stages.h"     /* RL_ENCODER_TAG_MAX */

/* Blocks of frame_size frames (lame's front end hands lame_encode_buffer
 * that many per call, and the ring feeds one block piece per call) of one
 * sample encoding (int32 interleaved, or the converted floats of
 * RL_SF_F32_UV), the last one shorter with eof set. */
typedef struct RlApiInput {
    pthread_mutex_t mu;
    int       frame_size, channels, nblocks;
    int       fmt, frame_bytes;     /* the blocks' RlSampleFmt and bytes per frame */
    uint8_t  *buf;                  /* nblocks * frame_size * frame_bytes */
    RlInBlock *blk;                 /* nblocks descriptions */
    RlInBlock eof_blk;              /* the end, when no partial block holds it */
    int64_t   published, handed, released;   /* block counts, each only grows */
    int       fill;                 /* frames in block `published` so far */
    int64_t   frames_in;            /* frames queued in total */
    int       eof;                  /* flush: the end is published */
    int       eof_handed;
    int64_t   file_end_at;          /* a gapless set: the file ends before block ... */
    int       file_end_pending;     /* ... this many blocks in (not handed yet) */
} RlApiInput;

/* int32 blocks (rl_api_input_put) */
int  rl_api_input_init(RlApiInput *q, int frame_size, int channels, int nblocks);
/* blocks of fmt (an RlSampleFmt) with frame_bytes bytes per frame
 * (rl_api_input_write) */
int  rl_api_input_init_fmt(RlApiInput *q, int frame_size, int channels, int nblocks, int fmt,
                           int frame_bytes);
void rl_api_input_free(RlApiInput *q);
/* Frames of pcm[from..] queued (0: full); converts to int32 as it copies.
 * *published: set to 1 when a block became ready. */
size_t rl_api_input_put(RlApiInput *q, const void *const data[2], int format, int planar,
                        size_t from, size_t frames, int *published);
/* The caller's frames [from, from+frames) queued through fill, which
 * writes n frames starting at frame `at` of the caller's to dst (the
 * block's encoding); the frames queued (0: full).  *published as above. */
typedef void (*RlApiFill)(void *ctx, size_t at, size_t n, void *dst);
size_t rl_api_input_write(RlApiInput *q, RlApiFill fill, void *ctx, size_t from, size_t frames,
                          int *published);
/* Whole blocks the queue can still take (under its lock). */
int  rl_api_input_room(RlApiInput *q);
/* Publishes the end (the partial block, if any). */
void rl_api_input_end(RlApiInput *q);
/* Publishes the block being filled as it is, short (the bytes do not
 * depend on how the samples are cut), so that Dispatch can take every
 * frame queued; 1 if there was one, else 0. */
int  rl_api_input_publish(RlApiInput *q);
/* After the end was handed to Dispatch: the queue takes blocks again
 * (the stream goes on, rl_ring_reopen). */
void rl_api_input_reopen(RlApiInput *q);
/* A gapless set: the current file ends after what is queued (the partial
 * block is published as it is); Dispatch is told RL_RING_IN_FILE_END
 * there.  One at a time: -EBUSY while the last one was not handed. */
int  rl_api_input_file_end(RlApiInput *q);
/* The ring's input port over q. */
void rl_api_input_port(RlApiInput *q, RlRingInput *port);

typedef struct RlApiOutput {
    pthread_mutex_t mu;
    uint8_t  *buf;
    size_t    cap, head, tail;      /* bytes [head, tail) are pending */
    uint64_t  written;              /* bytes appended in all */
    uint8_t   tag[RL_ENCODER_TAG_MAX];
    size_t    tag_len;
    uint64_t  tag_offset;           /* where the tag frame goes: after the ID3v2 tag */
    int       finished;             /* the ring handed over its tag: the stream is complete */
    /* a gapless set: the pending bytes that belong to the file that ended
     * last (the rest is the next file's), and the files ended so far */
    size_t    file_left;
    uint64_t  file_end_written;     /* `written` when the file that ended last ended */
    int       files_ended;
} RlApiOutput;

int    rl_api_output_init(RlApiOutput *o);
void   rl_api_output_free(RlApiOutput *o);
size_t rl_api_output_take(RlApiOutput *o, uint8_t *dst, size_t cap);
/* rl_api_output_take, at most to the end of the file that ended last */
size_t rl_api_output_take_file(RlApiOutput *o, uint8_t *dst, size_t cap);
/* The kept tag becomes tag (len bytes, at most sizeof o->tag); the one it
 * replaces goes into old (cap bytes).  Returns the old one's length. */
size_t rl_api_output_swap_tag(RlApiOutput *o, const uint8_t *tag, size_t len, uint8_t *old,
                              size_t cap);
int    rl_api_output_pending(RlApiOutput *o);   /* 1: bytes are waiting */
size_t rl_api_output_count(RlApiOutput *o);     /* the bytes waiting */
uint64_t rl_api_output_written(RlApiOutput *o); /* the bytes appended in all */
void   rl_api_output_port(RlApiOutput *o, RlRingOutput *port);

#endif
