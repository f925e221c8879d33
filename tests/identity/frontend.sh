#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/frontend: lame's front end where an option's effect depends on
# the input path, and lame's exit statuses, against lame (bytes and exit
# status):
#  - the byte order options (-x, --big-endian) and --unsigned on a WAV or
#    AIFF read from stdin (lame's own reader applies them to the samples);
#  - inputs lame opens but whose first read fails (a 64-bit float WAV on
#    stdin, --unsigned wider than 8 bits, --bitwidth 12 on raw input):
#    lame's message and a stream of the tag frame and one frame, exit 0;
#  - --decode-mp3delay N on PCM input (lame drops the first N samples; on
#    stdin with a header length it also reads N fewer), with --decode too;
#  - --swap-channel with --decode (stereo; mono WAV: silence; mono MP3:
#    lame hands out its previous read);
#  - the last of -r and --mpNinput deciding the input's kind;
#  - exit 255 where lame cannot open the input or the output, and lame's
#    handling of "-" in a --nogap command line.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen st.wav -t mix -d 1.5 -S 61
gen mono.wav -t mix -c 1 -d 1.5 -S 62
gen st24.wav -t mix -b 24 -d 1 -S 63
gen u8.wav -t mix -b u8 -d 1 -S 64
gen st.aif -f aiff -t mix -d 1.5 -S 65
gen d64.wav -t mix -b double -d 1 -S 66
gen st.raw -f raw -b 16 -t mix -d 1.5 -S 67
mkmp3 st.mp3 st.wav -V 4
mkmp3 mono.mp3 mono.wav -b 64

# byte order and signedness on stdin
check_stdin stdin_wav_x "$IN/st.wav" -x
check_stdin stdin_wav_big_endian "$IN/st.wav" --big-endian
check_stdin stdin_wav_big_endian_x "$IN/st.wav" --big-endian -x
check_stdin stdin_wav24_big_endian "$IN/st24.wav" --big-endian -V 2
check_stdin stdin_wav_u8_big_endian "$IN/u8.wav" --big-endian
check_stdin stdin_aiff_x "$IN/st.aif" -x
check_stdin stdin_aiff_big_endian "$IN/st.aif" --big-endian
check_stdin stdin_aiff_little_endian "$IN/st.aif" --little-endian
check_stdin stdin_wav_signed "$IN/st.wav" --signed
# the first read fails: lame's message, a two-frame stream, exit 0
check_stdin stdin_wav_unsigned "$IN/st.wav" --unsigned
check_stdin stdin_mono_wav_unsigned "$IN/mono.wav" --unsigned -V 2
check_stdin stdin_aiff_unsigned "$IN/st.aif" --unsigned
check_stdin stdin_double_wav "$IN/d64.wav"
check_stdin stdin_double_wav_decode "$IN/d64.wav" --decode
check_file raw_file_unsigned16 "$IN/st.raw" -r --unsigned
check_stdin raw_stdin_unsigned16 "$IN/st.raw" -r --unsigned
check_file raw_file_bitwidth12 "$IN/st.raw" -r --bitwidth 12
check_stdin raw_stdin_bitwidth12 "$IN/st.raw" -r --bitwidth 12
check_file raw_file_unsigned16_decode "$IN/st.raw" -r --unsigned --decode
check_file named_wav_unsigned "$IN/st.wav" --unsigned     # libsndfile: no effect
# the last of -r and --mpNinput decides what the input is
check_file raw_then_mp1input "$IN/st.raw" -r --mp1input
check_stdin raw_then_mp3input_stdin "$IN/st.raw" -r --mp3input
check_file mp3input_then_raw "$IN/st.mp3" --mp3input -r
# --mp1input on a Layer II file: lame's Layer I decode of it (its message,
# the frames it got, its status)
[ -s "$IN/st.mp2" ] || python3 "$(dirname "$0")/mpa_streams.py" layer2 "$IN/st.mp3" "$IN/st.mp2" \
    || id_fail "make st.mp2" "python3 failed"
check_file mp1input_on_layer2 "$IN/st.mp2" --mp1input
check_stdin mp1input_on_layer2_stdin "$IN/st.mp2" --mp1input
# lame's messages on those paths, word for word (stderr with the output name
# and the timing fields masked)
stderr_case() {  # NAME MODE INPUT OPTS...
    local name=$1 mode=$2 in=$3; shift 3
    local lo="$OUT/$name.lame.mp3" ro="$OUT/$name.rl.mp3" RC
    id_run "$mode" "$LAME" "$in" "$lo" "$@"
    id_run "$mode" "$RL" "$in" "$ro" "$@"
    if diff <(sed "s#$lo#OUT#; s/[0-9.]*x|/x|/" "$lo.stderr") \
            <(sed "s#$ro#OUT#; s/[0-9.]*x|/x|/" "$ro.stderr") >"$WORK/stderr.diff"; then
        id_ok "$name (stderr)"
    else
        id_fail "$name" "stderr is not lame's" "$(head -c 600 "$WORK/stderr.diff")"
    fi
}
stderr_case stderr_double_wav stdin "$IN/d64.wav"
stderr_case stderr_raw_file_unsigned16 file "$IN/st.raw" -r --unsigned
stderr_case stderr_raw_file_bitwidth12 file "$IN/st.raw" -r --bitwidth 12
stderr_case stderr_raw_stdin_x stdin "$IN/st.raw" -r -x
stderr_case stderr_mp3delay_raw_file file "$IN/st.raw" -r --decode-mp3delay 1000
stderr_case stderr_mp3delay_wav file "$IN/st.wav" --decode-mp3delay 3000 -V 2

