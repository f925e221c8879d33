#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Builds ringlame's executor and ring tests with ThreadSanitizer
# (-DRL_SANITIZE=thread) in a build directory of its own and runs the tests
# labelled tsan there (tests/CMakeLists.txt: unit_executor, and the ring's
# stress test, unit_ring RUNS).
#
# usage: bash tests/tsan.sh [BUILD_DIR] [RUNS]
#   BUILD_DIR  default build-tsan (relative to the repository root)
#   RUNS       stress runs of unit_ring (default 150: under a minute on 2 cores, plus the build)
# env: JOBS (build parallelism, default 2)
# Exit status: 0 clean; non-zero on a build failure, a failed comparison or
# any TSan report (halt_on_error=1, exitcode=66).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-build-tsan}
RUNS=${2:-150}
cmake -S . -B "$DIR" -DRL_SANITIZE=thread -DRL_TSAN_RUNS="$RUNS" -DRL_BUILD_EXAMPLES=OFF \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$DIR" -j "${JOBS:-2}" --target unit_executor unit_ring >/dev/null
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp ${TSAN_OPTIONS:-}"
echo "tsan: ctest -L tsan in $DIR ($RUNS stress runs)"
ctest --test-dir "$DIR" -L tsan --output-on-failure
