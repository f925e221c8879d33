/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: user-facing encoder options (LAME: the part of lame_global_flags
 * that the command line sets), their setters, and the derivation of the
 * read-only RlConfig from them (LAME: lame_init_params).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 * Stage (every function here): none per frame: the option parser (rl_set_*, presets) and init (rl_config_init runs in rl_encoder_create; rl_options_frame_size before it). */
#ifndef RL_SETTINGS_H
#define RL_SETTINGS_H

#include "rl_config.h"

/* LAME's buffer constraints (strict_ISO values). */
enum { RL_MDB_DEFAULT = 0, RL_MDB_STRICT_ISO = 1, RL_MDB_MAXIMUM = 2 };

/* LAME's preset numbers (lame.h preset_mode). */
enum {
    RL_PRESET_V9 = 410, RL_PRESET_V8 = 420, RL_PRESET_V7 = 430, RL_PRESET_V6 = 440,
    RL_PRESET_V5 = 450, RL_PRESET_V4 = 460, RL_PRESET_V3 = 470, RL_PRESET_V2 = 480,
    RL_PRESET_V1 = 490, RL_PRESET_V0 = 500,
    RL_PRESET_R3MIX = 1000, RL_PRESET_STANDARD = 1001, RL_PRESET_EXTREME = 1002,
    RL_PRESET_INSANE = 1003, RL_PRESET_STANDARD_FAST = 1004, RL_PRESET_EXTREME_FAST = 1005,
    RL_PRESET_MEDIUM = 1006, RL_PRESET_MEDIUM_FAST = 1007
};

/* Field names, types, defaults and sentinels follow lame_global_flags
 * (lame_init_old).  -1 means "LAME picks" where LAME uses it that way.
 * rl_config_init writes back into the options what lame_init_params writes
 * back into gfp (mode, quality, VBR_q, samplerate_out, lowpassfreq, ...). */
typedef struct RlOptions {
    /* input description */
    int   num_channels;          /* 2 */
    int   samplerate_in;         /* 44100 */
    int   samplerate_out;        /* 0 = LAME picks */
    float scale;                 /* 1 */
    float scale_left;            /* 1 */
    float scale_right;           /* 1 */
    int   swap_channels;         /* 0; the front end's --swap-channel: LAME's
                                    reader swaps L and R before the encoder */

    /* general control */
    int   write_lame_tag;        /* 1 (bWriteVbrTag) */
    int   quality;               /* -1 = LAME picks (3; VBR mt/mtrh maps it) */
    RlMpegMode mode;             /* RL_MODE_NOT_SET */
    int   force_ms;              /* 0 */
    int   free_format;           /* 0 */
    int   find_replay_gain;      /* 0 in the library; the CLI turns it on */
    int   decode_on_the_fly;     /* 0 */
    int   substep_shaping;       /* 0 */
    int   noise_shaping;         /* 0 */
    int   subblock_gain;         /* -1 */
    int   use_best_huffman;      /* 0 */
    int   brate;                 /* 0: kbps for CBR */
    float compression_ratio;     /* 0 */

    /* frame header */
    int   copyright;             /* 0 */
    int   original;              /* 1 */
    int   extension;             /* 0 */
    int   emphasis;              /* 0 */
    int   error_protection;      /* 0 */
    int   strict_iso;            /* RL_MDB_MAXIMUM */
    int   disable_reservoir;     /* 0 */

    /* quantization / noise shaping */
    int   quant_comp;            /* -1 */
    int   quant_comp_short;      /* -1 */
    int   experimental_y;        /* 0 */
    int   experimental_z;        /* 0 */
    int   exp_nspsytune;         /* 0 (bit 1 = psy, 2 = safe joint, >>2.. ns-bass etc.) */
    int   preset;                /* 0 */
    float preset_ath_fixpoint;   /* 0; the ATH fix point a parse-time VBR preset
                                    (--r3mix) wrote into LAME's internal config,
                                    where it outlives a later switch to CBR/ABR */

    /* VBR control */
    RlVbrMode vbr;               /* RL_VBR_OFF */
    float vbr_q_frac;            /* 0, range [0,1) */
    int   vbr_q;                 /* 4, range 0..9 */
    int   vbr_mean_bitrate_kbps; /* 128 */
    int   vbr_min_bitrate_kbps;  /* 0 */
    int   vbr_max_bitrate_kbps;  /* 0 */
    int   vbr_hard_min;          /* 0 */

    /* filters */
    int   lowpassfreq;           /* 0 = LAME picks, -1 = off */
    int   highpassfreq;          /* 0 = LAME picks (none), -1 = off */
    int   lowpasswidth;          /* -1 */
    int   highpasswidth;         /* -1 */

    /* psychoacoustics */
    float maskingadjust;         /* 0 */
    float maskingadjust_short;   /* 0 */
    int   ath_only;              /* 0 */
    int   ath_short;             /* 0 */
    int   no_ath;                /* 0 */
    int   ath_type;              /* -1 */
    float ath_curve;             /* -1 */
    float ath_lower_db;          /* 0 */
    int   athaa_type;            /* -1 */
    float athaa_sensitivity;     /* 0 */
    RlShortBlockMode short_blocks; /* RL_SB_NOT_SET */
    int   use_temporal;          /* -1 */
    float interch_ratio;         /* -1 */
    float msfix;                 /* -1 */
    int   tune;                  /* 0 */
    float tune_value_a;          /* 0 */
    float attackthre;            /* -1 */
    float attackthre_s;          /* -1 */

    /* ringlame: the SIMD level of the kernels (dsp.h RL_SIMD_*); -1 = this
     * CPU's best.  A level above the CPU's is refused (-ENOTSUP) at init. */
    int   simd_level;            /* -1 */
} RlOptions;

