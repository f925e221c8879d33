#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/compare: `ringlame --compare` and `--compare-to`.  Identical
# cases exit 0 with lame's size and SHA-256 (as sha256sum gives it); a
# planted difference exits 1 with a report that names the frame and the
# part; a missing lame exits 2 with a message that names it.  With --batch:
# the differing files listed with their verdicts, the verdicts in the
# manifest (kept on a rerun), a missing lame, --compare-to refused.
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

# ---- --compare with --batch: every file encoded by both and compared ----
B=$OUT/batch; rm -rf "$B" "$WORK/bout"*; mkdir -p "$B/sub"
gen b1.wav -t mix -d 2 -S 21
gen b2.wav -t pink -d 2 -S 22
gen b3.flac -t sine -d 1 -f flac
cp "$IN/b1.wav" "$B/b1.wav"; cp "$IN/b2.wav" "$B/sub/b2.wav"; cp "$IN/b3.flac" "$B/b3.flac"
# lame's references for the outputs
for k in b1 sub/b2 b3; do
    src=$(ls "$B/$k".*); r=$WORK/bref-${k//\//_}.mp3
    "$LAME" --quiet -V 3 "$src" "$r" </dev/null >/dev/null 2>&1 || id_die "lame failed on $src"
done
# a lame that flips byte 5000 of its output for sub/b2 (the planted difference)
{
    echo '#!/bin/sh'
    printf '%q "$@" || exit $?\n' "$LAME"
    echo 'for out; do :; done'
    echo 'case "$*" in *sub/b2.wav*) printf "\377" | dd of="$out" bs=1 seek=5000 conv=notrunc 2>/dev/null;; esac'
} >"$WORK/bin/fliplame"
chmod +x "$WORK/bin/fliplame"

# manifest_compare DIR K=PREFIX...: every line valid JSON, input K's last
# record encoded with a "compare" verdict starting with PREFIX
manifest_compare() {
    local dir=$1; shift
    if python3 - "$dir/.ringlame-manifest.jsonl" "$@" <<'PY' 2>"$WORK/mc.err"
import json, sys
recs = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    recs[r["input"]] = r
for want in sys.argv[2:]:
    k, prefix = want.split("=", 1)
    hit = [r for i, r in recs.items() if i.endswith("/" + k)]
    assert len(hit) == 1, "no single record for %s" % k
    assert hit[0]["status"] == "encoded", hit[0]
    assert hit[0].get("compare", "").startswith(prefix), (k, hit[0].get("compare"))
PY
    then return 0; else cat "$WORK/mc.err"; return 1; fi
}

brun() {  # LOG ARGS...: ringlame with TMPDIR=$tmp, sets RC
    local log=$WORK/$1; shift
    TMPDIR=$tmp timeout "$RL_TIMEOUT" "$RL" "$@" </dev/null >"$log.stdout" 2>"$log.stderr"
    RC=$?
}
rm -rf "$tmp"; mkdir -p "$tmp"

brun b_same --quiet --batch --compare --lame "$LAME" -V 3 --out-dir "$WORK/bout" "$B"
bad=""
for k in b1 sub/b2 b3; do
    cmp -s "$WORK/bref-${k//\//_}.mp3" "$WORK/bout/$k.mp3" || bad+=" $k"
done
if [ $RC -ne 0 ]; then
    id_fail batch_identical "exit $RC, want 0" "$(head -c 600 "$WORK/b_same.stdout" "$WORK/b_same.stderr")"
elif ! grep -qx "compare: 3 identical, 0 differ, 0 not compared" "$WORK/b_same.stdout"; then
    id_fail batch_identical "stdout" "$(cat "$WORK/b_same.stdout")"
elif [ -n "$bad" ]; then
    id_fail batch_identical "outputs differ from lame's:$bad"
elif ! manifest_compare "$WORK/bout" b1.wav=identical sub/b2.wav=identical b3.flac=identical; then
    id_fail batch_identical "the manifest's verdicts"
elif [ -n "$(ls -A "$tmp")" ]; then
    id_fail batch_identical "temporary files left: $(ls -A "$tmp")"
else
    id_ok batch_identical
fi

brun b_flip --quiet --batch --compare --lame "$WORK/bin/fliplame" -V 3 --out-dir "$WORK/bout2" "$B"
if [ $RC -ne 1 ]; then
    id_fail batch_planted "exit $RC, want 1" "$(head -c 600 "$WORK/b_flip.stdout" "$WORK/b_flip.stderr")"
elif ! grep -q "^$B/sub/b2.wav: differs: byte 5000, frame [0-9]*, main data region; 1 of [0-9]* frames differ" "$WORK/b_flip.stdout" \
     || ! grep -qx "compare: 2 identical, 1 differ, 0 not compared" "$WORK/b_flip.stdout" \
     || [ "$(grep -c ': differs: ' "$WORK/b_flip.stdout")" -ne 1 ]; then
    id_fail batch_planted "the report does not list sub/b2 alone" "$(cat "$WORK/b_flip.stdout")"
elif ! manifest_compare "$WORK/bout2" b1.wav=identical "sub/b2.wav=differs: byte 5000" b3.flac=identical; then
    id_fail batch_planted "the manifest's verdicts"
elif ! cmp -s "$WORK/bref-sub_b2.mp3" "$WORK/bout2/sub/b2.mp3"; then
    id_fail batch_planted "ringlame's output is not lame's"
else
    id_ok "batch_planted ($(grep ': differs: ' "$WORK/b_flip.stdout"))"
fi

# a rerun skips the compared files and reports the recorded verdicts again
# (same options: --quiet is one of lame's; no new manifest line)
brun b_rerun --quiet --batch --compare --lame "$WORK/bin/fliplame" -V 3 --out-dir "$WORK/bout2" "$B"
if [ $RC -eq 1 ] && [ "$(wc -l <"$WORK/bout2/.ringlame-manifest.jsonl")" -eq 3 ] \
   && grep -q "sub/b2.wav: differs: byte 5000" "$WORK/b_rerun.stdout"; then
    id_ok batch_rerun_keeps_verdicts
else
    id_fail batch_rerun_keeps_verdicts "exit $RC" "$(cat "$WORK/b_rerun.stdout" "$WORK/b_rerun.stderr")"
fi
# files encoded without --compare are encoded again and compared when it is added
brun b_plain --quiet --batch -V 3 --out-dir "$WORK/bout3" "$B"
brun b_then --batch --compare --lame "$LAME" -V 3 --out-dir "$WORK/bout3" "$B"
if [ $RC -eq 0 ] && grep -q "3 encoded, 0 skipped" "$WORK/b_then.stderr" \
   && manifest_compare "$WORK/bout3" b1.wav=identical sub/b2.wav=identical b3.flac=identical; then
    id_ok batch_compare_after_plain
else
    id_fail batch_compare_after_plain "exit $RC" "$(cat "$WORK/b_then.stdout" "$WORK/b_then.stderr")"
fi

# a missing lame: every file encoded, none compared, exit 2, named
brun b_missing --quiet --batch --compare --lame /nonexistent/lame -V 3 --out-dir "$WORK/bout4" "$B"
if [ $RC -ne 2 ]; then
    id_fail batch_missing_lame "exit $RC, want 2" "$(head -c 600 "$WORK/b_missing.stderr")"
elif [ "$(grep -c "lame failed: cannot run lame '/nonexistent/lame'" "$WORK/b_missing.stderr")" -ne 3 ] \
     || ! grep -qx "compare: 0 identical, 0 differ, 3 not compared" "$WORK/b_missing.stdout"; then
    id_fail batch_missing_lame "messages" "$(cat "$WORK/b_missing.stdout" "$WORK/b_missing.stderr")"
elif ! manifest_compare "$WORK/bout4" "b1.wav=lame failed" "sub/b2.wav=lame failed" "b3.flac=lame failed"; then
    id_fail batch_missing_lame "the manifest's verdicts"
elif ! cmp -s "$WORK/bref-b1.mp3" "$WORK/bout4/b1.mp3" || [ -n "$(ls -A "$tmp")" ]; then
    id_fail batch_missing_lame "output not lame's, or temporary files left"
else
    id_ok batch_missing_lame
fi

# --compare-to names one file: refused with --batch, nothing written
brun b_to --batch --compare-to "$OUT/ref.mp3" -V 3 --out-dir "$WORK/bout5" "$B"
if [ $RC -eq 1 ] && grep -q -- "--compare-to names one reference file" "$WORK/b_to.stderr" \
   && [ ! -e "$WORK/bout5" ]; then
    id_ok batch_compare_to_refused
else
    id_fail batch_compare_to_refused "exit $RC" "$(cat "$WORK/b_to.stderr")"
fi

id_summary
