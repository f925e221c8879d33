/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the output of --decode (wav_writer.h).
 * Algorithms derived from LAME 3.100's frontend (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "wav_writer.h"
#include "io_msg.h"

struct RlWavWriter {
    FILE   *fp;
    char   *path;        /* NULL for stdout */
    int     regular;     /* path is a regular file: a failed run removes it (never a
                          * device, FIFO or socket named as the output) */
    int     header, swap, channels, samplerate;
    double  frames;      /* written */
    int     error;
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t) v;
    p[1] = (uint8_t) (v >> 8);
    p[2] = (uint8_t) (v >> 16);
    p[3] = (uint8_t) (v >> 24);
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t) v;
    p[1] = (uint8_t) (v >> 8);
}

/* fwrite's whole count, or the write's -errno (EIO when stdio gave none) */
static int put_bytes(FILE *fp, const void *p, size_t n)
{
    errno = 0;
    if (fwrite(p, 1, n, fp) == n)
        return 0;
    return errno ? -errno : -EIO;
}

/* LAME's WriteWaveHeader (its int sums wrap as unsigned here) */
static int write_header(RlWavWriter *w, int pcmbytes)
{
    uint8_t h[44];
    memcpy(h, "RIFF", 4);
    put32(h + 4, (uint32_t) pcmbytes + 44 - 8);
    memcpy(h + 8, "WAVEfmt ", 8);
    put32(h + 16, 16);
    put16(h + 20, 1);
    put16(h + 22, (unsigned) w->channels);
    put32(h + 24, (uint32_t) w->samplerate);
    put32(h + 28, (uint32_t) (w->samplerate * w->channels * 2));
    put16(h + 32, (unsigned) (w->channels * 2));
    put16(h + 34, 16);
    memcpy(h + 36, "data", 4);
    put32(h + 40, (uint32_t) pcmbytes);
    return put_bytes(w->fp, h, sizeof h);
}

int rl_wav_open(RlWavWriter **out, const char *path, int header, int swap, int channels,
                int samplerate, char *err, size_t errlen)
{
    RlWavWriter *w = calloc(1, sizeof(*w));
    struct stat st;
    if (!w)
        return -ENOMEM;
    w->header = header;
    w->swap = swap && !header;      /* lame swaps raw output only */
    w->channels = channels;
    w->samplerate = samplerate;
    if (strcmp(path, "-") == 0)
        w->fp = stdout;
    else {
        w->path = strdup(path);
        w->fp = w->path ? fopen(path, "wb") : NULL;
        if (!w->fp) {
            int const e = w->path ? errno : ENOMEM;
            rl_io_msg(err, errlen, "%s: %s", path, strerror(e));
            free(w->path);
            free(w);
            return -e;
        }
        w->regular = fstat(fileno(w->fp), &st) == 0 && S_ISREG(st.st_mode);
    }
    if (header) {
        int const rc = write_header(w, 0x7FFFFFFF);
        if (rc < 0) {
            rl_io_msg(err, errlen, "%s: %s", path, strerror(-rc));
            (void) rl_wav_close(w, 0);
            return rc;
        }
    }
    *out = w;
    return 0;
}

int rl_wav_write(RlWavWriter *w, const int16_t *pcm, int frames)
{
    uint8_t buf[2 * 1152 * 2];
    size_t m = 0;
    int const n = frames * w->channels;

    for (int i = 0; i < n; i++) {
        uint16_t const x = (uint16_t) pcm[i];
        if (m + 2 > sizeof buf) {
            int const rc = put_bytes(w->fp, buf, m);
            if (rc < 0)
                return rc;
            m = 0;
        }
        buf[m++] = (uint8_t) (w->swap ? x >> 8 : x);
        buf[m++] = (uint8_t) (w->swap ? x : x >> 8);
    }
    if (m) {
        int const rc = put_bytes(w->fp, buf, m);
        if (rc < 0)
            return rc;
    }
    w->frames += frames;
    return 0;
}

int rl_wav_close(RlWavWriter *w, int ok)
{
    int rc = 0;
    if (!w)
        return 0;
    if (ok && w->header && w->path) {
        /* lame's sizes: 0 for an empty file, capped for a huge one */
        int const bps = 2 * w->channels;
        double size = w->frames;
        if (size <= 0)
            size = 0;
        else if (size > 0xFFFFFFD0 / bps)
            size = 0xFFFFFFD0;
        else
            size *= bps;
        if (fseek(w->fp, 0L, SEEK_SET) == 0)
            rc = write_header(w, (int) (uint32_t) size);
    }
    errno = 0;
    if (w->fp == stdout) {
        if (fflush(stdout) != 0 && rc == 0)
            rc = errno ? -errno : -EIO;
    }
    else if (fclose(w->fp) != 0 && rc == 0)
        rc = errno ? -errno : -EIO;
    if ((!ok || rc < 0) && w->regular)
        (void) unlink(w->path);
    free(w->path);
    free(w);
    return rc;
}

const char *rl_wav_removable_path(const RlWavWriter *w)
{
    return w->regular ? w->path : NULL;
}
