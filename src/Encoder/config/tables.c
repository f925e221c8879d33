/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MPEG bitrate / sample-rate tables, rate helpers and scalefactor
 * band boundaries (ISO 11172-3 / 13818-3 tables; the helpers follow LAME's
 * util.c so that rounding of "nearest" rates matches).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <limits.h>

#include "tables.h"

#include <errno.h>
#include <stdlib.h>

/* [version][index]: row 0 MPEG-2, row 1 MPEG-1, row 2 MPEG-2.5. */
static const int bitrate_kbps_table[3][16] = {
    {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1},
    {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1},
    {0, 8, 16, 24, 32, 40, 48, 56, 64, -1, -1, -1, -1, -1, -1, -1},
};

static const int samplerate_hz_table[3][4] = {
    {22050, 24000, 16000, -1},
    {44100, 48000, 32000, -1},
    {11025, 12000, 8000, -1},
};

int rl_bitrate_kbps(int version, int index)
{
    if (version < 0 || version > 2 || index < 0 || index > 15)
        return -1;
    return bitrate_kbps_table[version][index];
}

int rl_samplerate_hz(int version, int index)
{
    if (version < 0 || version > 2 || index < 0 || index > 3)
        return -1;
    return samplerate_hz_table[version][index];
}

int rl_smp_frq_index(int sample_freq, int *version)
{
    switch (sample_freq) {
    case 44100: *version = 1; return 0;
    case 48000: *version = 1; return 1;
    case 32000: *version = 1; return 2;
    case 22050: *version = 0; return 0;
    case 24000: *version = 0; return 1;
    case 16000: *version = 0; return 2;
    case 11025: *version = 0; return 0;
    case 12000: *version = 0; return 1;
    case 8000:  *version = 0; return 2;
    default:    *version = 0; return -1;
    }
}

int rl_bitrate_index(int kbps, int version, int samplerate)
{
    if (samplerate < 16000)
        version = 2;
    for (int i = 0; i <= 14; i++) {
        int const b = bitrate_kbps_table[version][i];
        if (b > 0 && b == kbps)
            return i;
    }
    return -1;
}

/* |b - k| as LAME computes it on this platform: the difference wraps
 * around (two's complement) and abs(INT_MIN) stays INT_MIN, but without
 * the undefined behaviour of the plain expression (kbps can be anything a
 * user typed, e.g. -b -2147483648). */
static int lame_abs_diff(int b, int k)
{
    int const d = (int) ((unsigned) b - (unsigned) k);
    return d == INT_MIN ? INT_MIN : (d < 0 ? -d : d);
}

int rl_find_nearest_bitrate(int kbps, int version, int samplerate)
{
    if (samplerate < 16000)
        version = 2;
    int best = bitrate_kbps_table[version][1];
    /* strictly closer wins, so ties keep the lower rate (LAME's scan order) */
    for (int i = 2; i <= 14; i++) {
        int const b = bitrate_kbps_table[version][i];
        if (b > 0 && lame_abs_diff(b, kbps) < lame_abs_diff(best, kbps))
            best = b;
    }
    return best;
}

int rl_nearest_bitrate_full_index(int kbps)
{
    static const int full[17] =
        { 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 };
    /* LAME takes a uint16_t here */
    int const br = (int) (unsigned short) kbps;
    int lower = 16, upper = 16;
    for (int b = 0; b < 16; b++) {
        int const hi = br > full[b + 1] ? br : full[b + 1];
        if (hi != br) {         /* first table entry strictly above br */
            upper = b + 1;
            lower = b;
            break;
        }
    }
    /* ties go to the upper entry */
    if ((full[upper] - br) > (br - full[lower]))
        return lower;
    return upper;
}

int rl_map2mp3_frequency(int freq)
{
    if (freq <= 8000)  return 8000;
    if (freq <= 11025) return 11025;
    if (freq <= 12000) return 12000;
    if (freq <= 16000) return 16000;
    if (freq <= 22050) return 22050;
    if (freq <= 24000) return 24000;
    if (freq <= 32000) return 32000;
    if (freq <= 44100) return 44100;
    return 48000;
}

/* Rows in LAME's order: 22.05, 24, 16 kHz (MPEG-2), 44.1, 48, 32 kHz
 * (MPEG-1), 11.025, 12, 8 kHz (MPEG-2.5). */
