/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ReplayGain feed and per-channel analysis tasks (see gain_feed.h
 * for why the split is exact and for the threading contract).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "gain_feed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The mutex of a feed reached through a const pointer: the const functions
 * only read the counters, but reading them needs the lock. */
static pthread_mutex_t *feed_lock(const RlGainFeed *g)
{
    return (pthread_mutex_t *)&g->mu;
}

void rl_gain_feed_free(RlGainFeed *g)
{
    int ch;
    if (!g || g->nch == 0)
        return;
    for (ch = 0; ch < 2; ch++) {
        free(g->buf[ch]);
        free(g->wsum[ch]);
    }
    free(g->chunk_len);
    pthread_mutex_destroy(&g->mu);
    memset(g, 0, sizeof *g);
}

int rl_gain_feed_init(RlGainFeed *g, long samplerate, int channels, size_t capacity_samples,
                      const RlDsp *dsp, void (*notify)(void *arg), void *notify_arg)
{
    int ch, rc;

    if (!g)
        return -EINVAL;
    memset(g, 0, sizeof *g);
    if ((channels != 1 && channels != 2) || capacity_samples < RL_GAIN_PUSH_MAX
        || capacity_samples > UINT32_MAX)
        return -EINVAL;
    g->freqindex = rl_gain_rate_index(samplerate);
    if (g->freqindex < 0)
        return -ENOTSUP;
    g->window = rl_gain_window(samplerate);
    g->dsp = dsp ? dsp : rl_dsp_table_at(RL_SIMD_SCALAR);
    g->cap = capacity_samples;
    /* A channel is at most cap samples (cap/window + 1 windows) ahead of the
     * other or of its own last publication, plus the window it is writing:
     * slots a task writes are never ones the join still has to read. */
    g->wcap = capacity_samples / (size_t)g->window + 4;
    g->chunk_len = malloc(capacity_samples * sizeof *g->chunk_len);
    if (!g->chunk_len)
        return -ENOMEM;
    for (ch = 0; ch < channels; ch++) {
        g->buf[ch] = malloc(capacity_samples * sizeof(float));
        g->wsum[ch] = malloc(g->wcap * sizeof(double));
        if (!g->buf[ch] || !g->wsum[ch]) {
            for (ch = 0; ch < 2; ch++) {
                free(g->buf[ch]);
                free(g->wsum[ch]);
            }
            free(g->chunk_len);
            memset(g, 0, sizeof *g);
            return -ENOMEM;
        }
    }
    rc = pthread_mutex_init(&g->mu, NULL);
    if (rc != 0) {
        for (ch = 0; ch < 2; ch++) {
            free(g->buf[ch]);
            free(g->wsum[ch]);
        }
        free(g->chunk_len);
        memset(g, 0, sizeof *g);
        return -rc;
    }
    g->notify = notify;
    g->notify_arg = notify_arg;
    g->nch = channels;   /* last: marks the feed initialised */
    return 0;
}

/* Free samples; lock held.  Both channels' consumption bounds the ring. */
static size_t space_locked(const RlGainFeed *g)
{
    uint64_t low = g->done[0];
    uint64_t used;
    if (g->nch == 2 && g->done[1] < low)
        low = g->done[1];
    used = g->pushed - low;
    return used >= g->cap ? 0 : g->cap - (size_t)used;
}

size_t rl_gain_feed_space(const RlGainFeed *g)
{
    size_t s;
    if (!g || g->nch == 0)
        return 0;
    pthread_mutex_lock(feed_lock(g));
    s = space_locked(g);
    pthread_mutex_unlock(feed_lock(g));
    return s;
}

/* Copies n samples into ring b from stream position pos (wrapping). */
static void ring_write(float *b, size_t cap, uint64_t pos, const float *src, size_t n)
{
    size_t at = (size_t)(pos % cap);
    size_t first = cap - at < n ? cap - at : n;
    memcpy(b + at, src, first * sizeof(float));
    memcpy(b, src + first, (n - first) * sizeof(float));
}

static void ring_read(float *dst, const float *b, size_t cap, uint64_t pos, size_t n)
{
    size_t at = (size_t)(pos % cap);
    size_t first = cap - at < n ? cap - at : n;
    memcpy(dst, b + at, first * sizeof(float));
    memcpy(dst + first, b, (n - first) * sizeof(float));
}

