/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the version string. */
#include "version.h"

const char *rl_version(void)
{
    return RL_VERSION_STRING;
}
