/* ringlame: the single-threaded encode driver (LAME frontend's encoder loop).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_SEQUENTIAL_H
#define RL_SEQUENTIAL_H

#include "settings.h"

struct RlPcmReader;
struct RlMp3Writer;

/* Whole encode: init, tag placeholder, frames, flush, ReplayGain, LAME tag
 * frame at offset 0 (only if the tag is enabled and the output seekable).
 * The options are copied (init writes LAME's derived values back into the
 * copy).  Returns 0 or -errno; the caller closes reader and writer. */
int rl_run_sequential(const RlOptions *opt, struct RlPcmReader *in, struct RlMp3Writer *out);

#endif
