#!/usr/bin/env bash
# Installs the dependencies, builds ringlame in build/ and runs every test
# (unit tests and the byte-identity suite against Debian's lame).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
BUILD=${RL_BUILD_DIR:-build}
JOBS=${RL_JOBS:-$(nproc 2>/dev/null || echo 2)}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j "$JOBS"
ctest --test-dir "$BUILD" --output-on-failure -j 2 "$@"
