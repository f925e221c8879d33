#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# What two threads can give on this machine, and how close --threads 2 is.
# Two cores are not always two cores' worth of work: where they share a
# physical core, its caches or a busy host, two independent encodes at once
# each run slower than one alone.  For one setting this times, best of RUNS rounds
# (the ways take turns within a round), over the corpus:
#   lame          lame alone, file after file
#   lame pair     two lames at once, each on the whole corpus
#   t1            ringlame --threads 1 alone
#   t1 pair       two of those at once
#   t2            ringlame --threads 2
# and prints the pair factor (2 x alone / pair: 2.00 would be two whole
# cores, 1.00 none), the ceiling for --threads 2 (the work of one t1 encode
# at the speed a pair gives each: t1 pair / 2), the ring's efficiency
# (that ceiling over t2) and each as x lame (lame alone over it).
#
# usage: bash bench/pair_bench.sh [RINGLAME]
# environment: OPTS (default: lame's default, CBR 128), RUNS (default 3),
#              CORPUS (default build/bench/corpus: bench.sh makes it),
#              LAME (default /usr/bin/lame)
set -euo pipefail
cd "$(dirname "$0")/.."

RL=${1:-build/ringlame}
LAME=${LAME:-/usr/bin/lame}
RUNS=${RUNS:-3}
CORPUS=${CORPUS:-build/bench/corpus}
read -r -a OPTS <<< "${OPTS:-}"
shopt -s nullglob
FILES=("$CORPUS"/*.wav)
[ ${#FILES[@]} -gt 0 ] || { echo "pair_bench: no WAV files in $CORPUS (bash bench/bench.sh makes them)" >&2; exit 1; }
for x in "$RL" "$LAME"; do
    [ -x "$x" ] || { echo "pair_bench: $x is not an executable" >&2; exit 1; }
done
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

now() { echo "${EPOCHREALTIME/,/.}"; }

# corpus TAG CMD... : encodes every file with CMD, outputs under TAG
corpus() {
    local tag=$1 f; shift
    for f in "${FILES[@]}"; do
        "$@" "${OPTS[@]}" "$f" "$OUT/$tag.$(basename "$f" .wav).mp3" </dev/null >/dev/null 2>&1 \
            || { echo "pair_bench: $* $f failed" >&2; return 1; }
    done
}

# timed TAG CMD... / timed_pair TAG CMD... : wall seconds of one / two at once
timed() {
    local t0; t0=$(now)
    corpus "$@"
    echo "$(now) - $t0" | bc -l
}
timed_pair() {
    local t0 tag=$1 a b; shift
    t0=$(now)
    corpus "$tag.a" "$@" & a=$!
    corpus "$tag.b" "$@" & b=$!
    wait "$a" && wait "$b"
    echo "$(now) - $t0" | bc -l
}

declare -A best
keep() { if [ -z "${best[$1]:-}" ] || [ "$(echo "$2 < ${best[$1]}" | bc)" = 1 ]; then best[$1]=$2; fi; }
for ((r = 0; r < RUNS; r++)); do
    keep lame "$(timed lame "$LAME" --quiet)"
    keep lame_pair "$(timed_pair lamep "$LAME" --quiet)"
    keep t1 "$(timed t1 "$RL" --quiet --threads 1)"
    keep t1_pair "$(timed_pair t1p "$RL" --quiet --threads 1)"
    keep t2 "$(timed t2 "$RL" --quiet --threads 2)"
done
for f in "${FILES[@]}"; do
    b=$(basename "$f" .wav)
    for tag in t1 t1p.a t2; do
        cmp -s "$OUT/lame.$b.mp3" "$OUT/$tag.$b.mp3" \
            || { echo "pair_bench: $tag differs from lame on $b" >&2; exit 1; }
    done
done

x() { echo "${best[lame]} / $1" | bc -l; }
ceiling=$(echo "${best[t1_pair]} / 2" | bc -l)
echo "pair_bench: ${#FILES[@]} files, options '${OPTS[*]:-(lame default)}', best of $RUNS, every output identical to lame's"
printf '%-34s %8s %8s\n' "way" "seconds" "x lame"
printf '%-34s %8.3f %8.2f\n' "lame alone" "${best[lame]}" 1
printf '%-34s %8.3f %8s\n' "two lames at once" "${best[lame_pair]}" "-"
printf '%-34s %8.3f %8.2f\n' "ringlame --threads 1 alone" "${best[t1]}" "$(x "${best[t1]}")"
printf '%-34s %8.3f %8s\n' "two ringlame --threads 1 at once" "${best[t1_pair]}" "-"
printf '%-34s %8.3f %8.2f\n' "ringlame --threads 2" "${best[t2]}" "$(x "${best[t2]}")"
printf '%-34s %8.3f %8.2f\n' "ceiling for --threads 2 (t1 pair/2)" "$ceiling" "$(x "$ceiling")"
printf 'pair factor (2 x alone / pair): lame %.2f, ringlame t1 %.2f\n' \
    "$(echo "2 * ${best[lame]} / ${best[lame_pair]}" | bc -l)" \
    "$(echo "2 * ${best[t1]} / ${best[t1_pair]}" | bc -l)"
printf 'ring efficiency at --threads 2 (ceiling / t2): %.2f\n' "$(echo "$ceiling / ${best[t2]}" | bc -l)"
