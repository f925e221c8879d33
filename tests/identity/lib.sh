# SPDX-License-Identifier: LGPL-2.0-or-later
# shellcheck shell=bash
# Shared helpers of the identity tests (sourced by tests/identity/<theme>.sh).
#
# Every case encodes the same input with Debian's lame 3.100 and with ringlame,
# using the same options, and compares the two outputs byte for byte.  Nothing
# ringlame wrote earlier is ever used as a reference.
#
# A theme script is run as:  bash <theme>.sh RINGLAME GEN_SIGNAL [WORKDIR]
#   RINGLAME    the ringlame binary (CTest passes $<TARGET_FILE:ringlame>)
#   GEN_SIGNAL  the signal generator (CTest passes $<TARGET_FILE:gen_signal>)
#   WORKDIR     scratch directory (default: a fresh mktemp -d)
# Environment:
#   LAME=path       the reference encoder (default /usr/bin/lame; must be 3.100;
#                   missing: the theme is skipped, exit 77)
#   RINGLAME=path   overrides the first argument.  Only for checking the
#                   harness itself (RINGLAME=/usr/bin/lame must pass everything).
#   RL_KEEP=1       keep the outputs of passing cases too.
#   RL_TIMEOUT=s    per-encoder time limit (default 300 s).
#   RL_TEST_SEED=n  the seed of a theme's random cases (options.sh).
# Output: one line per case ("ok NAME" or "FAIL NAME" with both commands),
# then "<theme>: N passed, M failed".  Exit status 1 on any failure or when
# no case ran; 77 (skipped) when the reference lame is missing.

ID_PASS=0
ID_FAIL=0
ID_THEME=$(basename "${0%.sh}")

id_die() {   # a broken setup counts as a failure
    echo "FATAL ($ID_THEME): $*"
    echo "$ID_THEME: $ID_PASS passed, $((ID_FAIL + 1)) failed"
    exit 1
}

id_skip() {  # what the theme checks cannot run here: CTest's skip (77)
    echo "skip ($ID_THEME): $*"
    exit 77
}

