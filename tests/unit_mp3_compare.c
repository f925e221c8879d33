/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* --compare's parts: SHA-256 (FIPS 180 test vectors), the MP3 frame walker
 * on lame's files and on random and truncated bytes, and the comparison's
 * report on planted differences (a header, the CRC, the side info, the
 * main data, the LAME tag frame, ID3v2 and ID3v1 tags). */
#include <math.h>

#include "harness.h"
#include "mp3_compare.h"
#include "mp3_frames.h"
#include "sha256.h"

static void check_sha(const void *data, size_t len, const char *want, const char *what)
{
    uint8_t d[RL_SHA256_BYTES];
    char hex[2 * RL_SHA256_BYTES + 1];
    rl_sha256(data, len, d);
    rl_sha256_hex(d, hex);
    CHECK(strcmp(hex, want) == 0, "SHA-256 of %s: %s, want %s", what, hex, want);
}

static void test_sha256(void)
{
    static const char abc56[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const char abc112[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                                 "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    char *mil = malloc(1000000);
    RlSha256 s;
    uint8_t d1[RL_SHA256_BYTES], d2[RL_SHA256_BYTES];

    check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "\"\"");
    check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc");
    check_sha(abc56, strlen(abc56),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448 bits");
    check_sha(abc112, strlen(abc112),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1", "896 bits");
    if (!mil)
        rl_test_fatal("out of memory");
    memset(mil, 'a', 1000000);
    check_sha(mil, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
              "a million a");
    /* the same digest in uneven pieces */
    rl_sha256(mil, 1000000, d1);
    rl_sha256_init(&s);
    for (size_t off = 0, step = 1; off < 1000000; off += step, step = step * 7 % 191 + 1)
        rl_sha256_update(&s, mil + off, off + step <= 1000000 ? step : 1000000 - off);
    rl_sha256_final(&s, d2);
    CHECK(memcmp(d1, d2, sizeof d1) == 0, "SHA-256 in pieces differs from one call");
    free(mil);
}

static void test_header(void)
{
    static const uint8_t h128[4] = {0xFF, 0xFB, 0x90, 0x64};    /* MPEG-1 L3 128k 44.1k js */
    static const uint8_t h22[4] = {0xFF, 0xF2, 0x52, 0xC4};     /* MPEG-2 L3 40k 22.05k pad mono */
    static const uint8_t h8[4] = {0xFF, 0xE3, 0x18, 0xC0};      /* MPEG-2.5 L3 8k 8k mono */
    static const uint8_t bad[][4] = {
        {0xFF, 0xFB, 0xF0, 0x64}, {0xFF, 0xFB, 0x0C, 0x64}, {0xFF, 0xFB, 0x00, 0x64},
        {0xFF, 0xEB, 0x90, 0x64}, {0xFF, 0xF9, 0x90, 0x64}, {0xFE, 0xFB, 0x90, 0x64},
    };
    RlMp3Header h;

    CHECK_EQ(rl_mp3_parse_header(h128, 4, &h), 0, "128k header");
    CHECK(h.version == 1 && h.layer == 3 && h.bitrate_kbps == 128 && h.samplerate == 44100
          && h.padding == 0 && h.mode == 1 && h.mode_ext == 2 && !h.crc && h.frame_bytes == 417
          && h.samples == 1152 && h.side_info_bytes == 32, "128k header fields");
    CHECK_EQ(rl_mp3_parse_header(h128, 3, &h), -EINVAL, "three bytes are no header");
    CHECK_EQ(rl_mp3_parse_header(h22, 4, &h), 0, "MPEG-2 header");
    CHECK(h.version == 2 && h.bitrate_kbps == 40 && h.samplerate == 22050 && h.padding == 1
          && h.mode == 3 && h.crc && h.frame_bytes == 72000 * 40 / 22050 + 1 && h.samples == 576
          && h.side_info_bytes == 9, "MPEG-2 header fields");
    CHECK_EQ(rl_mp3_parse_header(h8, 4, &h), 0, "MPEG-2.5 header");
    CHECK(h.version == 25 && h.samplerate == 8000 && h.bitrate_kbps == 8 && h.frame_bytes == 72,
          "MPEG-2.5 header fields");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ(rl_mp3_parse_header(bad[i], 4, &h), -EINVAL, "invalid header %zu", i);
}

/* The layout's invariants: frames inside the audio region, in order,
 * never overlapping. */
static int layout_sane(const RlMp3Layout *l, size_t len)
{
    size_t end = l->id3v2_bytes;
    if (l->id3v2_bytes > len || l->audio_end > len)
        return 0;
    for (size_t i = 0; i < l->nframes; i++) {
        const RlMp3Frame *f = &l->frames[i];
        if (f->offset < end || f->bytes == 0 || f->bytes > (size_t) f->h.frame_bytes
            || f->offset + f->bytes > l->audio_end)
            return 0;
        end = f->offset + f->bytes;
    }
    return 1;
}

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t) (rng_state >> 11);
}

static void test_garbage(const uint8_t *mp3, size_t mp3_len)
{
    enum { N = 4096 };
    uint8_t *buf = malloc(N);
    if (!buf)
        rl_test_fatal("out of memory");
    for (int round = 0; round < 300; round++) {
        size_t const len = rnd() % N;
        RlMp3Layout l;
        RlMp3Diff d;
        /* random bytes, with many sync words among them */
        for (size_t i = 0; i < len; i++)
            buf[i] = (rnd() & 3) == 0 ? 0xFF : (uint8_t) rnd();
        if (round % 5 == 0 && len >= 10)
            memcpy(buf, "ID3", 3);
        if (round % 7 == 0 && len >= 128) {
            size_t const at = len - 128;
            buf[at] = 'T';
            buf[at + 1] = 'A';
            buf[at + 2] = 'G';
        }
        /* the copy ends exactly at len: ASan sees any read past it */
        uint8_t *exact = malloc(len ? len : 1);
        if (!exact)
            rl_test_fatal("out of memory");
        memcpy(exact, buf, len);
        if (!CHECK_EQ(rl_mp3_walk(exact, len, &l), 0, "walk of %zu random bytes", len))
            break;
        CHECK(layout_sane(&l, len), "random bytes: layout out of bounds (round %d)", round);
        rl_mp3_layout_free(&l);
        CHECK(rl_mp3_compare(exact, len, buf, len / 2, &d) >= 0, "compare of random bytes");
        free(exact);
    }
    /* lame's file cut anywhere */
    for (int round = 0; mp3 && round < 200; round++) {
        size_t const len = rnd() % (mp3_len + 1);
        uint8_t *cut = malloc(len ? len : 1);
        RlMp3Layout l;
        RlMp3Diff d;
        if (!cut)
            rl_test_fatal("out of memory");
        memcpy(cut, mp3, len);
        CHECK_EQ(rl_mp3_walk(cut, len, &l), 0, "walk of a cut file");
        CHECK(layout_sane(&l, len), "cut at %zu: layout out of bounds", len);
        rl_mp3_layout_free(&l);
        if (len < mp3_len) {
            CHECK_EQ(rl_mp3_compare(mp3, mp3_len, cut, len, &d), 1, "cut file differs");
            CHECK(d.offset == len, "cut at %zu: first difference %zu", len, d.offset);
        }
        free(cut);
    }
    free(buf);
}

/* A 16-bit stereo WAV: a chord with a little noise, secs long. */
static int write_wav(const char *path, int rate, double secs)
{
    size_t const frames = (size_t) (rate * secs), data = frames * 4;
    uint8_t *b = malloc(44 + data);
    int rc;
    if (!b)
        return -ENOMEM;
    memcpy(b, "RIFF", 4);
    for (int i = 0; i < 4; i++) {
        b[4 + i] = (uint8_t) ((36 + data) >> (8 * i));
        b[40 + i] = (uint8_t) (data >> (8 * i));
        b[24 + i] = (uint8_t) ((unsigned) rate >> (8 * i));
        b[28 + i] = (uint8_t) ((unsigned) rate * 4 >> (8 * i));
    }
    memcpy(b + 8, "WAVEfmt ", 8);
    memcpy(b + 16, "\x10\0\0\0\x01\0\x02\0", 8);
    memcpy(b + 32, "\x04\0\x10\0data", 8);
    for (size_t i = 0; i < frames; i++) {
        double const t = (double) i / rate;
        for (int c = 0; c < 2; c++) {
            double v = 0.3 * sin(2 * M_PI * (220 + 110 * c) * t) + 0.2 * sin(2 * M_PI * 1375 * t)
                       + 0.05 * ((double) (rnd() % 2001) / 1000.0 - 1.0);
            int const s = (int) lrint(v * 32767);
            b[44 + 4 * i + 2 * c] = (uint8_t) (s & 0xFF);
            b[44 + 4 * i + 2 * c + 1] = (uint8_t) ((s >> 8) & 0xFF);
        }
    }
    rc = rl_test_write_file(path, b, 44 + data);
    free(b);
    return rc;
}

/* Flips one byte of a copy of ref at off and compares: checks the part,
 * the frame, and that exactly one frame differs. */
static void planted(const uint8_t *ref, size_t len, size_t off, RlMp3Part part, long frame,
                    const char *what)
{
    uint8_t *c = malloc(len);
    RlMp3Diff d;
    if (!c)
        rl_test_fatal("out of memory");
    memcpy(c, ref, len);
    c[off] ^= 0x01;
    CHECK_EQ(rl_mp3_compare(c, len, ref, len, &d), 1, "%s: differs", what);
    CHECK_EQ(d.offset, off, "%s: first differing byte", what);
    CHECK(d.part == part, "%s: part %s, want %s", what, rl_mp3_part_name(d.part),
          rl_mp3_part_name(part));
    CHECK_EQ(d.frame, frame, "%s: frame", what);
    CHECK_EQ(d.first_frame, frame, "%s: first differing frame", what);
    if (part != RL_PART_HEADER)
        CHECK_EQ(d.frames_differ, 1, "%s: frames that differ", what);
    else
        CHECK(d.frames_differ >= 1, "%s: frames that differ", what);
    /* the report names the frame and the part */
    {
        char *txt = NULL, want[64];
        size_t tlen = 0;
        const char *names[2] = {"ours", "lame"};
        size_t const sizes[2] = {len, len};
        FILE *m = open_memstream(&txt, &tlen);
        if (m) {
            rl_mp3_diff_print(m, &d, names, sizes);
            fclose(m);
            snprintf(want, sizeof want, "frame %ld, %s", frame, rl_mp3_part_name(part));
            CHECK(txt && strstr(txt, want), "%s: the report lacks \"%s\":\n%s", what, want,
                  txt ? txt : "");
            free(txt);
        }
    }
    free(c);
}

static void tags(const uint8_t *ref, size_t len)
{
    static const uint8_t id3v2[20] = {'I', 'D', '3', 3, 0, 0, 0, 0, 0, 10, 'T', 'I', 'T', '2'};
    uint8_t *c = malloc(len + 128 + sizeof id3v2);
    RlMp3Diff d;
    if (!c)
        rl_test_fatal("out of memory");
    memcpy(c, id3v2, sizeof id3v2);
    memcpy(c + sizeof id3v2, ref, len);
    CHECK_EQ(rl_mp3_compare(ref, len, c, len + sizeof id3v2, &d), 1, "ID3v2 prepended");
    CHECK(d.part == RL_PART_ID3V2, "ID3v2 prepended: part %s", rl_mp3_part_name(d.part));
    CHECK_EQ(d.frames_differ, 0, "ID3v2 prepended: the frames are the same");
    memcpy(c, ref, len);
    memset(c + len, 0, 128);
    memcpy(c + len, "TAGtitle", 8);
    CHECK_EQ(rl_mp3_compare(ref, len, c, len + 128, &d), 1, "ID3v1 appended");
    CHECK(d.part == RL_PART_ID3V1, "ID3v1 appended: part %s", rl_mp3_part_name(d.part));
    CHECK_EQ(d.offset, len, "ID3v1 appended: offset");
    CHECK_EQ(d.frames_differ, 0, "ID3v1 appended: the frames are the same");
    CHECK_EQ(rl_mp3_compare(ref, len, ref, len, &d), 0, "a file equals itself");
    free(c);
}

/* lame's file for opts: 0, 77 (no lame) or fails. */
static int lame_file(const char *lame, const char *dir, const char *wav, const char *opts,
                     const char *name, uint8_t **buf, size_t *len)
{
    char cmd[8192], out[4200];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    snprintf(cmd, sizeof cmd, "'%s' --quiet %s '%s' '%s'", lame, opts, wav, out);
    if (rl_test_run(cmd, NULL, NULL) != 0)
        rl_test_fatal("%s failed", cmd);
    if (rl_test_slurp(out, buf, len) != 0)
        rl_test_fatal("cannot read %s", out);
    return 0;
}

int main(void)
{
    const char *lame;
    char dir[4096], wav[4200];
    uint8_t *mp3 = NULL, *crc = NULL;
    size_t len = 0, crc_len = 0;
    RlMp3Layout l;

    rng_state = rl_test_seed(20240611) | 1;
    test_sha256();
    test_header();
    lame = rl_test_lame();
    if (!lame) {
        test_garbage(NULL, 0);
        rl_test_skip("no lame (LAME=%s): only SHA-256, headers and random bytes were checked",
                     getenv("LAME") ? getenv("LAME") : "/usr/bin/lame");
    }
    if (rl_test_tmpdir(dir, sizeof dir, "mp3cmp") < 0)
        rl_test_fatal("no temporary folder");
    snprintf(wav, sizeof wav, "%s/in.wav", dir);
    if (write_wav(wav, 44100, 1.5) < 0)
        rl_test_fatal("cannot write %s", wav);
    lame_file(lame, dir, wav, "-b 128", "cbr.mp3", &mp3, &len);
    lame_file(lame, dir, wav, "-V 2 -p", "crc.mp3", &crc, &crc_len);

    /* the walker on lame's files: the tag frame, then back-to-back frames */
    CHECK_EQ(rl_mp3_walk(mp3, len, &l), 0, "walk lame's CBR file");
    CHECK(l.tag_frame && l.id3v2_bytes == 0 && !l.has_id3v1 && l.junk_bytes == 0,
          "lame's file: tag frame %d, ID3v2 %zu, ID3v1 %d, junk %zu", l.tag_frame, l.id3v2_bytes,
          l.has_id3v1, l.junk_bytes);
    CHECK(l.nframes > 40 && l.nframes < 70, "lame's file: %zu frames", l.nframes);
    {
        size_t sum = 0, bad = 0;
        for (size_t i = 0; i < l.nframes; i++) {
            const RlMp3Header *h = &l.frames[i].h;
            sum += l.frames[i].bytes;
            bad += h->version != 1 || h->layer != 3 || h->samplerate != 44100
                   || h->bitrate_kbps != 128 || h->crc || l.frames[i].offset + 0 != sum - l.frames[i].bytes;
        }
        CHECK(sum == len && bad == 0, "lame's frames: %zu bytes of %zu, %zu odd frames", sum, len, bad);
    }
    CHECK(layout_sane(&l, len), "lame's file: layout");
    if (l.nframes > 6) {
        size_t const f5 = l.frames[5].offset;
        planted(mp3, len, f5 + 3, RL_PART_HEADER, 5, "header of frame 5");
        planted(mp3, len, f5 + 4 + 3, RL_PART_SIDE_INFO, 5, "side info of frame 5");
        planted(mp3, len, f5 + 200, RL_PART_MAIN_DATA, 5, "main data of frame 5");
        planted(mp3, len, l.frames[0].offset + 150, RL_PART_TAG_FRAME, 0, "LAME tag frame");
        planted(mp3, len, l.frames[l.nframes - 1].offset + 40, RL_PART_MAIN_DATA,
                (long) l.nframes - 1, "main data of the last frame");
    }
    rl_mp3_layout_free(&l);

    CHECK_EQ(rl_mp3_walk(crc, crc_len, &l), 0, "walk lame's -p file");
    CHECK(l.tag_frame && l.nframes > 10, "-p file: tag frame %d, %zu frames", l.tag_frame, l.nframes);
    if (l.nframes > 6) {
        CHECK(l.frames[3].h.crc, "-p file: frame 3 has a CRC");
        planted(crc, crc_len, l.frames[3].offset + 5, RL_PART_CRC, 3, "CRC of frame 3");
        planted(crc, crc_len, l.frames[3].offset + 6, RL_PART_SIDE_INFO, 3, "side info after a CRC");
    }
    rl_mp3_layout_free(&l);

    tags(mp3, len);
    test_garbage(mp3, len);
    free(mp3);
    free(crc);
    rl_test_rmtree(dir);
    return rl_test_done();
}
