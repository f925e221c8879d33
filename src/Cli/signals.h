/* ringlame: Ctrl-C / SIGTERM handling for the command: a stop flag for the
 * ring, and an immediate exit that still removes the temporary output.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 *
 * Behaviour (documented in docs/options.md):
 *   - first SIGINT/SIGTERM, ring mode: sets the stop flag; the ring drains
 *     and returns -EINTR, main removes the partial output and exits 130
 *     (SIGINT) or 143 (SIGTERM);
 *   - first signal, sequential mode (no stop flag there), or a second
 *     signal in any mode: removes the temporary output file registered with
 *     rl_signals_set_cleanup (if any) and _exit()s 130/143 at once.
 *
 * Threading contract: the state is process-wide because signals are.  Only
 * the main thread calls the functions below; the handler may run on any
 * thread (workers inherit the handler) and only uses async-signal-safe
 * calls (unlink, write, _exit).  The ring reads the stop flag from its
 * workers: a volatile sig_atomic_t written once (0 -> signal number) with
 * __atomic_store_n(relaxed); readers on other threads should use
 * __atomic_load_n(flag, __ATOMIC_RELAXED) so that TSan sees no race. */
#ifndef RL_SIGNALS_H
#define RL_SIGNALS_H

#include <signal.h>

/* Installs the SIGINT and SIGTERM handlers (a signal ignored on entry stays
 * ignored).  immediate=1: the first signal already exits (the sequential
 * driver has no stop flag).  0 or -errno. */
int rl_signals_install(int immediate);

/* The flag to hand to the ring (RlRingParams.stop): 0 until a signal. */
volatile sig_atomic_t *rl_signals_stop_flag(void);

/* The first signal caught (SIGINT or SIGTERM), 0 if none. */
int rl_signals_caught(void);

/* 128 + the first signal caught (130 SIGINT, 143 SIGTERM), 0 if none. */
int rl_signals_exit_status(void);

/* Registers the file an immediate exit removes (copied; NULL or "" clears
 * it).  -ENAMETOOLONG if it does not fit, 0 otherwise. */
int rl_signals_set_cleanup(const char *path);

/* Finds the temporary file rl_mp3_open created for out_path in this process
 * ("<target>.<pid>-<hex>.tmp" next to the resolved target) and writes its
 * name to buf.  1 found, 0 none (stdout, a device, or written in place),
 * <0 -errno. */
int rl_signals_find_temp_output(const char *out_path, char *buf, size_t buflen);

#endif
