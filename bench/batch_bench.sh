#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Times a corpus of ten 45-second music pieces encoded three ways with the
# same options:
#   xargs lame      find DIR -name '*.wav' | xargs -P2 -n1 lame OPTS --out-dir OUT
#                   (the usual way to keep two cores busy with lame)
#   ringlame loop   ringlame OPTS run file by file (each file on --threads,
#                   default: the CPU count)
#   ringlame batch  ringlame OPTS --batch --out-dir OUT DIR (one executor for
#                   all files, one file per thread in flight)
# best of RUNS wall-clock runs each (the three take turns within each run, so
# that a change of machine load hits them alike), and prints each one's
# speed-up over xargs lame (xargs seconds / its seconds: above 1 it is faster),
# the least CPU seconds (user + system, every process of the way) of its runs,
# which a loaded machine disturbs less than the wall time and which shows
# work done in vain, and whether every output is byte-identical to lame's.
#
# The corpus is cut reproducibly (sox, no dither) from the eight songs of
# Debian's fretsonfire-songs-muldjord and -sectoid packages, as bench/bench.sh
# does: 45 s from 30 s into each song, and two more from 100 s into the two
# longest ones.
#
# usage: bash bench/batch_bench.sh [RINGLAME]
#   default build/ringlame (build first: bash scripts/test.sh)
# environment: LAME (default /usr/bin/lame), RUNS (default 3), OPTS (default
#              "-V 2"), P (xargs -P, default 2), BENCH_DIR (default
#              build/bench-batch: the corpus is kept there)
set -euo pipefail
cd "$(dirname "$0")/.."

RL=${1:-build/ringlame}
LAME=${LAME:-/usr/bin/lame}
RUNS=${RUNS:-3}
P=${P:-2}
read -r -a O <<<"${OPTS:--V 2}"
DIR=${BENCH_DIR:-build/bench-batch}
SONGS=/usr/share/games/fretsonfire/data/songs

for x in "$RL" "$LAME"; do
    [ -x "$x" ] || { echo "batch_bench: $x not found (build with: bash scripts/test.sh)" >&2; exit 1; }
done
command -v sox >/dev/null || { echo "batch_bench: sox missing (bash scripts/setup.sh)" >&2; exit 1; }
[ -d "$SONGS" ] || { echo "batch_bench: fretsonfire songs missing (bash scripts/setup.sh)" >&2; exit 1; }
RL=$(cd "$(dirname "$RL")" && pwd)/$(basename "$RL")

C=$DIR/corpus
mkdir -p "$C"
piece() {  # NAME SONG OFFSET
    [ -s "$C/$1.wav" ] && return 0
    sox -D "$SONGS/$2/song.ogg" -b 16 "$C/$1.part.wav" trim "$3" 45
    mv "$C/$1.part.wav" "$C/$1.wav"
}
piece 01-armygeddon muldjord/armygeddon 30
piece 02-chaos_god muldjord/chaos_god 30
piece 03-internal_degeneration muldjord/internal_degeneration 30
piece 04-mutilated_mime muldjord/mutilated_mime 30
piece 05-escape sectoid/"Escape from chaosland" 30
piece 06-feelings sectoid/Feelings 30
piece 07-metal_madness sectoid/"Metal madness" 30
piece 08-war_of_freedom sectoid/"War of freedom" 30
piece 09-feelings sectoid/Feelings 100
piece 10-internal_degeneration muldjord/internal_degeneration 100
NAMES=$(cd "$C" && ls ./*.wav | sed 's|^\./||; s|\.wav$||')

now() { echo "${EPOCHREALTIME/,/.}"; }
# wall seconds since $1, then the CPU seconds of this subshell's children
# (bash's times: user and system, the waited-for descendants included)
elapsed() {
    local c
    times >"$DIR/.times"        # in this shell: a pipe's subshell has no children
    c=$(tail -n 1 "$DIR/.times")
    awk -v a="$1" -v b="$(now)" -v c="$c" 'BEGIN {
        n = split(c, f, /[ ms]+/); cpu = 0
        for (i = 1; i + 1 <= n; i += 2) cpu += 60 * f[i] + f[i + 1]
        printf "%.3f %.2f", b - a, cpu }'
}
fresh() { rm -rf "$DIR/$1"; mkdir -p "$DIR/$1"; }

run_xargs() {
    local t0
    fresh xargs
    t0=$(now)
    find "$C" -name '*.wav' | xargs -P"$P" -n1 "$LAME" --quiet "${O[@]}" --out-dir "$DIR/xargs" \
        >/dev/null 2>&1
    elapsed "$t0"
}
run_loop() {
    local t0 n
    fresh loop
    t0=$(now)
    for n in $NAMES; do
        "$RL" --quiet "${O[@]}" "$C/$n.wav" "$DIR/loop/$n.mp3" </dev/null >/dev/null 2>&1
    done
    elapsed "$t0"
}
run_batch() {
    local t0
    fresh batch
    t0=$(now)
    "$RL" --quiet "${O[@]}" --batch --out-dir "$DIR/batch" "$C" </dev/null >/dev/null 2>&1
    elapsed "$t0"
}

same_as_lame() {  # FOLDER -> yes/no
    local n
    for n in $NAMES; do
        cmp -s "$DIR/xargs/$n.mp3" "$DIR/$1/$n.mp3" || { echo "no ($n)"; return; }
    done
    echo yes
}

better() { awk -v t="$1" -v b="$2" 'BEGIN { exit !(b == "" || t < b) }'; }

echo "corpus: $(echo "$NAMES" | wc -w) files of 45 s ($C); options: ${O[*]}; best of $RUNS;" \
     "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || uname -m))"
echo "lame: $("$LAME" --version | head -n 1)"
echo "ringlame: $("$RL" --version | head -n 1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A t=() cpu=()
for ((i = 0; i < RUNS; i++)); do
    for k in xargs loop batch; do
        read -r x c <<<"$(run_$k)"
        better "$x" "${t[$k]:-}" && t[$k]=$x
        better "$c" "${cpu[$k]:-}" && cpu[$k]=$c
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-44s %8s %9s %8s  %s\n' way seconds "x xargs" "CPU s" identical
printf '%-44s %8s %9s %8s  %s\n' "find | xargs -P$P -n1 lame" "${t[xargs]}" 1.00 "${cpu[xargs]}" \
    "(reference)"
printf '%-44s %8s %9s %8s  %s\n' "ringlame, file by file" "${t[loop]}" \
    "$(awk -v a="${t[xargs]}" -v b="${t[loop]}" 'BEGIN { printf "%.2f", a / b }')" "${cpu[loop]}" \
    "$(same_as_lame loop)"
printf '%-44s %8s %9s %8s  %s\n' "ringlame --batch" "${t[batch]}" \
    "$(awk -v a="${t[xargs]}" -v b="${t[batch]}" 'BEGIN { printf "%.2f", a / b }')" "${cpu[batch]}" \
    "$(same_as_lame batch)"
echo "x xargs = xargs lame seconds / seconds (above 1: faster than xargs lame);" \
     "CPU s = the least user + system seconds of the runs"
