#!/usr/bin/env bash
# identity/bad_input: what ringlame refuses.  Unlike lame (which encodes
# anything libsndfile cannot open as raw noise) ringlame refuses non-audio
# input; every refusal must exit non-zero with a message and leave no output.
# Options outside the ported slice (CBR, ABR, --vbr-old) are refused too;
# -b/-B/-F are VBR limits, so without a VBR option they are refused as CBR.
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

# not ported yet: must be refused, never encoded differently from lame
check_bad cbr_default '.' "$IN/good.wav"
check_bad cbr_b128 'option -b: CBR/ABR are not supported' "$IN/good.wav" -b 128
check_bad cbr_b128_F 'option -b: CBR/ABR are not supported' "$IN/good.wav" -b 128 -F
check_bad cbr_B192 'option -B: CBR/ABR are not supported' "$IN/good.wav" -B 192
check_bad cbr_F 'option -F: CBR/ABR are not supported' "$IN/good.wav" -F
check_bad abr_160_V2 '.' "$IN/good.wav" -V 2 --abr 160
check_bad cbr_flag_V2 '.' "$IN/good.wav" -V 2 -b 128 --cbr
check_bad cbr_flag '.' "$IN/good.wav" --cbr -b 192
check_bad abr_160 '.' "$IN/good.wav" --abr 160
check_bad preset_128 '.' "$IN/good.wav" --preset 128
check_bad vbr_old '.' "$IN/good.wav" --vbr-old -V 2
check_bad unknown_option 'frobnicate' "$IN/good.wav" --frobnicate -V 2

id_summary
