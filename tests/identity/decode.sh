#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/decode: MPEG audio input.  MP3s made by lame at every MPEG version,
# channel mode and bitrate class (VBR and ABR with the LAME tag, CBR without
# a tag (-t), CRC), decoded by `ringlame --decode` (WAV, raw with -t, stdout,
# stdin with --mp3input) and transcoded (`ringlame OPTS in.mp3 out.mp3`),
# compared with lame's bytes.  Layers I and II: no installed encoder writes
# them, so Layer II streams are lame's MP3 frames relabelled (random but
# well-formed Layer II data) and Layer I streams come from mpa_streams.py.
# Damaged streams (truncated, garbage between frames, free format) decode as
# lame decodes them; a file without a frame is refused with a message; the
# mp3 fuzz target's seeds and regression inputs decode (or are refused) as
# lame does.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen st44.wav -t mix -r 44100 -d 2 -S 41
gen mono44.wav -t mix -r 44100 -c 1 -d 2 -S 42
gen st48.wav -t pink -r 48000 -d 2 -S 43
gen st32.wav -t sweep -r 32000 -d 2 -S 44
gen st22.wav -t mix -r 22050 -d 2 -S 45
gen mono16.wav -t mix -r 16000 -c 1 -d 2 -S 46
gen st11.wav -t panned -r 11025 -d 2 -S 47
gen mono8.wav -t mix -r 8000 -c 1 -d 2 -S 48
gen loud.wav -t square -r 44100 -a 1.0 -d 1 -S 49

# mp3 NAME WAV LAME_OPTS...: $IN/NAME.mp3 made by lame (kept between runs)
mp3() {
    local name=$1 wav=$2; shift 2
    [ -s "$IN/$name.mp3" ] && return 0
    if ! "$LAME" --quiet "$@" "$IN/$wav" "$IN/$name.mp3.part" 2>"$WORK/lame.err"; then
        id_fail "make $name.mp3" "lame failed" "$(id_q "$LAME" "$@" "$IN/$wav")" "$(head -c 300 "$WORK/lame.err")"
        rm -f "$IN/$name.mp3.part"
        return 1
    fi
    mv "$IN/$name.mp3.part" "$IN/$name.mp3"
}

mp3 v2_44 st44.wav -V 2
mp3 v0_48_j st48.wav -V 0 -m j
mp3 v6_32_s st32.wav -V 6 -m s
mp3 v4_22 st22.wav -V 4
mp3 v9_11 st11.wav -V 9
mp3 v3_mono8 mono8.wav -V 3
mp3 abr96_44 st44.wav --abr 96
mp3 cbr128_44_t st44.wav -b 128 -t
mp3 cbr320_48_p st48.wav -b 320 -p
mp3 cbr64_mono44_t mono44.wav -b 64 -t
mp3 cbr160_dual st44.wav -m d -b 160
mp3 cbr32_22_p_t st22.wav -b 32 -p -t
mp3 cbr24_mono16 mono16.wav -b 24
mp3 cbr8_mono8_t mono8.wav -b 8 -t
mp3 cbr56_11_f st11.wav -b 56 -m f
mp3 free64 st44.wav -b 64 --freeformat
mp3 loud_v0 loud.wav -V 0
mp3 tagged_v4 st22.wav -V 4 --add-id3v2 --tt Title --ta Artist

for m in v2_44 v0_48_j v6_32_s v4_22 v9_11 v3_mono8 abr96_44 cbr128_44_t cbr320_48_p \
         cbr64_mono44_t cbr160_dual cbr32_22_p_t cbr24_mono16 cbr8_mono8_t cbr56_11_f free64 loud_v0; do
    check_file "decode_$m" "$IN/$m.mp3" --decode
