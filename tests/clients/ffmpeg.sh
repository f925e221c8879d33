#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# clients/ffmpeg: Debian 12's ffmpeg (-c:a libmp3lame) writes the same file
# through the drop-in as through the system's libmp3lame: CBR, VBR (-q:a),
# ABR (-abr 1), mono (-ac 1), disabled reservoir, 16-bit (lame_encode_buffer
# on s16p), 24-bit (_int on s32p) and float (_float on fltp) inputs at 44.1,
# 48 and 22.05 kHz.  The ff_more cases run with RINGLAME_FRAMES_IN_FLIGHT
# (ffmpeg flushes until nothing is left, so it may have more frames in
# flight than lame.h's 7,200-byte flush allows; docs/api.md).
# Run as: bash ffmpeg.sh SHIM_DIR GEN_SIGNAL [WORKDIR]
. "$(dirname "$0")/lib.sh"
cl_init "$@" ffmpeg

cl_gen s16_44.wav -t mix -r 44100 -d 4 -S 1
cl_gen s16_48.wav -t mix -r 48000 -d 3 -S 2
cl_gen s24_48.wav -t sweep -r 48000 -b 24 -d 3 -S 3
cl_gen f32_22.wav -t mix -r 22050 -b float -d 3 -S 4
cl_gen f32_44.wav -t panned -r 44100 -b float -d 3 -S 5
cl_gen s16_22_mono.wav -t mix -r 22050 -c 1 -d 3 -S 6

ff() {   # ff NAME INPUT OPTIONS...
    local name=$1 in=$IN/$2
    shift 2
    cl_case "$name" mp3 ffmpeg -nostdin -y -loglevel error -i "$in" -map_metadata -1 -c:a libmp3lame "$@" @OUT@
}
ff b128_s16 s16_44.wav -b:a 128k
ff b320_s16_48 s16_48.wav -b:a 320k
ff b64_f32_22 f32_22.wav -b:a 64k
ff q2_s16 s16_44.wav -q:a 2
ff q0_s24_48 s24_48.wav -q:a 0
ff q6_f32 f32_44.wav -q:a 6
ff q9_f32_22 f32_22.wav -q:a 9
ff abr160_s16 s16_44.wav -abr 1 -b:a 160k
ff abr96_s24_48 s24_48.wav -abr 1 -b:a 96k
ff mono_b96 s16_44.wav -ac 1 -b:a 96k
ff mono_q4_22 s16_22_mono.wav -q:a 4
ff noreservoir_b192 s16_48.wav -b:a 192k -reservoir 0
ff level0_b192_f32 f32_44.wav -b:a 192k -compression_level 0
ff resample_b128_22to44 f32_22.wav -ar 44100 -b:a 128k

ff_more() {   # ff_more FRAMES NAME INPUT OPTIONS...: ff with that many frames in flight
    local frames=$1 name=$2 in=$IN/$3
    shift 3
    cl_case "$name" mp3 env RINGLAME_FRAMES_IN_FLIGHT="$frames" ffmpeg -nostdin -y -loglevel error -i "$in" \
        -map_metadata -1 -c:a libmp3lame "$@" @OUT@
}
ff_more 32 inflight32_q2_s16 s16_44.wav -q:a 2
ff_more 64 inflight64_q0_s24_48 s24_48.wav -q:a 0
ff_more 32 inflight32_b320_s16_48 s16_48.wav -b:a 320k
ff_more 16 inflight16_abr160_s16 s16_44.wav -abr 1 -b:a 160k
ff_more 64 inflight64_mono_q4_22 s16_22_mono.wav -q:a 4
cl_summary
