#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Builds the libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined)
# and fuzzes each for SECONDS, one target after the other, one job at a time.
#
#   bash tests/fuzz/run.sh SECONDS [TARGET...]      (targets: pcm args encode mp3 mp3lame manifest)
#
# Exit status: 0 nothing new found, 1 new findings (crashes, sanitizer
# reports, broken invariants, timeouts, out-of-memory), 77 clang or libFuzzer
# is not available (a skip), 2 the build failed.
#
# Regressions: every input of tests/fuzz/regress/<t>/ and corpus/<t>/ is run
# first under the sanitizers (CTest runs them without); a report fails.
# Known findings: every input in tests/fuzz/findings-open/<t>/ is run first
# and its signature (the kind of report and the first ringlame function on
# its stack, or the invariant's message) noted; a finding with one of these
# signatures is listed as "known" and does not fail the run.  Benign
# undefined behaviour LAME has too is suppressed (tests/fuzz/ubsan.supp).
#
# Environment:
#   RL_FUZZ_BUILD     build folder          (default: <repo>/build-fuzz-clang)
#   RL_FUZZ_FINDINGS  findings folder       (default: $RL_FUZZ_BUILD/fuzz-findings)
#   RL_FUZZ_FRESH=1   start from the seed corpus only (forget the work corpus)
#   RL_FUZZ_STRICT=1  no suppressions, and known findings fail the run too
#   RL_FUZZ_CC        the clang to use      (default: clang)
#
# Each target's work corpus ($RL_FUZZ_BUILD/fuzz-work/<t>) keeps what earlier
# runs found, so runs add up; the seed corpus in tests/fuzz/corpus/<t> is read,
# never written.  Findings land in $RL_FUZZ_FINDINGS/<t>/ (crash-*, timeout-*,
# oom-*, leak-*); reproduce one with  $RL_FUZZ_BUILD/tests/fuzz_<t> FILE  (or
# the standalone build: build/tests/fuzz_<t>_standalone FILE), then keep it as
# tests/fuzz/findings-open/<t>/<name> until it is fixed and
# tests/fuzz/regress/<t>/<name> after.  Details: docs/reliability.md.
set -u

SECS=${1:-60}
shift || true
case $SECS in
    ''|*[!0-9]*) echo "usage: $0 SECONDS [TARGET...]" >&2; exit 2 ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${RL_FUZZ_BUILD:-$ROOT/build-fuzz-clang}
FINDINGS=${RL_FUZZ_FINDINGS:-$BUILD/fuzz-findings}
CLANG=${RL_FUZZ_CC:-clang}
STRICT=${RL_FUZZ_STRICT:-0}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(pcm args encode mp3 mp3lame manifest)

# ---- is clang with libFuzzer there? ----
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "fuzz: SKIP: $CLANG not found"
    exit 77
fi
probe=$(mktemp -d)
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' \
    > "$probe/p.c"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >"$probe/log" 2>&1; then
    echo "fuzz: SKIP: $CLANG cannot build a libFuzzer binary:"
    sed 's/^/  /' "$probe/log" | head -5
    rm -rf "$probe"
    exit 77
fi
rm -rf "$probe"

# ---- build ----
echo "fuzz: building in $BUILD"
mkdir -p "$BUILD"
if ! cmake -S "$ROOT" -B "$BUILD" -DCMAKE_C_COMPILER="$CLANG" -DRL_FUZZ=ON \
        -DCMAKE_BUILD_TYPE=Release >"$BUILD/fuzz-configure.log" 2>&1; then
    echo "fuzz: ERROR: cmake configure failed (log: $BUILD/fuzz-configure.log)"
    tail -20 "$BUILD/fuzz-configure.log"
    exit 2
fi
build_targets=()
for t in "${TARGETS[@]}"; do build_targets+=(--target "fuzz_$t"); done
if ! cmake --build "$BUILD" -j2 "${build_targets[@]}" >"$BUILD/fuzz-build.log" 2>&1; then
    echo "fuzz: ERROR: build failed (log: $BUILD/fuzz-build.log)"
    grep -E 'error|Error' "$BUILD/fuzz-build.log" | head -20
    exit 2
fi

# ---- sanitizer settings ----
supp=":suppressions=$HERE/ubsan.supp"
[ "$STRICT" = 1 ] && supp=
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:handle_abort=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1$supp}

# signature BINARY FILE: what a finding is, stable across line-number edits:
#   invariant:<message, digits dropped> | <report kind>:<first ringlame function>
# ("none" when the input runs clean)
signature() {
    local out kind fn
    out=$(timeout 120 "$1" -timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=2048 "$2" 2>&1)
    if grep -q 'FUZZ INVARIANT BROKEN' <<<"$out"; then
        grep -m1 'FUZZ INVARIANT BROKEN' <<<"$out" | sed -E 's/.*\): //; s/[0-9]+/N/g; s/^(.{60}).*/\1/; s/^/invariant:/'
        return
    fi
    if grep -q 'runtime error:' <<<"$out"; then kind=ubsan
    elif grep -q 'ERROR: libFuzzer: timeout' <<<"$out"; then kind=timeout
    elif grep -q 'ERROR: libFuzzer: out-of-memory' <<<"$out"; then kind=oom
    elif grep -q 'ERROR: LeakSanitizer' <<<"$out"; then kind=leak
    elif grep -q 'ERROR: AddressSanitizer:' <<<"$out"; then
        kind=asan-$(grep -m1 -oE 'ERROR: AddressSanitizer: [a-zA-Z-]+' <<<"$out" | awk '{print $3}')
    elif grep -q 'ERROR: libFuzzer' <<<"$out"; then kind=signal
    else echo none; return
    fi
    # the first stack frame in ringlame's own code (src/)
    fn=$(grep -E '^ +#[0-9]+ 0x[0-9a-f]+ in [^ ]+ [^ ]*/src/' <<<"$out" | head -1 | awk '{print $4}')
    echo "$kind:${fn:-?}"
}

