/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Dispatch: PCM conversion, LAME's mfbuf window, ReplayGain feeding,
 * frame cutting (with the pre-history Prepare needs) and the end-of-stream flush.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "rl_encoder_const.h"
#include "rl_frame.h"
#include "gain_feed.h"
#include "resample.h"
#include "pcm_format.h"   /* RlInBlock, rl_raw_sample */

/* LAME calcNeeded: samples of mfbuf one frame reads (FFT and polyphase). */
static int calc_needed(const RlConfig *cfg)
{
    int fs = 576 * cfg->mode_gr;
    int need = RL_BLKSIZE + fs - RL_FFTOFFSET;
    int poly = 512 + fs - 32;
    return need > poly ? need : poly;
}

int rl_dispatch_init(const RlEncoderConst *k, RlDispatchState *d)
{
    int rc;

    memset(d, 0, sizeof *d);
    d->mf_needed = calc_needed(&k->cfg);
    if (d->mf_needed > RL_FRAME_IN || d->mf_needed > RL_MFSIZE)
        return -EINVAL;
    /* LAME lame_init_params: the encoder delay is padded with zeros up front */
    d->mf_samples_to_encode = RL_ENCDELAY + RL_POSTDELAY;
    d->mf_size = RL_ENCDELAY - RL_MDCTDELAY;
    d->encoder_padding = 0;
    d->encoder_delay = RL_ENCDELAY;
    d->slot_lag = d->frac_spf = k->cfg.frac_spf;   /* 0 for VBR/ABR */
    d->resampling = rl_resampling_needed(&k->cfg);
    if (d->resampling) {
        rc = rl_resample_init(&d->rs, &k->cfg);
        if (rc < 0)
            return rc;
    }
    return 0;
}

void rl_dispatch_free(RlDispatchState *d)
{
    free(d->in_buf[0]);
    free(d->in_buf[1]);
    d->in_buf[0] = d->in_buf[1] = NULL;
    d->in_cap = d->in_len = d->in_pos = 0;
    if (d->resampling)
        rl_resample_free(&d->rs);
}

static int reserve_input(RlDispatchState *d, int n)
{
    if (n > d->in_cap) {
        int ch;
        for (ch = 0; ch < 2; ch++) {
            float *p = realloc(d->in_buf[ch], (size_t)n * sizeof(float));
            if (!p)
                return -ENOMEM;
            d->in_buf[ch] = p;
        }
        d->in_cap = n;
    }
    return 0;
}

/* LAME lame_encode_buffer_template: m = norm * pcm_transform, in float. */
static void input_matrix(const RlConfig *cfg, float norm, float *m00, float *m01,
                         float *m10, float *m11)
{
    *m00 = norm * cfg->pcm_transform[0][0];
    *m01 = norm * cfg->pcm_transform[0][1];
    *m10 = norm * cfg->pcm_transform[1][0];
    *m11 = norm * cfg->pcm_transform[1][1];
}

/* LAME lame_copy_inbuffer: u = xl*m00 + xr*m01, v = xl*m10 + xr*m11 in float,
 * m = norm * pcm_transform.  pcm == NULL stands for zeros (the flush feeds
 * short zeros with norm 1). */
static int queue_input(const RlEncoderConst *k, RlDispatchState *d, const int32_t *pcm, int n,
                       float norm)
{
    const RlConfig *cfg = &k->cfg;
    float m00, m01, m10, m11;
    float *ib0, *ib1;
    int i, rc, stride = cfg->channels_in > 1 ? 2 : 1;

    if (d->in_pos < d->in_len)
        return -EBUSY;
    if (n < 0)
        return -EINVAL;
    rc = reserve_input(d, n > 0 ? n : 1);
    if (rc < 0)
        return rc;
    input_matrix(cfg, norm, &m00, &m01, &m10, &m11);
    ib0 = d->in_buf[0];
    ib1 = d->in_buf[1];
    for (i = 0; i < n; i++) {
        /* int -> float conversion first, like LAME's sample_t temporaries */
        float xl = pcm ? (float)pcm[i * stride] : 0.0f;
        float xr = pcm ? (float)pcm[i * stride + stride - 1] : 0.0f;
        float u = xl * m00 + xr * m01;
        float v = xl * m10 + xr * m11;
        ib0[i] = u;
        ib1[i] = v;
    }
    d->in_len = n;
    d->in_pos = 0;
    return 0;
}

int rl_dispatch_feed(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg,
                     const int32_t *pcm, int nframes)
{
    /* LAME lame_encode_buffer_int: norm = 1/2^(8*sizeof(int)-16), a FLOAT */
    float const norm = (float)(1.0 / (1L << (8 * sizeof(int32_t) - 16)));
    if (!pcm && nframes > 0)
        return -EINVAL;
    return queue_input(k, d, pcm, nframes, norm);
}

/* Input floats a library front end converted already (pcm_typed.h): its
 * call did lame_copy_inbuffer's work, Dispatch only queues them. */
