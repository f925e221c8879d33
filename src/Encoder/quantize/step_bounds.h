/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the steps at which a band's largest xr^(3/4) crosses a bound
 * (the VBR step search's lowest allowed step and its all-zero step).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_STEP_BOUNDS_H
#define RL_STEP_BOUNDS_H

#include <stdint.h>

/* LAME find_lowest_scalefac: the step its 8-round binary search returns,
 * the smallest one (1 .. 255) with rl_ipow20[sf] * max34 <= RL_IXMAX_VAL,
 * 255 when none.  rl_quant_tables_init must have run. */
uint8_t rl_lowest_step(float max34);

/* The smallest step (0 .. 255) with rl_ipow20[sf] * max34 < 0.5, 256 when
 * none: from there on every line of the band quantizes to 0. */
int rl_zero_step(float max34);

#endif
