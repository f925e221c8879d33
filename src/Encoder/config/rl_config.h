/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encoder settings, fixed once before the first frame and
 * read-only afterwards (LAME: SessionConfig_t plus what lame_init_params
 * derives).  Owner: settings.c (rl_config_init).  Every stage may read it
 * from any thread without a lock because nothing writes it after init. */
#ifndef RL_CONFIG_H
#define RL_CONFIG_H

#include "rl_types.h"

typedef struct RlConfig {
    int version;            /* 1 = MPEG-1, 0 = MPEG-2/2.5 */
    int samplerate_index;
    int sideinfo_len;       /* bytes incl. 4-byte header (+2 with CRC) */

    int noise_shaping;
    int subblock_gain;
    int use_best_huffman;
    int noise_shaping_amp;
    int noise_shaping_stop;
    int full_outer_loop;

    int lowpassfreq;
    int highpassfreq;
    int samplerate_in;
    int samplerate_out;
    int channels_in;
    int channels_out;
    int mode_gr;            /* granules per frame: 2 (MPEG-1) or 1 */
    int force_ms;

    int quant_comp;
    int quant_comp_short;
    int use_temporal_masking_effect;
    int use_safe_joint_stereo;
    int preset;

    RlVbrMode vbr;
    int vbr_avg_bitrate_kbps;
    int vbr_min_bitrate_index;
    int vbr_max_bitrate_index;
    int avg_bitrate;
    int enforce_min_bitrate;

    int find_replay_gain;
    int find_peak_sample;
    int decode_on_the_fly;
    int disable_reservoir;
    int buffer_constraint;
    int free_format;
    int write_lame_tag;

    int error_protection;
    int copyright;
    int original;
    int extension;
    int emphasis;

    RlMpegMode mode;
    RlShortBlockMode short_blocks;

    float interch_ratio;
    float msfix;
    float ath_offset_db;
    float ath_offset_factor;
    float ath_curve;
    int   ath_type;
    int   ath_only;
    int   ath_short;
    int   no_ath;
    float ath_fixpoint;

    float adjust_alto_db;
    float adjust_bass_db;
    float adjust_treble_db;
    float adjust_sfb21_db;

    float compression_ratio;

    float lowpass1, lowpass2;     /* normalised passband bounds (LAME FLOAT) */
    float highpass1, highpass2;
    int   highpass_dropped;       /* a highpass below the first band edge was turned off */

    float pcm_transform[2][2];    /* input matrix incl. scale and downmix */
    float minval;
    float amp_filter[32];         /* polyphase band gains from lowpass/highpass (lame_init_params_ppflt) */

    /* --- from lame_global_flags, needed after init --- */
    int   vbr_q;                  /* integer -V (0..9) after the q-map */
    float vbr_quality;            /* the float -V after the q-map */
    int   quality;                /* -q after the VBR mapping */
    float ath_lower_db;           /* ATHlower */
    float ath_aa_sensitivity;
    int   brate;                  /* kbps (CBR), or the nominal rate */

    /* --- quantizer constants set at init (LAME: parts of QntStateVar_t) --- */
    float longfact[RL_SBMAX_L];
    float shortfact[RL_SBMAX_S];
    float mask_adjust;
    float mask_adjust_short;
    int   sfb21_extra;
    int   substep_shaping;

    /* --- derived layout --- */
    RlSfbBands sfb;               /* LAME: gfc->scalefac_band */
    int   frame_size;             /* samples per channel per frame: 576*mode_gr */

    /* helper D1: Huffman region split per big_values (LAME sv_qnt.bv_scf),
     * filled by rl_huffman_config(cfg) after sfb is set */
    char  bv_scf[576];
    /* the first long band ending past big_values, by big_values / 2 (the
     * outer loop's count1 band), also from rl_huffman_config */
    unsigned char bv_sfb[576 / 2 + 1];

    /* gfp values that LAME reads after lame_init_params (set by rl_config_init) */
    float vbr_q_frac;             /* gfp->VBR_q_frac after init (psymodel_init sk[] LERP) */
    float attack_threshold_lrm;   /* gfp->attackthre; rl_config_init resolves <0 to NSATTACKTHRE 4.4 */
    float attack_threshold_s;     /* gfp->attackthre_s; <0 resolved to NSATTACKTHRE_S 25 */
    int   force_short_block_calc; /* gfp->experimentalZ */
    int   ath_use_adjust;         /* ATH->use_adjust: athaa_type, -1 -> 3 */
    float ath_aa_sensitivity_p;   /* ATH->aa_sensitivity_p = pow(10.0, athaa_sensitivity / -10.0) */
    int   frac_spf;               /* CBR only: sv_enc.frac_SpF = slot_lag start; 0 for VBR */
    int   strict_iso;             /* gfp->strict_ISO (RL_MDB_*) */
    int   exp_nspsytune;          /* gfp->exp_nspsytune after init */
    float scale;                  /* gfp->scale after init (CBR/ABR presets multiply it) */
    /* ringlame: the kernels (dsp.h).  rl_config_init points it at the scalar
     * table, the encoder at its SIMD level's (rl_dsp_table_at) */
    const struct RlDsp *dsp;
} RlConfig;

#endif
