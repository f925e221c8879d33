/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's getters of the encode state (frame
 * size, delay and padding, frame counts, ReplayGain and clipping figures,
 * buffer sizes) and its statistics (the bitrate, stereo mode and block
 * type histograms).  Before lame_init_params each returns 0, as lame's.
 * Semantics derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <string.h>

#include "mp3lame_flags.h"
#include "mp3lame_session.h"
#include "tables.h"

static const RlConfig *cfg_of(const lame_global_flags *g)
{
    return rl_mp3_ready(g) ? g->ses->cfg : NULL;
}

MP3LAME_API int lame_get_version(const lame_global_flags *gfp)
{
    const RlConfig *c = cfg_of(gfp);
    return c ? c->version : 0;
}

MP3LAME_API int lame_get_encoder_delay(const lame_global_flags *gfp)
{
    return cfg_of(gfp) ? RL_ENCDELAY : 0;
}

MP3LAME_API int lame_get_encoder_padding(const lame_global_flags *gfp)
{
    return rl_mp3_ready(gfp) && gfp->ses->flushes > 0 ? gfp->ses->result.encoder_padding : 0;
}

MP3LAME_API int lame_get_framesize(const lame_global_flags *gfp)
{
    const RlConfig *c = cfg_of(gfp);
    return c ? 576 * c->mode_gr : 0;
}

/* The frames libmp3lame has encoded by now: mid-stream its count for the
 * samples given (the ring may be behind it), after the flush the frames
 * made; from the file's start in a gapless sequence */
static int64_t frames_so_far(const RlMp3Session *s)
{
    int64_t const made = rl_mp3_session_frames(s);
    int64_t lame;

    if (s->stop_frames >= 0)
        return s->stop_frames;      /* where libmp3lame's failed flush stopped */
    if (s->ended || s->out.files_ended > 0)
        return made;
    lame = rl_mp3_session_lame_frames(s, s->samples_in);
    return lame > made ? lame : made;
}

MP3LAME_API int lame_get_frameNum(const lame_global_flags *gfp)
{
    if (!rl_mp3_ready(gfp))
        return 0;
    return (int) (frames_so_far(gfp->ses) - gfp->ses->file_first_frame);
}

/* lame's sv_enc.mf_samples_to_encode: the delay and the samples given,
 * less the frames encoded (0 after the flush).  With resampling it counts
 * the resampler's output, which only Dispatch knows. */
MP3LAME_API int lame_get_mf_samples_to_encode(const lame_global_flags *gfp)
{
    const RlConfig *c = cfg_of(gfp);
    RlMp3Session *s;
    int n;

    if (!c)
        return 0;
    s = gfp->ses;
    if (s->flushed)
        return 0;
    if (s->by_call) {
        n = rl_mp3_session_resampled_to_encode(s);
        return n < 0 ? 0 : n;
    }
    /* (after a flush the stream went on from: lame restarts the count) */
    return (int) (RL_ENCDELAY + RL_POSTDELAY + s->samples_in - s->base_samples
                  - (int64_t) 576 * c->mode_gr * (frames_so_far(s) - s->base_frames));
}

/* lame's compute_flushbits: the bytes its bit buffer holds and those that
 * complete its last frame, which lame.h calls what lame_encode_flush_nogap
 * would return now.  Mid-stream the frames in flight are encoded first, so
 * that Encode's state is lame's (the call costs them). */
MP3LAME_API int lame_get_size_mp3buffer(const lame_global_flags *gfp)
{
    const RlConfig *c = cfg_of(gfp);
    RlMp3Session *s;
    int strange = 0, n;

    if (!c)
        return 0;
    s = gfp->ses;
    if (s->stop_frames >= 0) {
        /* a flush that failed where lame's does: lame's count where it stopped */
        if (s->stop_strange)
            rl_mp3_errorf(gfp, "strange error flushing buffer ... \n");
        return s->stop_size;
    }
    if (s->ended)
        n = rl_ring_flush_size(s->ring, &strange);
    else if (!s->flushed && !s->err)
        n = rl_mp3_session_flush_size_now(s, &strange);
    else
        return (int) rl_api_output_count(&s->out);     /* the encoder failed: what is left */
    if (n < 0)
        return (int) rl_api_output_count(&s->out);
    if (strange)
        rl_mp3_errorf(gfp, "strange error flushing buffer ... \n");
    return n;
}