static const int sfb_long[9][RL_SBMAX_L + 1] = {
    {0, 6, 12, 18, 24, 30, 36, 44, 54, 66, 80, 96, 116, 140, 168, 200, 238, 284, 336, 396, 464, 522, 576},
    {0, 6, 12, 18, 24, 30, 36, 44, 54, 66, 80, 96, 114, 136, 162, 194, 232, 278, 332, 394, 464, 540, 576},
    {0, 6, 12, 18, 24, 30, 36, 44, 54, 66, 80, 96, 116, 140, 168, 200, 238, 284, 336, 396, 464, 522, 576},
    {0, 4, 8, 12, 16, 20, 24, 30, 36, 44, 52, 62, 74, 90, 110, 134, 162, 196, 238, 288, 342, 418, 576},
    {0, 4, 8, 12, 16, 20, 24, 30, 36, 42, 50, 60, 72, 88, 106, 128, 156, 190, 230, 276, 330, 384, 576},
    {0, 4, 8, 12, 16, 20, 24, 30, 36, 44, 54, 66, 82, 102, 126, 156, 194, 240, 296, 364, 448, 550, 576},
    {0, 6, 12, 18, 24, 30, 36, 44, 54, 66, 80, 96, 116, 140, 168, 200, 238, 284, 336, 396, 464, 522, 576},
    {0, 6, 12, 18, 24, 30, 36, 44, 54, 66, 80, 96, 116, 140, 168, 200, 238, 284, 336, 396, 464, 522, 576},
    {0, 12, 24, 36, 48, 60, 72, 88, 108, 132, 160, 192, 232, 280, 336, 400, 476, 566, 568, 570, 572, 574, 576},
};

static const int sfb_short[9][RL_SBMAX_S + 1] = {
    {0, 4, 8, 12, 18, 24, 32, 42, 56, 74, 100, 132, 174, 192},
    {0, 4, 8, 12, 18, 26, 36, 48, 62, 80, 104, 136, 180, 192},
    {0, 4, 8, 12, 18, 26, 36, 48, 62, 80, 104, 134, 174, 192},
    {0, 4, 8, 12, 16, 22, 30, 40, 52, 66, 84, 106, 136, 192},
    {0, 4, 8, 12, 16, 22, 28, 38, 50, 64, 80, 100, 126, 192},
    {0, 4, 8, 12, 16, 22, 30, 42, 58, 78, 104, 138, 180, 192},
    {0 / 3, 12 / 3, 24 / 3, 36 / 3, 54 / 3, 78 / 3, 108 / 3, 144 / 3, 186 / 3, 240 / 3, 312 / 3, 402 / 3, 522 / 3, 576 / 3},
    {0 / 3, 12 / 3, 24 / 3, 36 / 3, 54 / 3, 78 / 3, 108 / 3, 144 / 3, 186 / 3, 240 / 3, 312 / 3, 402 / 3, 522 / 3, 576 / 3},
    {0 / 3, 24 / 3, 48 / 3, 72 / 3, 108 / 3, 156 / 3, 216 / 3, 288 / 3, 372 / 3, 480 / 3, 486 / 3, 492 / 3, 498 / 3, 576 / 3},
};

int rl_sfb_bands(RlSfbBands *out, int samplerate_out)
{
    int version;
    int const sr_index = rl_smp_frq_index(samplerate_out, &version);
    if (sr_index < 0)
        return -EINVAL;
    int const row = sr_index + 3 * version + 6 * (samplerate_out < 16000);

    for (int i = 0; i < RL_SBMAX_L + 1; i++)
        out->l[i] = sfb_long[row][i];
    for (int i = 0; i < RL_PSFB21 + 1; i++) {
        int const size = (out->l[22] - out->l[21]) / RL_PSFB21;
        out->psfb21[i] = out->l[21] + i * size;
    }
    out->psfb21[RL_PSFB21] = 576;

    for (int i = 0; i < RL_SBMAX_S + 1; i++)
        out->s[i] = sfb_short[row][i];
    for (int i = 0; i < RL_PSFB12 + 1; i++) {
        int const size = (out->s[13] - out->s[12]) / RL_PSFB12;
        out->psfb12[i] = out->s[12] + i * size;
    }
    out->psfb12[RL_PSFB12] = 192;
    return 0;
}
