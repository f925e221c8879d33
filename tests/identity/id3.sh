#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/id3: ID3 tags compared with lame's bytes: each text option alone
# and together (UTF-16 default, --id3v2-latin1), fields too long for ID3v1
# (the automatic ID3v2 tag), genres by name, loose name and number, track
# n and n/total, --add-id3v2, --id3v1-only, --id3v2-only, --space-id3v1,
# --pad-id3v2(-size), VBR (the LAME tag frame after the ID3v2 tag) and CBR,
# --sequential, stdout, the values lame refuses (same exit status), album
# art (--ti: JPEG/PNG/GIF, a picture past 128 KB, lame's messages for
# missing and unknown files), raw frames (--tv: text, TXXX/COMM/WXXX
# descriptors, URL, USER/PCST/WFED, genre, what lame ignores) and text
# outside ASCII in a UTF-8 locale and in the C locale.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen st.wav -t mix -d 2 -S 31
gen mono.wav -t mix -c 1 -d 1 -S 32
S=$IN/st.wav M=$IN/mono.wav
L40=abcdefghijklmnopqrstuvwxyz0123456789ABCD

check_file tt "$S" --tt Title
check_file ta "$S" --ta Artist
check_file tl "$S" --tl Album
check_file ty "$S" --ty 1999
check_file ty_big "$S" --ty 123456
check_file ty_text "$S" --ty abc
check_file tc "$S" --tc "A comment"
check_file tn "$S" --tn 7
check_file tn_total "$S" --tn 3/12
check_file tn_zero "$S" --tn 0
check_file tn_big "$S" --tn 300
check_file tg_name "$S" --tg Rock
check_file tg_case "$S" --tg "hip-hop"
check_file tg_loose "$S" --tg "rock and roll"
check_file tg_num "$S" --tg 17
check_file tg_unknown "$S" --tg Foo
check_file tg_empty "$S" --tg ""
check_file tt_empty "$S" --tt ""
check_file all_V2 "$S" -V 2 --tt Title --ta Artist --tl Album --ty 2001 --tc Comment --tn 4/9 --tg Jazz
check_file all_cbr "$S" -b 128 --tt Title --ta Artist --tl Album --ty 2001 --tc Comment --tn 4 --tg 8
check_file all_mono "$M" --tt T --ta A --tn 2 --tg Pop -V 5
check_file repeat "$S" --tt One --tt Two --tg Rock --tg Jazz
check_file long_title "$S" --tt "$L40"
check_file long_artist_v1only "$S" --ta "$L40" --id3v1-only
check_file long_album "$S" -b 96 --tl "$L40"
check_file long_comment "$S" --tc "$L40"
check_file comment29_track "$S" --tc "abcdefghijklmnopqrstuvwxyzABC" --tn 5
check_file latin1 "$S" --id3v2-latin1 --tt Title --ta Artist --tc Comment --tg Foo --tn 3/4
check_file latin1_then_utf16 "$S" --id3v2-latin1 --tt Title --id3v2-utf16 --ta Artist
check_file ucs2_alias "$S" --id3v2-ucs2 --tt Title
check_file add_v2 "$S" --add-id3v2
check_file add_v2_tt "$S" --add-id3v2 --tt Title -V 4
check_file v1_only "$S" --id3v1-only --tt Title --tg Rock
check_file v2_only "$S" --id3v2-only --tt Title --tg Rock
check_file v2_only_empty "$S" --id3v2-only
check_file v1_then_pad "$S" --id3v1-only --pad-id3v2 --tt T
check_file space_v1 "$S" --space-id3v1 --tt T --ta A
check_file space_v1_v2_only "$S" --id3v2-only --space-id3v1 --tt T
check_file pad "$S" --pad-id3v2 --tt T
check_file pad_size "$S" --pad-id3v2-size 1000 --tt T -V 0
check_file pad_size_0 "$S" --pad-id3v2-size 0
check_file pad_size_neg "$S" --pad-id3v2-size -5 --tt T
check_file pad_size_big "$S" --pad-id3v2-size 999999 --tt T
check_file notag_id3 "$S" -t --tt T --tn 1
check_file nores_crc "$S" -p --tt Title -b 192
check_file ignore_errors "$S" --ignore-tag-errors --tg 300 --tt T
check_file ignore_errors_v1 "$S" --ignore-tag-errors --id3v2-latin1 --id3v1-only --tn 0 --tt T
# ringlame's schedules (direct writes, the I/O thread): lame without them
check_sched() {   # NAME RINGLAME_OPTION INPUT OPTS...
    local name=$1 s=$2 in=$3 RC lrc; shift 3
    local lo="$OUT/$name.lame.mp3" ro="$OUT/$name.rl.mp3"
    rm -f "$lo" "$ro"
    id_run file "$LAME" "$in" "$lo" "$@"; lrc=$RC
    # shellcheck disable=SC2086
    id_run file "$RL" "$in" "$ro" $s "$@"
    if [ $lrc -ne 0 ] || [ $RC -ne 0 ]; then
        id_fail "$name" "exit status: lame $lrc, ringlame $RC"
    elif ! cmp -s "$lo" "$ro"; then
        # shellcheck disable=SC2086
        id_fail "$name" "outputs differ" "ringlame: $(id_cmdline file "$RL" "$in" "$ro" $s "$@")"
    else
        id_ok "$name"
        if [ -z "${RL_KEEP:-}" ]; then rm -f "$lo" "$ro" "$lo".std* "$ro".std*; fi
    fi
}
check_sched sequential --sequential "$S" --tt Title --ta Artist -V 2
check_sched threads1 "--threads 1" "$S" --tt Title --pad-id3v2
check_sched threads3_cbr "--threads 3" "$S" --tt Title --tn 1/2 -b 128
check_stdout stdout_vbr "$S" --tt Title --ta Artist --tn 2/3 -V 2
check_stdout stdout_cbr "$S" --tt Title -b 160 --id3v1-only
check_stdout stdout_v2 "$S" --id3v2-only --tt Title

