/* SPDX-License-Identifier: LGPL-2.0-or-later */
#include "mp3lame_signal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

static double noise(uint64_t *r)
{
    return (double)(rlt_rand(r) >> 11) / (double)(1ull << 52) - 1.0;
}

int rlt_signal_make(struct rlt_pcm *pcm, const struct rlt_track *track)
{
    int n = track->nsamples;
    uint64_t r = track->seed;
    pcm->nsamples = n;
    pcm->left = calloc((size_t)n + 1, sizeof(double));
    pcm->right = calloc((size_t)n + 1, sizeof(double));
    if (!pcm->left || !pcm->right) {
        rlt_signal_free(pcm);
        return -ENOMEM;
    }
    double g = track->gain, phase = 0.0;
    int period = 20 + rlt_rand_below(&r, 400);
    for (int i = 0; i < n; i++) {
        double t = (double)i / (n > 1 ? n - 1 : 1), l = 0.0, rr = 0.0;
        switch (track->signal) {
        case RLT_NOISE:
            l = noise(&r);
            rr = noise(&r);
            break;
        case RLT_SWEEP:   /* 20 Hz .. 20 kHz at 44.1 kHz, logarithmic */
            phase += 2.0 * M_PI * 20.0 * pow(1000.0, t) / 44100.0;
            l = sin(phase);
            rr = cos(phase * 1.01);
            break;
        case RLT_SILENCE:
            break;
        case RLT_SQUARE:
            l = (i / period) % 2 ? 1.0 : -1.0;
            rr = (i / (period + 3)) % 2 ? -1.0 : 1.0;
            break;
        case RLT_IMPULSES:
            l = i % (period * 50) == 0 ? 1.0 : 0.0;
            rr = i % (period * 37) == 7 ? -1.0 : 0.0;
            break;
        case RLT_ANTIPHASE:
            l = 0.7 * sin(2.0 * M_PI * 440.0 * i / 44100.0) + 0.3 * noise(&r);
            rr = -l;
            break;
        case RLT_MUSICLIKE:   /* a chord with a beat and a little noise */
            l = 0.3 * sin(2.0 * M_PI * 220.0 * i / 44100.0) + 0.2 * sin(2.0 * M_PI * 277.2 * i / 44100.0) +
                0.2 * sin(2.0 * M_PI * 329.6 * i / 44100.0) * ((i / 11025) % 2) + 0.05 * noise(&r);
            rr = 0.8 * l + 0.1 * sin(2.0 * M_PI * 1760.0 * i / 44100.0);
            break;
        case RLT_SIGNAL_COUNT:
            break;
        }
        pcm->left[i] = g * l;
        pcm->right[i] = g * rr;
    }
    return 0;
}

void rlt_signal_free(struct rlt_pcm *pcm)
{
    free(pcm->left);
    free(pcm->right);
    pcm->left = pcm->right = NULL;
}

static long clamp_round(double v, double lo, double hi)
{
    v = nearbyint(v);
    return (long)(v < lo ? lo : v > hi ? hi : v);
}

/* one converted sample at dst[index] (dst's type chosen by entry) */
static void store(void *dst, size_t index, double x, enum rlt_entry entry)
{
    switch (entry) {
    case RLT_E_BUFFER:
    case RLT_E_INTERLEAVED:
        ((short *)dst)[index] = (short)clamp_round(x * 32767.0, -32768.0, 32767.0);
        break;
    case RLT_E_FLOAT:
        ((float *)dst)[index] = (float)(x * 32768.0);
        break;
    case RLT_E_IEEE_FLOAT:
    case RLT_E_INTERLEAVED_IEEE_FLOAT:
        ((float *)dst)[index] = (float)x;
        break;
    case RLT_E_IEEE_DOUBLE:
    case RLT_E_INTERLEAVED_IEEE_DOUBLE:
        ((double *)dst)[index] = x;
        break;
    case RLT_E_INT:
    case RLT_E_INTERLEAVED_INT:
        ((int *)dst)[index] = (int)clamp_round(x * 2147483647.0, (double)INT_MIN, (double)INT_MAX);
        break;
    case RLT_E_LONG:
        ((long *)dst)[index] = clamp_round(x * 32767.0, -32768.0, 32767.0);
        break;
    case RLT_E_LONG2:   /* 16 bits of value in the top of a long: lame scales by 2^-(8 sizeof(long) - 16) */
        ((long *)dst)[index] = clamp_round(x * 32767.0, -32768.0, 32767.0) * (1L << (8 * sizeof(long) - 16));
        break;
    case RLT_ENTRY_COUNT:
        break;
    }
}

static size_t sample_size(enum rlt_entry entry)
{
    switch (entry) {
    case RLT_E_BUFFER:
    case RLT_E_INTERLEAVED: return sizeof(short);
    case RLT_E_FLOAT:
    case RLT_E_IEEE_FLOAT:
    case RLT_E_INTERLEAVED_IEEE_FLOAT: return sizeof(float);
    case RLT_E_IEEE_DOUBLE:
    case RLT_E_INTERLEAVED_IEEE_DOUBLE: return sizeof(double);
    case RLT_E_INT:
    case RLT_E_INTERLEAVED_INT: return sizeof(int);
    default: return sizeof(long);
    }
}

int rlt_entry_pcm_make(struct rlt_entry_pcm *out, const struct rlt_pcm *pcm, enum rlt_entry entry)
{
    size_t n = (size_t)pcm->nsamples + 1;
    out->sample_size = sample_size(entry);
    out->interleaved = entry == RLT_E_INTERLEAVED || entry == RLT_E_INTERLEAVED_IEEE_FLOAT ||
                       entry == RLT_E_INTERLEAVED_IEEE_DOUBLE || entry == RLT_E_INTERLEAVED_INT;
    out->left = calloc(2 * n, out->sample_size);
    out->right = out->interleaved ? NULL : calloc(n, out->sample_size);
    if (!out->left || (!out->interleaved && !out->right)) {
        rlt_entry_pcm_free(out);
        return -ENOMEM;
    }
    for (int i = 0; i < pcm->nsamples; i++) {
        if (out->interleaved) {
            store(out->left, 2 * (size_t)i, pcm->left[i], entry);
            store(out->left, 2 * (size_t)i + 1, pcm->right[i], entry);
        } else {
            store(out->left, (size_t)i, pcm->left[i], entry);
            store(out->right, (size_t)i, pcm->right[i], entry);
        }
    }
    return 0;
}

void rlt_entry_pcm_free(struct rlt_entry_pcm *out)
{
    free(out->left);
    free(out->right);
    out->left = out->right = NULL;
}
