#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/faults: what goes wrong around an encode ends with lame's bytes or
# with a clear error and no output, never a crash, a hang or a lost file:
#   - a full disk (a small tmpfs) mid-encode, ring and sequential, VBR and
#     CBR; an existing output on that disk stays as it was;
#   - a stdin that stalls and then goes on, or that closes early;
#   - a stdout reader that stops reading;
#   - few file descriptors and little address space (prlimit).
# Needs root for the tmpfs mount: exits 77 (skipped) when it cannot mount.
. "$(dirname "$0")/lib.sh"
id_init "$@"

command -v prlimit >/dev/null || id_die "prlimit (util-linux) is missing"
MNT=$WORK/full
mkdir -p "$MNT"
mountpoint -q "$MNT" && umount "$MNT"
mount -t tmpfs -o size=256k tmpfs "$MNT" 2>/dev/null \
    || id_skip "cannot mount a tmpfs here (not root?)"
trap 'umount "$MNT" 2>/dev/null' EXIT

gen music.wav -t mix -d 30 -S 3
gen short.wav -t mix -d 3 -S 4

# ---- a full disk mid-encode: error naming the output, nothing left ----
full_disk() {  # NAME OPTS...
    local name=$1; shift
    rm -rf "${MNT:?}"/*
    printf 'OLD OUTPUT' >"$MNT/keep.mp3"
    timeout "$RL_TIMEOUT" "$RL" --quiet "$@" "$IN/music.wav" "$MNT/out.mp3" \
        </dev/null >/dev/null 2>"$WORK/full.err"
    local rc=$? left
    left=$(cd "$MNT" && ls -A | grep -v '^keep.mp3$')
    if [ $rc -eq 0 ]; then
        id_fail "full_disk_$name" "exit 0 on a full disk"
    elif [ $rc -ge 124 ]; then
        id_fail "full_disk_$name" "timed out or crashed (exit $rc)" "$(head -c 300 "$WORK/full.err")"
    elif ! grep -q "out.mp3.*No space left on device" "$WORK/full.err"; then
        id_fail "full_disk_$name" "no clear message" "$(head -c 300 "$WORK/full.err")"
    elif [ -n "$left" ]; then
        id_fail "full_disk_$name" "files left behind: $left"
    else
        id_ok "full_disk_$name (exit $rc)"
    fi
    # replacing an existing output on the full disk: the old file survives
    timeout "$RL_TIMEOUT" "$RL" --quiet "$@" "$IN/music.wav" "$MNT/keep.mp3" \
        </dev/null >/dev/null 2>"$WORK/full.err"
    rc=$?
    if [ $rc -eq 0 ] || [ "$(cat "$MNT/keep.mp3" 2>/dev/null)" != "OLD OUTPUT" ]; then
        id_fail "full_disk_${name}_keeps_old" "exit $rc; the old output is $(head -c 20 "$MNT/keep.mp3" 2>/dev/null | od -c | head -1)"
    else
        id_ok "full_disk_${name}_keeps_old (exit $rc)"
    fi
}
full_disk ring_V2 --threads 2 -V 2
full_disk ring_cbr --threads 2
full_disk seq_cbr --sequential -b 320
full_disk ring_abr_noio --threads 1 --abr 160

# ---- stdin that stalls, then goes on; stdin that closes early ----
# feeds for stdin: the input with a 1 s stall after CUT bytes, or only its
# first N bytes (the header promises more than comes)
stall_feed() { head -c "$1" "$IN/short.wav"; sleep 1; tail -c +"$(($1 + 1))" "$IN/short.wav"; }
early_feed() { head -c "$1" "$IN/short.wav"; }
stdin_case() {  # NAME FEED FEED_ARG OPTS...
    local name=$1 feed=$2 arg=$3; shift 3
    local lo="$OUT/$name.lame.mp3" ro="$OUT/$name.rl.mp3"
    lame_opts "$@"
    "$feed" "$arg" | timeout "$RL_TIMEOUT" "$LAME" --quiet "${LOPTS[@]}" - "$lo" 2>/dev/null
    "$feed" "$arg" | timeout "$RL_TIMEOUT" "$RL" --quiet "$@" - "$ro" 2>"$WORK/stdin.err"
    if cmp -s "$lo" "$ro"; then
        id_ok "$name"
    else
        id_fail "$name" "differs from lame (or failed)" "$(head -c 300 "$WORK/stdin.err")"
    fi
}
stdin_case stdin_stall_header stall_feed 20 -V 2
stdin_case stdin_stall_data stall_feed 100000 --threads 2
stdin_case stdin_stall_seq stall_feed 300001 --sequential --abr 128
stdin_case stdin_closes_early early_feed 200044 -V 4
stdin_case stdin_closes_early_cbr early_feed 123456 --threads 2

# ---- a stdout reader that stops: an error saying the output is incomplete ----
for opts in "--threads 2 -V 2" "--sequential" "--threads 2 -b 320"; do
    # shellcheck disable=SC2086
    ( timeout "$RL_TIMEOUT" "$RL" --quiet $opts "$IN/music.wav" - 2>"$WORK/pipe.err"; echo $? >"$WORK/pipe.rc" ) \
        | head -c 2000 >/dev/null
    rc=$(cat "$WORK/pipe.rc")
    name="stdout_reader_stops_${opts// /_}"
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
        id_fail "$name" "exit $rc (expected an error, no hang)"
    elif [ "$rc" -ne 141 ] && ! grep -q "incomplete" "$WORK/pipe.err"; then
        id_fail "$name" "exit $rc without saying the output is incomplete" "$(head -c 300 "$WORK/pipe.err")"
    else
        id_ok "$name (exit $rc)"
    fi
done

# ---- few descriptors, little address space: lame's bytes or a clear error ----
limited() {  # NAME PRLIMIT_ARGS OPTS...
    local name=$1 lim=$2; shift 2
    local lo="$OUT/$name.lame.mp3" ro="$OUT/$name.rl.mp3" rc
    lame_opts "$@"
    "$LAME" --quiet "${LOPTS[@]}" "$IN/short.wav" "$lo" 2>/dev/null
    # shellcheck disable=SC2086
    timeout "$RL_TIMEOUT" prlimit $lim "$RL" --quiet "$@" "$IN/short.wav" "$ro" </dev/null 2>"$WORK/lim.err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$lo" "$ro"; then
        id_ok "$name (encoded)"
    elif [ $rc -ne 0 ] && { [ $rc -lt 124 ] || [ $rc -eq 255 ]; } && [ -s "$WORK/lim.err" ] && [ ! -e "$ro" ]; then
        # (255: lame's status for an input or output it cannot open)
        id_ok "$name (refused, exit $rc: $(head -n 1 "$WORK/lim.err" | head -c 100))"
    else
        id_fail "$name" "exit $rc" "$(head -c 300 "$WORK/lim.err")"
    fi
}
# descriptors already open here (a test runner may leave some to us) plus
# a few: the dynamic loader needs one to start at all
BASE=$(ls /proc/$$/fd | wc -l)
limited nofile_base_plus_5 "--nofile=$((BASE + 5))" -V 2
limited nofile_base_plus_2 "--nofile=$((BASE + 2))" --threads 2
limited nofile_base_plus_1 "--nofile=$((BASE + 1))" --sequential
limited as_64m --as=67108864 --threads 2
limited as_32m --as=33554432 -V 0
limited as_16m --as=16777216 --threads 8

id_summary
