/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the VBR-new (vbr_mtrh) quantization loop: per-sfb step search on
 * xr^(3/4), scalefactor constraints, bit-usage reduction and the bitrate choice.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "quantize_vbr.h"
#include "rate_control.h"
#include "rl_frame.h"
#include "rl_encode_stage.h"
#include "bitstream.h"
#include "quantize_common.h"
#include "quant_tables.h"
#include "reservoir.h"
#include "quantize_outer.h"
#include "fast_log.h"
#include "huffman_count.h"
#include "noise_x34.h"
#include "step_bounds.h"
#include "dsp.h"

/* ------------------------------------------------------------------ algo */

typedef struct VbrAlgo VbrAlgo;
typedef void (*alloc_sf_fn)(const VbrAlgo *, const int *, const int *, int);

/* LAME algo_t: one granule/channel of the search */
struct VbrAlgo {
    alloc_sf_fn alloc;
    int guess;                  /* full_outer_loop < 0: steps guessed from the masking, not searched */
    const float *xr34orig;
    const RlConfig *cfg;
    RlGranule *gi;
    int mingain_l;
    int mingain_s[3];
    int *err;                   /* set on LAME's "internal error" exits */
    /* block_sf's largest xr^(3/4) of each band's quantized lines (have_max34:
     * made for this granule) */
    int have_max34;
    float max34[RL_SFBMAX];
    /* pass 2 trace: every target in [*tlo, *thi) takes the same decisions */
    int *tlo, *thi;
};

/* the decision "nbits <= target" was taken (fits) or not */
static void trace_le(const VbrAlgo *that, int nbits, int fits)
{
    if (fits) {
        if (*that->tlo < nbits)
            *that->tlo = nbits;
    } else {
        if (*that->thi > nbits)
            *that->thi = nbits;
    }
}

/* The largest of a band's xr^(3/4), all >= +0 and none NaN: the same float
 * in any order (equal floats are the same value, and a +0 start is kept
 * unless a larger line comes), so eight running maxima that the compiler
 * can keep in one vector give vec_max's result. */
