/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the typed input path of the library front ends: a caller's PCM
 * (short, int, long, float or double; planar or interleaved) to the input
 * floats Dispatch takes (RL_SF_F32_UV blocks, pcm_format.h), with LAME's
 * own conversion (lame_copy_inbuffer): each sample to float first, then
 * u = xl*m00 + xr*m01, v = xl*m10 + xr*m11 in float, m = norm times the
 * input matrix (scale, downmix).  Pure and exact.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_PCM_TYPED_H
#define RL_PCM_TYPED_H

#include <stddef.h>

#include "rl_config.h"

typedef enum RlPcmType {
    RL_PCM_SHORT = 0, RL_PCM_INT, RL_PCM_LONG, RL_PCM_FLOAT, RL_PCM_DOUBLE
} RlPcmType;

/* A caller's buffers: left and right (the same pointer for mono input),
 * `jump` values from one frame to the next (1 planar, 2 interleaved). */
typedef struct RlPcmTyped {
    RlPcmType   type;
    const void *l, *r;
    int         jump;
} RlPcmTyped;

/* m = norm * cfg->pcm_transform, in float (row major). */
void rl_pcm_matrix(const RlConfig *cfg, float norm, float m[4]);

/* Frames [from, from+n) of src to uv (u0, v0, u1, v1, ...). */
void rl_pcm_typed_to_uv(const RlPcmTyped *src, size_t from, size_t n, const float m[4],
                        float *uv);

#endif
