/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the stateless half of the psychoacoustic model: everything of
 * L3psycho_anal_vbr that depends only on this frame's samples (HPF peaks,
 * FFTs, energies, tonality, spreading, loudness).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attack.h"
#include "dsp.h"
#include "fast_log.h"
#include "fft.h"
#include "psy.h"
#include "psy_internal.h"
#include "rl_encoder_const.h"
#include "rl_frame.h"

#define NSFIRLEN 21
#define VO_SCALE (1. / (14752 * 14752) / (RL_BLKSIZE / 2))

/* Partition energies, maxima and averages of one spectrum. */
static void partition_energy(const RlPsyBands *gd, const float *energy, float *eb, float *max,
                             float *avg)
{
    int j = 0;
    for (int b = 0; b < gd->npart; ++b) {
        float ebb = 0, m = 0;
        for (int i = 0; i < gd->numlines[b]; ++i, ++j) {
            float const el = energy[j];
            ebb += el;
            if (m < el)
                m = el;
        }
        eb[b] = ebb;
        max[b] = m;
        avg[b] = ebb * gd->rnumlines[b];
    }
}

/* Tonality index per partition from peak/average over neighbours. */
static void tonality_index(const RlPsyBands *gd, const float *max, const float *avg,
                           unsigned char *idx)
{
    int const last = 8;
    int const n = gd->npart;
    float m, a;
    int b = 0, k;

    a = avg[b] + avg[b + 1];
    if (a > 0.0f) {
        m = max[b];
        if (m < max[b + 1])
            m = max[b + 1];
        a = 20.0f * (m * 2.0f - a) / (a * (gd->numlines[b] + gd->numlines[b + 1] - 1));
        k = (int)a;
        if (k > last)
            k = last;
        idx[b] = k;
    } else {
        idx[b] = 0;
    }
    for (b = 1; b < n - 1; b++) {
        a = avg[b - 1] + avg[b] + avg[b + 1];
        if (a > 0.0f) {
            m = max[b - 1];
            if (m < max[b])
                m = max[b];
            if (m < max[b + 1])
                m = max[b + 1];
            a = 20.0f * (m * 3.0f - a)
                / (a * (gd->numlines[b - 1] + gd->numlines[b] + gd->numlines[b + 1] - 1));
            k = (int)a;
            if (k > last)
                k = last;
            idx[b] = k;
        } else {
            idx[b] = 0;
        }
    }
    a = avg[b - 1] + avg[b];
    if (a > 0.0f) {
        m = max[b - 1];
        if (m < max[b])
            m = max[b];
        a = 20.0f * (m * 2.0f - a) / (a * (gd->numlines[b - 1] + gd->numlines[b] - 1));
        k = (int)a;
        if (k > last)
            k = last;
        idx[b] = k;
    } else {
        idx[b] = 0;
    }
}

/* Power spectrum of an FHT output of size n (n/2+1 lines). */
static void power_spectrum(const float *w, int n, float *energy)
{
    energy[0] = w[0];
    energy[0] *= energy[0];
    for (int j = n / 2 - 1; j >= 0; --j) {
        float const re = w[n / 2 - j];
        float const im = w[n / 2 + j];
        energy[n / 2 - j] = (re * re + im * im) * 0.5f;
    }
}

/* L/R spectra -> M/S spectra in place: (l+r)/sqrt2, (l-r)/sqrt2. */
static void to_mid_side(float *l_, float *r_, int n)
{
    float const sqrt2_half = RL_SQRT2_D * 0.5f;
    for (int j = n - 1; j >= 0; --j) {
        float const l = l_[j];
        float const r = r_[j];
        l_[j] = (l + r) * sqrt2_half;
        r_[j] = (l - r) * sqrt2_half;
    }
}

