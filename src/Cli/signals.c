/* ringlame: Ctrl-C / SIGTERM handling for the command (see signals.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "signals.h"

/* Process-wide on purpose (a signal handler has no argument).  Written by
 * the handler (stop_sig, hits) or by the main thread before the encode
 * starts (immediate, cleanup_path, cleanup_set). */
static volatile sig_atomic_t stop_sig;
static volatile sig_atomic_t hits;
static volatile sig_atomic_t immediate_exit;
static volatile sig_atomic_t cleanup_set;
static char cleanup_path[PATH_MAX + 64];

/* The stop flag is read by the ring's workers on other threads: it is
 * written and read with relaxed atomic builtins (lock-free on a 4-byte int,
 * so async-signal-safe), which keeps ThreadSanitizer builds race-free while
 * the pinned type stays volatile sig_atomic_t. */
static int flag_get(void)
{
    return __atomic_load_n(&stop_sig, __ATOMIC_RELAXED);
}

static void on_signal(int sig)
{
    if (flag_get() == 0)
        __atomic_store_n(&stop_sig, sig, __ATOMIC_RELAXED);
    hits = hits + 1;   /* SIGINT and SIGTERM are masked in the handler: no lost update */
    if (immediate_exit || hits >= 2) {
        static const char msg[] = "\nringlame: interrupted, exiting at once, no output written\n";
        if (cleanup_set)
            (void) unlink(cleanup_path);
        /* write() is async-signal-safe; its result cannot be acted on */
        if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
            (void) 0;
        _exit(128 + flag_get());
    }
}

int rl_signals_install(int immediate)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART;   /* reads/writes carry on; the ring polls the flag */
    immediate_exit = immediate ? 1 : 0;
    for (int k = 0; k < 2; k++) {
        int const sig = k == 0 ? SIGINT : SIGTERM;
        struct sigaction old;
        /* a signal ignored on entry stays ignored (nohup, `cmd &` in a
         * non-interactive shell), as for any well-behaved command */
        if (sigaction(sig, NULL, &old) != 0)
            return -errno;
        if (old.sa_handler == SIG_IGN)
            continue;
        if (sigaction(sig, &sa, NULL) != 0)
            return -errno;
    }
    return 0;
}

volatile sig_atomic_t *rl_signals_stop_flag(void)
{
    return &stop_sig;
}

int rl_signals_caught(void)
{
    return flag_get();
}

int rl_signals_exit_status(void)
{
    int const sig = flag_get();
    return sig ? 128 + sig : 0;
}

int rl_signals_set_cleanup(const char *path)
{
    /* disarm first so that the handler never sees a half-copied name */
    cleanup_set = 0;
    if (!path || !*path)
        return 0;
    if (strlen(path) >= sizeof cleanup_path)
        return -ENAMETOOLONG;
    strcpy(cleanup_path, path);
    cleanup_set = 1;
    return 0;
}

int rl_signals_find_temp_output(const char *out_path, char *buf, size_t buflen)
{
    char *target, *slash;
    const char *dir, *base;
    char prefix[NAME_MAX + 64];
    size_t plen;
    DIR *d;
    struct dirent *de;
    int found = 0;

    if (!out_path || strcmp(out_path, "-") == 0)
        return 0;
    /* the same target rl_mp3_open uses: the resolved name, else the name */
    target = realpath(out_path, NULL);
    if (!target)
        target = strdup(out_path);
    if (!target)
        return -ENOMEM;
    slash = strrchr(target, '/');
    if (slash) {
        *slash = '\0';
        dir = slash == target ? "/" : target;
        base = slash + 1;
    } else {
        dir = ".";
        base = target;
    }
    if ((size_t) snprintf(prefix, sizeof prefix, "%s.%ld-", base, (long) getpid()) >= sizeof prefix) {
        free(target);
        return 0;
    }
    plen = strlen(prefix);
    d = opendir(dir);
    if (!d) {
        int const e = errno;
        free(target);
        return -e;
    }
    while (!found && (de = readdir(d)) != NULL) {
        size_t const n = strlen(de->d_name);
        if (n > plen + 4 && strncmp(de->d_name, prefix, plen) == 0
            && strcmp(de->d_name + n - 4, ".tmp") == 0) {
            int const w = slash ? snprintf(buf, buflen, "%s/%s", dir, de->d_name)
                                : snprintf(buf, buflen, "%s", de->d_name);
            if (w < 0 || (size_t) w >= buflen) {
                closedir(d);
                free(target);
                return -ENAMETOOLONG;
            }
            found = 1;
        }
    }
    closedir(d);
    free(target);
    return found;
}
