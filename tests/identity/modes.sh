#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/modes: CBR (lame's default, -b, --freeformat), ABR (--abr) and
# the old VBR (--vbr-old) against lame: the corner signals, every legal
# bitrate of each MPEG version (the version pinned with --resample to the
# input's rate), lame's snapping of illegal values, every -q, the stereo
# modes and stream options, and real music at every bitrate and rate class.
. "$(dirname "$0")/lib.sh"
id_init "$@"

SONGS=/usr/share/games/fretsonfire/data/songs
command -v sox >/dev/null || id_die "sox is not installed (run scripts/setup.sh)"
[ -d "$SONGS/muldjord" ] || id_die "fretsonfire-songs-muldjord is not installed (run scripts/setup.sh)"

# ---- corner signals, default CBR, ABR and vbr_rh ----
gen silence.wav -t silence -d 2
gen square.wav -t square -d 2 -a 1
gen impulse.wav -t impulse -d 2
gen antiphase.wav -t antiphase -d 3 -S 3
gen dc.wav -t dc -d 2
gen burst.wav -t burst -d 3 -S 5
gen mono.wav -t mix -c 1 -d 3 -S 6
for s in silence square impulse antiphase dc burst mono; do
    check_file "${s}_default" "$IN/$s.wav"
    check_file "${s}_abr160" "$IN/$s.wav" --abr 160
    check_file "${s}_vbrold" "$IN/$s.wav" --vbr-old
done
check_file square_b320_q0 "$IN/square.wav" -b 320 -q 0
check_file antiphase_abr96_q1 "$IN/antiphase.wav" --abr 96 -q 1

# very short files: fewer samples than a frame, around one and two frames
for n in 0 1 575 576 577 1152 1153 2304; do
    gen "st_$n.wav" -t mix -n "$n" -S "$((n + 30))"
    check_file "n${n}_default" "$IN/st_$n.wav"
    check_file "n${n}_abr128" "$IN/st_$n.wav" --abr 128
done

# ---- every legal CBR bitrate of MPEG-1, MPEG-2 and MPEG-2.5 ----
gen mix_44100.wav -t mix -d 2 -S 44
gen mix_22050.wav -t mix -r 22050 -d 2 -S 22
gen mix_11025.wav -t mix -r 11025 -d 2 -S 11
gen mix_48000.wav -t mix -r 48000 -d 2 -S 48
gen mix_16000.wav -t mix -r 16000 -d 2 -S 16
gen mix_8000.wav -t mix -r 8000 -d 2 -S 8
each_cbr_bitrate check_file
# lame picks the output rate from the bitrate (resampling) and snaps
# illegal bitrates to the nearest legal one
for b in 1 8 24 33 100 129 330 999; do
    check_file "snap_b$b" "$IN/mix_44100.wav" -b "$b"
done
check_file r48000_default "$IN/mix_48000.wav"
check_file r16000_default "$IN/mix_16000.wav"
check_file r8000_default "$IN/mix_8000.wav"
check_file r48000_b256 "$IN/mix_48000.wav" -b 256
check_file r8000_b24 "$IN/mix_8000.wav" -b 24
check_file cbr_switch "$IN/mix_44100.wav" -V 2 --cbr -b 192
check_file freeformat_b400 "$IN/mix_44100.wav" --freeformat -b 400
check_file freeformat_b640 "$IN/mix_44100.wav" --freeformat -b 640
check_file freeformat_r22_b200 "$IN/mix_22050.wav" --freeformat -b 200

# ---- ABR: the range and lame's handling of values outside it ----
for a in 8 16 56 96 128 160 192 256 320 400 9000 160000; do
    check_file "abr$a" "$IN/mix_44100.wav" --abr "$a"
done
check_file r22050_abr64 "$IN/mix_22050.wav" --abr 64
check_file r11025_abr24 "$IN/mix_11025.wav" --abr 24
check_file abr160_b64_B224 "$IN/mix_44100.wav" --abr 160 -b 64 -B 224

