/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the progress line (batch_progress.h). */
#include <stdio.h>

#include "batch_progress.h"

int rl_batch_progress_format(char *buf, int buflen, int files_done, int files_total,
                             double audio_s, double elapsed_s, double done_fraction,
                             int in_flight)
{
    char eta[32] = "--:--";
    double const speed = elapsed_s > 0 ? audio_s / elapsed_s : 0;
    int n;

    if (done_fraction > 0.001 && elapsed_s > 0.5) {
        long const s = (long) (elapsed_s * (1 - done_fraction) / done_fraction + 0.5);
        snprintf(eta, sizeof eta, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    }
    n = snprintf(buf, (size_t) buflen, "files %d/%d  audio %.1f s  speed %.1fx  ETA %s  in flight %d",
                 files_done, files_total, audio_s, speed, eta, in_flight);
    return n < buflen ? n : buflen - 1;
}
