/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encoder's life cycle (lame_init_params' module
 * initialisation in LAME's order), the frame records, the ReplayGain task
 * entry points and the values the final LAME tag needs.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"
#include "rl_encoder.h"
#include "lametag.h"
#include "settings.h"
#include "psy.h"
#include "huffman_count.h"
#include "quant_tables.h"
#include "quantize_common.h"
#include "rate_control.h"
#include "bitstream.h"
#include "gain_feed.h"
#include "dispatch.h"

_Static_assert(RL_ENCODER_TAG_MAX == RL_TAG_MAX_FRAME, "the tag frame's longest");

static int encoder_init(RlEncoder *e, RlOptions *opt)
{
    int rc;

    memset(e, 0, sizeof *e);
    rc = rl_config_init(&e->k.cfg, opt);
    if (rc < 0)
        return rc;
    {
        int const cpu = rl_cpu_simd_level();
        int const level = opt->simd_level < 0 ? cpu : opt->simd_level;
        if (level > cpu)
            return -ENOTSUP;
        e->k.cfg.dsp = rl_dsp_table_at(level);
    }
    e->k.rc = rl_rate_control_for(e->k.cfg.vbr);
    if (e->k.rc == NULL)
        return -ENOTSUP;
    rl_step_state_init(&e->encode.step);

    /* lame_init_bitstream (+ InitVbrTag: the tag placeholder bytes) */
    rc = rl_bits_init(&e->encode.enc, &e->k.cfg);
    if (rc < 0)
        return rc;

    /* iteration_init: quantizer tables, Huffman region table (the long/short
     * factors are part of the settings: rl_config_init) */
    rl_quant_tables_init();
    rl_huffman_init();
    rl_huffman_config(&e->k.cfg);

    /* psymodel_init (ATH, psy constants, initial psy state) */
    rc = rl_psy_init(&e->k, &e->psy);
    if (rc < 0)
        return rc;

    /* InitGainAnalysis on the output rate: the per-channel feed (no notify
     * callback: schedulers ask rl_encoder_gain_pending) */
    if (e->k.cfg.find_replay_gain) {
        rc = rl_gain_feed_init(&e->rg, e->k.cfg.samplerate_out, e->k.cfg.channels_out,
                               RL_GAIN_FEED_DEFAULT_CAP, e->k.cfg.dsp, NULL, NULL);
        if (rc < 0) {
            rl_psy_free(&e->k);
            return rc;
        }
    }

    /* decode on the fly: LAME's hip decoder of its own output */
    rc = rl_redecode_init(&e->redecode, e->k.cfg.decode_on_the_fly,
                          e->k.cfg.find_replay_gain, e->k.cfg.channels_out);
    if (rc < 0) {
        rl_gain_feed_free(&e->rg);
        rl_psy_free(&e->k);
        return rc;
    }

    /* mfbuf, the initial zero pad, padding counters, the resampler */
    rc = rl_dispatch_init(&e->k, &e->dispatch);
    if (rc < 0) {
        rl_dispatch_free(&e->dispatch);
        rl_redecode_free(&e->redecode);
        rl_gain_feed_free(&e->rg);
        rl_psy_free(&e->k);
        return rc;
    }
    return 0;
}

static void encoder_free(RlEncoder *e)
{
    rl_dispatch_free(&e->dispatch);
    rl_redecode_free(&e->redecode);
    rl_gain_feed_free(&e->rg);
    rl_psy_free(&e->k);
}

int rl_encoder_create(RlEncoder **out, RlOptions *opt)
{
    RlEncoder *e;
    int rc;

    if (!out || !opt)
        return -EINVAL;
    *out = NULL;
    e = malloc(sizeof *e);
    if (!e)
        return -ENOMEM;
    rc = encoder_init(e, opt);     /* frees what it allocated on failure */
    if (rc < 0) {
        free(e);
        return rc;
    }
    *out = e;
    return 0;
}

void rl_encoder_destroy(RlEncoder *e)
{
    if (!e)
        return;
    encoder_free(e);
    free(e);
}

int rl_encoder_frame_size(const RlEncoder *e)
{
    return rl_config_frame_size(&e->k.cfg);
}

