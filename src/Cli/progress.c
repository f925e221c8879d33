/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's progress display on stderr (see progress.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "brhist.h"
#include "progress.h"

#define LINE_EVERY 100  /* lame prints every 100 frames */
#define PENDING    64   /* lines chosen by Dispatch, not yet finished by Encode */

/* a message of the input's decoder, made in the read that began at input
 * sample `at` */
typedef struct RlProgressNote {
    int64_t at;
    char *text;
} RlProgressNote;

struct RlProgress {
    pthread_mutex_t mu;
    int fd;
    int samplerate, frame_size;
    int64_t total;
    double t0, cpu0;                /* real and CPU time at create */
    int calls;                      /* read points seen */
    int (*ended_short)(void *arg);  /* rl_progress_set_short_end's */
    void *ended_arg;
    int announced;                  /* rl_progress_read_at came before this read point */
    int64_t last;                   /* lame's last_frame_num */
    int64_t done;                   /* frames Encode has finished */
    int64_t pending[PENDING];       /* frame numbers of lines to print, in order */
    int64_t pending_at[PENDING];    /* the input sample where each line's read began */
    int64_t read_at;                /* the input sample where the next read begins */
    RlProgressNote *notes;          /* the decoder's messages not yet printed, in order */
    int nnotes, capnotes;
    int npending;
    RlBrhist *hist;                 /* lame's histogram under each line; NULL: --nohist */
    int info_set;                   /* the next frame's counts, added with its progress */
    int info_rate, info_mode, info_blocks[5];
    char *buf;                      /* a line and its histogram */
    size_t cap;
};

static const char header[] =
    "\r    Frame          |  CPU time/estim | REAL time/estim | play/CPU |    ETA \n"
    "     0/       ( 0%)|    0:00/     :  |    0:00/     :  |         x|     :  \r";

static double real_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static double cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0.;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int rl_progress_wanted(int fd, int silent)
{
    return silent <= 0 && isatty(fd) == 1;
}

int64_t rl_progress_total(int64_t samples, int rate_in, int rate_out, int frame_size)
{
    int64_t frames, n = samples, pad;

    if (samples < 0 || frame_size <= 0)
        return 0;
    if (rate_in != rate_out) {
        double r = 0., f;
        if (rate_in > 0)
            r = (double) samples * rate_out / rate_in;
        if (r <= 0.)
            return 0;
        f = floor(r / frame_size);
        frames = (int64_t) f;
        r -= (double) (frames * frame_size);
        n = (int64_t) ceil(r);
    }
    else {
        frames = n / frame_size;
        n -= frames * frame_size;
    }
    n += 576;
    pad = frame_size - n % frame_size;
    if (pad < 576)
        pad += frame_size;
    return frames + (n + pad) / frame_size;
}

/* lame's ts_time_decompose: "  m:ss" / "h:mm:ss" / "  N h", then `end`. */
static int fmt_time(char *b, size_t n, double s, char end)
{
    unsigned long t, h;
    if (!(s >= 0.) || s > 4e9)
        s = 0.;
    t = (unsigned long) s;
    h = t / 3600;
    if (h == 0)
        return snprintf(b, n, "   %2lu:%02lu%c", t / 60 % 60, t % 60, end);
    if (h < 100)
        return snprintf(b, n, "%2lu:%02lu:%02lu%c", h, t / 60 % 60, t % 60, end);
    return snprintf(b, n, "%6lu h%c", h, end);
}

int rl_progress_format(char *buf, int buflen, int64_t frame, int64_t total, double real,
                       double cpu, int samplerate, int frame_size)
{
    double real_est = 0., cpu_est = 0., speed = 0.;
    char t[5][24];
    int pct, len;

    if (buflen <= 0)
        return 0;
    if (total < frame)
        total = frame;
    /* lame's ts_calc_times, for each clock */
    if (frame > 0 && real > 0.)
        real_est = real * (double) total / (double) frame;
    if (frame > 0 && cpu > 0.) {
        cpu_est = cpu * (double) total / (double) frame;
        speed = (double) frame_size * (double) frame / ((double) samplerate * cpu);
    }
    pct = frame < total ? (int) (100. * (double) frame / (double) total + 0.5) : 100;
    fmt_time(t[0], sizeof t[0], cpu, '/');
    fmt_time(t[1], sizeof t[1], cpu_est, '|');
    fmt_time(t[2], sizeof t[2], real, '/');
    fmt_time(t[3], sizeof t[3], real_est, '|');
    fmt_time(t[4], sizeof t[4], real_est - real, ' ');
    len = snprintf(buf, (size_t) buflen, pct < 100 ? "%6lld/%-6lld (%2d%%)|" : "%6lld/%-6lld(%3.3d%%)|",
                   (long long) frame, (long long) total, pct);
    if (len >= 0 && len < buflen)
        len += snprintf(buf + len, (size_t) (buflen - len), speed <= 1. ? "%s%s%s%s%9.4fx|%s"
                        : "%s%s%s%s%#9.5gx|%s", t[0], t[1], t[2], t[3], speed, t[4]);
    if (len < 0)
        len = 0;
    return len < buflen ? len : buflen - 1;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t const w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return;                 /* a console line: nothing to recover */
        }
        p += w;
        n -= (size_t) w;
    }
}

