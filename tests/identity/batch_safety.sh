#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/batch_safety: a --batch that never hangs, never tears its
# manifest and never loses a file.
#  - a walked tree with a FIFO, a Unix socket and a file whose reads stall
#    (a FUSE-like source: tests/fault_inject.c's RL_STALL_READ): the FIFO and
#    the socket are reported and skipped, the stalled file is given up on
#    after --stall-timeout and recorded as failed, the others are lame's
#    bytes, in bounded time; a FIFO held open by a writer that never writes,
#    named on purpose, is refused at once;
#  - SIGTERM during a stall ends the batch within seconds (143), finished
#    files kept and recorded, no temporary file left;
#  - a FIFO in place of the manifest, a second batch on a locked --out-dir:
#    refused at once with a message;
#  - a manifest append that fails (a full disk under the manifest: a short
#    write, then ENOSPC): exit 2, whole lines only, valid outputs, and the
#    next run finishes the rest; a torn last line is set aside (.torn);
#  - console options (--verbose, -S, --nohist, --disptime, --threads) do not
#    redo a corpus; non-UTF-8 file names and option bytes make valid JSON
#    that reads back (a rerun skips them);
#  - an earlier run's --out-dir inside the walked tree is not walked;
#  - shards over a tree that changes between them: the stored plan keeps
#    every share's files; the added and the gone files are reported (exit
#    2), --merge-manifests lists the planned inputs no part has (exit 2),
#    nothing is encoded twice, and after a complete merge the next sharded
#    run encodes the added file.
# Every output is compared with lame's output for the same input and options.
. "$(dirname "$0")/lib.sh"
id_init "$@"

FI=${RL_FAULT_LIB:-$(dirname "$GEN")/libfault_inject.so}
[ -f "$FI" ] || id_die "the fault library $FI is missing (build the fault_inject target)"
command -v python3 >/dev/null || id_skip "python3 is needed to check the manifests as JSON"

OPTS=(-V 2)
gen a.wav -t mix -d 2 -S 21
gen b.wav -t sine -d 2
gen c.wav -t pink -d 3 -S 23
gen d.wav -t mix -d 1 -c 1 -S 24
REF=$WORK/ref
mkdir -p "$REF"
for k in a b c d; do
    [ -s "$REF/$k.mp3" ] || "$LAME" --quiet "${OPTS[@]}" "$IN/$k.wav" "$REF/$k.mp3" </dev/null \
        >/dev/null 2>&1 || id_fail "lame $k" "the reference encode failed"
done

# json_ok NAME FILE [PY_CHECK]: every line of FILE is a JSON object (the
# file strict UTF-8, its last line whole); PY_CHECK runs with `recs`
json_ok() {
    local name=$1 f=$2 extra=${3:-}
    if python3 - "$f" "$extra" <<'PY' 2>"$WORK/json.err"
import json, os, sys
data = open(sys.argv[1], "rb").read()
assert data.endswith(b"\n"), "the last line is not complete"
text = data.decode("utf-8")          # strict: any raw non-UTF-8 byte fails
recs = [json.loads(line) for line in text.splitlines()]
exec(sys.argv[2])
PY
    then id_ok "$name"; else id_fail "$name" "$(tail -c 400 "$WORK/json.err")"; fi
}

no_temps() {  # NAME DIR...: no temporary output left
    local name=$1; shift
    local left
    left=$(find "$@" -name '.ringlame-*.tmp' -o -name '*.merge-*' -o -name '*.tmp-*' 2>/dev/null)
    [ -z "$left" ] && id_ok "$name" || id_fail "$name" "left behind: $left"
}

same_as_ref() {  # NAME DIR KEY...: DIR/KEY.mp3 is lame's output of KEY.wav
    local name=$1 dir=$2 k bad=""; shift 2
    for k in "$@"; do cmp -s "$REF/$k.mp3" "$dir/$k.mp3" || bad+=" $k"; done
    [ -z "$bad" ] && id_ok "$name" || id_fail "$name" "differ from lame's or missing:$bad"
}