static float vec_max(const float *xr34, unsigned int bw)
{
    float m[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    float xfsf = 0;
    const float *const end8 = xr34 + (bw & ~7u), *const end = xr34 + bw;

    for (; xr34 < end8; xr34 += 8)
        for (int l = 0; l < 8; l++)
            m[l] = m[l] < xr34[l] ? xr34[l] : m[l];
    for (; xr34 < end; xr34++)
        xfsf = xfsf < *xr34 ? *xr34 : xfsf;
    for (int l = 0; l < 8; l++)
        xfsf = xfsf < m[l] ? m[l] : xfsf;
    return xfsf;
}

/* step size from the allowed masking (used when full_outer_loop < 0) */
static int calc_scalefac(float l3_xmin, int bw)
{
    float const c = (float) 5.799142446; /* 10 * 10^(2/3) * log10(4/3) */
    return 210 + (int) (c * log10f(l3_xmin / bw) - .5f);
}

static uint8_t guess_scalefac_x34(float l3_xmin, unsigned int bw, uint8_t sf_min)
{
    int const guess = calc_scalefac(l3_xmin, (int) bw);
    if (guess < sf_min)
        return sf_min;
    if (guess >= 255)
        return 255;
    return (uint8_t) guess;
}

/* LAME's find_scalefac_x34 (for each band, a binary search over eight
 * rounds for the largest step whose noise stays within the band's allowed
 * noise; each round probes tri_calc_sfb_noise_x34's steps sf, sf + 1 and
 * sf - 1, each only while no earlier one was too noisy, and keeps the sums
 * it made) for several bands of one granule at once.  Each band takes
 * exactly its own search (the same steps, the same noise sums, the same
 * decisions); only the order between bands changes, and the bands share
 * nothing: LAME's search reads its band's lines and writes its result
 * only.  Running the bands in lockstep gathers, at each of the three
 * probes, the sums every band needs into one batch for the DSP kernel,
 * which computes independent sums side by side. */
typedef struct {
    /* the noise of the steps probed so far, direct-mapped by sf & 31 (a
     * band probes at most 24 steps, the close ones in the last rounds; a
     * value evicted by a collision is recomputed, the same float again) */
    _Alignas(64) float value[32];
    int16_t step[32];
    RlNoiseJob job;             /* the band's lines (limited to max_nonzero_coeff), max34 */
    float xmin;
    int sf_min;
    int sf_zero;                /* rl_zero_step of the band's lines */
    int sf, sf_ok, seen_good_one;
} BandSearch;                   /* 256 bytes: four cache lines, indexed by a shift */

/* The band's zero_step, rl_zero_step(max34), is the smallest step at which
 * every line of a band whose largest xr^(3/4) is max34 quantizes to 0
 * (256: none).  From there on the band's noise is the same float at every
 * step: each line's q = ipow20[sf] * xr34 is at most ipow20[sf] * max34 <
 * 0.5 (a float product is monotone in each factor), which rl_k_34_4 rounds
 * to 0 both times (adj43asm[0] = 0), so each line's noise is |xr| -
 * pow20[..] * pow43[0] = |xr| - 0, and the sum takes the same values in the
 * same order.  ipow20 falls with sf, so the steps with the property are
 * those from the first one on. */

/* LAME's tri_calc_sfb_noise_x34's probe p of a band at step sf: sf, sf + 1, sf - 1;
 * the step whose noise stands for it is the probe itself, or the band's
 * zero_step for every step above that one (the same sum) */
static inline int probe_step(const BandSearch *b, int probe)
{
    int const st = b->sf + (probe == 0 ? 0 : probe == 1 ? 1 : -1);
    return st > b->sf_zero ? b->sf_zero : st;
}

/* One of LAME's tri_calc_sfb_noise_x34's probes for the np bands still probing:
 * each band is bad (a smaller step next), probes on, or (after the last
 * probe) good.  A band whose sum is cached decides at once; the others'
 * sums go to the kernel in one batch and they decide after it.  Only the
 * order of the bands in the lists changes, and nothing depends on it: each
 * band's decisions are its own, and the kernel's sums do not depend on
 * which jobs share a batch.  The bookkeeping is branch-free (which bands
 * need a sum and what each decides depends on the signal, and the
 * processor cannot predict it): every band writes its entries and the
 * counts advance by 0 or 1.  Returns the number of bands left probing
 * (compacted in place in probing[]).  Always inlined: each of the three
 * calls becomes a loop for its constant probe. */
static inline __attribute__((always_inline))
int probe_round(const RlDsp *dsp, const float *xr, const float *xr34, BandSearch *bands,
                int *probing, int np, int *bad, int *nbad, int probe, int delsf)
{
    RlNoiseJob jobs[RL_SFBMAX];
    float noise[RL_SFBMAX];
    int owner[RL_SFBMAX];
    int nj = 0, left = 0, nb = *nbad;

    for (int q = 0; q < np; q++) {
        int const k = probing[q];
        BandSearch *const b = &bands[k];
        int const st = probe_step(b, probe);
        /* probe 1 does not exist at step 255 (sf - 1 >= sf_min >= 0 always) */
        int const skip = probe == 1 && b->sf == 255;
        int const hit = skip | (b->step[st & 31] == st);
        int const is_bad = hit & !skip & (b->xmin < b->value[st & 31]);
        int const good = hit & (probe == 2) & !is_bad;     /* no probe left */
        jobs[nj] = b->job;
        jobs[nj].sf = st;
        owner[nj] = k;
        nj += !hit;
        bad[nb] = k;
        nb += is_bad;
        probing[left] = k;                          /* left <= q: in place */
        left += hit & !is_bad & !good;
        b->sf_ok = good ? b->sf : b->sf_ok;
        b->seen_good_one |= good;
        b->sf += good ? delsf : 0;
    }
    if (nj > 0)
        dsp->noise_x34(xr, xr34, jobs, nj, noise);
    for (int q = 0; q < nj; q++) {
        int const k = owner[q];
        BandSearch *const b = &bands[k];
        int const st = jobs[q].sf;
        int const is_bad = b->xmin < noise[q];
        int const good = (probe == 2) & !is_bad;
        b->value[st & 31] = noise[q];
        b->step[st & 31] = (int16_t) st;
        bad[nb] = k;
        nb += is_bad;
        probing[left] = k;                          /* left <= the bands seen */
        left += !is_bad & !good;
        b->sf_ok = good ? b->sf : b->sf_ok;
        b->seen_good_one |= good;
        b->sf += good ? delsf : 0;
    }
    *nbad = nb;
    return left;
}

static void find_scalefac_x34_bands(const RlDsp *dsp, const float *xr, const float *xr34,
                                    BandSearch *bands, int nb)
{
    int probing[RL_SFBMAX], bad[RL_SFBMAX];
    int delsf = 128;

    for (int k = 0; k < nb; k++) {
        BandSearch *const b = &bands[k];
        b->sf = 128;
        b->sf_ok = 255;
        b->seen_good_one = 0;
        for (int q = 0; q < 32; q++)
            b->step[q] = -1;
    }
    for (int i = 0; i < 8; ++i) {
        int np = 0, nbad = 0;
        delsf >>= 1;
        for (int k = 0; k < nb; k++) {
            BandSearch *const b = &bands[k];
            int const low = b->sf <= b->sf_min;
            b->sf += low ? delsf : 0;
            probing[np] = k;
            np += !low;
        }
        /* LAME's tri_calc_sfb_noise_x34's probes: sf, then sf + 1 (if sf < 255),
         * then sf - 1 (sf > sf_min >= 0 here), each only while no earlier
         * probe of the band was too noisy */
        np = probe_round(dsp, xr, xr34, bands, probing, np, bad, &nbad, 0, delsf);
        np = probe_round(dsp, xr, xr34, bands, probing, np, bad, &nbad, 1, delsf);
        (void) probe_round(dsp, xr, xr34, bands, probing, np, bad, &nbad, 2, delsf);
        for (int q = 0; q < nbad; q++)
            bands[bad[q]].sf -= delsf;      /* distortion: smaller step */
    }
    for (int k = 0; k < nb; k++) {
        BandSearch *const b = &bands[k];
        if (b->seen_good_one > 0)
            b->sf = b->sf_ok;
        if (b->sf <= b->sf_min)
            b->sf = b->sf_min;
    }
}

/* LAME block_sf (vbr-mtrh variant): per-sfb wanted step vbrsf and minimal
 * step vbrsfmin; returns the largest wanted step */
static int block_sf(VbrAlgo *that, const float l3_xmin[RL_SFBMAX], int vbrsf[RL_SFBMAX],
                    int vbrsfmin[RL_SFBMAX])
{
    float max_xr34;
    const float *const xr = &that->gi->xr[0];
    const float *const xr34_orig = &that->xr34orig[0];
    const int *const width = &that->gi->width[0];
    const char *const energy_above_cutoff = &that->gi->energy_above_cutoff[0];
    unsigned int const max_nonzero_coeff = (unsigned int) that->gi->max_nonzero_coeff;
    uint8_t maxsf = 0;
    int sfb = 0, m_o = -1;
    unsigned int j = 0, i = 0;
    int const psymax = that->gi->psymax;

    that->mingain_l = 0;
    that->mingain_s[0] = 0;
    that->mingain_s[1] = 0;
    that->mingain_s[2] = 0;
    /* LAME's find_scalefac_x34 (the full search) for all bands at once, before
     * the walk below that uses its results in band order */
    uint8_t m1s[RL_SFBMAX], found[RL_SFBMAX];
    int const batch = !that->guess;
    if (batch) {
        BandSearch bands[RL_SFBMAX];
        int bsfb[RL_SFBMAX];
        int nb = 0;
        unsigned int jj = 0;
        for (int b = 0; jj <= max_nonzero_coeff; ++b) {
            unsigned int const w = (unsigned int) width[b];
            unsigned int const m = (unsigned int) (max_nonzero_coeff - jj + 1);
            unsigned int const l = w < m ? w : m;
            float const max34 = vec_max(&xr34_orig[jj], l);
            that->max34[b] = max34;
            m1s[b] = rl_lowest_step(max34);
            if (b < psymax && w > 2 && energy_above_cutoff[b]) {
                bands[nb].sf_zero = rl_zero_step(max34);
                bands[nb].job.max34 = max34;
                bands[nb].job.off = (int) jj;
                bands[nb].job.n = (int) l;
                bands[nb].job.sf = 0;
                bands[nb].xmin = l3_xmin[b];
                bands[nb].sf_min = m1s[b];
                bsfb[nb++] = b;
            }
            jj += w;
        }
        find_scalefac_x34_bands(that->cfg->dsp, xr, xr34_orig, bands, nb);
        for (int k = 0; k < nb; k++)
            found[bsfb[k]] = (uint8_t) bands[k].sf;
    }
    while (j <= max_nonzero_coeff) {
        unsigned int const w = (unsigned int) width[sfb];
        unsigned int const m = (unsigned int) (max_nonzero_coeff - j + 1);
        unsigned int l = w;
        uint8_t m1, m2;
        if (l > m)
            l = m;
        if (batch) {
            m1 = m1s[sfb];
        } else {
            max_xr34 = vec_max(&xr34_orig[j], l);
            that->max34[sfb] = max_xr34;
            m1 = rl_lowest_step(max_xr34);
        }
        vbrsfmin[sfb] = m1;
        if (that->mingain_l < m1)
            that->mingain_l = m1;
        if (that->mingain_s[i] < m1)
            that->mingain_s[i] = m1;
        if (++i > 2)
            i = 0;
        /* MPEG-2.5 8 kHz: unused scalefactors have width 2 */
        if (sfb < psymax && w > 2) {
            if (energy_above_cutoff[sfb]) {
                m2 = batch ? found[sfb] : guess_scalefac_x34(l3_xmin[sfb], l, m1);
                if (maxsf < m2)
                    maxsf = m2;
                if (m_o < m2 && m2 < 255)
                    m_o = m2;
            } else {
                m2 = 255;
                maxsf = 255;
            }
        } else {
            if (maxsf < m1)
                maxsf = m1;
            m2 = maxsf;
        }
        vbrsf[sfb] = m2;
        ++sfb;
        j += w;
    }
    that->have_max34 = 1;
    for (; sfb < RL_SFBMAX; ++sfb) {
        vbrsf[sfb] = maxsf;
        vbrsfmin[sfb] = 0;
    }
    if (m_o > -1) {
        maxsf = (uint8_t) m_o;
        for (sfb = 0; sfb < RL_SFBMAX; ++sfb) {
            if (vbrsf[sfb] == 255)
                vbrsf[sfb] = m_o;
        }
    }
    return maxsf;
}

/* LAME quantizes here without a range check: its scalefactor search keeps
 * every value within the tables for any sane input, but an absurd level
 * (e.g. --scale-l -1e9) would index past them.  Values within range are
 * untouched, so the bytes are LAME's wherever LAME's are defined. */
static inline double within_table(double v)
{
    return v > RL_IXMAX_VAL ? RL_IXMAX_VAL : v;
}

/* quantize_x34's lines j .. j+n-1 at one step, LAME's way */
static void quantize_band_x34(const float *xr34, int *l3, unsigned int n, float sfpow34)
{
    double x[4];
    unsigned int i = n >> 2u, remaining = n & 0x03u;

    while (i-- > 0) {
        x[0] = within_table(sfpow34 * xr34[0]);
        x[1] = within_table(sfpow34 * xr34[1]);
        x[2] = within_table(sfpow34 * xr34[2]);
        x[3] = within_table(sfpow34 * xr34[3]);
        rl_k_34_4(x, l3);
        l3 += 4;
        xr34 += 4;
    }
    if (remaining) {
        int tmp_l3[4];
        x[0] = x[1] = x[2] = x[3] = 0;
        switch (remaining) {
        case 3: x[2] = within_table(sfpow34 * xr34[2]); /* fall through */
        case 2: x[1] = within_table(sfpow34 * xr34[1]); /* fall through */
        case 1: x[0] = within_table(sfpow34 * xr34[0]); /* fall through */
        default: break;
        }
        rl_k_34_4(x, tmp_l3);
        switch (remaining) {
        case 3: l3[2] = tmp_l3[2]; /* fall through */
        case 2: l3[1] = tmp_l3[1]; /* fall through */
        case 1: l3[0] = tmp_l3[0]; /* fall through */
        default: break;
        }
    }
}

/* A run of lines at one step whose products all stay within the tables:
 * there within_table changes nothing, and rl_k_34_4 is the DSP line
 * quantizer's operation (the float product, the double magic addition,
 * rl_adj43asm = rl_adj43, the two float roundings), line by line; it leaves
 * an odd last line, done here as above. */
static void quantize_run_x34(const RlDsp *dsp, const float *xr34, int *l3, unsigned int n,
                             float sfpow34)
{
    unsigned int const even = n & ~1u;
    if (even > 0)
        dsp->quantize_lines(even, sfpow34, xr34, l3);
    if (n & 1u)
        quantize_band_x34(xr34 + even, l3 + even, 1, sfpow34);
}

/* quantize xr34 with the granule's global gain, scalefactors, subblock gains.
 * Bands at the same step whose largest product stays within the tables (a
 * float product is monotone, so then every line's does) are quantized as
 * one run by the DSP kernel; the others line by line with the clamp. */
static void quantize_x34(const VbrAlgo *that)
{
    const float *const xr34 = that->xr34orig;
    RlGranule *const gi = that->gi;
    int const ifqstep = (gi->scalefac_scale == 0) ? 2 : 4;
    int *const l3 = gi->l3_enc;
    unsigned int j = 0, sfb = 0;
    unsigned int const max_nonzero_coeff = (unsigned int) gi->max_nonzero_coeff;
    unsigned int run_start = 0, run_len = 0;
    int run_sfac = -1;
    float run_step = 0;

    while (j <= max_nonzero_coeff) {
        int const s = (gi->scalefac[sfb] + (gi->preflag ? rl_pretab[sfb] : 0)) * ifqstep
            + gi->subblock_gain[gi->window[sfb]] * 8;
        uint8_t const sfac = (uint8_t) (gi->global_gain - s);
        float const sfpow34 = rl_ipow20[sfac];
        unsigned int const w = (unsigned int) gi->width[sfb];
        unsigned int const m = (unsigned int) (max_nonzero_coeff - j + 1);
        unsigned int const l = (w <= m) ? w : m;

        if (that->have_max34 && sfpow34 * that->max34[sfb] <= RL_IXMAX_VAL) {
            if (run_len > 0 && run_sfac == sfac) {
                run_len += l;
            } else {
                if (run_len > 0)
                    quantize_run_x34(that->cfg->dsp, xr34 + run_start, l3 + run_start, run_len,
                                     run_step);
                run_start = j;
                run_len = l;
                run_sfac = sfac;
                run_step = sfpow34;
            }
        } else {
            if (run_len > 0)
                quantize_run_x34(that->cfg->dsp, xr34 + run_start, l3 + run_start, run_len,
                                 run_step);
            run_len = 0;
            quantize_band_x34(xr34 + j, l3 + j, l, sfpow34);
        }
        j += w;
        ++sfb;
    }
    if (run_len > 0)
        quantize_run_x34(that->cfg->dsp, xr34 + run_start, l3 + run_start, run_len, run_step);
}

static const uint8_t max_range_short[RL_SBMAX_S * 3] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    0, 0, 0
};

