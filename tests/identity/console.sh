#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/console: lame's console text on stderr (captured, not a
# terminal) compared with ringlame's after masking the timing fields (the
# CPU and real times, their estimates, play/CPU and ETA of each progress
# line; the frame counts and percentages stay): the banner and filter
# notes, "Encoding X to Y", "Encoding as ...", the progress lines (with
# --nohist, and with lame's bitrate histogram under them, laid out for
# TERM unset, xterm, vt100 and dumb), "Writing LAME Tag...done",
# "ReplayGain: ...", --clipdetect's verdict, --verbose's settings dump,
# -S/--silent/--quiet/--brief, stdin and stdout, resampling (the lines where
# lame prints them); --nogap sets (each file's text in turn); and --decode's text (input/output lines, samples
# skipped, Frame# lines); damaged MPEG input (the decoder's messages); and bad command lines (usage text, messages, exit
# status).
# ringlame's own lines after lame's (--verbose: SIMD level, ring times) are
# left out.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen st.wav -t mix -d 7 -S 41
gen mono22.wav -t mix -r 22050 -c 1 -d 9 -S 42
gen st48.wav -t mix -r 48000 -d 5 -S 43
gen short.wav -t mix -d 0.2 -S 44

# the progress lines are '\r'-separated: one per text line, timing masked
mask() {
    sed 's/\r/<CR>\n/g' "$1" | awk '{
        i = index($0, "%)|")
        if (i) { h = substr($0, 1, i + 2); t = substr($0, i + 3); gsub(/[0-9.]/, "9", t); $0 = h t }
        print }' | sed '/^SIMD level: /,$d'
}

# both_ran NAME LAME_RC RL_RC RL_STDERR: 0 when both exited 0, else a FAIL
both_ran() {
    if [ "$2" -ne 0 ]; then
        id_fail "$1" "the reference lame failed (exit $2): the case itself is wrong"
    elif [ "$3" -ne 0 ]; then
        id_fail "$1" "ringlame exited with $3" "$(head -c 300 "$4")"
    else
        return 0
    fi
    return 1
}

# ringlame built with termcap (as Debian's lame is) lays the histogram out
# for TERM's terminal
TERMCAP_BUILD=$(ldd "$RL" 2>/dev/null | grep -E 'libtinfo|libncurses')
# HIST: the histogram cases' TERM ("" = the cases run with --nohist)
HIST=

