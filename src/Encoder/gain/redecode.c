/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: decode on the fly: the encoder's output decoded frame by frame
 * for the peak sample and the accurate ReplayGain.
 * Algorithm derived from LAME 3.100 (bitstream.c do_gain_analysis, lame.c
 * save_gain_values; LGPL-2.0-or-later). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "redecode.h"

int rl_redecode_init(RlRedecode *rd, int on, int gain, int channels)
{
    int rc;
    memset(rd, 0, sizeof *rd);
    if (!on)
        return 0;
    rc = rl_mpa_create(&rd->dec);
    if (rc < 0)
        return rc;
    rd->gain = gain;
    rd->channels = channels;
    return 0;
}

void rl_redecode_free(RlRedecode *rd)
{
    rl_mpa_destroy(rd->dec);
    rd->dec = NULL;
}

/* LAME's comparison chain: a sample above the peak, else its negation */
static void track_peak(float *peak, const float *p, int n)
{
    for (int i = 0; i < n; i++) {
        if (p[i] > *peak)
            *peak = p[i];
        else if (-p[i] > *peak)
            *peak = -p[i];
    }
}

int rl_redecode_chunk(RlRedecode *rd, RlGainFeed *rg, const uint8_t *bytes, size_t n)
{
    if (!rd->dec || n == 0)
        return 0;
    for (;;) {
        int got, rc;
        /* one decoded frame is at most 1152 samples per channel */
        if (rd->gain && rl_gain_feed_space(rg) < RL_GAIN_PUSH_MAX)
            return -EAGAIN;
        /* the chunk once, then len 0: what the decoder still holds */
        got = rl_mpa_decode_unclipped(rd->dec, rd->queued ? NULL : bytes, rd->queued ? 0 : n,
                                      rd->pcm[0], rd->pcm[1]);
        rd->queued = 1;
        if (got <= 0) {          /* -1, a stream error: no samples (as LAME) */
            rd->queued = 0;
            return 0;
        }
        if (got > 1152)
            return -EIO;
        track_peak(&rd->peak, rd->pcm[0], got);
        if (rd->channels > 1)
            track_peak(&rd->peak, rd->pcm[1], got);
        if (rd->gain) {
            rc = rl_gain_feed_push(rg, rd->pcm[0], rd->pcm[1], (size_t) got);
            if (rc < 0)
                return rc;
        }
    }
}

void rl_redecode_noclip(const RlRedecode *rd, int *gain_change, float *scale)
{
    double const change = ceil(log10(rd->peak / 32767.0) * 20.0 * 10.0);
    /* a silent output (peak 0) gives -inf: the int x86-64 converts it to */
    *gain_change = change > -2147483648.0 && change < 2147483648.0 ? (int) change : INT_MIN;
    if (*gain_change > 0)
        *scale = (float) (floor((32767.0f / rd->peak) * 100.0f) / 100.0f);
    else
        *scale = -1.0f;
}
