/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* SHA-256 as FIPS 180-4 section 6.2 describes it. */
#include "sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static uint32_t ror(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64], v[8];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t) p[4 * t] << 24 | (uint32_t) p[4 * t + 1] << 16
               | (uint32_t) p[4 * t + 2] << 8 | p[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t const s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t const s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    memcpy(v, h, sizeof v);
    for (int t = 0; t < 64; t++) {
        uint32_t const S1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
        uint32_t const ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
        uint32_t const t1 = v[7] + S1 + ch + K[t] + w[t];
        uint32_t const S0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
        uint32_t const maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        uint32_t const t2 = S0 + maj;
        v[7] = v[6];
        v[6] = v[5];
        v[5] = v[4];
        v[4] = v[3] + t1;
        v[3] = v[2];
        v[2] = v[1];
        v[1] = v[0];
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++)
        h[i] += v[i];
}

void rl_sha256_init(RlSha256 *s)
{
    static const uint32_t H0[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    };
    memcpy(s->h, H0, sizeof H0);
    s->total = 0;
    s->fill = 0;
}

void rl_sha256_update(RlSha256 *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    s->total += len;
    if (s->fill) {
        size_t const take = len < 64 - s->fill ? len : 64 - s->fill;
        memcpy(s->block + s->fill, p, take);
        s->fill += take;
        p += take;
        len -= take;
        if (s->fill < 64)
            return;
        compress(s->h, s->block);
        s->fill = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        compress(s->h, p);
    memcpy(s->block, p, len);
    s->fill = len;
}

void rl_sha256_final(RlSha256 *s, uint8_t digest[RL_SHA256_BYTES])
{
    uint64_t const bits = s->total * 8;
    s->block[s->fill++] = 0x80;
    if (s->fill > 56) {
        memset(s->block + s->fill, 0, 64 - s->fill);
        compress(s->h, s->block);
        s->fill = 0;
    }
    memset(s->block + s->fill, 0, 56 - s->fill);
    for (int i = 0; i < 8; i++)
        s->block[56 + i] = (uint8_t) (bits >> (56 - 8 * i));
    compress(s->h, s->block);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t) (s->h[i] >> 24);
        digest[4 * i + 1] = (uint8_t) (s->h[i] >> 16);
        digest[4 * i + 2] = (uint8_t) (s->h[i] >> 8);
        digest[4 * i + 3] = (uint8_t) s->h[i];
    }
}

void rl_sha256(const void *data, size_t len, uint8_t digest[RL_SHA256_BYTES])
{
    RlSha256 s;
    rl_sha256_init(&s);
    rl_sha256_update(&s, data, len);
    rl_sha256_final(&s, digest);
}

void rl_sha256_hex(const uint8_t digest[RL_SHA256_BYTES], char hex[2 * RL_SHA256_BYTES + 1])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < RL_SHA256_BYTES; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[2 * RL_SHA256_BYTES] = '\0';
}
