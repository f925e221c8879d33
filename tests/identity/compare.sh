#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/compare: `ringlame --compare` and `--compare-to`.  Identical
# cases exit 0 with lame's size and SHA-256 (as sha256sum gives it); a
# planted difference exits 1 with a report that names the frame and the
# part; a missing lame exits 2 with a message that names it.
. "$(dirname "$0")/lib.sh"
id_init "$@"
command -v sha256sum >/dev/null || id_skip "no sha256sum"

gen cmp.wav -t mix -d 2

# identical: NAME OPTS...  (--compare with --lame, the output file kept)
same_case() {
    local name=$1; shift
    local o="$OUT/$name.mp3" want size
    timeout "$RL_TIMEOUT" "$RL" --compare --lame "$LAME" "$@" "$IN/cmp.wav" "$o" \
        </dev/null >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
    RC=$?
    lame_opts "$@"
    timeout "$RL_TIMEOUT" "$LAME" "${LOPTS[@]}" "$IN/cmp.wav" "$OUT/$name.lame.mp3" \
        </dev/null >/dev/null 2>&1
    want=$(sha256sum <"$OUT/$name.lame.mp3" | cut -d' ' -f1)
    size=$(wc -c <"$OUT/$name.lame.mp3")
    if [ $RC -ne 0 ]; then
        id_fail "$name" "exit $RC, want 0" "$(head -c 600 "$WORK/$name.stdout" "$WORK/$name.stderr")"
    elif ! grep -qx "identical: $size bytes, SHA-256 $want" "$WORK/$name.stdout"; then
        id_fail "$name" "stdout is not lame's size and SHA-256 ($size, $want)" "$(head -c 300 "$WORK/$name.stdout")"
    elif [ "$(grep -c . "$WORK/$name.stdout")" -ne 1 ]; then
        id_fail "$name" "more than one line on stdout"
    else
        id_ok "$name"
    fi
}
same_case cbr128 -b 128
same_case vbr2_threads -V 2 --threads 3
same_case abr_sequential --abr 96 --sequential -m m
same_case crc -p -V 5

# no output named: lame found on PATH, the temporary outputs removed
tmp=$WORK/tmp; rm -rf "$tmp"; mkdir -p "$tmp" "$WORK/bin"
ln -sf "$LAME" "$WORK/bin/lame"
PATH="$WORK/bin:$PATH" TMPDIR=$tmp timeout "$RL_TIMEOUT" "$RL" --compare -V 4 "$IN/cmp.wav" \
    </dev/null >"$WORK/path.stdout" 2>"$WORK/path.stderr"
RC=$?
if [ $RC -ne 0 ] || ! grep -q '^identical: ' "$WORK/path.stdout"; then
    id_fail lame_on_path "exit $RC" "$(head -c 600 "$WORK/path.stdout" "$WORK/path.stderr")"
elif [ -n "$(ls -A "$tmp")" ] || [ -e "$IN/cmp.mp3" ]; then
    id_fail lame_on_path "a temporary or default output was left: $(ls -A "$tmp") $(ls "$IN")"
else
    id_ok lame_on_path
fi

# --compare-to: the reference itself, then with planted differences
"$LAME" --quiet -b 128 "$IN/cmp.wav" "$OUT/ref.mp3" </dev/null || id_die "lame failed"
timeout "$RL_TIMEOUT" "$RL" --quiet -b 128 --compare-to "$OUT/ref.mp3" "$IN/cmp.wav" \
    </dev/null >"$WORK/to.stdout" 2>&1
RC=$?
if [ $RC -eq 0 ] && grep -q "^identical: $(wc -c <"$OUT/ref.mp3") bytes" "$WORK/to.stdout"; then
    id_ok compare_to_same
else
    id_fail compare_to_same "exit $RC" "$(head -c 600 "$WORK/to.stdout")"
fi

