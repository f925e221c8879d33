#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.0-or-later
"""MPEG Layer I and II streams for identity/decode.sh and the mp3 fuzz seeds:
no installed encoder writes these layers, and lame decodes them, so its
output is the reference.

    mpa_streams.py layer1 OUT FRAMES MODE SEED   a valid MPEG-1 Layer I stream of
                                                 random samples (MODE: stereo,
                                                 joint, mono, crc)
    mpa_streams.py layer2 SRC DST                SRC's Layer III frame headers made
                                                 Layer II ones (random but
                                                 well-formed Layer II data)"""
import random
import sys


class Bits:
    def __init__(self):
        self.v, self.n = 0, 0

    def put(self, value, bits):
        self.v = (self.v << bits) | (value & ((1 << bits) - 1))
        self.n += bits

    def bytes(self, size):
        pad = size * 8 - self.n
        assert pad >= 0
        return (self.v << pad).to_bytes(size, 'big')


def frame(rng, mode, kbps_index=10, rate_index=0):
    kbps = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448][kbps_index]
    rate = [44100, 48000, 32000][rate_index]
    size = (12000 * kbps // rate) * 4
    stereo = mode != 'mono'
    crc = mode == 'crc'
    mode_bits = {'stereo': 0, 'joint': 1, 'mono': 3, 'crc': 0}[mode]
    mode_ext = rng.randrange(4) if mode == 'joint' else 0
    jsbound = (mode_ext << 2) + 4 if mode == 'joint' else 32
    nch = 2 if stereo else 1
    b = Bits()
    b.put(0xFFF, 12); b.put(1, 1); b.put(3, 2); b.put(0 if crc else 1, 1)
    b.put(kbps_index, 4); b.put(rate_index, 2); b.put(0, 1); b.put(0, 1)
    b.put(mode_bits, 2); b.put(mode_ext, 2); b.put(0, 4)
    if crc:
        b.put(rng.randrange(65536), 16)
    budget = size * 8 - b.n
    alloc = [[0, 0] for _ in range(32)]
    # fill allocations while they fit: 4 bits each, 6 per scale factor, 12 samples
    for sb in range(32):
        for ch in range(nch):
            if sb >= jsbound and ch == 1:
                alloc[sb][1] = alloc[sb][0]
                continue
            a = rng.choice([0, 0, 1, 2, 3, 4, 5, 7, 9, 14])
            alloc[sb][ch] = a
    def cost():
        c = 0
        for sb in range(32):
            c += 4 * (nch if sb < jsbound else 1)
            for ch in range(nch):
                if alloc[sb][ch]:
                    c += 6
            shared = sb >= jsbound and nch == 2
            for ch in range(1 if shared else nch):
                if alloc[sb][ch]:
                    c += 12 * (alloc[sb][ch] + 1)
        return c
    while cost() > budget:
        sb, ch = rng.randrange(32), rng.randrange(nch)
        if sb >= jsbound:
            alloc[sb][0] = alloc[sb][1] = max(0, alloc[sb][0] - 3)
        else:
            alloc[sb][ch] = max(0, alloc[sb][ch] - 3)
    for sb in range(32):
        for ch in range(nch if sb < jsbound else 1):
            b.put(alloc[sb][ch], 4)
    for sb in range(32):
        for ch in range(nch):
            if alloc[sb][ch]:
                b.put(rng.randrange(63), 6)
    for _ in range(12):
        for sb in range(32):
            shared = sb >= jsbound and nch == 2
            for ch in range(1 if shared else nch):
                n = alloc[sb][ch]
                if n:
                    b.put(rng.randrange(1 << (n + 1)), n + 1)
    return b.bytes(size)


def relabel_layer2(data):
    """every Layer III frame header of data made a Layer II one"""
    d = bytearray(data)
    i = 0
    while i < len(d) - 4:
        if d[i] == 0xFF and (d[i + 1] & 0xE6) == 0xE2:
            d[i + 1] = (d[i + 1] & ~0x06) | 0x04
            i += 4
        else:
            i += 1
    return bytes(d)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'layer2':
        with open(sys.argv[2], 'rb') as f:
            data = f.read()
        with open(sys.argv[3], 'wb') as f:
            f.write(relabel_layer2(data))
        return 0
    if len(sys.argv) != 6 or sys.argv[1] != 'layer1':
        print(__doc__, file=sys.stderr)
        return 2
    out, frames, mode, seed = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
    rng = random.Random(seed)
    with open(out, 'wb') as f:
        for _ in range(frames):
            f.write(frame(rng, mode))
    return 0


if __name__ == '__main__':
    sys.exit(main())
