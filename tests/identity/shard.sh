#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/shard: --batch --shard K/N over a small corpus, three shards run
# one after the other.  Together they write every output exactly once (no
# input in two shards' manifest parts), each output byte-identical to lame's;
# the shards' input sizes are balanced (none more than the largest file above
# the average); --merge-manifests gives one line per input and names a
# missing shard; a rerun of one shard skips its files; bad --shard values are
# refused (exit 1).
. "$(dirname "$0")/lib.sh"
id_init "$@"

OPTS=(-V 2)
T=$OUT/corpus
rm -rf "$T"; mkdir -p "$T/a/b"
# sizes spread so that the plan has something to balance
gen s1.wav -t mix -d 1 -S 11
gen s2.wav -t mix -d 2 -S 12
gen s3.wav -t pink -d 3 -S 13
gen s4.wav -t mix -d 4 -S 14
gen s5.flac -t sine -d 3 -f flac
gen s6.aiff -t pink -d 2 -c 1 -r 22050 -f aiff -S 16
gen s7.wav -t mix -d 1 -c 1 -S 17
cp "$IN/s1.wav" "$T/s1.wav"
cp "$IN/s2.wav" "$T/a/s2.wav"
cp "$IN/s3.wav" "$T/a/b/s3.wav"
cp "$IN/s4.wav" "$T/s4.wav"
cp "$IN/s5.flac" "$T/a/s5.flac"
cp "$IN/s6.aiff" "$T/a/b/s6.aiff"
cp "$IN/s7.wav" "$T/s7.wav"
cp "$IN/s2.wav" "$T/a/b/s2copy.wav"
declare -A SRC=([s1]=s1.wav [a/s2]=a/s2.wav [a/b/s3]=a/b/s3.wav [s4]=s4.wav [a/s5]=a/s5.flac
                [a/b/s6]=a/b/s6.aiff [s7]=s7.wav [a/b/s2copy]=a/b/s2copy.wav)
