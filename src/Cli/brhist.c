/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's bitrate histogram (see brhist.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef RL_HAVE_TERMCAP
#include <termcap.h>
#endif

#include "brhist.h"

#define ROWS    14
#define BAR_MAX 512

struct RlBrhist {
    int kbps[ROWS];
    int min_row, max_row;           /* rows always shown (VBR bounds), -1: none */
    int free_format;
    int frame_size, samplerate;
    int width;                      /* lame's disp_width */
    char up[10], clreoln[10];       /* lame's str_up, str_clreoln ("" none) */
    int lines;                      /* lines drawn since the last jump back */
    int64_t by_rate[16][5];         /* [index][mode_ext 0..3, 4: all]; [15]: totals */
    int64_t by_block[6];            /* block types 0..4, [5]: all */
    char bars[BAR_MAX + 1];         /* lame's '-' bars */
    char pct[BAR_MAX + 1], ast[BAR_MAX + 1];
};

#ifdef RL_HAVE_TERMCAP
static void termcap_string(const char *id, char *dest, size_t n)
{
    char area[16];
    char *ap = area;
    char *s = tgetstr(id, &ap);
    if (s && n > 0)
        snprintf(dest, n, "%.*s", (int) n - 1, s);  /* lame's strncpy, cut to n-1 */
}

/* lame's apply_termcap_settings: the width and sequences of TERM's entry */
static void termcap_settings(RlBrhist *h)
{
    static char entry[4096];
    const char *term = getenv("TERM");
    int co;

    if (!term || tgetent(entry, term) != 1)
        return;
    co = tgetnum("co");
    if (co >= 40 && co <= 512)
        h->width = co;
    termcap_string("up", h->up, sizeof h->up);
    termcap_string("ce", h->clreoln, sizeof h->clreoln);
}
#endif

static int row_of(const int *kbps, int value)
{
    for (int i = 0; i < ROWS; i++)
        if (kbps[i] == value)
            return i;
    return -1;
}

int rl_brhist_create(RlBrhist **out, const int kbps[ROWS], int free_format, int vbr_min_kbps,
                     int vbr_max_kbps, int frame_size, int samplerate)
{
    RlBrhist *h;

    *out = NULL;
    h = calloc(1, sizeof *h);
    if (!h)
        return -ENOMEM;
    memcpy(h->kbps, kbps, sizeof h->kbps);
    h->min_row = row_of(kbps, vbr_min_kbps);
    h->max_row = row_of(kbps, vbr_max_kbps);
    h->free_format = free_format;
    h->frame_size = frame_size;
    h->samplerate = samplerate;
    h->width = 80;
    strcpy(h->up, "\033[A");
#ifdef RL_HAVE_TERMCAP
    termcap_settings(h);
#endif
    memset(h->bars, '-', BAR_MAX);
    memset(h->pct, '%', BAR_MAX);
    memset(h->ast, '*', BAR_MAX);
    *out = h;
    return 0;
}

void rl_brhist_add(RlBrhist *h, int bitrate_index, int mode_ext, const int block_count[5])
{
    if (!h || bitrate_index < 0 || bitrate_index > 14)
        return;
    h->by_rate[bitrate_index][4]++;
    h->by_rate[15][4]++;
    if (mode_ext >= 0 && mode_ext < 4) {
        h->by_rate[bitrate_index][mode_ext]++;
        h->by_rate[15][mode_ext]++;
    }
    for (int b = 0; b < 5; b++) {
        h->by_block[b] += block_count[b];
        h->by_block[5] += block_count[b];
    }
}

static void put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (*len >= cap)
        return;
    va_start(ap, fmt);
    n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t) n < cap ? *len + (size_t) n : cap - 1;
}

void rl_brhist_jump_back(RlBrhist *h, char *buf, size_t cap, size_t *len)
{
    for (; h->lines > 0; h->lines--)
        put(buf, cap, len, "%s", h->up);
}

