/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: option defaults and setters (LAME lame_init_old / set_get.c) and
 * the derivation of the session configuration (LAME lame_init_params with
 * lame_init_qval, lame_init_params_ppflt and the settings part of
 * iteration_init / psymodel_init), in LAME's order.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "dsp.h"
#include "settings.h"
#include "tables.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#define RL_DEFAULT_QUALITY 3
#define RL_NSATTACKTHRE    4.4
#define RL_NSATTACKTHRE_S  25
#define RL_NS_MSFIX        3.5
#define RL_LAMEHEADERSIZE  156   /* Xing + LAME extension bytes (VbrTag.c) */
#define RL_MAXFRAMESIZE    2880
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void rl_options_defaults(RlOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->strict_iso = RL_MDB_MAXIMUM;
    o->mode = RL_MODE_NOT_SET;
    o->original = 1;
    o->samplerate_in = 44100;
    o->num_channels = 2;
    o->write_lame_tag = 1;
    o->quality = -1;
    o->short_blocks = RL_SB_NOT_SET;
    o->subblock_gain = -1;
    o->lowpassfreq = 0;
    o->highpassfreq = 0;
    o->lowpasswidth = -1;
    o->highpasswidth = -1;
    o->vbr = RL_VBR_OFF;
    o->vbr_q = 4;
    o->vbr_mean_bitrate_kbps = 128;
    o->quant_comp = -1;
    o->quant_comp_short = -1;
    o->msfix = -1;
    o->attackthre = -1;
    o->attackthre_s = -1;
    o->scale = 1;
    o->scale_left = 1;
    o->scale_right = 1;
    o->ath_curve = -1;
    o->ath_type = -1;
    o->athaa_sensitivity = 0.0f;
    o->athaa_type = -1;
    o->use_temporal = -1;
    o->interch_ratio = -1;
    o->find_replay_gain = 0;
    o->preset = 0;
    o->simd_level = -1;
}

/* ---- setters (set_get.c semantics) ---- */

static int is_bool(int v) { return v == 0 || v == 1; }

int rl_set_in_samplerate(RlOptions *o, int hz)
{
    if (hz < 1)
        return -1;
    o->samplerate_in = hz;
    return 0;
}

int rl_set_num_channels(RlOptions *o, int n)
{
    if (n > 2 || n <= 0)
        return -1;
    o->num_channels = n;
    return 0;
}

int rl_set_scale(RlOptions *o, float s) { o->scale = s; return 0; }
int rl_set_scale_left(RlOptions *o, float s) { o->scale_left = s; return 0; }
int rl_set_scale_right(RlOptions *o, float s) { o->scale_right = s; return 0; }

int rl_set_swap_channels(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->swap_channels = on;
    return 0;
}

int rl_set_out_samplerate(RlOptions *o, int hz)
{
    if (hz != 0) {
        int v;
        if (rl_smp_frq_index(hz, &v) < 0)
            return -1;
    }
    o->samplerate_out = hz;
    return 0;
}

int rl_set_write_lame_tag(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->write_lame_tag = on;
    return 0;
}

int rl_set_quality(RlOptions *o, int q)
{
    o->quality = q < 0 ? 0 : (q > 9 ? 9 : q);
    return 0;
}

int rl_set_mode(RlOptions *o, RlMpegMode m)
{
    if ((int) m < 0 || (int) m >= (int) RL_MODE_NOT_SET + 1)
        return -1;
    o->mode = m;
    return 0;
}

int rl_set_force_ms(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->force_ms = on;
    return 0;
}

int rl_set_find_replay_gain(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->find_replay_gain = on;
    return 0;
}

int rl_set_decode_on_the_fly(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->decode_on_the_fly = on;
    return 0;
}

int rl_set_brate(RlOptions *o, int kbps)
{
    o->brate = kbps;
    if (kbps > 320)
        o->disable_reservoir = 1;
    return 0;
}

int rl_set_compression_ratio(RlOptions *o, float ratio)
{
    o->compression_ratio = ratio;
    return 0;
}

int rl_set_error_protection(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->error_protection = on;
    return 0;
}

int rl_set_strict_iso(RlOptions *o, int mdb)
{
    if (mdb < RL_MDB_DEFAULT || mdb > RL_MDB_MAXIMUM)
        return -1;
    o->strict_iso = mdb;
    return 0;
}

int rl_set_disable_reservoir(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->disable_reservoir = on;
    return 0;
}

int rl_set_vbr(RlOptions *o, RlVbrMode v)
{
    if ((int) v < 0 || (int) v > (int) RL_VBR_MTRH)
        return -1;
    o->vbr = v;
    return 0;
}

int rl_set_vbr_q(RlOptions *o, int q)
{
    int ret = 0;
    if (q < 0) { ret = -1; q = 0; }
    if (q > 9) { ret = -1; q = 9; }
    o->vbr_q = q;
    o->vbr_q_frac = 0;
    return ret;
}

int rl_set_vbr_quality(RlOptions *o, float q)
{
    int ret = 0;
    if (0 > q) { ret = -1; q = 0; }
    if (9.999 < q) { ret = -1; q = 9.999; }   /* double literal rounded to float */
    o->vbr_q = (int) q;
    o->vbr_q_frac = q - o->vbr_q;
    return ret;
}

