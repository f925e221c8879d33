#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/batch: --batch over a tree of inputs (nested folders, several
# formats, a bad file in the middle).  Every output must be byte-identical to
# lame's output for the same input and options, named as lame names it
# (mirrored under --out-dir); colliding outputs are refused before anything
# is encoded; the manifest makes a rerun skip what is done (a touched input
# or a deleted output is redone, --force redoes all); SIGINT leaves only
# complete outputs and a valid manifest; a bad file makes the exit status 2
# and is counted in the summary.  MPEG inputs (.mp3 .mpg) made by lame are
# walked too: each output is `lame OPTS in.mp3 out.mp3`'s (the input's ID3v2
# tag copied), named as lame names it (x.mp3 -> x.mp3.mp3 beside it), and a
# rerun takes none of the earlier outputs beside the inputs as an input.
. "$(dirname "$0")/lib.sh"
id_init "$@"
set -m    # background jobs get SIGINT

OPTS=(-V 2 --tt Title --tn 3)   # ID3 tags too: each file has its own TLEN
T=$OUT/tree
mkdir -p "$T/a/b" "$T/c"
gen x.wav -t mix -d 3 -S 1
gen y.flac -t sine -d 2 -f flac
gen z.aiff -t pink -d 2 -c 1 -r 22050 -f aiff -S 2
gen w.au -t mix -d 2 -f au -S 3
cp "$IN/x.wav" "$T/x.wav"
cp "$IN/y.flac" "$T/a/y.flac"
cp "$IN/z.aiff" "$T/a/b/z.aiff"
cp "$IN/w.au" "$T/c/w.au"
printf 'this is not audio\n' >"$T/a/bad.wav"
printf 'notes\n' >"$T/c/readme.txt"
GOOD="x a/y a/b/z c/w"
declare -A SRC=([x]=x.wav [a/y]=a/y.flac [a/b/z]=a/b/z.aiff [c/w]=c/w.au)

# lame's outputs, the references
REF=$WORK/ref-tags
id_lame_refs "$REF" SRC $GOOD

# same_outputs NAME DIR: every good input's output in DIR is lame's
same_outputs() {
    local name=$1 dir=$2 k bad=""
    for k in $GOOD; do
        cmp -s "$REF/${k//\//_}.mp3" "$dir/$k.mp3" || bad+=" $k"
    done
    if [ -n "$bad" ]; then id_fail "$name" "outputs differ from lame's or are missing:$bad"
    else id_ok "$name"; fi
}

# valid_manifest NAME FILE: every line a JSON object with the fields
valid_manifest() {
    local name=$1 f=$2
    if python3 - "$f" <<'PY' 2>"$WORK/manifest.err"
import json, sys
keys = {"input", "size", "mtime_ns", "options", "output", "output_size", "sha256", "status",
        "reason", "seconds", "audio_seconds"}
with open(sys.argv[1]) as f:
    data = f.read()
assert data.endswith("\n"), "the last line is not complete"
for line in data.splitlines():
    r = json.loads(line)
    assert set(r) == keys, line
    assert r["status"] in ("encoded", "failed"), line
PY
    then id_ok "$name"; else id_fail "$name" "$(head -c 300 "$WORK/manifest.err")"; fi
}

summary_is() {  # NAME LOG PATTERN EXPECTED_RC
    local name=$1 log=$2 pat=$3 want=$4
    if [ "$RC" -ne "$want" ]; then
        id_fail "$name" "exit $RC, expected $want" "$(head -c 400 "$log.stderr")"
    elif ! grep -q "ringlame: batch: $pat" "$log.stderr"; then
        id_fail "$name" "summary is not '$pat'" "$(tail -c 400 "$log.stderr")"
    else
        id_ok "$name"
    fi
}

# ---- the tree into --out-dir
D=$OUT/out1
id_run_logged "$WORK/b1" "${OPTS[@]}" --threads 2 --batch --out-dir "$D" "$T"
summary_is first_run "$WORK/b1" "4 encoded, 0 skipped, 1 failed" 2
grep -q "a/bad.wav: .*(skipped)" "$WORK/b1.stderr" && id_ok bad_file_reported \
    || id_fail bad_file_reported "no message naming a/bad.wav" "$(head -c 400 "$WORK/b1.stderr")"
