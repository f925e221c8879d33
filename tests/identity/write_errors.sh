#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/write_errors: an output that fails mid-stream, and a read that
# fails, against lame's exit status (docs/options.md "Exit statuses"):
#  - a full device (a node of /dev/full's kind) named as the output or as
#    stdout, a 64 KiB tmpfs that fills mid-encode, for an encode (ring and
#    --sequential), --nogap and --decode: lame's encoder exits 1 ("Error
#    writing mp3 output"), and so does ringlame, with a message naming the
#    output; ringlame leaves no named output where lame keeps a partial one;
#    lame's --decode does not check its writes and exits 0, ringlame exits 1;
#  - a stdout pipe whose reader has gone: both end by SIGPIPE (status 141),
#    or, with SIGPIPE ignored, both exit 1;
#  - a read error mid-input (tests/fault_inject.c): ringlame names the input
#    ("error reading"), exits 2 and leaves nothing (lame exits 0 there).
. "$(dirname "$0")/lib.sh"
id_init "$@"

INJECT=$(dirname "$RL")/tests/libfault_inject.so
[ -f "$INJECT" ] || id_die "$INJECT is missing (built with the tests)"
# a private full device, so that nothing here can touch /dev/full itself
FULL=$WORK/full.dev
rm -f "$FULL"
mknod -m 666 "$FULL" c 1 7 2>/dev/null || FULL=/dev/full
[ -c "$FULL" ] || id_die "no full device ($FULL)"
# the tmpfs lives in a mount namespace of its own (root, or a user namespace)
UNSHARE=(unshare -m)
[ "$(id -u)" = 0 ] || UNSHARE=(unshare -r -m)
"${UNSHARE[@]}" true 2>/dev/null || id_skip "cannot make a mount namespace for the tmpfs"
MNT=$WORK/small
mkdir -p "$MNT"

gen st.wav -t mix -d 10 -S 71
gen st2.wav -t mix -d 6 -S 72
mkmp3 st.mp3 st.wav -V 2

# status TOOL MODE ARGS...: the tool's exit status (128+N: ended by signal N)
#   MODE full: ARGS then the full device as the output; stdout_full: ARGS
#   then "-" with stdout on the full device; pipe: ARGS then "-" into a
#   reader that leaves after 1000 bytes; pipe_ign: the same with SIGPIPE
#   ignored.  stderr in $WORK/last.err
status() {
    local tool=$1 mode=$2; shift 2
    case $mode in
    full) timeout "$RL_TIMEOUT" "$tool" "$@" "$FULL" </dev/null >/dev/null 2>"$WORK/last.err" ;;
    stdout_full) timeout "$RL_TIMEOUT" "$tool" "$@" - </dev/null >"$FULL" 2>"$WORK/last.err" ;;
    pipe) ( timeout "$RL_TIMEOUT" "$tool" "$@" - </dev/null 2>"$WORK/last.err"; echo $? >"$WORK/pipe.rc" ) \
              | head -c 1000 >/dev/null
          return "$(cat "$WORK/pipe.rc")" ;;
    pipe_ign) ( trap '' PIPE; timeout "$RL_TIMEOUT" "$tool" "$@" - </dev/null 2>"$WORK/last.err"
                echo $? >"$WORK/pipe.rc" ) | head -c 1000 >/dev/null
              return "$(cat "$WORK/pipe.rc")" ;;
    esac
}

# same NAME MODE MESSAGE ARGS...: lame's status and ringlame's are equal and
# not 0; ringlame's stderr matches MESSAGE (empty: anything)
same() {
    local name=$1 mode=$2 msg=$3 lrc rrc; shift 3
    lame_opts "$@"
    status "$LAME" "$mode" "${LOPTS[@]}"; lrc=$?
    status "$RL" "$mode" "$@"; rrc=$?
    if [ $lrc -eq 0 ]; then
        id_fail "$name" "lame exits 0: the case is wrong"
    elif [ $rrc -ne $lrc ]; then
        id_fail "$name" "exit $rrc, lame's is $lrc" "$(head -c 300 "$WORK/last.err")"
    elif [ -n "$msg" ] && ! grep -Eq "$msg" "$WORK/last.err"; then
        id_fail "$name" "no message matching '$msg'" "$(head -c 300 "$WORK/last.err")"
    else
        id_ok "$name (exit $rrc, as lame)"
    fi
}

# decode_case NAME MODE ARGS...: lame's --decode exits 0 on a failed write;
# ringlame exits 1 and names the output
decode_case() {
    local name=$1 mode=$2 lrc rrc; shift 2
    status "$LAME" "$mode" "$@"; lrc=$?
    status "$RL" "$mode" "$@"; rrc=$?
    if [ $lrc -ne 0 ]; then
        id_fail "$name" "lame exits $lrc: the case is wrong"
    elif [ $rrc -ne 1 ] || ! grep -q "error writing WAV output to " "$WORK/last.err"; then
        id_fail "$name" "exit $rrc (expected 1 and a message naming the output)" \
            "$(head -c 300 "$WORK/last.err")"
    else
        id_ok "$name (exit 1; lame's --decode exits 0)"
    fi
}

WRITE_MSG='^ringlame: error writing mp3 output to '
same encode_full_ring full "${WRITE_MSG}$FULL: No space left on device" -V 2 "$IN/st.wav"
same encode_full_seq full "${WRITE_MSG}$FULL: No space left on device" --sequential "$IN/st.wav"
same encode_full_cbr_threads full "$WRITE_MSG" --threads 2 -b 320 "$IN/st.wav"
same encode_stdout_full stdout_full "${WRITE_MSG}<stdout>: No space left on device .*incomplete" \
    "$IN/st.wav"
