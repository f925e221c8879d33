/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: reservoir + bitstream writer produce a parseable Layer III stream:
 * frame lengths, side info, main_data_begin back-pointers and main data bits survive.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "rl_config.h"
#include "rl_frame.h"
#include "bitstream.h"
#include "reservoir.h"
#include "crc16.h"

#define NFRAMES 60

static uint32_t rng;   /* RL_TEST_SEED (default 12345), set in main */
static uint32_t rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

static int get_bit(const uint8_t *p, long pos)
{
    return (p[pos >> 3] >> (7 - (pos & 7))) & 1;
}

static unsigned get_bits(const uint8_t *p, long *pos, int n)
{
    unsigned v = 0;
    while (n-- > 0)
        v = v << 1 | (unsigned)get_bit(p, (*pos)++);
    return v;
}

static const int kbps1[15] = { 0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 };

/* the source main data of every frame, kept for comparison */
static uint8_t src_main[NFRAMES][RL_MAIN_DATA_BYTES];
static int src_bits[NFRAMES][2][2];
static int src_bv[NFRAMES][2][2], src_gg[NFRAMES][2][2];

int main(void)
{
    static RlConfig cfg;
    static RlEncodeState s;
    static RlFrame f;
    static uint8_t out[1 << 20];
    static uint8_t md[1 << 20];   /* concatenated main-data areas */
    size_t outn = 0;
    int mean, full;

    rng = (uint32_t)rl_test_seed(12345);
    memset(&cfg, 0, sizeof cfg);
    cfg.version = 1;
    cfg.samplerate_index = 0;
    cfg.sideinfo_len = 36;
    cfg.mode_gr = 2;
    cfg.channels_in = cfg.channels_out = 2;
    cfg.samplerate_in = cfg.samplerate_out = 44100;
    cfg.mode = RL_JOINT_STEREO;
    cfg.original = 1;
    cfg.buffer_constraint = 7680 * 2;
    cfg.vbr = RL_VBR_MTRH;
    cfg.write_lame_tag = 1;

    /* ResvFrameBegin numbers at 128 kbps (417-byte frames) */
    full = rl_resv_frame_begin(&cfg, 0, 9, 0, &mean, NULL);
    CHECK(mean == 1524 && full == 3048, "128k: mean %d full %d", mean, full);
    {
        int rmax;
        full = rl_resv_frame_begin(&cfg, 5000, 9, 0, &mean, &rmax);
        CHECK(rmax == 4088 && full == 3048 + 4088, "128k full reservoir: max %d full %d", rmax, full);
        full = rl_resv_frame_begin(&cfg, 5000, 14, 0, &mean, &rmax);
        CHECK(rmax == 4088 && full == 8064 + 4088, "320k: %d", full);
    }

    CHECK(rl_bits_init(&s, &cfg) == 0, "init");
    outn += rl_bits_take(&s, out + outn, sizeof out - outn);
    CHECK(outn == 417, "placeholder %zu", outn);

    for (int k = 0; k < NFRAMES; k++) {
        int used = 0, bri;
        memset(&f.side, 0, sizeof f.side);
        f.padding = 0;
        f.mode_ext = k & 2;
        f.main.total_bits = 0;
        for (int gr = 0; gr < 2; gr++) {
            for (int ch = 0; ch < 2; ch++) {
                /* mostly small granules, now and then a big one, some empty */
                int bits = (int)(rnd() % 700);
                if (rnd() % 5 == 0)
                    bits = 1000 + (int)(rnd() % 1000);
                if (rnd() % 9 == 0)
                    bits = 0;
                f.side.tt[gr][ch].part2_3_length = bits;
                f.side.tt[gr][ch].big_values = (int)(rnd() % 288) * 2;
                f.side.tt[gr][ch].global_gain = (int)(rnd() % 256);
                src_bv[k][gr][ch] = f.side.tt[gr][ch].big_values;
                src_gg[k][gr][ch] = f.side.tt[gr][ch].global_gain;
                f.main.bits[gr][ch] = bits;
                src_bits[k][gr][ch] = bits;
                used += bits;
            }
        }
        f.main.total_bits = used;
        for (int i = 0; i < (used + 7) / 8; i++)
            f.main.buf[i] = (uint8_t)rnd();
        memcpy(src_main[k], f.main.buf, sizeof f.main.buf);

        /* lowest bitrate whose frame holds the bits, like the VBR choice */
        for (bri = 1; bri < 14; bri++)
            if (used <= rl_resv_frame_begin(&cfg, rl_resv_size(&s), bri, 0, &mean, NULL))
                break;
        f.bitrate_index = bri;
        full = rl_resv_frame_begin_commit(&s, &cfg, bri, 0, &mean);
        CHECK(used <= full, "frame %d: %d bits do not fit %d", k, used, full);
        for (int gr = 0; gr < 2; gr++)
            for (int ch = 0; ch < 2; ch++)
                rl_resv_adjust(&s, f.side.tt[gr][ch].part2_3_length);
        rl_resv_frame_end(&s, &cfg, &f.side, mean);
        CHECK(s.resv_size % 8 == 0 && s.resv_size >= 0 && s.resv_size <= s.resv_max,
              "frame %d: reservoir %d max %d", k, s.resv_size, s.resv_max);
        CHECK(rl_bits_encode_frame(&s, &cfg, &f) == 0, "encode %d", k);
        CHECK(s.main_data_begin * 8 == s.resv_size, "frame %d: main_data_begin %d vs reservoir %d", k,
              s.main_data_begin, s.resv_size);
        outn += rl_bits_take(&s, out + outn, sizeof out - outn);
    }
    CHECK(rl_bits_flush(&s, &cfg) == 0 && s.resv_size == 0, "flush");
    outn += rl_bits_take(&s, out + outn, sizeof out - outn);
    CHECK(s.seek.nvbr_num_frames == NFRAMES, "frames counted %d", s.seek.nvbr_num_frames);
    CHECK(s.seek.nbytes_written == outn - 417, "bytes counted %lu of %zu", s.seek.nbytes_written, outn - 417);
    CHECK(s.music_crc == rl_crc16_lame(0, out + 417, outn - 417), "music CRC");

    /* parse the stream back */
    {
        size_t pos = 417;
        long mdn = 0;
        int k = 0;
        while (pos + 4 <= outn && k < NFRAMES) {
            const uint8_t *h = out + pos;
            long sp = 32, mdb;
            int bri = h[2] >> 4, len;
            if (h[0] != 0xff || h[1] != 0xfb || (h[2] & 0x0f) != 0 || ((h[3] >> 4) & 3) != (k & 2)) {
                CHECK(0, "frame %d header %02x %02x %02x %02x", k, h[0], h[1], h[2], h[3]);
                break;
            }
            len = 144000 * kbps1[bri] / 44100;
            mdb = get_bits(h, &sp, 9);
            sp += 3 + 8;
            for (int gr = 0; gr < 2; gr++) {
                for (int ch = 0; ch < 2; ch++) {
                    unsigned const p23 = get_bits(h, &sp, 12);
                    unsigned const bv = get_bits(h, &sp, 9);
                    unsigned const gg = get_bits(h, &sp, 8);
                    CHECK((int)p23 == src_bits[k][gr][ch] && (int)bv * 2 == src_bv[k][gr][ch]
                          && (int)gg == src_gg[k][gr][ch], "frame %d gr %d ch %d side info %u %u %u", k, gr,
                          ch, p23, bv, gg);
                    sp += 4 + 1 + 15 + 4 + 3 + 3;
                }
            }
            /* frame k's main data starts mdb bytes before its own main-data area
             * and ends inside that area: append the area, then compare */
            memcpy(md + mdn, h + 36, (size_t)(len - 36));
            {
                long bitpos = (mdn - mdb) * 8, srcpos = 0;
                int same = bitpos >= 0;
                for (int gr = 0; gr < 2 && same; gr++)
                    for (int ch = 0; ch < 2 && same; ch++)
                        for (int i = 0; i < src_bits[k][gr][ch]; i++, bitpos++, srcpos++)
                            if (get_bit(md, bitpos) != get_bit(src_main[k], srcpos)) {
                                same = 0;
                                break;
                            }
                CHECK(same, "frame %d main data bits differ", k);
                if (!same)
                    break;
            }
            mdn += len - 36;
            pos += (size_t)len;
            k++;
        }
        CHECK(k == NFRAMES && pos == outn, "parsed %d frames, %zu of %zu bytes", k, pos, outn);
    }
    return rl_test_done();
}
