/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: VBR and ABR presets (LAME apply_preset): tuning tables indexed
 * by -V level or bitrate, interpolated by the fractional -V part.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "settings.h"
#include "tables.h"

#include <math.h>

typedef struct VbrPresetRow {
    int   vbr_q;
    int   quant_comp;
    int   quant_comp_s;
    int   exp_y;
    float st_lrm;             /* short block threshold */
    float st_s;
    float masking_adj;
    float masking_adj_short;
    float ath_lower;
    float ath_curve;
    float ath_sensitivity;
    float interch;
    int   safejoint;
    int   sfb21mod;
    float msfix;
    float minval;
    float ath_fixpoint;
} VbrPresetRow;

/* vbr_rh (--vbr-old) tuning. */
static const VbrPresetRow vbr_old_map[11] = {
    {0,  9, 9, 0, 5.20, 125.0, -4.2,  -6.3,   4.8,   1,     0, 0,      2, 21, 0.97, 5, 100},
    {1,  9, 9, 0, 5.30, 125.0, -3.6,  -5.6,   4.5,   1.5,   0, 0,      2, 21, 1.35, 5, 100},
    {2,  9, 9, 0, 5.60, 125.0, -2.2,  -3.5,   2.8,   2,     0, 0,      2, 21, 1.49, 5, 100},
    {3,  9, 9, 1, 5.80, 130.0, -1.8,  -2.8,   2.6,   3,    -4, 0,      2, 20, 1.64, 5, 100},
    {4,  9, 9, 1, 6.00, 135.0, -0.7,  -1.1,   1.1,   3.5,  -8, 0,      2,  0, 1.79, 5, 100},
    {5,  9, 9, 1, 6.40, 140.0,  0.5,   0.4,  -7.5,   4,   -12, 0.0002, 0,  0, 1.95, 5, 100},
    {6,  9, 9, 1, 6.60, 145.0,  0.67,  0.65, -14.7,  6.5, -19, 0.0004, 0,  0, 2.30, 5, 100},
    {7,  9, 9, 1, 6.60, 145.0,  0.8,   0.75, -19.7,  8,   -22, 0.0006, 0,  0, 2.70, 5, 100},
    {8,  9, 9, 1, 6.60, 145.0,  1.2,   1.15, -27.5, 10,   -23, 0.0007, 0,  0, 0,    5, 100},
    {9,  9, 9, 1, 6.60, 145.0,  1.6,   1.6,  -36,   11,   -25, 0.0008, 0,  0, 0,    5, 100},
    {10, 9, 9, 1, 6.60, 145.0,  2.0,   2.0,  -36,   12,   -25, 0.0008, 0,  0, 0,    5, 100},
};

/* vbr_mt / vbr_mtrh (-V, --vbr-new) tuning. */
static const VbrPresetRow vbr_mt_map[11] = {
    {0,  9, 9, 0,  4.20,  25.0, -6.8, -6.8,   7.1,  1,    0, 0,      2, 31, 1.000, 5, 100},
    {1,  9, 9, 0,  4.20,  25.0, -4.8, -4.8,   5.4,  1.4, -1, 0,      2, 27, 1.122, 5,  98},
    {2,  9, 9, 0,  4.20,  25.0, -2.6, -2.6,   3.7,  2.0, -3, 0,      2, 23, 1.288, 5,  97},
    {3,  9, 9, 1,  4.20,  25.0, -1.6, -1.6,   2.0,  2.0, -5, 0,      2, 18, 1.479, 5,  96},
    {4,  9, 9, 1,  4.20,  25.0, -0.0, -0.0,   0.0,  2.0, -8, 0,      2, 12, 1.698, 5,  95},
    {5,  9, 9, 1,  4.20,  25.0,  1.3,  1.3,  -6,    3.5, -11, 0,     2,  8, 1.950, 5,  94.2},
    {6,  9, 9, 1,  4.50, 100.0,  2.2,  2.3, -12.0,  6.0, -14, 0,     2,  4, 2.239, 3,  93.9},
    {7,  9, 9, 1,  4.80, 200.0,  2.7,  2.7, -18.0,  9.0, -17, 0,     2,  0, 2.570, 1,  93.6},
    {8,  9, 9, 1,  5.30, 300.0,  2.8,  2.8, -21.0, 10.0, -23, 0.0002, 0, 0, 2.951, 0,  93.3},
    {9,  9, 9, 1,  6.60, 300.0,  2.8,  2.8, -23.0, 11.0, -25, 0.0006, 0, 0, 3.388, 0,  93.3},
    {10, 9, 9, 1, 25.00, 300.0,  2.8,  2.8, -25.0, 12.0, -27, 0.0025, 0, 0, 3.500, 0,  93.3},
};

