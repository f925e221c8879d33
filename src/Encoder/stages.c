/* ringlame: the per-frame stage functions (LAME lame_encode_mp3_frame split
 * into Prepare / Resolve / Search / Encode).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>

#include "stages.h"
#include "mdct.h"
#include "psy.h"
#include "quantize_vbr.h"
#include "bitstream.h"
#include "reservoir.h"

void rl_prepare(const RlEncoder *e, RlFrame *f)
{
    f->spec_searches = 0;       /* a new frame: no search result yet */
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

int rl_search(const RlEncoder *e, RlFrame *f, int assumed_resv)
{
    const RlConfig *cfg = &e->cfg;
    int gr, ch, rc;

    if (cfg->vbr != RL_VBR_MT && cfg->vbr != RL_VBR_MTRH)
        return -ENOTSUP;        /* CBR, ABR, vbr_rh: not ported yet */
    /* mdct_sub48: the L/R transform; M/S conversion is part of the quantizer.
     * It rewrites xr from f->poly, which is what makes a redo possible. */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *gi = &f->side.tt[gr][ch];
            rl_mdct_granule(cfg, &f->poly, gr, ch, gi->block_type, gi->mixed_block_flag, gi->xr);
        }
    }
    rc = rl_vbr_search(e, f, assumed_resv);
    if (rc < 0)
        return rc;
    if (f->spec_rc < 0)
        return 0;               /* nothing sensible to pack; Encode reports it */
    return rl_main_data_pack(cfg, f);
}

int rl_search_valid(const RlEncoder *e, const RlFrame *f, int true_resv)
{
    switch (e->cfg.vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        return rl_vbr_search_valid(e, f, true_resv);
    default:
        return 0;
    }
}

void rl_search_test_force_invalid(int every_n)
{
    rl_vbr_search_test_force_invalid(every_n);
}

int rl_encoder_resv_size(const RlEncoder *e)
{
    return rl_resv_size(&e->enc);
}

int rl_encode(RlEncoder *e, RlFrame *f)
{
    int rc;
    int const resv = rl_resv_size(&e->enc);

    if (e->cfg.vbr != RL_VBR_MT && e->cfg.vbr != RL_VBR_MTRH)
        return -ENOTSUP;
    if (!rl_search_valid(e, f, resv)) {
        /* serial redo: the result of a search with the true reservoir is
         * valid by construction, so it is not checked again */
        rc = rl_search(e, f, resv);
        if (rc < 0)
            return rc;
    }
    if (f->spec_rc < 0)
        return f->spec_rc;
    rc = rl_vbr_choose_bitrate(e, f);
    if (rc < 0)
        return rc;
    return rl_bits_encode_frame(&e->enc, &e->cfg, f);
}
