#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/nogap: gapless sets (--nogap FILE...), every output file compared
# with the one lame writes for the same set: -V 2 and CBR 128, without and
# with --nogaptags, at --threads 1, --threads 2 and --sequential; lengths
# that are not multiples of the frame size, a very short middle file (700
# samples), one too short for a frame of its own (10 samples) and an empty
# one; mono at -V 5 -T; ID3 tags (each file's own TLEN); the outputs in a
# --nogapout folder, beside the inputs, and in an --out-dir folder; decode
# on the fly (--replaygain-accurate, --clipdetect: each file's own peak
# and gain in its tag); a set
# whose rates differ is refused, and so is --decode with --nogap, as lame
# refuses it.  MP3 inputs made by lame: without
# --mp3input lame's --nogap leaves them to libsndfile (its file-name rule
# sees no name), with it lame's decoder reads them (each output gets its
# input's ID3v2 tag; a file after the first without a LAME tag loses the
# encoder delay lame_init_params set too).
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen long.wav -t mix -n 100000 -S 31          # 86.8 frames
gen short.wav -t pink -n 700 -S 32           # less than a frame
gen tail.wav -t mix -n 50001 -S 33
gen tiny.wav -t white -n 10 -S 34            # no frame of its own
gen empty.wav -t mix -n 0 -S 35
gen mono1.wav -t mix -c 1 -n 33333 -S 36
gen mono2.wav -t pink -c 1 -n 1999 -S 37
gen mono3.wav -t white -c 1 -n 12345 -S 39
gen other_rate.wav -t mix -r 48000 -n 5000 -S 38
gen loud.wav -t mix -n 70000 -a 1.0 -S 30           # clips once encoded
mkmp3 m_long.mp3 long.wav -V 4
mkmp3 m_tagged.mp3 tail.wav -b 128 --add-id3v2 --tt Tagged --ta Artist
mkmp3 m_notag.mp3 long.wav -b 160 -t           # no LAME tag: no delay, no padding
mkmp3 m_short.mp3 short.wav -V 6
mkmp3 m_notag2.mp3 tail.wav -b 128 -t
# a LAME tag whose delay and padding are out of range (4095): lame's reader
# then skips lame_get_encoder_delay(), 576 once lame_init_params has run
if [ ! -s "$IN/m_badtag.mp3" ]; then
    python3 - "$IN/m_long.mp3" "$IN/m_badtag.mp3" <<'PY' || id_fail "make m_badtag.mp3" "python3 failed"
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.find(b"LAME3")
assert i > 0
d[i + 21:i + 24] = b"\xff\xff\xff"
open(sys.argv[2], "wb").write(d)
PY
fi

# check_set NAME "FILES" OPTS...: lame and ringlame (each thread count) write
# the set into their own folders (--nogapout); every file must be the same
check_set() {
    local name=$1 files=$2; shift 2
    local ldir="$OUT/$name.lame" f b paths=()
    for f in $files; do paths+=("$IN/$f"); done
    rm -rf "$ldir"; mkdir -p "$ldir"
    if ! timeout "$RL_TIMEOUT" "$LAME" --quiet "$@" --nogapout "$ldir" --nogap "${paths[@]}" \
            </dev/null >/dev/null 2>"$ldir.stderr"; then
        id_fail "$name" "the reference lame failed: the case itself is wrong" \
            "$(id_q "$LAME" --quiet "$@" --nogapout "$ldir" --nogap "${paths[@]}")"
        return
    fi
    local th
    for th in "--threads 1" "--threads 2" "--sequential"; do
        local rdir="$OUT/$name.rl${th// /}" cmd bad=""
        rm -rf "$rdir"; mkdir -p "$rdir"
        # shellcheck disable=SC2086
        cmd=$(id_q "$RL" --quiet "$@" $th --nogapout "$rdir" --nogap "${paths[@]}")
        # shellcheck disable=SC2086
        if ! timeout "$RL_TIMEOUT" "$RL" --quiet "$@" $th --nogapout "$rdir" --nogap "${paths[@]}" \
                </dev/null >/dev/null 2>"$rdir.stderr"; then
            id_fail "$name $th" "ringlame failed" "$cmd" "$(head -c 300 "$rdir.stderr")"
            continue
        fi
        for f in $files; do
            b=${f%.*}.mp3
            cmp -s "$ldir/$b" "$rdir/$b" || bad+=" $b"
        done
        if [ -n "$bad" ]; then
            id_fail "$name $th" "outputs differ:$bad" "$cmd"
        else
            id_ok "$name $th"
            [ -n "${RL_KEEP:-}" ] || rm -rf "$rdir" "$rdir.stderr"
        fi
    done
    [ -n "${RL_KEEP:-}" ] || [ "$ID_FAIL" -gt 0 ] || rm -rf "$ldir" "$ldir.stderr"
}

