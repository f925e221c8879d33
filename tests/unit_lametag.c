/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: the Xing/LAME tag frame against a frame written by Debian's lame 3.100,
 * and parsed back.  Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "rl_config.h"
#include "bitstream.h"
#include "lametag.h"

/* `lame -V4` (Debian 3.100-6) on 5 s of 8 kHz mono: the first 169 bytes of its
 * 288-byte tag frame (the rest is zero). */
static const uint8_t ref_tag[169] = {
    0xff,0xe3,0x48,0xc4,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x58,0x69,0x6e,0x67,0x00,0x00,0x00,
    0x0f,0x00,0x00,0x00,0x48,0x00,0x00,0x3b,0x58,0x00,0x04,0x09,0x0d,0x0d,0x0e,0x11,0x13,0x13,0x16,0x18,
    0x18,0x1b,0x1d,0x20,0x20,0x22,0x25,0x25,0x27,0x2a,0x2d,0x2d,0x31,0x35,0x38,0x38,0x3f,0x44,0x44,0x48,
    0x4f,0x55,0x55,0x5a,0x5f,0x5f,0x64,0x67,0x6c,0x6c,0x70,0x74,0x74,0x77,0x7c,0x80,0x80,0x84,0x88,0x8b,
    0x8b,0x8f,0x93,0x93,0x96,0x9a,0x9d,0x9d,0xa0,0xa4,0xa4,0xa8,0xab,0xaf,0xaf,0xb2,0xb5,0xb5,0xb9,0xbb,
    0xbf,0xbf,0xc3,0xc5,0xc9,0xc9,0xcd,0xcf,0xcf,0xd3,0xd7,0xd9,0xd9,0xdd,0xe1,0xe1,0xe3,0xe7,0xe9,0xe9,
    0xed,0xef,0xef,0xf3,0xf6,0xf9,0xf9,0xfe,0xff,0x00,0x00,0x00,0x5a,0x4c,0x41,0x4d,0x45,0x33,0x2e,0x31,
    0x30,0x30,0x04,0x28,0x00,0x00,0x00,0x00,0x2e,0x36,0x00,0x00,0x15,0x08,0x24,0x03,0x80,0x21,0x00,0x01,
    0xea,0x00,0x00,0x3b,0x58,0x0a,0xdc,0xc8,0x6a
};
/* kbps of its 72 frames, running sums (LAME's seek bag) */
static const int ref_bag[72] = {
    32,64,88,96,112,128,144,160,176,192,208,224,240,256,272,296,320,344,368,408,440,472,512,552,
    584,616,648,672,704,728,752,776,808,832,856,880,904,928,952,976,1000,1016,1040,1064,1088,1112,
    1136,1152,1176,1200,1216,1240,1264,1280,1304,1328,1344,1368,1392,1408,1432,1456,1472,1496,1512,
    1536,1552,1576,1592,1616,1648,1656
};

static void cfg_8k_mono(RlConfig *c)
{
    memset(c, 0, sizeof *c);
    c->version = 0;
    c->samplerate_index = 2;
    c->sideinfo_len = 13;
    c->mode_gr = 1;
    c->channels_in = c->channels_out = 1;
    c->samplerate_in = c->samplerate_out = 8000;
    c->original = 1;
    c->mode = RL_MONO;
    c->write_lame_tag = 1;
    c->vbr = RL_VBR_MTRH;
    c->vbr_min_bitrate_index = 1;
    c->vbr_avg_bitrate_kbps = 64;
    c->lowpassfreq = 4000;
    c->noise_shaping = 1;
    c->ath_type = 5;
    c->find_replay_gain = 1;
    c->preset = 490;
    c->vbr_q = 1;
    c->quality = 0;
    c->buffer_constraint = 7680;
}

