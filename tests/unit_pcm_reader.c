/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: PCM reader conversions (libsndfile path for named files,
 * expected values checked against LAME 3.100's front end) and refusals;
 * partial last frames (LAME's shifted last read, on the decode path and in
 * the direct-read layout); stdin headers that end early or never end. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "io_sched.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "raw_layout.h"

static char dir[256];

static void put16(unsigned char *p, unsigned v) { p[0] = v & 255; p[1] = (v >> 8) & 255; }
static void put32(unsigned char *p, uint32_t v) { put16(p, v & 0xffff); put16(p + 2, v >> 16); }

/* writes a canonical 44-byte-header WAV */
static void write_wav(const char *path, int tag, int ch, int bits, const void *data, uint32_t len)
{
    unsigned char h[44];
    FILE *f = fopen(path, "wb");
    memcpy(h, "RIFF", 4); put32(h + 4, 36 + len); memcpy(h + 8, "WAVEfmt ", 8);
    put32(h + 16, 16); put16(h + 20, (unsigned)tag); put16(h + 22, (unsigned)ch); put32(h + 24, 44100);
    put32(h + 28, 44100u * (unsigned)ch * (unsigned)bits / 8); put16(h + 32, (unsigned)(ch * bits / 8)); put16(h + 34, (unsigned)bits);
    memcpy(h + 36, "data", 4); put32(h + 40, len);
    fwrite(h, 1, 44, f); fwrite(data, 1, len, f); fclose(f);
}

/* A WAV whose data chunk declares `declared` bytes, holding `len` bytes of
 * data, then `after` (n_after bytes) */
static void write_wav_ex(const char *path, int ch, int bits, const uint8_t *data, uint32_t len,
                         uint32_t declared, const void *after, size_t n_after)
{
    unsigned char h[44];
    FILE *f = fopen(path, "wb");
    memcpy(h, "RIFF", 4); put32(h + 4, 36 + declared); memcpy(h + 8, "WAVEfmt ", 8);
    put32(h + 16, 16); put16(h + 20, 1); put16(h + 22, (unsigned)ch); put32(h + 24, 44100);
    put32(h + 28, 44100u * (unsigned)ch * (unsigned)bits / 8); put16(h + 32, (unsigned)(ch * bits / 8)); put16(h + 34, (unsigned)bits);
    memcpy(h + 36, "data", 4); put32(h + 40, declared);
    fwrite(h, 1, 44, f); fwrite(data, 1, len, f);
    if (n_after) fwrite(after, 1, n_after, f);
    fclose(f);
}

/* little-endian 16/24-bit sample k of data, left-justified */
static int32_t le_sample(const uint8_t *data, int bits, long k)
{
    const uint8_t *p = data + k * (bits / 8);
    return bits == 16 ? (int32_t)((uint32_t)p[1] << 24 | (uint32_t)p[0] << 16)
                      : (int32_t)((uint32_t)p[2] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 8);
}

/* Reads path (or stdin) with reads of `read` frames, calls of `call` frames
 * (a multiple of read), and checks LAME's values: sample 2f+c of the data,
 * one sample later in the last read when `shift` (the stream holds one
 * whole sample past its last whole frame).  Also checks the direct-read
 * layout's view (named files): rl_raw_sample_offset must give the same. */
static void check_partial(const char *what, const char *path, const uint8_t *data, int bits,
                          long frames, int shift, int read, int call, int want_layout)
{
    RlPcmReader *r;
    char err[256];
    int32_t buf[4096];
    long got = 0, bad = -1, last = frames - frames % read;
    int n, rc = rl_pcm_open(&r, path, NULL, err, sizeof err);
    CHECK(rc == 0, "%s: open: %s", what, err);
    if (rc != 0)
        return;
    if (want_layout) {
        RlRawLayout l;
        int lr = rl_raw_layout_probe(r, &l);
        CHECK(lr == 1, "%s: layout probe %d", what, lr);
        if (lr == 1) {
            long f;
            int c, lbad = -1;
            CHECK(l.frames == frames && l.tail == (shift != 0), "%s: layout frames %lld tail %d", what,
                  (long long)l.frames, l.tail);
            rl_raw_layout_set_read_size(&l, read);
            CHECK(l.shift_frames == (shift && frames % read ? (int)(frames % read) : 0), "%s: shift_frames %d",
                  what, l.shift_frames);
            for (f = 0; f < frames && lbad < 0; f++)
                for (c = 0; c < 2; c++) {
                    long k = rl_raw_sample_offset(&l, f, c) / (bits / 8);
                    if (k != f * 2 + c + (shift && f >= last))
                        lbad = (int)f;
                }
            CHECK(lbad < 0, "%s: layout offsets wrong at frame %d", what, lbad);
        }
    }
    if (call != read)
        rl_pcm_set_read_size(r, read);
    while ((n = rl_pcm_read(r, buf, call)) > 0) {
        for (int i = 0; i < n * 2 && bad < 0; i++) {
            long f = got + i / 2, k = f * 2 + i % 2 + (shift && f >= last);
            if (buf[i] != le_sample(data, bits, k))
                bad = f;
        }
        got += n;
    }
    CHECK(n == 0 && got == frames && bad < 0, "%s: read %ld of %ld frames (rc %d), first wrong frame %ld",
          what, got, frames, n, bad);
    rl_pcm_close(r);
}

/* The I/O scheduler's blocks for path (reads of `read` frames, blocks of 4
 * reads): direct reads of the data (expect_raw) must give the values of
 * check_partial's rule, on both backends. */
static void check_io_partial(const char *what, const char *path, const uint8_t *data, int bits,
                             long frames, int shift, int read, int expect_raw)
{
    for (int backend = RL_IO_URING; backend <= RL_IO_THREAD; backend++) {
        RlPcmReader *r = NULL;
        RlMp3Writer *w = NULL;
        RlIoSched *io = NULL;
        RlIoParams p;
        RlIoStats st;
        const RlInBlock *b;
        char err[256] = "";
        int32_t v[2 * 64];
        long got = 0, bad = -1, last = frames - frames % read;
        int rc, eof = 0;

        if (rl_pcm_open(&r, path, NULL, err, sizeof err) != 0 || rl_mp3_open(&w, "/dev/null", err, sizeof err) != 0) {
            CHECK(0, "%s: setup: %s", what, err);
            rl_pcm_close(r);
            continue;
        }
        memset(&p, 0, sizeof p);
        p.frame_size = read;
        p.block_frames = 4 * read;
        p.backend = backend;
        rc = rl_io_start(&io, r, w, &p, err, sizeof err);
        if (rc != 0) {          /* no io_uring here: the thread backend still runs */
            CHECK(backend == RL_IO_URING, "%s: rl_io_start %d %s", what, rc, err);
            rl_pcm_close(r);
            rl_mp3_close(w, 0);
            continue;
        }
        while (!eof && (rc = rl_io_in_next(io, &b)) >= 0) {
            if (rc == 0) { usleep(1000); continue; }
            for (int i = 0; i < b->nframes * 2 && bad < 0; i += 2) {
                long f = got + i / 2;
                rl_raw_convert((const uint8_t *)b->data + (size_t)(i / 2) * (size_t)b->frame_bytes, b->fmt, v, 2);
                for (int c = 0; c < 2; c++)
                    if (v[c] != le_sample(data, bits, f * 2 + c + (shift && f >= last)))
                        bad = f;
            }
            got += b->nframes;
            eof = b->eof;
            rl_io_in_release(io, b);
        }
        rl_io_stats(io, &st);
        CHECK(eof && got == frames && bad < 0 && st.raw_input == expect_raw,
              "%s (backend %d): %ld of %ld frames, first wrong %ld, direct reads %d", what, backend, got, frames,
              bad, st.raw_input);
        CHECK(rl_io_finish(io, NULL, 0, 0) == 0, "%s: finish", what);
        rl_pcm_close(r);
        rl_mp3_close(w, 0);
    }
}

/* Points stdin at the bytes p[0..n): a regular file, or a pipe (n small) */
static void stdin_from(const char *path, const void *p, size_t n, int as_pipe)
{
    int fd;
    if (!freopen("/dev/null", "rb", stdin))
        return;
    if (as_pipe) {
        int pfd[2];
        if (pipe(pfd) != 0)
            return;
        if (write(pfd[1], p, n) != (ssize_t)n) { /* the pipe holds 64 KiB */ }
        close(pfd[1]);
        fd = pfd[0];
    } else {
        (void)rl_test_write_file(path, p, n);
        fd = open(path, O_RDONLY);
    }
    dup2(fd, STDIN_FILENO);
    close(fd);
}

/* rl_pcm_open("-") on the given bytes: must fail with a message containing msg */
static void check_stdin_refused(const char *what, const char *path, const void *p, size_t n, const char *msg)
{
    for (int as_pipe = 0; as_pipe < 2; as_pipe++) {
        RlPcmReader *r = NULL;
        char err[256] = "";
        int rc;
        stdin_from(path, p, n, as_pipe);
        rc = rl_pcm_open(&r, "-", NULL, err, sizeof err);
        CHECK(rc < 0 && r == NULL && strstr(err, msg) && strncmp(err, "-: ", 3) == 0,
              "%s (%s): rc=%d err='%s', expected '%s'", what, as_pipe ? "pipe" : "file", rc, err, msg);
        rl_pcm_close(r);
    }
}

static int read_all(const char *path, const RlRawFormat *raw, int32_t *out, int max, int *ch, char *err, size_t errlen)
{
    RlPcmReader *r; int n, tot = 0, rc = rl_pcm_open(&r, path, raw, err, errlen);
    if (rc < 0) return rc;
    *ch = rl_pcm_channels(r);
    while (tot < max && (n = rl_pcm_read(r, out + tot * *ch, 2)) > 0) tot += n;
    rl_pcm_close(r);
    return tot;
}

int main(void)
{
    char path[512], err[512];
    int32_t v[64]; int ch = 0, n;
    if (rl_test_tmpdir(dir, sizeof dir, "unit-pcm-reader") != 0)
        rl_test_fatal("cannot create a temporary directory");

    { /* s16 stereo: x << 16 */
        int16_t s[6] = { 0, 1, -1, 32767, -32768, 1234 };
        snprintf(path, sizeof path, "%s/s16.wav", dir); write_wav(path, 1, 2, 16, s, sizeof s);
        n = read_all(path, NULL, v, 16, &ch, err, sizeof err);
        CHECK(n == 3 && ch == 2, "s16: n=%d ch=%d (%s)", n, ch, err);
        for (int i = 0; i < 6 && n == 3; i++) CHECK(v[i] == (int32_t)((uint32_t)(uint16_t)s[i] << 16), "s16[%d]=%d", i, v[i]);
    }
    { /* u8 mono through libsndfile: (x-128) << 24 (LAME's stdin parser differs) */
        unsigned char u[3] = { 0x00, 0x80, 0xFF };
        snprintf(path, sizeof path, "%s/u8.wav", dir); write_wav(path, 1, 1, 8, u, 3);
        n = read_all(path, NULL, v, 16, &ch, err, sizeof err);
        CHECK(n == 3 && ch == 1 && v[0] == INT32_MIN && v[1] == 0 && v[2] == 127 << 24, "u8: n=%d %d %d %d", n, v[0], v[1], v[2]);
    }
    { /* float: libsndfile normalises to the file peak (peak -> 0x7FFF0000) */
        float f[2] = { 0.5f, -0.25f };
        snprintf(path, sizeof path, "%s/f32.wav", dir); write_wav(path, 3, 1, 32, f, sizeof f);
        n = read_all(path, NULL, v, 16, &ch, err, sizeof err);
        CHECK(n == 2 && v[0] == 0x7FFF0000 && v[1] == (int32_t)0xC0008000u, "f32: n=%d %08x %08x", n, (unsigned)v[0], (unsigned)v[1]);
    }
    { /* raw s16 big-endian stereo with -r */
        unsigned char b[4] = { 0x12, 0x34, 0xFF, 0xFE };
        RlRawFormat raw = { 1, 44100, 2, 16, -1, 1, 0, 0, 0, 0, 0, 0 };
        FILE *f; snprintf(path, sizeof path, "%s/x.raw", dir); f = fopen(path, "wb"); fwrite(b, 1, 4, f); fclose(f);
        n = read_all(path, &raw, v, 16, &ch, err, sizeof err);
        CHECK(n == 1 && ch == 2 && v[0] == 0x12340000 && v[1] == (int32_t)0xFFFE0000u, "raw: n=%d %08x %08x (%s)", n, (unsigned)v[0], (unsigned)v[1], err);
        /* without -r the same file is refused (LAME would encode it as noise) */
        n = read_all(path, NULL, v, 16, &ch, err, sizeof err);
        CHECK(n < 0 && strstr(err, "not a supported audio file"), "raw without -r: rc=%d err=%s", n, err);
    }
    { /* 3 channels refused */
        int16_t s[3] = { 1, 2, 3 };
        snprintf(path, sizeof path, "%s/c3.wav", dir); write_wav(path, 1, 3, 16, s, sizeof s);
        n = read_all(path, NULL, v, 16, &ch, err, sizeof err);
        CHECK(n < 0 && strstr(err, "channels"), "3ch: rc=%d err=%s", n, err);
    }
    { /* missing and empty files */
        FILE *f;
        snprintf(path, sizeof path, "%s/missing.wav", dir);
        n = read_all(path, NULL, v, 16, &ch, err, sizeof err);
        CHECK(n == -ENOENT && strstr(err, "missing.wav"), "missing: rc=%d err=%s", n, err);
        snprintf(path, sizeof path, "%s/empty.wav", dir); f = fopen(path, "wb"); fclose(f);
        n = read_all(path, NULL, v, 16, &ch, err, sizeof err);
        CHECK(n < 0 && strstr(err, "empty"), "empty: rc=%d err=%s", n, err);
    }
    { /* partial last frames: LAME keeps count/2 frames of its last read, copied from the end */
        static uint8_t d[8192];
        for (size_t i = 0; i < sizeof d; i++) d[i] = (uint8_t)(i * 37 + 11);
        /* 16-bit stereo, 10 frames + 2 bytes: data length 42 (odd sample count) */
        snprintf(path, sizeof path, "%s/p16.wav", dir); write_wav_ex(path, 2, 16, d, 42, 42, NULL, 0);
        check_partial("s16 +2 bytes, reads of 4", path, d, 16, 10, 1, 4, 4, 1);
        check_partial("s16 +2 bytes, reads of 4 in calls of 8", path, d, 16, 10, 1, 4, 8, 0);
        check_partial("s16 +2 bytes, reads of 3", path, d, 16, 10, 1, 3, 3, 1);
        check_partial("s16 +2 bytes, reads of 5 (last read full)", path, d, 16, 10, 1, 5, 5, 1);
        /* +3 bytes: still one whole sample */
        snprintf(path, sizeof path, "%s/p16b.wav", dir); write_wav_ex(path, 2, 16, d, 43, 44, NULL, 0);
        check_partial("s16 +3 bytes", path, d, 16, 10, 1, 4, 4, 1);
        /* truncated download: the header promises more */
        snprintf(path, sizeof path, "%s/p16c.wav", dir); write_wav_ex(path, 2, 16, d, 1150 * 4 + 2, 100000, NULL, 0);
        check_partial("s16 truncated, reads of 1152", path, d, 16, 1150, 1, 1152, 1152, 1);
        check_partial("s16 truncated, reads of 576 in calls of 1152", path, d, 16, 1150, 1, 576, 1152, 1);
        check_io_partial("io: s16 truncated, reads of 32", path, d, 16, 1150, 1, 32, 1);
        check_io_partial("io: s16 truncated, reads of 50", path, d, 16, 1150, 1, 50, 1);
        /* 2 stray bytes after a whole data chunk: libsndfile reads them too */
        snprintf(path, sizeof path, "%s/p16d.wav", dir); write_wav_ex(path, 2, 16, d, 40, 40, "\x01\x02", 2);
        {   uint8_t d2[42]; memcpy(d2, d, 40); d2[40] = 1; d2[41] = 2;
            check_partial("s16 + 2 stray bytes", path, d2, 16, 10, 1, 4, 4, 1); }
        /* a whole frame (or a chunk) after the data: reads are cut to whole frames */
        snprintf(path, sizeof path, "%s/p16e.wav", dir); write_wav_ex(path, 2, 16, d, 42, 42, "LIST\x04\0\0\0abcd", 12);
        check_partial("s16 +2 bytes, then a LIST chunk", path, d, 16, 10, 0, 4, 4, 1);
        /* 24-bit stereo cut mid-frame: 7 frames + 4 bytes (one sample and a byte) */
        snprintf(path, sizeof path, "%s/p24.wav", dir); write_wav_ex(path, 2, 24, d, 46, 60, NULL, 0);
        check_partial("s24 cut mid-frame", path, d, 24, 7, 1, 3, 3, 1);
        check_io_partial("io: s24 cut mid-frame", path, d, 24, 7, 1, 3, 1);
        snprintf(path, sizeof path, "%s/p24b.wav", dir); write_wav_ex(path, 2, 24, d, 44, 60, NULL, 0);
        check_partial("s24 cut mid-sample", path, d, 24, 7, 0, 3, 3, 1);
        /* stdin: LAME's own parser, the same rule (here: the header promises more) */
        {   RlPcmReader *r; int32_t b[64]; long got = 0; int n, bad = -1;
            snprintf(path, sizeof path, "%s/p16c.wav", dir);
            if (freopen(path, "rb", stdin)) {
                CHECK(rl_pcm_open(&r, "-", NULL, err, sizeof err) == 0, "stdin truncated: %s", err);
                while ((n = rl_pcm_read(r, b, 32)) > 0) {
                    for (int i = 0; i < n * 2 && bad < 0; i++) {
                        long f = got + i / 2, k = f * 2 + i % 2 + (f >= 1120);
                        if (b[i] != le_sample(d, 16, k)) bad = (int)f;
                    }
                    got += n;
                }
                CHECK(got == 1150 && bad < 0, "stdin truncated: %ld frames, first wrong %d", got, bad);
                rl_pcm_close(r);
            }
        }
    }
    { /* stdin headers that end early, never end, or are absurd: a quick, clear refusal */
        static const uint8_t aiff_hang[12] = { 'F','O','R','M', 0x7f,0xff,0xff,0xf0, 'A','I','F','F' };
        static const uint8_t wav_cut[20] = { 'R','I','F','F', 0x24,0,0,0, 'W','A','V','E', 'f','m','t',' ', 16,0,0,0 };
        static const uint8_t wav_cut_skip[20] = { 'R','I','F','F', 0x24,0,0,0, 'W','A','V','E', 'L','I','S','T', 0,0,0,0x10 };
        static const uint8_t aiff_neg[32] = { 'F','O','R','M', 0,0,0,100, 'A','I','F','F',
                                              'J','U','N','K', 0xff,0xff,0xff,0xf0, 1,2,3,4 };
        snprintf(path, sizeof path, "%s/stdin.bin", dir);
        alarm(20);      /* a hang fails the test instead of blocking it */
        check_stdin_refused("12-byte AIFF, FORM size 0x7ffffff0", path, aiff_hang, sizeof aiff_hang, "truncated AIFF header");
        check_stdin_refused("WAV cut inside fmt", path, wav_cut, sizeof wav_cut, "truncated WAVE header");
        check_stdin_refused("WAV chunk past the end", path, wav_cut_skip, sizeof wav_cut_skip, "truncated WAVE header");
        check_stdin_refused("AIFF negative chunk size", path, aiff_neg, sizeof aiff_neg, "corrupt or unsupported AIFF");
        check_stdin_refused("empty stdin", path, "", 0, "standard input is empty");
        check_stdin_refused("2-byte stdin", path, "RI", 2, "ends after 2 bytes");
        check_stdin_refused("text", path, "hello world\n", 12, "not a WAV or AIFF stream");
        {   RlPcmReader *r = NULL; RlRawFormat raw = { 1, 44100, 2, 16, -1, 0, 0, 0, 0, 0, 0, 0 };
            if (freopen("/dev/null", "rb", stdin)) {
                close(STDIN_FILENO);
                err[0] = 0;
                n = rl_pcm_open(&r, "-", NULL, err, sizeof err);
                CHECK(n == -EBADF && strstr(err, "standard input is closed"), "closed stdin: rc=%d err=%s", n, err);
                err[0] = 0;
                n = rl_pcm_open(&r, "-", &raw, err, sizeof err);
                CHECK(n == -EBADF && strstr(err, "standard input is closed"), "closed stdin, raw: rc=%d err=%s", n, err);
                n = open("/dev/null", O_RDONLY);      /* fd 0 again */
                CHECK(n == STDIN_FILENO, "reopen stdin: fd %d", n);
            }
        }
        alarm(0);
        unlink(path);
    }
    /* clean up */
    { const char *names[] = { "s16.wav", "u8.wav", "f32.wav", "x.raw", "c3.wav", "empty.wav",
                              "p16.wav", "p16b.wav", "p16c.wav", "p16d.wav", "p16e.wav", "p24.wav", "p24b.wav" };
      for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) { snprintf(path, sizeof path, "%s/%s", dir, names[i]); unlink(path); }
      rmdir(dir); }
    return rl_test_done();
}
