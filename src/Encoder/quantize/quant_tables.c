/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: builds the constant quantizer tables once (LAME iteration_init part).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <pthread.h>
#include "quant_tables.h"

float rl_pow43[RL_PRECALC_SIZE];
float rl_adj43[RL_PRECALC_SIZE];
float rl_ipow20[RL_Q_MAX];
float rl_pow20[RL_Q_MAX + RL_Q_MAX2 + 1];

const int rl_pretab[RL_SBMAX_L] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 2, 2, 3, 3, 3, 2, 0
};

const int rl_nr_of_sfb_block[6][3][4] = {
    {{6, 5, 5, 5}, {9, 9, 9, 9}, {6, 9, 9, 9}},
    {{6, 5, 7, 3}, {9, 9, 12, 6}, {6, 9, 12, 6}},
    {{11, 10, 0, 0}, {18, 18, 0, 0}, {15, 18, 0, 0}},
    {{7, 7, 7, 0}, {12, 12, 12, 0}, {6, 15, 12, 0}},
    {{6, 6, 6, 3}, {12, 9, 9, 6}, {6, 12, 9, 6}},
    {{8, 8, 5, 0}, {15, 12, 9, 0}, {6, 18, 9, 0}}
};

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
    int i;
    rl_pow43[0] = 0.0f;
    for (i = 1; i < RL_PRECALC_SIZE; i++)
        rl_pow43[i] = (float) pow((float) i, 4.0 / 3.0);

    /* The float sum pow43[i-1]+pow43[i] is rounded to float before the
     * double multiply, as in LAME. */
    rl_adj43[0] = 0.0f;
    for (i = 1; i < RL_PRECALC_SIZE; i++) {
        float const s = rl_pow43[i - 1] + rl_pow43[i];
        rl_adj43[i] = (float) (i - 0.5 - pow(0.5 * s, 0.75));
    }
    for (i = 0; i < RL_Q_MAX; i++)
        rl_ipow20[i] = (float) pow(2.0, (double) (i - 210) * -0.1875);
    for (i = 0; i <= RL_Q_MAX + RL_Q_MAX2; i++)
        rl_pow20[i] = (float) pow(2.0, (double) (i - 210 - RL_Q_MAX2) * 0.25);
}

void rl_quant_tables_init(void)
{
    pthread_once(&tables_once, build_tables);
}