# ---- a FIFO, a socket and a stalled file in a walked tree
T=$OUT/tree
mkdir -p "$T/sub"
cp "$IN/a.wav" "$T/a.wav"; cp "$IN/b.wav" "$T/sub/b.wav"; cp "$IN/c.wav" "$T/stall.wav"
mkfifo "$T/fifo.wav"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sub/sock.wav" \
    || id_die "cannot make a Unix socket"
D=$OUT/o1
t0=$(date +%s)
LD_PRELOAD=$FI RL_STALL_READ=stall.wav id_run_logged "$WORK/w1" "${OPTS[@]}" --threads 2 \
    --batch --stall-timeout 2 --out-dir "$D" "$T"
dt=$(( $(date +%s) - t0 ))
if [ "$RC" -eq 2 ] && [ "$dt" -lt 30 ]; then id_ok "stall_bounded (exit 2 in ${dt} s)"
else id_fail stall_bounded "exit $RC after $dt s" "$(tail -c 600 "$WORK/w1.stderr")"; fi
for f in fifo.wav:FIFO sub/sock.wav:socket; do
    grep -q "${f%%:*}: not a regular file (a ${f##*:}): not an input (skipped)" "$WORK/w1.stderr" \
        && id_ok "reported_${f##*:}" || id_fail "reported_${f##*:}" "no message" "$(head -c 400 "$WORK/w1.stderr")"
done
grep -q "stall.wav: stalled: no progress for" "$WORK/w1.stderr" && id_ok stall_reported \
    || id_fail stall_reported "no message" "$(tail -c 400 "$WORK/w1.stderr")"
mkdir -p "$WORK/cmp"; cp "$D/a.mp3" "$WORK/cmp/a.mp3" 2>/dev/null; cp "$D/sub/b.mp3" "$WORK/cmp/b.mp3" 2>/dev/null
same_as_ref stall_others_encoded "$WORK/cmp" a b
[ ! -e "$D/stall.mp3" ] && id_ok stall_no_output || id_fail stall_no_output "$D/stall.mp3 exists"
no_temps stall_no_temps "$D"
json_ok stall_manifest "$D/.ringlame-manifest.jsonl" '
st = {os.path.basename(r["input"]): r["status"] for r in recs}
assert st == {"a.wav": "encoded", "b.wav": "encoded", "stall.wav": "failed"}, st
assert "stalled" in [r for r in recs if r["input"].endswith("stall.wav")][0]["reason"]'
# the same tree again: the stalled file is tried (and given up on) again,
# the rest is skipped
LD_PRELOAD=$FI RL_STALL_READ=stall.wav id_run_logged "$WORK/w2" "${OPTS[@]}" --batch \
    --stall-timeout 1 --out-dir "$D" "$T"
[ "$RC" -eq 2 ] && grep -q "ringlame: batch: 0 encoded, 2 skipped, 1 failed" "$WORK/w2.stderr" \
    && id_ok stall_rerun || id_fail stall_rerun "exit $RC" "$(tail -c 400 "$WORK/w2.stderr")"

# a FIFO held open by a writer that never writes, named on purpose
H=$OUT/held
mkdir -p "$H"; mkfifo "$H/held.wav"
sleep 60 >"$H/held.wav" &
writer=$!
t0=$(date +%s)
id_run_logged "$WORK/h1" "${OPTS[@]}" --batch --out-dir "$OUT/held-out" "$H/held.wav"
dt=$(( $(date +%s) - t0 ))
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
if [ "$RC" -eq 2 ] && [ "$dt" -lt 10 ] && grep -q "held.wav: not a regular file (a FIFO)" "$WORK/h1.stderr"; then
    id_ok named_fifo_refused
else
    id_fail named_fifo_refused "exit $RC after $dt s" "$(head -c 400 "$WORK/h1.stderr")"