# planted: NAME OFFSET PATTERN  (one byte of the reference flipped)
planted() {
    local name=$1 off=$2 pattern=$3 ref="$OUT/planted-$1.mp3" byte
    cp "$OUT/ref.mp3" "$ref"
    byte=$(od -An -tu1 -j "$off" -N1 "$ref" | tr -d ' ')
    printf "$(printf '\\%03o' $(( byte ^ 1 )))" | dd of="$ref" bs=1 seek="$off" conv=notrunc 2>/dev/null
    timeout "$RL_TIMEOUT" "$RL" --quiet -b 128 --compare-to "$ref" "$IN/cmp.wav" \
        </dev/null >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
    RC=$?
    if [ $RC -ne 1 ]; then
        id_fail "$name" "exit $RC, want 1" "$(head -c 600 "$WORK/$name.stdout" "$WORK/$name.stderr")"
    elif ! grep -q "$pattern" "$WORK/$name.stdout"; then
        id_fail "$name" "the report lacks '$pattern'" "$(cat "$WORK/$name.stdout")"
    elif ! grep -q "first differing frame: .* s" "$WORK/$name.stdout" \
         || ! grep -q "MPEG-1 Layer III, 128 kbps, 44100 Hz" "$WORK/$name.stdout"; then
        id_fail "$name" "the report lacks the frame's time or header" "$(cat "$WORK/$name.stdout")"
    else
        id_ok "$name ($(sed -n 3p "$WORK/$name.stdout"))"
    fi
}
# 128 kbps at 44.1 kHz: the tag frame is 417 bytes, frames 417 or 418
planted planted_main_data 5000 'frame 11, main data region'
planted planted_side_info $((417 + 417 + 6)) 'frame 2, side info'
planted planted_tag_frame 200 'frame 0, Xing/LAME tag frame'
planted planted_header $((417 + 3)) 'frame 1, frame header'

# an ID3v1 tag after lame's bytes
{ cat "$OUT/ref.mp3"; printf 'TAG'; head -c 125 /dev/zero; } >"$OUT/id3v1.mp3"
timeout "$RL_TIMEOUT" "$RL" --quiet -b 128 --compare-to "$OUT/id3v1.mp3" "$IN/cmp.wav" \
    </dev/null >"$WORK/id3v1.stdout" 2>&1
RC=$?
if [ $RC -eq 1 ] && grep -q 'ID3v1 tag at the end' "$WORK/id3v1.stdout" \
   && grep -q 'frames that differ: 0' "$WORK/id3v1.stdout"; then
    id_ok id3v1_appended
else
    id_fail id3v1_appended "exit $RC" "$(cat "$WORK/id3v1.stdout")"
fi

# a missing lame: exit 2, named; no output left when none was named
rm -rf "$tmp"; mkdir -p "$tmp"
TMPDIR=$tmp timeout "$RL_TIMEOUT" "$RL" --quiet --compare --lame /nonexistent -V 2 "$IN/cmp.wav" \
    </dev/null >"$WORK/missing.stdout" 2>"$WORK/missing.stderr"
RC=$?
if [ $RC -ne 2 ]; then
    id_fail missing_lame "exit $RC, want 2" "$(head -c 600 "$WORK/missing.stderr")"
elif ! grep -q "/nonexistent" "$WORK/missing.stderr"; then
    id_fail missing_lame "the message does not name the lame" "$(head -c 600 "$WORK/missing.stderr")"
elif [ -n "$(ls -A "$tmp")" ]; then
    id_fail missing_lame "temporary files left: $(ls -A "$tmp")"
else
    id_ok "missing_lame ($(head -n 1 "$WORK/missing.stderr"))"
fi
# a lame that fails: exit 2
printf '#!/bin/sh\nexit 3\n' >"$WORK/bin/badlame"; chmod +x "$WORK/bin/badlame"
timeout "$RL_TIMEOUT" "$RL" --quiet --compare --lame "$WORK/bin/badlame" -V 2 "$IN/cmp.wav" \
    </dev/null >/dev/null 2>"$WORK/bad.stderr"
RC=$?
if [ $RC -eq 2 ] && grep -q "badlame.*exit 3" "$WORK/bad.stderr"; then
    id_ok failing_lame
else
    id_fail failing_lame "exit $RC, want 2" "$(head -c 600 "$WORK/bad.stderr")"
fi

id_summary
