#!/usr/bin/env bash
# Installs the dependencies, builds ringlame in build/ and runs every test
# (unit tests and the byte-identity suite against Debian's lame), then the
# ring's stress test under ThreadSanitizer in a build directory of its own
# (<build>-tsan; skipped with RL_SKIP_TSAN=1).
# environment: RL_BUILD_DIR (default build), RL_JOBS (default: the CPU count)
# Arguments are passed to ctest (e.g. -R identity_options).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
BUILD=${RL_BUILD_DIR:-build}
JOBS=${RL_JOBS:-$(nproc 2>/dev/null || echo 2)}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j "$JOBS"
ctest --test-dir "$BUILD" --output-on-failure -j 2 "$@"

# the data-race check of the frame ring (tests/tsan.sh: -DRL_TSAN=ON build
# of unit_ring, its stress runs; any TSan report fails)
if [ "${RL_SKIP_TSAN:-0}" != 1 ] && [ -f tests/tsan.sh ]; then
    JOBS=$JOBS bash tests/tsan.sh "$BUILD-tsan"
fi