/* Assumes mu: prints the decoder's messages of the reads up to the one
 * that began at input sample `upto` (lame reads, then shows its display
 * for that read: the read's messages come first). */
static void print_notes(RlProgress *p, int64_t upto)
{
    int k = 0;
    if (p->nnotes == 0)
        return;     /* (memmove of a NULL array is undefined, even of 0 bytes) */
    while (k < p->nnotes && p->notes[k].at <= upto) {
        write_all(p->fd, p->notes[k].text, strlen(p->notes[k].text));
        free(p->notes[k++].text);
    }
    memmove(p->notes, p->notes + k, (size_t) (p->nnotes - k) * sizeof p->notes[0]);
    p->nnotes -= k;
}

/* One write: the cursor back over the histogram, the line, the histogram
 * of the frames finished (lame's encoder_progress), then tail. */
static void print_line(RlProgress *p, int64_t frame, const char *tail)
{
    char line[200];
    size_t len = 0;
    int n;

    if (!p->hist) {
        line[0] = '\r';
        n = 1 + rl_progress_format(line + 1, (int) sizeof line - 8, frame, p->total, real_s() - p->t0,
                                   cpu_s() - p->cpu0, p->samplerate, p->frame_size);
        n += snprintf(line + n, sizeof line - (size_t) n, "%s", tail);
        write_all(p->fd, line, (size_t) n);
        return;
    }
    rl_brhist_jump_back(p->hist, p->buf, p->cap, &len);
    p->buf[len++] = '\r';
    len += (size_t) rl_progress_format(p->buf + len, (int) sizeof line, frame, p->total,
                                       real_s() - p->t0, cpu_s() - p->cpu0, p->samplerate,
                                       p->frame_size);
    rl_brhist_draw(p->hist, p->total, p->buf, p->cap - 8, &len);
    len += (size_t) snprintf(p->buf + len, p->cap - len, "%s", tail);
    write_all(p->fd, p->buf, len);
}

/* lame's first call: the header, and the (empty) histogram under it */
static void print_header(RlProgress *p)
{
    size_t len = 0;

    write_all(p->fd, header, sizeof header - 1);
    if (p->hist) {
        rl_brhist_draw(p->hist, p->total, p->buf, p->cap, &len);
        write_all(p->fd, p->buf, len);
    }
}

int rl_progress_create(RlProgress **out, int fd, int samplerate, int frame_size, int64_t total)
{
    RlProgress *p;
    int rc;

    *out = NULL;
    if (samplerate <= 0 || frame_size <= 0)
        return -EINVAL;
    p = calloc(1, sizeof *p);
    if (!p)
        return -ENOMEM;
    rc = pthread_mutex_init(&p->mu, NULL);
    if (rc != 0) {
        free(p);
        return -rc;
    }
    p->fd = fd;
    p->samplerate = samplerate;
    p->frame_size = frame_size;
    p->total = total < 0 ? 0 : total;
    p->t0 = real_s();
    p->cpu0 = cpu_s();
    *out = p;
    return 0;
}

/* Assumes mu: prints the pending lines of frames Encode has finished. */
static void print_pending(RlProgress *p)
{
    int k = 0;
    while (k < p->npending && p->pending[k] <= p->done) {
        print_notes(p, p->pending_at[k]);
        print_line(p, p->pending[k++], "");
    }
    memmove(p->pending, p->pending + k, (size_t) (p->npending - k) * sizeof p->pending[0]);
    memmove(p->pending_at, p->pending_at + k, (size_t) (p->npending - k) * sizeof p->pending_at[0]);
    p->npending -= k;
}

