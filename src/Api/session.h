/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encode session, the one path from lame's settings to an
 * encoded stream that every front end takes (the command for a single
 * file, stdout, --batch, --nogap and --compare through session_files.h; the
 * public API through api_encoder.c):
 *
 *   settings (RlLameSettings) + the input's description -> the stream's options
 *   (lame's input rules) and ID3 tags -> the ring's parameters (threads,
 *   ports, what the front end observes) -> the ring -> the LAME tag frame
 *   -> the output committed (session_files.h) or handed out (the API).
 *
 * A front end says how the run goes (RlSessionRun: threads, a shared pool,
 * a stop token, a trace, statistics) and what it watches (RlSessionHooks:
 * lame's console points); it never fills the ring's parameters itself.
 * This half reads no file: the file half (session_files.h) is the
 * command's. */
#ifndef RL_SESSION_H
#define RL_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "lame_args.h"
#include "ring.h"

/* What a front end watches of a run (every pointer may be NULL; arg is
 * passed to each).  The calls come from the ring's tasks (ring.h says
 * which and when). */
typedef struct RlSessionHooks {
    void *arg;
    /* Encode: frames finished, and the total (-1: unknown) */
    void (*progress)(void *arg, int64_t frames_done, int64_t frames_total_or_minus1);
    /* Dispatch: lame's encoder_progress points before each read */
    void (*read_progress)(void *arg, int64_t frames_encoded);
    /* Dispatch, MPEG input only: where lame's next read of decoded samples
     * begins (the input sample), just before that read's read_progress */
    void (*read_at)(void *arg, int64_t sample);
    /* Encode: what a finished frame holds (lame's bitrate histogram) */
    void (*frame_info)(void *arg, int64_t frame, const RlRingFrameInfo *info);
    /* gapless sets: read_progress per file, and a file that ended */
    void (*file_read_progress)(void *arg, int file, int64_t frames_in_file);
    void (*file_end)(void *arg, int file, const RlRingResult *res);
} RlSessionHooks;

/* How a run goes. */
typedef struct RlSessionRun {
    int threads;            /* the calling thread and threads-1 pool workers; 0: one per CPU */
    int sequential;         /* 1: no pool workers, no I/O thread (reads and writes on the tasks) */
    RlExecutor *exec;       /* a shared pool (NULL: one made for the run) */
    int slots;              /* the ring's frame records (0: thread_policy.h's default) */
    const _Atomic int *max_workers; /* RlRingParams.max_workers (NULL: no limit) */
    RlRingStop *stop;       /* may be NULL */
    struct RlRingTrace *trace;  /* may be NULL */
    RlRingStats *stats;     /* filled at the end; may be NULL */
    RlRingResult *result;   /* filled at the end; may be NULL */
    RlSessionHooks hooks;
} RlSessionRun;

/* The input as lame's front end knows it before the first sample. */
typedef struct RlSessionInput {
    int channels;
    int samplerate;
    int64_t frames;         /* < 0: unknown (no TLEN) */
    const uint8_t *id3v2;   /* an MPEG input's own ID3v2 tag (NULL: none) */
    size_t id3v2_len;
} RlSessionInput;

/* One stream's options and tags, derived once from the settings and the
 * input.  The tags are kept for the ring's run. */
typedef struct RlSessionStream {
    RlOptions  opt;
    RlArgsTags tags;
    /* what lame_init_params derives from opt, made once on request
     * (rl_session_stream_config) */
    struct RlConfig *cfg;
    RlOptions  derived;     /* opt as lame_init_params writes it back */
    int        cfg_rc;      /* 0 not made yet, 1 made, < 0 the options are refused */
} RlSessionStream;

/* lame's rules for the input (rl_lame_apply_input) on a copy of s->opt,
 * then the ID3 tags for it (rl_args_tags_build).  0 or -errno with the
 * reason in why (the input's problem, or "FILE: problem" for --ti).  Free
 * with rl_session_stream_free, also after an error. */
int  rl_session_stream_init(RlSessionStream *st, const RlLameSettings *s, const RlSessionInput *in,
                            char *why, size_t whylen);
void rl_session_stream_free(RlSessionStream *st);

/* What lame_init_params derives from the stream's options (the encoder's
 * configuration, and in *derived the options as it writes them back), for
 * what a front end prints about the settings; made once.  NULL when the
 * options are refused (the ring then reports it) or memory ran out. */
const struct RlConfig *rl_session_stream_config(RlSessionStream *st, const RlOptions **derived);

/* The thread count a run asks for (the calling thread included): 1 when
 * sequential, else run->threads or one per CPU, at most what one ring
 * uses (thread_policy.h). */
int  rl_session_threads(const RlSessionRun *run);

/* The ring's parameters for a run of stream st (its tags included).
 * Internal to the session's halves. */
void rl_session_ring_params(const RlSessionRun *run, const RlSessionStream *st, RlRingParams *p);

/* A ring for stream st between the caller's own ports (the public API's
 * memory ports), on run->exec (required): rl_ring_create with the
 * session's parameters.  The stream, the ports and run's objects must
 * outlive the ring.  0 or -errno. */
int  rl_session_ring_create(RlRing **out, const RlSessionRun *run, const RlSessionStream *st,
                            const RlRingInput *in, const RlRingOutput *outp);

#endif
