#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# The drop-in libmp3lame.so.0: SONAME libmp3lame.so.0, exactly the
# functions Debian's libmp3lame.so.0 exports (unversioned), NEEDED neither
# libsndfile nor liburing, one constructor slot at most (the compiler's
# own frame_dummy: the library runs no code of its own at load) and no
# thread at load (load_check).
# usage: symbols.sh NM READELF SHIM.SO LOAD_CHECK [SANITIZED]
# Exits 77 when Debian's library or the tools are missing.
set -u
NM=$1 READELF=$2 SHIM=$3 LOAD_CHECK=$4 SANITIZED=${5:-0}
SYS=${RL_SYSTEM_LIBMP3LAME:-/usr/lib/x86_64-linux-gnu/libmp3lame.so.0}
for t in "$NM" "$READELF"; do
    command -v "$t" >/dev/null 2>&1 || { echo "skip: $t not found"; exit 77; }
done
[ -r "$SYS" ] || { echo "skip: $SYS (Debian's libmp3lame0) not installed"; exit 77; }
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$NM" -D --defined-only "$SYS" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/want"
"$NM" -D --defined-only "$SHIM" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/have"
[ -s "$tmp/want" ] || { echo "FAIL: nm listed nothing in $SYS"; exit 1; }
if [ "$SANITIZED" = 1 ]; then
    grep -v '^__' "$tmp/have" > "$tmp/have2" && mv "$tmp/have2" "$tmp/have"
fi
if cmp -s "$tmp/want" "$tmp/have"; then
    echo "ok   exports the $(wc -l < "$tmp/want") functions of $SYS"
else
    echo "FAIL: exported set differs from $SYS (< missing, > extra):"
    diff "$tmp/want" "$tmp/have" | grep '^[<>]' | head -20
    fail=$((fail + 1))
fi
if "$NM" -D --defined-only "$SHIM" | awk 'NF == 3 { print $3 }' | grep -q '@'; then
    echo "FAIL: versioned symbols (Debian's are unversioned)"
    fail=$((fail + 1))
fi

dyn=$("$READELF" -d "$SHIM")
soname=$(echo "$dyn" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" = libmp3lame.so.0 ]; then echo "ok   SONAME $soname"
else echo "FAIL: SONAME '$soname'"; fail=$((fail + 1)); fi
if echo "$dyn" | grep NEEDED | grep -Eq 'libsndfile|liburing|libmp3lame'; then
    echo "FAIL: NEEDED: $(echo "$dyn" | grep NEEDED | tr -s ' ' | cut -d' ' -f6 | tr '\n' ' ')"
    fail=$((fail + 1))
else
    echo "ok   NEEDED: $(echo "$dyn" | grep NEEDED | sed 's/.*\[\(.*\)\]/\1/' | tr '\n' ' ')"
fi
initsz=$(echo "$dyn" | awk '/INIT_ARRAYSZ/ { print $3 }')
if [ "$SANITIZED" != 1 ] && [ -n "$initsz" ] && [ "${initsz%% *}" -gt 8 ]; then
    echo "FAIL: INIT_ARRAYSZ $initsz: a constructor runs at load"
    fail=$((fail + 1))
else
    echo "ok   no constructor of ours (INIT_ARRAYSZ ${initsz:-none})"
fi
"$LOAD_CHECK" "$SHIM"
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || fail=$((fail + 1))
echo "$fail failed"
[ $fail = 0 ]
