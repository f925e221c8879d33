#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Injected failures (tests/fault_inject.c, preloaded), one set per run of
# this script (RL_INJECT):
#   alloc (the default): every allocation ringlame's own code makes (dav1d's
#     approach): the Nth fails, N from 1 until an encode needs fewer than N;
#     and every read past the input's header (a read error mid-input);
#   threads: every pthread_create, pthread_mutex_init and pthread_cond_init
#     ringlame's own code makes, the Nth failing in turn (single files,
#     --sequential, stdin/stdout, --trace, --batch and --nogap);
#   uring: the io_uring ring itself failing at its Nth submit-and-wait with
#     reads and writes in the kernel (the preloaded library aborts the run
#     if the ring is torn down while the kernel still holds any of them).
# Every run must end with lame's bytes (exit 0) or with a clear error, exit
# 1..123 and no output file: never a crash, a hang, a partial or wrong file.
# usage: [RL_INJECT=alloc|threads|uring] inject_faults.sh RINGLAME GEN_SIGNAL FAULT_INJECT_SO [WORKDIR]
# Exits 77 (skipped) when lame is missing, and in the uring set when
# io_uring does not run here (a build without liburing, or a kernel that
# refuses it); a mode whose count comes back empty or zero otherwise (the
# preloaded library did not run) is a failure, and so is a run that
# checked nothing.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
RL=$1 GEN=$2 SO=$3
WORK=${4:-$(mktemp -d "${TMPDIR:-/tmp}/rl-inject-faults.XXXXXX")}
LAME=${LAME:-/usr/bin/lame}
[ -x "$LAME" ] || { echo "skip (inject_faults): $LAME not found"; exit 77; }
mkdir -p "$WORK" && cd "$WORK" || exit 1
"$GEN" -t mix -d 1 -S 5 in.wav >/dev/null || exit 1
pass=0 fail=0

# lame_opts (the options without ringlame's own) comes from the identity
# suite's helpers; sourcing them defines functions only
. "$HERE/identity/lib.sh"

# fault_vars: at, report and key of the set FAULT names
fault_vars() {
    case ${FAULT:-alloc} in
    read)    at=RL_FAIL_READ_AT report=RL_FAIL_READ_REPORT key=reads
             export RL_FAIL_READ_FROM=4096 ;;   # past the header: an error mid-input
    pthread) at=RL_FAIL_PTHREAD_AT report=RL_FAIL_PTHREAD_REPORT key="pthread inits" ;;
    uring)   at=RL_FAIL_URING_AT report=RL_FAIL_URING_REPORT key="uring waits" ;;
    *)       at=RL_FAIL_ALLOC_AT report=RL_FAIL_ALLOC_REPORT key=allocations ;;
    esac
}

# run_mode NAME OPTS...   (NAME stdin*: input from stdin, stdout*: output
# to stdout; FAULT=read: failing reads instead of allocations, FAULT=pthread
# thread set-up, FAULT=uring the io_uring ring)
run_mode() {
    local name=$1; shift
    local n total rc at report key
    fault_vars
    lame_opts "$@"
    "$LAME" --quiet "${LOPTS[@]}" in.wav ref.mp3 2>/dev/null
    "$LAME" --quiet "${LOPTS[@]}" in.wav - >ref_stdout.mp3 2>/dev/null
    total=$(env "$report=1" LD_PRELOAD="$SO" "$RL" --quiet --threads 2 "$@" in.wav cnt.mp3 2>&1 >/dev/null \
            | sed -n "s/^$key: //p")
    case $total in
    ''|*[!0-9]*|0)
        if [ "${FAULT:-}" = uring ] && [ "$total" = 0 ]; then
            echo "skip $name: io_uring does not run here (no submit-and-wait was made)"
            uring_absent=1
        else
            echo "FAIL $name: no count of $key from $SO (got '$total')"; fail=$((fail + 1))
        fi
        unset RL_FAIL_READ_FROM
        return ;;
    esac
    for ((n = 1; n <= total + 2; n++)); do
        for rep in 1 2; do   # the ring's threads allocate in varying order
            rm -f out.mp3
            case $name in
            stdin*)  env "$at=$n" LD_PRELOAD="$SO" timeout 20 "$RL" --quiet "$@" - out.mp3 <in.wav 2>err.txt ;;
            stdout*) env "$at=$n" LD_PRELOAD="$SO" timeout 20 "$RL" --quiet "$@" in.wav - <in.wav >out.mp3 2>err.txt ;;
            *)       env "$at=$n" LD_PRELOAD="$SO" timeout 20 "$RL" --quiet "$@" in.wav out.mp3 </dev/null 2>err.txt ;;
            esac
            rc=$?
            if [ $rc -eq 0 ]; then
                case $name in stdout*) cmp -s out.mp3 ref_stdout.mp3 ;;
                               *) cmp -s out.mp3 ref.mp3 ;; esac \
                    || { echo "FAIL $name n=$n: exit 0 but not lame's bytes"; fail=$((fail + 1)); continue; }
            elif [ $rc -ge 124 ] && [ $rc -ne 255 ]; then   # 255: lame's status for an input or output it cannot open
                echo "FAIL $name n=$n: crash or hang (exit $rc): $(head -c 200 err.txt)"; fail=$((fail + 1)); continue
            elif [ ! -s err.txt ]; then
                echo "FAIL $name n=$n: exit $rc without a message"; fail=$((fail + 1)); continue
            elif [ -e out.mp3 ] && case $name in stdout*) false ;; *) true ;; esac; then
                # --trace: a trace that failed leaves the complete MP3 and says so
                case $name in *trace*)
                    if cmp -s out.mp3 ref.mp3 && grep -q 'is complete' err.txt; then
                        pass=$((pass + 1)); continue
                    fi ;;
                esac
                echo "FAIL $name n=$n: exit $rc but the output file exists"; fail=$((fail + 1)); continue
            fi
            pass=$((pass + 1))
            case $name in seq*|stdin*|stdout*) break ;; esac   # deterministic: once is enough
        done
    done
    echo "ok   $name: each of $key 1 to $((total + 2)) made to fail in turn"
    unset RL_FAIL_READ_FROM
}

