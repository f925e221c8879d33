#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/options_audit: every option of `lame --longhelp` (and the words
# lame's parser takes without listing them) on every input path, against
# lame: the exit status, and the output bytes when lame writes any.
#
#   bash options_audit.sh RINGLAME GEN_SIGNAL [WORKDIR] [--full] [--doc FILE]
#
# Paths (columns): a named WAV file, a WAV on stdin, a raw file (-r), raw
# on stdin, a named MP3, an MP3 on stdin (--mp3input), --decode of an MP3,
# a --nogap set of two WAV files, the option in LAMEOPT (named WAV), and
# --batch (ringlame only: the option must be accepted or refused as lame's
# named-file path does, and an accepted one give lame's bytes).
# For each cell lame's result is written down (exit status; for exit 0
# whether the output differs from that path's output without the option:
# "applies" or "no effect") and whether ringlame's is the same.
#
# Without --full (the CTest case) a sample of the options runs: the ones
# whose handling differs by path, and every 40th of the rest (which ones:
# RL_TEST_SEED).  RL_AUDIT_JOBS rows run at once (default 2).  With
# --full every option runs, and --doc FILE replaces the table between the
# markers "<!-- options-audit:begin -->" and "<!-- options-audit:end -->"
# in FILE (docs/options.md).  Exit 1 when any cell differs.
. "$(dirname "$0")/lib.sh"

FULL=0
DOC=
ARGS=()
while [ $# -gt 0 ]; do
    case $1 in
    --full) FULL=1 ;;
    --doc) DOC=$2; shift ;;
    *) ARGS+=("$1") ;;
    esac
    shift
done
id_init "${ARGS[@]}"
[ -z "$DOC" ] || [ -f "$DOC" ] || id_die "--doc $DOC: no such file"

gen a.wav -t mix -d 0.6 -S 51
gen b.wav -t pink -d 0.4 -S 52
gen a.raw -f raw -b 16 -t mix -d 0.6 -S 53
[ -s "$IN/a.mp3" ] || "$LAME" --quiet -V 4 --tt Audit "$IN/a.wav" "$IN/a.mp3" </dev/null \
    || id_die "lame could not make a.mp3"
# --ti's picture: a PNG signature and a few bytes
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' >"$IN/pic.png"

PATHS=(file stdin raw rawin mp3 mp3in decode nogap lameopt batch)

# run_cell TOOL PATH DIR OPTS...: one run; RC its status, the outputs in DIR
run_cell() {
    local tool=$1 path=$2 d=$3; shift 3
    rm -rf "$d"; mkdir -p "$d/o"
    case $path in
    file)    ( cd "$d/o" && timeout 120 "$tool" "$@" "$IN/a.wav" out.mp3 </dev/null ) ;;
    stdin)   ( cd "$d/o" && timeout 120 "$tool" "$@" - out.mp3 <"$IN/a.wav" ) ;;
    raw)     ( cd "$d/o" && timeout 120 "$tool" -r "$@" "$IN/a.raw" out.mp3 </dev/null ) ;;
    rawin)   ( cd "$d/o" && timeout 120 "$tool" -r "$@" - out.mp3 <"$IN/a.raw" ) ;;
    mp3)     ( cd "$d/o" && timeout 120 "$tool" "$@" "$IN/a.mp3" out.mp3 </dev/null ) ;;
    mp3in)   ( cd "$d/o" && timeout 120 "$tool" --mp3input "$@" - out.mp3 <"$IN/a.mp3" ) ;;
    decode)  ( cd "$d/o" && timeout 120 "$tool" --decode "$@" "$IN/a.mp3" out.wav </dev/null ) ;;
    nogap)   cp "$IN/a.wav" "$IN/b.wav" "$d/"
             ( cd "$d/o" && timeout 120 "$tool" "$@" --nogapout "$d/o" --nogap "$d/a.wav" "$d/b.wav" </dev/null ) ;;
    lameopt) ( cd "$d/o" && LAMEOPT="$*" timeout 120 "$tool" "$IN/a.wav" out.mp3 </dev/null ) ;;
    batch)   cp "$IN/a.wav" "$d/"
             ( cd "$d" && timeout 120 "$tool" --batch --threads 1 "$@" --out-dir "$d/o" "$d/a.wav" </dev/null ) ;;
    esac >"$d/stdout" 2>"$d/stderr"
    RC=$?
    rm -f "$d"/o/.ringlame-manifest*
}

