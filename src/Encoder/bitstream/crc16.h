/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the two CRC-16 variants of an MP3 stream (frame header CRC, LAME tag/music CRC).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_CRC16_H
#define RL_CRC16_H

#include <stddef.h>
#include <stdint.h>

/* MPEG audio header CRC (ISO 11172-3 2.4.3.1): CRC-16, polynomial 0x8005,
 * MSB first, initial value 0xffff.  Feed one byte; returns the new CRC.
 * Stage: Encode (frame CRC). */
uint16_t rl_crc16_mpeg_byte(uint16_t crc, uint8_t byte);

/* Computes the protection CRC of a Layer III frame header + side info
 * (bytes 2,3 and 6..sideinfo_len-1) and stores it big-endian at bytes 4,5
 * (LAME: CRC_writeheader).
 * Stage: Encode (frame CRC). */
void rl_crc16_write_header(uint8_t *header, int sideinfo_len);

/* CRC-16/ARC (reflected 0x8005 = 0xA001, LAME's crc16_lookup table), used
 * for the music CRC and the LAME tag CRC.  Start with crc = 0.
 * Stage: Encode (Finish: the LAME tag). */
uint16_t rl_crc16_lame(uint16_t crc, const uint8_t *p, size_t n);

#endif
