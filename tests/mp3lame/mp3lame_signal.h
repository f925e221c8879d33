/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* The generated test signals of the comparison cases, and their conversion
 * to each encode entry point's sample type and scaling. */
#ifndef RL_TEST_MP3LAME_SIGNAL_H
#define RL_TEST_MP3LAME_SIGNAL_H

#include "mp3lame_case.h"

/* A track's samples, +-1.0 full scale: left[i], right[i], i < nsamples. */
struct rlt_pcm {
    double *left, *right;
    int nsamples;
};

int rlt_signal_make(struct rlt_pcm *pcm, const struct rlt_track *track);
void rlt_signal_free(struct rlt_pcm *pcm);

/* The PCM as the entry point takes it: planar (left, right) or interleaved
 * (left only, two channels), in the entry point's own type and scale. */
struct rlt_entry_pcm {
    void *left, *right;
    size_t sample_size;   /* bytes of one sample of one channel */
    int interleaved;
};

int rlt_entry_pcm_make(struct rlt_entry_pcm *out, const struct rlt_pcm *pcm, enum rlt_entry entry);
void rlt_entry_pcm_free(struct rlt_entry_pcm *out);

#endif