fi

# ---- SIGTERM during a stall (the default limit: only the signal ends it)
S=$OUT/sigterm
rm -rf "$S" "$S-out"; mkdir -p "$S"
cp "$IN/a.wav" "$S/a.wav"; cp "$IN/c.wav" "$S/stall.wav"; cp "$IN/b.wav" "$S/zz.wav"
LD_PRELOAD=$FI RL_STALL_READ=stall.wav "$RL" "${OPTS[@]}" --threads 2 --batch --out-dir "$S-out" "$S" \
    </dev/null >"$WORK/t.stdout" 2>"$WORK/t.stderr" &
pid=$!
for _ in $(seq 200); do   # a.wav done, stall.wav in its read
    grep -q '"a.wav\|/a.wav"' "$S-out/.ringlame-manifest.jsonl" 2>/dev/null && break
    sleep 0.05
done
sleep 0.5
kill -TERM "$pid"
t0=$(date +%s)
waited=0
while kill -0 "$pid" 2>/dev/null && [ $waited -lt 200 ]; do sleep 0.05; waited=$((waited + 1)); done
kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
wait "$pid"; RC=$?
dt=$(( $(date +%s) - t0 ))
if [ "$RC" -eq 143 ] && [ "$dt" -le 5 ]; then id_ok "sigterm_in_stall (143 in ${dt} s)"
else id_fail sigterm_in_stall "exit $RC after $dt s (expected 143 within 5 s)" "$(tail -c 400 "$WORK/t.stderr")"; fi
cmp -s "$REF/a.mp3" "$S-out/a.mp3" && id_ok sigterm_finished_kept || id_fail sigterm_finished_kept "a.mp3 differs or is missing"
[ ! -e "$S-out/stall.mp3" ] && id_ok sigterm_no_partial || id_fail sigterm_no_partial "stall.mp3 written"
no_temps sigterm_no_temps "$S-out"
json_ok sigterm_manifest "$S-out/.ringlame-manifest.jsonl" '
assert [os.path.basename(r["input"]) for r in recs if r["status"] == "encoded"][:1] == ["a.wav"], recs
assert not any(r["input"].endswith("stall.wav") for r in recs), recs'

# ---- a FIFO in place of the manifest; a second batch on a locked --out-dir
F=$OUT/fifo-manifest
mkdir -p "$F"; mkfifo "$F/.ringlame-manifest.jsonl"
t0=$(date +%s)
id_run_logged "$WORK/f1" "${OPTS[@]}" --batch --out-dir "$F" "$IN/a.wav"
dt=$(( $(date +%s) - t0 ))
if [ "$RC" -eq 2 ] && [ "$dt" -lt 10 ] && grep -q "manifest.jsonl: not a regular file" "$WORK/f1.stderr" \
   && [ ! -e "$F/a.mp3" ]; then
    id_ok fifo_manifest_refused
else
    id_fail fifo_manifest_refused "exit $RC after $dt s" "$(head -c 400 "$WORK/f1.stderr")"
fi
L=$OUT/locked
rm -rf "$L" "$L-in"; mkdir -p "$L-in"
cp "$IN/c.wav" "$L-in/stall.wav"
LD_PRELOAD=$FI RL_STALL_READ=stall.wav "$RL" "${OPTS[@]}" --batch --out-dir "$L" "$L-in" \
    </dev/null >/dev/null 2>"$WORK/l0.stderr" &
first=$!
for _ in $(seq 100); do [ -e "$L/.ringlame-manifest.jsonl" ] && break; sleep 0.05; done
sleep 0.3
id_run_logged "$WORK/l1" "${OPTS[@]}" --batch --out-dir "$L" "$IN/a.wav"
kill -KILL "$first" 2>/dev/null; wait "$first" 2>/dev/null
if [ "$RC" -eq 1 ] && grep -q "another batch is using it" "$WORK/l1.stderr" && [ ! -e "$L/a.mp3" ]; then
    id_ok second_batch_refused
