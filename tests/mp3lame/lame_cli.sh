#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Debian's own `lame` command (it links libmp3lame.so.0) through the
# drop-in library (LD_LIBRARY_PATH) must write the bytes it writes with
# Debian's libmp3lame: corner signals and settings, ReplayGain (the
# command's default), ID3 tags, --nogap, several thread counts.
# usage: lame_cli.sh GEN_SIGNAL SHIM_DIR WORKDIR
# Exits 77 when lame is not installed.
set -u
GEN=$1 SHIM_DIR=$2 WORK=$3
LAME=${RL_LAME:-$(command -v lame || true)}
[ -n "$LAME" ] && [ -x "$LAME" ] || { echo "skip: lame not installed"; exit 77; }
[ -e "$SHIM_DIR/libmp3lame.so.0" ] || { echo "FAIL: no $SHIM_DIR/libmp3lame.so.0"; exit 1; }
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1

"$GEN" -t mix -d 9 mix.wav || exit 1
"$GEN" -t sweep -d 4 -c 1 sweep_mono.wav || exit 1
"$GEN" -t white -r 48000 -d 3 white48.wav || exit 1
"$GEN" -t burst -r 32000 -d 5 burst32.wav || exit 1
"$GEN" -t impulse -d 1 short.wav || exit 1
"$GEN" -t silence -n 100 tiny.wav || exit 1
"$GEN" -t pink -d 3 -S 7 pink.wav || exit 1

fail=0 n=0
# check NAME THREADS LAME-ARGS... (the output file is the last argument)
check() {
    local name=$1 threads=$2
    shift 2
    n=$((n + 1))
    rm -rf a_* b_*
    mkdir a_dir b_dir       # --nogapout OUTdir
    "$LAME" --quiet "${@/#OUT/a_}" 2>a.err
    local rca=$?
    RINGLAME_THREADS=$threads LD_LIBRARY_PATH=$SHIM_DIR "$LAME" --quiet "${@/#OUT/b_}" 2>b.err
    local rcb=$?
    local ok=1
    [ $rca = $rcb ] || ok=0
    local outs=0 f
    for f in a_*.mp3 a_dir/*; do
        [ -e "$f" ] || continue
        outs=$((outs + 1))
        cmp -s "$f" "b_${f#a_}" || ok=0
    done
    [ $outs -gt 0 ] || ok=0
    if [ $ok = 1 ]; then
        echo "ok   $name"
    else
        echo "FAIL $name (rc $rca / $rcb; $(ls -l a_* b_* 2>/dev/null | awk '{ print $5 }' | tr '\n' ' '))"
        fail=$((fail + 1))
    fi
}

check default          0 mix.wav OUTmix.mp3
check V2               0 -V 2 mix.wav OUTmix.mp3
check V0_q0            2 -V 0 -q 0 pink.wav OUTpink.mp3
check b320             0 -b 320 mix.wav OUTmix.mp3
check abr160           0 --abr 160 mix.wav OUTmix.mp3
check mono_m           0 -m m mix.wav OUTmix.mp3
check mono_input       0 sweep_mono.wav OUTsweep.mp3
check resample22       0 --resample 22.05 mix.wav OUTmix.mp3
check resample_48_44   3 --resample 44.1 -V 4 white48.wav OUTwhite.mp3
check mpeg2_32k_b64    0 -b 64 burst32.wav OUTburst.mp3
check noreplaygain     0 --noreplaygain -b 192 mix.wav OUTmix.mp3
check replaygain_acc   0 --replaygain-accurate -V 3 mix.wav OUTmix.mp3
check id3              0 --tt Title --ta Artist --tl Album --ty 2001 --tc Comment --tn 3 --tg Rock mix.wav OUTmix.mp3
check id3v2_long       0 --tt "a title longer than thirty characters" --add-id3v2 --pad-id3v2 mix.wav OUTmix.mp3
check id3v1_only       0 --id3v1-only --ta Someone mix.wav OUTmix.mp3
check q0               0 -q 0 mix.wav OUTmix.mp3
check threads1         1 -V 2 mix.wav OUTmix.mp3
check threads2_cbr     2 -b 128 mix.wav OUTmix.mp3
check short_input      0 short.wav OUTshort.mp3
check tiny_input       0 tiny.wav OUTtiny.mp3
check freeformat       0 --freeformat -b 400 mix.wav OUTmix.mp3
check nogap2           0 --nogap --nogapout OUTdir mix.wav pink.wav
check nogap3_V2        2 --nogap --nogapout OUTdir -V 2 short.wav mix.wav pink.wav
echo "$n runs, $fail failed"
[ $fail = 0 ]