static int queue_uv(RlDispatchState *d, const float *uv, int n)
{
    int i, rc;

    if (d->in_pos < d->in_len)
        return -EBUSY;
    rc = reserve_input(d, n > 0 ? n : 1);
    if (rc < 0)
        return rc;
    for (i = 0; i < n; i++) {
        d->in_buf[0][i] = uv[2 * i];
        d->in_buf[1][i] = uv[2 * i + 1];
    }
    d->in_len = n;
    d->in_pos = 0;
    return 0;
}

/* ---- raw PCM blocks from the I/O scheduler ---- */

/* queue_input's loop for a block of raw sample bytes: rl_raw_sample gives
 * the int32 rl_pcm_read would give, then the same float conversion and the
 * same float matrix, so the queued floats are bit-identical.  Always inlined
 * so that every call below is a loop specialised for one constant fmt. */
static inline __attribute__((always_inline))
void raw_to_float(float *ib0, float *ib1, const uint8_t *p, int n, int nch, int fmt,
                  float m00, float m01, float m10, float m11)
{
    int const bps = rl_raw_sample_bytes(fmt);
    int const right = (nch - 1) * bps;    /* mono: the right input is the left one */
    int i;
    for (i = 0; i < n; i++, p += nch * bps) {
        float xl = (float)rl_raw_sample(p, fmt);
        float xr = (float)rl_raw_sample(p + right, fmt);
        float u = xl * m00 + xr * m01;
        float v = xl * m10 + xr * m11;
        ib0[i] = u;
        ib1[i] = v;
    }
}

void rl_pcm_s16le(const void *src, int n, int nch, const float m[4], float *ib0, float *ib1)
{
    if (nch == 2)
        raw_to_float(ib0, ib1, src, n, 2, RL_SF_S16LE, m[0], m[1], m[2], m[3]);
    else
        raw_to_float(ib0, ib1, src, n, 1, RL_SF_S16LE, m[0], m[1], m[2], m[3]);
}

int rl_dispatch_feed_block(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg,
                           const RlInBlock *b, int offset_frames, int nframes)
{
    const RlConfig *cfg = &k->cfg;
    /* the same norm as rl_dispatch_feed (LAME lame_encode_buffer_int) */
    float const norm = (float)(1.0 / (1L << (8 * sizeof(int32_t) - 16)));
    float m00, m01, m10, m11;
    const uint8_t *src;
    int nch = cfg->channels_in > 1 ? 2 : 1;
    int rc;

    if (!b || offset_frames < 0 || nframes < 0 || nframes > b->nframes - offset_frames)
        return -EINVAL;
    if (b->channels != nch)
        return -EINVAL;
    if (nframes == 0)
        return queue_input(k, d, NULL, 0, norm);
    src = (const uint8_t *)b->data + (size_t)offset_frames * (size_t)b->frame_bytes;
    if (b->fmt == RL_SF_I32)
        return rl_dispatch_feed(k, d, rg, (const int32_t *)(const void *)src, nframes);
    if (b->fmt == RL_SF_F32_UV)
        return queue_uv(d, (const float *)(const void *)src, nframes);

    if (d->in_pos < d->in_len)
        return -EBUSY;
    rc = reserve_input(d, nframes);
    if (rc < 0)
        return rc;
    input_matrix(cfg, norm, &m00, &m01, &m10, &m11);
#define RAW_CASE(F) case F: raw_to_float(d->in_buf[0], d->in_buf[1], src, nframes, nch, F, m00, m01, m10, m11); break
    switch (b->fmt) {
    RAW_CASE(RL_SF_S8);
    RAW_CASE(RL_SF_U8);
    case RL_SF_S16LE: {
        float const m[4] = { m00, m01, m10, m11 };
        k->cfg.dsp->pcm_s16le(src, nframes, nch, m, d->in_buf[0], d->in_buf[1]);
        break;
    }
    RAW_CASE(RL_SF_S16BE);
    RAW_CASE(RL_SF_S24LE);
    RAW_CASE(RL_SF_S24BE);
    RAW_CASE(RL_SF_S32LE);
    RAW_CASE(RL_SF_S32BE);
    default:
        return -EINVAL;
    }
#undef RAW_CASE
    d->in_len = nframes;
    d->in_pos = 0;
    return 0;
}

/* Copy the current window into f and shift mfbuf (LAME: the frame call and
 * the shift in lame_encode_buffer_sample_t). */
static void cut_frame(const RlEncoderConst *k, RlDispatchState *d, RlFrame *f)
{
    const RlConfig *cfg = &k->cfg;
    int fs = 576 * cfg->mode_gr;
    int avail = RL_DISPATCH_PRE + (d->mf_size < RL_FRAME_IN ? d->mf_size : RL_FRAME_IN);
    int ch;

    f->index = d->frames_cut++;
    /* padding (LAME encoder.c): no padding for the very first frame */
    f->padding = 0;
    if ((d->slot_lag -= d->frac_spf) < 0) {
        d->slot_lag += cfg->samplerate_out;
        f->padding = 1;
    }
    for (ch = 0; ch < 2; ch++) {
        if (ch < cfg->channels_out) {
            memcpy(f->in[ch], d->buf[ch], (size_t)avail * sizeof(float));
            memset(f->in[ch] + avail, 0, (size_t)(RL_FRAME_SPAN - avail) * sizeof(float));
        }
        else {
            memset(f->in[ch], 0, sizeof f->in[ch]);
        }
    }

    /* shift out the frame; the last RL_DISPATCH_PRE samples shifted out stay
     * in front of the new mfbuf[0] */
    d->mf_size -= fs;
    d->mf_samples_to_encode -= fs;
    for (ch = 0; ch < cfg->channels_out; ch++)
        memmove(d->buf[ch], d->buf[ch] + fs, (size_t)(RL_DISPATCH_PRE + d->mf_size) * sizeof(float));

    if (d->flushing)
        d->frames_left--;
}

