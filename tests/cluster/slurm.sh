#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# cluster/slurm: the Slurm recipe of docs/cluster.md, run for real.  Starts
# munged and a one-node Slurm cluster on this machine (a private slurm.conf,
# state, sockets and logs in a temporary folder; free TCP ports), submits a
# 3-task job array (sbatch --array=0-2 --wait) in which each task runs
# `ringlame --batch --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`
# over a small generated corpus, merges the manifest parts and checks that
# every output exists exactly once, byte-identical to lame's, that each task
# encoded a share and that the shares do not overlap.  Every daemon it
# started is stopped on exit (trap).
#
#   bash slurm.sh RINGLAME GEN_SIGNAL [WORKDIR]
#
# Debian's slurm-wlm and munge are installed with apt-get when missing (as
# root; installing is not counted in the time limit).  Skipped (exit 77):
# not root (slurmd runs the tasks as their user and needs root here), no
# apt-get, or the installation failed.  Environment: RL_SLURM_LIMIT=s (the
# time limit after the installation, default 240 s).
. "$(dirname "$0")/../identity/lib.sh"
id_init "$@"

[ "$(id -u)" = 0 ] || id_skip "not root: cannot install or run slurmd and munged here"
need() {
    local c
    for c in slurmctld slurmd sbatch scontrol sinfo squeue scancel munged munge unmunge; do
        command -v "$c" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin command -v "$c" >/dev/null 2>&1 \
            || return 1
    done
}
export PATH=$PATH:/usr/sbin:/sbin
if ! need; then
    command -v apt-get >/dev/null || id_skip "slurm-wlm and munge are missing and there is no apt-get"
    echo "installing slurm-wlm and munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    if ! timeout 600 apt-get install -y --no-install-recommends slurm-wlm munge \
            >"$WORK/apt.log" 2>&1; then
        timeout 300 apt-get update >>"$WORK/apt.log" 2>&1
        timeout 600 apt-get install -y --no-install-recommends slurm-wlm munge \
            >>"$WORK/apt.log" 2>&1 \
            || id_skip "apt-get could not install slurm-wlm and munge: $(tail -n 3 "$WORK/apt.log" | tr '\n' ' ')"
    fi
    need || id_skip "slurm-wlm and munge installed, but a command is missing"
fi
command -v python3 >/dev/null || id_skip "no python3 (free ports, JSON)"

LIMIT=${RL_SLURM_LIMIT:-240}
DEADLINE=$((SECONDS + LIMIT))
left() { local l=$((DEADLINE - SECONDS)); [ $l -gt 1 ] && echo $l || echo 1; }

# the daemons' folder: short (the munge socket's path must fit a sockaddr_un)
D=$(mktemp -d /tmp/rl-slurm.XXXXXX) || id_die "mktemp failed"
chmod 700 "$D"
PIDFILES=("$D/slurmd.pid" "$D/slurmctld.pid" "$D/munged.pid")
FAILED_LOGS=0

show_logs() {
    local f
    for f in "$D"/munged.log "$D"/slurmctld.log "$D"/slurmd.log "$D"/task-*.log "$D"/sbatch.err; do
        [ -s "$f" ] || continue
        echo "----- $f (last 40 lines)"
        tail -n 40 "$f"
    done
}

stop_all() {
    local f pid n
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
        timeout 10 scancel --full --quiet --user=root >/dev/null 2>&1
    fi
    for f in "${PIDFILES[@]}"; do
        [ -s "$f" ] || continue
        pid=$(cat "$f")
        case $pid in ''|*[!0-9]*) continue ;; esac
        kill -TERM "$pid" 2>/dev/null || continue
        for n in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
    done
    { [ "$FAILED_LOGS" = 1 ] || [ "$ID_FAIL" -gt 0 ]; } && show_logs
    rm -rf "$D"
}
trap stop_all EXIT
trap 'exit 1' INT TERM

fatal() {  # a step of the setup failed: the logs, then the verdict
    FAILED_LOGS=1
    id_die "$*"
}

# wait_for SECONDS CMD...: CMD until it succeeds, at most SECONDS
wait_for() {
    local until=$((SECONDS + $1)); shift
    while [ $SECONDS -lt $until ]; do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.5
    done
    return 1
}

