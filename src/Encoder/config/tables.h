/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MPEG audio bitrate / sample-rate tables and the helpers that map
 * between rates and header indices, plus the scalefactor band tables.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 * Stage (every function here): any (pure lookups). */
#ifndef RL_TABLES_H
#define RL_TABLES_H

#include "rl_types.h"

/* Bitrate in kbps for header index `index` (0..15).  version: 1 = MPEG-1,
 * 0 = MPEG-2 (also used for MPEG-2.5 by LAME's cfg->version, identical for
 * the indices 1..8 that MPEG-2.5 allows), 2 = MPEG-2.5 row.  Returns -1 for
 * an index that is not a legal bitrate, 0 for free format (index 0). */
int rl_bitrate_kbps(int version, int index);

/* Sample rate for header index (LAME samplerate_table); -1 when invalid. */
int rl_samplerate_hz(int version, int index);

/* LAME SmpFrqIndex: header sample-rate index of `sample_freq`, version
 * written to *version (1 = MPEG-1, 0 = MPEG-2/2.5); -1 if not an MPEG rate. */
int rl_smp_frq_index(int sample_freq, int *version);

/* LAME BitrateIndex: header index of `kbps` or -1. */
int rl_bitrate_index(int kbps, int version, int samplerate);

/* LAME FindNearestBitrate: the legal bitrate closest to `kbps`. */
int rl_find_nearest_bitrate(int kbps, int version, int samplerate);

/* LAME nearestBitrateFullIndex: index 0..16 into
 * {8,16,24,32,40,48,56,64,80,96,112,128,160,192,224,256,320}. */
int rl_nearest_bitrate_full_index(int kbps);

/* LAME map2MP3Frequency: the smallest MPEG sample rate >= freq (max 48000). */
int rl_map2mp3_frequency(int freq);

/* Scalefactor band boundaries (LAME sfBandIndex row
 * samplerate_index + 3*version + 6*(samplerate < 16000)), with the
 * psfb21/psfb12 pseudo bands filled in as lame_init_params does. */
int rl_sfb_bands(RlSfbBands *out, int samplerate_out);

#endif
