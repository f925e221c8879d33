/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: table-based log2 approximation used by psy and the quantizer.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "fast_log.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define LOG_BITS 9                 /* table covers the top 9 mantissa bits */
#define LOG_SIZE (1 << LOG_BITS)

float rl_fast_log_tab[LOG_SIZE + 1];
float rl_fast_log_pairs[LOG_SIZE][2];
#define log_tab rl_fast_log_tab
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void build_log_table(void)
{
    for (int j = 0; j <= LOG_SIZE; j++) {
        /* float argument, double log, double division, stored as float */
        float const arg = 1.0f + j / (float)LOG_SIZE;
        log_tab[j] = (float)(log(arg) / log(2.0f));
    }
    for (int j = 0; j < LOG_SIZE; j++) {
        rl_fast_log_pairs[j][0] = log_tab[j];
        rl_fast_log_pairs[j][1] = log_tab[j + 1];
    }
}

void rl_fast_log_init(void)
{
    pthread_once(&log_once, build_log_table);
}
