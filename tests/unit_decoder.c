/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: the decoder's header parsing (frame sync as LAME's
 * front end tests it, the Xing/Info tag with the LAME extension's delay and
 * padding) and its frame-by-frame state machine on a synthetic stream. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#include "decoder.h"

/* a first frame with a tag: header h[4], the tag at `offset`, then the
 * LAME extension's delay/padding 21 bytes after the optional fields */
static void make_tag_frame(uint8_t *buf, const uint8_t h[4], int offset, const char *id, int flags,
                           int frames, int delay, int padding)
{
    uint8_t *p;
    memset(buf, 0, RL_MPA_TAG_PROBE);
    memcpy(buf, h, 4);
    p = buf + offset;
    memcpy(p, id, 4);
    p += 4;
    p[3] = (uint8_t) flags;
    p += 4;
    if (flags & 1) {
        p[0] = (uint8_t) (frames >> 24);
        p[1] = (uint8_t) (frames >> 16);
        p[2] = (uint8_t) (frames >> 8);
        p[3] = (uint8_t) frames;
        p += 4;
    }
    if (flags & 2)
        p += 4;
    if (flags & 4)
        p += 100;
    if (flags & 8)
        p += 4;
    p += 21;
    p[0] = (uint8_t) (delay >> 4);
    p[1] = (uint8_t) (((delay & 15) << 4) | (padding >> 8));
    p[2] = (uint8_t) padding;
}

static void test_tags(void)
{
    static const uint8_t mpeg1_st[4] = { 0xFF, 0xFB, 0x90, 0x64 };   /* 128 kbps, 44.1 kHz, j-stereo */
    static const uint8_t mpeg1_mono[4] = { 0xFF, 0xFB, 0x50, 0xC4 }; /* 64 kbps, mono */
    static const uint8_t mpeg2_mono[4] = { 0xFF, 0xF3, 0x40, 0xC4 }; /* 32 kbps, 22.05 kHz, mono */
    static const uint8_t mpeg25_st[4] = { 0xFF, 0xE3, 0x40, 0x44 };  /* 32 kbps, 11.025 kHz */
    static const uint8_t layer2[4] = { 0xFF, 0xFD, 0x90, 0x04 };
    uint8_t buf[RL_MPA_TAG_PROBE];
    RlMpaVbrTag tag;

    make_tag_frame(buf, mpeg1_st, 36, "Info", 0xF, 1234, 576, 1728);
    CHECK_EQ(rl_mpa_vbr_tag(buf, &tag), 1, "MPEG-1 stereo Info tag found");
    CHECK_EQ(tag.frames, 1234, "frames");
    CHECK_EQ(tag.enc_delay, 576, "delay");
    CHECK_EQ(tag.enc_padding, 1728, "padding");
    CHECK_EQ(tag.header_size, 417, "tag frame size 144000*128/44100");
    CHECK_EQ(tag.samplerate, 44100, "rate");

    make_tag_frame(buf, mpeg1_mono, 21, "Xing", 0x1, 77, 1105, 0);
    CHECK_EQ(rl_mpa_vbr_tag(buf, &tag), 1, "MPEG-1 mono Xing tag (side info 17 bytes)");
    CHECK_EQ(tag.frames, 77, "frames without the other fields");
    CHECK_EQ(tag.enc_delay, 1105, "delay");
    CHECK_EQ(tag.enc_padding, 0, "padding");

    make_tag_frame(buf, mpeg2_mono, 13, "Xing", 0xF, 9, 576, 300);
    CHECK_EQ(rl_mpa_vbr_tag(buf, &tag), 1, "MPEG-2 mono tag (side info 9 bytes)");
    CHECK_EQ(tag.samplerate, 22050, "MPEG-2 rate");
    CHECK_EQ(tag.header_size, 72000 * 32 / 22050, "MPEG-2 tag frame size");

    make_tag_frame(buf, mpeg25_st, 21, "Info", 0xF, 5, 576, 100);
    CHECK_EQ(rl_mpa_vbr_tag(buf, &tag), 1, "MPEG-2.5 stereo tag");
    CHECK_EQ(tag.samplerate, 11025, "MPEG-2.5 rate");

    /* an old Xing tag: whatever follows is no delay/padding (> 3000) */
    make_tag_frame(buf, mpeg1_st, 36, "Xing", 0xF, 10, 4000, 4095);
    CHECK_EQ(rl_mpa_vbr_tag(buf, &tag), 1, "old Xing tag");
    CHECK_EQ(tag.enc_delay, -1, "delay out of range");
    CHECK_EQ(tag.enc_padding, -1, "padding out of range");

    make_tag_frame(buf, mpeg1_st, 21, "Info", 0xF, 10, 576, 0);
    CHECK_EQ(rl_mpa_vbr_tag(buf, &tag), 0, "a tag at the mono offset of a stereo frame: none");
    make_tag_frame(buf, layer2, 36, "Info", 0xF, 10, 576, 0);
    CHECK_EQ(rl_mpa_vbr_tag(buf, &tag), 0, "Layer II: no tag");
}