static const uint8_t max_range_long[RL_SBMAX_L] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0
};

static const uint8_t max_range_long_lsf_pretab[RL_SBMAX_L] = {
    7, 7, 7, 7, 7, 7, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* short blocks: choose subblock gains so the scalefactors can reach sf[] */
static void set_subblock_gain(RlGranule *gi, const int mingain_s[3], int sf[])
{
    const int maxrange1 = 15, maxrange2 = 7;
    const int ifqstep_shift = (gi->scalefac_scale == 0) ? 1 : 2;
    int *const sbg = gi->subblock_gain;
    unsigned int const psymax = (unsigned int) gi->psymax;
    unsigned int psydiv = 18;
    int sbg0, sbg1, sbg2;
    unsigned int sfb, i;
    int min_sbg = 7;

    if (psydiv > psymax)
        psydiv = psymax;
    for (i = 0; i < 3; ++i) {
        int maxsf1 = 0, maxsf2 = 0, minsf = 1000;
        for (sfb = i; sfb < psydiv; sfb += 3) {         /* part 1 */
            int const v = -sf[sfb];
            if (maxsf1 < v) maxsf1 = v;
            if (minsf > v) minsf = v;
        }
        for (; sfb < RL_SFBMAX; sfb += 3) {             /* part 2 */
            int const v = -sf[sfb];
            if (maxsf2 < v) maxsf2 = v;
            if (minsf > v) minsf = v;
        }
        /* smallest subblock gain with which the scalefactors reach maxsf1 */
        maxsf1 = imax(maxsf1 - (maxrange1 << ifqstep_shift), maxsf2 - (maxrange2 << ifqstep_shift));
        if (minsf > 0)
            sbg[i] = minsf >> 3;
        else
            sbg[i] = 0;
        if (maxsf1 > 0)
            sbg[i] = imax(sbg[i], (maxsf1 + 7) >> 3);
        if (sbg[i] > 0 && mingain_s[i] > (gi->global_gain - sbg[i] * 8))
            sbg[i] = (gi->global_gain - mingain_s[i]) >> 3;
        if (sbg[i] > 7)
            sbg[i] = 7;
        if (min_sbg > sbg[i])
            min_sbg = sbg[i];
    }
    sbg0 = sbg[0] * 8;
    sbg1 = sbg[1] * 8;
    sbg2 = sbg[2] * 8;
    for (sfb = 0; sfb < RL_SFBMAX; sfb += 3) {
        sf[sfb + 0] += sbg0;
        sf[sfb + 1] += sbg1;
        sf[sfb + 2] += sbg2;
    }
    if (min_sbg > 0) {
        for (i = 0; i < 3; ++i)
            sbg[i] -= min_sbg;
        gi->global_gain -= min_sbg * 8;
    }
}

/* scalefactors from the wanted step offsets sf[] (<= 0) */
static void set_scalefacs(RlGranule *gi, const int *vbrsfmin, int sf[], const uint8_t *max_range)
{
    const int ifqstep = (gi->scalefac_scale == 0) ? 2 : 4;
    const int ifqstep_shift = (gi->scalefac_scale == 0) ? 1 : 2;
    int *const scalefac = gi->scalefac;
    int const sfbmax = gi->sfbmax;
    int sfb;
    int const *const sbg = gi->subblock_gain;
    int const *const window = gi->window;
    int const preflag = gi->preflag;

    if (preflag) {
        for (sfb = 11; sfb < sfbmax; ++sfb)
            sf[sfb] += rl_pretab[sfb] * ifqstep;
    }
    for (sfb = 0; sfb < sfbmax; ++sfb) {
        int const gain = gi->global_gain - (sbg[window[sfb]] * 8)
            - ((preflag ? rl_pretab[sfb] : 0) * ifqstep);
        if (sf[sfb] < 0) {
            int const m = gain - vbrsfmin[sfb];
            /* ifqstep*scalefac >= -sf[sfb]: round up */
            scalefac[sfb] = (ifqstep - 1 - sf[sfb]) >> ifqstep_shift;
            if (scalefac[sfb] > max_range[sfb])
                scalefac[sfb] = max_range[sfb];
            if (scalefac[sfb] > 0 && (scalefac[sfb] << ifqstep_shift) > m)
                scalefac[sfb] = m >> ifqstep_shift;
        } else {
            scalefac[sfb] = 0;
        }
    }
    for (; sfb < RL_SFBMAX; ++sfb)
        scalefac[sfb] = 0;              /* sfb21 */
}

static void short_block_constrain(const VbrAlgo *that, const int vbrsf[RL_SFBMAX],
                                  const int vbrsfmin[RL_SFBMAX], int vbrmax)
{
    RlGranule *const gi = that->gi;
    int const maxminsfb = that->mingain_l;
    int mover, maxover0 = 0, maxover1 = 0, delta = 0;
    int v, v0, v1;
    int sfb;
    int const psymax = gi->psymax;

    for (sfb = 0; sfb < psymax; ++sfb) {
        v = vbrmax - vbrsf[sfb];
        if (delta < v)
            delta = v;
        v0 = v - (4 * 14 + 2 * max_range_short[sfb]);
        v1 = v - (4 * 14 + 4 * max_range_short[sfb]);
        if (maxover0 < v0)
            maxover0 = v0;
        if (maxover1 < v1)
            maxover1 = v1;
    }
    if (that->cfg->noise_shaping == 2)
        mover = imin(maxover0, maxover1);       /* allow scalefac_scale=1 */
    else
        mover = maxover0;
    if (delta > mover)
        delta = mover;
    vbrmax -= delta;
    maxover0 -= mover;
    maxover1 -= mover;

    if (maxover0 == 0)
        gi->scalefac_scale = 0;
    else if (maxover1 == 0)
        gi->scalefac_scale = 1;
    if (vbrmax < maxminsfb)
        vbrmax = maxminsfb;
    gi->global_gain = vbrmax;
    if (gi->global_gain < 0)
        gi->global_gain = 0;
    else if (gi->global_gain > 255)
        gi->global_gain = 255;
    {
        int sf_temp[RL_SFBMAX];
        for (sfb = 0; sfb < RL_SFBMAX; ++sfb)
            sf_temp[sfb] = vbrsf[sfb] - vbrmax;
        set_subblock_gain(gi, &that->mingain_s[0], sf_temp);
        set_scalefacs(gi, vbrsfmin, sf_temp, max_range_short);
    }
}

static void long_block_constrain(const VbrAlgo *that, const int vbrsf[RL_SFBMAX],
                                 const int vbrsfmin[RL_SFBMAX], int vbrmax)
{
    RlGranule *const gi = that->gi;
    const uint8_t *max_rangep;
    int const maxminsfb = that->mingain_l;
    int sfb;
    int maxover0, maxover1, maxover0p, maxover1p, mover, delta = 0;
    int v, v0, v1, v0p, v1p, vm0p = 1, vm1p = 1;
    int const psymax = gi->psymax;

    max_rangep = that->cfg->mode_gr == 2 ? max_range_long : max_range_long_lsf_pretab;

    maxover0 = 0;
    maxover1 = 0;
    maxover0p = 0;              /* with pretab */
    maxover1p = 0;

    for (sfb = 0; sfb < psymax; ++sfb) {
        v = vbrmax - vbrsf[sfb];
        if (delta < v)
            delta = v;
        v0 = v - 2 * max_range_long[sfb];
        v1 = v - 4 * max_range_long[sfb];
        v0p = v - 2 * (max_rangep[sfb] + rl_pretab[sfb]);
        v1p = v - 4 * (max_rangep[sfb] + rl_pretab[sfb]);
        if (maxover0 < v0) maxover0 = v0;
        if (maxover1 < v1) maxover1 = v1;
        if (maxover0p < v0p) maxover0p = v0p;
        if (maxover1p < v1p) maxover1p = v1p;
    }
    if (vm0p == 1) {
        int gain = vbrmax - maxover0p;
        if (gain < maxminsfb)
            gain = maxminsfb;
        for (sfb = 0; sfb < psymax; ++sfb) {
            int const a = (gain - vbrsfmin[sfb]) - 2 * rl_pretab[sfb];
            if (a <= 0) {
                vm0p = 0;
                vm1p = 0;
                break;
            }
        }
    }
    if (vm1p == 1) {
        int gain = vbrmax - maxover1p;
        if (gain < maxminsfb)
            gain = maxminsfb;
        for (sfb = 0; sfb < psymax; ++sfb) {
            int const b = (gain - vbrsfmin[sfb]) - 4 * rl_pretab[sfb];
            if (b <= 0) {
                vm1p = 0;
                break;
            }
        }
    }
    if (vm0p == 0)
        maxover0p = maxover0;
    if (vm1p == 0)
        maxover1p = maxover1;
    if (that->cfg->noise_shaping != 2) {
        maxover1 = maxover0;
        maxover1p = maxover0p;
    }
    mover = imin(maxover0, maxover0p);
    mover = imin(mover, maxover1);
    mover = imin(mover, maxover1p);

    if (delta > mover)
        delta = mover;
    vbrmax -= delta;
    if (vbrmax < maxminsfb)
        vbrmax = maxminsfb;
    maxover0 -= mover;
    maxover0p -= mover;
    maxover1 -= mover;
    maxover1p -= mover;

    if (maxover0 == 0) {
        gi->scalefac_scale = 0;
        gi->preflag = 0;
        max_rangep = max_range_long;
    } else if (maxover0p == 0) {
        gi->scalefac_scale = 0;
        gi->preflag = 1;
    } else if (maxover1 == 0) {
        gi->scalefac_scale = 1;
        gi->preflag = 0;
        max_rangep = max_range_long;
    } else if (maxover1p == 0) {
        gi->scalefac_scale = 1;
        gi->preflag = 1;
    } else {
        *that->err = 1;         /* LAME asserts: cannot happen */
    }
    gi->global_gain = vbrmax;
    if (gi->global_gain < 0)
        gi->global_gain = 0;
    else if (gi->global_gain > 255)
        gi->global_gain = 255;
    {
        int sf_temp[RL_SFBMAX];
        for (sfb = 0; sfb < RL_SFBMAX; ++sfb)
            sf_temp[sfb] = vbrsf[sfb] - vbrmax;
        set_scalefacs(gi, vbrsfmin, sf_temp, max_rangep);
    }
}

static void bitcount(const VbrAlgo *that)
{
    /* cannot fail given how the scalefactors were chosen (LAME exits) */
    if (rl_scale_bitcount(that->cfg, that->gi) != 0)
        *that->err = 1;
}

static int quantize_and_count_bits(const VbrAlgo *that)
{
    quantize_x34(that);
    that->gi->part2_3_length = rl_noquant_count_bits(that->cfg, that->gi);
    return that->gi->part2_3_length;
}

static int try_global_stepsize(const VbrAlgo *that, const int sfwork[RL_SFBMAX],
                               const int vbrsfmin[RL_SFBMAX], int delta)
{
    float const xrpow_max = that->gi->xrpow_max;
    int sftemp[RL_SFBMAX], i, nbits;
    int gain, vbrmax = 0;
    for (i = 0; i < RL_SFBMAX; ++i) {
        gain = sfwork[i] + delta;
        if (gain < vbrsfmin[i])
            gain = vbrsfmin[i];
        if (gain > 255)
            gain = 255;
        if (vbrmax < gain)
            vbrmax = gain;
        sftemp[i] = gain;
    }
    that->alloc(that, sftemp, vbrsfmin, vbrmax);
    bitcount(that);
    nbits = quantize_and_count_bits(that);
    that->gi->xrpow_max = xrpow_max;
    return nbits;
}

static void search_global_stepsize_max(const VbrAlgo *that, const int sfwork[RL_SFBMAX],
                                       const int vbrsfmin[RL_SFBMAX], int target)
{
    const RlGranule *const gi = that->gi;
    const int gain = gi->global_gain;
    int curr = gain;
    int gain_ok = 1024;
    int nbits;
    int l = gain, r = 512;

    while (l <= r) {
        curr = (l + r) >> 1;
        nbits = try_global_stepsize(that, sfwork, vbrsfmin, curr - gain);
        if (nbits != 0)         /* x < target  <=>  x + 1 <= target */
            trace_le(that, nbits + gi->part2_length + 1, (nbits + gi->part2_length) < target);
        if (nbits == 0 || (nbits + gi->part2_length) < target) {
            r = curr - 1;
            gain_ok = curr;
        } else {
            l = curr + 1;
            if (gain_ok == 1024)
                gain_ok = curr;
        }
    }
    if (gain_ok != curr) {
        curr = gain_ok;
        (void) try_global_stepsize(that, sfwork, vbrsfmin, curr - gain);
    }
}

static int sf_depth(const int sfwork[RL_SFBMAX])
{
    int m = 0, i;
    for (i = 0; i < RL_SFBMAX; ++i) {
        int const di = 255 - sfwork[i];
        if (m < di)
            m = di;
    }
    return m;
}

static void cut_distribution(const int sfwork[RL_SFBMAX], int sf_out[RL_SFBMAX], int cut)
{
    int i;
    for (i = 0; i < RL_SFBMAX; ++i) {
        int const x = sfwork[i];
        sf_out[i] = x < cut ? x : cut;
    }
}

static int flatten_distribution(const int sfwork[RL_SFBMAX], int sf_out[RL_SFBMAX], int dm,
                                int k, int p)
{
    int i, x, sfmax = 0;
    if (dm > 0) {
        for (i = 0; i < RL_SFBMAX; ++i) {
            int const di = p - sfwork[i];
            x = sfwork[i] + (k * di) / dm;
            if (x < 0)
                x = 0;
            else if (x > 255)
                x = 255;
            sf_out[i] = x;
            if (sfmax < x)
                sfmax = x;
        }
    } else {
        for (i = 0; i < RL_SFBMAX; ++i) {
            x = sfwork[i];
            sf_out[i] = x;
            if (sfmax < x)
                sfmax = x;
        }
    }
    return sfmax;
}

static int try_that_one(const VbrAlgo *that, const int sftemp[RL_SFBMAX],
                        const int vbrsfmin[RL_SFBMAX], int vbrmax)
{
    float const xrpow_max = that->gi->xrpow_max;
    int nbits;
    that->alloc(that, sftemp, vbrsfmin, vbrmax);
    bitcount(that);
    nbits = quantize_and_count_bits(that);
    nbits += that->gi->part2_length;
    that->gi->xrpow_max = xrpow_max;
    return nbits;
}

/* One bisection of the second pass over x in [lo, hi]: part 1 (raise_gain
 * 0) moves the steps towards the global gain p by x, part 2 (raise_gain 1)
 * flattens fully and uses x as the common step.  Leaves the granule
 * quantized with the largest fitting x and returns 1, or returns 0 when no x
 * fits (wrk then holds the last distribution tried, as in LAME). */
static int bisect_distribution(const VbrAlgo *that, const int sfwork[RL_SFBMAX],
                               int wrk[RL_SFBMAX], const int vbrsfmin[RL_SFBMAX],
                               int dm, int p, int raise_gain, int lo, int hi, int target)
{
    int bi = (lo + hi) / 2;
    int bi_ok = -1;
    int bu = lo;
    int bo = hi;
    for (;;) {
        int const sfmax = raise_gain ? flatten_distribution(sfwork, wrk, dm, dm, bi)
                                     : flatten_distribution(sfwork, wrk, dm, bi, p);
        int const nbits = try_that_one(that, wrk, vbrsfmin, sfmax);
        trace_le(that, nbits, nbits <= target);
        if (nbits <= target) {
            bi_ok = bi;
            bo = bi - 1;
        } else {
            bu = bi + 1;
        }
        if (bu <= bo)
            bi = (bu + bo) / 2;
        else
            break;
    }
    if (bi_ok < 0)
        return 0;
    if (bi != bi_ok) {
        int const sfmax = raise_gain ? flatten_distribution(sfwork, wrk, dm, dm, bi_ok)
                                     : flatten_distribution(sfwork, wrk, dm, bi_ok, p);
        (void) try_that_one(that, wrk, vbrsfmin, sfmax);
    }
    return 1;
}

/* second pass: flatten the step distribution until the granule fits target */
static void out_of_bits_strategy(const VbrAlgo *that, const int sfwork[RL_SFBMAX],
                                 const int vbrsfmin[RL_SFBMAX], int target)
{
    int wrk[RL_SFBMAX];
    int const dm = sf_depth(sfwork);
    int const p = that->gi->global_gain;

    /* part 1: move the steps towards the global gain */
    if (bisect_distribution(that, sfwork, wrk, vbrsfmin, dm, p, 0, 0, dm, target))
        return;
    /* part 2: raise the common step */
    if (bisect_distribution(that, sfwork, wrk, vbrsfmin, dm, p, 1, p, 255, target))
        return;
    /* fall back to a global step search (LAME: likely never reached);
     * wrk holds part 2's last distribution, as in LAME */
    search_global_stepsize_max(that, wrk, vbrsfmin, target);
}


/* pass2_targets' split of `total` bits between two parts in proportion to
 * sqrt (or, with fourth_root, sqrt(sqrt)) of their current shares, in LAME's
 * float/double mix; parts with no share get 0. */
static void share_by_root(int total, int n, int fourth_root, int part[2])
{
    float f[2] = { 0.0f, 0.0f }, s = 0.0f;
    int i;
    for (i = 0; i < n; ++i) {
        if (part[i] > 0) {
            f[i] = fourth_root ? (float) sqrt(sqrt(part[i])) : (float) sqrt(part[i]);
            s += f[i];
        } else {
            f[i] = 0;
        }
    }
    for (i = 0; i < n; ++i) {
        if (s > 0)
            part[i] = (int) (total * f[i] / s);
        else
            part[i] = 0;
    }
}

/* Neither of two parts keeps more than its first-pass use + margin: the
 * excess goes to the other part (part 0 first, then part 1). */
static void cap_pair_at_use(int part[2], const int use[2], int margin)
{
    if (part[0] > use[0] + margin) {
        part[1] += part[0];
        part[1] -= use[0] + margin;
        part[0] = use[0] + margin;
    }
    if (part[1] > use[1] + margin) {
        part[0] += part[1];
        part[0] -= use[1] + margin;
        part[1] = use[1] + margin;
    }
}

/* LAME VBR_encode_frame's budget for its second pass: the per gr/ch targets
 * from the first pass's bits and the on_pe max_bits (the only place besides
 * the final check where max_bits values, not just max_bits > 0, count).
 * Pure; rl_vbr_search_valid re-runs it with the true reservoir's max_bits. */
static void pass2_targets(int ngr, int nch, const int use_nbits_ch[2][2], const int max_bits[2][2],
                          int max_nbits_ch[2][2])
{
    int max_nbits_gr[2] = { 0, 0 };
    int use_nbits_gr[2] = { 0, 0 };
    int max_nbits_fr = 0;
    int gr, ch, ok, sum_fr;

    for (gr = 0; gr < ngr; ++gr) {
        for (ch = 0; ch < nch; ++ch) {
            use_nbits_gr[gr] += use_nbits_ch[gr][ch];
            max_nbits_fr += max_bits[gr][ch];
        }
    }
    ok = 1;
    sum_fr = 0;
    for (gr = 0; gr < ngr; ++gr) {
        max_nbits_gr[gr] = 0;
        for (ch = 0; ch < nch; ++ch) {
            if (use_nbits_ch[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                max_nbits_ch[gr][ch] = RL_MAX_BITS_PER_CHANNEL;
            else
                max_nbits_ch[gr][ch] = use_nbits_ch[gr][ch];
            max_nbits_gr[gr] += max_nbits_ch[gr][ch];
        }
        if (max_nbits_gr[gr] > RL_MAX_BITS_PER_GRANULE) {
            share_by_root(RL_MAX_BITS_PER_GRANULE, nch, 1, max_nbits_ch[gr]);
            if (nch > 1) {
                cap_pair_at_use(max_nbits_ch[gr], use_nbits_ch[gr], 32);
                for (ch = 0; ch < nch; ++ch) {
                    if (max_nbits_ch[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                        max_nbits_ch[gr][ch] = RL_MAX_BITS_PER_CHANNEL;
                }
            }
            max_nbits_gr[gr] = 0;
            for (ch = 0; ch < nch; ++ch)
                max_nbits_gr[gr] += max_nbits_ch[gr][ch];
        }
        sum_fr += max_nbits_gr[gr];
    }
    if (sum_fr > max_nbits_fr) {
        share_by_root(max_nbits_fr, ngr, 0, max_nbits_gr);
        if (ngr > 1) {
            cap_pair_at_use(max_nbits_gr, use_nbits_gr, 125);
            for (gr = 0; gr < ngr; ++gr) {
                if (max_nbits_gr[gr] > RL_MAX_BITS_PER_GRANULE)
                    max_nbits_gr[gr] = RL_MAX_BITS_PER_GRANULE;
            }
        }
        for (gr = 0; gr < ngr; ++gr) {
            share_by_root(max_nbits_gr[gr], nch, 0, max_nbits_ch[gr]);
            if (nch > 1) {
                cap_pair_at_use(max_nbits_ch[gr], use_nbits_ch[gr], 32);
                for (ch = 0; ch < nch; ++ch) {
                    if (max_nbits_ch[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                        max_nbits_ch[gr][ch] = RL_MAX_BITS_PER_CHANNEL;
                }
            }
        }
    }
    /* sanity check */
    sum_fr = 0;
    for (gr = 0; gr < ngr; ++gr) {
        int sum_gr = 0;
        for (ch = 0; ch < nch; ++ch) {
            sum_gr += max_nbits_ch[gr][ch];
            if (max_nbits_ch[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                ok = 0;
        }
        sum_fr += sum_gr;
        if (sum_gr > RL_MAX_BITS_PER_GRANULE)
            ok = 0;
    }
    if (sum_fr > max_nbits_fr)
        ok = 0;
    if (!ok) {
        /* fall back to the on_pe based budget */
        for (gr = 0; gr < ngr; ++gr)
            for (ch = 0; ch < nch; ++ch)
                max_nbits_ch[gr][ch] = max_bits[gr][ch];
    }

}

/* LAME VBR_encode_frame: returns the bits used by the frame's main data.
 * max_bits enters the first pass only through max_bits[gr][ch] > 0; its
 * values matter only from the "does it fit" test on (see rl_vbr_search_valid).
 * *first_bits: the first pass's total; *second_pass: 1 if it did not fit. */
static int vbr_encode_frame(const RlConfig *cfg, RlSideInfo *side,
                            const float xr34orig[2][2][576],
                            const float l3_xmin[2][2][RL_SFBMAX], const int max_bits[2][2],
                            int *err, RlFrame *f)
{
    int sfwork_[2][2][RL_SFBMAX];
    int vbrsfmin_[2][2][RL_SFBMAX];
    VbrAlgo that_[2][2];
    int const ngr = cfg->mode_gr;
    int const nch = cfg->channels_out;
    int max_nbits_ch[2][2] = { { 0, 0 }, { 0, 0 } };
    int max_nbits_fr = 0;
    int use_nbits_ch[2][2] = { { RL_MAX_BITS_PER_CHANNEL + 1, RL_MAX_BITS_PER_CHANNEL + 1 },
                               { RL_MAX_BITS_PER_CHANNEL + 1, RL_MAX_BITS_PER_CHANNEL + 1 } };
    int use_nbits_gr[2] = { RL_MAX_BITS_PER_GRANULE + 1, RL_MAX_BITS_PER_GRANULE + 1 };
    int use_nbits_fr;
    int gr, ch;
    int ok;

    for (gr = 0; gr < ngr; ++gr) {
        for (ch = 0; ch < nch; ++ch) {
            VbrAlgo *const that = &that_[gr][ch];
            max_nbits_ch[gr][ch] = max_bits[gr][ch];
            use_nbits_ch[gr][ch] = 0;
            max_nbits_fr += max_bits[gr][ch];
            that->guess = cfg->full_outer_loop < 0;
            that->cfg = cfg;
            that->gi = &side->tt[gr][ch];
            that->xr34orig = xr34orig[gr][ch];
            that->err = err;
            that->mingain_l = 0;
            that->mingain_s[0] = that->mingain_s[1] = that->mingain_s[2] = 0;
            that->have_max34 = 0;
            if (that->gi->block_type == RL_SHORT_TYPE)
                that->alloc = short_block_constrain;
            else
                that->alloc = long_block_constrain;
        }
    }
    /* scalefactor search */
    for (gr = 0; gr < ngr; ++gr) {
        for (ch = 0; ch < nch; ++ch) {
            if (max_bits[gr][ch] > 0) {
                VbrAlgo *const that = &that_[gr][ch];
                int *const sfwork = sfwork_[gr][ch];
                int *const vbrsfmin = vbrsfmin_[gr][ch];
                int const vbrmax = block_sf(that, l3_xmin[gr][ch], sfwork, vbrsfmin);
                that->alloc(that, sfwork, vbrsfmin, vbrmax);
                bitcount(that);
            }
            /* else: no energy, l3_enc stays zero */
        }
    }
    /* encode as is */
    use_nbits_fr = 0;
    for (gr = 0; gr < ngr; ++gr) {
        use_nbits_gr[gr] = 0;
        for (ch = 0; ch < nch; ++ch) {
            const VbrAlgo *const that = &that_[gr][ch];
            if (max_bits[gr][ch] > 0) {
                memset(&that->gi->l3_enc[0], 0, sizeof(that->gi->l3_enc));
                (void) quantize_and_count_bits(that);
            }
            use_nbits_ch[gr][ch] = rl_granule_finish(cfg, side, gr, ch);
            use_nbits_gr[gr] += use_nbits_ch[gr][ch];
        }
        use_nbits_fr += use_nbits_gr[gr];
    }

    /* the record rl_vbr_search_valid reads */
    memcpy(f->rc.vbr_new.use_ch, use_nbits_ch, sizeof(use_nbits_ch));
    f->rc.vbr_new.first_bits = use_nbits_fr;
    f->rc.vbr_new.second_pass = 0;
    f->rc.vbr_new.final_bits = use_nbits_fr;
    ok = 1;
    for (gr = 0; gr < ngr; ++gr) {
        if (use_nbits_gr[gr] > RL_MAX_BITS_PER_GRANULE)
            ok = 0;
        for (ch = 0; ch < nch; ++ch)
            if (use_nbits_ch[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                ok = 0;
    }
    f->rc.vbr_new.caps_ok = ok;
    for (gr = 0; gr < 2; ++gr) {
        for (ch = 0; ch < 2; ++ch) {
            f->rc.vbr_new.tlo[gr][ch] = INT_MIN;
            f->rc.vbr_new.thi[gr][ch] = INT_MAX;
            that_[gr][ch].tlo = &f->rc.vbr_new.tlo[gr][ch];
            that_[gr][ch].thi = &f->rc.vbr_new.thi[gr][ch];
        }
    }
    /* bit constraints */
    if (use_nbits_fr <= max_nbits_fr) {
        ok = 1;
        for (gr = 0; gr < ngr; ++gr) {
            if (use_nbits_gr[gr] > RL_MAX_BITS_PER_GRANULE)
                ok = 0;
            for (ch = 0; ch < nch; ++ch) {
                /* part2_3_length has 12 bits */
                if (use_nbits_ch[gr][ch] > RL_MAX_BITS_PER_CHANNEL)
                    ok = 0;
            }
        }
        if (ok)
            return use_nbits_fr;
    }

    /* too many bits: set a budget per granule and channel */
    f->rc.vbr_new.second_pass = 1;
    pass2_targets(ngr, nch, (const int (*)[2]) use_nbits_ch, max_bits, max_nbits_ch);

    /* best_scalefac_store already ran: reset what it set */
    for (ch = 0; ch < nch; ++ch) {
        side->scfsi[ch][0] = 0;
        side->scfsi[ch][1] = 0;
        side->scfsi[ch][2] = 0;
        side->scfsi[ch][3] = 0;
    }
    for (gr = 0; gr < ngr; ++gr)
        for (ch = 0; ch < nch; ++ch)
            side->tt[gr][ch].scalefac_compress = 0;

    /* re-encode until each granule fits its budget */
    use_nbits_fr = 0;
    for (gr = 0; gr < ngr; ++gr) {
        use_nbits_gr[gr] = 0;
        for (ch = 0; ch < nch; ++ch) {
            const VbrAlgo *const that = &that_[gr][ch];
            use_nbits_ch[gr][ch] = 0;
            if (max_bits[gr][ch] > 0) {
                int *const sfwork = sfwork_[gr][ch];
                const int *const vbrsfmin = vbrsfmin_[gr][ch];
                cut_distribution(sfwork, sfwork, that->gi->global_gain);
                out_of_bits_strategy(that, sfwork, vbrsfmin, max_nbits_ch[gr][ch]);
            }
            use_nbits_ch[gr][ch] = rl_granule_finish(cfg, side, gr, ch);
            use_nbits_gr[gr] += use_nbits_ch[gr][ch];
        }
        use_nbits_fr += use_nbits_gr[gr];
    }
    f->rc.vbr_new.final_bits = use_nbits_fr;
    f->rc.vbr_new.err_work = *err;
    if (use_nbits_fr <= max_nbits_fr)
        return use_nbits_fr;
    *err = 1;                   /* LAME: INTERNAL ERROR IN VBR NEW CODE (1313) */
    return use_nbits_fr;
}

/* ------------------------------------------------------------------ budget */

/* The reservoir-dependent half of LAME VBR_new_prepare: ResvFrameBegin at
 * the max bitrate (avg; pad = its ResvMax), get_framebits, on_pe per
 * granule and the scaling of max_bits to the max frame.  Pure: a function of
 * cfg, f->padding, f->pe/pe_ms (mode_ext) and resv_size only.  on_pe reads
 * nothing that ms_convert/calc_xmin write, so running it ahead of them (LAME
 * interleaves them) changes no value.  frame_bits may be NULL. */
static void vbr_budget(const RlConfig *cfg, const RlFrame *f, int resv_size,
                       int max_bits[2][2], int frame_bits[16], int *pad)
{
    const float (*pe)[2] = (f->mode_ext == RL_MD_MS_LR) ? f->pe_ms : f->pe;
    int fb[16];
    int gr, ch, avg = 0, mb, resv_max = 0, bits = 0, maximum_framebits;

    memset(fb, 0, sizeof(fb));
    memset(max_bits, 0, sizeof(int[2][2]));
    if (!cfg->free_format) {
        int i;
        /* LAME's ResvMax ends as the max bitrate's (get_framebits' last
         * ResvFrameBegin), which on_pe then reads */
        (void) rl_resv_frame_begin(cfg, resv_size, cfg->vbr_max_bitrate_index, f->padding,
                                   &avg, &resv_max);
        for (i = 1; i <= cfg->vbr_max_bitrate_index; i++)
            fb[i] = rl_resv_frame_begin(cfg, resv_size, i, f->padding, &mb, NULL);
        maximum_framebits = fb[cfg->vbr_max_bitrate_index];
    } else {
        maximum_framebits = rl_resv_frame_begin(cfg, resv_size, 0, f->padding, &avg, &resv_max);
        fb[0] = maximum_framebits;
    }
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        (void) rl_on_pe(cfg, resv_size, resv_max, pe, max_bits[gr], avg, gr, 0);
        for (ch = 0; ch < cfg->channels_out; ++ch)
            bits += max_bits[gr][ch];
    }
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            if (bits > maximum_framebits && bits > 0) {
                max_bits[gr][ch] *= maximum_framebits;
                max_bits[gr][ch] /= bits;
            }
        }
    }
    if (frame_bits)
        memcpy(frame_bits, fb, sizeof(fb));
    if (pad)
        *pad = resv_max;
}

/* ------------------------------------------------------------------ search */

static int vbr_min_index(const RlConfig *cfg, const RlFrame *f, const int frame_bits[16]);

int rl_vbr_search(const RlEncoderConst *k, RlFrame *f, int assumed_resv)
{
    const RlConfig *const cfg = &k->cfg;
    RlSideInfo *const side = &f->side;
    float l3_xmin[2][2][RL_SFBMAX];
    float xrpow[2][2][576];
    int max_bits[2][2];
    int gr, ch;
    int analog_silence = 1;
    int pad, silent = 0;
    int err = 0;
    int frame_bits[16];         /* per bitrate index, for the assumed reservoir */
    const RlPsyRatio (*ratio)[2] = (f->mode_ext == RL_MD_MS_LR) ? f->ratio_ms : f->ratio;

    rl_quant_tables_init();     /* both pthread_once: cheap after the first call */
    rl_fast_log_init();
    memset(xrpow, 0, sizeof(xrpow));

    /* ---- VBR_new_prepare ---- */
    vbr_budget(cfg, f, assumed_resv, max_bits, frame_bits, &pad);
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        if (f->mode_ext == RL_MD_MS_LR)
            rl_ms_convert(side, gr);
        for (ch = 0; ch < cfg->channels_out; ++ch) {
            RlGranule *const gi = &side->tt[gr][ch];
            rl_init_outer_loop(cfg, gi);
            if (rl_calc_xmin(k, f->ath_adjust_factor, &ratio[gr][ch], gi, l3_xmin[gr][ch]) != 0)
                analog_silence = 0;
        }
    }
    if (analog_silence)
        pad = 0;

    /* ---- xr^(3/4) ---- */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            if (rl_init_xrpow(cfg, &side->tt[gr][ch], xrpow[gr][ch], NULL) == 0) {
                max_bits[gr][ch] = 0;   /* silent granule needs no bits */
                silent |= 1 << (2 * gr + ch);
            }
        }
    }
    memcpy(f->rc.vbr_new.max_bits, max_bits, sizeof(max_bits));
    f->rc.vbr_new.silent = silent;

    /* ---- quantize with the fewest bits ---- */
    f->rc.vbr_new.err_work = 0;
    f->rc.vbr_new.used_bits = vbr_encode_frame(cfg, side, (const float (*)[2][576]) xrpow,
                                    (const float (*)[2][RL_SFBMAX]) l3_xmin,
                                    (const int (*)[2]) max_bits, &err, f);
    if (!f->rc.vbr_new.second_pass)
        f->rc.vbr_new.err_work = err;

    f->rc.vbr_new.analog_silence = analog_silence;
    f->rc.vbr_new.resv_size = assumed_resv;
    f->search_rc = err ? -EIO : 0;
    return 0;
}

/* Validity.  Claim: rl_vbr_search_valid(f, R) == 1 implies that the search
 * in f (run with reservoir A = f->rc.vbr_new.resv_size) wrote what
 * rl_vbr_search with R writes: side info (l3_enc, scalefactors, Huffman
 * fields), used_bits, analog_silence and search_rc.
 * (1) The reservoir reaches rl_vbr_search only through vbr_budget:
 *     max_bits[gr][ch] (on_pe, scaled to the largest frame) and the frame
 *     bits per index.  ms_convert, init_outer_loop, calc_xmin (l3_xmin,
 *     analog silence), init_xrpow (xrpow, silent granules) read the frame
 *     and the constants only.  So A == R, or max_bits(A) == max_bits(R)
 *     after zeroing the silent granules, gives the same VBR_encode_frame
 *     call: the same result (checked first).
 * (2) Otherwise VBR_encode_frame reads max_bits in three places:
 *     a. the first pass searches and quantizes gr/ch iff max_bits > 0
 *        (nothing else of max_bits): with the same "> 0" pattern (else 0)
 *        the first pass is the same under R, so its bits use_ch/first_bits
 *        and caps_ok are R's too;
 *     b. it returns after the first pass iff caps_ok and first_bits <=
 *        sum(max_bits): evaluated with R's sum this is R's decision.  If
 *        the search returned there, the result is R's iff R returns too;
 *        if R returns there but the search went on, 0;
 *     c. both ran pass 2: pass2_targets (a pure function of use_ch and
 *        max_bits) gives R's targets; each gr/ch enters its target only
 *        through decisions "nbits <= target", and the search recorded in
 *        [tlo, thi) the targets that take every one of its decisions the
 *        same way (trace_le), so a target of R inside it walks the same
 *        path to the same granule; the last read is the final check
 *        final_bits <= sum(max_bits), whose error outcome (with an error
 *        the bisection raised, err_work) must match search_rc.
 * (3) used_bits is pass 1's or pass 2's total, equal by (2); analog
 *     silence does not depend on the reservoir.  Everything that does (the
 *     bitrate choice and pad) is computed again by rl_vbr_choose_bitrate
 *     from the true reservoir.  Any case not covered returns 0.
 * Tested in tests/unit_quantize_spec.c (random and extreme reservoirs,
 * -V0 on a full-scale square so that pass 2 runs). */
int rl_vbr_search_valid(const RlEncoderConst *k, const RlFrame *f, int true_resv)
{
    const RlConfig *const cfg = &k->cfg;
    int const ngr = cfg->mode_gr, nch = cfg->channels_out;
    int max_bits[2][2], target[2][2];
    int gr, ch, sum = 0, same = 1, fits, err_true;

    if (true_resv == f->rc.vbr_new.resv_size)
        return 1;               /* same input, deterministic search */

    vbr_budget(cfg, f, true_resv, max_bits, NULL, NULL);
    for (gr = 0; gr < ngr; gr++) {
        for (ch = 0; ch < nch; ch++) {
            if (f->rc.vbr_new.silent & (1 << (2 * gr + ch)))
                max_bits[gr][ch] = 0;
            if (max_bits[gr][ch] != f->rc.vbr_new.max_bits[gr][ch])
                same = 0;
            /* the first pass reads max_bits only as max_bits > 0 */
            if ((max_bits[gr][ch] > 0) != (f->rc.vbr_new.max_bits[gr][ch] > 0))
                return 0;
            sum += max_bits[gr][ch];
        }
    }
    if (same)
        return 1;               /* VBR_encode_frame saw the very same input */
    fits = f->rc.vbr_new.caps_ok && f->rc.vbr_new.first_bits <= sum;
    if (!f->rc.vbr_new.second_pass)
        return fits;            /* returned after the identical first pass? */
    if (fits)
        return 0;               /* true: first pass result; search: pass 2 */
    pass2_targets(ngr, nch, (const int (*)[2]) f->rc.vbr_new.use_ch, (const int (*)[2]) max_bits,
                  target);
    for (gr = 0; gr < ngr; gr++)
        for (ch = 0; ch < nch; ch++)
            if (max_bits[gr][ch] > 0
                && (target[gr][ch] < f->rc.vbr_new.tlo[gr][ch] || target[gr][ch] >= f->rc.vbr_new.thi[gr][ch]))
                return 0;       /* some bisection step would go the other way */
    err_true = f->rc.vbr_new.err_work || f->rc.vbr_new.final_bits > sum;
    return err_true == (f->search_rc != 0);
}

/* ------------------------------------------------------------------ bitrate */

/* lowest index able to hold used_bits (first half of LAME's choice) */
static int vbr_min_index(const RlConfig *cfg, const RlFrame *f, const int frame_bits[16])
{
    int i;
    if (cfg->free_format)
        return 0;
    i = (f->rc.vbr_new.analog_silence && !cfg->enforce_min_bitrate) ? 1 : cfg->vbr_min_bitrate_index;
    for (; i < cfg->vbr_max_bitrate_index; i++)
        if (f->rc.vbr_new.used_bits <= frame_bits[i])
            break;
    if (i > cfg->vbr_max_bitrate_index)
        i = cfg->vbr_max_bitrate_index;
    return i;
}

int rl_vbr_choose_bitrate(const RlEncoderConst *k, RlEncodeState *s, RlFrame *f)
{
    const RlConfig *const cfg = &k->cfg;
    int gr, ch, mean_bits, full_frame_bits, pad;
    int frame_bits[16], max_bits[2][2];
    int const used_bits = f->rc.vbr_new.used_bits;

    /* frame bits per index and pad from the TRUE reservoir (the search may
     * have assumed another one; its used bits were validated by the caller) */
    vbr_budget(cfg, f, rl_resv_size(s), max_bits, frame_bits, &pad);
    if (f->rc.vbr_new.analog_silence)
        pad = 0;

    if (!cfg->free_format) {
        int i = vbr_min_index(cfg, f, frame_bits), j;
        if (pad > 0) {
            /* highest index whose unused bits still fit the reservoir */
            for (j = cfg->vbr_max_bitrate_index; j > i; --j) {
                int const unused = frame_bits[j] - used_bits;
                if (unused <= pad)
                    break;
            }
            f->bitrate_index = j;
        } else {
            f->bitrate_index = i;
        }
    } else {
        f->bitrate_index = 0;
    }
    if (used_bits > frame_bits[f->bitrate_index])
        return -EIO;            /* LAME: INTERNAL ERROR IN VBR NEW CODE */

    full_frame_bits = rl_resv_frame_begin_commit(s, cfg, f->bitrate_index, f->padding,
                                                 &mean_bits);
    if (used_bits > full_frame_bits)
        return -EIO;
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            const RlGranule *const gi = &f->side.tt[gr][ch];
            rl_resv_adjust(s, gi->part2_3_length + gi->part2_length);
        }
    }
    rl_resv_frame_end(s, cfg, &f->side, mean_bits);
    return 0;
}

/* ------------------------------------------------------------------ the mode */

static int vbr_new_search(const RlEncoderConst *k, RlFrame *f, const RlCarried *assumed)
{
    int const rc = rl_vbr_search(k, f, assumed->resv_size);
    if (rc < 0)
        return rc;
    if (f->search_rc < 0)
        return 0;               /* nothing sensible to pack; Encode reports it */
    return rl_main_data_pack(&k->cfg, f);
}

static int vbr_new_valid(const RlEncoderConst *k, RlFrame *f, const RlCarried *truth)
{
    return rl_vbr_search_valid(k, f, truth->resv_size);
}

static int vbr_new_commit(const RlEncoderConst *k, RlEncodeStage *enc, RlFrame *f,
                          const RlForkJoin *fj)
{
    (void) fj;
    return rl_vbr_choose_bitrate(k, &enc->enc, f);
}

const RlRateControl rl_rc_vbr_new = {
    .name = "vbr-new",
    .assume = rl_rc_assume_committed,
    .search = vbr_new_search,
    .valid = vbr_new_valid,
    .redo = rl_rc_redo_search,
    .commit = vbr_new_commit,
};
