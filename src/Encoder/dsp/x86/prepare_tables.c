/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the polyphase window's rows transposed and rl_fht's twiddles
 * per stage for the SIMD kernels (x86_kernels.h): built once per process. */
#include <pthread.h>

#include "fft.h"
#include "polyphase_window.h"
#include "x86_kernels.h"

float rl_poly_rows[18][16];
float rl_fht_tw[4][4][128];

static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

static void build(void)
{
    for (int j = 0; j < 16; j++)
        for (int m = 0; m < RL_ENWINDOW_ROW; m++)
            rl_poly_rows[m][j] = j < RL_ENWINDOW_ROWS ? rl_enwindow[RL_ENWINDOW_ROW * j + m] : 0.0f;
    for (int s = 0; s < 4; s++)
        rl_fht_twiddles(s, rl_fht_tw[s][0], rl_fht_tw[s][1], rl_fht_tw[s][2], rl_fht_tw[s][3]);
}

void rl_poly_rows_init(void)
{
    (void) pthread_once(&rows_once, build);
}
