/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: windowed FFTs of the psychoacoustic model (Hartley transform).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "fft.h"
#include "fht_stage.h"

#include <math.h>

#define PI_D    3.14159265358979323846

/* cos/sin of pi/8, pi/32, pi/128, pi/512 (float table, stage twiddles) */
const float rl_fht_twiddle[8] = {
    9.238795325112867e-01, 3.826834323650898e-01,
    9.951847266721969e-01, 9.801714032956060e-02,
    9.996988186962042e-01, 2.454122852291229e-02,
    9.999811752826011e-01, 6.135884649154475e-03
};

/* bit reversal of 8-bit indices */
static const unsigned char bitrev[128] = {
    0x00, 0x80, 0x40, 0xc0, 0x20, 0xa0, 0x60, 0xe0, 0x10, 0x90, 0x50, 0xd0, 0x30, 0xb0, 0x70, 0xf0,
    0x08, 0x88, 0x48, 0xc8, 0x28, 0xa8, 0x68, 0xe8, 0x18, 0x98, 0x58, 0xd8, 0x38, 0xb8, 0x78, 0xf8,
    0x04, 0x84, 0x44, 0xc4, 0x24, 0xa4, 0x64, 0xe4, 0x14, 0x94, 0x54, 0xd4, 0x34, 0xb4, 0x74, 0xf4,
    0x0c, 0x8c, 0x4c, 0xcc, 0x2c, 0xac, 0x6c, 0xec, 0x1c, 0x9c, 0x5c, 0xdc, 0x3c, 0xbc, 0x7c, 0xfc,
    0x02, 0x82, 0x42, 0xc2, 0x22, 0xa2, 0x62, 0xe2, 0x12, 0x92, 0x52, 0xd2, 0x32, 0xb2, 0x72, 0xf2,
    0x0a, 0x8a, 0x4a, 0xca, 0x2a, 0xaa, 0x6a, 0xea, 0x1a, 0x9a, 0x5a, 0xda, 0x3a, 0xba, 0x7a, 0xfa,
    0x06, 0x86, 0x46, 0xc6, 0x26, 0xa6, 0x66, 0xe6, 0x16, 0x96, 0x56, 0xd6, 0x36, 0xb6, 0x76, 0xf6,
    0x0e, 0x8e, 0x4e, 0xce, 0x2e, 0xae, 0x6e, 0xee, 0x1e, 0x9e, 0x5e, 0xde, 0x3e, 0xbe, 0x7e, 0xfe
};

void rl_fft_init_windows(float window[RL_BLKSIZE], float window_s[RL_BLKSIZE_S / 2])
{
    for (int i = 0; i < RL_BLKSIZE; i++)   /* Blackman, computed in double */
        window[i] = (float)(0.42 - 0.5 * cos(2 * PI_D * (i + .5) / RL_BLKSIZE)
                            + 0.08 * cos(4 * PI_D * (i + .5) / RL_BLKSIZE));
    for (int i = 0; i < RL_BLKSIZE_S / 2; i++)
        window_s[i] = (float)(0.5 * (1.0 - cos(2.0 * PI_D * (i + 0.5) / RL_BLKSIZE_S)));
}

/* Radix-4 decimation-in-time FHT on data already in bit-reversed order with
 * the first radix-4 stage done.  Butterfly order and float/double mix are
 * kept exactly (the SQRT2 products are double on purpose). */
void rl_fht(float *fz, int half)
{
    const float *tw = rl_fht_twiddle;
    int const n = half << 1;
    float c1[RL_FHT_MAX_KX], s1[RL_FHT_MAX_KX], c2[RL_FHT_MAX_KX], s2[RL_FHT_MAX_KX];
    for (int k1 = 4; k1 < n; k1 <<= 2, tw += 2) {
        int const kx = k1 >> 1;
        rl_fht_stage_first(fz, n, k1);
        rl_fht_stage_twiddles(tw, kx, c1, s1, c2, s2);
        for (int i = 1; i < kx; i++)
            rl_fht_stage_pair(fz, n, k1, i, c1[i], s1[i], c2[i], s2[i]);
    }
}

void rl_fft_long(const float window[RL_BLKSIZE], float out[RL_BLKSIZE], const float *buf, RlFhtFn fht)
{
    float *x = out + RL_BLKSIZE / 2;
    for (int jj = RL_BLKSIZE / 8 - 1; jj >= 0; --jj) {
        int const i = bitrev[jj];
        float f0, f1, f2, f3, w;
        f0 = window[i] * buf[i];
        w = window[i + 0x200] * buf[i + 0x200];
        f1 = f0 - w;
        f0 = f0 + w;
        f2 = window[i + 0x100] * buf[i + 0x100];
        w = window[i + 0x300] * buf[i + 0x300];
        f3 = f2 - w;
        f2 = f2 + w;
        x -= 4;
        x[0] = f0 + f2;
        x[2] = f0 - f2;
        x[1] = f1 + f3;
        x[3] = f1 - f3;

        f0 = window[i + 0x001] * buf[i + 0x001];
        w = window[i + 0x201] * buf[i + 0x201];
        f1 = f0 - w;
        f0 = f0 + w;
        f2 = window[i + 0x101] * buf[i + 0x101];
        w = window[i + 0x301] * buf[i + 0x301];
        f3 = f2 - w;
        f2 = f2 + w;
        x[RL_BLKSIZE / 2 + 0] = f0 + f2;
        x[RL_BLKSIZE / 2 + 2] = f0 - f2;
        x[RL_BLKSIZE / 2 + 1] = f1 + f3;
        x[RL_BLKSIZE / 2 + 3] = f1 - f3;
    }
    fht(x, RL_BLKSIZE / 2);
}

void rl_fft_short(const float window_s[RL_BLKSIZE_S / 2], float out[3][RL_BLKSIZE_S],
                  const float *buf, RlFhtFn fht)
{
    for (int b = 0; b < 3; b++) {
        float *x = &out[b][RL_BLKSIZE_S / 2];
        int const k = (576 / 3) * (b + 1);
        for (int j = RL_BLKSIZE_S / 8 - 1; j >= 0; --j) {
            int const i = bitrev[j << 2];
            float f0, f1, f2, f3, w;
            f0 = window_s[i] * buf[i + k];
            w = window_s[0x7f - i] * buf[i + k + 0x80];
            f1 = f0 - w;
            f0 = f0 + w;
            f2 = window_s[i + 0x40] * buf[i + k + 0x40];
            w = window_s[0x3f - i] * buf[i + k + 0xc0];
            f3 = f2 - w;
            f2 = f2 + w;
            x -= 4;
            x[0] = f0 + f2;
            x[2] = f0 - f2;
            x[1] = f1 + f3;
            x[3] = f1 - f3;

            f0 = window_s[i + 0x01] * buf[i + k + 0x01];
            w = window_s[0x7e - i] * buf[i + k + 0x81];
            f1 = f0 - w;
            f0 = f0 + w;
            f2 = window_s[i + 0x41] * buf[i + k + 0x41];
            w = window_s[0x3e - i] * buf[i + k + 0xc1];
            f3 = f2 - w;
            f2 = f2 + w;
            x[RL_BLKSIZE_S / 2 + 0] = f0 + f2;
            x[RL_BLKSIZE_S / 2 + 2] = f0 - f2;
            x[RL_BLKSIZE_S / 2 + 1] = f1 + f3;
            x[RL_BLKSIZE_S / 2 + 3] = f1 - f3;
        }
        fht(x, RL_BLKSIZE_S / 2);
    }
}
