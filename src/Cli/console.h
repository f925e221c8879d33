/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's console text around an encode, word for word (stderr):
 * the banner and lame_print_config's notes, the "Encoding" lines,
 * --verbose's settings dump (lame_print_internals), and the closing lines.
 * The progress display between them is progress.h's.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_CONSOLE_H
#define RL_CONSOLE_H

#include <stdint.h>

#include "progress.h"
#include "settings.h"
#include "rl_config.h"

/* Every text about the settings is printed from what lame_init_params
 * derived (cfg, and opt as it wrote the options back: the session's
 * rl_session_stream_config); a NULL cfg (refused options) prints nothing. */

/* What lame_init_params prints whatever the silence (the highpass it
 * turns off). */
void rl_console_init_notes(const RlConfig *cfg);

/* Before the encode (lame: silent < 9): in_path/out_path as given ("-":
 * stdin/stdout); verbose (silent <= -10) adds the settings dump. */
void rl_console_banner(const char *in_path, const char *out_path, const RlConfig *cfg,
                       const RlOptions *opt, int verbose);

/* lame's progress display (silent <= 0) for an input of `samples`
 * frames (-1: unknown), with lame's bitrate histogram under its lines
 * when hist.  *p: the display, or NULL when the settings give none (no
 * frame size) or memory ran out. */
void rl_console_progress(RlProgress **p, const RlConfig *cfg, const RlOptions *opt,
                         int64_t samples, int hist);

/* After the encode and the progress display (lame: silent <= 0): the LAME
 * tag written (tag_len > 0), the ReplayGain found (replay_gain: computed;
 * radio_gain in tenths of a dB). */
void rl_console_closing(int tag_len, int replay_gain, int radio_gain);
/* --clipdetect's verdict after the ReplayGain line (lame's
 * print_trailing_info): gain_change and scale as lame_get_noclipGainChange
 * and lame_get_noclipScale give them, user_scale the --scale given. */
void rl_console_clipping(int gain_change, float scale, float user_scale);

#endif