# ---- vbr_rh at every -V ----
for v in 0 1 2 3 4 5 6 7 8 9; do
    check_file "vbrold_V$v" "$IN/mix_44100.wav" --vbr-old -V "$v"
done
check_file vbrold_V3_b128_F "$IN/mix_44100.wav" --vbr-old -V 3 -b 128 -F
check_file r22050_vbrold_V4 "$IN/mix_22050.wav" --vbr-old -V 4

# ---- -q 0..9 (and -h, -f) in CBR and ABR ----
gen music.wav -t mix -d 4 -S 41
for q in 0 1 2 3 4 5 6 7 8 9; do
    check_file "cbr_q$q" "$IN/music.wav" -q "$q"
    check_file "abr160_q$q" "$IN/music.wav" --abr 160 -q "$q"
done
check_file cbr_h "$IN/music.wav" -h
check_file abr_f "$IN/music.wav" --abr 128 -f

# ---- stereo modes and stream options ----
for m in j s f d m l r; do
    check_file "cbr_m$m" "$IN/music.wav" -m "$m"
    check_file "abr_m$m" "$IN/music.wav" --abr 192 -m "$m"
done
check_file cbr_a "$IN/music.wav" -a
check_file cbr_p "$IN/music.wav" -b 160 -p
check_file cbr_nores "$IN/music.wav" --nores
check_file cbr_strict "$IN/music.wav" -b 320 --strictly-enforce-ISO
check_file abr_nores_p "$IN/music.wav" --abr 200 --nores -p
check_file cbr_resample32 "$IN/music.wav" --resample 32
check_file cbr_lowpass "$IN/music.wav" -b 192 --lowpass 12000 --highpass 200
check_file cbr_noreplaygain "$IN/music.wav" --noreplaygain
check_file cbr_notag "$IN/music.wav" -t
check_stdout cbr_stdout "$IN/music.wav" -b 112
check_stdin abr_stdin "$IN/music.wav" --abr 140

# ---- real music at every bitrate and rate class ----
excerpt() {  # NAME SONG START SOX_OUTPUT_ARGS...
    local name=$1 song=$2 start=$3; shift 3
    [ -s "$IN/$name" ] && return 0
    if ! sox -D "$song" "$@" "$IN/$name.part.wav" trim "$start" 12 >"$WORK/sox.err" 2>&1; then
        id_fail "decode $name" "sox failed" "$(head -c 300 "$WORK/sox.err")"
        return 1
    fi
    mv "$IN/$name.part.wav" "$IN/$name"
}
if excerpt army.wav "$SONGS/muldjord/armygeddon/song.ogg" 30 -b 16; then
    for o in "" "-b 320" "-b 256" "-b 192" "-b 96" "-b 64" "-b 32" "--abr 128" "--abr 256" \
             "--abr 64" "-q 0 -b 192" "--vbr-old -V 2" "--vbr-old -V 6" "-b 128 -m m"; do
        # shellcheck disable=SC2086
        check_file "army_${o// /_}" "$IN/army.wav" $o
    done
fi
if excerpt chaos_32k.wav "$SONGS/muldjord/chaos_god/song.ogg" 60 -r 32000 -b 16; then
    check_file chaos32k_default "$IN/chaos_32k.wav"
    check_file chaos32k_abr112 "$IN/chaos_32k.wav" --abr 112
fi
if excerpt feel_22k_mono.wav "$SONGS/sectoid/Feelings/song.ogg" 60 -r 22050 -c 1 -b 16; then
    check_file feel22k_mono_default "$IN/feel_22k_mono.wav"
    check_file feel22k_mono_b48 "$IN/feel_22k_mono.wav" -b 48
    check_file feel22k_mono_vbrold "$IN/feel_22k_mono.wav" --vbr-old -V 5
fi

id_summary
