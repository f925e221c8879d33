/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* gen_signal: writes deterministic test signals in any container/sample format
 * libsndfile can write, with exact sample values (no dithering, no scaling
 * surprises), for the ringlame identity tests.
 *
 * usage: gen_signal [-t type] [-r rate] [-c channels] [-n frames | -d seconds]
 *                   [-f format] [-b subtype] [-a amplitude] [-F freq]
 *                   [-S seed] [--no-peak] out_path
 *   type:    silence sine sweep white pink impulse square panned antiphase dc
 *            burst mix                                     (default mix)
 *   format:  wav wavex aiff au caf w64 rf64 flac ogg raw   (default wav)
 *   subtype: u8 s8 16 24 32 float double vorbis            (default 16)
 * Integer subtypes: a sample x in [-1, 1] becomes round(x * 2^(B-1)-1) for
 * x >= 0 and round(x * 2^(B-1)) for x < 0, so -1.0 is the most negative code
 * and a full-scale square wave really is full scale.  The value reaches the
 * file through sf_write_int (left-justified int32), which libsndfile narrows
 * by an exact shift.  Float subtypes store x as is.
 * The noise generators use splitmix64 seeded from -S and the channel number,
 * so the same arguments always give the same samples. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sndfile.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define MAX_CH 8
#define CHUNK 4096

typedef struct {
    uint64_t rng[MAX_CH];
    double pink[MAX_CH][7];
    double env[MAX_CH];      /* decaying "drum" envelope for mix */
    double anti;             /* antiphase: channel 0's value, negated for channel 1 */
} GenState;

