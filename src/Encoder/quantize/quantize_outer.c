/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the iterative quantizer of CBR, ABR and vbr_rh: step-size
 * search, scalefactor amplification and the noise-shaping outer loop.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "quantize_outer.h"
#include "quantize_noise.h"
#include "quant_tables.h"
#include "huffman_count.h"
#include "fast_log.h"

void rl_step_state_init(RlStepState *st)
{
    for (int ch = 0; ch < 2; ch++) {
        st->old_value[ch] = RL_STEP_START_GAIN;
        st->current_step[ch] = RL_STEP_START_STEP;
    }
}

void rl_gain_bits_clear(RlGainBits *m)
{
    for (int g = 0; g < 256; g++)
        m->bits[g] = RL_GAIN_BITS_UNKNOWN;
}

/* ------------------------------------------------------------ step search */

enum { SEARCH_NONE, SEARCH_UP, SEARCH_DOWN };

static void stale_get(const RlGranule *gi, short v[RL_STALE_FIELDS])
{
    v[0] = (short) gi->table_select[0];
    v[1] = (short) gi->table_select[1];
    v[2] = (short) gi->table_select[2];
    v[3] = (short) gi->region0_count;
    v[4] = (short) gi->region1_count;
}

static void stale_set(RlGranule *gi, const short v[RL_STALE_FIELDS])
{
    gi->table_select[0] = v[0];
    gi->table_select[1] = v[1];
    gi->table_select[2] = v[2];
    gi->region0_count = v[3];
    gi->region1_count = v[4];
}

/* Bits at gain g.  A replay may take a recorded count and apply the fields
 * it wrote (gi is scratch then); a real search always quantizes, so that gi
 * ends with the final gain's quantization, and records the count and which
 * fields it wrote (found with -1 sentinels, then the old values restored
 * where it wrote nothing). */
static int bits_at(const RlConfig *cfg, RlGranule *gi, int g, const float *xrpow,
                   const int *pseudohalf, RlGainBits *m, int replay)
{
    static const short sentinel[RL_STALE_FIELDS] = { -1, -1, -1, -1, -1 };
    short old[RL_STALE_FIELDS], now[RL_STALE_FIELDS];
    int n;

    gi->global_gain = g;
    if (m == NULL)
        return rl_count_bits(cfg, xrpow, gi, pseudohalf, NULL);
    if (replay && m->bits[g] != RL_GAIN_BITS_UNKNOWN) {
        for (int k = 0; k < RL_STALE_FIELDS; k++)
            now[k] = m->wrote[g][k] >= 0 ? m->wrote[g][k] : -1;
        stale_get(gi, old);
        for (int k = 0; k < RL_STALE_FIELDS; k++)
            if (now[k] < 0)
                now[k] = old[k];
        stale_set(gi, now);
        return m->bits[g];
    }
    stale_get(gi, old);
    stale_set(gi, sentinel);
    n = rl_count_bits(cfg, xrpow, gi, pseudohalf, NULL);
    stale_get(gi, now);
    for (int k = 0; k < RL_STALE_FIELDS; k++) {
        m->wrote[g][k] = now[k];
        if (now[k] < 0)
            now[k] = old[k];
    }
    stale_set(gi, now);
    m->bits[g] = n;
    return n;
}

/* The decision "count > targ - off" (a bit count against the target less
 * the bits off it already spends) came out `over`: it does so for the
 * targets below count + off, or for those from there on. */
static void range_over(RlTargRange *r, int count, int off, int over)
{
    int const edge = count + off;
    if (r == NULL)
        return;
    if (over) {
        if (r->hi > edge - 1)
            r->hi = edge - 1;
    } else if (r->lo < edge) {
        r->lo = edge;
    }
}

/* The decision "count == targ - off" came out true: that target only. */
static void range_equal(RlTargRange *r, int count, int off)
{
    if (r == NULL)
        return;
    if (r->lo < count + off)
        r->lo = count + off;
    if (r->hi > count + off)
        r->hi = count + off;
}

static void range_all(RlTargRange *r)
{
    r->lo = INT_MIN;
    r->hi = INT_MAX;
}

/* LAME bin_search_StepSize: halving steps from the previous granule's gain
 * towards `desired` bits, then up one by one until the count fits.
 * Returns the bits at the final gain (gi->global_gain).  r (may be NULL)
 * narrows to the desired values for which every decision is the same. */