/* lame_init_old defaults. */
void rl_options_defaults(RlOptions *o);

/* Setters with lame_set_* semantics: same validation (return -1 and leave
 * the value unchanged where LAME does) and the same clamping. */
int rl_set_in_samplerate(RlOptions *o, int hz);
int rl_set_num_channels(RlOptions *o, int n);
int rl_set_scale(RlOptions *o, float s);
int rl_set_scale_left(RlOptions *o, float s);
int rl_set_scale_right(RlOptions *o, float s);
int rl_set_swap_channels(RlOptions *o, int on);
int rl_set_out_samplerate(RlOptions *o, int hz);   /* 0 or an MPEG rate */
int rl_set_write_lame_tag(RlOptions *o, int on);   /* lame_set_bWriteVbrTag */
int rl_set_quality(RlOptions *o, int q);           /* clamped 0..9 */
int rl_set_mode(RlOptions *o, RlMpegMode m);
int rl_set_force_ms(RlOptions *o, int on);
int rl_set_find_replay_gain(RlOptions *o, int on);
/* lame_set_decode_on_the_fly: decode the output as it is made, find its
 * peak sample and (with ReplayGain on) analyse it instead of the input */
int rl_set_decode_on_the_fly(RlOptions *o, int on);
int rl_set_brate(RlOptions *o, int kbps);          /* >320 also disables the reservoir */
int rl_set_compression_ratio(RlOptions *o, float ratio);
int rl_set_error_protection(RlOptions *o, int on);
int rl_set_strict_iso(RlOptions *o, int mdb);
int rl_set_disable_reservoir(RlOptions *o, int on);
int rl_set_vbr(RlOptions *o, RlVbrMode v);
int rl_set_vbr_q(RlOptions *o, int q);             /* integer, clamps 0..9, frac = 0 */
int rl_set_vbr_quality(RlOptions *o, float q);     /* float, clamps 0..9.999 */
int rl_set_vbr_mean_bitrate_kbps(RlOptions *o, int kbps);
int rl_set_vbr_min_bitrate_kbps(RlOptions *o, int kbps);
int rl_set_vbr_max_bitrate_kbps(RlOptions *o, int kbps);
int rl_set_vbr_hard_min(RlOptions *o, int on);       /* -F: the minimum also for silence */
int rl_set_lowpassfreq(RlOptions *o, int hz);
int rl_set_lowpasswidth(RlOptions *o, int hz);
int rl_set_highpassfreq(RlOptions *o, int hz);
int rl_set_highpasswidth(RlOptions *o, int hz);
int rl_set_copyright(RlOptions *o, int on);
int rl_set_original(RlOptions *o, int on);
int rl_set_emphasis(RlOptions *o, int e);
int rl_set_experimental_y(RlOptions *o, int v);
int rl_set_experimental_z(RlOptions *o, int v);
int rl_set_athaa_sensitivity(RlOptions *o, float db);
int rl_set_interch_ratio(RlOptions *o, float r);   /* 0..1 only */
int rl_set_msfix(RlOptions *o, double msfix);
/* lame_set_preset: applies the preset with enforce=1 (parse time).  The
 * ATH fix point it sets is kept for rl_config_init (see RlOptions). */
int rl_set_preset(RlOptions *o, int preset);

/* presets.c: LAME apply_preset.  `cfg` receives minval and ATHfixpoint as in
 * LAME (which writes them into gfc->cfg); may be NULL at parse time.
 * Returns the preset actually applied. */
int rl_apply_preset(RlOptions *o, RlConfig *cfg, int preset, int enforce);

/* lame_init_params: derive every constant the encoder needs.  Returns 0, or
 * -EINVAL for impossible input (sample rate < 1, channels not 1..2, illegal
 * output rate).  Fills *cfg completely (it is zeroed first). */
int rl_config_init(RlConfig *cfg, RlOptions *opt);

/* lame_get_framesize() for these options (frame_size.c): the samples per
 * channel lame's front end reads per lame_encode_buffer call (1152 or
 * 576); -errno when the options are impossible (rl_config_init). */
int rl_options_frame_size(const RlOptions *opt);
/* The same from a derived config (rl_config_init's result). */
int rl_config_frame_size(const RlConfig *cfg);

/* iteration_init's per-band quantizer weights (longfact/shortfact) from the
 * adjust_*_db values; part of rl_config_init, exported for tests. */
void rl_band_factors_init(RlConfig *cfg);

#endif
