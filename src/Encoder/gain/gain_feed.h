/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ReplayGain beside the frame ring: a bounded per-channel sample
 * feed filled by Dispatch, one analysis task per channel, a per-window join.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 *
 * Why this is exact: LAME's AnalyzeSamples filters each channel on its own
 * (the filter input is the continuous sample stream; the linprebuf path for
 * the first 10 samples of a call reads the same values), and the channels
 * meet only when a 50 ms window completes: A[f(lsum + rsum)]++.  What the
 * call chunking changes is where the float partial sums restart (the first
 * <=10 samples of a call, window boundaries, call ends).  So the feed keeps
 * every pushed chunk's length, each channel task cuts exactly LAME's pieces,
 * adds their float sums into a double per window, and the join adds the
 * window sums of both channels into the histogram in window order.
 * Mono (channels == 1): LAME analyses left as both channels; rsum == lsum
 * bit for bit, so one task runs and the join uses lsum + lsum.
 *
 * Threading contract:
 *   rl_gain_feed_init/free: single-threaded (nothing else running).
 *   rl_gain_feed_push: one producer (Dispatch) at a time.
 *   rl_gain_task_run(g, ch): at most one caller per channel at a time (a
 *     second concurrent call for the same ch gets -EBUSY); channel 0 and 1
 *     may run concurrently with each other and with push.
 *   rl_gain_feed_space / rl_gain_task_pending: any thread, any time (a
 *     snapshot: space only grows and pending only shrinks unless the
 *     caller itself pushes/runs).
 *   rl_gain_feed_result: after the last push and after both tasks have
 *     consumed everything (-EBUSY otherwise).
 * All shared counters are guarded by one internal mutex, held only for a few
 * instructions (never while filtering, never while calling notify).  Sample
 * data and chunk lengths are written outside it into slots no reader can see
 * until the writer publishes them under the mutex.  notify(arg) is called
 * without the feed's lock, after every push and at the end of every run that
 * consumed something; it may call space/pending but should only signal.
 */
#ifndef RL_GAIN_FEED_H
#define RL_GAIN_FEED_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "dsp.h"
#include "replaygain.h"

/* The most samples one Dispatch fill_buffer step pushes (framesize, 1152):
 * Dispatch checks rl_gain_feed_space >= this before each step. */
#define RL_GAIN_PUSH_MAX 1152
/* Titles a feed can close (LAME's front end takes at most 200 --nogap files). */
#define RL_GAIN_MAX_TITLES 256

/* The capacity rl_encoder_create gives the feed (samples per channel). */
#define RL_GAIN_FEED_DEFAULT_CAP (1u << 16)

/* One channel's analysis state (LAME: l/r prebuf, step, out, sum); touched
 * only by the task that runs this channel. */
typedef struct RlGainChan {
    float    in[RL_RG_MAX_ORDER + RL_RG_MAX_WINDOW];   /* last 10 inputs, then the piece */
    float    step[RL_RG_MAX_ORDER + RL_RG_MAX_WINDOW];
    float    out[RL_RG_MAX_ORDER + RL_RG_MAX_WINDOW];
    long     totsamp;      /* samples of the current window seen */
    double   sum;          /* double on purpose: LAME's lsum/rsum */
    uint64_t windows;      /* windows completed by this channel */
} RlGainChan;