/* fs/4 high-pass and the 9 sub-block peaks per psy channel. */
static void attack_peaks(const RlConfig *cfg, const float *const buf[2], float peaks[4][9])
{
    float hpf[2][576];
    int const nch = cfg->channels_out;
    int const npsy = rl_psy_channels(cfg);

    memset(hpf, 0, sizeof hpf);
    for (int ch = 0; ch < nch; ch++)
        cfg->dsp->attack_fir(&buf[ch][576 - 350 - NSFIRLEN + 192], hpf[ch]);
    for (int chn = 0; chn < npsy; chn++) {
        if (chn == 2) {
            for (int i = 0; i < 576; ++i) {
                float const l = hpf[0][i];
                float const r = hpf[1][i];
                hpf[0][i] = l + r;
                hpf[1][i] = l - r;
            }
        }
        cfg->dsp->block_peaks(hpf[chn & 1], peaks[chn]);
    }
}

/* Raw attack test of LAME's attack detection (before the filters that only
 * remove attacks): can this granule, or the last_attacks==3 carry of the
 * previous one, make Resolve pick short blocks?  prev = peaks of the
 * granule before.  A superset is enough: Resolve computes the short
 * psy itself if the guess was wrong. */
static int short_possible(const RlEncoderConst *k, const float peaks[4][9], const float prev[4][9])
{
    const RlConfig *const cfg = &k->cfg;
    int const npsy = rl_psy_channels(cfg);
    for (int chn = 0; chn < npsy; chn++) {
        float const x = k->psyc.attack_threshold[chn];
        float en_subshort[12];
        /* previous granule: ns_attacks[2]==3 needs intensity[8] > x, which
         * compares sub-block 5 with sub-block 3 */
        {
            float p = prev[chn][5];
            float const q = prev[chn][3];
            if (p > q)
                p = p / q;
            else if (q > p * 10.0f)
                p = q / (p * 10.0f);
            else
                p = 0.0;
            if (p > x)
                return 1;
        }
        for (int i = 0; i < 3; i++) {
            en_subshort[i] = prev[chn][i + 6];
            if (en_subshort[i] / prev[chn][i + 4] > x)
                return 1;
        }
        for (int i = 0; i < 9; i++) {
            float p = peaks[chn][i];
            en_subshort[i + 3] = p;
            if (p > en_subshort[i + 1])
                p = p / en_subshort[i + 1];
            else if (en_subshort[i + 1] > p * 10.0f)
                p = en_subshort[i + 1] / (p * 10.0f);
            else
                p = 0.0;
            if (p > x)
                return 1;
        }
    }
    return 0;
}

static void granule_input(const RlEncoderConst *k, const RlFrame *f, int gr, const float *buf[2])
{
    for (int ch = 0; ch < 2; ch++) {
        int const c = ch < k->cfg.channels_out ? ch : 0;
        buf[ch] = &f->in[c][RL_FRAME_PRE + 576 + gr * 576 - RL_FFTOFFSET];
    }
}

/* Short-block FFTs and masking of one granule (only needed when Resolve
 * may choose short blocks). */
void rl_psy_prepare_short(const RlEncoderConst *k, RlFrame *f, int gr)
{
    const RlPsyConst *const gd = &k->psyc;
    RlPsyPrep *const pp = &f->prep;
    int const npsy = rl_psy_channels(&k->cfg);
    const float *buf[2];
    float wsamp_s[2][3][RL_BLKSIZE_S];
    float energy_s[RL_HBLKSIZE_S];
    float max[RL_CBANDS], avg[RL_CBANDS];
    unsigned char idx[RL_CBANDS + 2];

    granule_input(k, f, gr, buf);
    for (int sblock = 0; sblock < 3; sblock++) {
        for (int chn = 0; chn < npsy; ++chn) {
            RlPsyPrepShort *const ps = &pp->sht[gr][chn];
            float ecb[RL_CBANDS], cap[RL_CBANDS];
            if (sblock == 0 && chn < 2)
                rl_fft_short(gd->window_s, wsamp_s[chn], buf[chn], k->cfg.dsp->fht);
            if (chn == 2)
                to_mid_side(wsamp_s[0][sblock], wsamp_s[1][sblock], RL_BLKSIZE_S);
            power_spectrum(wsamp_s[chn & 1][sblock], RL_BLKSIZE_S, energy_s);
            memset(max, 0, sizeof max);
            memset(avg, 0, sizeof avg);
            memset(ps->eb[sblock], 0, sizeof ps->eb[sblock]);
            memset(ps->thr[sblock], 0, sizeof ps->thr[sblock]);
            partition_energy(&gd->s, energy_s, ps->eb[sblock], max, avg);
            tonality_index(&gd->s, max, avg, idx);
            k->cfg.dsp->spread(&gd->s, ps->eb[sblock], max, idx, ecb, cap);
            for (int b = 0; b < gd->s.npart; b++)
                ps->thr[sblock][b] = ecb[b] > cap[b] ? cap[b] : ecb[b];
        }
    }
    pp->short_done[gr] = 1;
}

