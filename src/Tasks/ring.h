/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encode driver: a ring of frame records moved through the
 * five stages by the threads of an executor (executor.h), with an input and
 * an output port at its ends (see ring.c's top comment and
 * docs/architecture.md).  One ring on an executor of 0 workers runs inline
 * on the thread that waits for it (--sequential). */
#ifndef RL_RING_H
#define RL_RING_H

#include <stdint.h>

#include <stddef.h>

#include "settings.h"
#include "executor.h"
#include "thread_policy.h"
#include "pcm_format.h"   /* RlInBlock */

struct RlPcmReader;
struct RlMp3Writer;

/* A stop token: a request, from any thread, that the rings using it drain
 * and return -EINTR.  rl_ring_stop_request takes the token's mutex, then,
 * for every ring attached to it, that ring's scheduler lock (to set its
 * stop flag) and notifies the ring's executor (rl_executor_notify), so idle
 * workers and helpers wake at once and the next one in the ring fails it
 * (no polling, no timed waits).
 *
 * Threading contract:
 *   - create/free: by the owner, never while a ring uses the token (free
 *     only after the rings using it were destroyed and no thread can still call
 *     rl_ring_stop_request on it);
 *   - rl_ring_stop_request / rl_ring_stop_requested: any normal thread, at
 *     any time, also while rings run; NOT from a signal handler (they lock
 *     mutexes: a signal thread that sigwait()s calls them instead, see
 *     src/Cli/signals.h);
 *   - a request is sticky: a ring started with an already stopped token
 *     returns -EINTR without encoding;
 *   - one token may serve several rings at once (each attaches itself in
 *     rl_ring_create, before it joins the executor, and detaches in
 *     rl_ring_destroy, after it left it).  Lock order: token -> ring scheduler lock.
 *     The ring never takes the token's lock while it holds its own. */
typedef struct RlRingStop RlRingStop;

/* 0, -ENOMEM or -errno of pthread_mutex_init. */
int rl_ring_stop_create(RlRingStop **out);
void rl_ring_stop_free(RlRingStop *s);          /* NULL: nothing */
void rl_ring_stop_request(RlRingStop *s);       /* idempotent */
int rl_ring_stop_requested(RlRingStop *s);      /* 1 once requested */

/* What a ring run spent where (filled at the end when RlRingParams.stats is
 * set): task counts and summed task times per kind, in seconds of worker
 * time.  encode_s includes the channel loops Encode runs itself, not its
 * waits in the fork-joins for the ones other workers run (side_s): those
 * are join_wait_s, not work. */
typedef struct RlRingStats {
    int64_t frames;
    int64_t search_redos;       /* searches Encode redid serially */
    double  dispatch_s, prepare_s, resolve_s, search_s, encode_s, side_s, gain_s, finish_s;
    double  redecode_s;         /* decode on the fly (--replaygain-accurate, --clipdetect) */
    int64_t side_tasks;         /* forked Encode items run by another worker */
    double  join_wait_s;        /* Encode's waits in its fork-joins (spin and sleep) */
    double  wall_s;
} RlRingStats;

/* Which side of a failed run failed (RlRingResult.failed_end). */
typedef enum RlRingEnd {
    RL_RING_END_NONE   = 0,     /* neither port: a stop, the encoder, memory */
    RL_RING_END_INPUT  = 1,     /* the input port's next (a read) */
    RL_RING_END_OUTPUT = 2      /* an output port call (a write, the file's end) */
} RlRingEnd;

/* What the run ends with (filled by the Finish task when
 * RlRingParams.result is set): the console lines lame prints after an
 * encode come from it.  A failed run sets only failed_end. */