static void test_reference(void)
{
    static RlEncodeState s;
    static RlConfig cfg;
    uint8_t frame[RL_TAG_MAX_FRAME], head[RL_BS_BUFFER_SIZE];
    RlTagInfo info = { 576, 896, -54, 0.0f, 0, 0 };
    RlTagFields t;
    size_t n;
    int size;

    cfg_8k_mono(&cfg);
    CHECK(rl_bits_init(&s, &cfg) == 0, "init");
    n = rl_bits_take(&s, head, sizeof head);
    CHECK(n == 288, "placeholder size %zu", n);
    CHECK(head[0] == 0xff && head[1] == 0xe3 && head[2] == 0x48 && head[3] == 0xc4 && head[40] == 0,
          "placeholder header %02x %02x %02x %02x", head[0], head[1], head[2], head[3]);
    CHECK(rl_lametag_frame(&s, &cfg, &info, frame, sizeof frame) == 0, "no tag before the first frame");

    /* the state after the 72 frames of the reference encode */
    for (int i = 0; i < 72; i++)
        s.seek.bag[i] = ref_bag[i];
    s.seek.pos = 72;
    s.seek.sum = 1656;
    s.seek.nvbr_num_frames = 72;
    s.seek.nbytes_written = 15192 - 288;
    s.music_crc = 0x0adc;
    s.last_mode_ext = 0;

    CHECK(rl_lametag_frame(&s, &cfg, &info, frame, 100) < 0, "short buffer refused");
    size = rl_lametag_frame(&s, &cfg, &info, frame, sizeof frame);
    CHECK(size == 288, "tag size %d", size);
    for (int i = 0; i < 288; i++) {
        int const want = i < (int)sizeof ref_tag ? ref_tag[i] : 0;
        if (frame[i] != want) {
            CHECK(0, "tag byte %d: %02x, lame wrote %02x", i, frame[i], want);
            break;
        }
    }
    CHECK(rl_lametag_parse(frame, (size_t)size, &t) == 0, "parse");
    CHECK(!strcmp(t.id, "Xing") && t.flags == 15 && t.frames == 72 && t.bytes == 15192,
          "xing %s %u %u %u", t.id, t.flags, t.frames, t.bytes);
    CHECK(t.quality == 90 && !strcmp(t.version, "LAME3.100") && t.rev_method == 4 && t.lowpass == 40,
          "quality %u version %s method %d lowpass %d", t.quality, t.version, t.rev_method, t.lowpass);
    CHECK(t.radio_gain == 0x2e36 && t.flags_ath == 0x15 && t.abr_bitrate == 8,
          "rg %04x flags %02x abr %d", t.radio_gain, t.flags_ath, t.abr_bitrate);
    CHECK(t.enc_delay == 576 && t.enc_padding == 896 && t.misc == 0x21 && t.preset == 490,
          "delay %d padding %d misc %02x preset %d", t.enc_delay, t.enc_padding, t.misc, t.preset);
    CHECK(t.music_length == 15192 && t.music_crc == 0x0adc && t.tag_crc_ok, "length %u crc %04x ok %d",
          t.music_length, t.music_crc, t.tag_crc_ok);
    frame[150] ^= 0x10;
    CHECK(rl_lametag_parse(frame, (size_t)size, &t) == 0 && !t.tag_crc_ok, "tag CRC detects a change");
}

