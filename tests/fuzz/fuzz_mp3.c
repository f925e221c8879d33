/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz target "mp3": MPEG audio input, through the PCM reader
 * (src/Io/mpa_reader.c: lame's front end, skipping delay and padding) and
 * through the decoder alone (src/Decoder/include/decoder.h) fed in pieces.
 *
 * Input layout (docs/reliability.md):
 *   byte 0   bit 0: a named file "in.mp3" (else stdin); bit 1: stdin is a
 *            pipe; bit 2: --mp3input (Layer III asked for) instead of any
 *            layer; bit 3: also feed the decoder directly
 *   byte 1   the direct feed's piece size: 1 + byte * 7 bytes
 *   rest     the stream
 *
 * Invariants besides memory safety and termination:
 *   - rl_pcm_open either fails with a message or gives 1..2 channels and
 *     one of the nine MPEG sample rates;
 *   - no read gives more frames than asked; a stream never gives more
 *     samples than one frame (1152) per 4 bytes of input;
 *   - the decoder never returns more than 1152 samples per call.
 * (Samples may come without a header in info: mpglib reports none once a
 * frame of a negative computed size, Layer I/II free format, was decoded;
 * LAME's front end sees the same.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "decoder.h"
#include "pcm_reader.h"

static int mpeg_rate(int r)
{
    static const int rates[9] = { 44100, 48000, 32000, 22050, 24000, 16000, 11025, 12000, 8000 };
    for (int i = 0; i < 9; i++)
        if (rates[i] == r)
            return 1;
    return 0;
}

static void read_through_reader(const uint8_t *data, size_t n, unsigned mode)
{
    RlRawFormat raw;
    RlPcmReader *r = NULL;
    char err[512], path[320];
    int32_t buf[2 * 1152];
    int64_t total = 0;
    int rc;

    memset(&raw, 0, sizeof raw);
    raw.mpeg = (mode & 4) ? 3 : RL_RAW_MPEG_ANY;
    if (mode & 1) {
        fz_path(path, sizeof path, "in.mp3");
        fz_write_file(path, data, n);
    } else {
        fz_stdin_from(data, n, (mode & 2) != 0);
        snprintf(path, sizeof path, "-");
    }
    err[0] = '\0';
    rc = rl_pcm_open(&r, path, &raw, err, sizeof err);
    if (rc < 0) {
        FZ_CHECK(r == NULL, "failed open left a reader");
        FZ_CHECK(err[0] != '\0', "open failed (%d) without a message", rc);
        return;
    }
    FZ_CHECK(rl_pcm_channels(r) == 1 || rl_pcm_channels(r) == 2, "channels %d", rl_pcm_channels(r));
    FZ_CHECK(mpeg_rate(rl_pcm_samplerate(r)), "sample rate %d", rl_pcm_samplerate(r));
    for (;;) {
        int const want = 1 + (int) (total % 1152);
        int const got = rl_pcm_read(r, buf, want);
        if (got <= 0)
            break;
        FZ_CHECK(got <= want, "read %d frames, asked for %d", got, want);
        total += got;
        FZ_CHECK(total <= ((int64_t) n / 4 + 1) * 1152, "%lld frames from %zu bytes",
                 (long long) total, n);
    }
    rl_pcm_close(r);
}

static void feed_decoder(const uint8_t *data, size_t n, size_t piece)
{
    RlMpaDecoder *d = NULL;
    RlMpaInfo info;
    int16_t l[1152], rr[1152];
    int delay = -1, padding = -1;
    int64_t total = 0;
    size_t off = 0;

    FZ_CHECK(rl_mpa_create(&d) == 0, "decoder create");
    memset(&info, 0, sizeof info);
    while (off < n) {
        size_t const len = n - off < piece ? n - off : piece;
        int got = rl_mpa_decode(d, data + off, len, l, rr, &info, &delay, &padding);
        off += len;
        /* what is buffered: decode until it needs more (as LAME's callers do) */
        for (int calls = 0; got > 0; calls++) {
            FZ_CHECK(got <= 1152, "%d samples from one call", got);
            total += got;
            FZ_CHECK(calls < 100000, "no end to the buffered frames");
            got = rl_mpa_decode(d, NULL, 0, l, rr, &info, &delay, &padding);
        }
        if (got < 0)
            break;
    }
    FZ_CHECK(total <= ((int64_t) n / 4 + 1) * 1152, "%lld samples from %zu bytes", (long long) total, n);
    rl_mpa_destroy(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FzBytes b = { data, size };
    unsigned const mode = fz_u8(&b);
    size_t const piece = 1 + (size_t) fz_u8(&b) * 7;

    read_through_reader(b.p, b.n, mode);
    if (mode & 8)
        feed_decoder(b.p, b.n, piece);
    return 0;
}