# ---- munge: a private key, socket, pid file and log ----
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$D/munge.key"
timeout 20 munged --force --socket="$D/munge.sock" --key-file="$D/munge.key" \
    --pid-file="$D/munged.pid" --log-file="$D/munged.log" --seed-file="$D/munged.seed" \
    >"$D/munged.out" 2>&1 || fatal "munged did not start: $(cat "$D/munged.out")"
wait_for 10 sh -c "munge -n -S '$D/munge.sock' | unmunge -S '$D/munge.sock'" \
    || fatal "munge does not answer on $D/munge.sock"

# ---- Slurm: one node, this machine ----
H=$(hostname -s)
CPUS=$(nproc)
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p "$D/state" "$D/spool"
: >"$D/plugstack.conf"
export SLURM_CONF=$D/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=rltest
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$D/munge.sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$D/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
MinJobAge=300
NodeName=$H NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=rltest Nodes=$H Default=YES MaxTime=10 State=UP
EOF
timeout 30 slurmctld -c -f "$SLURM_CONF" >"$D/slurmctld.out" 2>&1 \
    || fatal "slurmctld did not start: $(cat "$D/slurmctld.out")"
wait_for 30 scontrol ping || fatal "slurmctld does not answer (scontrol ping)"
timeout 30 slurmd -c -f "$SLURM_CONF" >"$D/slurmd.out" 2>&1 \
    || fatal "slurmd did not start: $(cat "$D/slurmd.out")"
wait_for 40 sh -c 'sinfo -h -N -o %T | grep -qx idle' \
    || fatal "the node is not idle: $(sinfo -N 2>&1 | tr '\n' ' ')"
id_ok "one-node cluster up ($H, $CPUS CPUs, slurmctld port $CTLD_PORT)"

# ---- the corpus and lame's references ----
C=$WORK/corpus; M=$WORK/mp3; REF=$WORK/ref
rm -rf "$C" "$M" "$REF"; mkdir -p "$C/a/b" "$C/c" "$REF"
gen k1.wav -t mix -d 3 -S 31
gen k2.wav -t pink -d 2 -S 32
gen k3.flac -t mix -d 2 -f flac -S 33
gen k4.wav -t sine -d 1 -c 1 -r 22050
gen k5.aiff -t mix -d 2 -f aiff -S 35
gen k6.wav -t white -d 1 -S 36
cp "$IN/k1.wav" "$C/k1.wav"; cp "$IN/k2.wav" "$C/a/k2.wav"; cp "$IN/k3.flac" "$C/a/b/k3.flac"
cp "$IN/k4.wav" "$C/c/k4.wav"; cp "$IN/k5.aiff" "$C/c/k5.aiff"; cp "$IN/k6.wav" "$C/a/k6.wav"
OUTS="k1 a/k2 a/b/k3 c/k4 c/k5 a/k6"
OPTS=(-V 2)
for k in $OUTS; do
    src=$(ls "$C/$k".*)
    "$LAME" --quiet "${OPTS[@]}" "$src" "$REF/${k//\//_}.mp3" </dev/null >/dev/null 2>&1 \
        || id_die "lame failed on $src"
done

# ---- the job array: the recipe of docs/cluster.md ----
cat >"$D/encode.sbatch" <<EOF
#!/bin/bash
set -euo pipefail
exec $(id_q "$RL") ${OPTS[*]} --threads 1 --batch \\
    --shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT" --out-dir $(id_q "$M") $(id_q "$C")
EOF
timeout "$(left)" sbatch --wait --array=0-2 --time=2 --job-name=ringlame \
    --output="$D/task-%A_%a.log" --chdir="$WORK" "$D/encode.sbatch" \
    >"$D/sbatch.out" 2>"$D/sbatch.err"
RC=$?
if [ $RC -ne 0 ]; then
    FAILED_LOGS=1
    id_fail sbatch_array "sbatch --array=0-2 --wait: exit $RC$([ $RC -eq 124 ] && echo ' (time limit)')" \
        "$(cat "$D/sbatch.out" "$D/sbatch.err")"
else
    id_ok "sbatch_array ($(head -n 1 "$D/sbatch.out"))"
