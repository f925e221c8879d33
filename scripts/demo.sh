#!/usr/bin/env bash
# Builds ringlame, encodes a 10 s generated sample with lame -V 2 and with
# ringlame -V 2, and checks that the two MP3 files are byte-identical.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
BUILD=${RL_BUILD_DIR:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null

DEMO=$BUILD/demo
mkdir -p "$DEMO"
"$BUILD/tests/gen_signal" -t mix -d 10 "$DEMO/sample.wav"
lame --quiet -V 2 "$DEMO/sample.wav" "$DEMO/lame.mp3"
"$BUILD/ringlame" -V 2 "$DEMO/sample.wav" "$DEMO/ringlame.mp3" 2>/dev/null \
    || { echo "ringlame failed: $BUILD/ringlame -V 2 $DEMO/sample.wav $DEMO/ringlame.mp3" >&2; exit 1; }
if cmp -s "$DEMO/lame.mp3" "$DEMO/ringlame.mp3"; then
    echo "identical to lame: $(sha256sum "$DEMO/ringlame.mp3" | cut -d' ' -f1)"
else
    echo "DIFFERENT from lame: $(cmp "$DEMO/lame.mp3" "$DEMO/ringlame.mp3" 2>&1 | head -n 1)" >&2
    exit 1
fi