/* MPEG-1 joint stereo with CRC, positive gain, no RG: fields read back. */
static void test_roundtrip(void)
{
    static RlEncodeState s;
    static RlConfig cfg;
    uint8_t frame[RL_TAG_MAX_FRAME], head[RL_BS_BUFFER_SIZE];
    RlTagInfo info = { 576, 1548, 37, 0.0f, 0, 0 };
    RlTagFields t;
    int size;

    cfg_8k_mono(&cfg);
    cfg.version = 1;
    cfg.samplerate_index = 0;
    cfg.sideinfo_len = 4 + 32 + 2;
    cfg.mode_gr = 2;
    cfg.channels_in = cfg.channels_out = 2;
    cfg.samplerate_in = cfg.samplerate_out = 44100;
    cfg.mode = RL_JOINT_STEREO;
    cfg.error_protection = 1;
    cfg.vbr_min_bitrate_index = 1;
    cfg.lowpassfreq = 19500;
    cfg.preset = 480;
    cfg.vbr_q = 2;
    cfg.use_safe_joint_stereo = 1;
    cfg.find_replay_gain = 0;
    cfg.buffer_constraint = 15360;

    CHECK(rl_bits_init(&s, &cfg) == 0, "init");
    CHECK(rl_bits_take(&s, head, sizeof head) == 417, "placeholder 417 bytes at 128 kbps");
    for (int i = 0; i < 1000; i++) {   /* more than 400 frames folds the bag */
        s.seek.nvbr_num_frames++;
        s.seek.sum += 192;
        if (++s.seek.seen < s.seek.want)
            continue;
        if (s.seek.pos < s.seek.size) {
            s.seek.bag[s.seek.pos++] = s.seek.sum;
            s.seek.seen = 0;
        }
        if (s.seek.pos == s.seek.size) {
            for (int k = 1; k < s.seek.size; k += 2)
                s.seek.bag[k / 2] = s.seek.bag[k];
            s.seek.want *= 2;
            s.seek.pos /= 2;
        }
    }
    s.seek.nbytes_written = 1234567;
    s.music_crc = 0xbeef;
    s.last_mode_ext = 2;
    size = rl_lametag_frame(&s, &cfg, &info, frame, sizeof frame);
    CHECK(size == 417, "size %d", size);
    CHECK(frame[1] == 0xfa && (frame[2] >> 4) == 9 && frame[3] == 0x64, "header %02x %02x %02x",
          frame[1], frame[2], frame[3]);
    CHECK(rl_lametag_parse(frame, (size_t)size, &t) == 0, "parse");
    CHECK(t.frames == 1000 && t.bytes == 1234567 + 417 && t.quality == 80, "frames %u bytes %u q %u",
          t.frames, t.bytes, t.quality);
    CHECK(t.toc[0] == 0 && t.toc[50] >= 126 && t.toc[50] <= 130 && t.toc[99] >= 250, "toc %d %d %d",
          t.toc[0], t.toc[50], t.toc[99]);
    CHECK(t.radio_gain == 0 && t.lowpass == 195 && t.flags_ath == (5 | 16 | 32) && t.abr_bitrate == 32,
          "rg %d lowpass %d flags %02x abr %d", t.radio_gain, t.lowpass, t.flags_ath, t.abr_bitrate);
    CHECK(t.enc_padding == 1548 && t.misc == (1 | 3 << 2 | 1 << 6) && t.preset == 480 && t.music_crc == 0xbeef
          && t.tag_crc_ok, "padding %d misc %02x preset %d", t.enc_padding, t.misc, t.preset);
    /* positive and clipped gains */
    cfg.find_replay_gain = 1;
    rl_lametag_frame(&s, &cfg, &info, frame, sizeof frame);
    rl_lametag_parse(frame, (size_t)size, &t);
    CHECK(t.radio_gain == (0x2000 | 0xC00 | 37), "rg +3.7 dB: %04x", t.radio_gain);
    info.radio_gain = -1000;
    rl_lametag_frame(&s, &cfg, &info, frame, sizeof frame);
    rl_lametag_parse(frame, (size_t)size, &t);
    CHECK(t.radio_gain == (0x2000 | 0xC00 | 0x200 | 0x1FE), "rg clipped: %04x", t.radio_gain);
    /* no tag when disabled */
    cfg.write_lame_tag = 0;
    CHECK(rl_bits_init(&s, &cfg) == 0 && rl_bits_pending(&s) == 0, "no placeholder without tag");
}

int main(void)
{
    test_reference();
    test_roundtrip();
    return rl_test_done();
}
