/* ringlame: Ctrl-C / SIGTERM handling for the command (see signals.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "signals.h"

/* Process-wide on purpose (signals are).  Everything below is under `lock`,
 * taken by the signal thread and by the callers of the API (never in a
 * signal handler: there is none). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int installed;
static int immediate_exit;
static int stop_sig;                    /* the first signal, 0 if none */
static int hits;                        /* signals taken so far */
static void (*stop_fn)(void *);
static void *stop_arg;
static int stop_called;                 /* stop_fn was called for this signal */
static int cleanup_set;
static char cleanup_path[PATH_MAX + 64];
static sigset_t wait_set;               /* written before the thread starts */

/* Assumes lock.  Removes the temporary output and leaves at once. */
static void exit_now(void)
{
    static const char msg[] = "\nringlame: interrupted, exiting at once, no output written\n";
    if (cleanup_set)
        (void) unlink(cleanup_path);
    /* its result cannot be acted on: we are leaving */
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
        (void) 0;
    _exit(128 + stop_sig);
}

/* The signal thread: takes SIGINT/SIGTERM synchronously, so that the stop
 * callback runs on a normal thread (it locks the ring's mutex). */
static void *signal_thread(void *arg)
{
    (void) arg;
    for (;;) {
        int sig = 0;
        if (sigwait(&wait_set, &sig) != 0)
            continue;
        pthread_mutex_lock(&lock);
        if (stop_sig == 0)
            stop_sig = sig;
        hits++;
        if (immediate_exit || hits >= 2)
            exit_now();   /* does not return */
        if (stop_fn && !stop_called) {
            stop_called = 1;
            stop_fn(stop_arg);
        }
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int rl_signals_install(int immediate)
{
    sigset_t old_mask;
    pthread_attr_t attr;
    pthread_t tid;
    int rc;

    pthread_mutex_lock(&lock);
    if (installed) {
        pthread_mutex_unlock(&lock);
        return -EALREADY;
    }
    immediate_exit = immediate ? 1 : 0;
    sigemptyset(&wait_set);
    for (int k = 0; k < 2; k++) {
        int const sig = k == 0 ? SIGINT : SIGTERM;
        struct sigaction old;
        /* a signal ignored on entry stays ignored (nohup, `cmd &` in a
         * non-interactive shell), as for any well-behaved command: it is
         * neither blocked nor waited for (Linux queues a blocked signal
         * even when it is ignored) */
        if (sigaction(sig, NULL, &old) != 0) {
            rc = -errno;
            pthread_mutex_unlock(&lock);
            return rc;
        }
        if (old.sa_handler != SIG_IGN)
            sigaddset(&wait_set, sig);
    }
    /* block first: the signal thread and every later thread inherit it */
    rc = pthread_sigmask(SIG_BLOCK, &wait_set, &old_mask);
    if (rc == 0) {
        rc = pthread_attr_init(&attr);
        if (rc == 0) {
            (void) pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            rc = pthread_create(&tid, &attr, signal_thread, NULL);
            pthread_attr_destroy(&attr);
        }
        if (rc != 0)
            (void) pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    }
    if (rc == 0)
        installed = 1;
    pthread_mutex_unlock(&lock);
    return -rc;
}

int rl_signals_set_stop_callback(void (*fn)(void *arg), void *arg)
{
    pthread_mutex_lock(&lock);
    stop_fn = fn;
    stop_arg = arg;
    stop_called = 0;
    /* a signal that came first is not lost: stop now */
    if (fn && stop_sig != 0) {
        stop_called = 1;
        fn(arg);
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

int rl_signals_caught(void)
{
    int sig;
    pthread_mutex_lock(&lock);
    sig = stop_sig;
    pthread_mutex_unlock(&lock);
    return sig;
}

int rl_signals_exit_status(void)
{
    int const sig = rl_signals_caught();
    return sig ? 128 + sig : 0;
}

int rl_signals_set_cleanup(const char *path)
{
    int rc = 0;

    pthread_mutex_lock(&lock);
    cleanup_set = 0;
    if (path && *path) {
        if (strlen(path) >= sizeof cleanup_path) {
            rc = -ENAMETOOLONG;
        }
        else {
            strcpy(cleanup_path, path);
            cleanup_set = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
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