fi

# each task saw its id and the array's size
bad=""
for k in 0 1 2; do
    grep -qs "ringlame: batch: shard $k/3: " "$D"/task-*_"$k".log || bad+=" $k"
done
if [ -n "$bad" ]; then
    FAILED_LOGS=1
    id_fail tasks_shards "no 'shard K/3' line from the task(s):$bad"
else
    id_ok "tasks_shards ($(cat "$D"/task-*.log | grep -o 'shard [0-9]/3: [0-9]* of [0-9]* files' | tr '\n' ';'))"
fi

# the parts: every input in exactly one, each encoded
if python3 - "$M" 6 <<'PY' >"$WORK/parts.out" 2>&1
import json, sys, os
d, want = sys.argv[1], int(sys.argv[2])
seen = {}
for k in range(3):
    p = os.path.join(d, ".ringlame-manifest.%d-of-3.jsonl" % k)
    assert os.path.exists(p), "no part " + p
    for line in open(p):
        r = json.loads(line)
        assert r["status"] == "encoded", line
        assert r["input"] not in seen, "%s in parts %d and %d" % (r["input"], seen[r["input"]], k)
        seen[r["input"]] = k
assert len(seen) == want, "%d inputs in the parts, want %d" % (len(seen), want)
print(" ".join("%d:%d" % (k, list(seen.values()).count(k)) for k in range(3)))
PY
then id_ok "parts_once (files per shard $(cat "$WORK/parts.out"))"
else FAILED_LOGS=1; id_fail parts_once "$(cat "$WORK/parts.out")"; fi

# the merge, then every output once and lame's bytes
timeout "$(left)" "$RL" --batch --merge-manifests --out-dir "$M" >"$WORK/merge.log" 2>&1
RC=$?
n=$(grep -c . "$M/.ringlame-manifest.jsonl" 2>/dev/null)
if [ $RC -ne 0 ] || [ "$n" != 6 ]; then
    id_fail merge "exit $RC, ${n:-no} lines in the manifest (want 6)" "$(cat "$WORK/merge.log")"
else
    id_ok merge
fi
bad=""
for k in $OUTS; do
    cmp -s "$REF/${k//\//_}.mp3" "$M/$k.mp3" || bad+=" $k"
done
extra=$([ -d "$M" ] && cd "$M" && find . -type f ! -name '.ringlame-manifest*' | sort | sed 's|^\./||' \
        | grep -vxF -f <(for k in $OUTS; do echo "$k.mp3"; done))
if [ -n "$bad" ]; then
    id_fail outputs_identical "missing or not lame's bytes:$bad"
elif [ -n "$extra" ]; then
    id_fail outputs_identical "unexpected files in the output folder: $extra"
else
    id_ok "outputs_identical (6 files, byte-identical to lame's)"
fi
# ---- a tree changed mid-array: the stored plan holds ----
# task 0 plans and encodes its share, then removes a file of another share
# and adds one; tasks 1 and 2 start their batch only then (they wait for its
# mark).  Then the merge, and the same recipe again plans anew.
C2=$WORK/corpus2; M2=$WORK/mp3-2
rm -rf "$C2" "$M2" "$D/changed" "$D/gone"; cp -r "$C" "$C2"
cat >"$D/changed.sbatch" <<EOF
#!/bin/bash
set -uo pipefail
run() {
    $(id_q "$RL") ${OPTS[*]} --threads 1 --batch \\
        --shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT" --out-dir $(id_q "$M2") $(id_q "$C2")
}
if [ "\$SLURM_ARRAY_TASK_ID" = 0 ]; then
    run; rc=\$?
    python3 $(id_q "$D/pick_gone.py") $(id_q "$M2/.ringlame-plan.3.jsonl") >$(id_q "$D/gone")
    rm -f "\$(cat $(id_q "$D/gone"))"
    cp $(id_q "$IN/k6.wav") $(id_q "$C2/added.wav")
    touch $(id_q "$D/changed")
    exit \$rc