/* LAME's SET_OPTION rule: with enforce=0 a value is only replaced while it
 * still equals its "not set" sentinel. */
static int may_set(int enforce, double current, double sentinel)
{
    return enforce || !(fabs(current - sentinel) > 0);
}

/* float LERP exactly as LAME: p + x*(q - p) in float. */
static float lerp_f(float p, float q, float x)
{
    return p + x * (q - p);
}

static void apply_vbr_preset(RlOptions *o, RlConfig *cfg, int a, int enforce)
{
    const VbrPresetRow *map =
        (o->vbr == RL_VBR_MT || o->vbr == RL_VBR_MTRH) ? vbr_mt_map : vbr_old_map;
    float const x = o->vbr_q_frac;
    VbrPresetRow p = map[a];
    VbrPresetRow const q = map[a + 1];

    p.st_lrm = lerp_f(p.st_lrm, q.st_lrm, x);
    p.st_s = lerp_f(p.st_s, q.st_s, x);
    p.masking_adj = lerp_f(p.masking_adj, q.masking_adj, x);
    p.masking_adj_short = lerp_f(p.masking_adj_short, q.masking_adj_short, x);
    p.ath_lower = lerp_f(p.ath_lower, q.ath_lower, x);
    p.ath_curve = lerp_f(p.ath_curve, q.ath_curve, x);
    p.ath_sensitivity = lerp_f(p.ath_sensitivity, q.ath_sensitivity, x);
    p.interch = lerp_f(p.interch, q.interch, x);
    /* int field: computed in float, truncated on assignment as in LAME */
    p.sfb21mod = (int) (p.sfb21mod + x * (q.sfb21mod - p.sfb21mod));
    p.msfix = lerp_f(p.msfix, q.msfix, x);
    p.minval = lerp_f(p.minval, q.minval, x);
    p.ath_fixpoint = lerp_f(p.ath_fixpoint, q.ath_fixpoint, x);

    (void) rl_set_vbr_q(o, p.vbr_q);      /* also zeroes vbr_q_frac */
    if (may_set(enforce, o->quant_comp, -1))
        o->quant_comp = p.quant_comp;
    if (may_set(enforce, o->quant_comp_short, -1))
        o->quant_comp_short = p.quant_comp_s;
    if (p.exp_y)
        o->experimental_y = p.exp_y;
    if (may_set(enforce, o->attackthre, -1))
        o->attackthre = p.st_lrm;
    if (may_set(enforce, o->attackthre_s, -1))
        o->attackthre_s = p.st_s;
    if (may_set(enforce, o->maskingadjust, 0))
        o->maskingadjust = p.masking_adj;
    if (may_set(enforce, o->maskingadjust_short, 0))
        o->maskingadjust_short = p.masking_adj_short;
    if (o->vbr == RL_VBR_MT || o->vbr == RL_VBR_MTRH)
        o->ath_type = 5;
    if (may_set(enforce, o->ath_lower_db, 0))
        o->ath_lower_db = p.ath_lower;
    if (may_set(enforce, o->ath_curve, -1))
        o->ath_curve = p.ath_curve;
    if (may_set(enforce, o->athaa_sensitivity, 0))
        o->athaa_sensitivity = p.ath_sensitivity;
    if (p.interch > 0) {
        if (may_set(enforce, o->interch_ratio, -1))
            (void) rl_set_interch_ratio(o, p.interch);
    }
    if (p.safejoint > 0)
        o->exp_nspsytune |= 2;
    if (p.sfb21mod > 0) {
        int const nsp = o->exp_nspsytune;
        if (((nsp >> 20) & 63) == 0)
            o->exp_nspsytune = (p.sfb21mod << 20) | nsp;
    }
    if (may_set(enforce, o->msfix, -1))
        (void) rl_set_msfix(o, p.msfix);

    if (enforce == 0) {
        o->vbr_q = a;
        o->vbr_q_frac = x;
    }
    if (cfg) {
        cfg->minval = p.minval;
        /* gain adjustment of the ATH fix point; double on purpose (LAME) */
        double const ax = fabs(o->scale);
        double const y = (ax > 0.f) ? (10.f * log10(ax)) : 0.f;
        cfg->ath_fixpoint = p.ath_fixpoint - y;
    }
}