else
    id_fail second_batch_refused "exit $RC" "$(head -c 400 "$WORK/l1.stderr")"
fi
id_run_logged "$WORK/l2" "${OPTS[@]}" --batch --out-dir "$L" "$IN/a.wav"
[ "$RC" -eq 0 ] && cmp -s "$REF/a.mp3" "$L/a.mp3" && id_ok lock_released_at_exit \
    || id_fail lock_released_at_exit "exit $RC" "$(head -c 400 "$WORK/l2.stderr")"

# ---- a failed append (full disk under the manifest), then a torn tail
M=$OUT/full
rm -rf "$M" "$M-in"; mkdir -p "$M-in"
for k in a b c d; do cp "$IN/$k.wav" "$M-in/$k.wav"; done
LD_PRELOAD=$FI RL_FAIL_WRITE_MATCH=.ringlame-manifest RL_FAIL_WRITE_AT=2 \
    id_run_logged "$WORK/m1" "${OPTS[@]}" --threads 1 --batch --out-dir "$M" "$M-in"
if [ "$RC" -eq 2 ] && grep -q "the manifest: cannot record .*b.wav" "$WORK/m1.stderr"; then
    id_ok append_failure_exit
else
    id_fail append_failure_exit "exit $RC (expected 2 and a message)" "$(tail -c 400 "$WORK/m1.stderr")"