int rl_gain_feed_push(RlGainFeed *g, const float *l, const float *r, size_t n)
{
    uint64_t pos, chunk;
    void (*notify)(void *);
    void *arg;

    if (!g || g->nch == 0 || n > g->cap || !l || (g->nch == 2 && !r))
        return -EINVAL;
    if (n == 0)
        return 0;
    pthread_mutex_lock(&g->mu);
    if (space_locked(g) < n) {
        pthread_mutex_unlock(&g->mu);
        return -EAGAIN;
    }
    pos = g->pushed;
    chunk = g->chunks_pushed;
    pthread_mutex_unlock(&g->mu);

    /* [pos, pos+n) and chunk slot `chunk` are free: every task is past them
     * (space and chunk count are bounded by the same cap, every chunk >= 1
     * sample), and no task reads beyond the published pushed count. */
    ring_write(g->buf[0], g->cap, pos, l, n);
    if (g->nch == 2)
        ring_write(g->buf[1], g->cap, pos, r, n);
    g->chunk_len[chunk % g->cap] = (uint32_t)n;

    pthread_mutex_lock(&g->mu);
    g->pushed = pos + n;
    g->chunks_pushed = chunk + 1;
    notify = g->notify;
    arg = g->notify_arg;
    pthread_mutex_unlock(&g->mu);
    if (notify)
        notify(arg);
    return 0;
}

int rl_gain_task_pending(const RlGainFeed *g, int ch)
{
    int p;
    if (!g || g->nch == 0 || ch < 0 || ch >= g->nch)
        return 0;
    pthread_mutex_lock(feed_lock(g));
    /* a mark after the last chunk is work too: passing it closes a title
     * that no later chunk may come to close (the stream waits for it) */
    p = g->chunks_done[ch] < g->chunks_pushed
        || (g->marks_done[ch] < g->marks && g->mark_chunk[g->marks_done[ch]] == g->chunks_done[ch]);
    pthread_mutex_unlock(feed_lock(g));
    return p;
}

/* One AnalyzeSamples call for one channel: n samples from stream position
 * pos, cut into LAME's pieces.  Completed window sums go to wsum. */
static void analyze_chunk(RlGainFeed *g, int ch, uint64_t pos, long n)
{
    RlGainChan *c = &g->chan[ch];
    long done = 0;

    while (done < n) {
        long k = n - done;
        float part;
        if (k > g->window - c->totsamp)
            k = g->window - c->totsamp;
        /* LAME's linpre path: the first MAX_ORDER samples of a call are a
         * piece of their own (same input values, separate float sum) */
        if (done < RL_RG_MAX_ORDER && k > RL_RG_MAX_ORDER - done)
            k = RL_RG_MAX_ORDER - done;

        ring_read(c->in + RL_RG_MAX_ORDER, g->buf[ch], g->cap, pos + (uint64_t)done, (size_t)k);
        g->dsp->gain_filter(g->freqindex, c->in + RL_RG_MAX_ORDER,
                            c->step + RL_RG_MAX_ORDER + c->totsamp,
                            c->out + RL_RG_MAX_ORDER + c->totsamp, k);
        /* keep the last MAX_ORDER inputs as the next piece's history */
        memmove(c->in, c->in + k, RL_RG_MAX_ORDER * sizeof(float));

        /* float partial sum restarts per piece, then double accumulation */
        part = rl_gain_square_sum(c->out + RL_RG_MAX_ORDER + c->totsamp, k);
        c->sum += part;

        done += k;
        c->totsamp += k;
        if (c->totsamp == g->window) {
            g->wsum[ch][c->windows % g->wcap] = c->sum;
            c->windows++;
            c->sum = 0.;
            memmove(c->out, c->out + c->totsamp, RL_RG_MAX_ORDER * sizeof(float));
            memmove(c->step, c->step + c->totsamp, RL_RG_MAX_ORDER * sizeof(float));
            c->totsamp = 0;
        }
    }
}

/* Adds every window both channels have published to the histogram, in
 * window order; lock held. */
static void join_locked(RlGainFeed *g)
{
    uint64_t limit = g->wdone[0];
    int passed = g->marks_done[0];
    if (g->nch == 2 && g->wdone[1] < limit)
        limit = g->wdone[1];
    if (g->nch == 2 && g->marks_done[1] < passed)
        passed = g->marks_done[1];
    for (;;) {
        /* a title both channels have passed closes once its windows are in */
        if (g->titles_closed < passed && g->wjoined == g->mark_window[g->titles_closed]) {
            g->title_gain[g->titles_closed++] = rl_gain_hist_title(g->hist);
            memset(g->hist, 0, sizeof g->hist);
            continue;
        }
        if (g->wjoined >= limit)
            break;
        {
            size_t slot = (size_t)(g->wjoined % g->wcap);
            double lsum = g->wsum[0][slot];
            double rsum = g->nch == 2 ? g->wsum[1][slot] : lsum;   /* mono: right = left */
            g->hist[rl_gain_hist_index(lsum, rsum, g->window)]++;
            g->wjoined++;
        }
    }
}