static int step_search(const RlConfig *cfg, RlGranule *gi, int desired, RlStepState *st, int ch,
                       const float *xrpow, const int *pseudohalf, RlGainBits *m, int replay,
                       RlTargRange *r)
{
    int step = st->current_step[ch];
    int const start = st->old_value[ch];
    int const off = gi->part2_length;
    int gone_over = 0, dir = SEARCH_NONE;
    int gain = start, n;

    desired -= off;
    for (;;) {
        n = bits_at(cfg, gi, gain, xrpow, pseudohalf, m, replay);
        if (step == 1)
            break;
        if (n == desired) {
            range_equal(r, n, off);
            break;
        }
        /* n != desired: the next decision also excludes equality */
        range_over(r, n + (n > desired ? 0 : 1), off, n > desired);
        if (n > desired) {              /* coarser step */
            if (dir == SEARCH_DOWN)
                gone_over = 1;
            if (gone_over)
                step /= 2;
            dir = SEARCH_UP;
            gain += step;
        } else {                        /* finer step */
            if (dir == SEARCH_UP)
                gone_over = 1;
            if (gone_over)
                step /= 2;
            dir = SEARCH_DOWN;
            gain -= step;
        }
        if (gain < 0) {
            gain = 0;
            gone_over = 1;
        }
        if (gain > 255) {
            gain = 255;
            gone_over = 1;
        }
    }
    for (;;) {
        range_over(r, n, off, n > desired);
        if (!(n > desired && gain < 255))
            break;
        gain++;
        n = bits_at(cfg, gi, gain, xrpow, pseudohalf, m, replay);
    }
    gi->global_gain = gain;
    st->current_step[ch] = (start - gain >= 4) ? 4 : 2;
    st->old_value[ch] = gain;
    return n;
}

int rl_step_search_replay(const RlConfig *cfg, const RlGranule *gi0, const float *xrpow0,
                          const int *pseudohalf0, RlStepState *st, int ch, int targ_bits,
                          RlGainBits *gain_bits, int expect_gain)
{
    RlGranule gi = *gi0;
    short v[RL_STALE_FIELDS];
    (void) step_search(cfg, &gi, targ_bits, st, ch, xrpow0, pseudohalf0, gain_bits, 1, NULL);
    stale_get(&gi, v);
    return gi.global_gain == expect_gain && memcmp(v, gain_bits->after, sizeof v) == 0;
}

void rl_outer_loop_recorded(const RlConfig *cfg, RlGranule *gi, const float *l3_xmin,
                            float xrpow[576], int *pseudohalf, RlStepState *st, int ch,
                            int targ_bits, RlLoopRecord *rec)
{
    rec->gi0 = *gi;
    memcpy(rec->xrpow0, xrpow, sizeof rec->xrpow0);
    memcpy(rec->pseudohalf0, pseudohalf, sizeof rec->pseudohalf0);
    rec->targ = targ_bits;
    rec->start[0] = st->old_value[ch];
    rec->start[1] = st->current_step[ch];
    (void) rl_outer_loop(cfg, gi, l3_xmin, xrpow, pseudohalf, st, ch, targ_bits, &rec->trace,
                         cfg->sfb21_extra);
    rec->end[0] = st->old_value[ch];
    rec->end[1] = st->current_step[ch];
}

/* Claim: when rl_outer_loop_same returns 1, rl_outer_loop on the recorded
 * inputs (gi0, xrpow0, pseudohalf0, l3_xmin) from *st with targ_bits
 * writes what the recorded loop wrote, and *st becomes its state after.
 * (1) The loop reads the target and the start nowhere else than in the
 *     decisions the trace recorded: the step search compares counts with
 *     targ - part2_length ("==", ">"), the noise shaping compares
 *     targ - part2_length with 0 and with counts (">"); the start is only
 *     the step search's first gain and step.  Every other input is the
 *     same (the record's, or the frame's own l3_xmin).
 * (2) Noise shaping: it starts from the granule the step search leaves;
 *     if that is the same and targ_bits is in trace.shape, each of its
 *     decisions comes out as recorded (a decision on the same counts
 *     with a target in its range), so it takes the same path.
 * (3) Step search: with the recorded start and targ_bits in trace.step it
 *     makes every decision as recorded, so it tries the same gains and
 *     ends in the same granule and state (rec->end).  Otherwise it is
 *     replayed from *st with targ_bits (rl_step_search_replay: the same
 *     decisions on counts that are pure functions of the gain), and
 *     accepted only when it ends in the recorded gain and path-dependent
 *     fields: the granule noise shaping reads is then the same, and the
 *     replay's step state is the true one.
 * Tested as a property in tests/unit_quantize_spec.c (random and extreme
 * assumed states, every -q). */
