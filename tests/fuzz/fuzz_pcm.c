/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz target "pcm": the PCM input parsers (src/Io/pcm_reader.h and
 * the direct-read layout probe, src/Io/raw_layout.h).
 *
 * Input layout (docs/reliability.md):
 *   byte 0   how the file is opened (low 3 bits):
 *              0 stdin, a regular file   (LAME's WAV/AIFF parser, seekable)
 *              1 stdin, a pipe           (the same parser, skips by reading)
 *              2 stdin, raw PCM (-r)
 *              3 a named file            (libsndfile, then the layout probe)
 *              4 a named file with -r    (libsndfile; headerless PCM fallback)
 *              5 stdin from a pipe with -r
 *              6, 7 as 0 and 3
 *            bit 3: --ignorelength; bits 4-6: the named file's suffix
 *   byte 1   raw format: bits 0-1 bitwidth 8/16/24/32, bit 2 channels 1/2,
 *            bits 3-4 signed -1/0/1/1, bit 5 big-endian, bit 6: an invalid
 *            bitwidth or channel count instead (the refusal paths)
 *   byte 2   bit 7 clear: frames per rl_pcm_read call, 2 + (byte & 127) * 36
 *            (2 .. 4574; even, as the drivers' multiples of 576 are:
 *            libsndfile 1.2.0 miscounts an odd-sized read of a mono VOX
 *            file, tests/fuzz/findings-open/README.md), each call one read;
 *            bit 7 set: LAME's reads, rl_pcm_set_read_size(576 or 1152 by
 *            bit 6) and calls of 1..4 (bits 0-1) times that
 *   byte 3   raw sample rate index
 *   rest     the file's bytes
 *
 * Invariants checked besides memory safety and termination:
 *   - rl_pcm_open either fails with a message or gives 1..2 channels and a
 *     sample rate >= 1;
 *   - the stdin parser never returns more sample bytes than the input has,
 *     nor (with a header length > 0) more frames than the header announced;
 *   - when rl_raw_layout_probe accepts a named file, the bytes at the
 *     layout's offsets (what the I/O scheduler reads directly, with LAME's
 *     one-sample shift of a stereo file's last read: rl_raw_sample_offset)
 *     are exactly the values rl_pcm_read returns, frame count included:
 *     otherwise the ring (direct reads) and --sequential (libsndfile) would
 *     encode different samples. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "pcm_reader.h"
#include "raw_layout.h"

#define MAX_TOTAL_FRAMES (1 << 22)   /* stop a libsndfile decode that runs long */

static const int k_rates[16] = { 44100, 48000, 32000, 22050, 24000, 16000, 11025, 12000,
                                 8000, 96000, 1, 7999, 50000, 88200, 0, -5 };
static const char *const k_suffix[8] = { "in.wav", "in.aiff", "in.raw", "in.bin",
                                         "in.vox", "in.mp3", "in.pcm", "in.wav" };

/* The values LAME's front end gets for frames [first, first + got) must be
 * the file's bytes where the layout says LAME sees them (after
 * rl_raw_layout_set_read_size with the reads' size). */