done
check_file decode_raw_v2_44 "$IN/v2_44.mp3" --decode -t
check_file decode_raw_swapped_cbr24 "$IN/cbr24_mono16.mp3" --decode -t -x
check_stdout decode_stdout_v4_22 "$IN/v4_22.mp3" --decode
check_stdin decode_stdin_mp3input_cbr128 "$IN/cbr128_44_t.mp3" --decode --mp3input
check_stdio decode_stdio_raw_v0_48 "$IN/v0_48_j.mp3" --decode --mp3input -t
# --decode-mp3delay n: n samples instead of the tag's delay (0: the tag's)
check_file decode_mp3delay_1000_v2_44 "$IN/v2_44.mp3" --decode --decode-mp3delay 1000
check_file decode_mp3delay_0_v2_44 "$IN/v2_44.mp3" --decode --decode-mp3delay 0
check_file decode_mp3delay_neg_cbr128 "$IN/cbr128_44_t.mp3" --decode --decode-mp3delay -700

# transcoding: the decoded samples through the encoder (rate and channels
# from the MP3, its delay and padding removed)
check_file transcode_v2_from_v2_44 "$IN/v2_44.mp3" -V 2
check_file transcode_b128_from_cbr320_48 "$IN/cbr320_48_p.mp3" -b 128
check_file transcode_v5_mono_from_v4_22 "$IN/v4_22.mp3" -V 5 -m m
check_file transcode_v4_from_cbr64_mono_t "$IN/cbr64_mono44_t.mp3" -V 4
check_file transcode_b64_from_v9_11 "$IN/v9_11.mp3" -b 64 --resample 16
check_file transcode_mp3delay_v3_from_v4_22 "$IN/v4_22.mp3" -V 3 --decode-mp3delay 1000
# an ID3v2 tag on the input: lame copies it to the output unless it writes its own
check_file transcode_copies_id3v2 "$IN/tagged_v4.mp3" -V 2
check_file transcode_own_id3v2_wins "$IN/tagged_v4.mp3" -b 128 --tt Other --add-id3v2
check_stdout transcode_copies_id3v2_stdout "$IN/tagged_v4.mp3" -V 5
# the v2 tag's length (TLEN) from lame's estimate of an untagged MP3's samples
check_file transcode_id3v2_tlen_from_cbr_t "$IN/cbr64_mono44_t.mp3" -V 2 --add-id3v2 --tt Song
check_file transcode_id3v2_tlen_from_vbr "$IN/v2_44.mp3" -b 192 --add-id3v2 --ta Someone
check_file decode_tagged "$IN/tagged_v4.mp3" --decode
# --decode of PCM input: its top 16 bits, as lame writes them
check_file decode_wav_input "$IN/st22.wav" --decode
check_stdin transcode_stdin_mp3input "$IN/v6_32_s.mp3" --mp3input -V 3

# damaged streams
head -c 20000 "$IN/v2_44.mp3" >"$IN/truncated.mp3"
{ head -c 9000 "$IN/cbr128_44_t.mp3"; head -c 1500 "$IN/st44.wav" | tail -c 700; tail -c +9001 "$IN/cbr128_44_t.mp3"; } >"$IN/garbage.mp3"
{ head -c 3000 "$IN/v2_44.mp3"; tail -c +3301 "$IN/v2_44.mp3"; } >"$IN/gap.mp3"
check_file decode_truncated "$IN/truncated.mp3" --decode
check_file decode_garbage_between_frames "$IN/garbage.mp3" --decode
check_file decode_missing_bytes "$IN/gap.mp3" --decode
check_file transcode_garbage_between_frames "$IN/garbage.mp3" -V 4
printf 'this is no mpeg audio, only text\n' >"$IN/text.mp3"
check_bad decode_no_frame 'no MPEG audio frame' "$IN/text.mp3" --decode
check_bad transcode_no_frame 'no MPEG audio frame' "$IN/text.mp3" -V 2
: >"$IN/empty.mp3"
check_bad decode_empty 'no MPEG audio frame' "$IN/empty.mp3" --decode
# Layers I and II
command -v python3 >/dev/null || id_skip "python3 not found (it writes the Layer I/II streams)"
streams=$(dirname "$0")/mpa_streams.py
for m in cbr128_44_t cbr320_48_p cbr64_mono44_t cbr32_22_p_t; do
    [ -s "$IN/l2_$m.mp2" ] || python3 "$streams" layer2 "$IN/$m.mp3" "$IN/l2_$m.mp2" \
        || id_fail "make l2_$m.mp2" "python3 failed"
    check_file "decode_layer2_$m" "$IN/l2_$m.mp2" --decode
