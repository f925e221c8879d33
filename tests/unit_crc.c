/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: MPEG header CRC-16 and LAME's CRC-16 (music / tag CRC).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#include "crc16.h"

int main(void)
{
    static const uint8_t digits[] = "123456789";
    /* frame 1 of `lame -V2 -p` (Debian 3.100-6) on a synthetic 44.1 kHz stereo
     * signal: header with protection, CRC 0x0036, 32 bytes of side info */
    static const uint8_t frame[38] = {
        0xff, 0xfa, 0xe0, 0x44, 0x00, 0x36, 0x00, 0x00, 0x01, 0xdb, 0x00, 0xdb, 0xed,
        0x04, 0x00, 0x08, 0x33, 0xc0, 0x1b, 0x8c, 0xa0, 0x80, 0x01, 0x1e, 0x79, 0xa5,
        0x69, 0xb9, 0x9c, 0x00, 0x03, 0xa1, 0xb3, 0x2d, 0xbb, 0x33, 0x80, 0x00
    };
    uint8_t buf[38];
    uint16_t crc;

    /* CRC-16/CMS (poly 0x8005, init 0xffff, MSB first) check value */
    crc = 0xffff;
    for (int i = 0; i < 9; i++)
        crc = rl_crc16_mpeg_byte(crc, digits[i]);
    CHECK_EQ(crc, 0xAEE7, "mpeg crc of 123456789");

    /* CRC-16/ARC (LAME crc16_lookup) check value, in one call and in pieces */
    crc = rl_crc16_lame(0, digits, 9);
    CHECK_EQ(crc, 0xBB3D, "lame crc of 123456789");
    crc = rl_crc16_lame(rl_crc16_lame(0, digits, 4), digits + 4, 5);
    CHECK_EQ(crc, 0xBB3D, "lame crc in two pieces");
    CHECK_EQ(rl_crc16_lame(0x1234, digits, 0), 0x1234, "lame crc of nothing");

    /* header CRC of a real frame reproduces LAME's bytes 4,5 */
    memcpy(buf, frame, sizeof buf);
    buf[4] = buf[5] = 0;
    rl_crc16_write_header(buf, 38);
    CHECK(memcmp(buf, frame, sizeof buf) == 0, "frame header CRC: got 0x%04x want 0x%04x",
          (unsigned)(buf[4] << 8 | buf[5]), (unsigned)(frame[4] << 8 | frame[5]));
    /* and a changed side-info byte changes it */
    buf[20] ^= 1;
    rl_crc16_write_header(buf, 38);
    CHECK(buf[4] != frame[4] || buf[5] != frame[5], "CRC sees side info");

    return rl_test_done();
}
