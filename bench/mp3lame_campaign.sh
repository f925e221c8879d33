#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# A long comparison campaign of the drop-in libmp3lame.so.0 against Debian's
# (tests/mp3lame/mp3lame_compare.c): CASES cases for each seed, then how
# often each record differed over all of them (the mismatch list of every
# case, with its replay command, stays in the log).
#
# usage: bash bench/mp3lame_campaign.sh [CASES] [SEED...]
#   defaults: 2000 cases, seeds 1 2 3; the library: SHIM (default
#   build/mp3lame/libmp3lame.so.0); the log: LOG (default build/mp3lame-campaign.log)
set -euo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-2000}
shift || true
SEEDS=("$@")
[ ${#SEEDS[@]} -gt 0 ] || SEEDS=(1 2 3)
SHIM=${SHIM:-build/mp3lame/libmp3lame.so.0}
LOG=${LOG:-build/mp3lame-campaign.log}
COMPARE=build/tests/mp3lame_compare
[ -x "$COMPARE" ] || { echo "campaign: $COMPARE missing (cmake --build build)" >&2; exit 1; }
: >"$LOG"
status=0
for s in "${SEEDS[@]}"; do
    "$COMPARE" --second "$SHIM" --cases "$CASES" --seed "$s" >>"$LOG" 2>&1 || status=1
    tail -1 "$LOG"
done
echo "records that differed (cases), all seeds:"
grep -E '^  [a-zA-Z]' "$LOG" | grep -vE '^  (settings|tracks):' \
    | sed -E 's/: [0-9]+ bytes against.*//; s/call [0-9]+/call N/; s/returned -?[0-9]+ against -?[0-9]+/returned X against Y/; s/[0-9]+ bytes out in all against [0-9]+/N bytes against M/; s/had given [0-9]+ bytes, earlier than the first \([0-9]+\)/gave bytes earlier/' \
    | sort | uniq -c | sort -rn
echo "log: $LOG"
exit $status