int rl_outer_loop_same(const RlConfig *cfg, RlLoopRecord *rec, RlStepState *st, int ch,
                       int targ_bits)
{
    const RlLoopTrace *const t = &rec->trace;

    if (targ_bits < t->shape.lo || targ_bits > t->shape.hi)
        return 0;
    if (st->old_value[ch] == rec->start[0] && st->current_step[ch] == rec->start[1]
        && targ_bits >= t->step.lo && targ_bits <= t->step.hi) {
        st->old_value[ch] = rec->end[0];
        st->current_step[ch] = rec->end[1];
        return 1;
    }
    return rl_step_search_replay(cfg, &rec->gi0, rec->xrpow0, rec->pseudohalf0, st, ch, targ_bits,
                                 &rec->trace.gains, rec->end[0]);
}

/* ------------------------------------------------------ noise comparison */

static double penalties(double noise)
{
    return RL_FAST_LOG10((float) (0.368 + 0.632 * noise * noise * noise));
}

static double klemm_noise(const float *distort, const RlGranule *gi)
{
    double k = 1E-37;
    for (int sfb = 0; sfb < gi->psymax; sfb++)
        k += penalties(distort[sfb]);
    return k > 1e-20 ? k : 1e-20;
}

/* LAME quant_compare: is calc better than best under rule quant_comp? */
static int quant_compare(int quant_comp, const RlNoiseResult *best, RlNoiseResult *calc,
                         const RlGranule *gi, const float *distort)
{
    int better;

    switch (quant_comp) {
    default:
    case 9:
        if (best->over_count > 0) {
            better = calc->over_SSD <= best->over_SSD;
            if (calc->over_SSD == best->over_SSD)
                better = calc->bits < best->bits;
        } else {
            better = (calc->max_noise < 0)
                     && ((calc->max_noise * 10 + calc->bits) <= (best->max_noise * 10 + best->bits));
        }
        break;
    case 0:
        better = calc->over_count < best->over_count
                 || (calc->over_count == best->over_count && calc->over_noise < best->over_noise)
                 || (calc->over_count == best->over_count && rl_eq_float(calc->over_noise, best->over_noise)
                     && calc->tot_noise < best->tot_noise);
        break;
    case 8:
        calc->max_noise = klemm_noise(distort, gi);
        /* fall through */
    case 1:
        better = calc->max_noise < best->max_noise;
        break;
    case 2:
        better = calc->tot_noise < best->tot_noise;
        break;
    case 3:
        better = (calc->tot_noise < best->tot_noise) && (calc->max_noise < best->max_noise);
        break;
    case 4:
        better = (calc->max_noise <= 0.0 && best->max_noise > 0.2)
                 || (calc->max_noise <= 0.0 && best->max_noise < 0.0
                     && best->max_noise > calc->max_noise - 0.2
                     && calc->tot_noise < best->tot_noise)
                 || (calc->max_noise <= 0.0 && best->max_noise > 0.0
                     && best->max_noise > calc->max_noise - 0.2
                     && calc->tot_noise < best->tot_noise + best->over_noise)
                 || (calc->max_noise > 0.0 && best->max_noise > -0.05
                     && best->max_noise > calc->max_noise - 0.1
                     && calc->tot_noise + calc->over_noise < best->tot_noise + best->over_noise)
                 || (calc->max_noise > 0.0 && best->max_noise > -0.1
                     && best->max_noise > calc->max_noise - 0.15
                     && calc->tot_noise + calc->over_noise + calc->over_noise
                        < best->tot_noise + best->over_noise + best->over_noise);
        break;
    case 5:
        better = calc->over_noise < best->over_noise
                 || (rl_eq_float(calc->over_noise, best->over_noise)
                     && calc->tot_noise < best->tot_noise);
        break;
    case 6:
        better = calc->over_noise < best->over_noise
                 || (rl_eq_float(calc->over_noise, best->over_noise)
                     && (calc->max_noise < best->max_noise
                         || (rl_eq_float(calc->max_noise, best->max_noise)
                             && calc->tot_noise <= best->tot_noise)));
        break;
    case 7:
        better = calc->over_count < best->over_count || calc->over_noise < best->over_noise;
        break;
    }
    /* without distorted bands, only take a quantization that also saves bits */
    if (best->over_count == 0)
        better = better && calc->bits < best->bits;
    return better;
}

/* ---------------------------------------------------- scalefactor changes */

