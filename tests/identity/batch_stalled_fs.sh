#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/batch_stalled_fs: --batch over a real stalled mount (a FUSE file
# system that stops answering, tests/identity/stalled_fs.py; a hung network
# mount): the calls block in the kernel, not in a FIFO.
#  - the walk itself stalls (a folder of the tree is the mount: its stat
#    never returns): --stall-timeout reports the path, exit 2, nothing
#    encoded, in bounded time; without a limit the first SIGTERM ends it;
#  - a file whose reads block in the kernel (the mount answers lookups and
#    opens, never a read): the file is given up on after --stall-timeout and
#    recorded as failed, the other files are lame's bytes, and the process
#    ends (exit 2) although a thread of it is still in that read; the first
#    SIGTERM ends such a batch too.
# Needs root and /dev/fuse (the mounts live in a private mount namespace,
# gone with the test): exits 77 (skipped) otherwise.
if [ -z "${RL_STALLED_NS:-}" ]; then
    [ "$(id -u)" = 0 ] && [ -c /dev/fuse ] && command -v unshare >/dev/null \
        || { echo "skip (batch_stalled_fs): needs root, /dev/fuse and unshare"; exit 77; }
    RL_STALLED_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
id_init "$@"
command -v python3 >/dev/null || id_skip "python3 runs the stalled file system"
FS=$(dirname "$0")/stalled_fs.py
SERVERS=()
trap 'for p in "${SERVERS[@]}"; do kill "$p" 2>/dev/null; done' EXIT

# mount_stalled MODE DIR ARGS...: the stalled file system at DIR
mount_stalled() {
    local mode=$1 dir=$2; shift 2
    mkdir -p "$dir"
    rm -f "$WORK/ready"
    python3 "$FS" "$mode" "$dir" "$WORK/ready" "$@" 2>"$WORK/fs.err" &
    SERVERS+=($!)
    for _ in $(seq 100); do [ -e "$WORK/ready" ] && return 0; sleep 0.1; done
    id_die "the stalled file system did not come up: $(head -c 300 "$WORK/fs.err")"
}

OPTS=(-V 2)
gen a.wav -t mix -d 2 -S 31
gen b.wav -t sine -d 2
for k in a b; do
    "$LAME" --quiet "${OPTS[@]}" "$IN/$k.wav" "$WORK/$k.ref.mp3" </dev/null >/dev/null 2>&1 \
        || id_fail "lame $k" "the reference encode failed"
done

# bounded NAME WANT_RC LIMIT_S: the last run's status and time
bounded() {
    if [ "$RC" -eq "$2" ] && [ "$DT" -le "$3" ]; then id_ok "$1 (exit $RC in $DT s)"
    else id_fail "$1" "exit $RC after $DT s (expected $2 within $3 s)" "$(tail -c 500 "$WORK/run.stderr")"; fi
}
# run_batch ARGS...: ringlame --batch in the background; PID
run_batch() {
    T0=$(date +%s)
    timeout 120 "$RL" "${OPTS[@]}" --batch "$@" </dev/null >"$WORK/run.stdout" 2>"$WORK/run.stderr" &
    PID=$!
}
finish() { wait "$PID"; RC=$?; DT=$(( $(date +%s) - T0 )); }

# ---- the walk stalls: a folder of the tree is a mount that answers nothing
T=$OUT/walk
mkdir -p "$T"
cp "$IN/a.wav" "$T/a.wav"
mount_stalled all "$T/mnt"
run_batch --stall-timeout 2 --out-dir "$OUT/walk-out" "$T"; finish
bounded walk_stall_bounded 2 20
grep -q "the walk of the inputs stalled at $T/mnt: no progress for [0-9]* s" "$WORK/run.stderr" \
    && id_ok walk_stall_reported \
    || id_fail walk_stall_reported "no message naming $T/mnt" "$(head -c 400 "$WORK/run.stderr")"
[ ! -e "$OUT/walk-out/a.mp3" ] && id_ok walk_stall_nothing_encoded \
    || id_fail walk_stall_nothing_encoded "a.mp3 was written"
# without a limit (the default 120 s) the first SIGTERM ends the walk
run_batch --out-dir "$OUT/walk-out2" "$T"
sleep 2; kill -TERM "$PID"; finish
bounded walk_stall_sigterm 143 10

# ---- a read that blocks in the kernel, in a walked tree
R=$OUT/read
mkdir -p "$R"
cp "$IN/a.wav" "$R/a.wav"; cp "$IN/b.wav" "$R/zz.wav"
mount_stalled read "$R/mnt" stalled.wav 2000000
run_batch --threads 2 --stall-timeout 2 --out-dir "$OUT/read-out" "$R"; finish
bounded read_stall_bounded 2 40
grep -q "stalled.wav: stalled: no progress for" "$WORK/run.stderr" && id_ok read_stall_reported \
    || id_fail read_stall_reported "no message" "$(tail -c 400 "$WORK/run.stderr")"
bad=""
cmp -s "$WORK/a.ref.mp3" "$OUT/read-out/a.mp3" || bad+=" a"
cmp -s "$WORK/b.ref.mp3" "$OUT/read-out/zz.mp3" || bad+=" zz"
[ -z "$bad" ] && id_ok read_stall_others_encoded \
    || id_fail read_stall_others_encoded "differ from lame's or missing:$bad"
grep -q '"status":"failed".*stalled\|stalled.*"status":"failed"' "$OUT/read-out/.ringlame-manifest.jsonl" \
    2>/dev/null && grep -q 'mnt/stalled.wav' "$OUT/read-out/.ringlame-manifest.jsonl" \
    && id_ok read_stall_recorded \
    || id_fail read_stall_recorded "the manifest does not record the stalled file as failed" \
        "$(head -c 600 "$OUT/read-out/.ringlame-manifest.jsonl" 2>/dev/null)"
# no limit: the first SIGTERM ends a batch whose file is in such a read
run_batch --threads 2 --out-dir "$OUT/read-out2" "$R/mnt"
sleep 3; kill -TERM "$PID"; finish
bounded read_stall_sigterm 143 10
[ -z "$(find "$OUT/read-out2" -name '*.mp3' -o -name '.ringlame-*.tmp' 2>/dev/null)" ] \
    && id_ok read_stall_sigterm_nothing_left \
    || id_fail read_stall_sigterm_nothing_left "$(find "$OUT/read-out2" -type f)"

id_summary
