/* ringlame: the per-frame stage functions (LAME lame_encode_mp3_frame split
 * into Prepare / Resolve / Search / Encode).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "stages.h"
#include "mdct.h"
#include "psy.h"
#include "quantize_vbr.h"
#include "quantize_cbr.h"
#include "quantize_vbr_old.h"
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

static int mode_ported(RlVbrMode v)
{
    return v == RL_VBR_MT || v == RL_VBR_MTRH || v == RL_VBR_OFF || v == RL_VBR_ABR
           || v == RL_VBR_RH;
}

int rl_search(const RlEncoder *e, RlFrame *f, const RlCarried *assumed)
{
    const RlConfig *cfg = &e->cfg;
    int gr, ch, rc;

    if (!mode_ported(cfg->vbr))
        return -ENOTSUP;
    /* mdct_sub48: the L/R transform; M/S conversion is part of the quantizer.
     * It rewrites xr from f->poly, which is what makes a redo possible. */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *gi = &f->side.tt[gr][ch];
            rl_mdct_granule(cfg, &f->poly, gr, ch, gi->block_type, gi->mixed_block_flag, gi->xr);
        }
    }
    switch (cfg->vbr) {
    case RL_VBR_OFF:
    case RL_VBR_RH:
        if (cfg->vbr == RL_VBR_OFF)
            rl_loop_prepare(e, f);
        else
            rl_vbr_old_prepare(e, f);
        f->spec_rc = 0;
        f->spec_searches++;
        return 0;               /* Encode quantizes and packs */
    case RL_VBR_ABR:
        rl_abr_search(e, f, assumed->resv_size, &assumed->step);
        break;
    default:
        rc = rl_vbr_search(e, f, assumed->resv_size);
        if (rc < 0)
            return rc;
        break;
    }
    if (f->spec_rc < 0)
        return 0;               /* nothing sensible to pack; Encode reports it */
    return rl_main_data_pack(cfg, f);
}

/* Test hook (rl_search_test_force_invalid): atomic so that tests may set it
 * while a ring runs; production never writes it. */
static _Atomic int force_invalid_every;

void rl_search_test_force_invalid(int every_n)
{
    force_invalid_every = every_n > 0 ? every_n : 0;
}

/* rl_search_valid; for ABR a valid check also yields the step state after
 * the frame (from the true starts) in *step_after. */
static int search_valid(const RlEncoder *e, RlFrame *f, const RlCarried *truth,
                        RlStepState *step_after)
{
    int const every = force_invalid_every;

    if (f->spec_searches <= 0)
        return 0;               /* no search result at all */
    /* test hook: only the first search of a frame, so a redo always passes */
    if (every > 0 && f->spec_searches == 1 && f->index % every == 0)
        return 0;
    switch (e->cfg.vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        return rl_vbr_search_valid(e, f, truth->resv_size);
    case RL_VBR_OFF:
    case RL_VBR_RH:
        return 1;               /* these searches read no carried state */
    case RL_VBR_ABR: {
        /* rl_abr_check reads the truth from e: it must be e's */
        RlCarried now;
        rl_encoder_carried(e, &now);
        if (now.resv_size != truth->resv_size
            || memcmp(&now.step, &truth->step, sizeof now.step) != 0)
            return 0;
        return rl_abr_check(e, f, step_after);
    }
    default:
        return 0;
    }
}

int rl_search_valid(const RlEncoder *e, RlFrame *f, const RlCarried *truth)
{
    RlStepState unused;
    return search_valid(e, f, truth, &unused);
}

void rl_encoder_carried(const RlEncoder *e, RlCarried *c)
{
    memset(c, 0, sizeof *c);
    c->resv_size = rl_resv_size(&e->enc);
    c->step = e->step;
}

int rl_encoder_resv_size(const RlEncoder *e)
{
    return rl_resv_size(&e->enc);
}

int rl_encode(RlEncoder *e, RlFrame *f)
{
    return rl_encode_forked(e, f, NULL);
}

int rl_encode_forked(RlEncoder *e, RlFrame *f, const RlForkJoin *fj)
{
    int rc;
    RlCarried truth;
    RlStepState step_after;

    if (!mode_ported(e->cfg.vbr))
        return -ENOTSUP;
    rl_encoder_carried(e, &truth);
    if (!search_valid(e, f, &truth, &step_after)) {
        /* serial redo: the result of a search with the true state is
         * valid by construction, so it is not checked again; ABR only
         * takes the step state it ends with (its starts are the true ones,
         * so rl_abr_check replays nothing) */
        rc = rl_search(e, f, &truth);
        if (rc < 0)
            return rc;
        if (e->cfg.vbr == RL_VBR_ABR && !rl_abr_check(e, f, &step_after))
            return -EIO;        /* cannot happen: the search used the truth */
    }
    if (f->spec_rc < 0)
        return f->spec_rc;
    switch (e->cfg.vbr) {
    case RL_VBR_OFF:
    case RL_VBR_RH:
        rc = e->cfg.vbr == RL_VBR_OFF ? rl_cbr_encode(e, f, fj) : rl_vbr_old_encode(e, f);
        if (rc == 0)
            rc = rl_main_data_pack(&e->cfg, f);
        break;
    case RL_VBR_ABR:
        e->step = step_after;   /* from the check above */
        rc = rl_abr_commit(e, f);
        break;
    default:
        rc = rl_vbr_choose_bitrate(e, f);
        break;
    }
    if (rc < 0)
        return rc;
    return rl_bits_encode_frame(&e->enc, &e->cfg, f);
}