float rl_amplify_lines(float *x, int n, float amp, float max)
{
    for (int l = 0; l < n; l++) {
        x[l] *= amp;
        if (x[l] > max)
            max = x[l];
    }
    return max;
}

/* Multiplies xrpow[from, from+width) by amp, tracking xrpow_max. */
static void amplify(const RlConfig *cfg, RlGranule *gi, float *xrpow, int from, int width, float amp)
{
    gi->xrpow_max = cfg->dsp->amplify(xrpow + from, width, amp, gi->xrpow_max);
}

/* LAME amp_scalefac_bands: raise the scalefactors of the bands whose
 * distortion reaches the trigger (noise_shaping_amp picks the trigger). */
static void amp_scalefac_bands(const RlConfig *cfg, RlGranule *gi, const float *distort,
                               float *xrpow, int *pseudohalf, int refine)
{
    float const ifqstep34 = gi->scalefac_scale == 0 ? 1.29683955465100964055f   /* 2^(.75*.5) */
                                                    : 1.68179283050742922612f;  /* 2^(.75*1) */
    float trigger = 0;
    int amp_mode = cfg->noise_shaping_amp;
    int j = 0;

    for (int sfb = 0; sfb < gi->sfbmax; sfb++)
        if (trigger < distort[sfb])
            trigger = distort[sfb];

    if (amp_mode == 3)
        amp_mode = refine == 1 ? 2 : 1;
    switch (amp_mode) {
    case 2:                     /* exactly one band */
        break;
    case 1:                     /* within 50% of the maximum in dB */
        /* LAME: pow(trigger, .5) in double, stored as float.  For every
         * float above 1 that is sqrtf's correctly rounded root (checked
         * over all of them against glibc's pow; tests/unit_quantize.c
         * samples them), at a fraction of pow's cost. */
        if (trigger > 1.0)
            trigger = sqrtf(trigger);
        else
            trigger *= .95;
        break;
    case 0:
    default:                    /* ISO: every band over the threshold */
        if (trigger > 1.0)
            trigger = 1.0;
        else
            trigger *= .95;
        break;
    }

    for (int sfb = 0; sfb < gi->sfbmax; sfb++) {
        int const width = gi->width[sfb];
        j += width;
        if (distort[sfb] < trigger)
            continue;
        if (cfg->substep_shaping & 2) {
            pseudohalf[sfb] = !pseudohalf[sfb];
            if (!pseudohalf[sfb] && cfg->noise_shaping_amp == 2)
                return;
        }
        gi->scalefac[sfb]++;
        amplify(cfg, gi, xrpow, j - width, width, ifqstep34);
        if (cfg->noise_shaping_amp == 2)
            return;
    }
}

/* LAME inc_scalefac_scale: switch to the coarse scalefactor scale. */
static void inc_scalefac_scale(const RlConfig *cfg, RlGranule *gi, float *xrpow)
{
    float const ifqstep34 = 1.29683955465100964055f;
    int j = 0;

    for (int sfb = 0; sfb < gi->sfbmax; sfb++) {
        int const width = gi->width[sfb];
        int s = gi->scalefac[sfb];
        if (gi->preflag)
            s += rl_pretab[sfb];
        j += width;
        if (s & 1) {
            s++;
            amplify(cfg, gi, xrpow, j - width, width, ifqstep34);
        }
        gi->scalefac[sfb] = s >> 1;
    }
    gi->preflag = 0;
    gi->scalefac_scale = 1;
}

/* LAME inc_subblock_gain: raise the subblock gain of windows whose
 * scalefactors overflow.  Returns 1 when that is impossible. */