int rl_encoder_padding(const RlEncoder *e)
{
    return e->dispatch.encoder_padding;
}

int64_t rl_encoder_frames_for(const RlEncoder *e, int64_t n)
{
    const RlConfig *const cfg = &e->k.cfg;
    int64_t rem;

    if (n < 0)
        return -1;
    if (cfg->samplerate_in != cfg->samplerate_out && cfg->samplerate_in > 0)
        n = (int64_t) ((double) n * cfg->samplerate_out / cfg->samplerate_in);
    if (cfg->mode_gr == 1)
        return (n + 576 + 575) / 576 + 1;
    rem = (576 + n) % 1152;
    return (576 + n) / 1152 + (rem <= 576 ? 1 : 2);
}

const RlEncoderConst *rl_encoder_const(const RlEncoder *e)
{
    return &e->k;
}

RlDispatchState *rl_encoder_dispatch(RlEncoder *e)
{
    return &e->dispatch;
}

RlPsyState *rl_encoder_psy(RlEncoder *e)
{
    return &e->psy;
}

RlEncodeStage *rl_encoder_encode_stage(RlEncoder *e)
{
    return &e->encode;
}

RlGainFeed *rl_encoder_gain(RlEncoder *e)
{
    return &e->rg;
}

RlFrame *rl_frames_create(int n)
{
    return n > 0 ? calloc((size_t) n, sizeof(RlFrame)) : NULL;
}

void rl_frames_free(RlFrame *frames)
{
    free(frames);
}

RlFrame *rl_frame_at(RlFrame *frames, int i)
{
    return &frames[i];
}

int rl_encoder_gain_channels(const RlEncoder *e)
{
    return e->rg.nch;
}

int rl_encoder_gain_room(RlGainFeed *rg)
{
    return rl_gain_feed_space(rg) >= RL_GAIN_PUSH_MAX + RL_MFSIZE;
}

int rl_encoder_gain_pending(RlGainFeed *rg, int ch)
{
    return rl_gain_task_pending(rg, ch);
}

int rl_encoder_gain_run(RlGainFeed *rg, int ch)
{
    return rl_gain_task_run(rg, ch);
}

/* save_gain_values: RadioGain stays 0 without RG.  title < 0: the gain of
 * everything the feed holds (the stream's last title); else title `title`,
 * closed by the feed at a gapless boundary. */
static int radio_gain(const RlConfig *cfg, RlGainFeed *rg, int title, int *value)
{
    float title_gain = RL_RG_NOT_ENOUGH;
    int ch, rc;

    *value = 0;
    if (!cfg->find_replay_gain)
        return 0;
    if (title >= 0) {
        rc = rl_gain_feed_title(rg, title, &title_gain);
        if (rc < 0)
            return rc;
    }
    else {
        /* the drivers run or wait for the gain tasks before the tag; should
         * work be left, finish it here (no task may be running then) */
        for (ch = 0; ch < 2; ch++)
            while (rl_gain_task_pending(rg, ch) > 0 && rl_gain_task_run(rg, ch) == 0)
                ;
        if (rl_gain_feed_result(rg, &title_gain) != 0)
            title_gain = RL_RG_NOT_ENOUGH;
    }
    *value = rl_gain_radio_value(title_gain);
    return 0;
}

int rl_encoder_radio_gain(const RlEncoderConst *k, RlGainFeed *rg, int *found)
{
    int value;
    *found = k->cfg.find_replay_gain != 0;
    return radio_gain(&k->cfg, rg, -1, &value) < 0 ? 0 : value;
}

int rl_encoder_file_radio_gain(const RlEncoderConst *k, RlGainFeed *rg, int file, int *found)
{
    int value;
    *found = k->cfg.find_replay_gain != 0;
    return radio_gain(&k->cfg, rg, file, &value) < 0 ? 0 : value;
}

/* What the tag of file `file` of `files` needs besides its RadioGain
 * (files 0: no gapless set). */
static void tag_numbers(int delay, int padding, const RlRedecode *rd, int file, int files,
                        RlTagInfo *info)
{
    memset(info, 0, sizeof *info);
    info->encoder_delay = delay;
    info->encoder_padding = padding;
    info->peak_sample = rd ? rd->peak : 0.0f;
    info->nogap_total = files;
    info->nogap_current = file;
}

