/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: signal handling for the command: a signal thread that asks the
 * ring to stop, and an immediate exit that still removes a named temporary
 * output (an unnamed one, the usual case, vanishes with the process).
 * The signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1/2,
 * SIGALRM, SIGXCPU, SIGXFSZ (every catchable one whose default ends the
 * process); "SIGINT/SIGTERM" below stands for all of them.
 *
 * Behaviour (documented in docs/options.md):
 *   - first SIGINT/SIGTERM, ring mode: calls the registered stop callback
 *     (main registers rl_ring_stop_request on its stop token); the ring
 *     drains and returns -EINTR, main removes the partial output and exits
 *     130 (SIGINT) or 143 (SIGTERM);
 *   - first signal in immediate mode (--sequential: one thread, exit at once), or a
 *     second signal in any mode: removes the temporary output file
 *     registered with rl_signals_set_cleanup (if any), writes a message and
 *     _exit()s 128 + the first signal's number at once.
 *
 * Threading contract: the state is process-wide because signals are.
 * rl_signals_install blocks SIGINT and SIGTERM in the calling thread with
 * pthread_sigmask, so it must run in the main thread BEFORE any other thread
 * is created (threads inherit the mask; a thread without it would take the
 * signal with the default action and kill the process without cleanup).  It
 * starts one detached signal thread that sigwait()s for them: there is no
 * signal handler, so the callback runs on a normal thread and may lock
 * mutexes.  The other functions may be called from any thread; the
 * callback is called with signals.c's lock held, so it must not call back
 * into this module, and once rl_signals_set_stop_callback(NULL, NULL) has
 * returned it is never called again (its argument may then be freed).
 * A process that installed the signal thread must not fork() and expect the
 * child to handle signals (the child has no signal thread). */
#ifndef RL_SIGNALS_H
#define RL_SIGNALS_H

#include <signal.h>
#include <stddef.h>

/* Blocks the signals above (those not ignored on entry: they stay
 * ignored) and starts the signal thread.  immediate=1: the first signal
 * already exits.  Once per process: a second call returns -EALREADY.
 * 0 or -errno. */
int rl_signals_install(int immediate);

/* Registers fn(arg), called once on the signal thread at the first signal
 * in drain mode; if that signal came before the registration, fn(arg) is
 * called here, at once.  fn NULL clears it.  0 or -errno. */
int rl_signals_set_stop_callback(void (*fn)(void *arg), void *arg);

/* The first signal caught, 0 if none. */
int rl_signals_caught(void);

/* 128 + the first signal caught (130 SIGINT, 143 SIGTERM, ...), 0 if none. */
int rl_signals_exit_status(void);

/* Registers the file an immediate exit removes (copied; NULL or "" clears
 * it) and whether the output is a stream (stdout, a FIFO: the message then
 * says the output is incomplete instead of "no output written").
 * -ENAMETOOLONG if the path does not fit, 0 otherwise. */
int rl_signals_set_cleanup(const char *path, int stream);

/* After a write to a pipe or socket that nobody reads (EPIPE): ends the
 * process by SIGPIPE, as that write ends lame, unless SIGPIPE was ignored
 * when the process started (lame's write then fails with EPIPE too, and
 * this returns).  The caller removes what it must remove first. */
void rl_signals_broken_pipe(void);

#endif
