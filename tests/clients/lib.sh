# SPDX-License-Identifier: LGPL-2.0-or-later
# shellcheck shell=bash
# Shared helpers of the client tests (tests/clients/<client>.sh).
#
# Every case runs a real program, unchanged, twice on the same input: once
# with the system's libmp3lame.so.0 (Debian's 3.100) and once with
# LD_LIBRARY_PATH=SHIM_DIR, and requires identical output files.  The second
# run is made with LD_DEBUG=libs: its log must show SHIM_DIR/libmp3lame.so.0
# initialised and no other libmp3lame, so that a case cannot pass by loading
# the system library twice.
#
# A client script is run as:  bash <client>.sh SHIM_DIR GEN_SIGNAL [WORKDIR]
#   SHIM_DIR    the folder holding the drop-in libmp3lame.so.0 (build/mp3lame)
#   GEN_SIGNAL  the signal generator (tests/gen_signal.c)
# Environment: RINGLAME_THREADS is passed on (the drop-in's thread count);
#   RL_KEEP=1 keeps the outputs of passing cases.
# Output: "ok NAME" or "FAIL NAME" with the command, then
# "<client>: N passed, M failed".  Exit 1 on a failure or when no case ran,
# 77 when the client is not installed.

CL_PASS=0
CL_FAIL=0
CL_NAME=$(basename "${0%.sh}")
SYSTEM_LIBMP3LAME=/usr/lib/x86_64-linux-gnu/libmp3lame.so.0

cl_die() {
    echo "FATAL ($CL_NAME): $*"
    echo "$CL_NAME: $CL_PASS passed, $((CL_FAIL + 1)) failed"
    exit 1
}

cl_skip() {
    echo "skip ($CL_NAME): $*"
    exit 77
}

# cl_init SHIM_DIR GEN_SIGNAL [WORKDIR] CLIENT_PROGRAM...
cl_init() {
    set -u
    [ $# -ge 2 ] || cl_die "usage: $0 SHIM_DIR GEN_SIGNAL [WORKDIR]"
    SHIM_DIR=$(cd "$1" 2>/dev/null && pwd) || cl_die "no folder $1"
    GEN=$2
    WORK=${3:-$(mktemp -d "${TMPDIR:-/tmp}/rl-clients-$CL_NAME.XXXXXX")}
    shift 3 2>/dev/null || shift $#
    [ -e "$SHIM_DIR/libmp3lame.so.0" ] || cl_die "$SHIM_DIR/libmp3lame.so.0 is missing (build the mp3lame_shim target)"
    [ -x "$GEN" ] || cl_die "signal generator '$GEN' not found"
    [ -e "$SYSTEM_LIBMP3LAME" ] || cl_skip "no system $SYSTEM_LIBMP3LAME (apt-get install libmp3lame0)"
    local p
    for p in "$@"; do
        command -v "$p" >/dev/null || cl_skip "'$p' is not installed (run scripts/setup.sh)"
    done
    mkdir -p "$WORK" || cl_die "cannot create $WORK"
    WORK=$(cd "$WORK" && pwd)
    IN=$WORK/in
    OUT=$WORK/out
    rm -rf "$OUT"
    mkdir -p "$IN" "$OUT" || cl_die "cannot create $IN or $OUT"
    echo "$CL_NAME: shim=$SHIM_DIR/libmp3lame.so.0 work=$WORK"
}

cl_gen() {   # cl_gen NAME GEN_ARGS...: IN/NAME, generated once
    local name=$1
    shift
    [ -s "$IN/$name" ] || "$GEN" "$@" "$IN/$name" >/dev/null || cl_die "gen_signal $* failed"
}

cl_q() { local s="" a; for a in "$@"; do s+="$(printf '%q' "$a") "; done; printf '%s' "${s% }"; }

# the LD_DEBUG=libs logs in $1.*: the drop-in initialised, no other libmp3lame
cl_loaded_shim() {
    local logs=("$1".*) ok=0 f
    [ -e "${logs[0]}" ] || return 1
    for f in "${logs[@]}"; do
        grep -q "calling init: $SHIM_DIR/libmp3lame\.so\.0\$" "$f" && ok=1
        if grep "calling init: .*libmp3lame\.so" "$f" | grep -vq "calling init: $SHIM_DIR/libmp3lame\.so\.0\$"; then
            return 1
        fi
    done
    [ $ok = 1 ]
}

# cl_judge NAME SYS SHIM LDLOG WHY COMMAND: the verdict on one case whose
# runs are over (WHY: why a run failed, empty when both ran): the drop-in
# alone loaded (LD_DEBUG logs LDLOG.*; an empty LDLOG: checked by the caller
# for several cases at once), and identical files.  Prints "ok NAME", or
# "FAIL NAME" with the reason and COMMAND; returns 1 on a failure.
cl_judge() {
    local name=$1 sys=$2 shim=$3 ld=$4 why=$5 command=$6
    if [ -n "$why" ]; then
        :
    elif [ -n "$ld" ] && ! cl_loaded_shim "$ld"; then
        why="the LD_DEBUG=libs log does not show $SHIM_DIR/libmp3lame.so.0 alone initialised"
    elif [ ! -s "$sys" ]; then
        why="the system library's run wrote no file"
    elif ! cmp -s "$sys" "$shim"; then
        why="the files differ: $(cmp "$sys" "$shim" 2>&1 | head -1) (sizes $(stat -c %s "$sys") and $(stat -c %s "$shim" 2>/dev/null || echo none))"
    fi
    if [ -z "$why" ]; then
        CL_PASS=$((CL_PASS + 1))
        echo "ok $name"
        return 0
    fi
    CL_FAIL=$((CL_FAIL + 1))
    echo "FAIL $name: $why"
    echo "  command: $command"
    return 1
}

# cl_case NAME EXT CMD...: runs CMD with every @OUT@ replaced by the output
# file, with the system library and with the drop-in, and compares the files
cl_case() {
    local name=$1 ext=$2
    shift 2
    local sys=$OUT/$name.system.$ext shim=$OUT/$name.shim.$ext a cmd_sys=() cmd_shim=()
    for a in "$@"; do
        cmd_sys+=("${a//@OUT@/$sys}")
        cmd_shim+=("${a//@OUT@/$shim}")
    done
    rm -f "$OUT/$name".ld.*
    local why=""
    if ! (unset LD_LIBRARY_PATH; "${cmd_sys[@]}") >"$OUT/$name.system.log" 2>&1; then
        why="the client failed with the system library ($(tail -c 300 "$OUT/$name.system.log"))"
    elif ! LD_LIBRARY_PATH=$SHIM_DIR LD_DEBUG=libs LD_DEBUG_OUTPUT=$OUT/$name.ld "${cmd_shim[@]}" \
            >"$OUT/$name.shim.log" 2>&1; then
        why="the client failed with the drop-in ($(tail -c 300 "$OUT/$name.shim.log"))"
    fi
    if cl_judge "$name" "$sys" "$shim" "$OUT/$name.ld" "$why" \
            "LD_LIBRARY_PATH=$SHIM_DIR $(cl_q "${cmd_shim[@]}")"; then
        [ "${RL_KEEP:-0}" = 1 ] || rm -f "$sys" "$shim" "$sys".* "$shim".* "$OUT/$name".*.log "$OUT/$name".ld.*
    fi
}

cl_summary() {
    echo "$CL_NAME: $CL_PASS passed, $CL_FAIL failed"
    [ $((CL_PASS + CL_FAIL)) -gt 0 ] || { echo "$CL_NAME: no case ran"; exit 1; }
    [ "$CL_FAIL" -eq 0 ]
}
