#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# clients/sox: sox 14.4.2 (libsox-fmt-mp3, lame_encode_buffer_float in 4096
# samples, one flush) writes the same file through the drop-in as through the
# system's libmp3lame: CBR (-C 128, with a quality fraction), VBR (negative
# -C: the LAME tag frame written after the ID3v2 tag), ID3 tags from
# --comment, mono and 48/22.05 kHz.  sox has no ABR setting (-C is a CBR
# bitrate or a VBR quality).
# Run as: bash sox.sh SHIM_DIR GEN_SIGNAL [WORKDIR]
. "$(dirname "$0")/lib.sh"
cl_init "$@" sox
sox -h 2>/dev/null | grep -qw mp3 || cl_skip "sox cannot write mp3 (apt-get install libsox-fmt-mp3)"

cl_gen s16_44.wav -t mix -r 44100 -d 4 -S 11
cl_gen s16_48.wav -t sweep -r 48000 -d 3 -S 12
cl_gen s16_22_mono.wav -t mix -r 22050 -c 1 -d 3 -S 13
cl_gen s24_44.wav -t panned -r 44100 -b 24 -d 3 -S 14

sx() {   # sx NAME INPUT OPTIONS...
    local name=$1 in=$IN/$2
    shift 2
    cl_case "$name" mp3 sox -q "$in" "$@" @OUT@
}
sx C128 s16_44.wav -C 128
sx C320_48 s16_48.wav -C 320
sx C192.2 s24_44.wav -C 192.2
sx C64_mono_22 s16_22_mono.wav -C 64
sx Cm2_vbr s16_44.wav -C -2
sx Cm4.5_vbr_48 s16_48.wav -C -4.5
sx Cm0_vbr_mono s16_22_mono.wav -C -0
sx C128_tags s16_44.wav -C 128 --comment "Title=A title" --add-comment "Artist=Someone" \
    --add-comment "Album=Album" --add-comment "Year=2024" --add-comment "Tracknumber=3" \
    --add-comment "Genre=Rock" --add-comment "Discnumber=1/2"
sx Cm2_tags s16_48.wav -C -2 --comment "Comment=plain comment"
cl_summary