typedef struct RlRingResult {
    int64_t frames;             /* frames encoded, the flush's included */
    int     tag_len;            /* the LAME tag frame handed to the output (0: none) */
    int     replay_gain;        /* 1: ReplayGain was computed (radio_gain is set) */
    int     radio_gain;         /* RadioGain in tenths of a dB */
    int     decoded;            /* 1: the output was decoded on the fly (the two below are set) */
    int     noclip_gain_change; /* lame_get_noclipGainChange: tenths of a dB, > 0: it clips */
    float   noclip_scale;       /* lame_get_noclipScale: the --scale that avoids it, -1: none */
    float   peak_sample;        /* lame_get_PeakSample (decoded: the two above are set) */
    float   scale;              /* lame_get_scale after init (--scale, or a preset's) */
    int     encoder_padding;    /* lame_get_encoder_padding after the flush */
    int     flush_empty;        /* the (file's) end had nothing to flush: no frame yet, where
                                 * LAME prints "strange error flushing buffer ... " */
    int     failed_end;         /* a failed run: the RlRingEnd its first error came from
                                 * (lame's front end exits 1 on a write error only) */
    int     failed_file;        /* ... and, in a gapless set, the file being read or
                                 * written then (0 otherwise) */
} RlRingResult;

/* A frame the Encode task has finished, for lame's bitrate histogram
 * (the counts LAME's updateStats keeps). */
typedef struct RlRingFrameInfo {
    int bitrate_index;  /* the header's: 1..14, 0 in free format */
    int mode_ext;       /* the header's mode extension (2: M/S); -1 for mono output */
    int block_count[5]; /* granule-channels by block type: normal, start, short, stop, mixed */
} RlRingFrameInfo;

/* How rl_run_ring moves a file's bytes (RlRingParams.io_backend). */
typedef enum RlRingIo {
    RL_RING_IO_DIRECT = -1, /* no I/O thread: Dispatch reads and Encode writes directly */
    RL_RING_IO_AUTO   = 0,  /* the I/O scheduler (io_sched.h) on io_uring where the kernel
                             * allows it, else on its plain thread */
    RL_RING_IO_URING  = 1,  /* the I/O scheduler on io_uring only (fails without it) */
    RL_RING_IO_THREAD = 2   /* the I/O scheduler on its plain thread */
} RlRingIo;