check_error tg_num_range "$S" --tg 300
check_error tg_num_range_v2only "$S" --id3v2-only --tg 148
check_error tn_v1only_latin1 "$S" --id3v2-latin1 --id3v1-only --tn 0

# --ti: the picture's type from its first bytes (the WAV's bytes as data)
head -c 3 "$S" >/dev/null || id_die "no input"
{ printf '\377\330\377\340'; head -c 5000 "$S"; } >"$WORK/a.jpg"
{ printf '\211PNG\r\n\032\n'; head -c 300000 "$S"; } >"$WORK/b.png"
printf 'GIF89a\001\000\001\000' >"$WORK/c.gif"
printf 'GIF8' >"$WORK/short.gif"
: >"$WORK/empty.jpg"
printf 'hello' >"$WORK/text.txt"
check_file ti_jpeg "$S" --ti "$WORK/a.jpg"
check_file ti_png_big "$S" --ti "$WORK/b.png" --tt Title -V 2
check_file ti_gif_cbr "$S" --ti "$WORK/c.gif" -b 160 --tn 3
check_file ti_twice "$S" --ti "$WORK/a.jpg" --ti "$WORK/c.gif"
check_file ti_v1_only "$S" --ti "$WORK/a.jpg" --id3v1-only
check_file ti_v2_only_pad "$S" --id3v2-only --ti "$WORK/a.jpg" --pad-id3v2
check_file ti_ignore_bad "$S" --ti "$WORK/a.jpg" --ignore-tag-errors --ti "$WORK/text.txt" --ti "$WORK/nonexistent.png"
check_stdout ti_stdout "$S" --ti "$WORK/c.gif" --tt T

# --tv ID=value
check_file tv_txxx "$S" --tv TXXX=desc=value
check_file tv_txxx_multi "$S" --tv TXXX=a=1 --tv TXXX=b=2 --tv TXXX=a=3 --tv TXXX=ab=4
check_file tv_comm "$S" --tv COMM=d=text --tc Comment --tv COMM=e=other
check_file tv_comm_after_tc "$S" --tc Comment --tv COMM=d=text
check_file tv_wxxx "$S" --tv WXXX==http://example.org/ --tv WXXX=home=http://a.b/
check_file tv_url "$S" --tv WOAR=http://example.org/artist --tv WFED=feed
check_file tv_user_pcst "$S" --tv USER=terms --tv PCST=1 --tv TPE2=Band
check_file tv_genre "$S" --tv TCON=Jazz --tv TCON= --tv TCON=NoSuchGenre
check_file tv_replace "$S" --tt Title --tv TIT2=Other --tv TIT2=
check_file tv_ignored "$S" --tv APIC=x --tv TXXX --tv TX=1 --tv tit2=x --tv TXXX=noeq --tv ""
check_file tv_latin1 "$S" --id3v2-latin1 --tv TXXX=a=b --tv WOAR= --tv TCON= --tv USER=u \
    --tv COMM=d=t --tv WXXX=d=u --tv TCON=Rock
