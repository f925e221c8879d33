/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ReplayGain analysis (Yule+Butterworth equal-loudness filter, 50 ms RMS histogram, 95th percentile).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "replaygain.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define RG_PINK_REF       64.82     /* calibration for 89 dB */
#define RG_PERCENTILE     0.95
#define RG_WINDOW_DEN     20L       /* 1/20 s windows */

/* Filter coefficients per output rate, rows: 48k, 44.1k, 32k, 24k, 22.05k,
 * 16k, 12k, 11.025k, 8k.  Stored as float like LAME (Float_t = sample_t).
 * Yule row: [0..10] feed-forward on in[-10..0], [11..20] feedback on out[-10..-1]. */
static const float yule_coef[9][21] = {
    { 0.00288463683916,  0.00012025322027,  0.00306428023191,  0.00594298065125, -0.02074045215285,  0.02161526843274, -0.01655260341619, -0.00009291677959, -0.00123395316851, -0.02160367184185, 0.03857599435200, 0.13919314567432, -0.86984376593551,  2.75465861874613, -5.87257861775999,  9.48293806319790,-12.28759895145294, 13.05504219327545,-11.34170355132042,  7.81501653005538, -3.84664617118067},
    {-0.00187763777362,  0.00674613682247, -0.00240879051584,  0.01624864962975, -0.02596338512915,  0.02245293253339, -0.00834990904936, -0.00851165645469, -0.00848709379851, -0.02911007808948, 0.05418656406430, 0.13149317958808, -0.75104302451432,  2.19611684890774, -4.39470996079559,  6.85401540936998, -8.81498681370155,  9.47693607801280, -8.54751527471874,  6.36317777566148, -3.47845948550071},
    {-0.00881362733839,  0.00651420667831, -0.01390589421898,  0.03174092540049,  0.00222312597743,  0.04781476674921, -0.05588393329856,  0.02163541888798, -0.06247880153653, -0.09331049056315, 0.15457299681924, 0.02347897407020, -0.05032077717131,  0.16378164858596, -0.45953458054983,  1.00595954808547, -1.67148153367602,  2.23697657451713, -2.64577170229825,  2.84868151156327, -2.37898834973084},
    {-0.02950134983287,  0.00205861885564, -0.00000828086748,  0.06276101321749, -0.00584456039913, -0.02364141202522, -0.00915702933434,  0.03282930172664, -0.08587323730772, -0.22613988682123, 0.30296907319327, 0.00302439095741,  0.02005851806501,  0.04500235387352, -0.22138138954925,  0.39120800788284, -0.22638893773906, -0.16276719120440, -0.25656257754070,  1.07977492259970, -1.61273165137247},
    {-0.01760176568150, -0.01635381384540,  0.00832043980773,  0.05724228140351, -0.00589500224440, -0.00469977914380, -0.07834489609479,  0.11921148675203, -0.11828570177555, -0.25572241425570, 0.33642304856132, 0.02977207319925, -0.04237348025746,  0.08333755284107, -0.04067510197014, -0.12453458140019,  0.47854794562326, -0.80774944671438,  0.12205022308084,  0.87350271418188, -1.49858979367799},
    { 0.00541907748707, -0.03193428438915, -0.01863887810927,  0.10478503600251,  0.04097565135648, -0.12398163381748,  0.04078262797139, -0.01419140100551, -0.22784394429749, -0.14351757464547, 0.44915256608450, 0.03222754072173,  0.05784820375801,  0.06747620744683,  0.00613424350682,  0.22199650564824, -0.42029820170918,  0.00213767857124, -0.37256372942400,  0.29661783706366, -0.62820619233671},
    {-0.00588215443421, -0.03788984554840,  0.08647503780351,  0.00647310677246, -0.27562961986224,  0.30931782841830, -0.18901604199609,  0.16744243493672,  0.16242137742230, -0.75464456939302, 0.56619470757641, 0.01807364323573,  0.01639907836189, -0.04784254229033,  0.06739368333110, -0.33032403314006,  0.45054734505008,  0.00819999645858, -0.26806001042947,  0.29156311971249, -1.04800335126349},
    {-0.00749618797172, -0.03721611395801,  0.06920467763959,  0.01628462406333, -0.25344790059353,  0.15558449135573,  0.02377945217615,  0.17520704835522, -0.14289799034253, -0.53174909058578, 0.58100494960553, 0.01818801111503,  0.02442357316099, -0.02505961724053, -0.05246019024463, -0.23313271880868,  0.38952639978999,  0.14728154134330, -0.20256413484477, -0.31863563325245, -0.51035327095184},
    {-0.02217936801134,  0.04788665548180, -0.04060034127000, -0.11202315195388, -0.02459864859345,  0.14590772289388, -0.10214864179676,  0.04267842219415, -0.00275953611929, -0.42163034350696, 0.53648789255105, 0.04704409688120,  0.05477720428674, -0.18823009262115, -0.17556493366449,  0.15113130533216,  0.26408300200955, -0.04678328784242, -0.03424681017675, -0.43193942311114, -0.25049871956020}
};

