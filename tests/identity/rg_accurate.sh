#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/rg_accurate: decode on the fly (--replaygain-accurate,
# --clipdetect): the ReplayGain of the decoded output and its peak sample in
# the LAME tag, byte for byte as lame writes them, at --threads 1, 2 and
# --sequential (the Redecode task beside the ring); and --clipdetect's
# verdict on stderr (clipping with lame's suggested --scale, a preset's
# scale, a --scale of the user's, no clipping, silence) word for word.
# Material: a full-scale square, loud music-like noise (clipping after
# encoding), quiet music, silence; -V 2, CBR 128, ABR, mono, 22.05 kHz.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen square.wav -t square -d 3 -a 1.0 -S 51
gen loud.wav -t mix -d 3 -a 1.0 -S 52
gen quiet.wav -t mix -d 3 -a 0.05 -S 53
gen mono.wav -t mix -c 1 -d 3 -a 1.0 -S 54
gen loud22.wav -t mix -r 22050 -d 3 -a 0.95 -S 55
gen silence.wav -t silence -d 1 -S 56

SETTINGS=("--threads 1" "--threads 2" "--sequential")

# lame's closing lines: from "Writing LAME Tag" or "ReplayGain:" to the end
closing() {
    sed 's/\r/\n/g' "$1" | awk 'f { print; next } /^(Writing LAME Tag|ReplayGain:)/ { f = 1; print }'
}

# check_rg NAME INPUT OPTS...: lame once, ringlame at each setting; the MP3s
# and, with --clipdetect, the closing lines must be lame's
check_rg() {
    local name=$1 in=$2; shift 2
    local d="$OUT/$name" s lrc rc clip=0 o
    for o in "$@"; do [ "$o" = --clipdetect ] && clip=1; done
    rm -rf "$d"; mkdir -p "$d"
    timeout "$RL_TIMEOUT" "$LAME" --nohist "$@" "$in" "$d/lame.mp3" </dev/null >/dev/null 2>"$d/lame.err"; lrc=$?
    if [ $lrc -ne 0 ] || [ ! -s "$d/lame.mp3" ]; then
        id_fail "$name" "the reference lame failed (exit $lrc): the case itself is wrong" \
            "lame: $(id_q "$LAME" "$@" "$in" "$d/lame.mp3")"
        return
    fi
    closing "$d/lame.err" >"$d/lame.txt"
    if [ $clip -eq 1 ] && ! grep -q 'clip' "$d/lame.txt"; then
        id_fail "$name" "lame printed no clipping verdict: the case itself is wrong"
        return
    fi
    for s in "${SETTINGS[@]}"; do
        local tag=${s// /_} ro rcmd
        ro="$d/rl$tag.mp3"
        # shellcheck disable=SC2086
        rcmd="ringlame: $(id_q "$RL" $s "$@" "$in" "$ro")"
        # shellcheck disable=SC2086
        timeout "$RL_TIMEOUT" "$RL" $s "$@" "$in" "$ro" </dev/null >/dev/null 2>"$ro.err"; rc=$?
        closing "$ro.err" >"$ro.txt"
        if [ $rc -ne 0 ]; then
            id_fail "$name $s" "ringlame exited with $rc" "$rcmd" "$(head -c 300 "$ro.err")"
        elif ! cmp -s "$d/lame.mp3" "$ro"; then
            id_fail "$name $s" "the MP3s differ" "$rcmd" "$(cmp "$d/lame.mp3" "$ro" 2>&1)"
        elif [ $clip -eq 1 ] && ! cmp -s "$d/lame.txt" "$ro.txt"; then
            id_fail "$name $s" "the closing lines differ (- lame, + ringlame)" "$rcmd" \
                "$(diff "$d/lame.txt" "$ro.txt" | head -n 8)"
        else
            id_ok "$name $s"
        fi
    done
    [ -n "${RL_KEEP:-}" ] || [ $ID_FAIL -gt 0 ] || rm -rf "$d"
}

# the accurate gain and the peak field: decode on the fly must change the
# tag, or the cases below would not test it
if "$LAME" --quiet -V 2 "$IN/square.wav" "$OUT/fast.mp3" </dev/null \
   && "$LAME" --quiet -V 2 --replaygain-accurate "$IN/square.wav" "$OUT/accurate.mp3" </dev/null \
   && cmp -s "$OUT/fast.mp3" "$OUT/accurate.mp3"; then
    id_fail "accurate_changes_tag" "lame's tag is the same with and without --replaygain-accurate"
fi
rm -f "$OUT/fast.mp3" "$OUT/accurate.mp3"

check_rg square_V2 "$IN/square.wav" -V 2 --replaygain-accurate
check_rg square_cbr "$IN/square.wav" -b 128 --replaygain-accurate
check_rg loud_V2 "$IN/loud.wav" -V 2 --replaygain-accurate
check_rg loud_abr "$IN/loud.wav" --abr 160 --replaygain-accurate
check_rg quiet_V2 "$IN/quiet.wav" -V 2 --replaygain-accurate
check_rg quiet_cbr "$IN/quiet.wav" --replaygain-accurate
check_rg mono_V2 "$IN/mono.wav" -V 2 --replaygain-accurate
check_rg mono_cbr "$IN/mono.wav" -m m -b 64 --replaygain-accurate
check_rg 22k_V2 "$IN/loud22.wav" -V 2 --replaygain-accurate
check_rg 22k_abr "$IN/loud22.wav" --abr 96 --replaygain-accurate
check_rg vbr_old "$IN/loud.wav" --vbr-old -V 4 --replaygain-accurate
check_rg noreplaygain_accurate "$IN/loud.wav" --noreplaygain --replaygain-accurate -V 2

# --clipdetect: lame's verdict (the default CBR 128's preset scale 0.95)
check_rg clip_square "$IN/square.wav" --clipdetect
check_rg clip_loud_V2 "$IN/loud.wav" -V 2 --clipdetect
check_rg clip_user_scale "$IN/loud.wav" -V 2 --scale 2 --clipdetect
check_rg clip_huge_scale "$IN/square.wav" -V 2 --scale 200 --clipdetect
check_rg clip_quiet "$IN/quiet.wav" -V 2 --clipdetect
check_rg clip_mono "$IN/mono.wav" --clipdetect
check_rg clip_22k "$IN/loud22.wav" -V 5 --clipdetect
check_rg clip_noreplaygain "$IN/loud.wav" --noreplaygain --clipdetect
check_rg clip_silence "$IN/silence.wav" -V 2 --clipdetect

id_summary