same encode_stdout_full_id3 stdout_full "$WRITE_MSG" --tt Title --add-id3v2 "$IN/st.wav"
same encode_closed_pipe pipe '' -V 2 "$IN/st.wav"
same encode_closed_pipe_seq pipe '' --sequential "$IN/st.wav"
same encode_closed_pipe_sigpipe_ignored pipe_ign "${WRITE_MSG}<stdout>: Broken pipe" "$IN/st.wav"
same mp3_input_full full "$WRITE_MSG" -b 96 "$IN/st.mp3"
same decode_closed_pipe pipe '' --decode "$IN/st.mp3"
decode_case decode_full full --decode "$IN/st.mp3"
decode_case decode_stdout_full stdout_full --decode "$IN/st.mp3"

# on_tmpfs TOOL OUT ARGS...: runs TOOL ARGS OUT (OUT under $MNT) with a
# 64 KiB tmpfs at $MNT holding keep.mp3; sets RC, LEFT (the files left but
# keep.mp3, with sizes) and KEPT (keep.mp3's text)
on_tmpfs() {
    local tool=$1; shift
    # shellcheck disable=SC2016
    "${UNSHARE[@]}" bash -c '
        mount -t tmpfs -o size=64k none "$1" || exit 99
        d=$1 w=$2 t=$3; shift 3
        printf "OLD OUTPUT" >"$d/keep.mp3"
        timeout "$t" "$@" </dev/null >/dev/null 2>"$w/last.err"
        echo $? >"$w/tmpfs.rc"
        (cd "$d" && for f in *; do [ "$f" = keep.mp3 ] || echo "$f $(stat -c %s "$f")"; done) >"$w/tmpfs.left"
        cat "$d/keep.mp3" >"$w/tmpfs.kept"' _ "$MNT" "$WORK" "$RL_TIMEOUT" "$tool" "$@"
    RC=$(cat "$WORK/tmpfs.rc" 2>/dev/null || echo 99)
    LEFT=$(cat "$WORK/tmpfs.left" 2>/dev/null)
    KEPT=$(cat "$WORK/tmpfs.kept" 2>/dev/null)
}

# tmpfs_case NAME LAME_STATUS ARGS...: ARGS (the output under $MNT among
# them): lame exits LAME_STATUS (and keeps a partial file); ringlame exits 1,
# names the output, leaves nothing and does not touch keep.mp3
tmpfs_case() {
    local name=$1 want=$2; shift 2
    local lrc lleft
    lame_opts "$@"
    on_tmpfs "$LAME" "${LOPTS[@]}"; lrc=$RC; lleft=$LEFT
    on_tmpfs "$RL" "$@"
    if [ "$lrc" = 99 ] || [ "$RC" = 99 ]; then
        id_fail "$name" "the tmpfs could not be mounted"
    elif [ "$lrc" -ne "$want" ] || [ -z "$lleft" ]; then
        id_fail "$name" "lame exits $lrc leaving '$lleft': the case is wrong"
    elif [ "$RC" -ne 1 ] || ! grep -q "error writing .* output to $MNT/.*No space left on device" "$WORK/last.err"; then
        id_fail "$name" "exit $RC (lame's: $lrc)" "$(head -c 300 "$WORK/last.err")"
    elif [ -n "$LEFT" ] || [ "$KEPT" != "OLD OUTPUT" ]; then
        id_fail "$name" "left '$LEFT', keep.mp3 now '$KEPT'"
    else
        id_ok "$name (exit 1, nothing left; lame: exit $lrc leaving $lleft)"
    fi
}
tmpfs_case tmpfs_encode_ring 1 -V 2 "$IN/st.wav" "$MNT/out.mp3"
tmpfs_case tmpfs_encode_seq 1 --sequential -b 192 "$IN/st.wav" "$MNT/out.mp3"
tmpfs_case tmpfs_nogap 1 --nogap "$IN/st.wav" "$IN/st2.wav" --nogapout "$MNT"
tmpfs_case tmpfs_nogap_second_file 1 -b 64 --nogap "$IN/st2.wav" "$IN/st.wav" --nogapout "$MNT"
tmpfs_case tmpfs_decode 0 --decode "$IN/st.mp3" "$MNT/out.wav"

# a read error mid-input: named as the input's, exit 2, no output
# (the ring's I/O thread: its 8th read past the header; --sequential: its first)
for at_opts in "8 -V 2" "1 --sequential -b 128"; do
    at=${at_opts%% *} opts=${at_opts#* }
    name="read_error_${opts// /_}"
    rm -f "$OUT/read.mp3"
    # shellcheck disable=SC2086
    LD_PRELOAD=$INJECT RL_FAIL_READ_FROM=4096 RL_FAIL_READ_AT=$at \
        timeout "$RL_TIMEOUT" "$RL" --quiet $opts "$IN/st.wav" "$OUT/read.mp3" </dev/null \
        >/dev/null 2>"$WORK/last.err"
    rc=$?
    if [ $rc -ne 2 ] || ! grep -q "^ringlame: error reading $IN/st.wav: Input/output error (no output written)" \
            "$WORK/last.err" || [ -e "$OUT/read.mp3" ]; then
        id_fail "$name" "exit $rc" "$(head -c 300 "$WORK/last.err")"
    else
        id_ok "$name (exit 2, the input named, no output)"
    fi
done

id_summary
