#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/music: real music from Debian's fretsonfire-songs-muldjord and
# fretsonfire-songs-sectoid (installed by scripts/setup.sh).  20 s excerpts are
# decoded once with sox (no dither, -D), and one whole song and one guitar
# track are read directly as Ogg Vorbis.
. "$(dirname "$0")/lib.sh"
id_init "$@"

SONGS=/usr/share/games/fretsonfire/data/songs
command -v sox >/dev/null || id_die "sox is not installed (run scripts/setup.sh)"
[ -d "$SONGS/muldjord" ] || id_die "fretsonfire-songs-muldjord is not installed (run scripts/setup.sh)"
[ -d "$SONGS/sectoid" ] || id_die "fretsonfire-songs-sectoid is not installed (run scripts/setup.sh)"

excerpt() {  # NAME SONG START SOX_OUTPUT_ARGS...
    local name=$1 song=$2 start=$3; shift 3
    [ -s "$IN/$name" ] && return 0
    if ! sox -D "$song" "$@" "$IN/$name.part.wav" trim "$start" 20 >"$WORK/sox.err" 2>&1; then
        id_fail "decode $name" "sox failed" "$(id_q sox -D "$song" "$@" "$IN/$name" trim "$start" 20)" \
            "$(head -c 300 "$WORK/sox.err")"
        return 1
    fi
    mv "$IN/$name.part.wav" "$IN/$name"
}

i=0
for song in "$SONGS"/muldjord/*/song.ogg "$SONGS"/sectoid/*/song.ogg; do
    i=$((i + 1))
    excerpt "ex$i.wav" "$song" 40 -b 16 || continue
    check_file "ex${i}_V2" "$IN/ex$i.wav" -V 2
    case $i in
    1) check_file ex1_V0 "$IN/ex1.wav" -V 0
       check_file ex1_V9 "$IN/ex1.wav" -V 9 ;;
    2) check_file ex2_V4_norg "$IN/ex2.wav" -V 4 --noreplaygain
       check_file ex2_preset_extreme "$IN/ex2.wav" --preset extreme ;;
    3) check_file ex3_V5_mono "$IN/ex3.wav" -V 5 -m m
       check_file ex3_V7 "$IN/ex3.wav" -V 7 ;;
    4) check_file ex4_V0_nores_p "$IN/ex4.wav" -V 0 --nores -p
       check_stdout ex4_V2_stdout "$IN/ex4.wav" -V 2 ;;
    5) check_file ex5_V3_ms "$IN/ex5.wav" -V 3 -m s
       check_file ex5_V6_q7 "$IN/ex5.wav" -V 6 -q 7 ;;
    6) check_file ex6_V1_strict "$IN/ex6.wav" -V 1 --strictly-enforce-ISO
       check_file ex6_vbr_new "$IN/ex6.wav" --vbr-new ;;
    7) check_file ex7_V8 "$IN/ex7.wav" -V 8
       check_file ex7_V2_lowpass "$IN/ex7.wav" -V 2 --lowpass 16000 ;;
    8) check_file ex8_V4_forcedms "$IN/ex8.wav" -V 4 -m f
       check_file ex8_V9_6_resample "$IN/ex8.wav" -V 9.6 ;;
    esac
done
[ $i -eq 8 ] || id_fail music_corpus "expected 8 songs, found $i"

# other depths and rates of real music
excerpt ex_48k_24.wav "$SONGS/muldjord/chaos_god/song.ogg" 60 -r 48000 -b 24 \
    && check_file ex_48k_24_V2 "$IN/ex_48k_24.wav" -V 2
excerpt ex_mono_32k.wav "$SONGS/sectoid/Feelings/song.ogg" 90 -r 32000 -c 1 -b 16 \
    && check_file ex_mono_32k_V4 "$IN/ex_mono_32k.wav" -V 4
excerpt ex_float.wav "$SONGS/sectoid/Metal madness/song.ogg" 20 -e floating-point -b 32 \
    && check_file ex_float_V2 "$IN/ex_float.wav" -V 2

# read Ogg Vorbis directly: a sparse guitar track and one whole song
check_file guitar_ogg_V2 "$SONGS/muldjord/mutilated_mime/guitar.ogg" -V 2
check_file whole_song_ogg_V2 "$SONGS/sectoid/Metal madness/song.ogg" -V 2

id_summary