/* ... and with the RadioGain of ReplayGain title `title` (< 0: the last) */
static int tag_info(const RlConfig *cfg, int delay, int padding, RlGainFeed *rg, int title,
                    const RlRedecode *rd, int file, int files, RlTagInfo *info)
{
    tag_numbers(delay, padding, rd, file, files, info);
    return radio_gain(cfg, rg, title, &info->radio_gain);
}

int rl_encoder_tag_frame(const RlEncoderConst *k, const RlEncodeStage *enc,
                         const RlDispatchState *d, RlGainFeed *rg, const RlRedecode *rd,
                         uint8_t *buf, size_t cap)
{
    return rl_encoder_tag_frame_nogap(k, enc, d, rg, rd, 0, 0, buf, cap);
}

int rl_encoder_tag_frame_nogap(const RlEncoderConst *k, const RlEncodeStage *enc,
                               const RlDispatchState *d, RlGainFeed *rg, const RlRedecode *rd,
                               int file, int files, uint8_t *buf, size_t cap)
{
    RlTagInfo info;
    int rc;
    if (!enc->enc.write_lame_tag)
        return 0;
    rc = tag_info(&k->cfg, d->encoder_delay, d->encoder_padding, rg, -1, rd, file, files, &info);
    if (rc < 0)
        return rc;
    return rl_lametag_frame(&enc->enc, &k->cfg, &info, buf, cap);
}

int rl_encoder_file_tag_frame(const RlEncoderConst *k, const RlEncodeStage *enc, RlGainFeed *rg,
                              const RlRedecode *rd, int title, int padding, int file, int files,
                              uint8_t *buf, size_t cap)
{
    RlTagInfo info;
    int rc;
    if (!enc->enc.write_lame_tag)
        return 0;
    rc = tag_info(&k->cfg, RL_ENCDELAY, padding, rg, title, rd, file, files, &info);
    if (rc < 0)
        return rc;
    return rl_lametag_frame(&enc->enc, &k->cfg, &info, buf, cap);
}

int rl_encoder_tag_frame_now(const RlEncoderConst *k, const RlEncodeStage *enc,
                             const RlRedecode *rd, int radio_gain, int padding, int file,
                             int files, uint8_t *buf, size_t cap)
{
    RlTagInfo info;
    if (!enc->enc.write_lame_tag)
        return 0;
    tag_numbers(RL_ENCDELAY, padding, rd, file, files, &info);
    info.radio_gain = radio_gain;
    return rl_lametag_frame(&enc->enc, &k->cfg, &info, buf, cap);
}

void rl_encoder_redecode_new_file(RlRedecode *rd)
{
    if (rd)
        rd->peak = 0.0f;
}

int rl_encoder_empty_file(const RlEncoderConst *k, RlEncodeStage *enc, const uint8_t *head,
                          size_t n)
{
    return rl_bits_count_placeholder(&enc->enc, &k->cfg, head, n);
}

int rl_encoder_new_file(const RlEncoderConst *k, RlEncodeStage *enc)
{
    return rl_bits_new_file(&enc->enc, &k->cfg);
}

RlRedecode *rl_encoder_redecode(RlEncoder *e)
{
    return e->redecode.dec ? &e->redecode : NULL;
}

int rl_encoder_redecode_room(RlGainFeed *rg)
{
    return rl_gain_feed_space(rg) >= RL_GAIN_PUSH_MAX;
}

int rl_encoder_redecode_chunk(RlRedecode *rd, RlGainFeed *rg, const uint8_t *bytes, size_t n)
{
    return rl_redecode_chunk(rd, rg, bytes, n);
}

void rl_encoder_noclip(const RlRedecode *rd, int *gain_change, float *scale)
{
    rl_redecode_noclip(rd, gain_change, scale);
}

float rl_encoder_peak(const RlRedecode *rd)
{
    return rd ? rd->peak : 0.0f;
}

int rl_encoder_gain_mark(RlGainFeed *rg)
{
    return rg->nch ? rl_gain_feed_mark(rg) : 0;
}

int rl_encoder_gain_titles(RlGainFeed *rg)
{
    return rl_gain_titles_closed(rg);
}