# run_set NAME KIND OPTS...: the thread-set-up failures of --batch (KIND
# batch: in.wav into out/, the manifest beside it) and --nogap (KIND nogap:
# in.wav and in2.wav into out/): every output lame's or none
run_set() {
    local name=$1 kind=$2; shift 2
    local n total rc at report key files ok
    fault_vars
    lame_opts "$@"
    rm -rf refset && mkdir -p refset
    if [ "$kind" = nogap ]; then
        files="in.wav in2.wav"
        "$LAME" --quiet "${LOPTS[@]}" --nogapout refset --nogap in.wav in2.wav 2>/dev/null
    else
        files="in.wav"
        "$LAME" --quiet "${LOPTS[@]}" in.wav refset/in.mp3 2>/dev/null
    fi
    set_cmd() {   # the command with the set's own options, into out/
        rm -rf out && mkdir -p out
        if [ "$kind" = nogap ]; then
            "$@" --quiet --threads 2 "${OPTS[@]}" --nogapout out --nogap $files
        else
            "$@" --quiet --threads 2 "${OPTS[@]}" --batch --out-dir out $files
        fi
    }
    OPTS=("$@")
    total=$(set_cmd env "$report=1" LD_PRELOAD="$SO" "$RL" 2>&1 >/dev/null </dev/null \
            | sed -n "s/^$key: //p" | tail -n 1)
    case $total in
    ''|*[!0-9]*|0)
        echo "FAIL $name: no count of $key from $SO (got '$total')"; fail=$((fail + 1)); return ;;
    esac
    for ((n = 1; n <= total + 2; n++)); do
        set_cmd env "$at=$n" LD_PRELOAD="$SO" timeout 30 "$RL" </dev/null >/dev/null 2>err.txt
        rc=$?
        ok=1
        for f in $files; do
            local mp3=out/${f%.wav}.mp3
            if [ $rc -eq 0 ]; then
                cmp -s "$mp3" "refset/${f%.wav}.mp3" || { echo "FAIL $name n=$n: exit 0 but $mp3 is not lame's"; ok=0; }
            elif [ -e "$mp3" ] && ! cmp -s "$mp3" "refset/${f%.wav}.mp3"; then
                echo "FAIL $name n=$n: exit $rc and $mp3 is left, not lame's"; ok=0
            fi
        done
        if [ $rc -ge 124 ] && [ $rc -ne 255 ]; then
            echo "FAIL $name n=$n: crash or hang (exit $rc): $(head -c 200 err.txt)"; ok=0
        elif [ $rc -ne 0 ] && [ ! -s err.txt ]; then
            echo "FAIL $name n=$n: exit $rc without a message"; ok=0
        fi
        if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    done
    echo "ok   $name: each of $key 1 to $((total + 2)) made to fail in turn"
}

uring_absent=0
case ${RL_INJECT:-alloc} in
threads)
    "$GEN" -t sweep -d 1 -S 6 in2.wav >/dev/null || exit 1
    FAULT=pthread run_mode threads_ring_V2 -V 2
    FAULT=pthread run_mode threads_ring_cbr --threads 3
    FAULT=pthread run_mode threads_ring_abr_trace --abr 160 --trace trace.json
    FAULT=pthread run_mode threads_seq_cbr --sequential
    FAULT=pthread run_mode stdin_threads_V4 -V 4
    FAULT=pthread run_mode stdout_threads_cbr
    FAULT=pthread run_set threads_batch batch -V 2
    FAULT=pthread run_set threads_nogap nogap -V 4 ;;
uring)
    "$GEN" -t mix -d 8 -S 5 in.wav >/dev/null || exit 1   # many reads and writes in flight
    FAULT=uring run_mode uring_ring_V2 -V 2
    [ $uring_absent = 1 ] && { echo "skip (inject_faults uring): io_uring does not run here"; exit 77; }
    FAULT=uring run_mode uring_ring_cbr --threads 3 -b 320
    FAULT=uring run_mode uring_ring_abr --abr 160 ;;
*)
    run_mode ring_V2 -V 2
    run_mode ring_cbr
    run_mode ring_abr --abr 160 --threads 3
    run_mode ring_1thread_cbr --threads 1 -b 320
    run_mode seq_cbr --sequential
    run_mode stdin_V4 -V 4 --sequential
    run_mode stdout_cbr --sequential
    FAULT=read run_mode read_ring_V2 -V 2
    FAULT=read run_mode read_ring_cbr --threads 3
    FAULT=read run_mode read_seq_abr --sequential --abr 160
    FAULT=read run_mode stdin_read_V4 -V 4 --sequential ;;
esac
[ $((pass + fail)) -gt 0 ] || { echo "FAIL inject_faults: no case ran"; fail=1; }
echo "inject_faults: $pass passed, $fail failed"
[ $fail -eq 0 ]