typedef struct {
    const char *type;
    int rate, channels;
    int64_t frames;
    double amp, freq;
    int amp_set, freq_set;
} GenParams;

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [-1, 1) */
static double white(GenState *g, int ch)
{
    return (double)(splitmix64(&g->rng[ch]) >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
}

/* Paul Kellett's pink filter on white noise, roughly unit peak. */
static double pink(GenState *g, int ch)
{
    double w = white(g, ch), *b = g->pink[ch];
    b[0] = 0.99886 * b[0] + w * 0.0555179;
    b[1] = 0.99332 * b[1] + w * 0.0750759;
    b[2] = 0.96900 * b[2] + w * 0.1538520;
    b[3] = 0.86650 * b[3] + w * 0.3104856;
    b[4] = 0.55000 * b[4] + w * 0.5329522;
    b[5] = -0.7616 * b[5] - w * 0.0168980;
    double p = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362;
    b[6] = w * 0.115926;
    return p * 0.2;
}

static double clip1(double x) { return x > 1.0 ? 1.0 : (x < -1.0 ? -1.0 : x); }

/* Sample i of channel ch, nominally in [-1, 1]. */
static double sample(const GenParams *p, GenState *g, int ch, int64_t i)
{
    const double sr = p->rate, t = (double)i / sr;
    const char *ty = p->type;
    if (!strcmp(ty, "silence"))
        return 0.0;
    if (!strcmp(ty, "sine")) {
        double f = p->freq * (ch == 1 ? 1.25 : 1.0);
        return p->amp * sin(2.0 * M_PI * f * t);
    }
    if (!strcmp(ty, "sweep")) {
        /* logarithmic 20 Hz .. 0.45*sr over the whole length */
        double len = p->frames > 1 ? (double)p->frames / sr : 1.0;
        double f0 = 20.0, f1 = 0.45 * sr, k = log(f1 / f0);
        double ph = 2.0 * M_PI * f0 * len / k * (exp(t / len * k) - 1.0);
        return p->amp * sin(ph + (ch == 1 ? 0.5 : 0.0));
    }
    if (!strcmp(ty, "white"))
        return p->amp * white(g, ch);
    if (!strcmp(ty, "pink"))
        return clip1(p->amp * 2.0 * pink(g, ch));
    if (!strcmp(ty, "impulse")) {
        int64_t period = p->rate / 10;  /* ten clicks a second, alternating sign */
        if (i % period == 100 % period) {
            int64_t k = i / period;
            return ((k + ch) & 1) ? -p->amp : p->amp;
        }
        return 0.0;
    }
    if (!strcmp(ty, "square")) {
        double half = sr / (2.0 * p->freq);
        int64_t k = (int64_t)floor((double)i / half);
        return (k & 1) ? -p->amp : p->amp;
    }
    if (!strcmp(ty, "panned")) {
        /* hard left for the first half, hard right for the second */
        int64_t half = p->frames / 2;
        int active = (i < half) ? 0 : 1;
        double x = 0.5 * p->amp * sin(2.0 * M_PI * p->freq * t) + 0.5 * p->amp * white(g, 0);
        return (ch == active) ? x : 0.0;
    }
    if (!strcmp(ty, "antiphase")) {
        /* right = -left exactly (channel 0 draws the noise for both) */
        if (ch == 0)
            g->anti = 0.5 * p->amp * sin(2.0 * M_PI * p->freq * t) + 0.5 * p->amp * pink(g, 0);
        return ch == 0 ? g->anti : -g->anti;
    }
    if (!strcmp(ty, "dc"))
        return ch == 0 ? p->amp : -0.5 * p->amp;
    if (!strcmp(ty, "burst")) {
        /* 40 ms noise bursts twice a second over a quiet sine: attacks, short blocks */
        double pos = fmod(t, 0.5);
        double x = 0.05 * p->amp * sin(2.0 * M_PI * p->freq * t);
        double w = white(g, ch);
        if (pos < 0.04)
            x += p->amp * 0.9 * w;
        return clip1(x);
    }
    if (!strcmp(ty, "mix")) {
        /* something music-like: a chord with vibrato, pink noise, decaying hits */
        double f = p->freq * (1.0 + 0.003 * sin(2.0 * M_PI * 5.0 * t));
        double x = 0.30 * sin(2.0 * M_PI * f * t)
                 + 0.20 * sin(2.0 * M_PI * f * 1.2599 * t + ch)
                 + 0.15 * sin(2.0 * M_PI * f * 1.4983 * t)
                 + 0.08 * sin(2.0 * M_PI * f * 4.0 * t + 0.3 * ch);
        double n = pink(g, ch);
        int64_t beat = p->rate / 4;    /* four hits a second */
        if (i % beat == 0)
            g->env[ch] = 1.0;
        x += 0.10 * n + 0.35 * g->env[ch] * white(g, ch);
        g->env[ch] *= 0.9995;
        return clip1(p->amp * x);
    }
    fprintf(stderr, "gen_signal: unknown signal type '%s'\n", ty);
    exit(2);
}

static int parse_format(const char *f)
{
    static const struct { const char *n; int v; } t[] = {
        {"wav", SF_FORMAT_WAV}, {"wavex", SF_FORMAT_WAVEX}, {"aiff", SF_FORMAT_AIFF},
        {"au", SF_FORMAT_AU}, {"caf", SF_FORMAT_CAF}, {"w64", SF_FORMAT_W64},
        {"rf64", SF_FORMAT_RF64}, {"flac", SF_FORMAT_FLAC}, {"ogg", SF_FORMAT_OGG},
        {"raw", SF_FORMAT_RAW}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(f, t[i].n))
            return t[i].v;
    return -1;
}

/* returns the libsndfile subtype; *bits = integer width, 0 for float formats */
static int parse_subtype(const char *s, int *bits)
{
    *bits = 0;
    if (!strcmp(s, "u8")) { *bits = 8; return SF_FORMAT_PCM_U8; }
    if (!strcmp(s, "s8")) { *bits = 8; return SF_FORMAT_PCM_S8; }
    if (!strcmp(s, "16")) { *bits = 16; return SF_FORMAT_PCM_16; }
    if (!strcmp(s, "24")) { *bits = 24; return SF_FORMAT_PCM_24; }
    if (!strcmp(s, "32")) { *bits = 32; return SF_FORMAT_PCM_32; }
    if (!strcmp(s, "float")) return SF_FORMAT_FLOAT;
    if (!strcmp(s, "double")) return SF_FORMAT_DOUBLE;
    if (!strcmp(s, "vorbis")) return SF_FORMAT_VORBIS;
    return -1;
}

static int32_t to_int(double x, int bits)
{
    int64_t max = ((int64_t)1 << (bits - 1)) - 1;
    x = clip1(x);
    int64_t v = x >= 0.0 ? llrint(x * (double)max) : llrint(x * (double)(max + 1));
    return (int32_t)(uint32_t)((uint64_t)v << (32 - bits));
}

static void usage(void)
{
    fprintf(stderr,
        "usage: gen_signal [-t type] [-r rate] [-c channels] [-n frames | -d seconds]\n"
        "                  [-f wav|wavex|aiff|au|caf|w64|rf64|flac|ogg|raw]\n"
        "                  [-b u8|s8|16|24|32|float|double|vorbis] [-a amp] [-F freq]\n"
        "                  [-S seed] [--no-peak] out_path\n"
        "types: silence sine sweep white pink impulse square panned antiphase dc burst mix\n");
    exit(2);
}

int main(int argc, char **argv)
{
    GenParams p = { "mix", 44100, 2, 44100, 0.5, 440.0, 0, 0 };
    const char *fmt = "wav", *sub = "16", *out = NULL;
    double seconds = -1.0;
    uint64_t seed = 1;
    int no_peak = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--no-peak")) { no_peak = 1; continue; }
        if (a[0] == '-' && a[1] && !a[2] && i + 1 < argc) {
            const char *v = argv[++i];
            switch (a[1]) {
            case 't': p.type = v; break;
            case 'r': p.rate = atoi(v); break;
            case 'c': p.channels = atoi(v); break;
            case 'n': p.frames = strtoll(v, NULL, 10); break;
            case 'd': seconds = atof(v); break;
            case 'f': fmt = v; break;
            case 'b': sub = v; break;
            case 'a': p.amp = atof(v); p.amp_set = 1; break;
            case 'F': p.freq = atof(v); p.freq_set = 1; break;
            case 'S': seed = strtoull(v, NULL, 10); break;
            default: usage();
            }
            continue;
        }
        if (out || (a[0] == '-' && a[1]))
            usage();
        out = a;
    }
    if (!out || p.rate <= 0 || p.channels < 1 || p.channels > MAX_CH)
        usage();
    if (seconds >= 0.0)
        p.frames = llround(seconds * p.rate);
    if (p.frames < 0)
        usage();
    if (!p.amp_set && (!strcmp(p.type, "square") || !strcmp(p.type, "impulse")))
        p.amp = 1.0;     /* these are full-scale tests by default */
    if (!p.amp_set && !strcmp(p.type, "dc"))
        p.amp = 0.25;
    if (!p.freq_set && !strcmp(p.type, "sine"))
        p.freq = 1000.0;

    int major = parse_format(fmt), bits = 0, minor = parse_subtype(sub, &bits);
    if (major < 0 || minor < 0) {
        fprintf(stderr, "gen_signal: unknown format '%s' or subtype '%s'\n", fmt, sub);
        return 2;
    }
    SF_INFO info;
    memset(&info, 0, sizeof info);
    info.samplerate = p.rate;
    info.channels = p.channels;
    info.format = major | minor | (major == SF_FORMAT_RAW ? SF_ENDIAN_LITTLE : 0);
    if (!sf_format_check(&info)) {
        fprintf(stderr, "gen_signal: libsndfile cannot write %s/%s with %d channels at %d Hz\n",
                fmt, sub, p.channels, p.rate);
        return 2;
    }
    SNDFILE *sf = sf_open(out, SFM_WRITE, &info);
    if (!sf) {
        fprintf(stderr, "gen_signal: %s: %s\n", out, sf_strerror(NULL));
        return 1;
    }
    if (no_peak)
        sf_command(sf, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);

    GenState g;
    memset(&g, 0, sizeof g);
    for (int ch = 0; ch < MAX_CH; ch++)
        g.rng[ch] = seed * 0x2545F4914F6CDD1Dull + (uint64_t)ch * 0x9E3779B97F4A7C15ull;

    static int32_t ibuf[CHUNK * MAX_CH];
    static double dbuf[CHUNK * MAX_CH];
    int64_t done = 0;
    while (done < p.frames) {
        int n = (int)(p.frames - done < CHUNK ? p.frames - done : CHUNK);
        for (int k = 0; k < n; k++)
            for (int ch = 0; ch < p.channels; ch++) {
                double x = sample(&p, &g, ch, done + k);
                if (bits)
                    ibuf[k * p.channels + ch] = to_int(x, bits);
                else
                    dbuf[k * p.channels + ch] = x;
            }
        sf_count_t w = bits ? sf_writef_int(sf, ibuf, n) : sf_writef_double(sf, dbuf, n);
        if (w != n) {
            fprintf(stderr, "gen_signal: %s: write failed: %s\n", out, sf_strerror(sf));
            sf_close(sf);
            remove(out);
            return 1;
        }
        done += n;
    }
    if (sf_close(sf) != 0) {
        fprintf(stderr, "gen_signal: %s: close failed\n", out);
        return 1;
    }
    return 0;
}