# outputs_equal DIR1 DIR2: the same files with the same bytes
outputs_equal() {
    local f
    [ "$(cd "$1/o" && ls -A | sort)" = "$(cd "$2/o" && ls -A | sort)" ] || return 1
    for f in "$1"/o/*; do
        [ -e "$f" ] || continue
        cmp -s "$f" "$2/o/${f##*/}" || return 1
    done
}

# the first line ringlame printed (its reason), for the refusals list
first_line() {
    local l
    l=$(grep -v '^LAME 3.100\|^WARNING: libsndfile\|^Compile without\|^Note: Disabling' "$1/stderr" | head -n 1)
    [ -n "$l" ] || l="(stdout) $(head -n 1 "$1/stdout")"
    l=${l//$WORK\/cell\/*\/rl\/o\//}; l=${l//$WORK\/cell\/*\/rl\//}; l=${l//$IN\//}; l=${l//$RL/ringlame}
    printf '%s' "${l:0:160}"
}

OPTIONS=$(cat <<'EOF'
-b 96
-b 320
-B 192 -V 4
-F -V 4 -b 64
--cbr -b 160
--abr 100
--abr 9000
-V 2
-V 6.5
-V 9.5
-v
--vbr-old -V 4
--vbr-new -V 4
--vbr-mtrh -V 4
--preset standard
--preset medium
--preset extreme
--preset insane
--preset 128
--preset cbr 192
--preset fast standard
--preset phone
--preset voice
--preset help
--alt-preset standard
--r3mix
--comp 8
-q 0
-q 9
-h
-f
-m s
-m j
-m f
-m d
-m m
-m l
-m r
-m a
-m x
-a
--lowpass 12
--lowpass -1
--lowpass 0
--lowpass-width 2
--highpass 0.5
--highpass-width 100
--resample 22.05
--resample 7
--scale 0.5
--scale-l 0.5
--scale-r 2
--gain -6
--swap-channel
-p
-c
-o
-e n
-e 5
-e c
-e x
--nores
--strictly-enforce-ISO
--buffer-constraint strict
--buffer-constraint bogus
-Y -V 2
-Z
--athaa-sensitivity 3
--freeformat -b 256
--freeformat
-s 32
--bitwidth 8
--bitwidth 24
--bitwidth 12
--signed
--unsigned
--little-endian
--big-endian
-x
--ignorelength
--mp1input
--mp2input
--mp3input
--ogginput
--decode-mp3delay 1000
--decode-mp3delay 0
-t
-T
--replaygain-fast
--replaygain-accurate
--noreplaygain
--clipdetect
--tt Title
--ta Artist
--tl Album
--ty 1999
--tc Comment
--tn 3
--tn 3/12
--tn 300
--tg Rock
--tg 200
--tg Nonsense
--ti pic.png
--ti missing.png
--tv TXXX=a=b
--tv bogus
--add-id3v2 --tt T
--id3v1-only --tt T
--id3v2-only --tt T
--id3v2-utf16 --tt T
--id3v2-latin1 --tt T
--space-id3v1 --tt T
--pad-id3v2
--pad-id3v2-size 300
--ignore-tag-errors --tg 200
--genre-list
-S
--silent
--quiet
--brief
--verbose
--nohist
--disptime 1
--flush
--noasm mmx
--priority 1
--nogaptags
--out-dir .
--help
--usage
--longhelp
--version
--license
-?
--noath
--athshort
--athonly
--short
--noshort
--allshort
--notemp
--nspsytune
--nssafejoint
--sfscale
--no-preset-tune
--athtype 2
--athlower 3
--athaa-type 1
--athcurve 2
--temporal-masking 1
--nsmsfix 1
--ns-bass 1
--ns-alto 1
--ns-treble 1
--ns-sfb21 1
--interch 0.1
--shortthreshold 2,3
--maskingadjust 1
--maskingadjustshort 1
--tune 1
--substep 1
--sbgain 1
--debug-file x
-X 3
-d
-k
--frobnicate
--
EOF
)

# the sample the CTest case runs: the options whose handling differs by path
SAMPLE='^(--decode-mp3delay 1000|--swap-channel|-x|--big-endian|--unsigned|--bitwidth 12|--mp1input|--ignorelength|-s 32|--scale 0.5|-m m|-V 2|-t|--tt Title|--ti missing.png|--preset help|--nogaptags|-m x|--out-dir \.)$'

mapfile -t OPTLINES <<<"$OPTIONS"
declare -A BASE_RC
for p in "${PATHS[@]}"; do
    [ "$p" = batch ] && continue
    run_cell "$LAME" "$p" "$WORK/base/$p"
    BASE_RC[$p]=$RC
    [ "$RC" -eq 0 ] || id_fail "baseline $p" "lame failed without options (exit $RC)"
done

# do_row N LINE: the option on every path; its table row in rows/N.row,
# the refusals where both refuse in rows/N.ref, the differing cells in
# rows/N.fail (run in the background, several rows at once)
do_row() {
    local n=$1 line=$2 p dl dr lrc rrc what cell row opts
    read -r -a opts <<<"$line"
    [ "${opts[0]}" = "--ti" ] && opts[1]=$IN/${opts[1]}
    row="| \`$line\` |"
    : >"$WORK/rows/$n.ref"; : >"$WORK/rows/$n.fail"
    for p in "${PATHS[@]}"; do
        dl=$WORK/cell/$n/lame; dr=$WORK/cell/$n/rl
        if [ "$p" = batch ]; then
            run_cell "$LAME" file "$dl" "${opts[@]}"; lrc=$RC
            run_cell "$RL" batch "$dr" "${opts[@]}"; rrc=$RC
            if [ $lrc -eq 0 ] && [ $rrc -eq 0 ]; then
                if [ ! -e "$dl/o/out.mp3" ] && [ ! -e "$dr/o/a.mp3" ]; then
                    cell="accepted, no file"     # --help, --version, --genre-list
                elif cmp -s "$dl/o/out.mp3" "$dr/o/a.mp3"; then
                    cell="accepted"
                else
                    cell="**differs**: bytes"
                fi
            elif [ $lrc -ne 0 ] && [ $rrc -ne 0 ]; then
                cell="refused"
            elif [ $lrc -eq 0 ]; then
                cell="**differs**: refused (exit $rrc: $(first_line "$dr"))"
            else
                cell="**differs**: accepted (lame: exit $lrc)"
            fi
        else
            run_cell "$LAME" "$p" "$dl" "${opts[@]}"; lrc=$RC
            run_cell "$RL" "$p" "$dr" "${opts[@]}"; rrc=$RC
            if [ $lrc -eq 0 ]; then
                if ls -A "$dl/o" | grep -q .; then
                    if outputs_equal "$dl" "$WORK/base/$p"; then what="no effect"; else what="applies"; fi
                else
                    what="exit 0, no file"
                fi
            else
                what="exit $lrc"
            fi
            if [ $lrc -ne $rrc ]; then
                cell="$what; **differs**: exit $rrc"
                [ $rrc -ne 0 ] && cell+=" ($(first_line "$dr"))"
            elif [ $lrc -eq 0 ] && ! outputs_equal "$dl" "$dr"; then
                cell="$what; **differs**: bytes"
            else
                cell=$what
                [ $rrc -ne 0 ] && echo "| \`$line\` | $p | $rrc | $(first_line "$dr" | sed 's/|/\\|/g') |" >>"$WORK/rows/$n.ref"
            fi
        fi
        case $cell in *differs*)
            echo "$line @ $p|$cell|lame: exit $lrc; ringlame: exit $rrc: $(first_line "$dr")" >>"$WORK/rows/$n.fail" ;;
        esac
        row+=" ${cell//|/\\|} |"
    done
    rm -rf "$WORK/cell/$n"
    echo "$row" >"$WORK/rows/$n.row"
}