for tags in "" --nogaptags; do
    for mode in "-V 2" "-b 128"; do
        # shellcheck disable=SC2086
        check_set "three_${mode// /}$tags" "long.wav short.wav tail.wav" $mode $tags
    done
done
check_set "tiny_middle_V2--nogaptags" "long.wav tiny.wav tail.wav" -V 2 --nogaptags
check_set "empty_middle_b128--nogaptags" "long.wav empty.wav tiny.wav tail.wav" -b 128 --nogaptags
check_set "mono_V5-T" "mono1.wav mono2.wav mono3.wav" -V 5 -T
# decode on the fly: each file's own peak and ReplayGain title from the
# decoded output (its flush decoded before the title closes), in its tag;
# an empty file decodes its tag placeholder (lame's flush_nogap does)
check_set "rg_accurate_V2--nogaptags" "loud.wav short.wav tail.wav" -V 2 --replaygain-accurate --nogaptags
check_set "clipdetect_b128--nogaptags" "long.wav empty.wav loud.wav tiny.wav" -b 128 --clipdetect --nogaptags
check_set "clipdetect_noreplaygain_V4" "loud.wav tail.wav" -V 4 --clipdetect --noreplaygain --nogaptags
check_set "rg_accurate_mono_V5" "mono1.wav mono2.wav" -V 5 --replaygain-accurate
# ID3 tags: every file gets them, each ID3v2 tag with its own input's TLEN
check_set "id3_V2" "long.wav short.wav tail.wav" -V 2 --tt Title --ta Artist --tl Album
# album art: the --ti picture in every file's ID3v2 tag
{ printf '\211PNG\r\n\032\n'; head -c 3000 "$IN/long.wav"; } >"$IN/cover.png"
check_set "id3_art_V2" "long.wav short.wav tail.wav" -V 2 --ti "$IN/cover.png" --tt Title
check_set "id3_b128--nogaptags" "long.wav empty.wav tail.wav" -b 128 --tt Title --pad-id3v2 --nogaptags

[ -s "$IN/m_badtag_copy.mp3" ] || cp "$IN/m_badtag.mp3" "$IN/m_badtag_copy.mp3"
# MP3 inputs: through libsndfile (lame's --nogap), and lame's decoder with --mp3input
check_set "mp3_V2" "m_long.mp3 m_tagged.mp3 m_short.mp3" -V 2
check_set "mp3_wav_b128--nogaptags" "long.wav m_notag.mp3 tail.wav" -b 128 --nogaptags --tt Title
check_set "mp3input_V2" "m_long.mp3 m_tagged.mp3 m_notag.mp3 m_short.mp3" --mp3input -V 2
check_set "mp3input_b128--nogaptags" "m_notag.mp3 m_notag2.mp3 m_tagged.mp3" --mp3input -b 128 --nogaptags
check_set "mp3input_id3_V5" "m_tagged.mp3 m_long.mp3" --mp3input -V 5 --tt Own
check_set "mp3input_badtag_V2" "m_badtag.mp3 m_short.mp3 m_badtag_copy.mp3" --mp3input -V 2

