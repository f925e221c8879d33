#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/threads: the frame ring writes lame's bytes at every thread count.
# Each case is encoded once with lame and then with ringlame --sequential and
# --threads 1, 2, 3, 8 and 64 (the ring with 4*N slots); every output must
# equal lame's.  The set covers the themes' representative cases: sample-rate
# classes, mono/stereo, lengths around the frame size and one of minutes,
# -V 0/2/4/9, ReplayGain on and off, resampling, stdout and stdin.
. "$(dirname "$0")/lib.sh"
id_init "$@"

RL_THREAD_SETTINGS=("--sequential" "--threads 1" "--threads 2" "--threads 3" "--threads 8" "--threads 64")

# sample-rate classes (MPEG-1, MPEG-2, MPEG-2.5), stereo and mono
for r in 8000 16000 22050 32000 44100 48000; do
    gen "mix_$r.wav" -t mix -r "$r" -d 2 -S "$r"
    check_threads file "r${r}_V2" "$IN/mix_$r.wav" -V 2
done
gen mono_44100.wav -t mix -c 1 -d 2 -S 11
check_threads file mono_V4 "$IN/mono_44100.wav" -V 4
gen mono_22050.wav -t white -r 22050 -c 1 -d 2 -S 12
check_threads file mono_22050_V9 "$IN/mono_22050.wav" -V 9

# lengths around the frame size: fewer frames than threads and slots
for n in 0 1 1152 1153; do
    gen "st_$n.wav" -t mix -n "$n" -S "$((n + 20))"
    check_threads file "n${n}_V2" "$IN/st_$n.wav" -V 2
    check_threads file "n${n}_V4_norg" "$IN/st_$n.wav" -V 4 --noreplaygain
done

# the VBR range, ReplayGain on/off, signals with many short blocks
gen music.wav -t mix -d 6 -S 41
gen burst.wav -t burst -d 4 -S 42
gen pink.wav -t pink -d 4 -S 43
for o in "-V 0" "-V 2" "-V 4 --noreplaygain" "-V 9" "-V 2 --noreplaygain" "-V 5 -m m"; do
    # shellcheck disable=SC2086
    check_threads file "music_${o// /_}" "$IN/music.wav" $o
done
check_threads file burst_V0 "$IN/burst.wav" -V 0
check_threads file pink_V2 "$IN/pink.wav" -V 2

# CBR (loops serially in Encode), ABR (speculative search, step-state
# check) and vbr_rh, with their carried state at every thread count
for o in "" "-b 320 -q 0" "--abr 160" "--abr 256 -h" "--vbr-old -V 2" "-b 64"; do
    # shellcheck disable=SC2086
    check_threads file "music_mode_${o// /_}" "$IN/music.wav" $o
done
check_threads file burst_abr96 "$IN/burst.wav" --abr 96
check_threads file r22050_abr64 "$IN/mix_22050.wav" --abr 64
check_threads file n1153_default "$IN/st_1153.wav"

# resampling (Dispatch's resampler state)
check_threads file resample_32_V2 "$IN/music.wav" -V 2 --resample 32
check_threads file r48000_resample_22.05_V5 "$IN/mix_48000.wav" -V 5 --resample 22.05

# stdout (no tag frame) and stdin (lame's own WAV parser)
check_threads stdout stdout_V2 "$IN/music.wav" -V 2
check_threads stdin stdin_V4 "$IN/music.wav" -V 4
check_threads stdio stdio_V0 "$IN/burst.wav" -V 0

# one of several minutes: the reservoir, the TOC and the ReplayGain histogram
gen long_200s.wav -t mix -d 200 -S 99
check_threads file long_200s_V2 "$IN/long_200s.wav" -V 2
check_threads file long_200s_default "$IN/long_200s.wav"
check_threads file long_200s_abr160 "$IN/long_200s.wav" --abr 160

id_summary