id_init() {
    set -u
    [ $# -ge 2 ] || id_die "usage: $0 RINGLAME GEN_SIGNAL [WORKDIR]"
    RL=$1
    GEN=$2
    WORK=${3:-}
    if [ -n "${RINGLAME:-}" ]; then
        echo "NOTE: RINGLAME override in the environment: testing '$RINGLAME' instead of '$RL'"
        RL=$RINGLAME
    fi
    LAME=${LAME:-/usr/bin/lame}
    unset LAMEOPT   # both encoders would read it; keep the cases self-contained
    RL_TIMEOUT=${RL_TIMEOUT:-300}
    case ${RL_TEST_SEED:-0} in ''|*[!0-9]*) id_die "RL_TEST_SEED=$RL_TEST_SEED is not a number" ;; esac
    [ -x "$LAME" ] || id_skip "reference encoder '$LAME' not found (run scripts/setup.sh)"
    "$LAME" --version 2>/dev/null | grep -q 'version 3\.100' \
        || id_die "'$LAME' is not LAME 3.100"
    [ -f "$RL" ] && [ -x "$RL" ] || id_die "ringlame binary '$RL' not found or not executable"
    [ -f "$GEN" ] && [ -x "$GEN" ] || id_die "signal generator '$GEN' not found"
    case "$RL" in /*) ;; *) RL=$PWD/$RL ;; esac
    case "$GEN" in /*) ;; *) GEN=$PWD/$GEN ;; esac
    if [ -z "$WORK" ]; then
        WORK=$(mktemp -d "${TMPDIR:-/tmp}/rl-identity-$ID_THEME.XXXXXX")
    fi
    mkdir -p "$WORK" || id_die "cannot create $WORK"
    WORK=$(cd "$WORK" && pwd)
    IN=$WORK/in
    OUT=$WORK/out
    rm -rf "$OUT"
    mkdir -p "$IN" "$OUT" || id_die "cannot create $IN or $OUT"
    # generated inputs are kept between runs, but not across generator changes
    local stamp
    stamp=$(cksum <"$GEN")
    if [ "$(cat "$IN/.generator" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$IN" && mkdir -p "$IN" && printf '%s\n' "$stamp" >"$IN/.generator"
    fi
    echo "$ID_THEME: lame=$LAME ringlame=$RL work=$WORK"
}

# Quote a command for printing so that it can be pasted into a shell.
id_q() { local s="" a; for a in "$@"; do s+="$(printf '%q' "$a") "; done; printf '%s' "${s% }"; }

id_ok() { ID_PASS=$((ID_PASS + 1)); echo "ok   $1"; }

id_fail() {  # NAME REASON [detail lines...]
    local name=$1 reason=$2; shift 2
    ID_FAIL=$((ID_FAIL + 1))
    echo "FAIL $name: $reason"
    local l
    for l in "$@"; do echo "     $l"; done
}

# gen FILE GEN_ARGS...   make $IN/FILE once (kept between runs of the script)
gen() {
    local f=$1; shift
    [ -s "$IN/$f" ] && return 0
    if ! "$GEN" "$@" "$IN/$f.part" >"$WORK/gen.err" 2>&1; then
        id_fail "generate $f" "gen_signal failed" "$(id_q "$GEN" "$@" "$IN/$f")" "$(head -c 500 "$WORK/gen.err")"
        rm -f "$IN/$f.part"
        return 1
    fi
    # libsndfile picks the container from the format argument, not the name
    mv "$IN/$f.part" "$IN/$f"
}

# mkmp3 NAME WAV LAME_OPTS...: $IN/NAME made by lame from $IN/WAV (kept
# between runs)
mkmp3() {
    local name=$1 wav=$2; shift 2
    [ -s "$IN/$name" ] && return 0
    "$LAME" --quiet "$@" "$IN/$wav" "$IN/$name.part" </dev/null >/dev/null 2>&1 \
        && mv "$IN/$name.part" "$IN/$name" || id_fail "make $name" "lame failed"
}

# id_run MODE TOOL INPUT OUTPUT OPTS...  -> runs one encoder; sets RC
#   MODE: file (in out), stdout (in -), stdin (- out < in), stdio (- - < in)
id_run() {
    local mode=$1 tool=$2 in=$3 out=$4; shift 4
    case $mode in
    file)   timeout "$RL_TIMEOUT" "$tool" "$@" "$in" "$out" </dev/null >"$out.stdout" 2>"$out.stderr" ;;
    stdout) timeout "$RL_TIMEOUT" "$tool" "$@" "$in" - </dev/null >"$out" 2>"$out.stderr" ;;
    stdin)  timeout "$RL_TIMEOUT" "$tool" "$@" - "$out" <"$in" >"$out.stdout" 2>"$out.stderr" ;;
    stdio)  timeout "$RL_TIMEOUT" "$tool" "$@" - - <"$in" >"$out" 2>"$out.stderr" ;;
    esac
    RC=$?
}

# id_run_logged LOG ARGS...: runs $RL ARGS (empty stdin), its output in
# LOG.stdout and LOG.stderr; sets RC (the batch and shard themes)
id_run_logged() {
    local log=$1; shift
    timeout "$RL_TIMEOUT" "$RL" "$@" </dev/null >"$log.stdout" 2>"$log.stderr"
    RC=$?
}

# id_lame_refs REFDIR SRCMAP KEY...: lame's output (options OPTS) for each
# input $T/${SRCMAP[KEY]} (an associative array's name) in REFDIR, named
# after KEY with / as _ and .mp3; made once, kept between runs
id_lame_refs() {
    local ref=$1 k r; local -n src_map=$2; shift 2
    mkdir -p "$ref"
    for k in "$@"; do
        r=$ref/${k//\//_}.mp3
        [ -s "$r" ] || "$LAME" --quiet "${OPTS[@]}" "$T/${src_map[$k]}" "$r" </dev/null >/dev/null 2>&1 \
            || id_fail "lame $k" "the reference encode failed"
    done
}

id_cmdline() {  # MODE TOOL IN OUT OPTS... -> printable command
    local mode=$1 tool=$2 in=$3 out=$4; shift 4
    case $mode in
    file)   id_q "$tool" "$@" "$in" "$out" ;;
    stdout) printf '%s > %s' "$(id_q "$tool" "$@" "$in" -)" "$(printf '%q' "$out")" ;;
    stdin)  printf '%s < %s' "$(id_q "$tool" "$@" - "$out")" "$(printf '%q' "$in")" ;;
    stdio)  printf '%s < %s > %s' "$(id_q "$tool" "$@" - -)" "$(printf '%q' "$in")" "$(printf '%q' "$out")" ;;
    esac
}

# check MODE NAME INPUT OPTS...   the identity case
declare -A ID_LAME_DONE=()
check() {
    local mode=$1 name=$2 in=$3; shift 3
    local lo="$OUT/$name.lame.mp3" ro="$OUT/$name.rl.mp3" RC lrc rrc
    rm -f "$lo" "$ro"
    if [ ! -e "$in" ]; then
        id_fail "$name" "input $in was not generated"
        return
    fi
    # lame's bytes depend only on the mode, the input and the options: with
    # ID_LAME_MEMO set (a theme that runs each case through several ringlame
    # read paths) lame runs once per case and the later checks reuse them
    local key="" memo=""
    if [ -n "${ID_LAME_MEMO:-}" ]; then
        key="$mode $(stat -c '%.9Y %s %i' "$in") $in $*"
        memo=${ID_LAME_DONE[$key]:-}
    fi
    if [ -n "$memo" ]; then
        cp "$memo" "$lo" && cp "$memo.stderr" "$lo.stderr"; lrc=$?
    else
        id_run "$mode" "$LAME" "$in" "$lo" "$@"; lrc=$RC
        if [ -n "$key" ] && [ $lrc -eq 0 ] && [ -s "$lo" ]; then
            memo=$WORK/lame-memo/${#ID_LAME_DONE[@]}.mp3
            mkdir -p "$WORK/lame-memo" && cp "$lo" "$memo" && cp "$lo.stderr" "$memo.stderr" \
                && ID_LAME_DONE[$key]=$memo
        fi
    fi
    id_run "$mode" "$RL" "$in" "$ro" "$@"; rrc=$RC
    local lcmd rcmd
    lcmd="lame:     $(id_cmdline "$mode" "$LAME" "$in" "$lo" "$@")"
    rcmd="ringlame: $(id_cmdline "$mode" "$RL" "$in" "$ro" "$@")"
    if [ $lrc -ne 0 ] || [ ! -s "$lo" ]; then
        id_fail "$name" "the reference lame failed (exit $lrc): the case itself is wrong" "$lcmd" \
            "$(tail -n 3 "$lo.stderr" 2>/dev/null)"
        return
    fi
    if [ $rrc -ne 0 ]; then
        local why="ringlame exited with $rrc"
        [ $rrc -eq 124 ] && why="ringlame timed out after ${RL_TIMEOUT}s"
        [ $rrc -gt 128 ] && [ $rrc -le 192 ] && why="ringlame was killed by signal $((rrc - 128))"
        id_fail "$name" "$why" "$lcmd" "$rcmd" "stderr: $(tail -n 3 "$ro.stderr" 2>/dev/null | tr '\n' ' ' | head -c 400)"
        return
    fi
    if [ ! -e "$ro" ]; then
        id_fail "$name" "ringlame wrote no output file" "$lcmd" "$rcmd"
        return
    fi
    local c
    if ! c=$(cmp "$lo" "$ro" 2>&1); then
        id_fail "$name" "outputs differ" "$lcmd" "$rcmd" \
            "sizes: lame $(stat -c %s "$lo"), ringlame $(stat -c %s "$ro"); $c"
        return
    fi
    id_ok "$name"
    if [ -z "${RL_KEEP:-}" ]; then rm -f "$lo" "$ro" "$lo".std* "$ro".std*; fi
}

check_file()   { check file "$@"; }
check_stdout() { check stdout "$@"; }
check_stdin()  { check stdin "$@"; }
check_stdio()  { check stdio "$@"; }

# each_cbr_bitrate CHECK: CHECK NAME INPUT OPTS... for every legal CBR
# bitrate of MPEG-1, MPEG-2 and MPEG-2.5 (the version pinned with
# --resample to the input's rate: $IN/mix_44100.wav, mix_22050.wav and
# mix_11025.wav, which the theme generates)
each_cbr_bitrate() {
    local check=$1 b
    for b in 32 40 48 56 64 80 96 112 128 160 192 224 256 320; do
        "$check" "mpeg1_b$b" "$IN/mix_44100.wav" -b "$b" --resample 44.1
    done
    for b in 8 16 24 32 40 48 56 64 80 96 112 128 144 160; do
        "$check" "mpeg2_b$b" "$IN/mix_22050.wav" -b "$b" --resample 22.05
    done
    for b in 8 16 24 32 40 48 56 64; do
        "$check" "mpeg25_b$b" "$IN/mix_11025.wav" -b "$b" --resample 11.025
    done
}

# check_threads MODE NAME INPUT OPTS...   one case at every setting in
# RL_THREAD_SETTINGS (--sequential, --threads N), each against lame's bytes
check_threads() {
    local mode=$1 name=$2 in=$3; shift 3
    local lo="$OUT/$name.lame.mp3" RC lrc s
    rm -f "$lo"
    if [ ! -e "$in" ]; then
        id_fail "$name" "input $in was not generated"
        return
    fi
    id_run "$mode" "$LAME" "$in" "$lo" "$@"; lrc=$RC
    if [ $lrc -ne 0 ] || [ ! -s "$lo" ]; then
        id_fail "$name" "the reference lame failed (exit $lrc): the case itself is wrong" \
            "lame: $(id_cmdline "$mode" "$LAME" "$in" "$lo" "$@")"
        return
    fi
    for s in "${RL_THREAD_SETTINGS[@]}"; do
        local tag=${s// /_} ro rcmd c
        ro="$OUT/$name.rl$tag.mp3"
        rm -f "$ro"
        # shellcheck disable=SC2086
        id_run "$mode" "$RL" "$in" "$ro" $s "$@"
        # shellcheck disable=SC2086
        rcmd="ringlame: $(id_cmdline "$mode" "$RL" "$in" "$ro" $s "$@")"
        if [ $RC -ne 0 ]; then
            id_fail "$name $s" "ringlame exited with $RC" "$rcmd" \
                "stderr: $(tail -n 3 "$ro.stderr" 2>/dev/null | tr '\n' ' ' | head -c 400)"
        elif ! c=$(cmp "$lo" "$ro" 2>&1); then
            id_fail "$name $s" "outputs differ" "$rcmd" \
                "sizes: lame $(stat -c %s "$lo"), ringlame $(stat -c %s "$ro"); $c"
        else
            id_ok "$name $s"
            if [ -z "${RL_KEEP:-}" ]; then rm -f "$ro" "$ro".std*; fi
        fi
    done
    if [ -z "${RL_KEEP:-}" ]; then rm -f "$lo" "$lo".std*; fi
}

# check_error NAME INPUT OPTS...   a command line lame refuses
#   lame must exit non-zero without writing the output; ringlame must exit
#   with the same status, print a message on stderr and write no output.
check_error() {
    local name=$1 in=$2; shift 2
    local lo="$OUT/$name.lame.mp3" ro="$OUT/$name.rl.mp3" RC lrc rrc
    rm -f "$lo" "$ro"
    id_run file "$LAME" "$in" "$lo" "$@"; lrc=$RC
    id_run file "$RL" "$in" "$ro" "$@"; rrc=$RC
    local lcmd rcmd
    lcmd="lame:     $(id_cmdline file "$LAME" "$in" "$lo" "$@")"
    rcmd="ringlame: $(id_cmdline file "$RL" "$in" "$ro" "$@")"
    if [ $lrc -eq 0 ] || [ -e "$lo" ]; then
        id_fail "$name" "the reference lame accepted it (exit $lrc): the case itself is wrong" "$lcmd"
    elif [ $rrc -ne $lrc ]; then
        id_fail "$name" "exit status $rrc, lame's is $lrc" "$lcmd" "$rcmd" \
            "stderr: $(head -c 300 "$ro.stderr")"
    elif [ -e "$ro" ]; then
        id_fail "$name" "ringlame wrote an output file" "$rcmd"
    elif [ ! -s "$ro.stderr" ] && [ ! -s "$ro.stdout" ]; then
        id_fail "$name" "ringlame printed nothing" "$rcmd"
    else
        id_ok "$name (exit $rrc)"
        if [ -z "${RL_KEEP:-}" ]; then rm -f "$lo".std* "$ro".std*; fi
    fi
}

# check_bad NAME PATTERN INPUT [OPTS...]
#   ringlame must refuse: non-zero exit, a message on stderr matching the
#   extended regex PATTERN (case-insensitive), nothing on stdout and no file
#   left in the output directory (the output name is OUT/bad-NAME/NAME.mp3).
# check_bad_stdout: the same with "-" (stdout) as the output.
# BAD_OUTPUT=path overrides the output name (e.g. an unwritable path).
check_bad_stdout() { BAD_OUTPUT=- check_bad "$@"; }
check_bad() {
    local name=$1 pat=$2 in=$3; shift 3
    local dir="$OUT/bad-$name"
    rm -rf "$dir"; mkdir -p "$dir"
    local o=${BAD_OUTPUT:-"$dir/$name.mp3"}
    ( cd "$dir" && timeout "$RL_TIMEOUT" "$RL" "$@" "$in" "$o" </dev/null >"$WORK/bad.stdout" 2>"$WORK/bad.stderr" )
    local rc=$? cmd
    cmd="ringlame: $(id_q "$RL" "$@" "$in" "$o")"
    local left
    left=$(ls -A "$dir")
    if [ $rc -eq 0 ]; then
        id_fail "$name" "ringlame accepted bad input (exit 0)" "$cmd"
    elif [ $rc -eq 124 ] || { [ $rc -ge 125 ] && [ $rc -le 192 ]; }; then
        # 124: timeout; 125-127: could not run; 128+N: killed by signal N
        id_fail "$name" "ringlame timed out, could not run or crashed (exit $rc)" "$cmd" \
            "$(head -c 300 "$WORK/bad.stderr")"
    elif [ -n "$left" ]; then
        id_fail "$name" "ringlame left files behind: $left" "$cmd"
    elif [ -s "$WORK/bad.stdout" ]; then
        id_fail "$name" "ringlame wrote to stdout" "$cmd"
    elif ! grep -Eqi -- "$pat" "$WORK/bad.stderr"; then
        id_fail "$name" "stderr does not explain the error (expected /$pat/)" "$cmd" \
            "stderr: $(head -c 300 "$WORK/bad.stderr")"
    else
        id_ok "$name (exit $rc: $(head -n 1 "$WORK/bad.stderr" | head -c 120))"
        rm -rf "$dir"
    fi
}

id_summary() {  # a theme that ran no case has not passed
    [ $((ID_PASS + ID_FAIL)) -gt 0 ] || echo "FAIL $ID_THEME: no case ran"
    echo "$ID_THEME: $ID_PASS passed, $ID_FAIL failed"
    [ $ID_FAIL -eq 0 ] && [ $ID_PASS -gt 0 ]
}

# lame_opts OPTS...: sets LOPTS to OPTS without ringlame's own options
# (--threads N, --sequential, --trace FILE), for the same case on lame
lame_opts() {
    LOPTS=()
    while [ $# -gt 0 ]; do
        case $1 in
        --threads|--trace) shift ;;
        --sequential) ;;
        *) LOPTS+=("$1") ;;
        esac
        shift
    done
}