fi
json_ok append_failure_whole_lines "$M/.ringlame-manifest.jsonl" '
assert [os.path.basename(r["input"]) for r in recs] == ["a.wav"], recs'
bad=""
for f in "$M"/*.mp3; do cmp -s "$REF/$(basename "$f")" "$f" || bad+=" $f"; done
[ -z "$bad" ] && id_ok append_failure_valid_outputs || id_fail append_failure_valid_outputs "not lame's:$bad"
id_run_logged "$WORK/m2" "${OPTS[@]}" --batch --out-dir "$M" "$M-in"
[ "$RC" -eq 0 ] && grep -q "ringlame: batch: 3 encoded, 1 skipped, 0 failed" "$WORK/m2.stderr" \
    && id_ok append_failure_resumed || id_fail append_failure_resumed "exit $RC" "$(tail -c 400 "$WORK/m2.stderr")"
same_as_ref append_failure_all_outputs "$M" a b c d
# a crash in the middle of a record: the fragment is set aside
printf '{"input":"%s","size":12' "$M-in/a.wav" >>"$M/.ringlame-manifest.jsonl"
touch "$M-in/d.wav"
id_run_logged "$WORK/m3" "${OPTS[@]}" --batch --out-dir "$M" "$M-in"
if [ "$RC" -eq 0 ] && grep -q "its last line is incomplete (.* bytes, from an interrupted run): moved to .*\.torn" \
       "$WORK/m3.stderr" && grep -q "ringlame: batch: 1 encoded, 3 skipped" "$WORK/m3.stderr" \
   && grep -q '"size":12$' "$M/.ringlame-manifest.jsonl.torn"; then
    id_ok torn_tail_set_aside
else
    id_fail torn_tail_set_aside "exit $RC" "$(tail -c 500 "$WORK/m3.stderr")"
fi
json_ok torn_tail_manifest "$M/.ringlame-manifest.jsonl" '
assert sum(r["input"].endswith("d.wav") for r in recs) == 2, recs'

# ---- console options are not recorded; non-UTF-8 names and option bytes
N=$OUT/names
rm -rf "$N" "$N-out"; mkdir -p "$N"
cp "$IN/a.wav" "$N/caf$(printf '\xe9').wav"
cp "$IN/b.wav" "$N/$(printf '\xff\xfe')-\"q\\.wav"
cp "$IN/d.wav" "$N/ok-$(printf '\xc3\xa9').wav"
TT=$(printf 'T\xeatre')
id_run_logged "$WORK/n1" "${OPTS[@]}" --tt "$TT" --batch --out-dir "$N-out" "$N"
[ "$RC" -eq 0 ] && id_ok names_encoded || id_fail names_encoded "exit $RC" "$(tail -c 400 "$WORK/n1.stderr")"
bad=""
for f in "$N"/*.wav; do
    b=$(basename "$f" .wav)
    "$LAME" --quiet "${OPTS[@]}" --tt "$TT" "$f" "$WORK/name-ref.mp3" </dev/null >/dev/null 2>&1
    cmp -s "$WORK/name-ref.mp3" "$N-out/$b.mp3" || bad+=" $b"
done
[ -z "$bad" ] && id_ok names_outputs || id_fail names_outputs "not lame's:$bad"
json_ok names_manifest_json "$N-out/.ringlame-manifest.jsonl" '
for r in recs:
    assert os.path.exists(os.fsencode(r["input"])), r["input"]
    assert os.path.exists(os.fsencode(r["output"])), r["output"]
    assert os.fsencode(r["options"][-1]) == b"T\xeatre" or b"T\xeatre" in [os.fsencode(o) for o in r["options"]], r["options"]
assert len(recs) == 3'
id_run_logged "$WORK/n2" "${OPTS[@]}" --tt "$TT" --verbose --nohist -S --disptime 2 --threads 1 \
    --batch --out-dir "$N-out" "$N"
[ "$RC" -eq 0 ] && grep -q "ringlame: batch: 0 encoded, 3 skipped" "$WORK/n2.stderr" \
    && id_ok console_options_not_recorded \
    || id_fail console_options_not_recorded "exit $RC: redone?" "$(tail -c 400 "$WORK/n2.stderr")"
id_run_logged "$WORK/n3" "${OPTS[@]}" --batch --out-dir "$N-out" "$N"
[ "$RC" -eq 0 ] && grep -q "ringlame: batch: 3 encoded, 0 skipped" "$WORK/n3.stderr" \
    && id_ok byte_options_recorded || id_fail byte_options_recorded "exit $RC" "$(tail -c 400 "$WORK/n3.stderr")"

# ---- an earlier run's --out-dir inside the walked tree
W=$OUT/inside
rm -rf "$W"; mkdir -p "$W/in"
cp "$IN/a.wav" "$W/in/a.wav"; cp "$IN/b.wav" "$W/b.wav"
id_run_logged "$WORK/i1" -V 4 --batch --out-dir "$W/mp3-v4" "$W"
id_run_logged "$WORK/i2" "${OPTS[@]}" --batch --out-dir "$W/mp3-v2" "$W"
mkdir -p "$WORK/inside-cmp"; cp "$W/mp3-v2/in/a.mp3" "$WORK/inside-cmp/a.mp3" 2>/dev/null
cp "$W/mp3-v2/b.mp3" "$WORK/inside-cmp/b.mp3" 2>/dev/null
if [ "$RC" -eq 0 ] && [ ! -e "$W/mp3-v2/mp3-v4" ] && grep -q "ringlame: batch: 2 encoded, 0 skipped" "$WORK/i2.stderr"; then
    id_ok earlier_out_dir_not_walked
else
    id_fail earlier_out_dir_not_walked "exit $RC" "$(find "$W/mp3-v2" -name '*.mp3')" "$(tail -c 300 "$WORK/i2.stderr")"
fi
same_as_ref earlier_out_dir_outputs "$WORK/inside-cmp" a b

# ---- shards over a tree that changes between them
C=$OUT/corpus
Z=$OUT/shards
rm -rf "$C" "$Z"; mkdir -p "$C"
gen s1.wav -t mix -d 1 -S 31; gen s2.wav -t mix -d 2 -S 32; gen s3.wav -t pink -d 3 -S 33
gen s4.wav -t mix -d 4 -S 34; gen s5.wav -t sine -d 3; gen s6.wav -t pink -d 2 -S 36
gen s7.wav -t mix -d 2 -S 37
for k in 1 2 3 4 5 6 7; do
    cp "$IN/s$k.wav" "$C/s$k.wav"
    [ -s "$REF/s$k.mp3" ] || "$LAME" --quiet "${OPTS[@]}" "$IN/s$k.wav" "$REF/s$k.mp3" </dev/null >/dev/null 2>&1
done
id_run_logged "$WORK/z0" "${OPTS[@]}" --batch --shard 0/3 --out-dir "$Z" "$C"
[ "$RC" -eq 0 ] && [ -s "$Z/.ringlame-plan.3.jsonl" ] && id_ok shard_plan_stored \
    || id_fail shard_plan_stored "exit $RC" "$(tail -c 300 "$WORK/z0.stderr")"
# the tree changes: a file of another share goes, one is added
gone=$(python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()[1:]
print([json.loads(l)["input"] for l in lines if json.loads(l)["shard"] == 1][0])' "$Z/.ringlame-plan.3.jsonl")
rm -f "$gone"
cp "$IN/s7.wav" "$C/s8.wav"
id_run_logged "$WORK/z1" "${OPTS[@]}" --batch --shard 1/3 --out-dir "$Z" "$C"
if [ "$RC" -eq 2 ] && grep -q "s8.wav: not in the shard plan" "$WORK/z1.stderr" \
   && grep -q "$(basename "$gone"): planned for shard 1/3 .* but no longer in the corpus" "$WORK/z1.stderr"; then
    id_ok shard_change_reported
else
    id_fail shard_change_reported "exit $RC" "$(head -c 600 "$WORK/z1.stderr")"
fi
id_run_logged "$WORK/zm1" --batch --merge-manifests --out-dir "$Z"
if [ "$RC" -eq 2 ] && grep -q "planned for shard 2/3, recorded by no part" "$WORK/zm1.stderr"; then
    id_ok merge_lists_unrecorded
else
    id_fail merge_lists_unrecorded "exit $RC" "$(head -c 600 "$WORK/zm1.stderr")"
fi
id_run_logged "$WORK/z2" "${OPTS[@]}" --batch --shard 2/3 --out-dir "$Z" "$C"
id_run_logged "$WORK/zm2" --batch --merge-manifests --out-dir "$Z"
[ "$RC" -eq 0 ] && [ ! -e "$Z/.ringlame-plan.3.jsonl" ] && grep -q "plan removed" "$WORK/zm2.stderr" \
    && id_ok merge_complete_retires_plan || id_fail merge_complete_retires_plan "exit $RC" "$(tail -c 400 "$WORK/zm2.stderr")"
# no input encoded by two shards
json_ok shard_once_each "$Z/.ringlame-manifest.jsonl" '
import glob, collections
n = collections.Counter()
for p in glob.glob(os.path.join(os.path.dirname(sys.argv[1]), ".ringlame-manifest.*-of-3.jsonl")):
    for l in open(p):
        r = json.loads(l)
        if r["status"] == "encoded": n[r["input"]] += 1
assert n and max(n.values()) == 1, n'
# the next sharded run plans anew: the added file is encoded, nothing else
enc=0
for k in 0 1 2; do
    id_run_logged "$WORK/zr$k" "${OPTS[@]}" --batch --shard $k/3 --out-dir "$Z" "$C"
    e=$(sed -n 's/^ringlame: batch: \([0-9]*\) encoded.*/\1/p' "$WORK/zr$k.stderr")
    enc=$((enc + ${e:-0}))
done
cp "$Z/s8.mp3" "$WORK/cmp/s7.mp3" 2>/dev/null
[ "$enc" -eq 1 ] && id_ok "replanned_encodes_added" || id_fail replanned_encodes_added "$enc files encoded, expected 1"
same_as_ref replanned_output "$WORK/cmp" s7
no_temps shard_no_temps "$Z"

id_summary
