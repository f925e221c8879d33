#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/example: examples/wav2mp3 (the public API only, linked against
# libringlame.so) writes lame's bytes: rate classes, channel counts, rate
# control modes, ReplayGain (also --replaygain-accurate, --clipdetect),
# integer and float files, a very short file,
# ID3 tags (the tag frame after the ID3v2 tag).
# Run as: bash example.sh WAV2MP3 GEN_SIGNAL [WORKDIR]
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen mix44.wav -t mix -r 44100 -d 4 -S 1
gen mono32.wav -t mix -r 32000 -c 1 -d 3 -S 2
gen mix22.wav -t mix -r 22050 -d 3 -S 3
gen mix8.wav -t mix -r 8000 -d 2 -S 4
gen f32.wav -t mix -r 48000 -b float -d 3 -S 5
gen s24.wav -t sweep -r 44100 -b 24 -d 3 -S 6
gen short.wav -t impulse -r 44100 -n 100 -S 7
gen square.wav -t square -r 44100 -d 2 -S 8

check_file default "$IN/mix44.wav"
check_file V0 "$IN/mix44.wav" -V 0
check_file V4_mono "$IN/mono32.wav" -V 4
check_file abr96_22k "$IN/mix22.wav" --abr 96
check_file b320_q0 "$IN/mix44.wav" -b 320 -q 0
check_file b8_8k "$IN/mix8.wav" -b 8
check_file float_V2 "$IN/f32.wav" -V 2
check_file s24_preset "$IN/s24.wav" --preset extreme
check_file short_V5 "$IN/short.wav" -V 5
check_file square_rg "$IN/square.wav" -V 3 --replaygain-fast
check_file square_rg_accurate "$IN/square.wav" -V 3 --replaygain-accurate
check_file mix_clipdetect_cbr "$IN/mix44.wav" --clipdetect
check_file mono_mode "$IN/mix44.wav" -m m -b 96
check_file no_tag "$IN/mix44.wav" -t -b 160
check_file vbr_old "$IN/mix44.wav" --vbr-old -V 2
check_file resample "$IN/mix44.wav" --resample 32 -V 4
check_file id3_V2 "$IN/mix44.wav" -V 2 --tt Title --ta Artist --tn 2/5 --tv TXXX=k=v
check_file id3_cbr_v1 "$IN/mono32.wav" -b 64 --tt Title --tg Rock --id3v1-only

id_summary
