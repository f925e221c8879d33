/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the progress line (files done/total, audio seconds,
 * speed, ETA, files in flight). */
#ifndef RL_BATCH_PROGRESS_H
#define RL_BATCH_PROGRESS_H

/* Formats the line (no '\r' or newline) into buf.  done_fraction: the
 * batch's part done (0..1) for the ETA, by input bytes.  Returns the
 * length. */
int rl_batch_progress_format(char *buf, int buflen, int files_done, int files_total,
                             double audio_s, double elapsed_s, double done_fraction,
                             int in_flight);

#endif