typedef struct RlRingParams {
    int threads;        /* rl_run_ring without exec: the calling thread and threads-1 pool
                         * workers (rl_threads_for_ring, thread_policy.h); <= 0: the CPUs
                         * this process may run on */
    int slots;          /* frame records; 0: rl_ring_slots's default (thread_policy.h) */
    /* the most pool workers that run this ring's tasks at once beside the
     * thread waiting for it (rl_ring_wait / rl_ring_help_until, never held
     * back), read each time a worker would take a task; NULL: no limit.
     * At 0 the ring runs on its waiting thread alone, as at --threads 1
     * (Encode's items are not offered, every Search starts from the state
     * of the Encode before it), and the pool's workers serve other rings:
     * --batch, while files wait to start.  Whoever raises it calls
     * rl_executor_notify, so that idle workers look again */
    const _Atomic int *max_workers;
    RlRingIo io_backend;   /* how rl_run_ring reads and writes (RlRingIo); 0: RL_RING_IO_AUTO */
    RlExecutor *exec;   /* the pool to run on (shared by any number of rings); NULL:
                         * rl_run_ring makes one of threads-1 workers for the call
                         * (rl_ring_create requires one) */
    /* called from the Encode task (never two at once) as frames are finished; may be NULL */
    void (*progress)(void *arg, int64_t frames_done, int64_t frames_total_or_minus1);
    /* called from the Dispatch task (never two at once, but beside Encode's
     * progress calls) where lame's front end calls encoder_progress: before
     * each read of input goes to the encoder and once at the end of the
     * input, with the frames lame has encoded by then; may be NULL */
    void (*read_progress)(void *arg, int64_t frames_encoded);
    /* the frames of lame's next read where they are not frame_size (its
     * front end reads MPEG input one decoded chunk at a time): Dispatch
     * then makes its read_progress calls where those reads begin; called
     * by Dispatch; NULL: frame_size each */
    int (*next_read)(void *arg);
    /* gapless sets: next_read for the input file `file` (each file's reads
     * start at its first sample); used instead of next_read when set */
    int (*file_next_read)(void *arg, int file);
    void *next_read_arg;
    /* called from the Encode task, before its progress call for the same
     * frame (frame: 0-based), with what the frame holds; may be NULL */
    void (*frame_info)(void *arg, int64_t frame, const RlRingFrameInfo *info);
    void *progress_arg;
    /* a stop token (see above): once requested, the ring drains and fails
     * with -EINTR; may be NULL */
    RlRingStop *stop;
    RlRingStats *stats; /* filled by rl_ring_destroy; may be NULL */
    RlRingResult *result; /* filled by the Finish task; may be NULL */
    /* the run's timeline (trace.h): each task, and with rl_run_ring's I/O
     * scheduler each of its I/O calls, recorded by the thread that ran it;
     * the caller creates it, writes and frees it after the run; may be NULL */
    struct RlRingTrace *trace;
    /* ID3 tags (id3tag.h): the ID3v2 bytes go out before the stream's first
     * frame (the LAME tag frame then lies at offset id3v2_len), the ID3v1
     * bytes after its last; len 0: none.  The caller keeps them for the run */
    const uint8_t *id3v2;
    size_t id3v2_len;
    const uint8_t *id3v1;
    size_t id3v1_len;
    /* gapless sets: 1: only the set's last file gets the ID3v1 tag
     * (libmp3lame writes it at lame_encode_flush, not at
     * lame_encode_flush_nogap); 0: every file (lame's front end) */
    int id3v1_last_only;
    /* a gapless set (lame --nogap) of this many files, 0: one file.  The
     * input port says where each file ends (RL_RING_IN_FILE_END), the
     * output port switches files (next_file); every file gets the ID3v1 tag
     * above (unless id3v1_last_only), its own ID3v2 tag (nogap_id3v2[i], nogap_id3v2_len[i]; NULL:
     * id3v2 above for every file) and, when the output wants it, its own
     * LAME tag */
    int nogap_files;
    const uint8_t *const *nogap_id3v2;
    const size_t *nogap_id3v2_len;
    /* input frames dropped at the start of the stream (of each file of a
     * gapless set) before Dispatch sees them: lame's --decode-mp3delay on
     * PCM input, which its front end's sample buffer drops; 0: none */
    int skip_frames;
    /* gapless sets, for lame's console text of each file (both may be
     * NULL; arg: progress_arg).  file_read_progress: called by Dispatch
     * instead of read_progress, with the input file and the frames lame
     * has encoded in it (its frame count restarts at each file).
     * file_end: called by Encode when output file `file`, not the set's
     * last, has ended (its bytes and LAME tag handed to the output port),
     * before the next file's first frame: res holds that file's frames,
     * tag_len, ReplayGain, scale, flush_empty and, decoded on the fly, its
     * clipping figures and peak (the other fields are 0).  The last file's
     * figures are the run's result (above), its frames those after the
     * earlier files'. */
    void (*file_read_progress)(void *arg, int file, int64_t frames_in_file);
    void (*file_end)(void *arg, int file, const RlRingResult *res);
    /* gapless sets: the numbers the LAME tag of output file `file` carries
     * (lame's nogap_total and nogap_current, which lame's caller sets),
     * asked for when the tag is made; NULL: the set's (nogap_files, file).
     * arg: progress_arg */
    void (*tag_nogap)(void *arg, int file, int *total, int *current);
    /* gapless sets: 1: a file's start writes no head; the caller writes
     * it with rl_ring_init_bitstream, as libmp3lame's caller calls
     * lame_init_bitstream (or does not); 0: every file after the first
     * starts with its head (lame's front end) */
    int head_by_caller;
} RlRingParams;

