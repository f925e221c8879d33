#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/lengths: inputs of 0, 1, 575, 576, 577, 1151 ... samples around the
# granule and frame sizes, for 2-granule (MPEG-1) and 1-granule (MPEG-2/2.5)
# streams, with and without resampling, and one input of a few minutes.
. "$(dirname "$0")/lib.sh"
id_init "$@"

for n in 0 1 2 575 576 577 1151 1152 1153 1727 1728 2304 4095; do
    gen "st_$n.wav" -t mix -n "$n" -S "$n"
    check_file "n${n}_V2" "$IN/st_$n.wav" -V 2
    check_file "n${n}_V9_resample" "$IN/st_$n.wav" -V 9
    gen "mono_$n.wav" -t white -c 1 -n "$n" -S "$((n + 7))"
    check_file "n${n}_mono_V5" "$IN/mono_$n.wav" -V 5
    gen "lsf_$n.wav" -t mix -r 22050 -n "$n" -S "$((n + 3))"
    check_file "n${n}_22050_V4" "$IN/lsf_$n.wav" -V 4
    gen "mpeg25_$n.wav" -t mix -r 8000 -c 1 -n "$n" -S "$((n + 5))"
    check_file "n${n}_8000_mono_V3" "$IN/mpeg25_$n.wav" -V 3
done

# a few minutes: long enough for the reservoir, the Xing TOC and the
# ReplayGain histogram to matter
gen long_180s.wav -t mix -d 180 -S 99
check_file long_180s_V2 "$IN/long_180s.wav" -V 2
gen long_150s_48k.wav -t pink -r 48000 -d 150 -S 98
check_file long_150s_48k_V7 "$IN/long_150s_48k.wav" -V 7

id_summary