static void check_read(const RlRawLayout *lay, const uint8_t *file, int64_t first, int got,
                       const int32_t *buf)
{
    int const ch = lay->channels;
    int i;
    for (i = 0; i < got * ch; i++) {
        int64_t const f = first + i / ch;
        int32_t const v = rl_raw_sample(file + lay->data_offset + rl_raw_sample_offset(lay, f, i % ch),
                                        lay->fmt);
        FZ_CHECK(v == buf[i], "frame %lld channel %d: direct read %d, rl_pcm_read %d (%lld frames "
                 "in the layout, tail %d, %d shifted)", (long long)f, i % ch, (int)v, (int)buf[i],
                 (long long)lay->frames, lay->tail, lay->shift_frames);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FzBytes b = { data, size };
    unsigned const mode_byte = fz_u8(&b), raw_byte = fz_u8(&b);
    unsigned const read_byte = fz_u8(&b);
    int const lame_reads = (read_byte & 0x80) != 0;
    int const read_size = lame_reads ? (read_byte & 0x40 ? 1152 : 576) : 0;
    int const chunk = lame_reads ? read_size * (1 + (int)(read_byte & 3))
                                 : 2 + (int)(read_byte & 127) * 36;
    int const rate = k_rates[fz_u8(&b) & 15];
    int const mode = (int)(mode_byte & 7) == 6 ? 0 : (int)(mode_byte & 7) == 7 ? 3 : (int)(mode_byte & 7);
    int const is_named = mode == 3 || mode == 4;
    RlRawFormat raw;
    RlPcmReader *r = NULL;
    RlRawLayout lay;
    int have_lay = 0;
    char err[512], path[320];
    int32_t *buf = NULL;
    int64_t total = 0;
    int rc, ch;

    memset(&raw, 0, sizeof raw);
    raw.enabled = mode == 2 || mode == 4 || mode == 5;
    raw.samplerate = rate;
    raw.bitwidth = 8 << (raw_byte & 3);
    if (raw.bitwidth == 64)
        raw.bitwidth = 32;
    raw.channels = 1 + ((raw_byte >> 2) & 1);
    raw.is_signed = (int)((raw_byte >> 3) & 3) - 1;
    if (raw.is_signed > 1)
        raw.is_signed = 1;
    raw.big_endian = (raw_byte >> 5) & 1;
    if (raw_byte & 0x40) {       /* what the command line would refuse earlier */
        if (raw_byte & 0x80)
            raw.channels = (raw_byte & 1) ? 0 : 3;
        else
            raw.bitwidth = (raw_byte & 1) ? 12 : 0;
    }
    raw.ignore_length = (mode_byte >> 3) & 1;

    if (is_named) {
        fz_path(path, sizeof path, k_suffix[(mode_byte >> 4) & 7]);
        fz_write_file(path, b.p, b.n);
    } else {
        fz_stdin_from(b.p, b.n, mode == 1 || mode == 5);
        snprintf(path, sizeof path, "-");
    }

    err[0] = '\0';
    rc = rl_pcm_open(&r, path, &raw, err, sizeof err);
    if (rc < 0) {
        FZ_CHECK(r == NULL, "failed open left a reader");
        FZ_CHECK(err[0] != '\0', "open failed (%d) without a message", rc);
        goto out;
    }
    ch = rl_pcm_channels(r);
    FZ_CHECK(ch == 1 || ch == 2, "channels %d", ch);
    FZ_CHECK(rl_pcm_samplerate(r) >= 1, "sample rate %d", rl_pcm_samplerate(r));

    if (is_named) {
        rc = rl_raw_layout_probe(r, &lay);
        FZ_CHECK(rc >= 0 && rc <= 1, "layout probe returned %d", rc);
        have_lay = rc == 1;
        if (have_lay) {
            FZ_CHECK(lay.channels == ch, "layout channels %d, reader %d", lay.channels, ch);
            FZ_CHECK(lay.frame_bytes == ch * rl_raw_sample_bytes(lay.fmt), "layout frame bytes");
            FZ_CHECK(lay.data_offset >= 0 && lay.frames >= 0
                     && lay.data_offset + lay.frames * lay.frame_bytes <= (int64_t)b.n,
                     "layout outside the file: offset %lld, %lld frames of %d bytes, file %zu",
                     (long long)lay.data_offset, (long long)lay.frames, lay.frame_bytes, b.n);
            /* the reads below are LAME's reads of this size */
            rl_raw_layout_set_read_size(&lay, lame_reads ? read_size : chunk);
            FZ_CHECK(!lay.tail || (ch == 2 && lay.data_offset + lay.frames * lay.frame_bytes
                                               + rl_raw_sample_bytes(lay.fmt) <= (int64_t)b.n),
                     "layout tail sample outside the file");
        }
    }
    if (lame_reads)
        rl_pcm_set_read_size(r, read_size);

    buf = malloc((size_t)chunk * (size_t)ch * sizeof *buf);
    FZ_CHECK(buf != NULL, "out of memory");
    for (;;) {
        int got = rl_pcm_read(r, buf, chunk);
        if (got <= 0)
            break;
        FZ_CHECK(got <= chunk, "read %d frames, asked for %d", got, chunk);
        if (have_lay) {
            FZ_CHECK(total + got <= lay.frames, "libsndfile gives more frames than the layout (%lld)",
                     (long long)lay.frames);
            check_read(&lay, b.p, total, got, buf);
        }
        total += got;
        if (total >= MAX_TOTAL_FRAMES)
            break;
    }
    if (have_lay)
        FZ_CHECK(total == lay.frames, "libsndfile gave %lld frames, the layout %lld",
                 (long long)total, (long long)lay.frames);
    if (!is_named) {
        /* LAME's stdin parser: never more sample bytes than the stream holds */
        int64_t const hdr = rl_pcm_frames(r);
        FZ_CHECK(total * ch <= (int64_t)b.n, "stdin: %lld frames from %zu bytes",
                 (long long)total, b.n);
        FZ_CHECK(hdr <= 0 || total <= hdr, "stdin: %lld frames, header says %lld",
                 (long long)total, (long long)hdr);
    }
out:
    free(buf);
    rl_pcm_close(r);
    return 0;
}
