/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: absolute threshold of hearing (ATH) curves and per-band tables.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>

#include "psy.h"
#include "rl_config.h"

#define ATH_MDCT_SCALE 100   /* dB between the ATH formula and MDCT energy units */

/* Painter & Spanias curve as tuned by G. Bouvigne; f in Hz, or < -0.3 to ask
 * for the position of the minimum.  Intermediate terms are double. */
static float ath_formula_gb(float f, float value, float f_min, float f_max)
{
    if (f < -.3)
        f = 3410;
    f /= 1000;                   /* kHz, rounded to float */
    f = f_min > f ? f_min : f;
    f = f_max < f ? f_max : f;
    return (float)(3.640 * pow(f, -0.8)
                   - 6.800 * exp(-0.6 * pow(f - 3.4, 2.0))
                   + 6.000 * exp(-0.15 * pow(f - 8.7, 2.0))
                   + (0.6 + 0.04 * value) * 0.001 * pow(f, 4.0));
}

float rl_ath_formula(const RlConfig *cfg, float f)
{
    switch (cfg->ath_type) {
    case 0:  return ath_formula_gb(f, 9, 0.1f, 24.0f);
    case 1:  return ath_formula_gb(f, -1, 0.1f, 24.0f);
    case 2:  return ath_formula_gb(f, 0, 0.1f, 24.0f);
    case 3:  return ath_formula_gb(f, 1, 0.1f, 24.0f) + 6;
    case 4:  return ath_formula_gb(f, cfg->ath_curve, 0.1f, 24.0f);
    case 5:  return ath_formula_gb(f, cfg->ath_curve, 3.41f, 16.1f);
    default: return ath_formula_gb(f, 0, 0.1f, 24.0f);
    }
}

/* Zwicker's critical band rate; freq in Hz, result in bark. */
float rl_freq2bark(float freq)
{
    if (freq < 0)
        freq = 0;
    freq = freq * 0.001;         /* stored back as float */
    return (float)(13.0 * atan(.76 * freq) + 3.5 * atan(freq * freq / (7.5 * 7.5)));
}

/* ATH in MDCT energy units for frequency f (Hz). */
static float ath_mdct(const RlConfig *cfg, float f)
{
    float ath = rl_ath_formula(cfg, f);
    if (cfg->ath_fixpoint > 0)
        ath -= cfg->ath_fixpoint;
    else
        ath -= ATH_MDCT_SCALE;
    ath += cfg->ath_offset_db;
    return powf(10.0f, ath * 0.1f);
}

/* Minimum ATH over the lines [start,end) of a band; line spacing sf/(2*n). */
static float band_min(const RlConfig *cfg, int start, int end, int n)
{
    float const samp_freq = cfg->samplerate_out;
    /* LAME's FLOAT_MAX is 1e37 in quantize_pvt.c (float.h is not included
     * there before machine.h); it survives for empty bands, e.g. psfb21 at 8 kHz */
    float m = 1e37;
    for (int i = start; i < end; i++) {
        float const freq = i * samp_freq / (2 * n);
        float const a = ath_mdct(cfg, freq);
        m = m < a ? m : a;
    }
    return m;
}

/* LAME compute_ath: per-sfb ATH tables and the floor. */
void rl_ath_compute(const RlConfig *cfg, RlAth *ath)
{
    const RlSfbBands *sb = &cfg->sfb;
    for (int sfb = 0; sfb < RL_SBMAX_L; sfb++)
        ath->l[sfb] = band_min(cfg, sb->l[sfb], sb->l[sfb + 1], 576);
    for (int sfb = 0; sfb < RL_PSFB21; sfb++)
        ath->psfb21[sfb] = band_min(cfg, sb->psfb21[sfb], sb->psfb21[sfb + 1], 576);
    for (int sfb = 0; sfb < RL_SBMAX_S; sfb++) {
        ath->s[sfb] = band_min(cfg, sb->s[sfb], sb->s[sfb + 1], 192);
        ath->s[sfb] *= (sb->s[sfb + 1] - sb->s[sfb]);
    }
    for (int sfb = 0; sfb < RL_PSFB12; sfb++) {
        ath->psfb12[sfb] = band_min(cfg, sb->psfb12[sfb], sb->psfb12[sfb + 1], 192);
        ath->psfb12[sfb] *= (sb->s[13] - sb->s[12]);   /* sic: LAME uses sfb 12's width */
    }
    if (cfg->no_ath) {           /* -200 dB */
        for (int sfb = 0; sfb < RL_SBMAX_L; sfb++) ath->l[sfb] = 1E-20;
        for (int sfb = 0; sfb < RL_PSFB21; sfb++) ath->psfb21[sfb] = 1E-20;
        for (int sfb = 0; sfb < RL_SBMAX_S; sfb++) ath->s[sfb] = 1E-20;
        for (int sfb = 0; sfb < RL_PSFB12; sfb++) ath->psfb12[sfb] = 1E-20;
    }
    ath->floor = (float)(10. * log10(ath_mdct(cfg, -1.)));
}
