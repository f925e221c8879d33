/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: rl_fht (psy/fft.c) with each stage's butterfly pairs done W
 * and 4 indices i at once (fht_chunk.h), part of prepare_body.h.  The
 * pairs of one stage are independent of each other and of the stage's
 * i = 0 butterflies (disjoint values), so doing them in another order
 * changes no bit; the twiddles come from tables filled by the scalar
 * recurrence (rl_fht_twiddles).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "fft.h"
#include "fht_stage.h"

typedef float vf4 __attribute__((vector_size(16)));
typedef int vi4 __attribute__((vector_size(16)));

#define FNAME fht_pairs4
#define FV vf4
#define FN 4
#define FVI vi4
#define FREV 3, 2, 1, 0
#include "fht_chunk.h"

#if W > 4
#define FNAME fht_pairs_w
#define FV vf
#define FN W
#define FVI vi
#if W == 8
#define FREV 7, 6, 5, 4, 3, 2, 1, 0
#else
#define FREV 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
#endif
#include "fht_chunk.h"
#endif

void RL_PREP(rl_fht)(float *fz, int half)
{
    int const n = half << 1;
    float *const end = fz + n;
    int s = 0;
    for (int k1 = 4; k1 < n; k1 <<= 2, s++) {
        int const kx = k1 >> 1;
        const float(*tw)[128] = rl_fht_tw[s];
        rl_fht_head(fz, end, k1);
        int i = 1;
#if W > 4
        for (; i + W <= kx; i += W)
            fht_pairs_w(fz, end, k1, i, tw);
#endif
        for (; i + 4 <= kx; i += 4)
            fht_pairs4(fz, end, k1, i, tw);
        for (; i < kx; i++)
            for (float *fi = fz + i, *gi = fz + k1 - i; fi < end; fi += k1 << 2, gi += k1 << 2)
                rl_fht_pair(fi, gi, k1, tw[0][i], tw[1][i], tw[2][i], tw[3][i]);
    }
}
