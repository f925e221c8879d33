#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Times real programs with the drop-in libmp3lame.so.0 against the same
# programs with Debian's libmp3lame, on one whole song (3.4 minutes): ffmpeg
# -q:a 2, ffmpeg -b:a 192k, sox -C 128 and GStreamer's lamemp3enc CBR 192,
# and ffmpeg -q:a 2 with RINGLAME_FRAMES_IN_FLIGHT=32 (docs/api.md).
# The two libraries take turns within each pass; the median of RUNS passes
# is printed with the ratio (Debian's time / the drop-in's: above 1 the
# drop-in is faster) and whether the files were identical.  Then the start-up
# cost of a program that links libmp3lame.so.0 (`lame --version`, which loads
# libsndfile too), STARTS times in a row with each library.
#
# usage: bash bench/clients_bench.sh [SHIM_DIR]     (default build/mp3lame)
# environment: RUNS (default 5), STARTS (default 200), RINGLAME_THREADS
#   (the drop-in's threads; default the CPUs the process may use),
#   BENCH_DIR (default build/bench: the decoded song is kept there),
#   CLIENTS (the settings to time, of the NAMES below; default all of them)
set -euo pipefail
cd "$(dirname "$0")/.."

SHIM_DIR=$(cd "${1:-build/mp3lame}" && pwd)
RUNS=${RUNS:-5}
STARTS=${STARTS:-200}
DIR=${BENCH_DIR:-build/bench}
SONG="/usr/share/games/fretsonfire/data/songs/sectoid/Escape from chaosland/song.ogg"
[ -e "$SHIM_DIR/libmp3lame.so.0" ] || { echo "bench: $SHIM_DIR/libmp3lame.so.0 missing (cmake --build build)" >&2; exit 1; }
for p in ffmpeg sox gst-launch-1.0 lame; do
    command -v $p >/dev/null || { echo "bench: $p missing (bash scripts/setup.sh)" >&2; exit 1; }
done
[ -e "$SONG" ] || { echo "bench: $SONG missing (bash scripts/setup.sh)" >&2; exit 1; }

mkdir -p "$DIR/clients"
IN=$DIR/clients/song.wav
[ -s "$IN" ] || { sox -D "$SONG" -b 16 "$IN.part.wav" && mv "$IN.part.wav" "$IN"; }
OUT=$DIR/clients

now() { echo "${EPOCHREALTIME/,/.}"; }

# one client setting: NAME CMD... (@OUT@ is the output file)
run() {   # run LIB NAME CMD... -> prints the wall seconds
    local lib=$1 name=$2 t0 t1 a cmd=()
    shift 2
    for a in "$@"; do cmd+=("${a//@OUT@/$OUT/$name.$lib.mp3}"); done
    t0=$(now)
    if [ "$lib" = shim ]; then
        LD_LIBRARY_PATH=$SHIM_DIR "${cmd[@]}" >/dev/null 2>&1
    else
        (unset LD_LIBRARY_PATH; "${cmd[@]}") >/dev/null 2>&1
    fi
    t1=$(now)
    echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}'
}

read -r -a NAMES <<<"${CLIENTS:-ffmpeg_q2 ffmpeg_q2_k32 ffmpeg_b192 sox_C128 gst_cbr192}"
cmd_of() {
    case $1 in
        ffmpeg_q2) echo ffmpeg -nostdin -y -loglevel error -i "$IN" -c:a libmp3lame -q:a 2 @OUT@ ;;
        ffmpeg_q2_k32) echo env RINGLAME_FRAMES_IN_FLIGHT=32 ffmpeg -nostdin -y -loglevel error -i "$IN" \
            -c:a libmp3lame -q:a 2 @OUT@ ;;
        ffmpeg_b192) echo ffmpeg -nostdin -y -loglevel error -i "$IN" -c:a libmp3lame -b:a 192k @OUT@ ;;
        sox_C128) echo sox -q "$IN" -C 128 @OUT@ ;;
        gst_cbr192) echo env GST_REGISTRY=$OUT/gst.registry gst-launch-1.0 -q filesrc location="$IN" ! wavparse ! \
            audioconvert ! lamemp3enc target=bitrate bitrate=192 cbr=true ! filesink location=@OUT@ ;;
        *) echo "bench: no client setting '$1'" >&2; exit 1 ;;
    esac
}
declare -A T
for ((r = 1; r <= RUNS; r++)); do
    for n in "${NAMES[@]}"; do
        read -r -a c <<<"$(cmd_of "$n")"
        for lib in system shim; do
            T[$n.$lib]+="$(run $lib "$n" "${c[@]}") "
        done
    done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "clients on $(soxi -D "$IN" | cut -d. -f1) s of music, median of $RUNS interleaved passes," \
     "RINGLAME_THREADS=${RINGLAME_THREADS:-(all CPUs)}, $(nproc) CPUs"
printf '| %-12s | %9s | %9s | %6s | %s |\n' client "Debian s" "drop-in s" ratio identical
printf '|---|---|---|---|---|\n'
for n in "${NAMES[@]}"; do
    s=$(echo "${T[$n.system]}" | median)
    d=$(echo "${T[$n.shim]}" | median)
    same=no
    cmp -s "$OUT/$n.system.mp3" "$OUT/$n.shim.mp3" && same=yes
    printf '| %-12s | %9s | %9s | %6s | %s |\n' "$n" "$s" "$d" "$(awk -v a="$s" -v b="$d" 'BEGIN {printf "%.2f", a / b}')" "$same"
done

# start-up: STARTS runs of `lame --version` with each library, interleaved in blocks of 20
startup() {   # LIB -> seconds for 20 starts
    local t0 t1 i
    t0=$(now)
    for ((i = 0; i < 20; i++)); do
        if [ "$1" = shim ]; then LD_LIBRARY_PATH=$SHIM_DIR lame --version >/dev/null
        else (unset LD_LIBRARY_PATH; lame --version >/dev/null); fi
    done
    t1=$(now)
    echo "$t0 $t1" | awk '{printf "%.4f\n", $2 - $1}'
}
S_SYS="" S_SHIM=""
for ((i = 0; i < STARTS / 20; i++)); do
    S_SYS+="$(startup system) "
    S_SHIM+="$(startup shim) "
done
s=$(echo "$S_SYS" | median)
d=$(echo "$S_SHIM" | median)
awk -v a="$s" -v b="$d" 'BEGIN {printf "start-up of lame --version (median per start, blocks of 20): Debian %.2f ms, drop-in %.2f ms\n", a * 50, b * 50}'