/* The sums of nc (a constant after inlining) psy channels' spectra, each
 * with its scalar chain of adds in the scalar order; the channels' chains
 * are independent, so running them in one loop lets them overlap instead
 * of waiting on one add latency per line.  tot: lines 11..512; lp (the
 * first min(nc, 2) channels): the loudness weights' sum over lines
 * 0..511; eb, max, avg: partition_energy's per partition. */
/* one line of one channel: its scalar chain steps (nc folds after inlining) */
#define SUMS_LINE(c, op)                                                     \
    do {                                                                     \
        if (nc > (c)) {                                                      \
            op(c);                                                           \
        }                                                                    \
    } while (0)
#define SUMS_ALL(op) do { SUMS_LINE(0, op); SUMS_LINE(1, op); SUMS_LINE(2, op); SUMS_LINE(3, op); } while (0)

static inline __attribute__((always_inline)) void
spectrum_sums(int nc, const RlPsyBands *gd, const float *eql_w,
              const float energy[4][RL_HBLKSIZE], float tot[4], float lp[2], RlPsyPrepLong *pl,
              float max[4][RL_CBANDS], float avg[4][RL_CBANDS])
{
    const float *const e0 = energy[0], *const e1 = energy[1];
    const float *const e2 = energy[2], *const e3 = energy[3];
    float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f, w0 = 0.0f, w1 = 0.0f;
    int j;
#define LOUD(c) w##c += e##c[j] * eql_w[j]
#define TOT(c) t##c += e##c[j]
    for (j = 0; j < 11; j++) {
        SUMS_LINE(0, LOUD);
        SUMS_LINE(1, LOUD);
    }
    for (; j < RL_BLKSIZE / 2; j++) {
        SUMS_ALL(TOT);
        SUMS_LINE(0, LOUD);
        SUMS_LINE(1, LOUD);
    }
    SUMS_ALL(TOT);
#undef LOUD
#undef TOT
    tot[0] = t0, tot[1] = t1, tot[2] = t2, tot[3] = t3;
    lp[0] = w0, lp[1] = w1;
    j = 0;
    for (int b = 0; b < gd->npart; ++b) {
        float b0 = 0.0f, b1 = 0.0f, b2 = 0.0f, b3 = 0.0f;
        float m0 = 0.0f, m1 = 0.0f, m2 = 0.0f, m3 = 0.0f;
#define PART(c)                                                              \
        do {                                                                 \
            float const el = e##c[j];                                        \
            b##c += el;                                                      \
            if (m##c < el)                                                   \
                m##c = el;                                                   \
        } while (0)
        for (int i = 0; i < gd->numlines[b]; ++i, ++j)
            SUMS_ALL(PART);
#undef PART
#define PART_OUT(c)                                                          \
        do {                                                                 \
            pl[c].eb[b] = b##c;                                              \
            max[c][b] = m##c;                                                \
            avg[c][b] = b##c * gd->rnumlines[b];                             \
        } while (0)
        SUMS_ALL(PART_OUT);
#undef PART_OUT
    }
}
#undef SUMS_ALL
#undef SUMS_LINE

static void prepare_granule(const RlEncoderConst *k, RlFrame *f, int gr)
{
    const RlConfig *const cfg = &k->cfg;
    const RlPsyConst *const gd = &k->psyc;
    RlPsyPrep *const pp = &f->prep;
    int const npsy = rl_psy_channels(cfg);
    const float *buf[2];
    float wsamp_l[2][RL_BLKSIZE];
    float energy[4][RL_HBLKSIZE];
    float max[4][RL_CBANDS], avg[4][RL_CBANDS];
    float tot[4], lp[2];
    unsigned char idx[RL_CBANDS + 2];

    granule_input(k, f, gr, buf);
    attack_peaks(cfg, buf, pp->peaks[gr]);

    /* long blocks: the spectra, their sums, then each channel's masking */
    for (int chn = 0; chn < npsy; chn++) {
        if (chn < 2)
            rl_fft_long(gd->window, wsamp_l[chn], buf[chn], k->cfg.dsp->fht);
        else if (chn == 2)
            to_mid_side(wsamp_l[0], wsamp_l[1], RL_BLKSIZE);
        power_spectrum(wsamp_l[chn & 1], RL_BLKSIZE, energy[chn]);
        memset(&pp->lng[gr][chn], 0, sizeof pp->lng[gr][chn]);
    }
    switch (npsy) {
    case 1:
        spectrum_sums(1, &gd->l, k->ath.eql_w, (const float (*)[RL_HBLKSIZE]) energy, tot, lp,
                      pp->lng[gr], max, avg);
        break;
    case 2:
        spectrum_sums(2, &gd->l, k->ath.eql_w, (const float (*)[RL_HBLKSIZE]) energy, tot, lp,
                      pp->lng[gr], max, avg);
        break;
    default:
        spectrum_sums(4, &gd->l, k->ath.eql_w, (const float (*)[RL_HBLKSIZE]) energy, tot, lp,
                      pp->lng[gr], max, avg);
        break;
    }
    for (int chn = 0; chn < npsy; chn++) {
        RlPsyPrepLong *const pl = &pp->lng[gr][chn];
        pp->tot_ener[gr][chn] = tot[chn];
        if (chn < 2) {           /* loudness approximation, not for M/S */
            float l = lp[chn];
            l *= VO_SCALE;
            pp->loudness[gr][chn] = l;
        }
        tonality_index(&gd->l, max[chn], avg[chn], idx);
        k->cfg.dsp->spread(&gd->l, pl->eb, max[chn], idx, pl->ecb, pl->cap);
    }

    /* short blocks, only where Resolve may need them */
    pp->short_done[gr] = 0;
    int need;
    if (cfg->short_blocks == RL_SB_DISPENSED && !gd->force_short_block_calc) {
        need = 0;
    } else if (cfg->short_blocks == RL_SB_FORCED || gd->force_short_block_calc || f->index == 0) {
        need = 1;                /* frame 0: the granule before is LAME's init state */
    } else {
        float prev_local[4][9];
        const float (*prev)[9];
        if (gr > 0) {
            prev = (const float (*)[9])pp->peaks[gr - 1];
        } else {
            /* the granule before starts 576 samples earlier, still inside mfbuf */
            const float *pbuf[2] = { buf[0] - 576, buf[1] - 576 };
            attack_peaks(cfg, pbuf, prev_local);
            prev = (const float (*)[9])prev_local;
        }
        need = short_possible(k, (const float (*)[9])pp->peaks[gr], prev);
    }
    if (need)
        rl_psy_prepare_short(k, f, gr);
}

void rl_psy_prepare(const RlEncoderConst *k, RlFrame *f)
{
    for (int gr = 0; gr < k->cfg.mode_gr; gr++)
        prepare_granule(k, f, gr);
}