int rl_set_vbr_mean_bitrate_kbps(RlOptions *o, int kbps) { o->vbr_mean_bitrate_kbps = kbps; return 0; }
int rl_set_vbr_min_bitrate_kbps(RlOptions *o, int kbps) { o->vbr_min_bitrate_kbps = kbps; return 0; }
int rl_set_vbr_max_bitrate_kbps(RlOptions *o, int kbps) { o->vbr_max_bitrate_kbps = kbps; return 0; }

/* lame_set_VBR_hard_min: only 0 and 1 are meaningful */
int rl_set_vbr_hard_min(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->vbr_hard_min = on;
    return 0;
}

int rl_set_lowpassfreq(RlOptions *o, int hz) { o->lowpassfreq = hz; return 0; }
int rl_set_lowpasswidth(RlOptions *o, int hz) { o->lowpasswidth = hz; return 0; }
int rl_set_highpassfreq(RlOptions *o, int hz) { o->highpassfreq = hz; return 0; }
int rl_set_highpasswidth(RlOptions *o, int hz) { o->highpasswidth = hz; return 0; }

int rl_set_copyright(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->copyright = on;
    return 0;
}

int rl_set_original(RlOptions *o, int on)
{
    if (!is_bool(on))
        return -1;
    o->original = on;
    return 0;
}

int rl_set_emphasis(RlOptions *o, int e)
{
    if (e < 0 || e >= 4)
        return -1;
    o->emphasis = e;
    return 0;
}

int rl_set_experimental_y(RlOptions *o, int v) { o->experimental_y = v; return 0; }
int rl_set_experimental_z(RlOptions *o, int v) { o->experimental_z = v; return 0; }
int rl_set_athaa_sensitivity(RlOptions *o, float db) { o->athaa_sensitivity = db; return 0; }

int rl_set_interch_ratio(RlOptions *o, float r)
{
    if (0 <= r && r <= 1.0) {
        o->interch_ratio = r;
        return 0;
    }
    return -1;
}

int rl_set_msfix(RlOptions *o, double msfix)
{
    o->msfix = msfix;
    return 0;
}

int rl_set_preset(RlOptions *o, int preset)
{
    RlConfig scratch;   /* stands for LAME's internal config at parse time */
    int r;

    memset(&scratch, 0, sizeof(scratch));
    scratch.ath_fixpoint = o->preset_ath_fixpoint;
    o->preset = preset;
    r = rl_apply_preset(o, &scratch, preset, 1);
    o->preset_ath_fixpoint = scratch.ath_fixpoint;
    return r;
}

/* ---- lame_init_params helpers ---- */

/* LAME filter_coef: takes FLOAT (the double argument is rounded to float). */
static float filter_coef(float x)
{
    if (x > 1.0)
        return 0.0;
    if (x <= 0.0)
        return 1.0;
    return cos(M_PI / 2 * x);
}

/* lame_init_params_ppflt: snap the filter bounds to the 32 polyphase bands
 * and compute the per-band gains. */
static void init_polyphase_filter(RlConfig *cfg)
{
    int lowpass_band = 32;
    int highpass_band = -1;
    float freq;

    if (cfg->lowpass1 > 0) {
        int minband = 999;
        for (int band = 0; band <= 31; band++) {
            freq = band / 31.0;
            if (freq >= cfg->lowpass2) {        /* this band and above are zeroed */
                if (band < lowpass_band)
                    lowpass_band = band;
            }
            if (cfg->lowpass1 < freq && freq < cfg->lowpass2) {
                if (band < minband)
                    minband = band;
            }
        }
        /* the transition band the polyphase filter actually implements */
        if (minband == 999)
            cfg->lowpass1 = (lowpass_band - .75) / 31.0;
        else
            cfg->lowpass1 = (minband - .75) / 31.0;
        cfg->lowpass2 = lowpass_band / 31.0;
    }

    /* highpass below 90% of the first band edge cannot be implemented */
    if (cfg->highpass2 > 0) {
        if (cfg->highpass2 < .9 * (.75 / 31.0)) {
            cfg->highpass1 = 0;
            cfg->highpass2 = 0;
            cfg->highpass_dropped = 1;  /* lame warns (the command prints it) */
        }
    }

    if (cfg->highpass2 > 0) {
        int maxband = -1;
        for (int band = 0; band <= 31; band++) {
            freq = band / 31.0;
            if (freq <= cfg->highpass1) {       /* this band and below are zeroed */
                if (band > highpass_band)
                    highpass_band = band;
            }
            if (cfg->highpass1 < freq && freq < cfg->highpass2) {
                if (band > maxband)
                    maxband = band;
            }
        }
        cfg->highpass1 = highpass_band / 31.0;
        if (maxband == -1)
            cfg->highpass2 = (highpass_band + .75) / 31.0;
        else
            cfg->highpass2 = (maxband + .75) / 31.0;
    }

    for (int band = 0; band < 32; band++) {
        float fc1, fc2;
        freq = band / 31.0f;
        if (cfg->highpass2 > cfg->highpass1)
            fc1 = filter_coef((cfg->highpass2 - freq) / (cfg->highpass2 - cfg->highpass1 + 1e-20));
        else
            fc1 = 1.0f;
        if (cfg->lowpass2 > cfg->lowpass1)
            fc2 = filter_coef((freq - cfg->lowpass1) / (cfg->lowpass2 - cfg->lowpass1 + 1e-20));
        else
            fc2 = 1.0f;
        cfg->amp_filter[band] = fc1 * fc2;
    }
}

