/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame_get_framesize() for a set of options, before an encoder
 * exists (the front end's read size, which the bytes depend on). */
#include <errno.h>
#include <stdlib.h>

#include "settings.h"

int rl_config_frame_size(const RlConfig *cfg)
{
    int const n = cfg->frame_size > 0 ? cfg->frame_size : 576 * cfg->mode_gr;
    return n > 1152 ? 1152 : n;
}

int rl_options_frame_size(const RlOptions *opt)
{
    RlOptions o = *opt;
    RlConfig *cfg = malloc(sizeof *cfg);
    int n;

    if (!cfg)
        return -ENOMEM;
    n = rl_config_init(cfg, &o);
    if (n >= 0)
        n = rl_config_frame_size(cfg);
    free(cfg);
    return n;
}