typedef struct AbrPresetRow {
    int   abr_kbps;
    int   quant_comp;
    int   quant_comp_s;
    int   safejoint;
    float nsmsfix;
    float st_lrm;
    float st_s;
    float scale;
    float masking_adj;
    float ath_lower;
    float ath_curve;
    float interch;
    int   sfscale;
} AbrPresetRow;

static const AbrPresetRow abr_map[17] = {
    {  8, 9, 9, 0, 0,    6.60, 145, 0.95,   0, -30.0, 11,   0.0012, 1},
    { 16, 9, 9, 0, 0,    6.60, 145, 0.95,   0, -25.0, 11,   0.0010, 1},
    { 24, 9, 9, 0, 0,    6.60, 145, 0.95,   0, -20.0, 11,   0.0010, 1},
    { 32, 9, 9, 0, 0,    6.60, 145, 0.95,   0, -15.0, 11,   0.0010, 1},
    { 40, 9, 9, 0, 0,    6.60, 145, 0.95,   0, -10.0, 11,   0.0009, 1},
    { 48, 9, 9, 0, 0,    6.60, 145, 0.95,   0, -10.0, 11,   0.0009, 1},
    { 56, 9, 9, 0, 0,    6.60, 145, 0.95,   0,  -6.0, 11,   0.0008, 1},
    { 64, 9, 9, 0, 0,    6.60, 145, 0.95,   0,  -2.0, 11,   0.0008, 1},
    { 80, 9, 9, 0, 0,    6.60, 145, 0.95,   0,    .0,  8,   0.0007, 1},
    { 96, 9, 9, 0, 2.50, 6.60, 145, 0.95,   0,   1.0,  5.5, 0.0006, 1},
    {112, 9, 9, 0, 2.25, 6.60, 145, 0.95,   0,   2.0,  4.5, 0.0005, 1},
    {128, 9, 9, 0, 1.95, 6.40, 140, 0.95,   0,   3.0,  4,   0.0002, 1},
    {160, 9, 9, 1, 1.79, 6.00, 135, 0.95,  -2,   5.0,  3.5, 0,      1},
    {192, 9, 9, 1, 1.49, 5.60, 125, 0.97,  -4,   7.0,  3,   0,      0},
    {224, 9, 9, 1, 1.25, 5.20, 125, 0.98,  -6,   9.0,  2,   0,      0},
    {256, 9, 9, 1, 0.97, 5.20, 125, 1.00,  -8,  10.0,  1,   0,      0},
    {320, 9, 9, 1, 0.90, 5.20, 125, 1.00, -10,  12.0,  0,   0,      0},
};

