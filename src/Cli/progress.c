/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the progress line on stderr (see progress.h). */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

struct RlProgress {
    int fd;
    double audio_s_per_frame;       /* frame_size / samplerate */
    int64_t interval_ns;
    int64_t t0_ns;                  /* CLOCK_MONOTONIC at create */
    double cpu0_s;                  /* process CPU time at create */
    _Atomic int64_t next_due_ns;    /* earliest time of the next line */
    atomic_flag printing;           /* one writer at a time */
    _Atomic int64_t last_done, last_total;  /* for finish */
    atomic_int seen;                /* an update arrived */
    int header_done;                /* under `printing` (or after the workers) */
};

static const char header[] =
    "    Frame          |  CPU time/estim | REAL time/estim |play/REAL |    ETA \n";

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
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

/* "  m:ss" / "h:mm:ss" / "  N h", 8 columns, then `end`. */
static int fmt_time(char *b, size_t n, double s, char end)
{
    unsigned long t, h;
    if (!(s >= 0.) || s > 1e9)      /* NaN, negative, absurd: unknown */
        return snprintf(b, n, "     :  %c", end);
    t = (unsigned long) s;
    h = t / 3600;
    if (h == 0)
        return snprintf(b, n, "   %2lu:%02lu%c", t / 60, t % 60, end);
    if (h < 100)
        return snprintf(b, n, "%2lu:%02lu:%02lu%c", h, t / 60 % 60, t % 60, end);
    return snprintf(b, n, "%6lu h%c", h, end);
}

int rl_progress_format(char *buf, int buflen, int64_t done, int64_t total,
                       double elapsed_s, double cpu_used_s, double audio_s_per_frame)
{
    int len = 0, pct = -1;
    double est = -1., cpu_est = -1., speed = 0.;
    char t[4][24];

    if (buflen <= 0)
        return 0;
    if (total >= 0 && total < done)
        total = done;
    if (total > 0)
        pct = done < total ? (int) (100. * (double) done / (double) total + 0.5) : 100;
    else if (total == 0)
        pct = 100;
    if (done > 0 && total >= 0 && elapsed_s > 0.) {
        est = elapsed_s * (double) total / (double) done;
        cpu_est = cpu_used_s * (double) total / (double) done;
    }
    if (elapsed_s > 0.)
        speed = audio_s_per_frame * (double) done / elapsed_s;

    fmt_time(t[0], sizeof t[0], cpu_used_s, '/');
    fmt_time(t[1], sizeof t[1], cpu_est, '|');
    fmt_time(t[2], sizeof t[2], elapsed_s, '/');
    fmt_time(t[3], sizeof t[3], est, '|');
    if (total >= 0)
        len = snprintf(buf, (size_t) buflen, pct < 100 ? "%6lld/%-6lld (%2d%%)|" : "%6lld/%-6lld(%3d%%)|",
                       (long long) done, (long long) total, pct);
    else
        len = snprintf(buf, (size_t) buflen, "%6lld/?      ( ?%%)|", (long long) done);
    if (len >= 0 && len < buflen)
        len += snprintf(buf + len, (size_t) (buflen - len), "%s%s%s%s%9.3fx|",
                        t[0], t[1], t[2], t[3], speed);
    if (len >= 0 && len < buflen) {
        char eta[24];
        fmt_time(eta, sizeof eta, est >= 0. ? est - elapsed_s : -1., ' ');
        len += snprintf(buf + len, (size_t) (buflen - len), "%s", eta);
    }
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

static void print_line(RlProgress *p, int64_t done, int64_t total, const char *tail)
{
    char line[160];
    int n;
    double const elapsed = 1e-9 * (double) (mono_ns() - p->t0_ns);
    if (!p->header_done) {
        /* the column header comes with the first line */
        write_all(p->fd, header, sizeof header - 1);
        p->header_done = 1;
    }
    line[0] = '\r';
    n = 1 + rl_progress_format(line + 1, (int) sizeof line - 8, done, total, elapsed,
                               cpu_s() - p->cpu0_s, p->audio_s_per_frame);
    n += snprintf(line + n, sizeof line - (size_t) n, "%s", tail);
    write_all(p->fd, line, (size_t) n);
}

int rl_progress_create(RlProgress **out, int fd, int samplerate, int frame_size, int interval_ms)
{
    RlProgress *p;

    *out = NULL;
    if (samplerate <= 0 || frame_size <= 0 || interval_ms < 0)
        return -EINVAL;
    p = calloc(1, sizeof *p);
    if (!p)
        return -ENOMEM;
    p->fd = fd;
    p->audio_s_per_frame = (double) frame_size / (double) samplerate;
    p->interval_ns = (int64_t) interval_ms * 1000000;
    p->t0_ns = mono_ns();
    p->cpu0_s = cpu_s();
    atomic_init(&p->next_due_ns, p->t0_ns);
    atomic_flag_clear(&p->printing);
    atomic_init(&p->last_done, 0);
    atomic_init(&p->last_total, -1);
    atomic_init(&p->seen, 0);
    *out = p;
    return 0;
}

void rl_progress_update(void *arg, int64_t frames_done, int64_t frames_total)
{
    RlProgress *p = arg;
    int64_t now, due;

    if (!p)
        return;
    atomic_store_explicit(&p->last_done, frames_done, memory_order_relaxed);
    atomic_store_explicit(&p->last_total, frames_total, memory_order_relaxed);
    atomic_store_explicit(&p->seen, 1, memory_order_relaxed);
    now = mono_ns();
    due = atomic_load_explicit(&p->next_due_ns, memory_order_relaxed);
    if (now < due)
        return;
    /* claim this interval; a loser skips its line */
    if (!atomic_compare_exchange_strong(&p->next_due_ns, &due, now + p->interval_ns))
        return;
    if (atomic_flag_test_and_set(&p->printing))
        return;
    print_line(p, frames_done, frames_total, "");
    atomic_flag_clear(&p->printing);
}

void rl_progress_finish(RlProgress *p)
{
    if (!p || !atomic_load(&p->seen))
        return;     /* nothing was reported: no line at all */
    print_line(p, atomic_load(&p->last_done), atomic_load(&p->last_total), "\n");
}

void rl_progress_free(RlProgress *p)
{
    free(p);
}