/* ---------------------------------------------------------------- ports
 *
 * The input port hands Dispatch blocks of interleaved PCM (RlInBlock,
 * pcm_format.h), in stream order.  Dispatch feeds the encoder at most
 * rl_ring_frame_size() frames per call and never across a block boundary,
 * like LAME's front end feeds lame_encode_buffer: blocks hold a multiple of
 * the frame size, except the last one.  next and release are called only
 * from the Dispatch task (one call at a time, on any thread); a block stays
 * valid until it is released, and at most one is held at a time.  The eof
 * block is released as soon as its frames are fed; a block still held when
 * the ring is aborted is released by rl_ring_destroy. */
/* next()'s answer for a gapless set: the current file ended, the blocks
 * that follow are the next file's (no block is handed out) */
#define RL_RING_IN_FILE_END 2

typedef struct RlRingInput {
    /* 1: *blk is the next block; 0: none yet (the port calls
     * rl_ring_input_ready when one arrives); <0: -errno.  The block with
     * eof=1 (nframes may be 0) ends the input: next is not called again.
     * RL_RING_IN_FILE_END (gapless sets only, between two files' blocks) */
    int  (*next)(void *ctx, const RlInBlock **blk);
    void (*release)(void *ctx, const RlInBlock *blk);
    void *ctx;
    int64_t frames;     /* input frames if known (progress), else -1 */
} RlRingInput;

/* The output port gets the stream's bytes in order, from the Encode task and
 * then the Finish task (one call at a time, on any thread). */
typedef struct RlRingOutput {
    int  (*write)(void *ctx, const uint8_t *p, size_t n);
    /* the end: the LAME tag frame to write over the stream's first frame,
     * at offset (the bytes written before it: an ID3v2 tag); tag_len 0:
     * none.  Called once, after the last write */
    int  (*finish)(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset);
    /* may be NULL: called once when the ring fails before finish, from any
     * thread: make a write blocked in the port return (an error) soon */
    void (*cancel)(void *ctx);
    void *ctx;
    int  wants_tag;     /* 0: do not build the tag (unseekable output) */
    /* gapless sets: ends the current file like finish (its LAME tag at
     * offset) and sends the following writes to the next file; NULL
     * otherwise */
    int  (*next_file)(void *ctx, const uint8_t *tag, size_t tag_len, uint64_t offset);
} RlRingOutput;

typedef struct RlRing RlRing;

enum {
    RL_RING_RUNNING = 0,   /* work is running or ready */
    RL_RING_STARVED = 1,   /* Dispatch waits for input, every frame it cut is
                            * encoded, nothing is running */
    RL_RING_DONE    = 2    /* finish returned 0 */
};

/* Threading contract of the ring object:
 *   - create / destroy: the owner, once each; the ports, p (its progress,
 *     stop and stats) and ex must outlive the ring;
 *   - rl_ring_input_ready, rl_ring_state: any thread, any time between
 *     create and destroy (they take the ring's lock only);
 *   - rl_ring_wait / rl_ring_help_until: any thread that is not one of
 *     ex's workers (several may help at once);
 *   - the port callbacks run on pool workers or helpers, never under the
 *     ring's lock, so they may call rl_ring_input_ready / rl_ring_state.
 * The ring starts running on ex as soon as rl_ring_create returns (it
 * writes the stream's first bytes, the tag placeholder frame, through the
 * output port before that, on the caller's thread). */

/* The options are copied (init writes LAME's derived values back into the
 * copy).  0 or -errno (nothing is left then). */
int  rl_ring_create(RlRing **out, const RlOptions *opt, RlExecutor *ex, const RlRingInput *in,
                    const RlRingOutput *outp, const RlRingParams *p);