static int digits(long long v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* Pads to lame's width with spaces where no clear-to-end-of-line exists. */
static void line_end(const RlBrhist *h, int used, char *buf, size_t cap, size_t *len)
{
    if (h->clreoln[0])
        put(buf, cap, len, "%s", h->clreoln);
    else
        put(buf, cap, len, "%*s", h->width - used, "");
}

static void rate_row(RlBrhist *h, int i, long long tot, long long lr, long long full,
                     long long frames, char *buf, size_t cap, size_t *len)
{
    int const res = digits(frames) + 3 + 4 + 1;
    long long bar_tot = 0, bar_lr = 0;

    if (full != 0) {
        bar_tot = (tot * (h->width - res) + full - 1) / full;
        bar_lr = (lr * (h->width - res) + full - 1) / full;
    }
    put(buf, cap, len, "\n%3d [%*lld] %.*s%.*s", h->kbps[i], digits(frames), tot, (int) bar_lr,
        h->pct, (int) (bar_tot - bar_lr), h->ast);
    line_end(h, res + (int) bar_tot, buf, cap, len);
    h->lines++;
}

/* The bar of frames done with the time left in it (lame's progress_line). */
static void time_row(RlBrhist *h, long long full, long long frames, char *buf, size_t cap,
                     size_t *len)
{
    char rst[20] = "";
    int res = 1, bar_tot = 0, bar_cod = 0, bar_rst = 0;
    float t = 0;
    unsigned hour, min, sec;

    if (full < frames)
        full = frames;
    if (h->samplerate > 0) {
        t = (float) (full - frames);
        t *= (float) h->frame_size;
        t /= (float) h->samplerate;
    }
    hour = (unsigned) (t / 3600);
    t -= (float) (hour * 3600);
    min = (unsigned) (t / 60);
    t -= (float) (min * 60);
    sec = (unsigned) t;
    if (full != 0) {
        if (hour > 0) {
            snprintf(rst, sizeof rst, "%u:%02u:%02u", hour, min % 100, sec % 100);
            res += digits(hour) + 1 + 5;
        }
        else {
            snprintf(rst, sizeof rst, "%02u:%02u", min % 100, sec % 100);
            res += 5;
        }
        bar_tot = (int) ((full * (h->width - res) + full - 1) / full);
        bar_cod = (int) ((frames * (h->width - res) + full - 1) / full);
        bar_rst = bar_tot - bar_cod;
        if (bar_rst == 0)
            snprintf(rst, sizeof rst, "%.*s", res - 1, h->bars);
    }
    put(buf, cap, len, "\n%.*s%s%.*s", bar_cod, h->bars, rst, bar_rst, h->bars);
    line_end(h, res + bar_tot, buf, cap, len);
    h->lines++;
}

static int head(double x, const char *txt, char *buf, size_t cap, size_t *len)
{
    if (x > 0.0) {
        put(buf, cap, len, "%s", txt);
        return 6;
    }
    return 0;
}

static int value(double x, char *buf, size_t cap, size_t *len)
{
    if (x > 0.0) {
        put(buf, cap, len, " %5.1f", x);
        return 6;
    }
    return 0;
}

static void stats_rows(RlBrhist *h, const double *stat, char *buf, size_t cap, size_t *len)
{
    static const char *const heads[9] = { NULL, "  mono", "   IS ", "   LR ", "   MS ",
                                          " long ", "switch", " short", " mixed" };
    int n = 13, i;

    put(buf, cap, len, "\n   kbps     ");
    for (i = 1; i <= 4; i++)
        n += head(stat[i], heads[i], buf, cap, len);
    put(buf, cap, len, " %%    ");
    n += 6;
    for (i = 5; i <= 8; i++)
        n += head(stat[i], heads[i], buf, cap, len);
    put(buf, cap, len, " %%");
    n += 2;
    line_end(h, n, buf, cap, len);
    h->lines++;

    n = 13;
    put(buf, cap, len, "\n  %5.1f     ", stat[0]);
    for (i = 1; i <= 4; i++)
        n += value(stat[i], buf, cap, len);
    put(buf, cap, len, "      ");
    n += 6;
    for (i = 5; i <= 8; i++)
        n += value(stat[i], buf, cap, len);
    line_end(h, n, buf, cap, len);
    h->lines++;
}

void rl_brhist_draw(RlBrhist *h, int64_t total_frames, char *buf, size_t cap, size_t *len)
{
    long long count[ROWS], lr[ROWS], frames = 0, most = 0, st_frames = 0;
    double sum = 0., stat[9] = { 0 };
    int used = 0, i;

    h->lines = 0;
    for (i = 0; i < ROWS; i++) {
        int const idx = h->free_format ? 0 : i + 1;
        int const on = !h->free_format || i == 0;
        count[i] = on ? h->by_rate[idx][4] : 0;
        lr[i] = on ? h->by_rate[idx][0] : 0;
        frames += count[i];
        sum += (double) count[i] * h->kbps[i];
        if (most < count[i])
            most = count[i];
        if (count[i])
            used++;
    }
    for (i = 0; i < ROWS; i++)
        if ((count[i] && used > 1) || (i >= h->min_row && i <= h->max_row))
            rate_row(h, i, count[i], lr[i], most, frames, buf, cap, len);
    for (i = 0; i < 4; i++)
        st_frames += h->by_rate[15][i];
    if (frames > 0) {
        stat[0] = sum / (double) frames;
        stat[1] = 100. * (double) (frames - st_frames) / (double) frames;
    }
    if (st_frames > 0) {
        stat[2] = 0.0;
        stat[3] = 100. * (double) h->by_rate[15][0] / (double) st_frames;
        stat[4] = 100. * (double) h->by_rate[15][2] / (double) st_frames;
    }
    if (h->by_block[5] > 0) {
        double const all = (double) h->by_block[5];
        stat[5] = 100. * (double) h->by_block[0] / all;
        stat[6] = 100. * (double) (h->by_block[1] + h->by_block[3]) / all;
        stat[7] = 100. * (double) h->by_block[2] / all;
        stat[8] = 100. * (double) h->by_block[4] / all;
    }
    time_row(h, total_frames, frames, buf, cap, len);
    stats_rows(h, stat, buf, cap, len);
}

size_t rl_brhist_max_len(const RlBrhist *h)
{
    /* rows, the time bar and two stats rows, each at most a width plus
     * sequences; the jump back: one "up" per line */
    return (size_t) (ROWS + 3) * ((size_t) h->width + 64) + (ROWS + 3) * sizeof h->up + 64;
}

void rl_brhist_free(RlBrhist *h)
{
    free(h);
}