static void test_sync(void)
{
    static const struct { uint8_t h[4]; int ok, layer; const char *what; } cases[] = {
        { { 0xFF, 0xFB, 0x90, 0x64 }, 1, 3, "MPEG-1 Layer III" },
        { { 0xFF, 0xF3, 0x40, 0xC4 }, 1, 3, "MPEG-2 Layer III" },
        { { 0xFF, 0xE3, 0x40, 0x44 }, 1, 3, "MPEG-2.5 Layer III" },
        { { 0xFF, 0xFD, 0x90, 0x04 }, 1, 2, "MPEG-1 Layer II" },
        { { 0xFF, 0xFF, 0x90, 0x04 }, 1, 1, "MPEG-1 Layer I" },
        { { 0xFF, 0xEB, 0x90, 0x64 }, 0, 0, "reserved version" },
        { { 0xFF, 0xF9, 0x90, 0x64 }, 0, 0, "reserved layer" },
        /* refused after the layer bits: the layer is reported all the same */
        { { 0xFF, 0xFB, 0xF0, 0x64 }, 0, 3, "bitrate index 15" },
        { { 0xFF, 0xFB, 0x9C, 0x64 }, 0, 3, "rate index 3" },
        { { 0xFF, 0xFB, 0x90, 0x66 }, 0, 3, "reserved emphasis" },
        { { 0xFF, 0xFD, 0x10, 0x04 }, 0, 2, "Layer II 32 kbps stereo (forbidden)" },
        { { 0xFF, 0xFD, 0x10, 0xC4 }, 1, 2, "Layer II 32 kbps mono" },
        { { 0xFE, 0xFB, 0x90, 0x64 }, 0, 0, "no sync" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int layer = 0;
        int const ok = rl_mpa_syncword(cases[i].h, &layer);
        CHECK_EQ(ok, cases[i].ok, "sync: %s", cases[i].what);
        CHECK_EQ(layer, cases[i].layer, "layer: %s", cases[i].what);
    }
}

/* ten silent CBR frames (zero side info): each call past the first header
 * gives one frame of zeros; the headers' fields come back in info */
static void test_stream(void)
{
    enum { FRAMES = 10, SIZE = 417 };
    static uint8_t stream[FRAMES * SIZE];
    int16_t l[1152], r[1152];
    RlMpaDecoder *d = NULL;
    RlMpaInfo info = { 0 };   /* the decoder fills total_frames only from a tag, as hip */
    int delay = -7, padding = -7, total = 0, calls = 0, n, nonzero = 0;

    for (int f = 0; f < FRAMES; f++) {
        uint8_t *p = stream + f * SIZE;
        p[0] = 0xFF; p[1] = 0xFB; p[2] = 0x90; p[3] = 0x04;
    }
    CHECK_EQ(rl_mpa_create(&d), 0, "create");
    if (!d)
        return;
    n = rl_mpa_decode(d, stream, sizeof stream, l, r, &info, &delay, &padding);
    CHECK_EQ(n, 0, "the first header alone gives no samples");
    CHECK_EQ(info.header_parsed, 1, "header seen");
    CHECK_EQ(info.channels, 2, "channels");
    CHECK_EQ(info.samplerate, 44100, "rate");
    CHECK_EQ(info.bitrate, 128, "bitrate");
    CHECK_EQ(info.frame_samples, 1152, "frame samples");
    CHECK_EQ(info.total_frames, 0, "no tag");
    while ((n = rl_mpa_decode(d, NULL, 0, l, r, &info, &delay, &padding)) > 0 && calls < 100) {
        calls++;
        total += n;
        for (int i = 0; i < n; i++)
            nonzero += l[i] != 0 || r[i] != 0;
    }
    CHECK_EQ(total, FRAMES * 1152, "every frame decoded");
    CHECK_EQ(calls, FRAMES, "one frame per call");
    CHECK_EQ(nonzero, 0, "silence");
    CHECK_EQ(delay, -7, "no tag: delay untouched");
    CHECK_EQ(padding, -7, "no tag: padding untouched");
    rl_mpa_destroy(d);

    /* garbage only: never a frame, never an error */
    CHECK_EQ(rl_mpa_create(&d), 0, "create");
    if (!d)
        return;
    memset(stream, 0x55, sizeof stream);
    CHECK_EQ(rl_mpa_decode(d, stream, sizeof stream, l, r, &info, &delay, &padding), 0, "garbage: need more");
    CHECK_EQ(info.header_parsed, 0, "garbage: no header");
    rl_mpa_destroy(d);
}

int main(void)
{
    test_tags();
    test_sync();
    test_stream();
    return rl_test_done();
}
