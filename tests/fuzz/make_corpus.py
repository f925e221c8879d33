#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.0-or-later
"""Writes the seed corpora of the ringlame fuzz targets (tests/fuzz/corpus/<target>/).

    python3 tests/fuzz/make_corpus.py          # rewrites the four folders

The seeds are small (a few KB at most) and deterministic; the byte layouts are
described at the top of each fuzz_<target>.c.  Re-running the script gives the
same files, so the corpus in the repository can always be regenerated."""
import math
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sine(frames, channels, bits, rate=44100, freq=440.0, amp=0.5, signed8=False, big=False,
         fmt_float=False):
    """Interleaved samples as bytes."""
    out = bytearray()
    for i in range(frames):
        for c in range(channels):
            v = amp * math.sin(2 * math.pi * (freq * (1 + 0.5 * c)) * i / rate)
            if fmt_float:
                out += struct.pack('>f' if big else '<f', v)
            elif bits == 8:
                s = int(round(v * 127))
                out.append((s & 0xFF) if signed8 else (s + 128) & 0xFF)
            elif bits == 16:
                out += struct.pack('>h' if big else '<h', int(round(v * 32767)))
            elif bits == 24:
                s = int(round(v * 8388607)) & 0xFFFFFF
                b = s.to_bytes(3, 'little')
                out += b[::-1] if big else b
            else:
                out += struct.pack('>i' if big else '<i', int(round(v * 2147483647)))
    return bytes(out)


def noise(n, seed=1):
    x = seed
    out = bytearray()
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((x >> 16) & 0xFF)
    return bytes(out)


def chunk(cid, payload, le=True, pad=True):
    size = struct.pack('<I' if le else '>I', len(payload))
    body = cid + size + payload
    if pad and len(payload) & 1:
        body += b'\0'
    return body


