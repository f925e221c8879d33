/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: unit test of lame's progress display (the line's columns, the
 * frame estimate, where the lines come) and of its bitrate histogram
 * without a terminal description (TERM unset: lame's defaults).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#include "progress.h"

static void test_format(void)
{
    char b[160];
    int n;

    /* 1000 of 2000 frames of 1152 samples at 44.1 kHz in 2 s real, 1.5 s CPU */
    n = rl_progress_format(b, sizeof b, 1000, 2000, 2.0, 1.5, 44100, 1152);
    CHECK(n == (int) strlen(b), "length %d vs %zu", n, strlen(b));
    CHECK(strncmp(b, "  1000/2000   (50%)|", 20) == 0, "frames column: '%s'", b);
    CHECK(strstr(b, "    0:01/    0:03|    0:02/    0:04|") != NULL, "times: '%s'", b);
    CHECK(strstr(b, "   17.415x|") != NULL, "play/CPU: '%s'", b);   /* 26.12 s of audio / 1.5 s */
    CHECK(strstr(b, "|    0:02 ") != NULL, "eta: '%s'", b);
    CHECK(n == 76, "line length %d: '%s'", n, b);

    n = rl_progress_format(b, sizeof b, 2000, 2000, 3700., 3000., 44100, 1152);
    CHECK(strncmp(b, "  2000/2000  (100%)|", 20) == 0, "done: '%s'", b);
    CHECK(strstr(b, " 1:01:40/") != NULL, "hours: '%s'", b);
    CHECK(strstr(b, "   0.0174x|") != NULL, "slow: four decimals: '%s'", b);

    /* frame 0: lame's zeros for the estimates and the speed */
    n = rl_progress_format(b, sizeof b, 0, 21, 0., 0., 44100, 1152);
    CHECK(strcmp(b, "     0/21     ( 0%)|    0:00/    0:00|    0:00/    0:00|   0.0000x|    0:00 ") == 0,
          "frame 0: '%s'", b);

    /* more done than the estimate of the total: raised, 100% */
    n = rl_progress_format(b, sizeof b, 30, 20, 1., 1., 44100, 1152);
    CHECK(strncmp(b, "    30/30    (100%)|", 20) == 0, "overrun: '%s'", b);

    n = rl_progress_format(b, 10, 1000, 2000, 2.0, 1.5, 44100, 1152);
    CHECK(n == 9 && strlen(b) == 9, "truncation: %d '%s'", n, b);
}

static void test_counts(void)
{
    /* lame_get_totalframes: 22050 samples -> 21 frames (lame prints 0/21) */
    CHECK(rl_progress_total(22050, 44100, 44100, 1152) == 21, "total %lld",
          (long long) rl_progress_total(22050, 44100, 44100, 1152));
    CHECK(rl_progress_total(-1, 44100, 44100, 1152) == 0, "unknown length");
    CHECK(rl_progress_total(48000, 48000, 32000, 1152) > 0, "resampled");
}

/* Lines where lame prints them: the reads' frame counts 0, 0, 1, ... 250,
 * 250 (the end of the input), two flush frames; Encode three frames
 * behind: the header, 0 (the second call: no frame since the last line),
 * 100, 200, 252. */
static void test_lines(void)
{
    int fds[2];
    RlProgress *p;
    char buf[4096];
    ssize_t got, total = 0;
    int lines = 0;

    CHECK(pipe(fds) == 0, "pipe");
    CHECK(rl_progress_wanted(fds[1], 0) == 0, "a pipe is not a terminal");
    CHECK(rl_progress_create(&p, fds[1], 44100, 1152, 260) == 0, "create");
    rl_progress_read(p, 0);
    CHECK(read(fds[0], buf, sizeof buf) > 0 && strstr(buf, "play/CPU") != NULL, "header at once");
    for (int i = 0; i <= 250; i++) {
        rl_progress_read(p, i);
        if (i >= 3)
            rl_progress_update(p, i - 3, 262);
    }
    rl_progress_read(p, 250);
    rl_progress_finish(p, 252);
    rl_progress_free(p);
    close(fds[1]);
    while ((got = read(fds[0], buf + total, sizeof buf - 1 - (size_t) total)) > 0)
        total += got;
    buf[total] = '\0';
    close(fds[0]);
    CHECK(strstr(buf, "\r     0/260") && strstr(buf, "\r   100/260") && strstr(buf, "\r   200/260")
          && !strstr(buf, "\r   250/260") && strstr(buf, "\r   252/260") && !strstr(buf, "\r     1/"),
          "lines: '%s'", buf);
    for (char *s2 = buf; *s2; s2++)
        lines += *s2 == '\r';
    CHECK(lines == 4, "%d lines (0, 100, 200, 252)", lines);
    CHECK(total > 0 && buf[total - 1] == '\n', "the last line ends with a newline");
}

/* lines of text (after the leading '\n' of each) and their lengths */
static int count_lines(const char *b, int *all_79)
{
    int n = 0;
    *all_79 = 1;
    for (const char *p = strchr(b, '\n'); p; p = strchr(p + 1, '\n')) {
        const char *e = strchr(p + 1, '\n');
        size_t const len = e ? (size_t) (e - p - 1) : strlen(p + 1);
        n++;
        if (len != 79)
            *all_79 = 0;
    }
    return n;
}

static void test_histogram(void)
{
    static const int kbps[14] = { 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 };
    int const long_blocks[5] = { 4, 0, 0, 0, 0 };
    RlBrhist *h;
    char b[8192];
    size_t len = 0;
    int all_79;

    unsetenv("TERM");   /* lame's defaults: 80 columns, padded with spaces, ESC [ A */
    CHECK(rl_brhist_create(&h, kbps, 0, 32, 320, 1152, 44100) == 0, "create");
    if (!h)
        return;
    rl_brhist_draw(h, 10, b, sizeof b, &len);
    /* 14 rows of the VBR range, the time bar and the two stats rows */
    CHECK(count_lines(b, &all_79) == 17 && all_79, "empty: 17 lines of 79 (the width less one): '%s'", b);
    CHECK(strncmp(b, "\n 32 [0] ", 9) == 0, "first row: '%.20s'", b);
    CHECK(strstr(b, "\n00:00-") != NULL, "time bar: '%s'", b);  /* 10 frames: 0.26 s left */
    for (int i = 0; i < 3; i++)
        rl_brhist_add(h, 9, 2, long_blocks);         /* 128 kbps, M/S */
    rl_brhist_add(h, 1, 0, long_blocks);             /* 32 kbps, L/R */
    len = 0;
    rl_brhist_jump_back(h, b, sizeof b, &len);
    CHECK(len == 17 * 3 && strncmp(b, "\033[A", 3) == 0, "jump back over 17 lines: %zu", len);
    len = 0;
    rl_brhist_draw(h, 10, b, sizeof b, &len);
    CHECK(count_lines(b, &all_79) == 17 && all_79, "4 frames: 17 lines of 79 (the width less one): '%s'", b);
    /* the most used row has the full bar (80 - 9 columns), '%' for L/R, '*' for M/S */
    CHECK(strstr(b, "\n128 [3] " "***") != NULL, "128 kbps row: '%s'", b);
    CHECK(strstr(b, "\n 32 [1] %%%") != NULL, "32 kbps row: '%s'", b);
    CHECK(strstr(b, "   kbps        LR    MS  %     long  %") != NULL, "stats heads: '%s'", b);
    CHECK(strstr(b, "  104.0       25.0  75.0       100.0") != NULL, "stats values: '%s'", b);
    rl_brhist_free(h);
}

int main(void)
{
    test_format();
    test_counts();
    test_lines();
    test_histogram();
    return rl_test_done();
}
