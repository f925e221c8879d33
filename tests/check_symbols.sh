#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# The libraries' global names: libringlame.a defines no global symbol
# without the rl_ (internal) or ringlame_ (public) prefix, so a program that
# links it statically meets no clash with its own names; libringlame.so
# exports ringlame_* only (and its version node).
# usage: check_symbols.sh NM LIBRINGLAME.A LIBRINGLAME.SO [SANITIZED]
# SANITIZED=1: the compiler's own __-names (sanitizer runtime hooks) are
# allowed.  Exits 77 when nm is missing; an empty listing is a failure
# (nm did not read the library).
set -u
NM=$1 AR_LIB=$2 SO_LIB=$3 SANITIZED=${4:-0}
command -v "$NM" >/dev/null 2>&1 || { echo "skip (symbols): $NM not found"; exit 77; }
fail=0

allowed_compiler() {
    [ "$SANITIZED" = 1 ] && case $1 in __*) return 0 ;; esac
    return 1
}

# archive: every defined global (T, D, B, R, W, V, ...) of every member
names=$("$NM" -g --defined-only "$AR_LIB" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
[ -n "$names" ] || { echo "FAIL: no global symbol listed in $AR_LIB"; exit 1; }
count=0
for s in $names; do
    count=$((count + 1))
    case $s in rl_*|ringlame_*) continue ;; esac
    allowed_compiler "$s" && continue
    echo "FAIL: $AR_LIB defines the global symbol '$s' (want the rl_ or ringlame_ prefix)"
    fail=$((fail + 1))
done
echo "ok   $AR_LIB: $count global symbols checked"

# shared library: the dynamic symbol table
names=$("$NM" -D --defined-only "$SO_LIB" 2>/dev/null | awk 'NF == 3 { print $2 " " $3 }')
[ -n "$names" ] || { echo "FAIL: no dynamic symbol listed in $SO_LIB"; exit 1; }
count=0
while read -r kind s; do
    count=$((count + 1))
    s=${s%%@*}
    case $s in ringlame_*) continue ;; esac
    [ "$kind" = A ] && case $s in RINGLAME_*) continue ;; esac   # the version node
    allowed_compiler "$s" && continue
    echo "FAIL: $SO_LIB exports '$s' (want ringlame_* only)"
    fail=$((fail + 1))
done <<< "$names"
echo "ok   $SO_LIB: $count exported symbols checked"
echo "symbols: $fail failed"
[ $fail -eq 0 ]