check_file tv_quiet "$S" --silent --tv BAD=1 --tv TIT3=Sub

# lame's messages and exit status for pictures it cannot use
check_msg() {   # NAME OPTS...: the same exit status, stderr and output (none)
    local name=$1 RC lrc; shift
    local lo="$OUT/$name.lame.mp3" ro="$OUT/$name.rl.mp3"
    rm -f "$lo" "$ro"
    id_run file "$LAME" "$S" "$lo" "$@"; lrc=$RC
    id_run file "$RL" "$S" "$ro" "$@"
    if [ $lrc -ne $RC ]; then
        id_fail "$name" "exit status $RC, lame's is $lrc" "$(id_cmdline file "$RL" "$S" "$ro" "$@")"
    elif ! cmp -s "$lo.stderr" "$ro.stderr"; then
        id_fail "$name" "stderr differs" "lame: $(head -c 200 "$lo.stderr")" "ringlame: $(head -c 200 "$ro.stderr")"
    elif [ -e "$lo" ] || [ -e "$ro" ]; then
        id_fail "$name" "an output file was written"
    else
        id_ok "$name (exit $RC)"
        rm -f "$lo".std* "$ro".std*
    fi
}
check_msg ti_missing --ti "$WORK/nonexistent.jpg"
check_msg ti_text --ti "$WORK/text.txt"
check_msg ti_empty --ti "$WORK/empty.jpg"
check_msg ti_short_gif --ti "$WORK/short.gif"
check_msg ti_folder --ti "$WORK"
check_msg ti_missing_silent --silent --ti "$WORK/nonexistent.jpg"

# text outside ASCII: converted from the locale's charset as lame does
# (UTF-8 in C.UTF-8; in the C locale the text ends at the first such byte)
E=$(printf 'caf\303\251') EUR=$(printf '\342\202\254 5') CJK=$(printf '\346\227\245\346\234\254')
EMO=$(printf 'x\360\237\230\200y') BAD=$(printf 'ab\377cd') PL=$(printf 'Zo\303\253 \305\201\303\263d\305\272 ')
utf8_cases() {   # SUFFIX
    check_file "utf16_$1" "$S" --tt "$E" --ta "$EUR" --tl "$CJK" --tc "$EMO" --tn 2
    check_file "latin1_$1" "$S" --id3v2-latin1 --tt "$E" --ta "$EUR" --tl "$CJK" --tc "$EMO"
    check_file "long_v1_$1" "$S" --tt "$PL$PL$PL" -V 3
    check_file "bad_utf8_$1" "$S" --tt "$BAD" --ta "$E$BAD"
    check_file "genre_$1" "$S" --tg "$E" --tv "TCON=$CJK"
    check_file "genre_known_$1" "$S" --tg "$(printf 'R\303\266ck')"
    check_file "tv_$1" "$S" --tv "TXXX=$E=$CJK" --tv "WOAR=http://$E/" --tv "COMM=$EUR=$EMO"
    check_file "tv_latin1_$1" "$S" --id3v2-latin1 --tv "TXXX=$E=$EUR" --tv "T$(printf '\303\251')AB=x"
}
if locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then
    LC_ALL=C.UTF-8 utf8_cases utf8
else
    echo "note (id3): no C.UTF-8 locale here: the UTF-8 cases run in the C locale only"
fi
LC_ALL=C utf8_cases c

# --genre-list: the list on stderr like lame, exit 0
if "$RL" --genre-list >"$WORK/gl.rl.out" 2>"$WORK/gl.rl.err" \
   && "$LAME" --genre-list >"$WORK/gl.lame.out" 2>"$WORK/gl.lame.err" \
   && cmp -s "$WORK/gl.rl.err" "$WORK/gl.lame.err" && cmp -s "$WORK/gl.rl.out" "$WORK/gl.lame.out"; then
    id_ok genre_list
else
    id_fail genre_list "--genre-list differs from lame's (or did not exit 0)"
fi

id_summary
