/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the version strings (the number comes from CMake, through the
 * generated ringlame/version.h).
 * Stage (every function here): any. */
#ifndef RL_VERSION_H
#define RL_VERSION_H

#include "ringlame/version.h"

#define RL_VERSION_STRING RINGLAME_VERSION_STRING
/* The LAME version whose output ringlame reproduces; written into the LAME tag. */
#define RL_LAME_VERSION_TAG "LAME3.100"

const char *rl_version(void);

#endif