int rl_dispatch_next(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg, RlFrame *f)
{
    const RlConfig *cfg = &k->cfg;
    int fs = 576 * cfg->mode_gr;

    while (d->in_pos < d->in_len) {
        int nsamples = d->in_len - d->in_pos;
        int n_in = 0, n_out = 0, ch;
        float *mf[2] = { d->buf[0] + RL_DISPATCH_PRE + d->mf_size,
                         d->buf[1] + RL_DISPATCH_PRE + d->mf_size };
        int const gain = cfg->find_replay_gain && !cfg->decode_on_the_fly;

        /* ReplayGain feed full: stop before fill_buffer changes any state
         * (fs >= what one step pushes); resumable once the gain tasks ran */
        if (gain && rl_gain_feed_space(rg) < (size_t)fs)
            return -EAGAIN;

        /* LAME fill_buffer */
        if (d->resampling) {
            for (ch = 0; ch < cfg->channels_out; ch++) {
                int nout = rl_resample_fill(&d->rs, cfg, mf[ch], fs, d->in_buf[ch] + d->in_pos,
                                            nsamples, &n_in, ch);
                if (nout < 0)
                    return nout;
                n_out = nout;
            }
        }
        else {
            int nout = fs < nsamples ? fs : nsamples;
            for (ch = 0; ch < cfg->channels_out; ch++)
                memcpy(mf[ch], d->in_buf[ch] + d->in_pos, (size_t)nout * sizeof(float));
            n_out = n_in = nout;
        }
        if (d->mf_size + n_out > RL_MFSIZE)
            return -EINVAL;

        /* ReplayGain of the (resampled) new samples, in LAME's chunks: one
         * push = one AnalyzeSamples call (the space was checked above) */
        if (gain) {
            int rc = rl_gain_feed_push(rg, mf[0], mf[1], (size_t)n_out);
            if (rc < 0)
                return rc;
        }

        d->in_pos += n_in;
        d->mf_size += n_out;
        /* a finished flush sets mf_samples_to_encode to 0 (LAME nogap reuse) */
        if (d->mf_samples_to_encode < 1)
            d->mf_samples_to_encode = RL_ENCDELAY + RL_POSTDELAY;
        d->mf_samples_to_encode += n_out;

        if (d->mf_size >= d->mf_needed) {
            cut_frame(k, d, f);
            return 1;
        }
        if (n_in == 0 && n_out == 0)
            return -EINVAL;   /* no progress: the resampler wants more than exists */
    }
    return 0;
}

int rl_dispatch_flush_step(const RlEncoderConst *k, RlDispatchState *d, RlGainFeed *rg)
{
    const RlConfig *cfg = &k->cfg;
    int fs = 576 * cfg->mode_gr;
    double resample_ratio = 1;

    if (d->flushed)
        return 0;
    if (d->in_pos < d->in_len)
        return -EBUSY;
    if (d->resampling)
        resample_ratio = (double)cfg->samplerate_in / (double)cfg->samplerate_out;

    if (!d->flushing) {
        int samples_to_encode, end_padding;
        if (d->mf_samples_to_encode < 1) {   /* flush already done */
            d->flushed = 1;
            return 0;
        }
        samples_to_encode = d->mf_samples_to_encode - RL_POSTDELAY;
        if (d->resampling)   /* int += double, as in LAME: the resampler's delay */
            samples_to_encode += 16. / resample_ratio;
        end_padding = fs - (samples_to_encode % fs);
        if (end_padding < 576)
            end_padding += fs;
        d->encoder_padding = end_padding;
        d->frames_left = (samples_to_encode + end_padding) / fs;
        d->flushing = 1;
    }

    if (d->frames_left > 0) {
        int bunch = d->mf_needed - d->mf_size;
        int rc;
        bunch *= resample_ratio;   /* int *= double, truncating like LAME */
        if (bunch > 1152)
            bunch = 1152;
        if (bunch < 1)
            bunch = 1;
        rc = queue_input(k, d, NULL, bunch, 1.0f);
        if (rc < 0)
            return rc;
        return 1;
    }

    d->mf_samples_to_encode = 0;
    d->flushing = 0;
    d->flushed = 1;
    return 0;
}

void rl_dispatch_reopen(RlDispatchState *d)
{
    d->flushing = 0;
    d->flushed = 0;
}

int rl_dispatch_samples_to_encode(const RlDispatchState *d)
{
    return d->mf_samples_to_encode;
}