/* Butterworth row: [0],[2],[4] on in[-2..0]; [1],[3] on out[-2..-1]. */
static const float butter_coef[9][5] = {
    {0.98621192462708, 0.97261396931306, -1.97242384925416, -1.97223372919527, 0.98621192462708},
    {0.98500175787242, 0.97022847566350, -1.97000351574484, -1.96977855582618, 0.98500175787242},
    {0.97938932735214, 0.95920349965459, -1.95877865470428, -1.95835380975398, 0.97938932735214},
    {0.97531843204928, 0.95124613669835, -1.95063686409857, -1.95002759149878, 0.97531843204928},
    {0.97316523498161, 0.94705070426118, -1.94633046996323, -1.94561023566527, 0.97316523498161},
    {0.96454515552826, 0.93034775234268, -1.92909031105652, -1.92783286977036, 0.96454515552826},
    {0.96009142950541, 0.92177618768381, -1.92018285901082, -1.91858953033784, 0.96009142950541},
    {0.95856916599601, 0.91885558323625, -1.91713833199203, -1.91542108074780, 0.95856916599601},
    {0.94597685600279, 0.89487434461664, -1.89195371200558, -1.88903307939452, 0.94597685600279}
};

/* 10th-order IIR; the additions are grouped exactly as LAME's filterYule. */
static void yule_run(const float *in, float *out, long n, const float *k)
{
    for (; n > 0; --n, ++in, ++out) {
        float a0 = in[-10] * k[0];
        float a1 = in[-9] * k[1];
        float a2 = in[-8] * k[2];
        float a3 = in[-7] * k[3];
        float g0 = a0 + a1 + a2 + a3;
        float a4 = in[-6] * k[4];
        float a5 = in[-5] * k[5];
        float a6 = in[-4] * k[6];
        float a7 = in[-3] * k[7];
        float g1 = a4 + a5 + a6 + a7;
        float a89 = in[-2] * k[8] + in[-1] * k[9];
        float a10 = in[0] * k[10];
        float fwd = g0 + g1 + a89 + a10;

        float b0 = out[-10] * k[11] + out[-9] * k[12];
        float b1 = out[-8] * k[13] + out[-7] * k[14];
        float b2 = out[-6] * k[15] + out[-5] * k[16];
        float b3 = out[-4] * k[17] + out[-3] * k[18];
        float b4 = out[-2] * k[19] + out[-1] * k[20];
        float back = b0 + b1 + b2 + b3 + b4;

        out[0] = fwd - back;
    }
}

/* 2nd-order high-pass (filterButter). */
static void butter_run(const float *in, float *out, long n, const float *k)
{
    for (; n > 0; --n, ++in, ++out) {
        float fwd = in[-2] * k[0] + in[-1] * k[2] + in[0] * k[4];
        float back = out[-2] * k[1] + out[-1] * k[3];
        out[0] = fwd - back;
    }
}

const float *rl_gain_yule_coef(int freqindex)
{
    return yule_coef[freqindex];
}

const float *rl_gain_butter_coef(int freqindex)
{
    return butter_coef[freqindex];
}