static int inc_subblock_gain(const RlConfig *cfg, RlGranule *gi, float *xrpow)
{
    int *const scalefac = gi->scalefac;
    int sfb;

    for (sfb = 0; sfb < gi->sfb_lmax; sfb++)
        if (scalefac[sfb] >= 16)
            return 1;

    for (int window = 0; window < 3; window++) {
        int s1 = 0, s2 = 0, j;
        for (sfb = gi->sfb_lmax + window; sfb < gi->sfbdivide; sfb += 3)
            if (s1 < scalefac[sfb])
                s1 = scalefac[sfb];
        for (; sfb < gi->sfbmax; sfb += 3)
            if (s2 < scalefac[sfb])
                s2 = scalefac[sfb];
        if (s1 < 16 && s2 < 8)
            continue;
        if (gi->subblock_gain[window] >= 7)
            return 1;

        /* the gain also acts above the last scalefactor band */
        gi->subblock_gain[window]++;
        j = cfg->sfb.l[gi->sfb_lmax];
        for (sfb = gi->sfb_lmax + window; sfb < gi->sfbmax; sfb += 3) {
            int const width = gi->width[sfb];
            int s = scalefac[sfb] - (4 >> gi->scalefac_scale);
            if (s >= 0) {
                scalefac[sfb] = s;
                j += width * 3;
                continue;
            }
            scalefac[sfb] = 0;
            {
                /* s < 0 here: LAME shifts it left; the product is the same
                 * value without a negative left shift */
                int const gain = 210 + s * (1 << (gi->scalefac_scale + 1));
                j += width * (window + 1);
                amplify(cfg, gi, xrpow, j - width, width, rl_ipow20[gain]);
            }
            j += width * (3 - window - 1);
        }
        j += gi->width[sfb] * (window + 1);
        amplify(cfg, gi, xrpow, j - gi->width[sfb], gi->width[sfb], rl_ipow20[202]);
    }
    return 0;
}

/* LAME loop_break: 1 when every band is amplified. */
static int all_amplified(const RlGranule *gi)
{
    for (int sfb = 0; sfb < gi->sfbmax; sfb++)
        if (gi->scalefac[sfb] + gi->subblock_gain[gi->window[sfb]] == 0)
            return 0;
    return 1;
}

/* LAME balance_noise: amplify, then keep the scalefactors codable.
 * Returns 0 when the search must stop. */
static int balance_noise(const RlConfig *cfg, RlGranule *gi, const float *distort, float *xrpow,
                         int *pseudohalf, int refine)
{
    int status;

    amp_scalefac_bands(cfg, gi, distort, xrpow, pseudohalf, refine);
    if (all_amplified(gi))
        return 0;
    if (!rl_scale_bitcount(cfg, gi))
        return 1;
    /* some scalefactors are too large: coarser scale, or subblock gain */
    status = 1;
    if (cfg->noise_shaping > 1) {
        memset(pseudohalf, 0, sizeof(int) * RL_SFBMAX);
        if (!gi->scalefac_scale) {
            inc_scalefac_scale(cfg, gi, xrpow);
            status = 0;
        } else if (gi->block_type == RL_SHORT_TYPE && cfg->subblock_gain > 0) {
            status = inc_subblock_gain(cfg, gi, xrpow) || all_amplified(gi);
        }
    }
    if (!status)
        status = rl_scale_bitcount(cfg, gi);
    return !status;
}

/* ------------------------------------------------------------ outer loop */

/* The best and the tried quantization share their lines (xr, which the
 * search never writes): a copy between them takes the rest. */
_Static_assert(offsetof(RlGranule, xr) == 0, "xr leads RlGranule");
static void copy_search_state(RlGranule *dst, const RlGranule *src)
{
    size_t const off = offsetof(RlGranule, xr) + sizeof dst->xr;
    memcpy((char *) dst + off, (const char *) src + off, sizeof *dst - off);
}

