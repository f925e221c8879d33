/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's reports on its settings, lame_print_config (the
 * version, then what the settings do to the input) and
 * lame_print_internals (lame --verbose), with lame's texts, through a
 * sink: the command prints them to stderr, the drop-in libmp3lame hands
 * them to the program's message callback.
 * Derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_LAME_REPORT_H
#define RL_LAME_REPORT_H

#include <stdarg.h>

#include "settings.h"

/* one line (or part of one) of a report, printf style */
typedef void (*RlReportFn)(void *arg, const char *fmt, va_list ap);

void rl_lame_print_config(const RlConfig *cfg, RlReportFn out, void *arg);
/* o: the options after lame_init_params (what it wrote back) */
void rl_lame_print_internals(const RlConfig *cfg, const RlOptions *o, RlReportFn out, void *arg);

#endif