# --decode-mp3delay on PCM input
check_file mp3delay_wav "$IN/st.wav" --decode-mp3delay 100
check_file mp3delay_wav_frames "$IN/st.wav" --decode-mp3delay 2304 -V 2
check_file mp3delay_mono_id3 "$IN/mono.wav" --decode-mp3delay 5000 --tt Delay
check_file mp3delay_past_end "$IN/st.wav" --decode-mp3delay 100000
check_file mp3delay_negative "$IN/st.wav" --decode-mp3delay -5
check_stdin mp3delay_stdin_wav "$IN/st.wav" --decode-mp3delay 1000
check_stdin mp3delay_stdin_aiff "$IN/st.aif" --decode-mp3delay 3000
check_stdin mp3delay_stdin_ignorelength "$IN/st.wav" --decode-mp3delay 1000 --ignorelength
check_stdin mp3delay_stdin_wav_past_half "$IN/st.wav" --decode-mp3delay 50000
check_file mp3delay_raw "$IN/st.raw" -r --decode-mp3delay 1000
check_stdin mp3delay_raw_stdin "$IN/st.raw" -r --decode-mp3delay 1000
check_file mp3delay_decode_wav "$IN/st.wav" --decode --decode-mp3delay 1000
check_stdin mp3delay_decode_stdin_wav "$IN/st.wav" --decode --decode-mp3delay 1000
check_file mp3delay_mp3 "$IN/st.mp3" --decode-mp3delay 100

# --swap-channel with --decode
check_file decode_swap_stereo_mp3 "$IN/st.mp3" --decode --swap-channel
check_file decode_swap_mono_mp3 "$IN/mono.mp3" --decode --swap-channel
check_file decode_swap_mono_mp3_delay "$IN/mono.mp3" --decode --swap-channel --decode-mp3delay 100
check_file decode_swap_mono_wav "$IN/mono.wav" --decode --swap-channel
check_file decode_swap_stereo_wav "$IN/st.wav" --decode --swap-channel -t
check_stdin decode_swap_mp3input "$IN/st.mp3" --decode --swap-channel --mp3input

# exit statuses where lame cannot open something: 255
check_error missing_input "$IN/no_such.wav" -V 2
printf 'ID3\x03\x00\x00\x7f\x7f\x7f\x7f' >"$IN/bogus_id3.mp3"
cat "$IN/st.mp3" >>"$IN/bogus_id3.mp3"
check_error bogus_id3v2_size "$IN/bogus_id3.mp3" -V 2
check_error decode_missing_input "$IN/no_such.mp3" --decode
status_case() {  # NAME ARGS...: lame and ringlame run in their own folder; same status, no output
    local name=$1; shift
    local d="$OUT/status-$name" lrc rrc
    rm -rf "$d"; mkdir -p "$d/lame" "$d/rl"
    ( cd "$d/lame" && timeout "$RL_TIMEOUT" "$LAME" "$@" </dev/null >out.log 2>&1 ); lrc=$?
    ( cd "$d/rl" && timeout "$RL_TIMEOUT" "$RL" "$@" </dev/null >out.log 2>&1 ); rrc=$?
    if [ $lrc -eq 0 ]; then
        id_fail "$name" "lame accepted it: the case is wrong"
    elif [ $rrc -ne $lrc ]; then
        id_fail "$name" "exit $rrc, lame's is $lrc" "$(head -c 300 "$d/rl/out.log")"
    elif [ "$(ls "$d/rl")" != out.log ]; then
        id_fail "$name" "ringlame left files: $(ls "$d/rl")"
    else
        id_ok "$name (exit $rrc: $(head -n 1 "$d/rl/out.log" | head -c 100))"
        rm -rf "$d"
    fi
}
status_case output_folder_missing -V 2 "$IN/st.wav" "$OUT/no_such_dir/x.mp3"
status_case input_is_output -V 2 "$IN/st.wav" "$IN/st.wav"
status_case nogapout_missing --nogapout "$OUT/no_such_dir" --nogap "$IN/st.wav" "$IN/st24.wav"
status_case nogap_dash_output --nogap "$IN/st.wav" - -
status_case nogap_missing_file --nogapout "$OUT" --nogap "$IN/st.wav" "$IN/no_such.wav"

# "-" in a --nogap command line is lame's single input, which a set never
# reads: the set is encoded beside its files
d="$OUT/nogap-dash"; rm -rf "$d"; mkdir -p "$d/lame" "$d/rl"
cp "$IN/st.wav" "$d/lame/a.wav"; cp "$IN/st.wav" "$d/rl/a.wav"
"$LAME" --nogap "$d/lame/a.wav" - </dev/null >"$d/lame.out" 2>/dev/null; lrc=$?
"$RL" --nogap "$d/rl/a.wav" - </dev/null >"$d/rl.out" 2>/dev/null; rrc=$?
if [ $lrc -ne $rrc ] || ! cmp -s "$d/lame/a.mp3" "$d/rl/a.mp3" || [ -s "$d/rl.out" ]; then
    id_fail nogap_dash "not lame's result (exit $rrc, lame $lrc)"
else
    id_ok "nogap_dash (exit $rrc, the set beside its file)"
    rm -rf "$d"
fi

id_summary
