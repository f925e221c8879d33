/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Encode, the serial stage that owns the bit reservoir, the
 * step-search starts and the bitstream: it checks (and if need be redoes)
 * the frame's search, runs the loops whose budgets chain through the
 * reservoir, and formats the frame.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <string.h>

#include "stages.h"
#include "stage_search.h"
#include "rl_encoder_const.h"
#include "rl_encode_stage.h"
#include "rl_frame.h"
#include "quantize_vbr.h"
#include "quantize_cbr.h"
#include "quantize_vbr_old.h"
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
    RlStepState step_after;
    int redone = 0;

    if (!rl_search_mode_ported(k->cfg.vbr))
        return -ENOTSUP;
    rl_encoder_carried(enc, &truth);
    if (!rl_search_valid_step(k, f, &truth, &step_after)) {
        redone = 1;
        /* serial redo: the result of a search with the true state is
         * valid by construction, so it is not checked again; ABR only
         * takes the step state it ends with (its starts are the true ones,
         * so rl_abr_check replays nothing) */
        rc = rl_search(k, f, &truth);
        if (rc < 0)
            return rc;
        if (k->cfg.vbr == RL_VBR_ABR && !rl_abr_check(k, f, &truth, &step_after))
            return -EIO;        /* cannot happen: the search used the truth */
    }
    if (f->spec_rc < 0)
        return f->spec_rc;
    switch (k->cfg.vbr) {
    case RL_VBR_OFF:
    case RL_VBR_RH:
        rc = k->cfg.vbr == RL_VBR_OFF ? rl_cbr_encode(k, enc, f, fj) : rl_vbr_old_encode(k, enc, f);
        if (rc == 0)
            rc = rl_main_data_pack(&k->cfg, f);
        break;
    case RL_VBR_ABR:
        enc->step = step_after; /* from the check above */
        rc = rl_abr_commit(k, &enc->enc, f);
        break;
    default:
        rc = rl_vbr_choose_bitrate(k, &enc->enc, f);
        break;
    }
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
