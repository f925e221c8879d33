#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Builds ringlame, encodes a 10 s generated sample with lame and with
# ringlame, with lame's default (CBR 128 kbps) and with -V 2, and checks
# that each pair of MP3 files is byte-identical.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
BUILD=${RL_BUILD_DIR:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null

DEMO=$BUILD/demo
mkdir -p "$DEMO"
"$BUILD/tests/gen_signal" -t mix -d 10 "$DEMO/sample.wav"
status=0
for opts in "" "-V 2"; do
    tag=${opts:-default}
    tag=${tag// /}
    # shellcheck disable=SC2086
    lame --quiet $opts "$DEMO/sample.wav" "$DEMO/lame-$tag.mp3"
    # shellcheck disable=SC2086
    "$BUILD/ringlame" $opts "$DEMO/sample.wav" "$DEMO/ringlame-$tag.mp3" 2>/dev/null \
        || { echo "ringlame failed: $BUILD/ringlame $opts $DEMO/sample.wav $DEMO/ringlame-$tag.mp3" >&2; exit 1; }
    if cmp -s "$DEMO/lame-$tag.mp3" "$DEMO/ringlame-$tag.mp3"; then
        echo "identical to lame ($tag): $(sha256sum "$DEMO/ringlame-$tag.mp3" | cut -d' ' -f1)"
    else
        echo "DIFFERENT from lame ($tag): $(cmp "$DEMO/lame-$tag.mp3" "$DEMO/ringlame-$tag.mp3" 2>&1 | head -n 1)" >&2
        status=1
    fi
done
exit $status