/* GetTitleGain's reset for one channel: the unfinished window is dropped
 * and the filters restart from zero. */
static void title_reset(RlGainChan *c)
{
    memset(c->in, 0, sizeof c->in);
    memset(c->step, 0, sizeof c->step);
    memset(c->out, 0, sizeof c->out);
    c->totsamp = 0;
    c->sum = 0.;
}

int rl_gain_feed_mark(RlGainFeed *g)
{
    if (!g || g->nch == 0)
        return -EINVAL;
    pthread_mutex_lock(&g->mu);
    if (g->marks >= RL_GAIN_MAX_TITLES - 1) {
        pthread_mutex_unlock(&g->mu);
        return -ENOSPC;
    }
    g->mark_chunk[g->marks++] = g->chunks_pushed;
    pthread_mutex_unlock(&g->mu);
    return 0;
}

int rl_gain_titles_closed(const RlGainFeed *g)
{
    int n;
    if (!g || g->nch == 0)
        return 0;
    pthread_mutex_lock(feed_lock(g));
    n = g->titles_closed;
    pthread_mutex_unlock(feed_lock(g));
    return n;
}

int rl_gain_feed_title(const RlGainFeed *g, int m, float *title_gain)
{
    int rc = -EBUSY;
    if (!g || g->nch == 0 || m < 0 || !title_gain)
        return -EINVAL;
    pthread_mutex_lock(feed_lock(g));
    if (m < g->titles_closed) {
        *title_gain = g->title_gain[m];
        rc = 0;
    }
    pthread_mutex_unlock(feed_lock(g));
    return rc;
}

/* Passes the title marks that lie before chunk `chunk` for channel ch
 * (the channel task, outside the lock for its own state). */
static void pass_marks(RlGainFeed *g, int ch, uint64_t chunk)
{
    for (;;) {
        int m;
        pthread_mutex_lock(&g->mu);
        m = g->marks_done[ch];
        if (m >= g->marks || g->mark_chunk[m] != chunk) {
            pthread_mutex_unlock(&g->mu);
            return;
        }
        /* both channels see the same chunks: the same window count here */
        g->mark_window[m] = g->chan[ch].windows;
        g->marks_done[ch] = m + 1;
        join_locked(g);
        pthread_mutex_unlock(&g->mu);
        title_reset(&g->chan[ch]);
    }
}

int rl_gain_task_run(RlGainFeed *g, int ch)
{
    uint64_t chunk, end, pos;
    void (*notify)(void *);
    void *arg;
    int consumed, marks_before;

    if (!g || g->nch == 0 || ch < 0 || ch >= g->nch)
        return -EINVAL;
    pthread_mutex_lock(&g->mu);
    if (g->running[ch]) {
        pthread_mutex_unlock(&g->mu);
        return -EBUSY;
    }
    g->running[ch] = 1;
    chunk = g->chunks_done[ch];
    end = g->chunks_pushed;
    pos = g->done[ch];
    marks_before = g->marks_done[ch];
    pthread_mutex_unlock(&g->mu);
    consumed = chunk < end;

    while (chunk < end) {
        /* written by push before it published chunks_pushed (read above) */
        long n = (long)g->chunk_len[chunk % g->cap];
        pass_marks(g, ch, chunk);
        analyze_chunk(g, ch, pos, n);
        pos += (uint64_t)n;
        chunk++;
        pthread_mutex_lock(&g->mu);
        g->done[ch] = pos;
        g->chunks_done[ch] = chunk;
        g->wdone[ch] = g->chan[ch].windows;
        join_locked(g);
        pthread_mutex_unlock(&g->mu);
    }
    /* the marks after the last chunk pushed */
    pass_marks(g, ch, chunk);

    pthread_mutex_lock(&g->mu);
    consumed |= g->marks_done[ch] != marks_before;
    g->running[ch] = 0;
    notify = consumed ? g->notify : NULL;
    arg = g->notify_arg;
    pthread_mutex_unlock(&g->mu);
    if (notify)
        notify(arg);
    return 0;
}

int rl_gain_feed_result(RlGainFeed *g, float *title_gain)
{
    int ch, busy = 0;

    if (!g || g->nch == 0 || !title_gain)
        return -EINVAL;
    pthread_mutex_lock(&g->mu);
    for (ch = 0; ch < g->nch; ch++)
        if (g->running[ch] || g->chunks_done[ch] < g->chunks_pushed)
            busy = 1;
    if (!busy)
        *title_gain = rl_gain_hist_title(g->hist);
    pthread_mutex_unlock(&g->mu);
    return busy ? -EBUSY : 0;
}