JOBS=${RL_AUDIT_JOBS:-2}
rm -rf "$WORK/rows" "$WORK/cell"; mkdir -p "$WORK/rows"
ROWN=()
n=0
for line in "${OPTLINES[@]}"; do
    [ -n "$line" ] || continue
    n=$((n + 1))
    if [ "$FULL" -eq 0 ] && ! [[ $line =~ $SAMPLE ]] \
       && [ $(((n + ${RL_TEST_SEED:-0}) % 40)) -ne 0 ]; then
        continue
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    do_row "$n" "$line" &
    ROWN+=("$n|$line")
done
wait
ROWS=()
REFUSALS=()
DIFFS=0
for e in "${ROWN[@]}"; do
    n=${e%%|*}; line=${e#*|}
    if [ ! -s "$WORK/rows/$n.row" ]; then
        id_fail "$line" "its row was not written"
        continue
    fi
    ROWS+=("$(cat "$WORK/rows/$n.row")")
    while IFS= read -r r; do REFUSALS+=("$r"); done <"$WORK/rows/$n.ref"
    if [ -s "$WORK/rows/$n.fail" ]; then
        while IFS='|' read -r where cell detail; do
            DIFFS=$((DIFFS + 1))
            id_fail "$where" "$cell" "$detail"
        done <"$WORK/rows/$n.fail"
    else
        id_ok "$line (every path)"
    fi
done

REPORT=$WORK/options-audit.md
{
    echo "Generated by \`bash tests/identity/options_audit.sh --full\` against $("$LAME" --version | head -n 1 | sed 's/ (.*//')."
    echo "Cells: lame's result on that path (**applies**: exit 0 and other bytes than without the"
    echo "option; **no effect**: the same bytes; **exit N**: lame refuses, with that status), then"
    echo "where ringlame's exit status or bytes are not lame's, **differs** and how. In the batch column:"
    echo "whether \`ringlame --batch\` accepts the option as lame's named-file path does (and gives its bytes)."
    echo
    echo "| Option | named WAV | stdin WAV | raw file | raw stdin | named MP3 | stdin MP3 | --decode | --nogap | LAMEOPT | --batch |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${ROWS[@]}"
    echo
    echo "Where both refuse, ringlame's message (its first line):"
    echo
    echo "| Option | Path | Exit | ringlame's message |"
    echo "|---|---|---|---|"
    printf '%s\n' "${REFUSALS[@]}"
} >"$REPORT"
echo "report: $REPORT ($DIFFS cells differ)"

if [ -n "$DOC" ]; then
    if [ "$FULL" -ne 1 ]; then
        echo "--doc needs --full: the table must cover every option"
        exit 1
    fi
    grep -q '^<!-- options-audit:begin -->$' "$DOC" && grep -q '^<!-- options-audit:end -->$' "$DOC" \
        || id_die "$DOC has no options-audit markers"
    awk -v rep="$REPORT" '
        /^<!-- options-audit:begin -->$/ { print; while ((getline l < rep) > 0) print l; skip = 1; next }
        /^<!-- options-audit:end -->$/ { skip = 0 }
        !skip { print }' "$DOC" >"$DOC.tmp" && mv "$DOC.tmp" "$DOC"
    echo "wrote the table into $DOC"
fi
id_summary