/* LAME's read size: frames per lame_encode_buffer call (see the ports). */
int  rl_ring_frame_size(const RlRing *r);
/* The input port has a block now (after its next() returned 0). */
void rl_ring_input_ready(RlRing *r);
/* RL_RING_RUNNING, RL_RING_STARVED, RL_RING_DONE, or the -errno the ring
 * failed with (-EINTR: stopped).  Decided under the ring's lock. */
int  rl_ring_state(RlRing *r);
/* Helps on the executor until the ring is DONE or failed; 0 or -errno. */
int  rl_ring_wait(RlRing *r);
/* Helps until done(arg) returns 1 or the ring is starved, done or failed
 * (done is called without the ring's lock; the ring wakes helpers after
 * each Encode and Finish, and when it starves, ends or fails); returns
 * rl_ring_state. */
int  rl_ring_help_until(RlRing *r, int (*done)(void *arg), void *arg);
/* A gapless set whose files end as the front end says (the drop-in
 * libmp3lame's lame_encode_flush_nogap; nogap_files: the most it may
 * have): once the input port has answered RL_RING_IN_FILE_END and the
 * ring is STARVED, the file's end (the bitstream flush, its LAME tag
 * through the output port's next_file, then the next file's head) runs
 * on the calling thread, as the next file's first Encode would run it.
 * head_held: the bytes of the file's head (its tag placeholder, and a
 * flush held before it) still in lame's bit buffer, so lame's flush counts
 * the head as music (no encode call with samples took it since it was
 * written); 0: none.  cap: the caller's room for lame's flush (those bytes
 * and the flush's; lame's mp3buffer_size: 0 unlimited, < 0 none).
 * 0: the flush fits and went out as music (decoded on the fly).
 * 1: it does not fit: as libmp3lame leaves it in its bit buffer, the
 * file's music CRC and length go back to before it, its LAME tag (handed
 * to next_file) is made without it, and with decoding on the fly its
 * bytes are kept undecoded (the file's peak and ReplayGain title close
 * without them) until rl_ring_held_out says how they go out.
 * -EAGAIN (not starved after a file's end yet: help, then call again) or
 * the error the ring failed with. */
int  rl_ring_end_file(RlRing *r, size_t head_held, int cap);
/* How the flush that rl_ring_end_file held goes out (libmp3lame's next
 * copy_buffer of its bit buffer):
 *   DROP:  as non-music (an encode call, lame_encode_flush): never decoded;
 *   RETRY: a retried nogap flush, as music of the ended file: its music
 *          counts are those with the flush again; decoded on the fly into
 *          the peak and a ReplayGain title of its own, which closes (the
 *          retry's save_gain_values);
 *   AHEAD: after rl_ring_init_bitstream, a sample-less nogap flush: as
 *          music ahead of the new head, added to the new file's counts
 *          (the CRC goes on over it) and decoded into its peak and title.
 * A flush still held at the next rl_ring_end_file (that sample-less nogap
 * flush had no room either) joins that file's end: its bytes ahead of the
 * head, held with it or going out with it as one copy. */
typedef enum RlRingHeld {
    RL_RING_HELD_DROP = 0,
    RL_RING_HELD_RETRY = 1,
    RL_RING_HELD_AHEAD = 2
} RlRingHeld;
/* While the ring is STARVED with no input arriving, or DONE.  RETRY fills
 * res (may be NULL): radio_gain and replay_gain (the closed title's),
 * decoded, and with it noclip_gain_change, noclip_scale and peak_sample
 * as the retry's save_gain_values leaves them.  0, -EBUSY or the error the
 * ring failed with. */
int  rl_ring_held_out(RlRing *r, RlRingHeld how, RlRingResult *res);
/* lame_init_bitstream (head_by_caller), while the ring is STARVED with no
 * input arriving or DONE: the current file's ID3v2 tag and a new tag
 * placeholder go out where the stream is, the frame count, the seek table
 * and the decoded peak restart.  0, -EBUSY (a task may run) or the error
 * the ring failed with. */