def wav(data, channels=2, rate=44100, bits=16, fmt_tag=1, extensible=False, extra_chunks=b'',
        data_len=None):
    block = channels * ((bits + 7) // 8)
    if extensible:
        fmt = struct.pack('<HHIIHH', 0xFFFE, channels, rate, rate * block, block, bits)
        guid_tail = b'\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71'
        fmt += struct.pack('<HHI', 22, bits, 3 if channels == 2 else 4) + struct.pack('<H', fmt_tag) + guid_tail
    else:
        fmt = struct.pack('<HHIIHH', fmt_tag, channels, rate, rate * block, block, bits)
    dl = len(data) if data_len is None else data_len
    body = b'WAVE' + chunk(b'fmt ', fmt) + extra_chunks + b'data' + struct.pack('<I', dl) + data
    return b'RIFF' + struct.pack('<I', len(body)) + body


def ext80(rate):
    if rate == 0:
        return b'\0' * 10
    e, m = 0, rate
    while not (m & (1 << 63)):
        m <<= 1
        e += 1
    return struct.pack('>HQ', 16383 + 63 - e, m)


def aiff(data, channels=2, rate=44100, bits=16, aifc=None, ssnd_first=False, extra=b''):
    frames = len(data) // (channels * ((bits + 7) // 8))
    comm = struct.pack('>hIh', channels, frames, bits) + ext80(rate)
    if aifc is not None:
        comm += aifc + b'\x00'  # compression type + empty pascal name
    comm_c = chunk(b'COMM', comm, le=False)
    ssnd_c = chunk(b'SSND', struct.pack('>II', 0, 0) + data, le=False)
    body = (b'AIFC' if aifc is not None else b'AIFF') + extra
    body += (ssnd_c + comm_c) if ssnd_first else (comm_c + ssnd_c)
    return b'FORM' + struct.pack('>I', len(body)) + body


def au(data, channels=2, rate=44100):
    hdr = b'.snd' + struct.pack('>IIIII', 24, len(data), 3, rate, channels)  # 3 = 16-bit linear
    return hdr + data


def write(folder, name, data):
    path = os.path.join(folder, name)
    with open(path, 'wb') as f:
        f.write(data)


# ---------- pcm: mode, raw, reads, rate index, file ----------
# mode: 0 stdin file, 1 stdin pipe, 2 stdin raw, 3 named, 4 named raw, 5 stdin pipe raw;
# bit 3 --ignorelength; bits 4-6 suffix (0 .wav 1 .aiff 2 .raw 3 .bin ...)
# reads: bit 7 clear: 2 + (x & 127) * 36 frames a call; set: LAME's reads of 576
# (1152 with bit 6) frames, calls of 1..4 (bits 0-1) times that
LAME576, LAME1152 = 0x80, 0xC0
def pcm_seeds(d):
    def hdr(mode, raw=0b00001, chunk=0x40, rate=0):
        return bytes([mode, raw, chunk, rate])
    s16 = sine(300, 2, 16)
    m16 = sine(300, 1, 16)
    seeds = {
        'wav16_stdin_file': hdr(0) + wav(s16),
        'wav16_stdin_pipe': hdr(1) + wav(s16),
        'wav16_named': hdr(3) + wav(s16),
        'wav16_mono_named_chunk1': hdr(3, chunk=0) + wav(m16, channels=1),
        'wav8_stdin': hdr(0) + wav(sine(400, 1, 8), channels=1, bits=8),
        'wav24_named': hdr(3) + wav(sine(200, 2, 24), bits=24),
        'wav32_stdin': hdr(1) + wav(sine(150, 2, 32), bits=32),
        'wavfloat_stdin': hdr(0) + wav(sine(150, 2, 32, fmt_float=True), bits=32, fmt_tag=3),
        'wavfloat_named': hdr(3) + wav(sine(150, 1, 32, fmt_float=True), channels=1, bits=32, fmt_tag=3),
        'wavext_named': hdr(3) + wav(s16, extensible=True),
        'wavext_stdin': hdr(0) + wav(s16, extensible=True),
        'wav_list_odd_chunk': hdr(3) + wav(s16, extra_chunks=chunk(b'LIST', b'INFOabc')),
        'wav_list_odd_stdin': hdr(1) + wav(s16, extra_chunks=chunk(b'LIST', b'INFOabc')),
        'wav_streaming_len': hdr(0 | 8) + wav(s16, data_len=0xFFFFFFFF),
        'wav_trailing_2_bytes': hdr(3) + wav(s16 + b'\x01\x02', data_len=len(s16) + 2),
        'wav_truncated_stdin': hdr(1) + wav(s16[:-3], data_len=len(s16)),
        'aiff16_stdin': hdr(0) + aiff(sine(300, 2, 16, big=True)),
        'aiff16_named': hdr(3 | 0x10) + aiff(sine(300, 2, 16, big=True)),
        'aiff8_pipe': hdr(1) + aiff(sine(300, 1, 8, signed8=True), channels=1, bits=8),
        'aifc_sowt_named': hdr(3) + aiff(s16, aifc=b'sowt'),
        'aifc_sowt_stdin': hdr(0) + aiff(s16, aifc=b'sowt'),
        'aiff_ssnd_first_stdin': hdr(0) + aiff(sine(100, 2, 16, big=True), ssnd_first=True),
        'au16_named': hdr(3 | 0x30) + au(sine(200, 2, 16, big=True)),
        'raw16_stdin': hdr(2, raw=0b00100 | 1) + s16[:800],
        'raw8u_pipe': hdr(5, raw=0b01000 | 0) + sine(300, 2, 8),
        'raw24be_named': hdr(4 | 0x20, raw=0b110110) + sine(100, 2, 24, big=True),
        'raw32_named_mono': hdr(4 | 0x20, raw=0b011011, rate=9) + sine(100, 1, 32),
        'garbage_named': hdr(3) + b'not audio at all, just text\n' * 4,
        'garbage_stdin': hdr(0) + noise(200),
        'empty_stdin': hdr(0),
        'mp3_suffix': hdr(3 | 0x50) + wav(m16[:100], channels=1),
        # one whole sample after the last frame: LAME's shifted last read
        'wav16_tail_sample_lame1152': hdr(3, chunk=LAME1152) + wav(sine(1500, 2, 16) + b'\x01\x02'),
        'wav16_tail_sample_lame576x3': hdr(3, chunk=LAME576 | 2) + wav(sine(1300, 2, 16) + b'\x03\x04'),
        'wav24_cut_mid_frame_lame576': hdr(3, chunk=LAME576) + wav(sine(700, 2, 24) + b'\x01\x02\x03\x04',
                                                                   bits=24),
        'aiff16_tail_sample_lame1152': hdr(3 | 0x10, chunk=LAME1152)
                                       + aiff(sine(1200, 2, 16, big=True) + b'\x05\x06'),
        'wav16_tail_sample_stdin_lame576': hdr(1, chunk=LAME576) + wav(sine(700, 2, 16) + b'\x01\x02'),
    }
    for name, data in seeds.items():
        write(d, name, data)


# ---------- args: flags byte, then one argument per line ----------
def args_seeds(d):
    lines = {
        'vbr2': (0, ['-V', '2', 'song.wav', 'song.mp3']),
        'preset_extreme_stdout': (0, ['--preset', 'extreme', '-m', 'j', 'song.flac', '-']),
        'threads': (0, ['--threads', '4', '-V', '0', 'long.wav', 'long.mp3']),
        'raw_stdin': (0, ['-r', '-s', '44.1', '--bitwidth', '24', '--signed', '--big-endian', '-', '-']),
        'cbr_bundle': (2, ['-hb', '320', '-mj', 'in.wav']),
        'abr': (4, ['--abr', '160', '-q', '0', '--lowpass', '19.5', 'x.aiff', 'y.mp3']),
        'help': (0, ['--help']),
        'longhelp': (0, ['--longhelp']),
        'help_dev': (0, ['--help', 'dev']),
        'preset_help': (0, ['--preset', 'help']),
        'version': (0, ['--version']),
        'lameopt': (1, ['-V 5 --vbr-old "quoted arg"', 'in.wav', 'out.mp3']),
        'resample': (0, ['--resample', '22.05', '-s', '8', '--highpass', '0.1', 'a', 'b']),
        'freeformat': (0, ['--freeformat', '-b', '450', 'a.wav']),
        'scale_gain': (0, ['--scale', '0.5', '--scale-l', '2', '--gain', '-3', '--swap-channel', 'in']),
        'dev_switches': (0, ['--ns-bass', '-3', '--athtype', '2', '--noshort', '-X', '3', 'in.wav']),
        'id3_refused': (0, ['--tt', 'title', 'in.wav']),
        'out_dir': (0, ['--out-dir', '/tmp/x', 'music/track.flac']),
        'many_flags': (0, ['-p', '-c', '-o', '-e', 'c', '-t', '-T', '--nores', '--strictly-enforce-ISO',
                           '-Y', '-Z', '--noreplaygain', '-S', 'in.wav']),
        'preset_fast_cbr': (0, ['--preset', 'fast', 'standard', '--preset', 'cbr', '192', 'a.wav']),
        'bad_v': (0, ['-V', 'abc', 'a.wav']),
        'ignorelength': (0, ['--ignorelength', '-', 'out.mp3']),
    }
    for name, (flags, argv) in lines.items():
        write(d, name, bytes([flags]) + '\n'.join(argv).encode())


# ---------- encode: in, ring, misc, misc2, options (3 bytes each), samples ----------
# option selectors (fuzz_encode.c add_option): 0 -V x, 1 -V x.y, 2 -b, 3 -B, 4 -F, 5 --abr,
# 6 --cbr, 7 -q, 8 -m, 9 --resample, 14 -p, 15 --nores, 17 -t, 18 --noreplaygain,
# 19 --scale, 22 --gain, 23 --swap-channel, 25 --preset, 29 --vbr-old, 33 --r3mix,
# 35 --freeformat -b, 39 -h/-f, 44 -s, 46 -V -b -B
def encode_seeds(d):
    def enc(kind, stereo, rate_idx, threads, io, slots, stress, opts, reps, samples, pipe=0,
            rawflag=0, rawbits=1, stats=0):
        b0 = kind | (stereo << 3) | (rate_idx << 4)
        b1 = (threads - 1) | (io << 2) | (slots << 4) | (stress << 7)
        b2 = len(opts) | (reps << 3) | (pipe << 6) | (rawflag << 7)
        b3 = rawbits | (stats << 2)
        ob = b''.join(bytes(o) for o in opts)
        return bytes([b0, b1, b2, b3]) + ob + samples
    s16 = sine(288, 2, 16)
    m16 = sine(288, 1, 16)
    seeds = {
        'cbr_default': enc(0, 1, 0, 2, 0, 0, 0, [], 3, s16),
        'vbr2_ring4': enc(0, 1, 0, 4, 0, 0, 0, [(0, 2, 0)], 3, s16),
        'abr160_mono': enc(0, 0, 0, 2, 1, 2, 0, [(5, 78, 0)], 4, m16),
        'vbr_old_q0': enc(0, 1, 1, 3, 0, 1, 0, [(29, 0, 0), (7, 0, 0)], 3, s16),
        'cbr320_crc': enc(0, 1, 0, 2, 2, 0, 0, [(2, 17, 0), (14, 0, 0)], 3, s16, stats=1),
        'resample_8k': enc(0, 1, 0, 2, 0, 3, 0, [(9, 0, 0)], 3, s16),
        'in8k_mono': enc(0, 0, 8, 1, 0, 0, 0, [], 2, sine(288, 1, 16, rate=8000)),
        'in96k': enc(0, 1, 9, 2, 0, 0, 0, [(0, 5, 0)], 4, s16),
        'wav24': enc(1, 1, 0, 2, 0, 0, 0, [], 3, sine(200, 2, 24)),
        'wav8': enc(2, 0, 3, 2, 0, 0, 0, [(0, 7, 0)], 4, sine(400, 1, 8)),
        'wav32': enc(3, 1, 0, 2, 1, 0, 0, [], 3, sine(150, 2, 32)),
        'wavfloat': enc(4, 1, 0, 2, 0, 0, 0, [(46, 4, 3)], 3, sine(150, 2, 32, fmt_float=True)),
        'aiff16': enc(5, 1, 1, 2, 0, 0, 0, [(8, 1, 0)], 3, sine(288, 2, 16, big=True)),
        'raw16_mono': enc(6, 0, 0, 2, 0, 0, 0, [(25, 1, 0)], 3, m16),
        'raw8_unsigned': enc(6, 1, 6, 2, 0, 0, 0, [], 4, sine(300, 2, 8), rawflag=1, rawbits=0),
        'stdin_pipe': enc(7, 1, 0, 2, 0, 0, 0, [(0, 4, 0)], 3, s16, pipe=1),
        'stdin_file_nores': enc(7, 1, 0, 2, 0, 0, 0, [(15, 0, 0), (17, 0, 0)], 3, s16),
        'stress_tiny_ring': enc(0, 1, 0, 4, 0, 1, 1, [(0, 0, 0)], 4, s16),
        'freeformat': enc(0, 1, 0, 2, 0, 0, 0, [(35, 100, 0)], 3, s16),
        'partial_frame': enc(0, 1, 0, 2, 0, 0, 0, [], 0, s16 + b'\x11\x22'),
        'r3mix_swap_gain': enc(0, 1, 0, 3, 0, 0, 0, [(33, 0, 0), (23, 0, 0), (22, 30, 0)], 3, s16),
        'silence_vbr9': enc(0, 1, 0, 2, 0, 0, 0, [(1, 9, 249)], 5, bytes(1152)),
        'empty': enc(0, 1, 0, 2, 0, 0, 0, [], 0, b''),
    }
    for name, data in seeds.items():
        write(d, name, data)


# ---------- mp3: mode, piece size, stream ----------
# mode: bit 0 named file, bit 1 stdin pipe, bit 2 --mp3input, bit 3 direct feed too.
# The streams are made by Debian's lame 3.100 (deterministic) from short
# synthetic WAVs; without lame only the hand-made seeds are written.
def lame_mp3(opts, pcm, channels, rate):
    import subprocess
    import tempfile
    lame = os.environ.get('LAME', '/usr/bin/lame')
    if not os.access(lame, os.X_OK):
        return None
    with tempfile.TemporaryDirectory() as t:
        src, dst = os.path.join(t, 'in.wav'), os.path.join(t, 'out.mp3')
        with open(src, 'wb') as f:
            f.write(wav(pcm, channels=channels, rate=rate))
        subprocess.run([lame, '--quiet'] + opts + [src, dst], check=True)
        with open(dst, 'rb') as f:
            return f.read()


def mp3_seeds(d):
    sys.path.insert(0, os.path.join(HERE, '..', 'identity'))
    sys.dont_write_bytecode = True
    import mpa_streams
    def hdr(mode, piece=20):
        return bytes([mode, piece])
    silent = b''.join(b'\xff\xfb\x90\x04' + bytes(413) for _ in range(4))
    seeds = {
        'silent_frames_named': hdr(1 | 8) + silent,
        'silent_frames_pipe': hdr(2 | 4 | 8, piece=0) + silent,
        'garbage_only': hdr(1 | 8) + noise(600, seed=7),
        'id3v2_then_frames': hdr(1) + b'ID3\x03\x00\x00\x00\x00\x00\x0a' + bytes(10) + silent,
        'empty': hdr(9),
    }
    made = [
        ('v2_stereo', ['-V', '2'], sine(2000, 2, 16), 2, 44100, 1 | 8),
        ('cbr32_mono_22k_crc_notag', ['-b', '32', '-p', '-t'], sine(1500, 1, 16, rate=22050), 1, 22050, 2 | 8),
        ('v5_mono_8k', ['-V', '5'], sine(1200, 1, 16, rate=8000), 1, 8000, 1 | 4),
        ('abr_joint_48k', ['--abr', '96'], sine(2000, 2, 16, rate=48000), 2, 48000, 1 | 8),
        ('cbr64_free', ['-b', '64', '--freeformat'], sine(2000, 2, 16), 2, 44100, 1 | 8),
    ]
    for name, opts, pcm, ch, rate, mode in made:
        data = lame_mp3(opts, pcm, ch, rate)
        if data is None:
            print('mp3: lame not found, %s not written' % name)
            continue
        seeds[name] = hdr(mode, piece=ch * 37) + data
        if name == 'v2_stereo':
            seeds['v2_stereo_truncated'] = hdr(mode) + data[:len(data) * 2 // 3]
            seeds['v2_stereo_garbage_inside'] = hdr(mode) + data[:900] + noise(300, seed=3) + data[900:]
        if name == 'cbr32_mono_22k_crc_notag':
            seeds['layer2_relabelled'] = hdr(1 | 8) + mpa_streams.relabel_layer2(data)
    # Layer I: the identity test's generator (random, well-formed frames)
    import random
    for mode in ('joint', 'mono'):
        rng = random.Random(11)
        seeds['layer1_' + mode] = hdr(1 | 8, piece=50) + b''.join(
            mpa_streams.frame(rng, mode, kbps_index=1) for _ in range(3))
    for name, data in seeds.items():
        write(d, name, data)


def main():
    for target, fn in (('pcm', pcm_seeds), ('args', args_seeds), ('encode', encode_seeds),
                       ('mp3', mp3_seeds)):
        d = os.path.join(HERE, 'corpus', target)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        fn(d)
        print('%s: %d seeds' % (d, len(os.listdir(d))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
