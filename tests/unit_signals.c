/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: unit test of the command's signal handling (signal thread, stop
 * callback, exit status, the temporary output an immediate exit removes).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#include "mp3_writer.h"
#include "signals.h"

/* the stop callback: counts its calls (any thread) */
static void on_stop(void *arg)
{
    __atomic_add_fetch((int *) arg, 1, __ATOMIC_SEQ_CST);
}

/* waits up to 3 s for the signal thread to take the first signal */
static int wait_caught(void)
{
    for (int i = 0; i < 300 && rl_signals_caught() == 0; i++)
        usleep(10000);
    return rl_signals_caught();
}

/* In a child (the signal thread is per process): each step's failure exits
 * with its own code, so the parent can tell which one; success is the exit
 * status the final signal gives. */
static void child_drain_then_second(const char *out)
{
    RlMp3Writer *w = NULL;
    char t[512];
    int cb = 0, fd;

    if (rl_mp3_open(&w, out, NULL, 0) != 0)
        _exit(20);
    if (rl_signals_install(0) != 0)
        _exit(21);
    if (rl_signals_install(0) != -EALREADY)
        _exit(22);
    /* a named temporary (the fallback where there is no O_TMPFILE) */
    snprintf(t, sizeof t, "%s.named.tmp", out);
    fd = open(t, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || close(fd) != 0 || rl_signals_set_cleanup(t, 0) != 0)
        _exit(23);
    if (rl_signals_set_stop_callback(on_stop, &cb) != 0)
        _exit(24);
    if (rl_signals_caught() != 0 || rl_signals_exit_status() != 0)
        _exit(25);
    kill(getpid(), SIGTERM);          /* process-directed, as from a shell */
    if (wait_caught() != SIGTERM)
        _exit(26);
    for (int i = 0; i < 300 && __atomic_load_n(&cb, __ATOMIC_SEQ_CST) == 0; i++)
        usleep(10000);
    if (__atomic_load_n(&cb, __ATOMIC_SEQ_CST) != 1)
        _exit(27);                    /* the callback ran once, on the signal thread */
    if (rl_signals_exit_status() != 143)
        _exit(28);
    if (!rl_test_exists(t))
        _exit(29);                    /* the first signal keeps the temp file */
    /* a callback registered after the signal is called at once */
    {
        int late = 0;
        if (rl_signals_set_stop_callback(on_stop, &late) != 0 || late != 1)
            _exit(30);
        if (rl_signals_set_stop_callback(NULL, NULL) != 0)
            _exit(31);
    }
    /* the second signal: removes the temp file, exits 128 + the FIRST signal */
    kill(getpid(), SIGINT);
    sleep(5);
    _exit(32);                        /* not reached */
}

int main(void)
{
    char dir[256], out[400];
    RlMp3Writer *w = NULL;
    pid_t pid;
    int st;

    if (rl_test_tmpdir(dir, sizeof dir, "unit-signals") != 0)
        rl_test_fatal("cannot create a temporary directory");
    snprintf(out, sizeof out, "%s/out.mp3", dir);

    /* an open output has no name yet (O_TMPFILE), nothing is left uncommitted */
    CHECK(rl_mp3_open(&w, out, NULL, 0) == 0, "open");
    CHECK(rl_mp3_temp_name(w) == NULL, "the output is unnamed while it is written");
    CHECK(rl_test_count_entries(dir) == 0, "open output: %d entries in its directory", rl_test_count_entries(dir));
    (void) rl_mp3_close(w, 0);
    CHECK(rl_test_count_entries(dir) == 0, "closed uncommitted: %d entries", rl_test_count_entries(dir));
    CHECK(rl_signals_caught() == 0 && rl_signals_exit_status() == 0, "no signal yet");

    /* drain mode: the first signal only stops (callback), the second exits
     * 143 (the first signal's number) and removes the temp file.  Every
     * install happens in a child: the parent stays single-threaded, so the
     * forks are safe. */
    pid = fork();
    if (pid == 0)
        child_drain_then_second(out);
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 143,
          "drain then second signal: exit %d (20-32: a failed step)",
          WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    CHECK(rl_test_count_entries(dir) == 0, "second signal left %d entries", rl_test_count_entries(dir));

    /* immediate mode (--sequential): the first signal exits 130 and cleans up */
    pid = fork();
    if (pid == 0) {
        RlMp3Writer *w2 = NULL;
        if (rl_mp3_open(&w2, out, NULL, 0) != 0 || rl_signals_install(1) != 0)
            _exit(3);
        (void) rl_signals_set_cleanup(rl_mp3_temp_name(w2), 0);
        kill(getpid(), SIGINT);
        sleep(5);
        _exit(4);
    }
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 130,
          "immediate exit status %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    CHECK(rl_test_count_entries(dir) == 0, "no temp file or output left: %d entries", rl_test_count_entries(dir));

    /* every other signal whose default ends the process: the same clean
     * exit (128 + its number), and nothing left; SIGKILL cannot be caught,
     * but the unnamed output vanishes with the process */
    {
        static const int sigs[] = { SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
                                    SIGXFSZ, SIGKILL };
        for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
            int const sig = sigs[k];
            pid = fork();
            if (pid == 0) {
                RlMp3Writer *w3 = NULL;
                static const uint8_t bytes[4096];
                if (rl_mp3_open(&w3, out, NULL, 0) != 0 || rl_signals_install(1) != 0
                    || rl_mp3_write(w3, bytes, sizeof bytes) != 0 || rl_mp3_take_fd(w3) < 0)
                    _exit(3);
                kill(getpid(), sig);
                sleep(5);
                _exit(4);
            }
            CHECK(waitpid(pid, &st, 0) == pid
                  && (sig == SIGKILL ? (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
                                     : (WIFEXITED(st) && WEXITSTATUS(st) == 128 + sig)),
                  "signal %d: status 0x%x", sig, st);
            CHECK(rl_test_count_entries(dir) == 0, "signal %d left %d entries", sig, rl_test_count_entries(dir));
        }
    }

    /* a signal ignored on entry stays ignored: neither waited for nor fatal */
    pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_IGN);
        if (rl_signals_install(0) != 0)
            _exit(3);
        kill(getpid(), SIGINT);
        usleep(200000);
        _exit(rl_signals_caught() == 0 ? 0 : 4);
    }
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "ignored SIGINT: status 0x%x", st);

    CHECK(rl_signals_set_cleanup(NULL, 0) == 0, "clear");
    rmdir(dir);
    return rl_test_done();
}