/* LAME optimum_bandwidth (CBR/ABR lowpass from the bitrate). */
static double optimum_bandwidth(int kbps)
{
    static const int lowpass_by_rate[17] = {
        2000, 3700, 3900, 5500, 7000, 7500, 10000, 11000, 13500,
        15100, 15600, 17000, 17500, 18600, 19400, 19700, 20500
    };
    return lowpass_by_rate[rl_nearest_bitrate_full_index(kbps)];
}

/* LAME optimum_samplefreq: output rate from the lowpass and input rate. */
static int optimum_samplefreq(int lowpassfreq, int in)
{
    int sr = 44100;
    if (in >= 48000) sr = 48000;
    else if (in >= 44100) sr = 44100;
    else if (in >= 32000) sr = 32000;
    else if (in >= 24000) sr = 24000;
    else if (in >= 22050) sr = 22050;
    else if (in >= 16000) sr = 16000;
    else if (in >= 12000) sr = 12000;
    else if (in >= 11025) sr = 11025;
    else if (in >= 8000) sr = 8000;

    if (lowpassfreq == -1)
        return sr;

    if (lowpassfreq <= 15960) sr = 44100;
    if (lowpassfreq <= 15250) sr = 32000;
    if (lowpassfreq <= 11220) sr = 24000;
    if (lowpassfreq <= 9970) sr = 22050;
    if (lowpassfreq <= 7230) sr = 16000;
    if (lowpassfreq <= 5420) sr = 12000;
    if (lowpassfreq <= 4510) sr = 11025;
    if (lowpassfreq <= 3970) sr = 8000;

    if (in < sr) {
        /* a valid MPEG rate above the input avoids sfb21/12 bitrate bloat */
        if (in > 44100) return 48000;
        if (in > 32000) return 44100;
        if (in > 24000) return 32000;
        if (in > 22050) return 24000;
        if (in > 16000) return 22050;
        if (in > 12000) return 16000;
        if (in > 11025) return 12000;
        if (in > 8000) return 11025;
        return 8000;
    }
    return sr;
}

/* lame_init_qval: algorithm switches from -q (may rewrite opt->quality). */
static void init_qval(RlConfig *cfg, RlOptions *o)
{
    int const vbr_new = (cfg->vbr == RL_VBR_MT || cfg->vbr == RL_VBR_MTRH);
    switch (o->quality) {
    default:
    case 9:                     /* no psymodel, no noise shaping */
        cfg->noise_shaping = 0;
        cfg->noise_shaping_amp = 0;
        cfg->noise_shaping_stop = 0;
        cfg->use_best_huffman = 0;
        cfg->full_outer_loop = 0;
        break;
    case 8:
        o->quality = 7;
        /* fall through */
    case 7:                     /* psymodel, no noise shaping */
        cfg->noise_shaping = 0;
        cfg->noise_shaping_amp = 0;
        cfg->noise_shaping_stop = 0;
        cfg->use_best_huffman = 0;
        cfg->full_outer_loop = vbr_new ? -1 : 0;
        break;
    case 6:
    case 5:
    case 4:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        cfg->noise_shaping_amp = 0;
        cfg->noise_shaping_stop = 0;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = (o->quality == 4) ? 1 : 0;
        cfg->full_outer_loop = 0;
        break;
    case 3:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        cfg->noise_shaping_amp = 1;
        cfg->noise_shaping_stop = 1;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 1;
        cfg->full_outer_loop = 0;
        break;
    case 2:
    case 1:
    case 0:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        if (cfg->substep_shaping == 0)
            cfg->substep_shaping = 2;
        cfg->noise_shaping_amp = (o->quality == 2) ? 1 : 2;
        cfg->noise_shaping_stop = 1;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 1;
        cfg->full_outer_loop = (o->quality == 0) ? 1 : 0;
        break;
    }
}

/* nspsytune field: 6-bit two's complement quarter-dB value at `shift`. */
static float nspsy_db(int nsp, int shift)
{
    float db = (nsp >> shift) & 63;
    if (db >= 32.f)
        db -= 64.f;
    db *= 0.25f;
    return db;
}

/* iteration_init's per-band quantizer adjustment (vbr-new "payload" row). */
void rl_band_factors_init(RlConfig *cfg)
{
    static const float payload_long[4] = { -0.500f, -0.250f, -0.025f, +0.500f };
    static const float payload_short[4] = { -2.000f, -1.000f, -0.050f, +0.500f };
    float db, adjust;
    int i;

    db = cfg->adjust_bass_db + payload_long[0];
    adjust = powf(10.f, db * 0.1f);
    for (i = 0; i <= 6; ++i)
        cfg->longfact[i] = adjust;
    db = cfg->adjust_alto_db + payload_long[1];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 13; ++i)
        cfg->longfact[i] = adjust;
    db = cfg->adjust_treble_db + payload_long[2];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 20; ++i)
        cfg->longfact[i] = adjust;
    db = cfg->adjust_sfb21_db + payload_long[3];
    adjust = powf(10.f, db * 0.1f);
    for (; i < RL_SBMAX_L; ++i)
        cfg->longfact[i] = adjust;

    db = cfg->adjust_bass_db + payload_short[0];
    adjust = powf(10.f, db * 0.1f);
    for (i = 0; i <= 2; ++i)
        cfg->shortfact[i] = adjust;
    db = cfg->adjust_alto_db + payload_short[1];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 6; ++i)
        cfg->shortfact[i] = adjust;
    db = cfg->adjust_treble_db + payload_short[2];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 11; ++i)
        cfg->shortfact[i] = adjust;
    db = cfg->adjust_sfb21_db + payload_short[3];
    adjust = powf(10.f, db * 0.1f);
    for (; i < RL_SBMAX_S; ++i)
        cfg->shortfact[i] = adjust;
}

