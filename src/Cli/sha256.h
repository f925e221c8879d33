/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* SHA-256 (FIPS 180-4): a streaming context and a one-call digest. */
#ifndef RL_SHA256_H
#define RL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define RL_SHA256_BYTES 32

typedef struct RlSha256 {
    uint32_t h[8];
    uint64_t total;          /* bytes hashed so far */
    uint8_t block[64];
    size_t fill;             /* bytes waiting in block */
} RlSha256;

void rl_sha256_init(RlSha256 *s);
void rl_sha256_update(RlSha256 *s, const void *data, size_t len);
void rl_sha256_final(RlSha256 *s, uint8_t digest[RL_SHA256_BYTES]);

/* The digest of len bytes. */
void rl_sha256(const void *data, size_t len, uint8_t digest[RL_SHA256_BYTES]);

/* The digest as 64 lowercase hex digits and a NUL into hex. */
void rl_sha256_hex(const uint8_t digest[RL_SHA256_BYTES], char hex[2 * RL_SHA256_BYTES + 1]);

#endif
