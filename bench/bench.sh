#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Times Debian's lame against ringlame (--sequential, --threads 1, --threads 2)
# with the same options over a small corpus, best of N wall-clock runs per
# tool and setting (the tools take turns within each run), then measures
# peak memory (RSS) on long generated files.
#
# usage: bash bench/bench.sh [RINGLAME] [GEN_SIGNAL]
#   defaults: build/ringlame, build/tests/gen_signal (build first: bash scripts/test.sh)
# environment: LAME (default /usr/bin/lame), RUNS (default 3),
#              SETTINGS (one option set per line; default: -V 4 --noreplaygain,
#              -V 2, -V 0, lame's default CBR 128, -b 320, --abr 160, -q 0),
#              BENCH_DIR (default build/bench: the decoded corpus is kept there),
#              THREADS (default "1 2": the --threads columns),
#              RSS_SECONDS (default "600 3600": lengths of the generated RSS
#              inputs; "" skips the RSS part), BENCH_KEEP=1 keeps those inputs
#              (the one-hour WAV is 635 MB)
# Output: a speed table (seconds; speed-up = lame time / ringlame time, above 1
# ringlame is faster; identical = every output byte-identical to lame's) and a
# peak-RSS table (kB, /usr/bin/time -f %M).
set -euo pipefail
cd "$(dirname "$0")/.."

RL=${1:-build/ringlame}
GEN=${2:-build/tests/gen_signal}
LAME=${LAME:-/usr/bin/lame}
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-build/bench}
THREADS=${THREADS:-1 2}
RSS_SECONDS=${RSS_SECONDS-600 3600}
SONGS=/usr/share/games/fretsonfire/data/songs
TIME=/usr/bin/time

for x in "$RL" "$GEN" "$LAME"; do
    [ -x "$x" ] || { echo "bench: $x not found (build with: bash scripts/test.sh)" >&2; exit 1; }
done
command -v sox >/dev/null || { echo "bench: sox missing (bash scripts/setup.sh)" >&2; exit 1; }
[ -d "$SONGS" ] || { echo "bench: fretsonfire songs missing (bash scripts/setup.sh)" >&2; exit 1; }
[ -z "$RSS_SECONDS" ] || [ -x "$TIME" ] \
    || { echo "bench: $TIME missing (bash scripts/setup.sh installs 'time')" >&2; exit 1; }

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

better() { awk -v t="$1" -v b="$2" 'BEGIN { exit !(b == "" || t < b) }'; }
same_as_lame() {  # TAG -> yes/no
    local f b
    for f in "${CORPUS[@]}"; do
        b=$DIR/out/$(basename "$f" .wav)
        cmp -s "$b.lame.mp3" "$b.$1.mp3" || { echo no; return; }
    done
    echo yes
}

speedup() { awk -v l="$1" -v r="$2" 'BEGIN { printf "%.2f", l / r }'; }

secs=0
for f in "${CORPUS[@]}"; do
    secs=$(awk -v s="$secs" -v d="$(soxi -D "$f")" 'BEGIN { printf "%.1f", s + d }')
done
echo "corpus: ${#CORPUS[@]} files, ${secs} s of audio; best of $RUNS; $(nproc) cores" \
     "($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || uname -m))"
echo "lame: $("$LAME" --version | head -n 1)"
echo "ringlame: $("$RL" --version | head -n 1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

cols=(seq)
for n in $THREADS; do cols+=("t$n"); done
printf '%-20s %8s' setting "lame s"
for c in "${cols[@]}"; do printf ' %8s' "$c s"; done
for c in "${cols[@]}"; do printf ' %7s' "x $c"; done
printf '  %s\n' identical
# settings: VBR (-V), CBR (lame's default 128 kbps, 320, -q 0) and ABR;
# SETTINGS="..." (one per line) overrides the list
if [ -n "${SETTINGS:-}" ]; then
    mapfile -t SETTING_LIST <<<"$SETTINGS"
else
    SETTING_LIST=("-V 4 --noreplaygain" "-V 2" "-V 0" "" "-b 320" "--abr 160" "-q 0")