same_outputs mirrored_outputs "$D"
got=$(cd "$D" && find . -type f | sort | tr '\n' ' ')
want="./.ringlame-manifest.jsonl ./a/b/z.mp3 ./a/y.mp3 ./c/w.mp3 ./x.mp3 "
[ "$got" = "$want" ] && id_ok only_outputs || id_fail only_outputs "files: $got" "expected: $want"
valid_manifest manifest "$D/.ringlame-manifest.jsonl"

# ---- resume
ino() { stat -c %i "$D/$1.mp3"; }
before="$(ino x) $(ino a/y) $(ino a/b/z) $(ino c/w)"
id_run_logged "$WORK/b2" "${OPTS[@]}" --threads 2 --batch --out-dir "$D" "$T"
summary_is rerun_skips "$WORK/b2" "0 encoded, 4 skipped, 1 failed" 2
after="$(ino x) $(ino a/y) $(ino a/b/z) $(ino c/w)"
[ "$before" = "$after" ] && id_ok rerun_keeps_outputs || id_fail rerun_keeps_outputs "outputs rewritten"
touch -d '2001-01-01' "$T/a/y.flac"
id_run_logged "$WORK/b3" "${OPTS[@]}" --threads 2 --batch --out-dir "$D" "$T"
summary_is touched_redone "$WORK/b3" "1 encoded, 3 skipped, 1 failed" 2
[ "$(ino x) $(ino a/b/z)" = "$(echo "$before" | cut -d' ' -f1,3)" ] && id_ok touched_only \
    || id_fail touched_only "other outputs rewritten"
rm -f "$D/c/w.mp3"
id_run_logged "$WORK/b4" "${OPTS[@]}" --threads 2 --batch --out-dir "$D" "$T"
summary_is deleted_redone "$WORK/b4" "1 encoded, 3 skipped, 1 failed" 2
id_run_logged "$WORK/b5" -V 3 --threads 2 --batch --out-dir "$D" "$T"
summary_is other_options_redone "$WORK/b5" "4 encoded, 0 skipped, 1 failed" 2
id_run_logged "$WORK/b6" "${OPTS[@]}" --threads 2 --batch --force --out-dir "$D" "$T"
summary_is force_redoes "$WORK/b6" "4 encoded, 0 skipped, 1 failed" 2
same_outputs resumed_outputs "$D"
valid_manifest manifest_after_resume "$D/.ringlame-manifest.jsonl"

# ---- beside the inputs (no --out-dir), good files only: exit 0
B=$OUT/beside
rm -rf "$B"; mkdir -p "$B"
cp -r "$T/a" "$T/c" "$T/x.wav" "$B/"
rm -f "$B/a/bad.wav"
id_run_logged "$WORK/b7" "${OPTS[@]}" --threads 2 --batch "$B"
summary_is beside_inputs "$WORK/b7" "4 encoded, 0 skipped, 0 failed" 0
same_outputs beside_outputs "$B"
[ -s "$B/.ringlame-manifest.jsonl" ] && id_ok beside_manifest \
    || id_fail beside_manifest "no manifest in the first input folder"