int  rl_ring_init_bitstream(RlRing *r);
/* After rl_ring_init_bitstream on a DONE ring, before more input: the
 * head's tag placeholder counts as music, as libmp3lame's sample-less
 * nogap flush copies it out.  0, -EBUSY or the error the ring failed with. */
int  rl_ring_head_as_music(RlRing *r);
/* After the ring is DONE: the stream goes on as libmp3lame goes on
 * encoding after lame_encode_flush (the flush's padding frames, its
 * bitstream flush and ID3v1 tag stay where they are; the input port takes
 * more blocks and ends again, and the next Finish writes the ID3v1 tag and
 * a LAME tag of the whole stream again).  The ReplayGain title closes here,
 * as LAME's flush closes it.  The caller reopens the input port first.
 * 0, -EBUSY (not DONE) or the error the ring failed with. */
int  rl_ring_reopen(RlRing *r);
/* lame_get_size_mp3buffer on the encoder's state (*strange: where LAME
 * prints "strange error flushing buffer"); only while the ring is DONE, or
 * STARVED with no input arriving (no task touches the encoder then), or
 * from the progress callback (the Encode task's own state after its frame). */
int  rl_ring_flush_size(RlRing *r, int *strange);
/* lame_get_lametag_frame mid-stream: the LAME tag frame of the frames
 * encoded so far (padding 0, RadioGain radio_gain, the peak decoded so
 * far, the nogap flags `file` of `files`); only while the ring is STARVED
 * with no input arriving.  of_file: right after rl_ring_end_file, that
 * file's tag made again (its padding; the music counts as they are now).
 * Length, 0 (tag off or no frame yet), -ENOSPC. */
int  rl_ring_tag_frame_now(RlRing *r, int radio_gain, int file, int files, int of_file,
                           uint8_t *buf, size_t cap);
/* lame_get_PeakSample mid-stream: the peak of the output decoded so far
 * (0 without decoding on the fly); only while the ring is STARVED with no
 * input arriving, or DONE. */
float rl_ring_peak_now(RlRing *r);
/* lame_get_mf_samples_to_encode mid-stream: Dispatch's count of the
 * samples it has taken in (resampled) and not yet cut into frames, with
 * the delay; only while the ring is STARVED with no input arriving, or
 * DONE. */
int  rl_ring_samples_to_encode_now(RlRing *r);
/* After the ring ended, or to abort it (it then fails with -ECANCELED and
 * the output port is cancelled): detaches from the executor (waits for the
 * tasks that run), releases a held input block, fills p->stats, frees.
 * NULL: nothing. */
void rl_ring_destroy(RlRing *r);

/* ------------------------------------------------- the file convenience */

/* A whole encode from a reader to a writer: file ports (the I/O scheduler,
 * or with RL_RING_IO_DIRECT direct reads and writes on the tasks), a ring on
 * p->exec (or a pool made for the call), wait, destroy.  p may be NULL
 * (defaults).  Returns 0 or -errno (-EINTR when stopped); the caller closes
 * reader and writer. */
int rl_run_ring(const RlOptions *opt, struct RlPcmReader *in, struct RlMp3Writer *out,
                const RlRingParams *p);

/* A gapless set (lame --nogap): in[i] is encoded to out[i], the n inputs
 * as one stream (same rate and channels: the caller checks), each file
 * ended like lame_encode_flush_nogap ends it and the last one flushed.
 * Reads and writes run directly on the Dispatch and Encode tasks (no I/O
 * scheduler) on p->threads threads (p->io_backend is not used); p is
 * required, its nogap_files is set to n.  0 or -errno; the caller closes
 * readers and writers (committing the writers only on success). */
int rl_run_ring_nogap(const RlOptions *opt, struct RlPcmReader **in, struct RlMp3Writer **out,
                      int n, const RlRingParams *p);

#endif
