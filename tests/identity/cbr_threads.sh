#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/cbr_threads: CBR's speculative search (loops in Search from an
# assumed reservoir, exact check and redo in Encode) writes lame's bytes
# at --sequential and at several thread counts, for every CBR case the
# modes theme covers: every bitrate of MPEG-1, MPEG-2 and MPEG-2.5, free
# format, --nores, --strictly-enforce-ISO, -q 0..9, the channel modes,
# resampling and the CBR presets.  More workers make the assumed state
# older (about one frame per worker), so the counts reach the ages the
# search treats differently (1, a few, 16 and more).
# Each case runs at --sequential and at one of --threads 2, 8, 1, 16, 3
# and 32, taken in turn over the cases (so each count meets every group of
# cases; the modes theme runs them all at the default count too); --full
# (after the usual arguments) runs every case at all of them.
. "$(dirname "$0")/lib.sh"
FULL=0
[ "${4:-}" = --full ] && FULL=1
id_init "${@:1:3}"

THREADS=("--threads 2" "--threads 8" "--threads 1" "--threads 16" "--threads 3" "--threads 32")
TURN=0

# cbr CASE INPUT OPTS...: the case at --sequential and the next thread
# count (all of them with --full)
cbr() {
    local name=$1 in=$2; shift 2
    if [ $FULL = 1 ]; then
        RL_THREAD_SETTINGS=("--sequential" "${THREADS[@]}")
    else
        RL_THREAD_SETTINGS=("--sequential" "${THREADS[TURN % 6]}")
        TURN=$((TURN + 1))
    fi
    check_threads file "$name" "$in" "$@"
}

gen mix_44100.wav -t mix -d 1 -S 44
gen mix_22050.wav -t mix -r 22050 -d 1 -S 22
gen mix_11025.wav -t mix -r 11025 -d 1 -S 11
gen mix_48000.wav -t mix -r 48000 -d 1 -S 48
gen music.wav -t mix -d 1.5 -S 41
gen burst.wav -t burst -d 1 -S 5

# every legal bitrate of each MPEG version (pinned with --resample)
each_cbr_bitrate cbr

# free format, the reservoir off, the ISO buffer limit
cbr freeformat_b400 "$IN/mix_44100.wav" --freeformat -b 400
cbr freeformat_r22_b200 "$IN/mix_22050.wav" --freeformat -b 200
cbr nores "$IN/music.wav" --nores
cbr nores_b320 "$IN/burst.wav" -b 320 --nores
cbr strict_b320 "$IN/music.wav" -b 320 --strictly-enforce-ISO
cbr strict_default "$IN/burst.wav" --strictly-enforce-ISO

# every -q (the outer loop's noise shaping and step search variants)
for q in 0 1 2 3 4 5 6 7 8 9; do
    cbr "q$q" "$IN/music.wav" -q "$q"
done
cbr b320_q0 "$IN/burst.wav" -b 320 -q 0

# channel modes (M/S switching, forced M/S, dual channel, mono, one side)
for m in j s f d m l; do
    cbr "m$m" "$IN/music.wav" -m "$m"
done

# resampling, another input rate, the CBR presets
cbr resample32 "$IN/music.wav" --resample 32
cbr r48000_resample22 "$IN/mix_48000.wav" -b 96 --resample 22.05
cbr r48000_b256 "$IN/mix_48000.wav" -b 256
cbr preset_insane "$IN/music.wav" --preset insane
cbr preset_cbr192 "$IN/music.wav" --preset cbr 192
cbr preset_cbr80_mono "$IN/mix_22050.wav" --preset cbr 80 -m m

id_summary
