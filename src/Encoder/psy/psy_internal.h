/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: constants shared by the psy Prepare and Resolve files.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PSY_INTERNAL_H
#define RL_PSY_INTERNAL_H

#include "rl_config.h"

#define RL_SQRT2_D 1.41421356237309504880

/* psy channels: L, R and, in joint stereo, M and S */
static inline int rl_psy_channels(const RlConfig *cfg)
{
    return (cfg->mode == RL_JOINT_STEREO) ? 4 : cfg->channels_out;
}

#endif
