#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/interrupt: Ctrl-C, SIGTERM and the other fatal signals during an encode.  A several-minute
# input is encoded on the ring (--threads 2) and signalled after ~0.5 s:
# ringlame must exit 130 (SIGINT) / 143 (SIGTERM) with a message, leave no
# output and no temporary file, leave the input untouched, and stop soon
# after the signal (the ring drains; it does not finish the file).  A second
# SIGINT and --sequential exit at once, also without leftovers.
# Environment: RL_STOP_LIMIT=s  longest time from the signal to the exit (3).
. "$(dirname "$0")/lib.sh"
id_init "$@"
set -m    # job control: background jobs get SIGINT (not SIG_IGN, as in plain scripts)
STOP_LIMIT=${RL_STOP_LIMIT:-3}

gen long.wav -t pink -d 360 -S 11 || { id_summary; exit 1; }
SUM=$(sha256sum <"$IN/long.wav")

now() { echo "${EPOCHREALTIME/,/.}"; }

# interrupt NAME EXPECTED_RC MESSAGE SIGNALS OPTS...   (SIGNALS: e.g. "INT" or "INT INT")
#   MESSAGE: a regular expression stderr must match: "no output written" after
#   the ring drained, "exiting at once" for the immediate exit
interrupt() {
    local name=$1 want=$2 msg=$3 sigs=$4; shift 4
    local dir=$OUT/$name pid rc t_sig t_end left s waited=0
    mkdir -p "$dir"
    "$RL" "$@" "$IN/long.wav" "$dir/out.mp3" </dev/null >"$dir.stdout" 2>"$dir.stderr" &
    pid=$!
    # the signals are blocked (the signal thread waits for them) before the
    # output exists; on a loaded machine that can take a while: wait for it
    # (/proc/PID/status SigBlk), then let the encode run a little
    for _ in $(seq 100); do
        grep -q '^SigBlk:[[:space:]]*0*[1-9a-f]' "/proc/$pid/status" 2>/dev/null && break
        sleep 0.05
    done
    sleep 0.3
    t_sig=$(now)
    for s in $sigs; do
        kill -"$s" "$pid" 2>/dev/null
        sleep 0.05
    done
    # watchdog: never hang the suite
    while kill -0 "$pid" 2>/dev/null && [ $waited -lt 600 ]; do
        sleep 0.05
        waited=$((waited + 1))
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    wait "$pid"
    rc=$?
    t_end=$(now)
    left=$(ls -A "$dir")
    local cmd
    cmd="$(id_q "$RL" "$@" "$IN/long.wav" "$dir/out.mp3") & sleep 0.5; kill -$sigs"
    if [ "$rc" -ne "$want" ]; then
        id_fail "$name" "exit status $rc, expected $want" "$cmd" "$(tail -c 300 "$dir.stderr")"
    elif ! grep -Eq "$msg" "$dir.stderr"; then
        id_fail "$name" "stderr does not match '$msg'" "$cmd" "$(tail -c 300 "$dir.stderr")"
    elif [ -n "$left" ]; then
        id_fail "$name" "files left behind: $left" "$cmd"
    elif [ "$(sha256sum <"$IN/long.wav")" != "$SUM" ]; then
        id_fail "$name" "the input changed" "$cmd"
    elif awk -v a="$t_sig" -v b="$t_end" -v l="$STOP_LIMIT" 'BEGIN { exit !(b - a > l) }'; then
        id_fail "$name" "took $(awk -v a="$t_sig" -v b="$t_end" 'BEGIN { printf "%.1f", b - a }') s after the signal (limit $STOP_LIMIT s): the stop flag is not honoured" "$cmd"
    else
        id_ok "$name ($(awk -v a="$t_sig" -v b="$t_end" 'BEGIN { printf "%.2f", b - a }') s to stop)"
    fi
}

DRAINED='^ringlame: stopped by signal [0-9]+ \([^)]*\), no output written$'
AT_ONCE='stopped by a signal, exiting at once, no output written|'"$DRAINED"
interrupt ring_sigint 130 "$DRAINED" INT --threads 2 -V 0
interrupt ring_sigterm 143 "$DRAINED" TERM --threads 2 -V 2
interrupt ring_1thread_sigint 130 "$DRAINED" INT --threads 1 -V 0
interrupt ring_default_threads_sigint 130 "$DRAINED" INT -V 4
# the second signal may find the ring already drained: either message
interrupt ring_double_sigint 130 "$AT_ONCE" "INT INT" --threads 2 -V 0
interrupt sequential_sigint 130 'exiting at once' INT --sequential -V 0
# every other signal that ends a process by default: the same clean stop
# (128 + its number), in CBR too
interrupt ring_sighup 129 "$DRAINED" HUP --threads 2
interrupt ring_sigquit 131 "$DRAINED" QUIT --threads 2 --abr 160
interrupt ring_sigpipe 141 "$DRAINED" PIPE --threads 2 -V 2
interrupt ring_sigusr1 138 "$DRAINED" USR1 --threads 2
interrupt ring_sigusr2 140 "$DRAINED" USR2 --threads 2 -b 320
interrupt ring_sigalrm 142 "$DRAINED" ALRM --threads 2
interrupt ring_sigxcpu 152 "$DRAINED" XCPU --threads 2
interrupt ring_sigxfsz 153 "$DRAINED" XFSZ --threads 2
interrupt sequential_sighup 129 'exiting at once' HUP --sequential
# SIGKILL cannot be caught, but the unnamed output vanishes with the process
interrupt ring_sigkill 137 '' KILL --threads 2

id_summary
