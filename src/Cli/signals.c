/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: signal handling for the command (see signals.h). */
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
static int stream_output;               /* the output is a stream (stdout, FIFO) */
static sigset_t wait_set;               /* written before the thread starts */

/* Assumes lock.  Removes the temporary output and leaves at once. */
static void exit_now(void)
{
    static const char file_msg[] = "\nringlame: stopped by a signal, exiting at once, no output written\n";
    static const char stream_msg[] = "\nringlame: stopped by a signal, exiting at once; "
                                     "the output written so far is incomplete\n";
    const char *msg = stream_output ? stream_msg : file_msg;
    size_t const len = stream_output ? sizeof stream_msg - 1 : sizeof file_msg - 1;
    if (cleanup_set)
        (void) unlink(cleanup_path);
    /* its result cannot be acted on: we are leaving */
    if (write(STDERR_FILENO, msg, len) < 0)
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

/* Every signal whose default action ends the process and that can be
 * caught: each one stops the encode the same way (no file left behind). */
static const int stop_signals[] = {
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ
};

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
    for (size_t k = 0; k < sizeof stop_signals / sizeof stop_signals[0]; k++) {
        int const sig = stop_signals[k];
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
            rc = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            if (rc == 0)
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

int rl_signals_set_cleanup(const char *path, int stream)
{
    int rc = 0;

    pthread_mutex_lock(&lock);
    stream_output = stream ? 1 : 0;
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

void rl_signals_broken_pipe(void)
{
    struct sigaction act;
    sigset_t one;
    int ignored;

    pthread_mutex_lock(&lock);
    if (installed)
        ignored = !sigismember(&wait_set, SIGPIPE);
    else
        ignored = sigaction(SIGPIPE, NULL, &act) == 0 && act.sa_handler == SIG_IGN;
    pthread_mutex_unlock(&lock);
    if (ignored)
        return;
    memset(&act, 0, sizeof act);
    act.sa_handler = SIG_DFL;
    sigemptyset(&act.sa_mask);
    sigemptyset(&one);
    sigaddset(&one, SIGPIPE);
    /* the default action, unblocked on this thread: raise() ends the process */
    if (sigaction(SIGPIPE, &act, NULL) == 0 && pthread_sigmask(SIG_UNBLOCK, &one, NULL) == 0)
        (void) raise(SIGPIPE);
}