/* the stream's after the flush; a gapless file's after its nogap flush */
MP3LAME_API int lame_get_RadioGain(const lame_global_flags *gfp)
{
    int gain, change;
    float scale;
    if (!rl_mp3_ready(gfp))
        return 0;
    if (gfp->ses->stop_frames >= 0 && gfp->ses->stop_unsaved)
        return gfp->ses->prev_radio_gain;
    rl_mp3_session_gains(gfp->ses, &gain, &change, &scale);
    return gain;
}

MP3LAME_API int lame_get_AudiophileGain(const lame_global_flags *gfp)
{
    (void) gfp;
    return 0;
}

MP3LAME_API float lame_get_PeakSample(const lame_global_flags *gfp)
{
    return rl_mp3_ready(gfp) ? rl_mp3_session_peak(gfp->ses) : 0;
}

MP3LAME_API int lame_get_noclipGainChange(const lame_global_flags *gfp)
{
    int gain, change;
    float scale;
    if (!rl_mp3_ready(gfp))
        return 0;
    if (gfp->ses->stop_frames >= 0 && gfp->ses->stop_unsaved)
        return gfp->ses->prev_noclip_change;
    rl_mp3_session_gains(gfp->ses, &gain, &change, &scale);
    return change;
}

/* -1 (no verdict) until a flush with decoding on the fly made one */
MP3LAME_API float lame_get_noclipScale(const lame_global_flags *gfp)
{
    int gain, change;
    float scale;
    if (!rl_mp3_ready(gfp))
        return 0;
    if (gfp->ses->stop_frames >= 0 && gfp->ses->stop_unsaved)
        return gfp->ses->prev_noclip_scale;
    rl_mp3_session_gains(gfp->ses, &gain, &change, &scale);
    return scale;
}

/* lame's estimate from num_samples (lame_init's "unknown" value counts as
 * a number here, as in lame) */
MP3LAME_API int lame_get_totalframes(const lame_global_flags *gfp)
{
    const RlConfig *c = cfg_of(gfp);
    unsigned long const fs = c ? 576ul * (unsigned long) c->mode_gr : 0;
    unsigned long todo, end_padding;
    int frames;

    if (!c || gfp->num_samples == (unsigned long) -1)
        return 0;
    todo = gfp->num_samples;
    if (c->samplerate_in != c->samplerate_out) {
        double rs = 0, ff;
        if (c->samplerate_in > 0) {
            rs = (double) todo;
            rs *= c->samplerate_out;
            rs /= c->samplerate_in;
        }
        if (rs <= 0.0)
            return 0;
        ff = floor(rs / (double) fs);
        if (ff >= (double) (0x7fffffff - 2))
            return 0;
        frames = (int) ff;
        rs -= frames * (double) fs;
        todo = (unsigned long) ceil(rs);
    }
    else {
        frames = (int) (todo / fs);
        todo -= (unsigned long) frames * fs;
    }
    todo += 576ul;
    end_padding = fs - todo % fs;
    if (end_padding < 576ul)
        end_padding += fs;
    todo += end_padding;
    return frames + (int) (todo / fs);
}

MP3LAME_API int lame_get_maximum_number_of_samples(lame_t gfp, size_t buffer_size)
{
    const RlConfig *c = cfg_of(gfp);
    int kbps, frames;
    double ratio;

    if (!c)
        return LAME_GENERICERROR;
    kbps = c->samplerate_out < 16000 ? 64 : c->samplerate_out < 32000 ? 160 : 320;
    if (c->free_format || c->vbr == RL_VBR_OFF)
        kbps = c->avg_bitrate;
    frames = (int) (buffer_size / (size_t) ((c->version + 1) * 72000 * kbps / c->samplerate_out + 1));
    ratio = (double) c->samplerate_in / c->samplerate_out;
    return (int) (576 * c->mode_gr * frames * ratio);
}

