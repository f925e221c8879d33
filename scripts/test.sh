#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Installs the dependencies, builds ringlame in build/ and runs every test
# (unit tests, the byte-identity suite against Debian's lame, the fuzz
# regression inputs, injected faults), then the tests labelled asan under
# AddressSanitizer and UndefinedBehaviorSanitizer (tests/asan.sh, in
# <build>-asan; skipped with RL_SKIP_ASAN=1), then the ring's stress test
# under ThreadSanitizer (tests/tsan.sh, in <build>-tsan; skipped with
# RL_SKIP_TSAN=1), then a short fuzz smoke run of every libFuzzer target
# (tests/fuzz/run.sh, RL_FUZZ_SECONDS each, default 15; skipped with
# RL_SKIP_FUZZ=1, or when clang/libFuzzer is missing).
# environment: RL_BUILD_DIR (default build), RL_JOBS (default: the CPU count),
# CI (set: configure with -DRL_WERROR=ON)
# Arguments are passed to ctest (e.g. -R identity_options).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
# CI has the reference encoder (scripts/setup.sh installs it): there, an
# identity test skipped for want of lame would hide the whole suite
if [ "${CI:-}" = true ] && [ ! -x "${LAME:-/usr/bin/lame}" ]; then
    echo "test.sh: the reference lame (${LAME:-/usr/bin/lame}) is missing in CI" >&2
    exit 1
fi
BUILD=${RL_BUILD_DIR:-build}
JOBS=${RL_JOBS:-$(nproc 2>/dev/null || echo 2)}
# CI (.ci/run, CI=true): compiler warnings are errors (RL_WERROR)
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release ${CI:+-DRL_WERROR=ON} >/dev/null
cmake --build "$BUILD" -j "$JOBS"
ctest --test-dir "$BUILD" --output-on-failure -j 2 "$@"

# memory errors and undefined behaviour (tests/asan.sh: -DRL_SANITIZE="address;undefined"
# build; the unit tests, three quick identity themes, the fuzz regression inputs)
if [ "${RL_SKIP_ASAN:-0}" != 1 ] && [ -f tests/asan.sh ]; then
    JOBS=$JOBS bash tests/asan.sh "$BUILD-asan"
fi

# the data-race check of the frame ring (tests/tsan.sh: -DRL_SANITIZE=thread build
# of unit_ring, its stress runs; any TSan report fails)
if [ "${RL_SKIP_TSAN:-0}" != 1 ] && [ -f tests/tsan.sh ]; then
    JOBS=$JOBS bash tests/tsan.sh "$BUILD-tsan"
fi

# fuzz smoke run: a fresh clang build of the targets, a few seconds each;
# any new finding fails (exit 1), no clang/libFuzzer is a skip (77)
if [ "${RL_SKIP_FUZZ:-0}" != 1 ] && [ -f tests/fuzz/run.sh ]; then
    rc=0
    RL_FUZZ_FRESH=1 bash tests/fuzz/run.sh "${RL_FUZZ_SECONDS:-15}" || rc=$?
    case $rc in
    0) ;;
    77) echo "fuzz smoke run: skipped (clang or libFuzzer is missing)" ;;
    *) exit "$rc" ;;
    esac
fi
