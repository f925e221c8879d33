/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the Layer III bit reservoir (frame begin/adjust/end bookkeeping).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "reservoir.h"

int rl_resv_frame_begin(const RlConfig *cfg, int resv_size, int bitrate_index, int padding,
                        int *mean_bits, int *resv_max)
{
    int const frame_length = rl_frame_bits(cfg, bitrate_index, padding);
    int const mean = (frame_length - cfg->sideinfo_len * 8) / cfg->mode_gr;
    /* main_data_begin has 9 bits (MPEG-1) or 8 bits (MPEG-2): 8*511 / 8*255 */
    int const resv_limit = (8 * 256) * cfg->mode_gr - 8;
    int const maxmp3buf = cfg->buffer_constraint;
    int rmax = maxmp3buf - frame_length;
    int full;

    if (rmax > resv_limit)
        rmax = resv_limit;
    if (rmax < 0 || cfg->disable_reservoir)
        rmax = 0;

    full = mean * cfg->mode_gr + (resv_size < rmax ? resv_size : rmax);
    if (full > maxmp3buf)
        full = maxmp3buf;

    *mean_bits = mean;
    if (resv_max)
        *resv_max = rmax;
    return full;
}

int rl_resv_size(const RlEncodeState *s)
{
    return s->resv_size;
}

int rl_resv_frame_begin_commit(RlEncodeState *s, const RlConfig *cfg, int bitrate_index,
                               int padding, int *mean_bits)
{
    return rl_resv_frame_begin(cfg, s->resv_size, bitrate_index, padding, mean_bits,
                               &s->resv_max);
}

void rl_resv_adjust(RlEncodeState *s, int bits)
{
    s->resv_size -= bits;
}

/* The bits ResvFrameEnd stuffs when the reservoir holds resv_size bits
 * after the frame's mean bits came in. */
static int frame_end_stuffing(int resv_size, int resv_max)
{
    /* the reservoir must stay byte aligned */
    int stuffing = resv_size % 8;
    int const over = (resv_size - stuffing) - resv_max;
    if (over > 0)
        stuffing += over;
    return stuffing;
}

int rl_resv_after_frame(const RlConfig *cfg, int resv_size, int resv_max, int mean_bits)
{
    int const full = resv_size + mean_bits * cfg->mode_gr;
    return full - frame_end_stuffing(full, resv_max);
}

void rl_resv_frame_end(RlEncodeState *s, const RlConfig *cfg, RlSideInfo *side, int mean_bits)
{
    int stuffing;

    side->main_data_begin = s->main_data_begin;
    s->resv_size += mean_bits * cfg->mode_gr;
    side->resv_drain_post = 0;
    side->resv_drain_pre = 0;
    stuffing = frame_end_stuffing(s->resv_size, s->resv_max);

    /* Drain whole bytes into the previous frame's ancillary data first
     * (main_data_begin shrinks), the rest into this frame's. */
    {
        int const lim = side->main_data_begin * 8 < stuffing ? side->main_data_begin * 8 : stuffing;
        int const mdb_bytes = lim / 8;
        side->resv_drain_pre += 8 * mdb_bytes;
        stuffing -= 8 * mdb_bytes;
        s->resv_size -= 8 * mdb_bytes;
        side->main_data_begin -= mdb_bytes;
    }
    side->resv_drain_post += stuffing;
    s->resv_size -= stuffing;
    s->main_data_begin = side->main_data_begin;
}
