/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the output of --decode: 16-bit PCM as LAME writes it, a 44-byte
 * WAV header (sizes fixed up at the end when the file is seekable) or raw
 * samples (-t; -x then writes them big-endian).
 * Algorithms derived from LAME 3.100's frontend (WriteWaveHeader,
 * put_audio16; LGPL-2.0-or-later). */
#ifndef RL_WAV_WRITER_H
#define RL_WAV_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct RlWavWriter RlWavWriter;

/* path "-" = stdout.  header 0: raw samples; swap: big-endian raw samples. */
int  rl_wav_open(RlWavWriter **out, const char *path, int header, int swap, int channels,
                 int samplerate, char *err, size_t errlen);
int  rl_wav_write(RlWavWriter *w, const int16_t *interleaved, int frames);
/* ok: fixes up the header and closes; !ok: closes and removes a named
 * regular file (a device, FIFO or socket is never removed).
 * Returns 0 or a negative errno. */
int  rl_wav_close(RlWavWriter *w, int ok);
/* The file a failed run removes (a named regular file), else NULL. */
const char *rl_wav_removable_path(const RlWavWriter *w);

#endif