/* Private: use the functions below. */
typedef struct RlGainFeed {
    int        nch;            /* channels analysed (1 or 2); 0: not initialised */
    int        freqindex;
    long       window;
    size_t     cap;            /* samples per channel ring */
    size_t     wcap;           /* window-sum slots per channel */
    float     *buf[2];         /* sample rings, index = stream position % cap */
    uint32_t  *chunk_len;      /* chunk ring (cap entries: every chunk >= 1 sample) */
    double    *wsum[2];        /* per-window channel sums, index = window % wcap */
    RlGainChan chan[2];
    const RlDsp *dsp;          /* the kernels (its gain_filter) */
    void     (*notify)(void *arg);
    void      *notify_arg;

    pthread_mutex_t mu;        /* guards everything below */
    uint64_t   pushed;         /* samples published by push */
    uint64_t   chunks_pushed;
    uint64_t   done[2];        /* samples consumed by channel task ch */
    uint64_t   chunks_done[2];
    uint64_t   wdone[2];       /* windows whose sums channel ch has published */
    uint64_t   wjoined;        /* windows added to hist (== min(wdone) after every unlock) */
    int        running[2];
    uint32_t   hist[RL_RG_HIST_LEN];
    /* title ends (gapless sets: LAME's GetTitleGain after each file):
     * title m ends before chunk mark_chunk[m]; channel ch has passed
     * marks_done[ch] of them, title m's windows end at mark_window[m]; the
     * join closes titles in order (titles_closed) into title_gain[] */
    int        marks;
    uint64_t   mark_chunk[RL_GAIN_MAX_TITLES];
    uint64_t   mark_window[RL_GAIN_MAX_TITLES];
    int        marks_done[2];
    int        titles_closed;
    float      title_gain[RL_GAIN_MAX_TITLES];
} RlGainFeed;

/* samplerate: the output rate (a ReplayGain rate, else -ENOTSUP); channels
 * 1 or 2 (cfg.channels_out); capacity_samples >= RL_GAIN_PUSH_MAX; dsp: the
 * table whose gain_filter the tasks call (the encoder's cfg.dsp; NULL: the
 * scalar table).
 * notify may be NULL (the encoder passes NULL: the ring asks
 * rl_gain_task_pending under its own lock instead; a scheduler that sleeps
 * until there is gain work can pass a wake-up).  On error nothing stays
 * allocated.
 * Stage: init. */
int    rl_gain_feed_init(RlGainFeed *g, long samplerate, int channels, size_t capacity_samples,
                         const RlDsp *dsp, void (*notify)(void *arg), void *notify_arg);
/* Safe on a zeroed (never initialised) feed.
 * Stage: destroy. */
void   rl_gain_feed_free(RlGainFeed *g);

/* Append one AnalyzeSamples call (n samples of l and r; r is ignored for
 * mono).  All or nothing: -EAGAIN when fewer than n samples of space are
 * free, -EINVAL when n > capacity or the feed is not initialised.  n == 0 is
 * a no-op (LAME returns at once for 0).  0 on success.
 * Stage: Dispatch. */
int    rl_gain_feed_push(RlGainFeed *g, const float *l, const float *r, size_t n);
/* Samples per channel that can be pushed now (0 for an uninitialised feed).
 * Stage: Dispatch; the scheduler. */
size_t rl_gain_feed_space(const RlGainFeed *g);

/* >0 when channel ch has pushed samples its task has not processed (0 for
 * ch >= channels and for an uninitialised feed).
 * Stage: the scheduler (ReplayGain tasks). */
int    rl_gain_task_pending(const RlGainFeed *g, int ch);
/* Processes everything queued for ch when the call starts, publishing after
 * each chunk (frees space, joins complete windows).  0 or -errno.
 * Stage: ReplayGain task ch. */
int    rl_gain_task_run(RlGainFeed *g, int ch);

/* Ends a title after everything pushed so far (LAME's GetTitleGain
 * between two files of a gapless set): each channel task, on reaching the
 * mark, drops its unfinished window and restarts its filters at zero; the
 * join then closes the title (its gain, then an empty histogram).  0,
 * -ENOSPC after RL_GAIN_MAX_TITLES - 1 marks, -EINVAL if uninitialised.
 * Stage: Dispatch. */
int    rl_gain_feed_mark(RlGainFeed *g);
/* Titles closed so far (a snapshot).  Stage: the scheduler, Encode. */
int    rl_gain_titles_closed(const RlGainFeed *g);
/* Title m's gain (RL_RG_NOT_ENOUGH when it had no complete window), once
 * m < rl_gain_titles_closed.  -EBUSY before that.  Stage: Encode. */
int    rl_gain_feed_title(const RlGainFeed *g, int m, float *title_gain);

/* The title gain (LAME GetTitleGain; RL_RG_NOT_ENOUGH when no window was
 * complete).  -EBUSY while a task has work left, -EINVAL if uninitialised.
 * Stage: Encode (the final tag), no task running. */
int    rl_gain_feed_result(RlGainFeed *g, float *title_gain);

#endif
