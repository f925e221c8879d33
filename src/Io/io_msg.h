/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the readers' and writers' error messages (a caller's buffer). */
#ifndef RL_IO_MSG_H
#define RL_IO_MSG_H

#include <stddef.h>

/* printf into err[errlen]; nothing when err is NULL or errlen 0 */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void rl_io_msg(char *err, size_t errlen, const char *fmt, ...);

#endif
