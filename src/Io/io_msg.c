/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the readers' and writers' error messages (io_msg.h). */
#include <stdarg.h>
#include <stdio.h>
#include "io_msg.h"

void rl_io_msg(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}
