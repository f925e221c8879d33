#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Injected failures (tests/fault_inject.c, preloaded):
#   - every allocation ringlame's own code makes (dav1d's approach): the Nth
#     fails, N from 1 until an encode needs fewer than N;
#   - every read past the input's header (a read error mid-input).
# Every run must end with lame's bytes (exit 0) or with a clear error, exit
# 1..123 and no output file: never a crash, a hang, a partial or wrong file.
# usage: inject_faults.sh RINGLAME GEN_SIGNAL FAULT_INJECT_SO [WORKDIR]
# Exits 77 (skipped) when lame is missing; a mode whose count of
# allocations or reads comes back empty or zero (the preloaded library did
# not run) is a failure, and so is a run that checked nothing.
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

# run_mode NAME OPTS...   (NAME stdin*: input from stdin, stdout*: output
# to stdout; FAULT=read: failing reads instead of allocations)
run_mode() {
    local name=$1; shift
    local n total rc at=RL_FAIL_ALLOC_AT report=RL_FAIL_ALLOC_REPORT key=allocations
    if [ "${FAULT:-alloc}" = read ]; then
        at=RL_FAIL_READ_AT report=RL_FAIL_READ_REPORT key=reads
        export RL_FAIL_READ_FROM=4096    # past the header: an error mid-input
    fi
    lame_opts "$@"
    "$LAME" --quiet "${LOPTS[@]}" in.wav ref.mp3 2>/dev/null
    "$LAME" --quiet "${LOPTS[@]}" in.wav - >ref_stdout.mp3 2>/dev/null
    total=$(env "$report=1" LD_PRELOAD="$SO" "$RL" --quiet --threads 2 "$@" in.wav cnt.mp3 2>&1 >/dev/null \
            | sed -n "s/^$key: //p")
    case $total in
    ''|*[!0-9]*|0)
        echo "FAIL $name: no count of $key from $SO (got '$total')"; fail=$((fail + 1))
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
            elif [ $rc -ge 124 ]; then
                echo "FAIL $name n=$n: crash or hang (exit $rc): $(head -c 200 err.txt)"; fail=$((fail + 1)); continue
            elif [ ! -s err.txt ]; then
                echo "FAIL $name n=$n: exit $rc without a message"; fail=$((fail + 1)); continue
            elif [ -e out.mp3 ] && case $name in stdout*) false ;; *) true ;; esac; then
                echo "FAIL $name n=$n: exit $rc but the output file exists"; fail=$((fail + 1)); continue
            fi
            pass=$((pass + 1))
            case $name in seq*|stdin*|stdout*) break ;; esac   # deterministic: once is enough
        done
    done
    echo "ok   $name: each of $key 1 to $((total + 2)) made to fail in turn"
    unset RL_FAIL_READ_FROM
}

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
FAULT=read run_mode stdin_read_V4 -V 4 --sequential
[ $((pass + fail)) -gt 0 ] || { echo "FAIL inject_faults: no case ran"; fail=1; }
echo "inject_faults: $pass passed, $fail failed"
[ $fail -eq 0 ]