# named files (any name), --threads 1
rm -f "$B"/*.mp3
id_run_logged "$WORK/b8" "${OPTS[@]}" --threads 1 --batch "$B/x.wav"
summary_is named_file "$WORK/b8" "1 encoded" 0
cmp -s "$REF/x.mp3" "$B/x.mp3" && id_ok named_file_output || id_fail named_file_output "differs"

# ---- collisions: refused before any output
C=$OUT/collide
rm -rf "$C" "$OUT/collide-out"; mkdir -p "$C"
cp "$IN/x.wav" "$C/s.wav"; cp "$IN/y.flac" "$C/s.flac"; cp "$IN/w.au" "$C/t.au"
id_run_logged "$WORK/c1" "${OPTS[@]}" --batch --out-dir "$OUT/collide-out" "$C"
if [ "$RC" -eq 1 ] && grep -q "would both be encoded to" "$WORK/c1.stderr" \
   && [ -z "$(find "$OUT/collide-out" "$C" -name '*.mp3' 2>/dev/null)" ]; then
    id_ok collision_refused
else
    id_fail collision_refused "exit $RC" "$(head -c 300 "$WORK/c1.stderr")"
fi
rm -f "$C/s.flac"; cp "$IN/x.wav" "$C/in.mp3"
id_run_logged "$WORK/c2" "${OPTS[@]}" --batch --out-dir "$C" "$C/in.mp3"
[ "$RC" -eq 1 ] && grep -q "is the input" "$WORK/c2.stderr" && id_ok output_is_input \
    || id_fail output_is_input "exit $RC" "$(head -c 300 "$WORK/c2.stderr")"
id_run_logged "$WORK/c3" "${OPTS[@]}" --force "$C/t.au"
[ "$RC" -eq 1 ] && id_ok force_needs_batch || id_fail force_needs_batch "exit $RC"

# ---- MPEG inputs (made by lame), beside them and into --out-dir
MP=$OUT/mpeg
rm -rf "$MP" "$MP-out"; mkdir -p "$MP/sub"
mkmp3() {  # NAME WAV LAME_OPTS...: $IN/NAME.mp3 made by lame (kept between runs)
    local name=$1 wav=$2; shift 2
    [ -s "$IN/$name.mp3" ] && return 0
    "$LAME" --quiet "$@" "$IN/$wav" "$IN/$name.mp3.part" </dev/null >/dev/null 2>&1 \
        && mv "$IN/$name.mp3.part" "$IN/$name.mp3" || id_fail "make $name.mp3" "lame failed"
}
mkmp3 m_tagged x.wav -V 4 --add-id3v2 --tt Tagged --ta Artist
mkmp3 m_cbr z.aiff -b 64
mkmp3 m_mpg y.flac -V 6
cp "$IN/m_tagged.mp3" "$MP/t.mp3"
cp "$IN/m_cbr.mp3" "$MP/sub/c.MP3"
cp "$IN/m_mpg.mp3" "$MP/sub/g.mpg"
cp "$IN/w.au" "$MP/w.au"
MOPTS=(-V 5)    # no tag of its own: the input's ID3v2 tag is copied
# KEY=INPUT:OUTPUT beside it, as lame names it
declare -A MSRC=([t]=t.mp3 [c]=sub/c.MP3 [g]=sub/g.mpg [w]=w.au)
declare -A MBES=([t]=t.mp3.mp3 [c]=sub/c.MP3.mp3 [g]=sub/g.mp3 [w]=w.mp3)
declare -A MDIR=([t]=t.mp3 [c]=sub/c.mp3 [g]=sub/g.mp3 [w]=w.mp3)
MREF=$WORK/ref-mpeg
mkdir -p "$MREF"
for k in t c g w; do
    r=$MREF/$k.mp3
    [ -s "$r" ] || "$LAME" --quiet "${MOPTS[@]}" "$MP/${MSRC[$k]}" "$r" </dev/null >/dev/null 2>&1 \
        || id_fail "lame mpeg $k" "the reference encode failed"
done
mpeg_outputs() {  # NAME DIR MAP: every output in DIR (named by MAP) is lame's
    local name=$1 dir=$2 k bad="" out
    local -n map=$3
    for k in t c g w; do
        out=${map[$k]}
        cmp -s "$MREF/$k.mp3" "$dir/$out" || bad+=" $out"
    done
    if [ -n "$bad" ]; then id_fail "$name" "outputs differ from lame's or are missing:$bad"
    else id_ok "$name"; fi
}
head -c 10 "$MREF/t.mp3" | grep -q '^ID3' && id_ok mpeg_ref_has_id3v2 \
    || id_fail mpeg_ref_has_id3v2 "lame copied no ID3v2 tag: the case checks nothing"
# into --out-dir first (beside, the outputs are inputs of any later run
# into another folder: w.mp3 would then collide with w.au)
id_run_logged "$WORK/m3" "${MOPTS[@]}" --threads 2 --batch --out-dir "$MP-out" "$MP"
summary_is mpeg_out_dir "$WORK/m3" "4 encoded, 0 skipped, 0 failed" 0
mpeg_outputs mpeg_out_dir_outputs "$MP-out" MDIR
id_run_logged "$WORK/m1" "${MOPTS[@]}" --threads 2 --batch "$MP"
summary_is mpeg_beside "$WORK/m1" "4 encoded, 0 skipped, 0 failed" 0
mpeg_outputs mpeg_beside_outputs "$MP" MBES
cmp -s "$IN/m_tagged.mp3" "$MP/t.mp3" && cmp -s "$IN/m_cbr.mp3" "$MP/sub/c.MP3" \
    && id_ok mpeg_inputs_kept || id_fail mpeg_inputs_kept "an MPEG input was overwritten"
# the outputs beside the inputs (t.mp3.mp3, g.mp3, w.mp3) are no inputs of a rerun
id_run_logged "$WORK/m2" "${MOPTS[@]}" --threads 2 --batch "$MP"
summary_is mpeg_rerun_skips "$WORK/m2" "0 encoded, 4 skipped, 0 failed" 0
[ -z "$(find "$MP" -name '*.mp3.mp3.mp3' -o -name 'g.mp3.mp3')" ] && id_ok mpeg_outputs_not_inputs \
    || id_fail mpeg_outputs_not_inputs "an earlier output was encoded again"
# an MPEG input and another input of one name: one output name, refused
cp "$IN/w.au" "$MP/t.au"
id_run_logged "$WORK/m4" "${MOPTS[@]}" --batch --out-dir "$MP-out2" "$MP"
if [ "$RC" -eq 1 ] && grep -q "would both be encoded to" "$WORK/m4.stderr" \
   && [ ! -e "$MP-out2/t.mp3" ]; then
    id_ok mpeg_collision_refused
else
    id_fail mpeg_collision_refused "exit $RC" "$(head -c 300 "$WORK/m4.stderr")"
fi

# ---- SIGINT mid-way: only complete outputs, a valid manifest
gen long.wav -t pink -d 40 -S 7
S=$OUT/sigint
rm -rf "$S" "$S-out"; mkdir -p "$S"
for i in 1 2 3 4 5 6; do cp "$IN/long.wav" "$S/f$i.wav"; done
lref=$REF/long.mp3
[ -s "$lref" ] || "$LAME" --quiet "${OPTS[@]}" "$IN/long.wav" "$lref" </dev/null >/dev/null 2>&1
"$RL" "${OPTS[@]}" --threads 2 --batch --out-dir "$S-out" "$S" </dev/null >"$WORK/s.stdout" 2>"$WORK/s.stderr" &
pid=$!
for _ in $(seq 100); do
    grep -q '^SigBlk:[[:space:]]*0*[1-9a-f]' "/proc/$pid/status" 2>/dev/null && break
    sleep 0.05
done
# let the first file or two finish, then stop
for _ in $(seq 200); do
    [ -n "$(find "$S-out" -name '*.mp3' 2>/dev/null)" ] && break
    sleep 0.05
done
kill -INT "$pid"
waited=0
while kill -0 "$pid" 2>/dev/null && [ $waited -lt 600 ]; do sleep 0.05; waited=$((waited + 1)); done
kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
wait "$pid"; RC=$?
outs=$(find "$S-out" -name '*.mp3' | wc -l)
badout=""
for f in $(find "$S-out" -type f ! -name '.ringlame-manifest.jsonl'); do
    case $f in *.mp3) cmp -s "$lref" "$f" || badout+=" $f" ;; *) badout+=" $f" ;; esac
done
enc=$(grep -c '"status":"encoded"' "$S-out/.ringlame-manifest.jsonl" 2>/dev/null)
if [ "$RC" -ne 130 ]; then
    id_fail sigint "exit $RC, expected 130" "$(tail -c 300 "$WORK/s.stderr")"
elif [ -n "$badout" ]; then
    id_fail sigint "incomplete or foreign files:$badout"
elif [ "$outs" -ge 6 ] || [ "$enc" != "$outs" ]; then
    id_fail sigint "$outs outputs, $enc encoded in the manifest (not stopped mid-way?)"
else
    id_ok "sigint ($outs of 6 done)"
fi
valid_manifest sigint_manifest "$S-out/.ringlame-manifest.jsonl"
# the rerun finishes the rest
id_run_logged "$WORK/s2" "${OPTS[@]}" --threads 2 --batch --out-dir "$S-out" "$S"
summary_is sigint_resumed "$WORK/s2" "$((6 - outs)) encoded, $outs skipped, 0 failed" 0

id_summary