static int apply_abr_preset(RlOptions *o, RlConfig *cfg, int preset, int enforce)
{
    int const r = rl_nearest_bitrate_full_index(preset);
    AbrPresetRow const *row = &abr_map[r];

    (void) rl_set_vbr(o, RL_VBR_ABR);
    o->vbr_mean_bitrate_kbps = preset;
    if (o->vbr_mean_bitrate_kbps > 320) o->vbr_mean_bitrate_kbps = 320;
    if (o->vbr_mean_bitrate_kbps < 8) o->vbr_mean_bitrate_kbps = 8;
    (void) rl_set_brate(o, o->vbr_mean_bitrate_kbps);

    if (row->safejoint > 0)
        o->exp_nspsytune |= 2;
    if (row->sfscale > 0)
        o->noise_shaping = 2;         /* lame_set_sfscale(1) */

    if (may_set(enforce, o->quant_comp, -1))
        o->quant_comp = row->quant_comp;
    if (may_set(enforce, o->quant_comp_short, -1))
        o->quant_comp_short = row->quant_comp_s;
    if (may_set(enforce, o->msfix, -1))
        (void) rl_set_msfix(o, row->nsmsfix);
    if (may_set(enforce, o->attackthre, -1))
        o->attackthre = row->st_lrm;
    if (may_set(enforce, o->attackthre_s, -1))
        o->attackthre_s = row->st_s;

    /* ABR/CBR at low rates scale the input down against clipping */
    o->scale = o->scale * row->scale;

    if (may_set(enforce, o->maskingadjust, 0))
        o->maskingadjust = row->masking_adj;
    if (may_set(enforce, o->maskingadjust_short, 0)) {
        /* float * double in LAME, rounded to float by the setter */
        if (row->masking_adj > 0)
            o->maskingadjust_short = (float) (row->masking_adj * .9);
        else
            o->maskingadjust_short = (float) (row->masking_adj * 1.1);
    }
    if (may_set(enforce, o->ath_lower_db, 0))
        o->ath_lower_db = row->ath_lower;
    if (may_set(enforce, o->ath_curve, -1))
        o->ath_curve = row->ath_curve;
    if (may_set(enforce, o->interch_ratio, -1))
        (void) rl_set_interch_ratio(o, row->interch);

    if (cfg)
        cfg->minval = 5. * (row->abr_kbps / 320.);
    return preset;
}

int rl_apply_preset(RlOptions *o, RlConfig *cfg, int preset, int enforce)
{
    switch (preset) {           /* legacy names */
    case RL_PRESET_R3MIX:
        preset = RL_PRESET_V3;
        (void) rl_set_vbr(o, RL_VBR_MTRH);
        break;
    case RL_PRESET_MEDIUM:
    case RL_PRESET_MEDIUM_FAST:
        preset = RL_PRESET_V4;
        (void) rl_set_vbr(o, RL_VBR_MTRH);
        break;
    case RL_PRESET_STANDARD:
    case RL_PRESET_STANDARD_FAST:
        preset = RL_PRESET_V2;
        (void) rl_set_vbr(o, RL_VBR_MTRH);
        break;
    case RL_PRESET_EXTREME:
    case RL_PRESET_EXTREME_FAST:
        preset = RL_PRESET_V0;
        (void) rl_set_vbr(o, RL_VBR_MTRH);
        break;
    case RL_PRESET_INSANE:
        preset = 320;
        o->preset = preset;
        (void) apply_abr_preset(o, cfg, preset, enforce);
        (void) rl_set_vbr(o, RL_VBR_OFF);
        return preset;
    default:
        break;
    }

    o->preset = preset;
    if (preset >= RL_PRESET_V9 && preset <= RL_PRESET_V0 && preset % 10 == 0) {
        apply_vbr_preset(o, cfg, (RL_PRESET_V0 - preset) / 10, enforce);
        return preset;
    }
    if (8 <= preset && preset <= 320)
        return apply_abr_preset(o, cfg, preset, enforce);

    o->preset = 0;              /* no such preset */
    return preset;
}
