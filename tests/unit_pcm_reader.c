/* ringlame unit test: PCM reader conversions (libsndfile path for named files,
 * expected values checked against LAME 3.100's front end) and refusals. */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pcm_reader.h"

static int passed, failed;
#define CHECK(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

static char dir[] = "/tmp/rl_pcm_testXXXXXX";

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
    char path[256], err[512];
    int32_t v[64]; int ch = 0, n;
    if (!mkdtemp(dir)) { printf("mkdtemp failed\n0 passed, 1 failed\n"); return 1; }

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
        RlRawFormat raw = { 1, 44100, 2, 16, -1, 1, 0 };
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
    /* clean up */
    { const char *names[] = { "s16.wav", "u8.wav", "f32.wav", "x.raw", "c3.wav", "empty.wav" };
      for (size_t i = 0; i < 6; i++) { snprintf(path, sizeof path, "%s/%s", dir, names[i]); unlink(path); }
      rmdir(dir); }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
