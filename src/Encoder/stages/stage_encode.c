/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Encode, the serial stage that owns the bit reservoir, the
 * step-search starts and the bitstream: it checks (and if need be redoes)
 * the frame's search and commits it through the rate-control mode (k->rc:
 * the loops whose budgets chain through the reservoir, bitrate choice,
 * reservoir), then formats the frame.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <string.h>

#include "stages.h"
#include "stage_search.h"
#include "rl_encoder_const.h"
#include "rl_encode_stage.h"
#include "rl_frame.h"
#include "rate_control.h"
#include "bitstream.h"
#include "reservoir.h"

void rl_encoder_carried(const RlEncodeStage *enc, RlCarried *c)
{
    memset(c, 0, sizeof *c);
    c->resv_size = rl_resv_size(&enc->enc);
    c->step = enc->step;
}

int rl_encode(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f, const RlForkJoin *fj)
{
    int rc;
    RlCarried truth;
    int redone = 0;

    rl_encoder_carried(enc, &truth);
    if (!rl_search_valid(k, f, &truth)) {
        redone = 1;
        rc = rl_search_redo(k, f, &truth, fj);
        if (rc < 0)
            return rc;
    }
    if (f->search_rc < 0)
        return f->search_rc;
    rc = k->rc->commit(k, enc, f, fj);
    if (rc < 0)
        return rc;
    rc = rl_bits_encode_frame(&enc->enc, &k->cfg, f);
    return rc < 0 ? rc : redone;
}

long rl_encoder_take_bytes(RlEncodeStage *enc, uint8_t *dst, size_t cap)
{
    return (long) rl_bits_take(&enc->enc, dst, cap);
}

int rl_encoder_flush_bits(const RlEncoderConst *k, RlEncodeStage *enc)
{
    return rl_bits_flush(&enc->enc, &k->cfg);
}

int rl_encoder_flush_size(const RlEncoderConst *k, const RlEncodeStage *enc, int *strange)
{
    return rl_bits_flush_size(&enc->enc, &k->cfg, strange);
}

void rl_encoder_music_mark(const RlEncodeStage *enc, RlMusicMark *m)
{
    m->crc = enc->enc.music_crc;
    m->bytes = enc->enc.seek.nbytes_written;
}

void rl_encoder_set_music_mark(RlEncodeStage *enc, const RlMusicMark *m)
{
    enc->enc.music_crc = m->crc;
    enc->enc.seek.nbytes_written = m->bytes;
}

_Static_assert(RL_ENCODER_BYTES_MAX == RL_BS_BUFFER_SIZE, "the bitstream's buffer size");

void rl_frame_stats(const RlEncoderConst *k, const RlFrame *f, int *bitrate_index,
                    int *mode_ext, int block_count[5])
{
    int gr, ch;

    *bitrate_index = f->bitrate_index;
    *mode_ext = k->cfg.channels_out == 2 ? f->mode_ext : -1;
    memset(block_count, 0, 5 * sizeof block_count[0]);
    for (gr = 0; gr < k->cfg.mode_gr; gr++)
        for (ch = 0; ch < k->cfg.channels_out; ch++) {
            RlGranule const *gi = &f->side.tt[gr][ch];
            block_count[gi->mixed_block_flag ? 4 : gi->block_type & 3]++;
        }
}
