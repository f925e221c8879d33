#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/simd_level: runs a test with ringlame's kernels forced to a SIMD
# level (RINGLAME_SIMD), so that level's bytes are compared with lame's: an
# identity theme, or the ring's stress test.  Skipped (77) when this CPU or
# build lacks the level.
#   bash simd_level.sh LEVEL RINGLAME COMMAND [ARGS...]
set -u
level=$1
ringlame=$2
shift 2
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
if ! RINGLAME_SIMD=$level "$ringlame" --simd "$level" --help >/dev/null 2>"$probe"; then
    echo "skip: $(cat "$probe")"
    exit 77
fi
rm -f "$probe"
trap - EXIT
RINGLAME_SIMD=$level exec "$@"
