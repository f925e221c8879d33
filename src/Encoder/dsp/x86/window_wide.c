/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the transposed analysis window of the x86 window kernels. */
#include "x86_kernels.h"

#include <pthread.h>

#include "window_rows.h"

float rl_window_wide[18][16];

static pthread_once_t window_once = PTHREAD_ONCE_INIT;

static void build(void)
{
    for (int r = 0; r < 15; r++)
        for (int k = 0; k < 18; k++)
            rl_window_wide[k][r] = rl_enwindow[18 * r + k];
}

void rl_window_wide_init(void)
{
    (void) pthread_once(&window_once, build);
}