int rl_outer_loop(const RlConfig *cfg, RlGranule *gi, const float *l3_xmin, float xrpow[576],
                  int *pseudohalf, RlStepState *st, int ch, int targ_bits, RlLoopTrace *trace,
                  int sfb21_extra)
{
    RlTargRange *const shape = trace != NULL ? &trace->shape : NULL;
    RlGranule w;                /* LAME cod_info_w: the quantization being tried */
    float save_xrpow[576];
    float distort[RL_SFBMAX];
    RlNoiseResult best;
    RlNoiseCache prev;
    int best_part2_3_length = 9999999;
    int end_of_search = 0, refine = 0, best_ggain_pass1 = 0, age;

    if (trace != NULL) {
        rl_gain_bits_clear(&trace->gains);
        range_all(&trace->step);
        range_all(&trace->shape);
    }
    gi->part2_3_length = step_search(cfg, gi, targ_bits, st, ch, xrpow, pseudohalf,
                                     trace != NULL ? &trace->gains : NULL, 0,
                                     trace != NULL ? &trace->step : NULL);
    if (trace != NULL)
        stale_get(gi, trace->gains.after);
    if (!cfg->noise_shaping)
        return 100;             /* LAME's default over_count in fast mode */

    rl_noise_cache_init(&prev, gi, l3_xmin);
    (void) rl_calc_noise(gi, l3_xmin, distort, &best, &prev);
    best.bits = gi->part2_3_length;

    w = *gi;
    age = 0;
    memcpy(save_xrpow, xrpow, sizeof(float) * 576);

    while (!end_of_search) {
        do {
            RlNoiseResult noise;
            int const search_limit = (cfg->substep_shaping & 2) ? 20 : 3;
            int maxggain = 255, huff_bits, better, count1_before;

            /* a distorted sfb21 cannot be helped: stop */
            if (sfb21_extra) {
                if (distort[w.sfbmax] > 1.0)
                    break;
                if (w.block_type == RL_SHORT_TYPE
                    && (distort[w.sfbmax + 1] > 1.0 || distort[w.sfbmax + 2] > 1.0))
                    break;
            }
            if (balance_noise(cfg, &w, distort, xrpow, pseudohalf, refine) == 0)
                break;
            rl_noise_cache_offsets(&prev, &w);
            if (w.scalefac_scale)
                maxggain = 254;

            huff_bits = targ_bits - w.part2_length;
            range_over(shape, 1, w.part2_length, huff_bits <= 0);   /* 1 > huff_bits */
            if (huff_bits <= 0)
                break;
            /* coarser steps until the bits fit */
            for (;;) {
                int over;
                count1_before = prev.sfb_count1;
                over = (w.part2_3_length = rl_count_bits(cfg, xrpow, &w, pseudohalf, &prev))
                       > huff_bits;
                range_over(shape, w.part2_3_length, w.part2_length, over);
                if (!(over && w.global_gain <= maxggain))
                    break;
                w.global_gain++;
            }
            if (w.global_gain > maxggain)
                break;
            if (best.over_count == 0) {
                /* LAME counts the last gain again first.  That count reads
                 * what the last one read (the granule, its lines' codes and
                 * the cache's steps are as that count left them: requantizing
                 * a band and the substep truncation are idempotent) except
                 * the cache's count1 band, which the last count rewrote: when
                 * that band stayed, the count repeats exactly (the argument
                 * leaves out the region split inside the count that
                 * use_best_huffman 2 adds, which no preset sets). */
                int again = prev.sfb_count1 != count1_before || cfg->use_best_huffman == 2;
                while ((w.part2_3_length = again ? rl_count_bits(cfg, xrpow, &w, pseudohalf, &prev)
                                                 : w.part2_3_length)
                           > best_part2_3_length
                       && w.global_gain <= maxggain) {
                    w.global_gain++;
                    again = 1;
                }
                if (w.global_gain > maxggain)
                    break;
            }

            (void) rl_calc_noise(&w, l3_xmin, distort, &noise, &prev);
            noise.bits = w.part2_3_length;
            better = quant_compare(gi->block_type != RL_SHORT_TYPE ? cfg->quant_comp
                                                                   : cfg->quant_comp_short,
                                   &best, &noise, &w, distort);
            if (better) {
                best_part2_3_length = gi->part2_3_length;
                best = noise;
                copy_search_state(gi, &w);
                age = 0;
                memcpy(save_xrpow, xrpow, sizeof(float) * 576);
            } else if (cfg->full_outer_loop == 0) {
                if (++age > search_limit && best.over_count == 0)
                    break;
                if (cfg->noise_shaping_amp == 3 && refine && age > 30)
                    break;
                if (cfg->noise_shaping_amp == 3 && refine
                    && (w.global_gain - best_ggain_pass1) > 15)
                    break;
            }
        } while ((w.global_gain + w.scalefac_scale) < 255);

        if (cfg->noise_shaping_amp == 3 && !refine) {
            /* second pass from the best so far, one band at a time */
            copy_search_state(&w, gi);
            memcpy(xrpow, save_xrpow, sizeof(float) * 576);
            age = 0;
            best_ggain_pass1 = w.global_gain;
            refine = 1;
        } else {
            end_of_search = 1;
        }
    }
    /* vbr_rh searches again from the best xrpow (the later substep
     * truncation of CBR/ABR needs --substep, which this lame ignores) */
    if (cfg->vbr == RL_VBR_RH || cfg->vbr == RL_VBR_MTRH || cfg->vbr == RL_VBR_MT)
        memcpy(xrpow, save_xrpow, sizeof(float) * 576);
    return best.over_count;
}

int rl_granule_finish(const RlConfig *cfg, RlSideInfo *side, int gr, int ch)
{
    RlGranule *const gi = &side->tt[gr][ch];
    rl_best_scalefac_store(cfg, gr, ch, side);
    if (cfg->use_best_huffman == 1)
        rl_best_huffman_divide(cfg, gi);
    return gi->part2_3_length + gi->part2_length;
}
