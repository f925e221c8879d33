#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/id3: ID3 tags compared with lame's bytes: each text option alone
# and together (UTF-16 default, --id3v2-latin1), fields too long for ID3v1
# (the automatic ID3v2 tag), genres by name, loose name and number, track
# n and n/total, --add-id3v2, --id3v1-only, --id3v2-only, --space-id3v1,
# --pad-id3v2(-size), VBR (the LAME tag frame after the ID3v2 tag) and CBR,
# --sequential, stdout, the values lame refuses (same exit status) and the
# tag options ringlame refuses (--ti, --tv, non-ASCII text).
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

check_bad ti "album art" "$S" --ti cover.jpg
check_bad tv "raw ID3v2" "$S" --tv TXXX=a=b
check_bad non_ascii "non-ASCII" "$S" --tt "caf$(printf '\303\251')"

# --genre-list: the list on stderr like lame, exit 0
if "$RL" --genre-list >"$WORK/gl.rl.out" 2>"$WORK/gl.rl.err" \
   && "$LAME" --genre-list >"$WORK/gl.lame.out" 2>"$WORK/gl.lame.err" \
   && cmp -s "$WORK/gl.rl.err" "$WORK/gl.lame.err" && cmp -s "$WORK/gl.rl.out" "$WORK/gl.lame.out"; then
    id_ok genre_list
else
    id_fail genre_list "--genre-list differs from lame's (or did not exit 0)"
fi

id_summary
