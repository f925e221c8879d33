#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/session: every front end goes through one encode session
# (src/Api/session.c, session_files.c), so the single-file command, --batch
# and --nogap write lame's bytes for the same inputs.  For a WAV, a FLAC
# and an MP3 input (lame's own output, read by its decoder: lame's reads of
# decoded chunks), with ReplayGain on (the default, --replaygain-accurate)
# and ID3 tags: lame's file, ringlame's single-file output and ringlame's
# --batch output must be the same bytes, at --threads 1 and 2.  Then a
# --nogap set of the three kinds at --threads 1 and 2:
# every member equals lame's.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen s.wav -t mix -d 7 -S 71
gen s.flac -f flac -b 16 -t pink -d 6 -S 72
gen n1.wav -t mix -n 90001 -S 73
gen n2.flac -f flac -b 16 -t pink -n 50000 -S 74
if [ ! -s "$IN/s.mp3" ]; then
    "$LAME" --quiet -V 3 --tt "Source" --add-id3v2 "$IN/s.wav" "$IN/s.mp3.part" </dev/null >/dev/null 2>&1 \
        && mv "$IN/s.mp3.part" "$IN/s.mp3" || id_fail "make s.mp3" "lame failed"
fi
if [ ! -s "$IN/n3.mp3" ]; then
    "$LAME" --quiet -b 128 "$IN/n1.wav" "$IN/n3.mp3.part" </dev/null >/dev/null 2>&1 \
        && mv "$IN/n3.mp3.part" "$IN/n3.mp3" || id_fail "make n3.mp3" "lame failed"
fi

# paths: single-file vs batch vs lame, for one input and one option set
paths() {  # NAME INPUT OPTS...
    local name=$1 in=$2; shift 2
    local t lo="$OUT/$name.lame.mp3" so bd bo base
    base=$(basename "$in")
    rm -f "$lo"
    if ! "$LAME" --quiet "$@" "$in" "$lo" </dev/null >/dev/null 2>"$lo.stderr" || [ ! -s "$lo" ]; then
        id_fail "$name" "the reference lame failed: the case itself is wrong" \
            "$(id_q "$LAME" "$@" "$in" "$lo")"
        return
    fi
    for t in 1 2; do
        so="$OUT/$name.t$t.single.mp3"
        bd="$OUT/$name.t$t.batch"
        rm -rf "$so" "$bd"
        id_run_logged "$so" --threads "$t" --quiet "$@" "$in" "$so"
        if [ "$RC" -ne 0 ] || ! cmp -s "$lo" "$so"; then
            id_fail "$name single t$t" "exit $RC, or not lame's bytes" \
                "$(id_q "$RL" --threads "$t" --quiet "$@" "$in" "$so")" "$(tail -n 2 "$so.stderr")"
            continue
        fi
        id_ok "$name single t$t"
        id_run_logged "$bd.log" --batch --threads "$t" --out-dir "$bd" "$@" "$in"
        # an MPEG input keeps its suffix and gets ".mp3" once more (lame's rule)
        bo=$bd/${base%.*}.mp3
        [ -e "$bo" ] || bo=$bd/$base.mp3
        [ -e "$bo" ] || bo=$bd/$base
        if [ "$RC" -ne 0 ] || [ ! -s "$bo" ]; then
            id_fail "$name batch t$t" "exit $RC, no output" \
                "$(id_q "$RL" --batch --threads "$t" --out-dir "$bd" "$@" "$in")" \
                "$(tail -n 2 "$bd.log.stderr")"
            continue
        fi
        if ! cmp -s "$so" "$bo"; then
            id_fail "$name batch t$t" "the batch path and the single-file path differ" \
                "$(id_q "$RL" --batch --threads "$t" --out-dir "$bd" "$@" "$in")" "$(cmp "$so" "$bo")"
            continue
        fi
        id_ok "$name batch t$t"
        [ -n "${RL_KEEP:-}" ] || rm -rf "$so" "$bd" "$so".std* "$bd".log.*
    done
    [ -n "${RL_KEEP:-}" ] || rm -f "$lo" "$lo".stderr
}

for kind in wav flac mp3; do
    in=$IN/s.$kind
    paths "${kind}_default" "$in"
    paths "${kind}_v2_tags" "$in" -V 2 --tt "Title" --ta "Artist" --add-id3v2
    paths "${kind}_rg_accurate" "$in" -b 160 --replaygain-accurate
done
paths mp3_input_option "$IN/s.mp3" --mp3input -V 5

# a --nogap set of the three kinds: every member equals lame's
nogap_set() {  # NAME OPTS...
    local name=$1; shift
    local ldir="$OUT/$name.lame" t rdir f ok
    rm -rf "$ldir"; mkdir -p "$ldir"
    if ! "$LAME" --quiet "$@" --nogapout "$ldir" --nogap "$IN/n1.wav" "$IN/n2.flac" "$IN/n3.mp3" \
        </dev/null >/dev/null 2>&1; then
        id_fail "$name" "the reference lame failed"
        return
    fi
    for t in 1 2; do
        rdir="$OUT/$name.t$t"
        rm -rf "$rdir"; mkdir -p "$rdir"
        id_run_logged "$rdir.log" --threads "$t" --quiet "$@" --nogapout "$rdir" \
            --nogap "$IN/n1.wav" "$IN/n2.flac" "$IN/n3.mp3"
        ok=1
        for f in n1.mp3 n2.mp3 n3.mp3.mp3; do
            [ -e "$ldir/$f" ] || f=${f%.mp3}
            if [ "$RC" -ne 0 ] || ! cmp -s "$ldir/$f" "$rdir/$f"; then
                id_fail "$name t$t $f" "exit $RC, or not lame's bytes" "$(tail -n 2 "$rdir.log.stderr")"
                ok=0
            fi
        done
        [ $ok = 1 ] && id_ok "$name t$t"
    done
}
nogap_set nogap_v2 -V 2
nogap_set nogap_cbr_tags -b 128 --nogaptags --tt "Set"

echo "$ID_THEME: $ID_PASS passed, $ID_FAIL failed"
[ $ID_FAIL -eq 0 ] && [ $ID_PASS -gt 0 ]
