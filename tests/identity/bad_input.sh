#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/bad_input: what ringlame refuses.  Unlike lame (which encodes
# anything libsndfile cannot open as raw noise) ringlame refuses non-audio
# input; every refusal must exit non-zero with a message and leave no output.
# lame options on program paths ringlame does not have (album art, gapless
# sets, decoded-output ReplayGain) are refused too,
# with a message that names the option.
. "$(dirname "$0")/lib.sh"
id_init "$@"

printf 'this is not audio\n' >"$IN/notaudio.wav"
head -c 4000 "$GEN" >"$IN/binary.wav"          # arbitrary bytes
: >"$IN/empty.wav"
printf 'RIFF\x24\x00\x00\x00WAVEfmt ' >"$IN/truncated_header.wav"
gen three_ch.wav -t mix -c 3 -d 1
gen six_ch.wav -t mix -c 6 -d 1
gen good.wav -t mix -d 1

check_bad not_audio 'notaudio\.wav' "$IN/notaudio.wav" -V 2
check_bad binary 'binary\.wav' "$IN/binary.wav" -V 2
check_bad empty_file 'empty\.wav' "$IN/empty.wav" -V 2
check_bad truncated_header 'truncated_header\.wav' "$IN/truncated_header.wav" -V 2
check_bad missing_file 'no_such_file\.wav' "$IN/no_such_file.wav" -V 2
check_bad three_channels 'channel' "$IN/three_ch.wav" -V 2
check_bad six_channels 'channel' "$IN/six_ch.wav" -V 2
check_bad_stdout not_audio_stdout 'notaudio\.wav' "$IN/notaudio.wav" -V 2
check_bad_stdout three_channels_stdout 'channel' "$IN/three_ch.wav" -V 2
BAD_OUTPUT=/nonexistent-dir/out.mp3 check_bad bad_output_dir 'nonexistent-dir' "$IN/good.wav" -V 2
# a write error during the encode names the output and the problem
if [ -w /dev/full ]; then
    BAD_OUTPUT=/dev/full check_bad disk_full '/dev/full.*No space left' "$IN/good.wav" -V 2
    BAD_OUTPUT=/dev/full check_bad disk_full_sequential '/dev/full.*No space left' "$IN/good.wav" -V 2 --sequential
else
    id_fail disk_full "/dev/full is not writable here"
fi

# the input is never overwritten: the output is compared with the input as
# a file (device and inode), whatever name reaches it
same_file_case() {  # NAME OUTPUT_NAME (relative to the case directory) [SETUP]
    local name=$1 o=$2 setup=${3:-} dir="$OUT/same-$1" before after rc
    rm -rf "$dir"; mkdir -p "$dir/sub"
    cp "$IN/good.wav" "$dir/in.wav"
    before=$(cksum <"$dir/in.wav")
    [ -n "$setup" ] && ( cd "$dir" && eval "$setup" )
    ( cd "$dir/sub" && timeout "$RL_TIMEOUT" "$RL" -V 5 ../in.wav "$o" </dev/null >"$WORK/same.out" 2>"$WORK/same.err" )
    rc=$?
    after=$(cksum <"$dir/in.wav")
    if [ $rc -eq 0 ]; then
        id_fail "same_file_$name" "ringlame accepted the input as its output (exit 0)"
    elif [ "$before" != "$after" ]; then
        id_fail "same_file_$name" "the input was changed"
    elif ! grep -q 'is the input file itself' "$WORK/same.err"; then
        id_fail "same_file_$name" "no clear message" "stderr: $(head -c 300 "$WORK/same.err")"
    else
        id_ok "same_file_$name (exit $rc)"
        rm -rf "$dir"
    fi
}
same_file_case same_name ../in.wav
same_file_case dot_slash ./../in.wav
same_file_case absolute "$OUT/same-absolute/in.wav"
same_file_case parent_dir ../sub/../in.wav
same_file_case symlink ../link.wav 'ln -s in.wav link.wav'
same_file_case hard_link ../hard.wav 'ln in.wav hard.wav'

check_bad unknown_option 'unrecognized option --frobnicate' "$IN/good.wav" --frobnicate -V 2
# numbers no setting can hold (lame crashes on -V nan): refused, naming the option
check_bad nan_V "option -V: 'nan' is not a usable number" "$IN/good.wav" -V nan
check_bad inf_scale "option --scale: 'inf'" "$IN/good.wav" --scale inf
check_bad huge_resample "option --resample: '1e300'" "$IN/good.wav" --resample 1e300
check_bad nan_lowpass "option --lowpass: 'nan'" "$IN/good.wav" --lowpass nan
check_bad huge_s "option -s: '35816223535'" "$IN/good.wav" -s 35816223535
# a negative rate: lame cannot open its input (exit 255); a rate that
# truncates to 0 Hz means "the file's rate", as in lame
check_bad negative_s "option -s: '-1'" "$IN/good.wav" -s -1
check_bad negative_s_small "option -s: '-0.002'" "$IN/good.wav" -s -0.002
check_file s_rounds_to_zero "$IN/good.wav" -s -0.0011

id_summary
