#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/stdout: output to stdout ("-": no tag frame), input from stdin
# (lame's own WAV/AIFF parser), both, and the default output name.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen st.wav -t mix -d 2 -S 31
gen mono.wav -t mix -c 1 -d 2 -S 32
gen st_22k.wav -t mix -r 22050 -d 2 -S 33
gen st_8k.wav -t pink -r 8000 -d 2 -S 34
gen st_24.wav -t mix -b 24 -d 2 -S 35
gen st.aif -t mix -f aiff -d 2 -S 36
gen short.wav -t mix -n 1153 -S 37
gen empty.wav -t mix -n 0
gen st.flac -t mix -f flac -d 2 -S 38

for o in "-V 2" "-V 0" "-V 4 --noreplaygain" "-V 9" "-V 5 -m m" "-V 2 -p" "-V 2 --nores"; do
    # shellcheck disable=SC2086
    check_stdout "stdout_${o// /_}" "$IN/st.wav" $o
done
check_stdout stdout_mono_V2 "$IN/mono.wav" -V 2
check_stdout stdout_22k_V4 "$IN/st_22k.wav" -V 4
check_stdout stdout_8k_V6 "$IN/st_8k.wav" -V 6
check_stdout stdout_short_V2 "$IN/short.wav" -V 2
check_stdout stdout_empty_V2 "$IN/empty.wav" -V 2
check_stdout stdout_flac_V2 "$IN/st.flac" -V 2
check_stdout stdout_t_V2 "$IN/st.wav" -V 2 -t

check_stdin stdin_wav_V2 "$IN/st.wav" -V 2
check_stdin stdin_wav24_V2 "$IN/st_24.wav" -V 2
check_stdin stdin_aiff_V2 "$IN/st.aif" -V 2
check_stdin stdin_mono_V4 "$IN/mono.wav" -V 4
check_stdin stdin_22k_V9 "$IN/st_22k.wav" -V 9
check_stdin stdin_short_V2 "$IN/short.wav" -V 2
gen st.raw -f raw -b 16 -t mix -d 2 -S 39
check_stdin stdin_raw_V2 "$IN/st.raw" -r -V 2
check_stdio stdio_wav_V2 "$IN/st.wav" -V 2
check_stdio stdio_mono_V5 "$IN/mono.wav" -V 5 --noreplaygain

# no output name: lame writes <input without .wav>.mp3 next to the input
d="$OUT/defname"
rm -rf "$d"; mkdir -p "$d/lame" "$d/rl"
cp "$IN/st.wav" "$d/lame/song.wav"; cp "$IN/st.wav" "$d/rl/song.wav"
( cd "$d/lame" && "$LAME" -V 2 song.wav >/dev/null 2>&1 )
( cd "$d/rl" && timeout "$RL_TIMEOUT" "$RL" -V 2 song.wav >/dev/null 2>"$d/rl.err" )
if [ ! -s "$d/lame/song.mp3" ]; then
    id_fail default_output_name "the reference lame wrote no song.mp3"
elif [ ! -e "$d/rl/song.mp3" ]; then
    id_fail default_output_name "ringlame wrote no song.mp3" "ringlame: cd $d/rl && $(id_q "$RL" -V 2 song.wav)" \
        "stderr: $(head -c 300 "$d/rl.err")"
elif ! c=$(cmp "$d/lame/song.mp3" "$d/rl/song.mp3" 2>&1); then
    id_fail default_output_name "outputs differ" "lame: cd $d/lame && lame -V 2 song.wav" \
        "ringlame: cd $d/rl && $(id_q "$RL" -V 2 song.wav)" "$c"
else
    id_ok default_output_name
    rm -rf "$d"
fi

id_summary