fi
for i in \$(seq 600); do [ -e $(id_q "$D/changed") ] && break; sleep 0.1; done
run
EOF
cat >"$D/pick_gone.py" <<'PY'
import json, sys
plan = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[1:]]
print([e["input"] for e in plan if e["shard"] != 0][0])
PY
timeout "$(left)" sbatch --wait --array=0-2 --time=2 --job-name=ringlame-changed \
    --output="$D/task2-%A_%a.log" --chdir="$WORK" "$D/changed.sbatch" \
    >"$D/sbatch2.out" 2>"$D/sbatch2.err"
RC=$?
gone=$(cat "$D/gone" 2>/dev/null)
if [ $RC -ne 0 ] && [ -n "$gone" ] && [ ! -e "$gone" ] \
   && grep -qs "added.wav: not in the shard plan" "$D"/task2-*_1.log \
   && grep -qs "added.wav: not in the shard plan" "$D"/task2-*_2.log \
   && grep -qs "$(basename "$gone"): planned for shard .* but no longer in the corpus" "$D"/task2-*.log; then
    id_ok "changed_tree_reported (sbatch exit $RC; ${gone#"$C2"/} removed, added.wav added mid-array)"
else
    FAILED_LOGS=1
    id_fail changed_tree_reported "sbatch exit $RC, gone '$gone'" "$(tail -n 8 "$D"/task2-*.log 2>/dev/null)"
fi
if python3 - "$M2" "$gone" <<'PY' >"$WORK/parts2.out" 2>&1
import json, sys, os
d, gone = sys.argv[1], sys.argv[2]
plan = [json.loads(l) for l in open(os.path.join(d, ".ringlame-plan.3.jsonl")).read().splitlines()[1:]]
enc = {}
for k in range(3):
    for line in open(os.path.join(d, ".ringlame-manifest.%d-of-3.jsonl" % k)):
        r = json.loads(line)
        if r["status"] == "encoded":
            assert r["input"] not in enc, "%s encoded by shards %d and %d" % (r["input"], enc[r["input"]], k)
            enc[r["input"]] = k
for e in plan:
    if e["input"] != gone:
        assert enc.get(e["input"]) == e["shard"], \
            "%s: planned for %d, encoded by %s" % (e["input"], e["shard"], enc.get(e["input"]))
assert gone not in enc and not any(i.endswith("added.wav") for i in enc), enc
print(len(enc))
PY
then id_ok "changed_tree_plan_kept ($(cat "$WORK/parts2.out") planned files, each encoded once, by its share)"
else FAILED_LOGS=1; id_fail changed_tree_plan_kept "$(cat "$WORK/parts2.out")"; fi
timeout "$(left)" "$RL" --batch --merge-manifests --out-dir "$M2" >"$WORK/merge2.log" 2>&1
RC=$?
[ $RC -eq 0 ] && grep -q "plan removed" "$WORK/merge2.log" && id_ok changed_tree_merge \
    || id_fail changed_tree_merge "exit $RC (want 0: the gone file is recorded as failed)" "$(cat "$WORK/merge2.log")"
sed "s|$(id_q "$M") $(id_q "$C")|$(id_q "$M2") $(id_q "$C2")|" "$D/encode.sbatch" >"$D/again.sbatch"
timeout "$(left)" sbatch --wait --array=0-2 --time=2 --job-name=ringlame-again \
    --output="$D/task3-%A_%a.log" --chdir="$WORK" "$D/again.sbatch" >/dev/null 2>"$D/sbatch3.err"
RC=$?
enc=0
for f in "$D"/task3-*.log; do
    e=$(sed -n 's/^ringlame: batch: \([0-9]*\) encoded.*/\1/p' "$f")
    enc=$((enc + ${e:-0}))
done
if [ $RC -eq 0 ] && [ "$enc" -eq 1 ] && cmp -s "$REF/a_k6.mp3" "$M2/added.mp3"; then
    id_ok "changed_tree_replanned (the added file encoded once, lame's bytes; nothing else redone)"
else
    FAILED_LOGS=1
    id_fail changed_tree_replanned "sbatch exit $RC, $enc files encoded (want 1)" "$(tail -n 5 "$D"/task3-*.log 2>/dev/null)"
fi

[ $SECONDS -le $DEADLINE ] || id_fail time_limit "the test took more than $LIMIT s after the installation"

id_summary
