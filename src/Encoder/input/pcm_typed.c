/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the typed input path (pcm_typed.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "pcm_typed.h"

void rl_pcm_matrix(const RlConfig *cfg, float norm, float m[4])
{
    m[0] = norm * cfg->pcm_transform[0][0];
    m[1] = norm * cfg->pcm_transform[0][1];
    m[2] = norm * cfg->pcm_transform[1][0];
    m[3] = norm * cfg->pcm_transform[1][1];
}

/* One loop per sample type: the sample becomes a float before the matrix,
 * as LAME's sample_t temporaries make it */
#define RL_PCM_TO_UV(T)                                                   \
    do {                                                                  \
        const T *bl = (const T *) src->l + from * (size_t) src->jump;     \
        const T *br = (const T *) src->r + from * (size_t) src->jump;     \
        size_t i;                                                         \
        for (i = 0; i < n; i++) {                                         \
            float const xl = (float) *bl;                                 \
            float const xr = (float) *br;                                 \
            float const u = xl * m[0] + xr * m[1];                        \
            float const v = xl * m[2] + xr * m[3];                        \
            uv[2 * i] = u;                                                \
            uv[2 * i + 1] = v;                                            \
            bl += src->jump;                                              \
            br += src->jump;                                              \
        }                                                                 \
    } while (0)

void rl_pcm_typed_to_uv(const RlPcmTyped *src, size_t from, size_t n, const float m[4],
                        float *uv)
{
    switch (src->type) {
    case RL_PCM_SHORT:  RL_PCM_TO_UV(short); break;
    case RL_PCM_INT:    RL_PCM_TO_UV(int); break;
    case RL_PCM_LONG:   RL_PCM_TO_UV(long); break;
    case RL_PCM_FLOAT:  RL_PCM_TO_UV(float); break;
    case RL_PCM_DOUBLE: RL_PCM_TO_UV(double); break;
    }
}