done
for m in stereo joint mono crc; do
    [ -s "$IN/l1_$m.mp1" ] || python3 "$streams" layer1 "$IN/l1_$m.mp1" 40 $m 7 \
        || id_fail "make l1_$m.mp1" "python3 failed"
    check_file "decode_layer1_$m" "$IN/l1_$m.mp1" --decode
done
check_stdin decode_stdin_mp2input "$IN/l2_cbr128_44_t.mp2" --decode --mp2input
check_stdin decode_stdin_mp1input "$IN/l1_joint.mp1" --decode --mp1input -t
check_file transcode_v2_from_layer2 "$IN/l2_cbr320_48_p.mp2" -V 2
check_file transcode_b96_from_layer1 "$IN/l1_stereo.mp1" -b 96

# the mp3 fuzz target's seeds and regression inputs (odd and damaged
# streams of every layer): where lame decodes one, ringlame gives its bytes;
# where lame refuses one, ringlame refuses it too
fuzz=$(cd "$(dirname "$0")/../fuzz" && pwd)
n_same=0
for f in "$fuzz"/corpus/mp3/* "$fuzz"/regress/mp3/*; do
    [ -f "$f" ] || continue
    name=fuzz_$(basename "$f")
    tail -c +3 "$f" >"$IN/$name.mp3"       # the target's two leading option bytes
    rm -f "$OUT/$name".*
    timeout "$RL_TIMEOUT" "$LAME" --quiet --decode "$IN/$name.mp3" "$OUT/$name.lame.wav" >/dev/null 2>&1
    lrc=$?
    timeout "$RL_TIMEOUT" "$RL" --decode "$IN/$name.mp3" "$OUT/$name.rl.wav" >/dev/null 2>"$OUT/$name.err"
    rrc=$?
    if [ $lrc -ne 0 ]; then
        if [ $rrc -eq 0 ]; then
            id_fail "$name" "lame refuses it (exit $lrc), ringlame decoded it" "$(id_q "$RL" --decode "$IN/$name.mp3" x.wav)"
        elif [ $rrc -gt 128 ] && [ $rrc -le 192 ]; then
            id_fail "$name" "ringlame crashed (exit $rrc)"
        elif [ $rrc -ne $lrc ]; then
            id_fail "$name" "ringlame refuses it with exit $rrc, lame with $lrc" "$(head -c 300 "$OUT/$name.err")"
        else
            n_same=$((n_same + 1))
        fi
    elif [ $rrc -ne 0 ]; then
        id_fail "$name" "ringlame exited with $rrc" "$(head -c 300 "$OUT/$name.err")"
    elif ! c=$(cmp "$OUT/$name.lame.wav" "$OUT/$name.rl.wav" 2>&1); then
        id_fail "$name" "outputs differ" "$(id_q "$LAME" --decode "$IN/$name.mp3" x.wav)" "$c"
    else
        n_same=$((n_same + 1))
    fi
    rm -f "$OUT/$name".*
done
[ $n_same -gt 0 ] && id_ok "fuzz inputs: $n_same as lame decodes (or refuses) them"

# the default output name of --decode: <input less .mp3>.wav
d="$OUT/defname"
rm -rf "$d"; mkdir -p "$d/lame" "$d/rl"
cp "$IN/v4_22.mp3" "$d/lame/song.mp3"; cp "$IN/v4_22.mp3" "$d/rl/song.mp3"
( cd "$d/lame" && "$LAME" --quiet --decode song.mp3 >/dev/null 2>&1 )
( cd "$d/rl" && timeout "$RL_TIMEOUT" "$RL" --decode song.mp3 >/dev/null 2>"$d/rl.err" )
if [ ! -s "$d/lame/song.wav" ]; then
    id_fail decode_default_output_name "the reference lame wrote no song.wav"
elif ! c=$(cmp "$d/lame/song.wav" "$d/rl/song.wav" 2>&1); then
    id_fail decode_default_output_name "outputs differ or missing" "$c" "stderr: $(head -c 300 "$d/rl.err")"
else
    id_ok decode_default_output_name
    rm -rf "$d"
fi

id_summary
