/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: unit test of the progress line (formatting, rate limit, threads).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <fcntl.h>
#include <pthread.h>
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
    n = rl_progress_format(b, sizeof b, 1000, 2000, 2.0, 1.5, 1152. / 44100.);
    CHECK(n == (int) strlen(b), "length %d vs %zu", n, strlen(b));
    CHECK(strncmp(b, "  1000/2000   (50%)|", 20) == 0, "frames column: '%s'", b);
    CHECK(strstr(b, "    0:01/    0:03|    0:02/    0:04|") != NULL, "times: '%s'", b);
    CHECK(strstr(b, "   13.061x|") != NULL, "speed: '%s'", b);   /* 26.12 s of audio / 2 s */
    CHECK(strstr(b, "|    0:02 ") != NULL, "eta: '%s'", b);
    /* the columns line up with the header: 20 + 18 + 18 + 11 + 9 characters */
    CHECK(n == 76, "line length %d: '%s'", n, b);

    n = rl_progress_format(b, sizeof b, 2000, 2000, 3700., 3000., 1152. / 44100.);
    CHECK(strncmp(b, "  2000/2000  (100%)|", 20) == 0, "done: '%s'", b);
    CHECK(strstr(b, " 1:01:40/") != NULL, "hours: '%s'", b);

    n = rl_progress_format(b, sizeof b, 5, -1, 1., 1., 1152. / 44100.);
    CHECK(strncmp(b, "     5/?      ( ?%)|", 20) == 0, "unknown total: '%s'", b);
    CHECK(strstr(b, "     :  |") != NULL, "unknown estimate: '%s'", b);

    /* more done than the estimate of the total: clamped, 100% */
    n = rl_progress_format(b, sizeof b, 30, 20, 1., 1., 0.026);
    CHECK(strncmp(b, "    30/30    (100%)|", 20) == 0, "overrun: '%s'", b);

    n = rl_progress_format(b, 10, 1000, 2000, 2.0, 1.5, 0.026);
    CHECK(n == 9 && strlen(b) == 9, "truncation: %d '%s'", n, b);
}

struct hammer { RlProgress *p; int id; };

static void *hammer_run(void *arg)
{
    struct hammer *h = arg;
    for (int i = 0; i < 200000; i++)
        rl_progress_update(h->p, i, 200000);
    return NULL;
}

static void test_rate_limit_and_threads(void)
{
    int fds[2];
    RlProgress *p;
    pthread_t th[4];
    struct hammer h[4];
    char *buf;
    ssize_t got, total = 0;
    int lines = 0, headers = 0;

    CHECK(pipe(fds) == 0, "pipe");
    CHECK(rl_progress_wanted(fds[1], 0) == 0, "a pipe is not a terminal");
    CHECK(rl_progress_wanted(fds[1], 5) == 0, "-S");
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    CHECK(rl_progress_create(&p, fds[1], 44100, 1152, 50) == 0, "create");
    for (int i = 0; i < 4; i++) {
        h[i].p = p;
        h[i].id = i;
        pthread_create(&th[i], NULL, hammer_run, &h[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    rl_progress_finish(p);
    rl_progress_free(p);
    close(fds[1]);
    buf = malloc(1 << 20);
    while ((got = read(fds[0], buf + total, (1 << 20) - 1 - total)) > 0)
        total += got;
    buf[total] = '\0';
    close(fds[0]);
    for (char *s = buf; *s; s++)
        if (*s == '\r')
            lines++;
    for (char *s = buf; (s = strstr(s, "Frame")) != NULL; s++)
        headers++;
    CHECK(headers == 1, "one header, got %d", headers);
    /* 800000 updates; lines only every 50 ms: a few dozen at most */
    CHECK(lines >= 2 && lines < 400, "%d lines for 800000 updates", lines);
    CHECK(total > 0 && buf[total - 1] == '\n', "finish ends the line");
    free(buf);

    /* no update at all: finish prints nothing */
    CHECK(pipe(fds) == 0, "pipe");
    CHECK(rl_progress_create(&p, fds[1], 44100, 1152, 100) == 0, "create");
    rl_progress_finish(p);
    rl_progress_free(p);
    close(fds[1]);
    CHECK(read(fds[0], buf = malloc(16), 16) == 0, "silent without updates");
    free(buf);
    close(fds[0]);
}

int main(void)
{
    test_format();
    test_rate_limit_and_threads();
    return rl_test_done();
}