fi
for setting in "${SETTING_LIST[@]}"; do
    # the encoders take turns within each repetition, so that a change of
    # machine load over time hits all of them alike; best of RUNS each
    declare -A t=()
    for ((i = 0; i < RUNS; i++)); do
        # shellcheck disable=SC2086
        x=$(run_corpus "$LAME" lame $setting); better "$x" "${t[lame]:-}" && t[lame]=$x
        # shellcheck disable=SC2086
        x=$(run_corpus "$RL" seq --sequential $setting); better "$x" "${t[seq]:-}" && t[seq]=$x
        for n in $THREADS; do
            # shellcheck disable=SC2086
            x=$(run_corpus "$RL" "t$n" --threads "$n" $setting); better "$x" "${t[t$n]:-}" && t[t$n]=$x
        done
    done
    tl=${t[lame]}
    same=yes
    for c in "${cols[@]}"; do [ "$(same_as_lame "$c")" = yes ] || same="no ($c)"; done
    printf '%-20s %8s' "${setting:-(CBR 128)}" "$tl"
    for c in "${cols[@]}"; do printf ' %8s' "${t[$c]}"; done
    for c in "${cols[@]}"; do printf ' %7s' "$(speedup "$tl" "${t[$c]}")"; done
    printf '  %s\n' "$same"
    unset t
done
echo "seq = --sequential, tN = --threads N; x = speed-up, lame s / ringlame s (above 1: ringlame is faster)"

# where the ring's time goes at the largest thread count (ringlame --verbose
# prints the ring's task times): the serial Encode chain's share of all task
# time and the searches Encode had to redo
nmax=$(echo $THREADS | awk '{ print $NF }')
echo
echo "ring task times at --threads $nmax, first corpus file (ringlame --verbose):"
for setting in "${SETTING_LIST[@]}"; do
    # shellcheck disable=SC2086
    line=$("$RL" --verbose --threads "$nmax" $setting "${CORPUS[0]}" "$DIR/out/stats.mp3" 2>&1 </dev/null \
           | grep -m1 'ring:' || true)
    printf '%-20s %s\n' "${setting:-(CBR 128)}" "${line:-(no ring statistics printed)}"
done
rm -f "$DIR/out/stats.mp3"

[ -n "$RSS_SECONDS" ] || exit 0
echo
# peak RSS: generated pink noise, 16-bit 44.1 kHz stereo WAV, -V 2 and the
# default CBR 128 (ReplayGain on)
rss() {  # TOOL OPTS... IN OUT -> "kB seconds"
    "$TIME" -f '%M %e' -o "$DIR/time.out" "$@" </dev/null >/dev/null 2>&1 \
        || { echo "bench: $* failed" >&2; return 1; }
    cat "$DIR/time.out"
}
printf '%-18s %12s %8s' input "lame kB" "lame s"
for n in $THREADS; do printf ' %12s %8s' "t$n kB" "t$n s"; done
printf '  %s\n' identical
for d in $RSS_SECONDS; do
    in=$DIR/rss_${d}s.wav
    [ -s "$in" ] || { "$GEN" -t pink -d "$d" -S 13 "$in.part.wav" && mv "$in.part.wav" "$in"; }
    for mode in "-V 2" ""; do
        # shellcheck disable=SC2086
        read -r lk ls < <(rss "$LAME" $mode "$in" "$DIR/out/rss.lame.mp3")
        printf '%-18s %12s %8s' "${d} s ${mode:-CBR 128}" "$lk" "$ls"
        same=yes
        for n in $THREADS; do
            # shellcheck disable=SC2086
            read -r k s < <(rss "$RL" --threads "$n" $mode "$in" "$DIR/out/rss.t$n.mp3")
            printf ' %12s %8s' "$k" "$s"
            cmp -s "$DIR/out/rss.lame.mp3" "$DIR/out/rss.t$n.mp3" || same="no (t$n)"
        done
        printf '  %s\n' "$same"
    done
    [ "${BENCH_KEEP:-0}" = 1 ] || rm -f "$in"
done
rm -f "$DIR"/out/rss.*.mp3 "$DIR/time.out"
echo "peak RSS in kB (/usr/bin/time -f %M), wall seconds of that single run"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