ALL="${!SRC[*]}"
NFILES=${#SRC[@]}

REF=$WORK/ref
id_lame_refs "$REF" SRC $ALL

D=$OUT/out
rm -rf "$D"
M=$D/.ringlame-manifest
for s in 0 1 2; do
    id_run_logged "$WORK/sh$s" "${OPTS[@]}" --threads 2 --batch --shard "$s/3" --out-dir "$D" "$T"
    if [ "$RC" -eq 0 ] && grep -q "ringlame: batch: shard $s/3: " "$WORK/sh$s.stderr"; then
        id_ok "shard_$s"
    else
        id_fail "shard_$s" "exit $RC" "$(head -c 400 "$WORK/sh$s.stderr")"
    fi
done

# every input in exactly one part, as encoded; the parts' sizes balanced
if python3 - "$D" "$T" $NFILES <<'PY' 2>"$WORK/parts.err"
import json, os, sys
d, t, nfiles = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen = {}
sizes = []
for s in range(3):
    total = 0
    with open(os.path.join(d, ".ringlame-manifest.%d-of-3.jsonl" % s)) as f:
        for line in f:
            r = json.loads(line)
            assert r["status"] == "encoded", line
            assert r["input"] not in seen, "%s in shards %d and %d" % (r["input"], seen[r["input"]], s)
            seen[r["input"]] = s
            total += r["size"]
    sizes.append(total)
assert len(seen) == nfiles, "%d inputs in the parts, %d files" % (len(seen), nfiles)
largest = max(os.path.getsize(p) for p in seen)
avg = sum(sizes) / 3
assert max(sizes) <= avg + largest, "shard sizes %s, average %.0f, largest file %d" % (sizes, avg, largest)
assert min(sizes) > 0, "an empty shard: %s" % sizes
print("sizes", sizes, file=sys.stderr)
PY
then id_ok "union_once_balanced $(cat "$WORK/parts.err")"
else id_fail union_once_balanced "$(head -c 400 "$WORK/parts.err")"; fi

bad=""
for k in $ALL; do cmp -s "$REF/${k//\//_}.mp3" "$D/$k.mp3" || bad+=" $k"; done
[ -z "$bad" ] && id_ok outputs_are_lames || id_fail outputs_are_lames "differ or missing:$bad"
n=$(find "$D" -name '*.mp3' | wc -l)
[ "$n" -eq "$NFILES" ] && id_ok outputs_count || id_fail outputs_count "$n outputs for $NFILES inputs"
[ ! -e "$M.jsonl" ] && id_ok no_main_manifest_while_sharded \
    || id_fail no_main_manifest_while_sharded "a shard wrote $M.jsonl"

# ---- a rerun of one shard skips its files
ino() { find "$D" -name '*.mp3' -printf '%p %i\n' | sort; }
before=$(ino)
n1=$(wc -l <"$M.1-of-3.jsonl")
id_run_logged "$WORK/re1" "${OPTS[@]}" --threads 2 --batch --shard 1/3 --out-dir "$D" "$T"
if [ "$RC" -eq 0 ] && grep -q "ringlame: batch: 0 encoded, $n1 skipped, 0 failed" "$WORK/re1.stderr" \
   && [ "$before" = "$(ino)" ]; then
    id_ok rerun_skips
else
    id_fail rerun_skips "exit $RC" "$(tail -c 400 "$WORK/re1.stderr")"
fi

# ---- merge: one line per input; then a missing shard is named (exit 2)
# a second line for one input in a part: the merge keeps one
tail -n 1 "$M.0-of-3.jsonl" >>"$M.0-of-3.jsonl"
id_run_logged "$WORK/m1" --batch --merge-manifests --out-dir "$D"
lines=$(wc -l <"$M.jsonl" 2>/dev/null || echo 0)
uniq=$(python3 -c 'import json,sys; print(len({json.loads(l)["input"] for l in open(sys.argv[1])}))' "$M.jsonl" 2>/dev/null)
if [ "$RC" -eq 0 ] && [ "$lines" -eq "$NFILES" ] && [ "$uniq" = "$NFILES" ]; then
    id_ok merge_one_line_per_input
else
    id_fail merge_one_line_per_input "exit $RC, $lines lines, $uniq inputs" "$(head -c 400 "$WORK/m1.stderr")"
fi
id_run_logged "$WORK/m2" "${OPTS[@]}" --threads 2 --batch --out-dir "$D" "$T"
grep -q "ringlame: batch: 0 encoded, $NFILES skipped, 0 failed" "$WORK/m2.stderr" \
    && id_ok merged_manifest_resumes || id_fail merged_manifest_resumes "$(tail -c 300 "$WORK/m2.stderr")"
mv "$M.2-of-3.jsonl" "$WORK/part2"
id_run_logged "$WORK/m3" --batch --merge-manifests --out-dir "$D"
[ "$RC" -eq 2 ] && grep -q "shard 2/3 is missing" "$WORK/m3.stderr" && id_ok merge_names_missing \
    || id_fail merge_names_missing "exit $RC" "$(head -c 400 "$WORK/m3.stderr")"
mv "$WORK/part2" "$M.2-of-3.jsonl"

# ---- refused
for v in 3/3 1/0 x -1/2 1/ /2 "1/2/3"; do
    id_run_logged "$WORK/bad" "${OPTS[@]}" --batch --shard "$v" --out-dir "$D" "$T"
    [ "$RC" -eq 1 ] && grep -q "ringlame: --shard" "$WORK/bad.stderr" && id_ok "refused_$v" \
        || id_fail "refused_$v" "exit $RC" "$(head -c 300 "$WORK/bad.stderr")"
done
id_run_logged "$WORK/bad" "${OPTS[@]}" --shard 0/2 "$T/s1.wav"
[ "$RC" -eq 1 ] && grep -q "option of --batch" "$WORK/bad.stderr" && id_ok shard_needs_batch \
    || id_fail shard_needs_batch "exit $RC"
[ -z "$(find "$T" -name '*.mp3')" ] && id_ok refused_wrote_nothing \
    || id_fail refused_wrote_nothing "outputs beside the inputs"

id_summary