static int frame_bits(const RlConfig *cfg, int kbps)
{
    /* in 64 bits: a bitrate typed with -b (free format, any size) must not
     * overflow; for every real frame the value is LAME's int result */
    long long const bits = 8LL * ((cfg->version + 1) * 72000LL * kbps / cfg->samplerate_out);
    return bits > INT_MAX ? INT_MAX : bits < INT_MIN ? INT_MIN : (int) bits;
}

/* bitstream.c get_max_frame_buffer_size_by_constraint */
static int max_frame_buffer(const RlConfig *cfg, int constraint)
{
    if (cfg->avg_bitrate > 320) {
        if (constraint == RL_MDB_STRICT_ISO)
            return frame_bits(cfg, cfg->avg_bitrate);
        return 7680 * (cfg->version + 1);
    }
    int const max_kbps = rl_bitrate_kbps(cfg->version, cfg->samplerate_out < 16000 ? 8 : 14);
    switch (constraint) {
    default:
    case RL_MDB_DEFAULT:
        return 8 * 1440;        /* a 320 kbps 32 kHz frame */
    case RL_MDB_STRICT_ISO:
        return frame_bits(cfg, max_kbps);
    case RL_MDB_MAXIMUM:
        return 7680 * (cfg->version + 1);
    }
}

/* VBR mt/mtrh: a high -V lowers the output rate and rescales the quality
 * (lame_init_params "q_map"); only when the output rate is not forced. */
static void map_vbr_quality(RlOptions *o)
{
    struct QMap { int sr_a; float qa, qb, ta, tb; int lp; };
    static const struct QMap m[9] = {
        {48000, 0.0, 6.5, 0.0, 6.5, 23700},
        {44100, 0.0, 6.5, 0.0, 6.5, 21780},
        {32000, 6.5, 8.0, 5.2, 6.5, 15800},
        {24000, 8.0, 8.5, 5.2, 6.0, 11850},
        {22050, 8.5, 9.01, 5.2, 6.5, 10892},
        {16000, 9.01, 9.4, 4.9, 6.5, 7903},
        {12000, 9.4, 9.6, 4.5, 6.0, 5928},
        {11025, 9.6, 9.9, 5.1, 6.5, 5446},
        {8000, 9.9, 10., 4.9, 6.5, 3952},
    };
    float const qval = o->vbr_q + o->vbr_q_frac;
    for (int i = 2; i < 9; ++i) {
        if (o->samplerate_in == m[i].sr_a) {
            if (qval < m[i].qa) {
                double d = qval / m[i].qa;      /* float division, then double */
                d = d * m[i].ta;
                o->vbr_q = (int) d;
                o->vbr_q_frac = d - o->vbr_q;
            }
        }
        if (o->samplerate_in >= m[i].sr_a) {
            if (m[i].qa <= qval && qval < m[i].qb) {
                float const q_ = m[i].qb - m[i].qa;
                float const t_ = m[i].tb - m[i].ta;
                double d = m[i].ta + t_ * (qval - m[i].qa) / q_;   /* float expression */
                o->vbr_q = (int) d;
                o->vbr_q_frac = d - o->vbr_q;
                o->samplerate_out = m[i].sr_a;
                if (o->lowpassfreq == 0)
                    o->lowpassfreq = -1;
                break;
            }
        }
    }
}

static double linear_int(double a, double b, double m)
{
    return a + m * (b - a);
}

/* Lowpass when none is given (lame_init_params). */
static void choose_lowpass(const RlConfig *cfg, RlOptions *o)
{
    double lowpass = 16000;

    switch (cfg->vbr) {
    case RL_VBR_OFF:
        lowpass = optimum_bandwidth(o->brate);
        break;
    case RL_VBR_ABR:
        lowpass = optimum_bandwidth(o->vbr_mean_bitrate_kbps);
        break;
    case RL_VBR_RH: {
        static const int x[11] = {
            19500, 19000, 18600, 18000, 17500, 16000, 15600, 14900, 12500, 10000, 3950
        };
        if (0 <= o->vbr_q && o->vbr_q <= 9)
            lowpass = linear_int(x[o->vbr_q], x[o->vbr_q + 1], o->vbr_q_frac);
        else
            lowpass = 19500;
        break;
    }
    case RL_VBR_MTRH:
    case RL_VBR_MT: {
        static const int x[11] = {
            24000, 19500, 18500, 18000, 17500, 17000, 16500, 15600, 15200, 7230, 3950
        };
        if (0 <= o->vbr_q && o->vbr_q <= 9)
            lowpass = linear_int(x[o->vbr_q], x[o->vbr_q + 1], o->vbr_q_frac);
        else
            lowpass = 21500;
        break;
    }
    default: {
        static const int x[11] = {
            19500, 19000, 18500, 18000, 17500, 16500, 15500, 14500, 12500, 9500, 3950
        };
        if (0 <= o->vbr_q && o->vbr_q <= 9)
            lowpass = linear_int(x[o->vbr_q], x[o->vbr_q + 1], o->vbr_q_frac);
        else
            lowpass = 19500;
        break;
    }
    }

    if (o->mode == RL_MONO && (cfg->vbr == RL_VBR_OFF || cfg->vbr == RL_VBR_ABR))
        lowpass *= 1.5;

    o->lowpassfreq = lowpass;
}