int rl_gain_rate_index(long samplerate)
{
    switch ((int)samplerate) {
    case 48000: return 0;
    case 44100: return 1;
    case 32000: return 2;
    case 24000: return 3;
    case 22050: return 4;
    case 16000: return 5;
    case 12000: return 6;
    case 11025: return 7;
    case 8000:  return 8;
    default:    return -1;
    }
}

int rl_gain_init(RlGainState *g, long samplerate)
{
    if (!g)
        return -EINVAL;
    /* LAME's ResetSampleFrequency clears only the first MAX_ORDER history
     * values of each buffer; we clear everything, which is equivalent
     * because nothing beyond them is read before it is written. */
    memset(g, 0, sizeof(*g));
    g->freqindex = rl_gain_rate_index(samplerate);
    if (g->freqindex < 0)
        return -ENOTSUP;
    g->window = rl_gain_window(samplerate);
    return 0;
}

long rl_gain_window(long samplerate)
{
    return (samplerate * 1L + RG_WINDOW_DEN - 1) / RG_WINDOW_DEN;
}

void rl_gain_filter(int freqindex, const float *in, float *step, float *out, long n)
{
    yule_run(in, step, n, yule_coef[freqindex]);
    butter_run(step, out, n, butter_coef[freqindex]);
}

/* Sum of squares of one window piece: the first n&3 values singly, then
 * groups of four summed pairwise-left-to-right before being added. */
float rl_gain_square_sum(const float *p, long n)
{
    float s = 0;
    long i;
    for (i = n & 3; i > 0; --i, ++p)
        s += p[0] * p[0];
    for (i = n / 4; i > 0; --i, p += 4) {
        float q0 = p[0] * p[0];
        float q1 = p[1] * p[1];
        float q2 = p[2] * p[2];
        float q3 = p[3] * p[3];
        s += q0 + q1 + q2 + q3;
    }
    return s;
}

int rl_gain_analyze(RlGainState *g, const float *left, const float *right,
                    size_t nsamples, int num_channels)
{
    const float *src[2];
    long remaining, pos = 0;
    int ch;

    if (nsamples == 0)
        return 0;
    if (num_channels == 1)
        right = left;
    else if (num_channels != 2)
        return -EINVAL;
    src[0] = left;
    src[1] = right;

    /* The first MAX_ORDER samples are filtered out of the pre-buffer, which
     * holds the previous call's last MAX_ORDER inputs in front of them. */
    for (ch = 0; ch < 2; ++ch)
        memcpy(g->inpre[ch] + RL_RG_MAX_ORDER, src[ch],
               (nsamples < RL_RG_MAX_ORDER ? nsamples : RL_RG_MAX_ORDER) * sizeof(float));

    remaining = (long)nsamples;
    while (remaining > 0) {
        long n = remaining > g->window - g->totsamp ? g->window - g->totsamp : remaining;
        const float *in[2];
        float part[2];

        if (pos < RL_RG_MAX_ORDER) {
            in[0] = g->inpre[0] + RL_RG_MAX_ORDER + pos;
            in[1] = g->inpre[1] + RL_RG_MAX_ORDER + pos;
            if (n > RL_RG_MAX_ORDER - pos)
                n = RL_RG_MAX_ORDER - pos;
        } else {
            in[0] = left + pos;
            in[1] = right + pos;
        }
        /* the channels are independent: LAME's Yule L, Yule R, Butter L,
         * Butter R order does not matter */
        for (ch = 0; ch < 2; ++ch)
            rl_gain_filter(g->freqindex, in[ch], g->step[ch] + RL_RG_MAX_ORDER + g->totsamp,
                           g->out[ch] + RL_RG_MAX_ORDER + g->totsamp, n);

        /* float partial sums restart for every piece (LAME's sum_l/sum_r) */
        part[0] = rl_gain_square_sum(g->out[0] + RL_RG_MAX_ORDER + g->totsamp, n);
        part[1] = rl_gain_square_sum(g->out[1] + RL_RG_MAX_ORDER + g->totsamp, n);
        g->sum[0] += part[0];
        g->sum[1] += part[1];

        remaining -= n;
        pos += n;
        g->totsamp += n;
        if (g->totsamp == g->window) {
            /* window complete: histogram its loudness (0.01 dB steps) */
            g->hist[rl_gain_hist_index(g->sum[0], g->sum[1], g->totsamp)]++;
            g->sum[0] = g->sum[1] = 0.;
            for (ch = 0; ch < 2; ++ch) {
                memmove(g->out[ch], g->out[ch] + g->totsamp, RL_RG_MAX_ORDER * sizeof(float));
                memmove(g->step[ch], g->step[ch] + g->totsamp, RL_RG_MAX_ORDER * sizeof(float));
            }
            g->totsamp = 0;
        }
        if (g->totsamp > g->window)
            return -EINVAL;
    }

    /* keep the last MAX_ORDER inputs for the next call */
    for (ch = 0; ch < 2; ++ch) {
        if (nsamples < RL_RG_MAX_ORDER) {
            memmove(g->inpre[ch], g->inpre[ch] + nsamples,
                    (RL_RG_MAX_ORDER - nsamples) * sizeof(float));
            memcpy(g->inpre[ch] + RL_RG_MAX_ORDER - nsamples, src[ch], nsamples * sizeof(float));
        } else {
            memcpy(g->inpre[ch], src[ch] + nsamples - RL_RG_MAX_ORDER,
                   RL_RG_MAX_ORDER * sizeof(float));
        }
    }
    return 0;
}

