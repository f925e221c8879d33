#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# A/B of ringlame builds: each round encodes every corpus file with each
# build in turn (the builds take turns, so a change in the machine's load
# hits them alike); a build's time is its best round.  For judging a change
# against its parent, where bench.sh's ratios against lame are too coarse.
#
# usage: bash bench/ab.sh THREADS "OPTIONS" RINGLAME_A RINGLAME_B [...]
# environment: RUNS (default 5 rounds), CORPUS (default build/bench/corpus,
#              the WAV files bench.sh decodes there)
# Output: one line per build: best seconds for the whole corpus, and its
# time over the first build's (below 1: faster than A).
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 4 ] || { echo "usage: bash bench/ab.sh THREADS \"OPTIONS\" RINGLAME_A RINGLAME_B [...]" >&2; exit 2; }
THREADS=$1
read -r -a OPTS <<< "$2"
shift 2
RUNS=${RUNS:-5}
CORPUS=${CORPUS:-build/bench/corpus}
shopt -s nullglob
FILES=("$CORPUS"/*.wav)
[ ${#FILES[@]} -gt 0 ] || { echo "ab: no WAV files in $CORPUS (bash bench/bench.sh makes them)" >&2; exit 1; }
for b in "$@"; do
    [ -x "$b" ] || { echo "ab: $b is not an executable" >&2; exit 1; }
done
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

declare -A best
for ((r = 0; r < RUNS; r++)); do
    for b in "$@"; do
        t0=$(date +%s.%N)
        for f in "${FILES[@]}"; do
            "$b" --quiet --threads "$THREADS" "${OPTS[@]}" "$f" "$OUT/out.mp3" \
                || { echo "ab: $b failed on $f" >&2; exit 1; }
        done
        t=$(echo "$(date +%s.%N) - $t0" | bc)
        if [ -z "${best[$b]:-}" ] || [ "$(echo "$t < ${best[$b]}" | bc)" = 1 ]; then
            best[$b]=$t
        fi
    done
done
first=$1
for b in "$@"; do
    printf '%-40s %.3f s  %.3f\n' "$b" "${best[$b]}" "$(echo "${best[$b]} / ${best[$first]}" | bc -l)"
done
