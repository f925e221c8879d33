/* ringlame: the per-frame stage functions (LAME lame_encode_mp3_frame split
 * into Prepare / Resolve / Search / Encode).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>

#include "stages.h"
#include "mdct.h"
#include "psy.h"
#include "quantize_vbr.h"
#include "bitstream.h"

void rl_prepare(const RlEncoder *e, RlFrame *f)
{
    rl_psy_prepare(e, f);
    rl_polyphase(&e->cfg, f->in[0], f->in[1], &f->poly);
}

int rl_resolve(RlEncoder *e, RlFrame *f)
{
    int gr, ch;
    /* The psy model reports block types in f->block_type; the sentinel lets
     * a psy that writes f->side.tt[][].block_type directly work as well. */
    for (gr = 0; gr < 2; gr++)
        for (ch = 0; ch < 2; ch++)
            f->block_type[gr][ch] = -1;
    rl_psy_resolve(e, f);
    for (gr = 0; gr < e->cfg.mode_gr; gr++) {
        for (ch = 0; ch < e->cfg.channels_out; ch++) {
            RlGranule *gi = &f->side.tt[gr][ch];
            if (f->block_type[gr][ch] >= 0)
                gi->block_type = f->block_type[gr][ch];
            else
                f->block_type[gr][ch] = gi->block_type;
            if (gi->block_type < RL_NORM_TYPE || gi->block_type > RL_STOP_TYPE)
                return -EINVAL;
            gi->mixed_block_flag = 0;   /* LAME never uses mixed blocks */
        }
    }
    return 0;
}

int rl_search(const RlEncoder *e, RlFrame *f)
{
    const RlConfig *cfg = &e->cfg;
    int gr, ch, rc;

    /* mdct_sub48: the L/R transform; M/S conversion is part of the quantizer */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *gi = &f->side.tt[gr][ch];
            rl_mdct_granule(cfg, &f->poly, gr, ch, gi->block_type, gi->mixed_block_flag, gi->xr);
        }
    }
    switch (cfg->vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        rc = rl_vbr_search(e, f);
        break;
    default:          /* CBR, ABR, vbr_rh: not ported yet */
        return -ENOTSUP;
    }
    if (rc < 0)
        return rc;
    return rl_main_data_pack(cfg, f);
}

int rl_encode(RlEncoder *e, RlFrame *f)
{
    int rc;
    switch (e->cfg.vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        rc = rl_vbr_choose_bitrate(e, f);
        break;
    default:
        return -ENOTSUP;
    }
    if (rc < 0)
        return rc;
    return rl_bits_encode_frame(&e->enc, &e->cfg, f);
}