size_t rl_gain_hist_index(double lsum, double rsum, long totsamp)
{
    double const val = RL_RG_STEPS_PER_DB * 10. *
        log10((lsum + rsum) / totsamp * 0.5 + 1.e-37);
    size_t ival = (val <= 0) ? 0 : (size_t)val;
    if (ival >= RL_RG_HIST_LEN)
        ival = RL_RG_HIST_LEN - 1;
    return ival;
}

/* analyzeResult: level at the 95th percentile of the window histogram. */
float rl_gain_hist_title(const uint32_t *h)
{
    uint32_t elems = 0, upper, sum = 0;
    size_t i, len = RL_RG_HIST_LEN;

    for (i = 0; i < len; i++)
        elems += h[i];
    if (elems == 0)
        return RL_RG_NOT_ENOUGH;
    upper = (uint32_t)ceil(elems * (1. - RG_PERCENTILE));
    for (i = len; i-- > 0;) {
        sum += h[i];
        if (sum >= upper)
            break;
    }
    /* float arithmetic on purpose, as in LAME */
    return (float)((float)RG_PINK_REF - (float)i / (float)RL_RG_STEPS_PER_DB);
}

float rl_gain_title(RlGainState *g)
{
    float gain = rl_gain_hist_title(g->hist);
    size_t i;
    int ch;

    for (i = 0; i < RL_RG_HIST_LEN; i++) {
        g->album[i] += g->hist[i];
        g->hist[i] = 0;
    }
    for (ch = 0; ch < 2; ++ch)
        for (i = 0; i < RL_RG_MAX_ORDER; i++)
            g->inpre[ch][i] = g->step[ch][i] = g->out[ch][i] = 0.f;
    g->totsamp = 0;
    g->sum[0] = g->sum[1] = 0.;
    return gain;
}

/* LAME's EQ(a,b) with a relative 1e-6f tolerance */
static int nearly_equal(double a, double b)
{
    return (fabs(a) > fabs(b)) ? (fabs(a - b) <= fabs(a) * 1e-6f)
                               : (fabs(a - b) <= fabs(b) * 1e-6f);
}

int rl_gain_radio_value(float title_gain)
{
    if (nearly_equal(title_gain, RL_RG_NOT_ENOUGH))
        return 0;
    return (int)floor(title_gain * 10.0 + 0.5);
}

uint16_t rl_gain_tag_field(int radio_gain, int find_replay_gain)
{
    unsigned v;
    if (!find_replay_gain)
        return 0;
    if (radio_gain > 0x1FE)
        radio_gain = 0x1FE;
    if (radio_gain < -0x1FE)
        radio_gain = -0x1FE;
    v = 0x2000 | 0xC00;
    if (radio_gain >= 0)
        v |= (unsigned)radio_gain;
    else
        v |= 0x200 | (unsigned)(-radio_gain);
    return (uint16_t)v;
}
