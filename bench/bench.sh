#!/usr/bin/env bash
# Times Debian's lame against `ringlame --sequential` with the same options
# over a small corpus, best of N wall-clock runs per tool and setting.
#
# usage: bash bench/bench.sh [RINGLAME] [GEN_SIGNAL]
#   defaults: build/ringlame, build/tests/gen_signal (build first: bash scripts/test.sh)
# environment: LAME (default /usr/bin/lame), RUNS (default 3),
#              BENCH_DIR (default build/bench: the decoded corpus is kept there)
# Output: one line per setting: lame seconds, ringlame seconds, ratio, and
# whether every output was byte-identical.
set -euo pipefail
cd "$(dirname "$0")/.."

RL=${1:-build/ringlame}
GEN=${2:-build/tests/gen_signal}
LAME=${LAME:-/usr/bin/lame}
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-build/bench}
SONGS=/usr/share/games/fretsonfire/data/songs

for x in "$RL" "$GEN" "$LAME"; do
    [ -x "$x" ] || { echo "bench: $x not found (build with: bash scripts/test.sh)" >&2; exit 1; }
done
command -v sox >/dev/null || { echo "bench: sox missing (bash scripts/setup.sh)" >&2; exit 1; }
[ -d "$SONGS" ] || { echo "bench: fretsonfire songs missing (bash scripts/setup.sh)" >&2; exit 1; }

mkdir -p "$DIR/corpus" "$DIR/out"
# corpus: three 60 s music excerpts (16-bit 44.1 kHz stereo, no dither) and 60 s of noise
mk() { [ -s "$DIR/corpus/$1" ] || { "${@:2}" && mv "$DIR/corpus/$1.part.wav" "$DIR/corpus/$1"; }; }
mk armygeddon.wav sox -D "$SONGS/muldjord/armygeddon/song.ogg" -b 16 "$DIR/corpus/armygeddon.wav.part.wav" trim 30 60
mk chaos_god.wav sox -D "$SONGS/muldjord/chaos_god/song.ogg" -b 16 "$DIR/corpus/chaos_god.wav.part.wav" trim 60 60
mk feelings.wav sox -D "$SONGS/sectoid/Feelings/song.ogg" -b 16 "$DIR/corpus/feelings.wav.part.wav" trim 60 60
mk pink.wav "$GEN" -t pink -d 60 -S 7 "$DIR/corpus/pink.wav.part.wav"
CORPUS=("$DIR"/corpus/*.wav)

now() { echo "${EPOCHREALTIME/,/.}"; }

# run_corpus TOOL TAG OPTS... -> prints the wall seconds to encode the whole corpus once
run_corpus() {
    local tool=$1 tag=$2; shift 2
    local t0 t1 f
    t0=$(now)
    for f in "${CORPUS[@]}"; do
        "$tool" "$@" "$f" "$DIR/out/$(basename "$f" .wav).$tag.mp3" </dev/null >/dev/null 2>&1 \
            || { echo "bench: $tool $* $f failed" >&2; return 1; }
    done
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

best() {  # TOOL TAG OPTS... -> best of RUNS
    local b="" t i
    for ((i = 0; i < RUNS; i++)); do
        t=$(run_corpus "$@") || return 1
        if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
    done
    echo "$b"
}

secs=0
for f in "${CORPUS[@]}"; do
    secs=$(awk -v s="$secs" -v d="$(soxi -D "$f")" 'BEGIN { printf "%.1f", s + d }')
done
echo "corpus: ${#CORPUS[@]} files, ${secs} s of audio; best of $RUNS; $(nproc) cores; $(uname -m)"
echo "lame: $("$LAME" --version | head -n 1)"
printf '%-24s %10s %10s %8s  %s\n' setting "lame s" "ringlame s" ratio identical
for setting in "-V 2" "-V 4 --noreplaygain" "-V 0"; do
    # shellcheck disable=SC2086
    tl=$(best "$LAME" lame $setting)
    # shellcheck disable=SC2086
    tr=$(best "$RL" rl --sequential $setting)
    same=yes
    for f in "${CORPUS[@]}"; do
        b=$DIR/out/$(basename "$f" .wav)
        cmp -s "$b.lame.mp3" "$b.rl.mp3" || same=no
    done
    ratio=$(awk -v a="$tl" -v b="$tr" 'BEGIN { printf "%.2f", b / a }')
    printf '%-24s %10s %10s %8s  %s\n' "$setting" "$tl" "$tr" "$ratio" "$same"
done
echo "ratio = ringlame time / lame time (below 1: ringlame is faster)"