void rl_progress_read(void *arg, int64_t frames)
{
    RlProgress *p = arg;
    int64_t at;

    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    /* the ring's call for the end's read: lame makes none when that read's
     * count is negative (the stream ended inside the end's skip) */
    if (p->ended_short && !p->announced && p->ended_short(p->ended_arg)) {
        pthread_mutex_unlock(&p->mu);
        return;
    }
    at = p->announced ? p->read_at : INT64_MAX;    /* unannounced: the end's read */
    p->announced = 0;
    if (p->calls++ == 0) {
        print_notes(p, at);
        print_header(p);        /* lame's first call: no line yet */
    }
    else if (frames - p->last == 0 || frames - p->last >= LINE_EVERY) {
        p->last = frames / LINE_EVERY * LINE_EVERY;
        if (p->npending == PENDING) {       /* Encode is far behind: show the oldest now */
            print_notes(p, p->pending_at[0]);
            print_line(p, p->pending[0], "");
            memmove(p->pending, p->pending + 1, (PENDING - 1) * sizeof p->pending[0]);
            memmove(p->pending_at, p->pending_at + 1, (PENDING - 1) * sizeof p->pending_at[0]);
            p->npending--;
        }
        p->pending_at[p->npending] = at;
        p->pending[p->npending++] = frames;
        print_pending(p);
    }
    pthread_mutex_unlock(&p->mu);
}

void rl_progress_set_short_end(RlProgress *p, int (*ended_short)(void *arg), void *arg)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->ended_short = ended_short;
    p->ended_arg = arg;
    pthread_mutex_unlock(&p->mu);
}

void rl_progress_read_at(RlProgress *p, int64_t sample)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->read_at = sample;
    p->announced = 1;
    pthread_mutex_unlock(&p->mu);
}

int rl_progress_note(RlProgress *p, int64_t at, const char *text)
{
    char *t;

    if (!p)
        return -EINVAL;
    t = strdup(text);
    if (!t)
        return -ENOMEM;
    pthread_mutex_lock(&p->mu);
    if (p->nnotes == p->capnotes) {
        int const cap = p->capnotes ? 2 * p->capnotes : 8;
        RlProgressNote *n = realloc(p->notes, (size_t) cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&p->mu);
            free(t);
            return -ENOMEM;
        }
        p->notes = n;
        p->capnotes = cap;
    }
    p->notes[p->nnotes].at = at;
    p->notes[p->nnotes++].text = t;
    pthread_mutex_unlock(&p->mu);
    return 0;
}

void rl_progress_update(void *arg, int64_t frames_done, int64_t frames_total)
{
    RlProgress *p = arg;

    (void) frames_total;            /* lame's estimate stays the one it started with */
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (p->info_set && p->hist)
        rl_brhist_add(p->hist, p->info_rate, p->info_mode, p->info_blocks);
    p->info_set = 0;
    p->done = frames_done;
    print_pending(p);
    pthread_mutex_unlock(&p->mu);
}

int rl_progress_set_hist(RlProgress *p, RlBrhist *h)
{
    size_t const cap = rl_brhist_max_len(h) + 256;
    char *buf = malloc(cap);

    if (!buf)
        return -ENOMEM;
    pthread_mutex_lock(&p->mu);
    free(p->buf);
    rl_brhist_free(p->hist);
    p->buf = buf;
    p->cap = cap;
    p->hist = h;
    pthread_mutex_unlock(&p->mu);
    return 0;
}

void rl_progress_frame(RlProgress *p, int bitrate_index, int mode_ext, const int block_count[5])
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->info_rate = bitrate_index;
    p->info_mode = mode_ext;
    memcpy(p->info_blocks, block_count, sizeof p->info_blocks);
    p->info_set = 1;
    pthread_mutex_unlock(&p->mu);
}

void rl_progress_finish(RlProgress *p, int64_t frames)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (p->calls == 0 && p->ended_short && p->ended_short(p->ended_arg)) {
        /* lame's end display is then its first: the header (no line) and
         * the histogram */
        print_notes(p, INT64_MAX);
        print_header(p);
        write_all(p->fd, "\n", 1);
        pthread_mutex_unlock(&p->mu);
        return;
    }
    if (p->calls == 0)
        print_header(p);
    p->done = frames;
    print_pending(p);
    print_notes(p, INT64_MAX);      /* the last reads' (lame's end display follows them) */
    print_line(p, frames, "\n");
    pthread_mutex_unlock(&p->mu);
}

void rl_progress_abort(RlProgress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (p->calls > 0)
        write_all(p->fd, "\n", 1);
    pthread_mutex_unlock(&p->mu);
}

void rl_progress_free(RlProgress *p)
{
    if (!p)
        return;
    pthread_mutex_destroy(&p->mu);
    for (int k = 0; k < p->nnotes; k++)
        free(p->notes[k].text);
    free(p->notes);
    rl_brhist_free(p->hist);
    free(p->buf);
    free(p);
}
