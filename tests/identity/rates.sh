#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/rates: every input sample-rate class, the output rate each VBR
# setting chooses (MPEG-1, MPEG-2, MPEG-2.5) and --resample.
. "$(dirname "$0")/lib.sh"
id_init "$@"

for r in 8000 11025 12000 16000 22050 24000 32000 44100 48000 96000; do
    gen "mix_$r.wav" -t mix -r "$r" -d 2 -S "$r"
    for v in 0 2 5 7 9; do
        check_file "r${r}_V$v" "$IN/mix_$r.wav" -V "$v"
    done
    gen "mono_$r.wav" -t mix -r "$r" -c 1 -d 1.5 -S "$((r + 1))"
    check_file "r${r}_mono_V4" "$IN/mono_$r.wav" -V 4
done

# a non-standard input rate: resampled to the next valid rate above it
gen mix_37800.wav -t mix -r 37800 -d 2
check_file r37800_V2 "$IN/mix_37800.wav" -V 2

# the -V q-map: fractional settings that lower the output rate of 44.1 kHz input
for v in 6.49 6.5 7 7.99 8 8.5 9 9.2 9.5 9.7 9.999; do
    check_file "r44100_V$v" "$IN/mix_44100.wav" -V "$v"
done

# explicit --resample to every output rate (from 44.1 kHz and 48 kHz input)
for f in 8 11.025 12 16 22.05 24 32 44.1 48; do
    check_file "resample_${f}_V2" "$IN/mix_44100.wav" -V 2 --resample "$f"
done
for f in 16 32 44.1; do
    check_file "r48000_resample_${f}_V5" "$IN/mix_48000.wav" -V 5 --resample "$f"
done
check_file resample_22.05_mono_V4 "$IN/mono_44100.wav" -V 4 --resample 22.05
check_file resample_44.1_from_96k_V0 "$IN/mix_96000.wav" -V 0 --resample 44.1

id_summary