int rl_config_init(RlConfig *cfg, RlOptions *o)
{
    int version_unused;

    memset(cfg, 0, sizeof(*cfg));
    cfg->dsp = rl_dsp_table_at(RL_SIMD_SCALAR);
    /* LAME never clears its internal config: a VBR preset set at parse
     * time leaves its ATH fix point for CBR/ABR, whose preset has none */
    cfg->ath_fixpoint = o->preset_ath_fixpoint;
    /* lame_init_internal_flags; only VBR/ABR recompute these */
    cfg->vbr_min_bitrate_index = 1;
    cfg->vbr_max_bitrate_index = 13;

    if (o->samplerate_in < 1)
        return -EINVAL;
    if (o->num_channels < 1 || 2 < o->num_channels)
        return -EINVAL;
    if (o->samplerate_out != 0 && rl_smp_frq_index(o->samplerate_out, &version_unused) < 0)
        return -EINVAL;

    cfg->enforce_min_bitrate = o->vbr_hard_min;

    cfg->vbr = o->vbr;
    cfg->error_protection = o->error_protection;
    cfg->copyright = o->copyright;
    cfg->original = o->original;
    cfg->extension = o->extension;
    cfg->emphasis = o->emphasis;

    /* mode / channels */
    cfg->channels_in = o->num_channels;
    if (cfg->channels_in == 1)
        o->mode = RL_MONO;
    cfg->channels_out = (o->mode == RL_MONO) ? 1 : 2;
    if (o->mode != RL_JOINT_STEREO)
        o->force_ms = 0;        /* forced M/S is a joint-stereo variant only */
    cfg->force_ms = o->force_ms;

    if (cfg->vbr == RL_VBR_OFF && o->vbr_mean_bitrate_kbps != 128 && o->brate == 0)
        o->brate = o->vbr_mean_bitrate_kbps;

    switch (cfg->vbr) {
    case RL_VBR_OFF:
    case RL_VBR_MTRH:
    case RL_VBR_MT:
        break;                  /* these can do free format */
    default:
        o->free_format = 0;
        break;
    }
    cfg->free_format = o->free_format;

    if (cfg->vbr == RL_VBR_OFF && o->brate == 0) {
        if (o->compression_ratio == 0)
            o->compression_ratio = 11.025;      /* CD to exactly 128 kbps */
    }

    /* CBR: bitrate from the compression ratio */
    if (cfg->vbr == RL_VBR_OFF && o->compression_ratio > 0) {
        if (o->samplerate_out == 0)
            o->samplerate_out = rl_map2mp3_frequency((int) (0.97 * o->samplerate_in));
        o->brate = o->samplerate_out * 16 * cfg->channels_out / (1.e3 * o->compression_ratio);
        cfg->samplerate_index = rl_smp_frq_index(o->samplerate_out, &cfg->version);
        if (!cfg->free_format)
            o->brate = rl_find_nearest_bitrate(o->brate, cfg->version, o->samplerate_out);
    }
    if (o->samplerate_out) {
        int lo, hi;
        if (o->samplerate_out < 16000) { lo = 8; hi = 64; }
        else if (o->samplerate_out < 32000) { lo = 8; hi = 160; }
        else { lo = 32; hi = 320; }
        if (o->vbr_mean_bitrate_kbps < lo) o->vbr_mean_bitrate_kbps = lo;
        if (o->vbr_mean_bitrate_kbps > hi) o->vbr_mean_bitrate_kbps = hi;
    }

    if (o->samplerate_out == 0 && (cfg->vbr == RL_VBR_MT || cfg->vbr == RL_VBR_MTRH))
        map_vbr_quality(o);

    if (o->lowpassfreq == 0)
        choose_lowpass(cfg, o);

    if (o->samplerate_out == 0) {
        if (2 * o->lowpassfreq > o->samplerate_in)
            o->lowpassfreq = o->samplerate_in / 2;
        o->samplerate_out = optimum_samplefreq(o->lowpassfreq, o->samplerate_in);
    }
    if (cfg->vbr == RL_VBR_MT || cfg->vbr == RL_VBR_MTRH) {
        if (o->lowpassfreq > 24000) o->lowpassfreq = 24000;
    }
    else {
        if (o->lowpassfreq > 20500) o->lowpassfreq = 20500;
    }
    if (o->lowpassfreq > o->samplerate_out / 2)
        o->lowpassfreq = o->samplerate_out / 2;

    if (cfg->vbr == RL_VBR_OFF)
        o->compression_ratio = o->samplerate_out * 16 * cfg->channels_out / (1.e3 * o->brate);
    if (cfg->vbr == RL_VBR_ABR)
        o->compression_ratio =
            o->samplerate_out * 16 * cfg->channels_out / (1.e3 * o->vbr_mean_bitrate_kbps);

    cfg->disable_reservoir = o->disable_reservoir;
    cfg->lowpassfreq = o->lowpassfreq;
    cfg->highpassfreq = o->highpassfreq;
    cfg->samplerate_in = o->samplerate_in;
    cfg->samplerate_out = o->samplerate_out;
    cfg->mode_gr = cfg->samplerate_out <= 24000 ? 1 : 2;

    switch (cfg->vbr) {
    case RL_VBR_MT:
    case RL_VBR_RH:
    case RL_VBR_MTRH: {
        /* a guess, only reported */
        static const float cmp[] = { 5.7, 6.5, 7.3, 8.2, 10, 11.9, 13, 14, 15, 16.5 };
        o->compression_ratio = cmp[o->vbr_q];
        break;
    }
    case RL_VBR_ABR:
        o->compression_ratio =
            cfg->samplerate_out * 16 * cfg->channels_out / (1.e3 * o->vbr_mean_bitrate_kbps);
        break;
    default:
        o->compression_ratio = cfg->samplerate_out * 16 * cfg->channels_out / (1.e3 * o->brate);
        break;
    }

    if (o->mode == RL_MODE_NOT_SET)
        o->mode = RL_JOINT_STEREO;     /* no automatic mono */
    cfg->mode = o->mode;

    /* user highpass / lowpass as normalised frequencies (float stores) */
    if (cfg->highpassfreq > 0) {
        cfg->highpass1 = 2. * cfg->highpassfreq;
        if (o->highpasswidth >= 0)
            cfg->highpass2 = 2. * (cfg->highpassfreq + o->highpasswidth);
        else
            cfg->highpass2 = (1 + 0.00) * 2. * cfg->highpassfreq;
        cfg->highpass1 /= cfg->samplerate_out;
        cfg->highpass2 /= cfg->samplerate_out;
    }
    else {
        cfg->highpass1 = 0;
        cfg->highpass2 = 0;
    }
    cfg->lowpass1 = 0;
    cfg->lowpass2 = 0;
    if (cfg->lowpassfreq > 0 && cfg->lowpassfreq < (cfg->samplerate_out / 2)) {
        cfg->lowpass2 = 2. * cfg->lowpassfreq;
        if (o->lowpasswidth >= 0) {
            cfg->lowpass1 = 2. * (cfg->lowpassfreq - o->lowpasswidth);
            if (cfg->lowpass1 < 0)
                cfg->lowpass1 = 0;
        }
        else {
            cfg->lowpass1 = (1 - 0.00) * 2. * cfg->lowpassfreq;
        }
        cfg->lowpass1 /= cfg->samplerate_out;
        cfg->lowpass2 /= cfg->samplerate_out;
    }

    init_polyphase_filter(cfg);

    /* stream layout */
    cfg->samplerate_index = rl_smp_frq_index(cfg->samplerate_out, &cfg->version);
    if (cfg->samplerate_index < 0)
        return -EINVAL;

    if (cfg->vbr == RL_VBR_OFF && !cfg->free_format)
        o->brate = rl_find_nearest_bitrate(o->brate, cfg->version, cfg->samplerate_out);

    if (rl_sfb_bands(&cfg->sfb, cfg->samplerate_out) < 0)
        return -EINVAL;

    if (cfg->mode_gr == 2)
        cfg->sideinfo_len = (cfg->channels_out == 1) ? 4 + 17 : 4 + 32;
    else
        cfg->sideinfo_len = (cfg->channels_out == 1) ? 4 + 9 : 4 + 17;
    if (cfg->error_protection)
        cfg->sideinfo_len += 2;

    if (o->ath_type == -1)
        o->ath_type = 4;

    /* presets: VBR from -V, CBR/ABR from the bitrate */
    switch (cfg->vbr) {
    case RL_VBR_MT:
    case RL_VBR_MTRH:
        if (o->strict_iso < 0)
            o->strict_iso = RL_MDB_MAXIMUM;
        if (o->use_temporal < 0)
            o->use_temporal = 0;        /* off by default for this VBR mode */
        (void) rl_apply_preset(o, cfg, 500 - (o->vbr_q * 10), 0);
        /* the new VBR code knows only two quality levels (0 and 5..7) */
        if (o->quality < 0)
            o->quality = RL_DEFAULT_QUALITY;
        if (o->quality < 5)
            o->quality = 0;
        if (o->quality > 7)
            o->quality = 7;
        /* sfb21 extra only for MPEG-1 at high sample rates */
        cfg->sfb21_extra = o->experimental_y ? 0 : (cfg->samplerate_out > 44000);
        break;
    case RL_VBR_RH:
        (void) rl_apply_preset(o, cfg, 500 - (o->vbr_q * 10), 0);
        cfg->sfb21_extra = o->experimental_y ? 0 : (cfg->samplerate_out > 44000);
        if (o->quality > 6)
            o->quality = 6;
        if (o->quality < 0)
            o->quality = RL_DEFAULT_QUALITY;
        break;
    default:                    /* CBR / ABR */
        cfg->sfb21_extra = 0;
        if (o->quality < 0)
            o->quality = RL_DEFAULT_QUALITY;
        if (cfg->vbr == RL_VBR_OFF)
            (void) rl_set_vbr_mean_bitrate_kbps(o, o->brate);
        (void) rl_apply_preset(o, cfg, o->vbr_mean_bitrate_kbps, 0);
        o->vbr = cfg->vbr;      /* the ABR preset switched it to ABR */
        break;
    }

    cfg->mask_adjust = o->maskingadjust;
    cfg->mask_adjust_short = o->maskingadjust_short;
    if (o->tune) {
        cfg->mask_adjust += o->tune_value_a;
        cfg->mask_adjust_short += o->tune_value_a;
    }

    if (cfg->vbr != RL_VBR_OFF) {
        cfg->vbr_min_bitrate_index = 1;        /* 8 (MPEG-2) or 32 (MPEG-1) kbps */
        cfg->vbr_max_bitrate_index = 14;       /* 160 or 320 kbps */
        if (cfg->samplerate_out < 16000)
            cfg->vbr_max_bitrate_index = 8;    /* 64 kbps (MPEG-2.5) */
        if (o->vbr_min_bitrate_kbps) {
            o->vbr_min_bitrate_kbps =
                rl_find_nearest_bitrate(o->vbr_min_bitrate_kbps, cfg->version, cfg->samplerate_out);
            cfg->vbr_min_bitrate_index =
                rl_bitrate_index(o->vbr_min_bitrate_kbps, cfg->version, cfg->samplerate_out);
            if (cfg->vbr_min_bitrate_index < 0)
                cfg->vbr_min_bitrate_index = 1;
        }
        if (o->vbr_max_bitrate_kbps) {
            o->vbr_max_bitrate_kbps =
                rl_find_nearest_bitrate(o->vbr_max_bitrate_kbps, cfg->version, cfg->samplerate_out);
            cfg->vbr_max_bitrate_index =
                rl_bitrate_index(o->vbr_max_bitrate_kbps, cfg->version, cfg->samplerate_out);
            if (cfg->vbr_max_bitrate_index < 0)
                cfg->vbr_max_bitrate_index = cfg->samplerate_out < 16000 ? 8 : 14;
        }
        int const min_kbps = rl_bitrate_kbps(cfg->version, cfg->vbr_min_bitrate_index);
        int const max_kbps = rl_bitrate_kbps(cfg->version, cfg->vbr_max_bitrate_index);
        o->vbr_min_bitrate_kbps = min_kbps;
        o->vbr_max_bitrate_kbps = max_kbps;
        if (o->vbr_mean_bitrate_kbps > max_kbps)
            o->vbr_mean_bitrate_kbps = max_kbps;
        if (o->vbr_mean_bitrate_kbps < min_kbps)
            o->vbr_mean_bitrate_kbps = min_kbps;
    }

    cfg->preset = o->preset;
    cfg->write_lame_tag = o->write_lame_tag;
    cfg->substep_shaping = o->substep_shaping;
    cfg->noise_shaping = o->noise_shaping;
    cfg->subblock_gain = o->subblock_gain;
    cfg->use_best_huffman = o->use_best_huffman;
    cfg->avg_bitrate = o->brate;
    cfg->vbr_avg_bitrate_kbps = o->vbr_mean_bitrate_kbps;
    cfg->compression_ratio = o->compression_ratio;

    init_qval(cfg, o);

    /* adaptive ATH */
    cfg->ath_use_adjust = (o->athaa_type < 0) ? 3 : o->athaa_type;
    cfg->ath_aa_sensitivity_p = pow(10.0, o->athaa_sensitivity / -10.0);

    if (o->short_blocks == RL_SB_NOT_SET)
        o->short_blocks = RL_SB_ALLOWED;
    /* many decoders need coupled short blocks in (joint) stereo */
    if (o->short_blocks == RL_SB_ALLOWED
        && (cfg->mode == RL_JOINT_STEREO || cfg->mode == RL_STEREO))
        o->short_blocks = RL_SB_COUPLED;
    cfg->short_blocks = o->short_blocks;

    if (o->quant_comp < 0)
        o->quant_comp = 1;
    if (o->quant_comp_short < 0)
        o->quant_comp_short = 0;
    if (o->msfix < 0)
        o->msfix = 0;

    o->exp_nspsytune |= 1;      /* select the NS psychoacoustic model */

    if (o->ath_type < 0)
        o->ath_type = 4;
    if (o->ath_curve < 0)
        o->ath_curve = 4;
    if (o->interch_ratio < 0)
        o->interch_ratio = 0;
    if (o->use_temporal < 0)
        o->use_temporal = 1;

    cfg->interch_ratio = o->interch_ratio;
    cfg->msfix = o->msfix;
    cfg->ath_offset_db = 0 - o->ath_lower_db;
    cfg->ath_offset_factor = powf(10.f, cfg->ath_offset_db * 0.1f);
    cfg->ath_curve = o->ath_curve;
    cfg->ath_type = o->ath_type;
    cfg->ath_only = o->ath_only;
    cfg->ath_short = o->ath_short;
    cfg->no_ath = o->no_ath;

    cfg->quant_comp = o->quant_comp;
    cfg->quant_comp_short = o->quant_comp_short;

    cfg->use_temporal_masking_effect = o->use_temporal;
    cfg->use_safe_joint_stereo = (cfg->mode == RL_JOINT_STEREO) ? (o->exp_nspsytune & 2) : 0;

    cfg->adjust_bass_db = nspsy_db(o->exp_nspsytune, 2);
    cfg->adjust_alto_db = nspsy_db(o->exp_nspsytune, 8);
    cfg->adjust_treble_db = nspsy_db(o->exp_nspsytune, 14);
    /* Naoki's sfb21 bits change the treble value for sfb21 only */
    cfg->adjust_sfb21_db = nspsy_db(o->exp_nspsytune, 20);
    cfg->adjust_sfb21_db += cfg->adjust_treble_db;

    /* PCM input matrix: user scaling and the 2->1 downmix */
    {
        float m[2][2] = { {1.0f, 0.0f}, {0.0f, 1.0f} };
        m[0][0] *= o->scale;
        m[0][1] *= o->scale;
        m[1][0] *= o->scale;
        m[1][1] *= o->scale;
        m[0][0] *= o->scale_left;
        m[0][1] *= o->scale_left;
        m[1][0] *= o->scale_right;
        m[1][1] *= o->scale_right;
        if (cfg->channels_in == 2 && cfg->channels_out == 1) {
            m[0][0] = 0.5f * (m[0][0] + m[1][0]);
            m[0][1] = 0.5f * (m[0][1] + m[1][1]);
            m[1][0] = 0;
            m[1][1] = 0;
        }
        /* --swap-channel: LAME's reader hands the encoder (R, L), so each
         * output takes its two inputs the other way round (the float sum
         * is the same).  Its mono "right" channel is all zeros, and a mono
         * encoder reads only the left one: mono input becomes silence. */
        if (o->swap_channels) {
            for (int ch = 0; ch < 2; ch++) {
                float const t = m[ch][0];
                m[ch][0] = cfg->channels_in == 2 ? m[ch][1] : 0.0f;
                m[ch][1] = cfg->channels_in == 2 ? t : 0.0f;
            }
        }
        memcpy(cfg->pcm_transform, m, sizeof(m));
    }

    /* CBR padding (no padding in the very first frame) */
    cfg->frac_spf = 0;
    if (cfg->vbr == RL_VBR_OFF)
        cfg->frac_spf = ((cfg->version + 1) * 72000L * cfg->avg_bitrate) % cfg->samplerate_out;

    /* lame_init_bitstream -> InitVbrTag: no tag frame if the LAME header
     * does not fit into a frame at the tag's bitrate */
    if (cfg->write_lame_tag) {
        int kbps_header;
        if (cfg->version == 1)
            kbps_header = 128;
        else
            kbps_header = cfg->samplerate_out < 16000 ? 32 : 64;
        if (cfg->vbr == RL_VBR_OFF)
            kbps_header = cfg->avg_bitrate;
        int const total = ((cfg->version + 1) * 72000 * kbps_header) / cfg->samplerate_out;
        if (total < cfg->sideinfo_len + RL_LAMEHEADERSIZE || total > RL_MAXFRAMESIZE)
            cfg->write_lame_tag = 0;
    }

    /* iteration_init: per-band quantizer weights */
    rl_band_factors_init(cfg);

    /* psymodel_init: the effective M/S masking fix, written back into the config */
    {
        float msfix = RL_NS_MSFIX;
        if (cfg->use_safe_joint_stereo)
            msfix = 1.0;
        if (fabs(cfg->msfix) > 0.0)
            msfix = cfg->msfix;
        cfg->msfix = msfix;
    }

    /* psymodel_init: short block attack thresholds (ordinary float stores) */
    {
        float x = o->attackthre;
        float y = o->attackthre_s;
        if (x < 0)
            x = RL_NSATTACKTHRE;
        if (y < 0)
            y = RL_NSATTACKTHRE_S;
        cfg->attack_threshold_lrm = x;
        cfg->attack_threshold_s = y;
    }
    cfg->force_short_block_calc = o->experimental_z;

    cfg->buffer_constraint = max_frame_buffer(cfg, o->strict_iso);

    cfg->find_replay_gain = o->find_replay_gain;
    cfg->decode_on_the_fly = o->decode_on_the_fly;
    if (cfg->decode_on_the_fly)
        cfg->find_peak_sample = 1;

    /* values read later from gfp */
    cfg->vbr_q = o->vbr_q;
    cfg->vbr_q_frac = o->vbr_q_frac;
    cfg->vbr_quality = o->vbr_q + o->vbr_q_frac;
    cfg->quality = o->quality;
    cfg->ath_lower_db = o->ath_lower_db;
    cfg->ath_aa_sensitivity = o->athaa_sensitivity;
    cfg->brate = o->brate;
    cfg->strict_iso = o->strict_iso;
    cfg->exp_nspsytune = o->exp_nspsytune;
    cfg->scale = o->scale;
    cfg->frame_size = 576 * cfg->mode_gr;
    return 0;
}