# ---- regressions: the regression inputs and the seeds under the
# sanitizers (CTest runs them without), right after the build so that
# inputs and binaries are of the same moment; any report fails the run ----
status=0
summary=()
for t in "${TARGETS[@]}"; do
    bin="$BUILD/tests/fuzz_$t"
    files=()
    for f in "$HERE/regress/$t"/* "$HERE/corpus/$t"/*; do
        [ -f "$f" ] || continue
        case $(basename "$f") in README*|*.md) continue ;; esac
        files+=("$f")
    done
    [ ${#files[@]} -gt 0 ] || continue
    if ! timeout 600 "$bin" -timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=2048 "${files[@]}" \
            >"$BUILD/fuzz-$t-regress.log" 2>&1; then
        echo "fuzz $t: REGRESSION: a regression input or seed fails under the sanitizers" \
             "(log: $BUILD/fuzz-$t-regress.log)"
        grep -E 'Running:|runtime error|ERROR:|INVARIANT' "$BUILD/fuzz-$t-regress.log" | tail -4 | sed 's/^/  /'
        summary+=("fuzz $t: REGRESSION (see $BUILD/fuzz-$t-regress.log)")
        status=1
    else
        echo "fuzz $t: ${#files[@]} regression inputs and seeds pass under the sanitizers"
    fi
done

# ---- fuzz ----
for t in "${TARGETS[@]}"; do
    case $t in
        pcm)    max_len=16384 ;;
        args)   max_len=1024 ;;
        encode) max_len=4096 ;;
        mp3)    max_len=16384 ;;
        *)      max_len=4096 ;;
    esac
    bin="$BUILD/tests/fuzz_$t"
    work="$BUILD/fuzz-work/$t"
    out="$FINDINGS/$t"
    log="$BUILD/fuzz-$t.log"
    [ "${RL_FUZZ_FRESH:-0}" = 1 ] && rm -rf "$work"
    mkdir -p "$work" "$out"
    dict=()
    [ -f "$HERE/$t.dict" ] && dict=(-dict="$HERE/$t.dict")

    # the signatures of the open findings
    known=()
    if [ "$STRICT" != 1 ] && [ -d "$HERE/findings-open/$t" ]; then
        for f in "$HERE/findings-open/$t"/*; do
            [ -f "$f" ] || continue
            case $(basename "$f") in README*|*.md) continue ;; esac
            s=$(signature "$bin" "$f")
            [ "$s" != none ] && known+=("$s")
        done
    fi

    stamp=$(mktemp)
    echo "fuzz: $t for ${SECS}s (log: $log; ${#known[@]} known open findings)"
    # fork mode with one job: a finding is saved and fuzzing goes on, so
    # one bug does not hide the rest; -timeout makes hangs findings
    "$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$SECS" -max_len="$max_len" -timeout=10 -rss_limit_mb=2560 \
        -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/" "${dict[@]}" \
        "$work" "$HERE/corpus/$t" >"$log" 2>&1
    rc=$?
    # the last fork-mode status line:
    #   #N: cov: C ft: F corp: K exec/s E oom/timeout/crash: O/T/X time: Ss job: J dft_time: D
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
    execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$last")
    otc=$(sed -nE 's/.*oom\/timeout\/crash: ([0-9]+\/[0-9]+\/[0-9]+).*/\1/p' <<<"$last")
    secs=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$last")

    # classify what this run saved
    new=0
    nknown=0
    details=()
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        s=$(signature "$bin" "$f")
        is_known=0
        for k in "${known[@]}"; do [ "$k" = "$s" ] && is_known=1; done
        if [ "$is_known" = 1 ]; then
            nknown=$((nknown + 1))
            details+=("  known: $f  [$s]")
        else
            new=$((new + 1))
            details+=("  NEW:   $f  [$s]")
        fi
    done < <(find "$out" -maxdepth 1 -type f -newer "$stamp" | sort)
    rm -f "$stamp"

    line="fuzz $t: ${execs:-?} execs, cov: ${cov:-?}, ft: ${ft:-?}, corpus ${corp:-?}, ${secs:-?} s, oom/timeout/crash ${otc:-?}, findings: $new new, $nknown known (in $out)"
    summary+=("$line")
    echo "$line"
    [ ${#details[@]} -gt 0 ] && printf '%s\n' "${details[@]}"
    if [ "$new" -gt 0 ]; then
        status=1
    elif [ -z "$last" ] || { [ "$rc" -ne 0 ] && [ "$nknown" -eq 0 ]; }; then
        echo "  fuzz: $t did not run as expected (libFuzzer exit $rc, see $log)"
        tail -5 "$log" | sed 's/^/  /'
        status=1
    fi
done
echo "---- fuzz summary ($(date -u +%Y-%m-%dT%H:%MZ), ${SECS}s per target) ----"
printf '%s\n' "${summary[@]}"
exit $status