check_console() {   # NAME MODE INPUT OPTS...   MODE: file, stdin, stdout
    local name=$1 mode=$2 in=$3; shift 3
    local d="$OUT/$name" rc lrc
    local -a tenv=(env -u TERM)
    if [ -n "$HIST" ] && [ "$HIST" != unset ] && [ -z "$TERMCAP_BUILD" ]; then
        return 0            # a build without termcap lays out for no terminal
    fi
    if [ -n "$HIST" ]; then
        [ "$HIST" = unset ] || tenv=(env -u COLUMNS -u LINES "TERM=$HIST")
    else
        set -- --nohist "$@"
    fi
    rm -rf "$d"; mkdir -p "$d/lame" "$d/rl"
    case $mode in
    file)   lame_opts "$@"
            (cd "$d/lame" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$LAME" "${LOPTS[@]}" "$in" out.mp3 </dev/null 2>err >/dev/null); lrc=$?
            (cd "$d/rl" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$RL" "$@" "$in" out.mp3 </dev/null 2>err >/dev/null); rc=$? ;;
    stdin)  (cd "$d/lame" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$LAME" "$@" - out.mp3 <"$in" 2>err >/dev/null); lrc=$?
            (cd "$d/rl" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$RL" "$@" - out.mp3 <"$in" 2>err >/dev/null); rc=$? ;;
    stdout) (cd "$d/lame" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$LAME" "$@" "$in" - </dev/null 2>err >out.mp3); lrc=$?
            (cd "$d/rl" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$RL" "$@" "$in" - </dev/null 2>err >out.mp3); rc=$? ;;
    esac
    mask "$d/lame/err" >"$d/lame.txt"
    mask "$d/rl/err" >"$d/rl.txt"
    if ! both_ran "$name" $lrc $rc "$d/rl/err"; then
        :
    elif ! cmp -s "$d/lame.txt" "$d/rl.txt"; then
        id_fail "$name" "stderr differs (masked; - lame, + ringlame)" \
            "$(diff "$d/lame.txt" "$d/rl.txt" | head -n 8)"
    elif ! cmp -s "$d/lame/out.mp3" "$d/rl/out.mp3"; then
        id_fail "$name" "the MP3s differ"
    else
        id_ok "$name"
        [ -n "${RL_KEEP:-}" ] || rm -rf "$d"
    fi
}

# --nogap: lame's text for each file of the set in turn (the banner,
# "Encoding X to Y", the progress lines and histogram counted from the
# file's first frame, "Writing LAME Tag...done" with --nogaptags, the
# file's own "ReplayGain: ..."); the sets' files copied beside each run,
# the outputs written beside them, each compared
check_nogap_console() {     # NAME "FILES" OPTS...
    local name=$1 files=$2; shift 2
    local d="$OUT/$name" rc lrc f side
    local -a tenv=(env -u TERM) names=()
    if [ -n "$HIST" ] && [ "$HIST" != unset ] && [ -z "$TERMCAP_BUILD" ]; then
        return 0
    fi
    if [ -n "$HIST" ]; then
        [ "$HIST" = unset ] || tenv=(env -u COLUMNS -u LINES "TERM=$HIST")
    else
        set -- --nohist "$@"
    fi
    rm -rf "$d"; mkdir -p "$d/lame" "$d/rl"
    for f in $files; do cp "$IN/$f" "$d/lame/"; cp "$IN/$f" "$d/rl/"; names+=("$f"); done
    lame_opts "$@"
    (cd "$d/lame" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$LAME" "${LOPTS[@]}" --nogap "${names[@]}" </dev/null 2>err >/dev/null); lrc=$?
    (cd "$d/rl" && "${tenv[@]}" timeout "$RL_TIMEOUT" "$RL" "$@" --nogap "${names[@]}" </dev/null 2>err >/dev/null); rc=$?
    mask "$d/lame/err" >"$d/lame.txt"
    mask "$d/rl/err" >"$d/rl.txt"
    if ! both_ran "$name" $lrc $rc "$d/rl/err"; then
        return 0
    elif ! cmp -s "$d/lame.txt" "$d/rl.txt"; then
        id_fail "$name" "stderr differs (masked; - lame, + ringlame)" \
            "$(diff "$d/lame.txt" "$d/rl.txt" | head -n 8)"
        return 0
    fi
    for f in "${names[@]}"; do
        case $f in *.wav) side=${f%.wav}.mp3 ;; *) side=$f.mp3 ;; esac
        if ! cmp -s "$d/lame/$side" "$d/rl/$side"; then
            id_fail "$name" "$side differs"
            return 0
        fi
    done
    id_ok "$name"
    [ -n "${RL_KEEP:-}" ] || rm -rf "$d"
}
gen ng_mid.wav -t mix -d 2.3 -S 45
gen ng_tiny.wav -t white -n 10 -S 46
gen ng_mono1.wav -t mix -c 1 -r 22050 -d 3 -S 47
gen ng_mono2.wav -t pink -c 1 -r 22050 -d 1.1 -S 48
NG3="st.wav ng_mid.wav short.wav"
check_nogap_console nogap_cbr "$NG3" -b 128
check_nogap_console nogap_vbr_tags "$NG3" -V 2 --nogaptags
check_nogap_console nogap_two_mono_abr "ng_mono1.wav ng_mono2.wav" --abr 40
check_nogap_console nogap_tiny_middle_threads1 "ng_mid.wav ng_tiny.wav short.wav" -V 4 --threads 1
check_nogap_console nogap_sequential_tags "ng_mid.wav short.wav" --sequential -b 96 --nogaptags
check_nogap_console nogap_S "$NG3" -S -V 2
check_nogap_console nogap_quiet "$NG3" --quiet --nogaptags
check_nogap_console nogap_verbose "ng_mid.wav short.wav" --verbose -V 5
# --clipdetect's verdict for each file, on its own peak
gen ng_loud.wav -t mix -d 1.5 -a 1.0 -S 49
check_nogap_console nogap_clipdetect "ng_loud.wav ng_mid.wav short.wav" --clipdetect --nogaptags
check_nogap_console nogap_clipdetect_seq "ng_mid.wav ng_loud.wav" --sequential --clipdetect -b 128
check_nogap_console nogap_rg_accurate_threads1 "$NG3" --threads 1 --replaygain-accurate -V 2
# a set that starts with an empty file: lame's library prints "strange
# error flushing buffer ... " at its end (no frame to flush), whatever the
# silence
gen ng_empty.wav -t mix -n 0 -S 50
check_nogap_console nogap_empty_first "ng_empty.wav ng_mid.wav short.wav" -b 96 --nogaptags
check_nogap_console nogap_empty_first_quiet "ng_empty.wav ng_tiny.wav ng_mid.wav" --quiet -V 2
HIST=unset
check_nogap_console nogap_hist_vbr "$NG3" -V 2
check_nogap_console nogap_hist_cbr_tags "$NG3" -b 160 --nogaptags
check_nogap_console nogap_hist_threads2 "$NG3" --abr 96 --threads 2
check_nogap_console nogap_hist_S "ng_mid.wav short.wav" -S -V 3
HIST=

# --decode: lame's "input:"/"output:" lines, the samples skipped and the
# "Frame#" lines (no timing in them: compared as they are), and the WAV
check_decode() {    # NAME INPUT OUT OPTS...   INPUT "-": stdin from $STDIN_FILE
    local name=$1 in=$2 out=$3; shift 3
    local d="$OUT/$name" rc lrc
    rm -rf "$d"; mkdir -p "$d/lame" "$d/rl"
    if [ "$in" = - ]; then
        (cd "$d/lame" && timeout "$RL_TIMEOUT" "$LAME" "$@" --decode - "$out" <"$STDIN_FILE" 2>err >stdout); lrc=$?
        (cd "$d/rl" && timeout "$RL_TIMEOUT" "$RL" "$@" --decode - "$out" <"$STDIN_FILE" 2>err >stdout); rc=$?
    else
        (cd "$d/lame" && timeout "$RL_TIMEOUT" "$LAME" "$@" --decode "$in" "$out" </dev/null 2>err >stdout); lrc=$?
        (cd "$d/rl" && timeout "$RL_TIMEOUT" "$RL" "$@" --decode "$in" "$out" </dev/null 2>err >stdout); rc=$?
    fi
    if ! both_ran "$name" $lrc $rc "$d/rl/err"; then
        :
    elif ! cmp -s "$d/lame/err" "$d/rl/err"; then
        id_fail "$name" "stderr differs (- lame, + ringlame)" \
            "$(diff <(tr '\r' '\n' <"$d/lame/err") <(tr '\r' '\n' <"$d/rl/err") | head -n 8)"
    elif ! cmp -s "$d/lame/stdout" "$d/rl/stdout" \
         || { [ "$out" != - ] && ! cmp -s "$d/lame/$out" "$d/rl/$out"; }; then
        id_fail "$name" "the decoded output differs"
    else
        id_ok "$name"
        [ -n "${RL_KEEP:-}" ] || rm -rf "$d"
    fi
}

# bad command lines: lame's usage text and messages (both run as "lame"
# through a link: lame names itself by argv[0], as ringlame does), stdout,
# exit status
check_usage() {     # NAME ARGS...
    local name=$1; shift
    local d="$OUT/$name" rc lrc
    rm -rf "$d"; mkdir -p "$d/lame/bin" "$d/rl/bin"
    ln -s "$LAME" "$d/lame/bin/lame"; ln -s "$RL" "$d/rl/bin/lame"
    (cd "$d/lame" && PATH="$d/lame/bin:$PATH" timeout "$RL_TIMEOUT" lame "$@" </dev/null 2>err >stdout); lrc=$?
    (cd "$d/rl" && PATH="$d/rl/bin:$PATH" timeout "$RL_TIMEOUT" lame "$@" </dev/null 2>err >stdout); rc=$?
    if [ $lrc -ne $rc ]; then
        id_fail "$name" "exit status $rc, lame's is $lrc"
    elif ! cmp -s "$d/lame/err" "$d/rl/err" || ! cmp -s "$d/lame/stdout" "$d/rl/stdout"; then
        id_fail "$name" "the text differs (- lame, + ringlame)" \
            "$(diff <(cat "$d/lame/stdout" "$d/lame/err") <(cat "$d/rl/stdout" "$d/rl/err") | head -n 8)"
    else
        id_ok "$name"
        [ -n "${RL_KEEP:-}" ] || rm -rf "$d"
    fi
}

S=$IN/st.wav M=$IN/mono22.wav W=$IN/st48.wav
check_console default file "$S"
check_console V2 file "$S" -V 2
check_console abr file "$S" --abr 96
check_console cbr_mono_q0 file "$S" -m m -b 64 -q 0
check_console vbr_old file "$S" --vbr-old -V 4
check_console mpeg2_mono file "$M" -V 5
check_console resample_down file "$W" --resample 32 -b 96
check_console resample_mpeg25 file "$S" -b 32
check_console resample_up file "$M" --resample 44.1 -b 320
check_console short file "$IN/short.wav" -V 3
check_console highpass_dropped file "$S" --highpass 0.1 --lowpass 10
check_console freeformat file "$S" --freeformat -b 400
check_console noreplaygain_notag file "$S" --noreplaygain -t
check_console clipdetect file "$S" --clipdetect
check_console clipdetect_V2_stdout stdout "$S" -V 2 --clipdetect
check_console replaygain_accurate file "$M" -V 5 --replaygain-accurate
check_console tags file "$S" --tt Title --ta Artist -b 160
check_console brief file "$S" --brief
check_console S file "$S" -S
check_console silent file "$S" --silent
check_console quiet file "$S" --quiet --highpass 0.1
check_console verbose file "$S" --verbose -V 2
check_console verbose_abr_mono file "$M" --verbose --abr 48 -m m
check_console verbose_options file "$S" --verbose --athtype 2 --ns-bass 3 --scale-l 0.5 -Y -m f -b 192
check_console stdin stdin "$S" -V 4
check_console stdin_brief stdin "$S" --brief
check_console stdout stdout "$S" -b 128
check_console threads1 file "$S" --threads 1
check_console sequential file "$S" --sequential -V 6
# lame's bitrate histogram (its default): VBR, CBR, ABR, mono, free format,
# CBR with -B's rows, on each terminal type
HIST=unset
check_console hist_vbr file "$S" -V 2
check_console hist_cbr file "$S" -b 128
check_console hist_abr file "$S" --abr 96
check_console hist_mono file "$M" -V 5
check_console hist_freeformat file "$S" --freeformat -b 400
check_console hist_cbr_max file "$S" -b 128 -B 256
check_console hist_vbr_bounds_seq file "$S" --sequential -V 0 -b 96 -B 192
check_console hist_silent file "$S" -S -V 2
HIST=xterm
check_console hist_xterm_vbr file "$S" -V 2
check_console hist_xterm_cbr_mono file "$S" -m m -b 64
check_console hist_xterm_mpeg2 file "$M" --abr 40
HIST=vt100
check_console hist_vt100 file "$S" -V 4
HIST=dumb
check_console hist_dumb file "$S" --abr 128
HIST=

# --decode's text, from MP3s lame made
for m in "vbr:$S:-V 2" "cbr_notag:$S:-b 128 -t" "mpeg2_mono:$M:-V 5" "mpeg25:$S:-b 24 --resample 8"; do
    IFS=: read -r mname msrc mopts <<<"$m"
    [ -s "$IN/dec_$mname.mp3" ] || "$LAME" --quiet $mopts "$msrc" "$IN/dec_$mname.mp3" \
        || id_fail "make dec_$mname.mp3" "lame failed"
done
check_decode decode_vbr "$IN/dec_vbr.mp3" out.wav
check_decode decode_cbr_notag "$IN/dec_cbr_notag.mp3" out.wav
check_decode decode_mpeg2_mono "$IN/dec_mpeg2_mono.mp3" out.wav
check_decode decode_mpeg25_raw "$IN/dec_mpeg25.mp3" out.raw -t
check_decode decode_stdout "$IN/dec_vbr.mp3" -
check_decode decode_S "$IN/dec_vbr.mp3" out.wav -S
check_decode decode_quiet "$IN/dec_vbr.mp3" out.wav --quiet
check_decode decode_delay "$IN/dec_vbr.mp3" out.wav --decode-mp3delay 100
check_decode decode_wav "$S" out.wav
STDIN_FILE=$IN/dec_vbr.mp3 check_decode decode_stdin_mp3 - out.wav --mp3input
STDIN_FILE=$S check_decode decode_stdin_wav - out.wav
# garbage between frames: the decoder's "hip: bitstream problem, resyncing
# skipping N bytes..." between the Frame# lines (none with --quiet)
{ head -c 20000 "$IN/dec_cbr_notag.mp3"; printf 'garbage-garbage-garbage'
  tail -c +20001 "$IN/dec_cbr_notag.mp3"; } >"$IN/dec_junk.mp3"
check_decode decode_resync "$IN/dec_junk.mp3" out.wav
check_decode decode_resync_quiet "$IN/dec_junk.mp3" out.wav --quiet

# MPEG input encodes: the progress lines where lame reads the decoded
# chunks (a line for each read that encoded no frame: MPEG-2 input into
# MPEG-1, Layer I), with the histogram
HIST=unset
check_console transcode_vbr file "$IN/dec_vbr.mp3" -b 128
check_console transcode_mpeg2_to_mpeg1 file "$IN/dec_mpeg2_mono.mp3" -b 128
check_console transcode_notag_abr file "$IN/dec_cbr_notag.mp3" --abr 64
check_console transcode_mpeg25 file "$IN/dec_mpeg25.mp3" -b 32
# --nogap sets of MPEG files read by lame's decoder: each file's own reads
[ -s "$IN/ng_m2.mp3" ] || "$LAME" --quiet -V 5 "$IN/ng_mono2.wav" "$IN/ng_m2.mp3" \
    || id_fail "make ng_m2.mp3" "lame failed"
check_nogap_console nogap_mp3input_mpeg2_to_mpeg1 "dec_mpeg2_mono.mp3 ng_m2.mp3" \
    --mp3input --resample 44.1 -b 96
check_nogap_console nogap_mp3input_tags_threads2 "dec_vbr.mp3 dec_cbr_notag.mp3" \
    --mp3input -V 4 --nogaptags --threads 2
# damaged MP3 input: the decoder's messages ("hip: bitstream problem,
# resyncing skipping N bytes...", "hip: Can't rewind stream by N bits!")
# between the progress lines at the read that made them, whatever the
# threads; a stream cut mid-frame; one cut inside the end's skip (lame's
# last read fails: no display for it, and --decode shows no Frame# line)
{ head -c 30000 "$IN/dec_vbr.mp3"; printf 'garbage-garbage-garbage'
  head -c 60000 "$IN/dec_vbr.mp3" | tail -c +30001; head -c 300 /dev/zero
  tail -c +60301 "$IN/dec_vbr.mp3"; } >"$IN/dec_damaged.mp3"
head -c $(( $(wc -c <"$IN/dec_vbr.mp3") - 333 )) "$IN/dec_vbr.mp3" >"$IN/dec_cut.mp3"
head -c 1000 "$IN/dec_vbr.mp3" >"$IN/dec_cut_short.mp3"
# junk every 997 bytes: messages in the reads that show a progress line too
# (lame reads, then shows the line: the read's messages come first)
(cd "$IN" && rm -f dense_part_* && split -b 997 -d -a 3 dec_vbr.mp3 dense_part_ \
    && for f in dense_part_*; do cat "$f"; printf 'junk'; done >dec_dense.mp3; rm -f dense_part_*)
check_console damaged_threads1 file "$IN/dec_damaged.mp3" -V 2 --threads 1
check_console damaged_threads2 file "$IN/dec_damaged.mp3" -V 2 --threads 2
check_console damaged_sequential file "$IN/dec_damaged.mp3" -V 2 --sequential
check_console damaged_S file "$IN/dec_damaged.mp3" -S -b 128
check_console cut_threads2 file "$IN/dec_cut.mp3" -V 4 --threads 2
check_console cut_short file "$IN/dec_cut_short.mp3" -V 2
check_console dense_threads2 file "$IN/dec_dense.mp3" -V 2 --threads 2
# a stream that changes its channels and rate: lame's "Error: ... has
# changed" from its last read, before the end's display
cat "$IN/dec_cbr_notag.mp3" "$IN/dec_mpeg2_mono.mp3" >"$IN/dec_changed.mp3"
check_console changed_threads2 file "$IN/dec_changed.mp3" -b 128 --threads 2
HIST=
check_console damaged_nohist file "$IN/dec_damaged.mp3" -b 96 --threads 2
check_console cut_short_nohist_seq file "$IN/dec_cut_short.mp3" --sequential -V 2
check_console dense_nohist_seq file "$IN/dec_dense.mp3" --sequential -V 2
check_decode decode_damaged "$IN/dec_damaged.mp3" out.wav
check_decode decode_cut "$IN/dec_cut.mp3" out.wav
check_decode decode_cut_short "$IN/dec_cut_short.mp3" out.wav
check_decode decode_dense "$IN/dec_dense.mp3" out.wav

# bad command lines
check_usage usage_no_args
check_usage usage_no_input -V 2
check_usage usage_unknown_long --foo "$S"
check_usage usage_unknown_short -Z
check_usage usage_missing_b -b
check_usage usage_missing_V -V
check_usage usage_missing_tt --tt
check_usage usage_excess "$S" out.mp3 extra
check_usage usage_bad_mode -m x "$S"
check_usage usage_bad_preset --preset foo "$S"
check_usage usage_preset_missing --preset
check_usage usage_preset_range --preset 400 "$S"
check_usage usage_raw_warning -r
id_summary