# placement: beside the inputs, and --out-dir (lame's names for both)
place() {
    local name=$1; shift
    local ld="$OUT/$name.lame" rd="$OUT/$name.rl" f ok=1
    rm -rf "$ld" "$rd"; mkdir -p "$ld/in" "$rd/in" "$ld/outdir" "$rd/outdir"
    for f in long.wav short.wav; do cp "$IN/$f" "$ld/in/"; cp "$IN/$f" "$rd/in/"; done
    ( cd "$ld" && "$LAME" --quiet -V 2 "$@" --nogap in/long.wav in/short.wav >/dev/null 2>&1 )
    ( cd "$rd" && "$RL" --quiet -V 2 "$@" --nogap in/long.wav in/short.wav >/dev/null 2>&1 )
    for f in $(cd "$ld" && find . -name '*.mp3'); do
        cmp -s "$ld/$f" "$rd/$f" || ok=0
    done
    if [ "$(cd "$ld" && find . -name '*.mp3' | sort)" != "$(cd "$rd" && find . -name '*.mp3' | sort)" ]; then
        ok=0
    fi
    if [ $ok -eq 1 ] && [ -n "$(cd "$ld" && find . -name '*.mp3')" ]; then
        id_ok "$name"
        rm -rf "$ld" "$rd"
    else
        id_fail "$name" "different files or names" "lame: $(cd "$ld" && find . -name '*.mp3' | tr '\n' ' ')" \
            "ringlame: $(cd "$rd" && find . -name '*.mp3' | tr '\n' ' ')"
    fi
}
place beside_inputs
place out_dir --out-dir outdir

# a set whose rates differ: refused, nothing written
rd="$OUT/rates.rl"; rm -rf "$rd"; mkdir -p "$rd"
if "$RL" --quiet --nogapout "$rd" --nogap "$IN/long.wav" "$IN/other_rate.wav" \
        </dev/null >/dev/null 2>"$WORK/rates.err"; then
    id_fail rates_differ "ringlame accepted a set with two sample rates"
elif [ -n "$(ls -A "$rd")" ] || ! grep -q "same sample rate" "$WORK/rates.err"; then
    id_fail rates_differ "files left or no clear message" "$(head -c 300 "$WORK/rates.err")"
else
    id_ok "rates_differ (refused: $(head -c 100 "$WORK/rates.err"))"
fi

# --decode with --nogap: lame refuses the combination (its message, exit 1,
# nothing written); ringlame must do the same
for tool in lame rl; do
    d="$OUT/decode_nogap.$tool"; rm -rf "$d"; mkdir -p "$d"
    cp "$IN/m_long.mp3" "$IN/m_short.mp3" "$d/"
    t=$LAME; [ $tool = rl ] && t=$RL
    ( cd "$d" && "$t" --decode --nogap m_long.mp3 m_short.mp3 </dev/null >"$WORK/dn.$tool.out" \
        2>"$WORK/dn.$tool.err"; echo $? >"$WORK/dn.$tool.rc" )
done
if [ "$(cat "$WORK/dn.lame.rc")" != "$(cat "$WORK/dn.rl.rc")" ] \
        || ! cmp -s "$WORK/dn.lame.err" "$WORK/dn.rl.err" \
        || [ "$(ls "$OUT/decode_nogap.rl")" != "$(ls "$OUT/decode_nogap.lame")" ]; then
    id_fail decode_nogap "not lame's refusal: exit $(cat "$WORK/dn.rl.rc") (lame $(cat "$WORK/dn.lame.rc"))" \
        "ringlame: $(head -c 200 "$WORK/dn.rl.err")" "lame: $(head -c 200 "$WORK/dn.lame.err")"
else
    id_ok "decode_nogap (exit $(cat "$WORK/dn.rl.rc"), lame's message)"
fi

id_summary
