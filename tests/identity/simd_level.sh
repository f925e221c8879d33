#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/simd_level: runs one identity theme with ringlame's kernels forced
# to a SIMD level (RINGLAME_SIMD), so that level's bytes are compared with
# lame's.  Skipped (77) when this CPU or build lacks the level.
#   bash simd_level.sh LEVEL THEME.sh RINGLAME GEN_SIGNAL [WORKDIR]
set -u
level=$1
theme=$2
shift 2
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
if ! RINGLAME_SIMD=$level "$1" --simd "$level" --help >/dev/null 2>"$probe"; then
    echo "skip: $(cat "$probe")"
    exit 77
fi
RINGLAME_SIMD=$level exec bash "$theme" "$@"
