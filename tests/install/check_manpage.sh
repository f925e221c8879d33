#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# The generated man page (scripts/gen_manpage.py) renders without a warning.
# usage: check_manpage.sh <build>/man/ringlame.1
# Exit status: 0 clean, 1 a warning or an error, 77 skipped (no groff, or
# no man page: python3 was missing at configure time).
set -euo pipefail
PAGE=$1
if [ ! -f "$PAGE" ]; then
    echo "SKIP: $PAGE was not generated (no python3 when configured)"
    exit 77
fi
if ! command -v groff >/dev/null; then
    echo "SKIP: groff is not installed"
    exit 77
fi
# -ww: every warning; -z: no output, only the diagnostics
msgs=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$PAGE" 2>&1) || { echo "$msgs"; echo "FAIL: groff failed"; exit 1; }
if [ -n "$msgs" ]; then
    echo "$msgs"
    echo "FAIL: groff warns about $PAGE"
    exit 1
fi
lines=$(LC_ALL=C.UTF-8 groff -man -Tutf8 "$PAGE" 2>/dev/null | wc -l)
for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" "SEE ALSO"; do
    LC_ALL=C.UTF-8 groff -man -Tascii -P-cbou "$PAGE" 2>/dev/null | grep -q "^$s\$" \
        || { echo "FAIL: no section $s"; exit 1; }
done
echo "ok: $PAGE renders without warnings ($lines lines)"