MP3LAME_API int lame_get_bitrate(int mpeg_version, int table_index)
{
    if (mpeg_version < 0 || mpeg_version > 2 || table_index < 0 || table_index > 15)
        return -1;
    return rl_bitrate_kbps(mpeg_version, table_index);
}

MP3LAME_API int lame_get_samplerate(int mpeg_version, int table_index)
{
    if (mpeg_version < 0 || mpeg_version > 2 || table_index < 0 || table_index > 3)
        return -1;
    return rl_samplerate_hz(mpeg_version, table_index);
}

/* ---- the histograms (lame_bitrate_hist & co.) */

/* the configuration once the ring has made every frame libmp3lame has
 * made (lame's updateStats counts each frame as it is encoded); NULL
 * before lame_init_params */
static const RlConfig *caught_up(const lame_global_flags *g)
{
    const RlConfig *c = cfg_of(g);
    if (c)
        (void) rl_mp3_session_catch_up(g->ses);     /* an error: the counts so far */
    return c;
}

static int hist(const lame_global_flags *g, int stmode, int br, int col)
{
    const RlMp3Session *s = g->ses;
    const int *cell = stmode ? &s->bitrate_stmode[br][col] : &s->bitrate_btype[br][col];
    return __atomic_load_n(cell, __ATOMIC_RELAXED);
}

MP3LAME_API void lame_bitrate_kbps(const lame_global_flags *gfp, int bitrate_kbps[14])
{
    const RlConfig *c = cfg_of(gfp);
    int i;

    if (!c)
        return;
    for (i = 0; i < 14; i++)
        bitrate_kbps[i] = c->free_format ? -1 : rl_bitrate_kbps(c->version, i + 1);
    if (c->free_format)
        bitrate_kbps[0] = c->avg_bitrate;
}

MP3LAME_API void lame_bitrate_hist(const lame_global_flags *gfp, int bitrate_count[14])
{
    const RlConfig *c = caught_up(gfp);
    int i;

    if (!c)
        return;
    for (i = 0; i < 14; i++)
        bitrate_count[i] = c->free_format ? 0 : hist(gfp, 1, i + 1, 4);
    if (c->free_format)
        bitrate_count[0] = hist(gfp, 1, 0, 4);
}

MP3LAME_API void lame_stereo_mode_hist(const lame_global_flags *gfp, int stereo_mode_count[4])
{
    int i;

    if (!caught_up(gfp))
        return;
    for (i = 0; i < 4; i++)
        stereo_mode_count[i] = hist(gfp, 1, 15, i);
}

MP3LAME_API void lame_bitrate_stereo_mode_hist(const lame_global_flags *gfp,
                                               int bitrate_stmode_count[14][4])
{
    const RlConfig *c = caught_up(gfp);
    int i, j;

    if (!c)
        return;
    for (j = 0; j < 14; j++)
        for (i = 0; i < 4; i++)
            bitrate_stmode_count[j][i] = c->free_format ? (j == 0 ? hist(gfp, 1, 0, i) : 0)
                                         : hist(gfp, 1, j + 1, i);
}

MP3LAME_API void lame_block_type_hist(const lame_global_flags *gfp, int btype_count[6])
{
    int i;

    if (!caught_up(gfp))
        return;
    for (i = 0; i < 6; i++)
        btype_count[i] = hist(gfp, 0, 15, i);
}

MP3LAME_API void lame_bitrate_block_type_hist(const lame_global_flags *gfp,
                                              int bitrate_btype_count[14][6])
{
    const RlConfig *c = caught_up(gfp);
    int i, j;

    if (!c)
        return;
    for (j = 0; j < 14; j++)
        for (i = 0; i < 6; i++)
            bitrate_btype_count[j][i] = c->free_format ? (j == 0 ? hist(gfp, 0, 0, i) : 0)
                                        : hist(gfp, 0, j + 1, i);
}
