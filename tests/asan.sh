#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Builds ringlame with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DRL_SANITIZE="address;undefined") in a build directory of its own and
# runs the tests labelled asan there (tests/CMakeLists.txt): the unit tests,
# the quick identity themes (rates, signals, lengths) and the fuzz
# regression inputs.  Any sanitizer report ends its test with a failure
# (halt_on_error=1).
#
# usage: bash tests/asan.sh [BUILD_DIR] [CTEST_ARGS...]
#   BUILD_DIR  default build-asan (relative to the repository root)
# env: JOBS (build parallelism, default 2)
# Exit status: 0 clean; non-zero on a build failure or a failed test.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-build-asan}
shift || true
cmake -S . -B "$DIR" -DRL_SANITIZE="address;undefined" -DRL_BUILD_EXAMPLES=OFF \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$DIR" -j "${JOBS:-2}" >/dev/null
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
echo "asan: ctest -L asan in $DIR"
ctest --test-dir "$DIR" -L asan --output-on-failure -j "${JOBS:-2}" "$@"
