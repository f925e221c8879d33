/* ringlame: unit test of the command's signal handling (stop flag, exit
 * status, the temporary output an immediate exit removes).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mp3_writer.h"
#include "signals.h"

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

static int entries(const char *d)
{
    int n = 0;
    DIR *dd = opendir(d);
    struct dirent *de;
    if (!dd)
        return -1;
    while ((de = readdir(dd)) != NULL)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(dd);
    return n;
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int main(void)
{
    char dir[] = "/tmp/rl_unit_signals_XXXXXX";
    char out[256], tmp[512];
    RlMp3Writer *w = NULL;
    pid_t pid;
    int st;

    if (!mkdtemp(dir)) {
        printf("mkdtemp failed\n0 passed, 1 failed\n");
        return 1;
    }
    snprintf(out, sizeof out, "%s/out.mp3", dir);

    /* the temporary file of rl_mp3_open is found, stdout has none */
    CHECK(rl_mp3_open(&w, out, NULL, 0) == 0, "open");
    CHECK(rl_signals_find_temp_output(out, tmp, sizeof tmp) == 1, "temp found");
    CHECK(strncmp(tmp, dir, strlen(dir)) == 0 && strstr(tmp, ".tmp") != NULL, "temp name '%s'", tmp);
    CHECK(exists(tmp), "temp exists");
    CHECK(rl_signals_find_temp_output("-", tmp, sizeof tmp) == 0, "stdout: none");

    /* first signal, drain mode: only the flag */
    CHECK(rl_signals_caught() == 0 && *rl_signals_stop_flag() == 0, "no signal yet");
    CHECK(rl_signals_install(0) == 0, "install");
    CHECK(rl_signals_find_temp_output(out, tmp, sizeof tmp) == 1, "temp found");
    CHECK(rl_signals_set_cleanup(tmp) == 0, "set cleanup");
    raise(SIGTERM);
    CHECK(rl_signals_caught() == SIGTERM, "caught %d", rl_signals_caught());
    CHECK(*rl_signals_stop_flag() == SIGTERM, "flag set");
    CHECK(rl_signals_exit_status() == 143, "status %d", rl_signals_exit_status());
    CHECK(exists(tmp), "first signal keeps the temp file (main removes it)");

    /* second signal (in a child: it exits): removes the temp file, exits 143
     * (the first signal's number decides the status) */
    pid = fork();
    if (pid == 0) {
        raise(SIGINT);
        _exit(0);   /* not reached */
    }
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 143,
          "second signal exits 143, status 0x%x", st);
    CHECK(!exists(tmp), "second signal removed %s", tmp);
    (void) rl_mp3_close(w, 0);
    CHECK(entries(dir) == 0, "closed uncommitted: %d entries", entries(dir));

    /* immediate mode (--sequential): the first signal exits 130 and cleans up */
    pid = fork();
    if (pid == 0) {
        RlMp3Writer *w2 = NULL;
        char t2[512];
        if (rl_mp3_open(&w2, out, NULL, 0) != 0 || rl_signals_install(1) != 0
            || rl_signals_find_temp_output(out, t2, sizeof t2) != 1)
            _exit(3);
        (void) rl_signals_set_cleanup(t2);
        raise(SIGINT);
        _exit(0);
    }
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "child exited");
    /* the inherited first signal (SIGTERM) decides the status: 143 */
    CHECK(WEXITSTATUS(st) == 143, "immediate exit status %d", WEXITSTATUS(st));
    CHECK(entries(dir) == 0, "no temp file or output left: %d entries", entries(dir));

    CHECK(rl_signals_set_cleanup(NULL) == 0, "clear");
    rmdir(dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
