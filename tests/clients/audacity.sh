#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# clients/audacity: Audacity 3.2 (ExportMP3.cpp: dlopen("libmp3lame.so.0"),
# lame_encode_buffer_interleaved_ieee_float, or _ieee_float for a mono
# export; lame_set_preset, bWriteVbrTag(1) and lame_get_lametag_frame written
# over the file's first frame) writes the same files through the drop-in as
# through the system's libmp3lame.  Audacity runs headless on an Xvfb of its
# own and is driven through mod-script-pipe (audacity_pipe.py): Import2 of a
# generated WAV, then for each case SetPreference of the export settings the
# MP3 options dialog stores (/FileFormats/MP3RateModeChoice SET, VBR, ABR or
# CBR, /FileFormats/MP3Bitrate: the preset or VBR index, or the kbps,
# /FileFormats/MP3ChannelModeChoice) and Export2.  One session per library
# exports every case; Audacity's libsndfile links libmp3lame.so.0, so the
# library is mapped at start-up and the dlopen finds it: the LD_DEBUG=libs
# logs and Audacity's /proc/PID/maps must both show the drop-in alone.
# Run as: bash audacity.sh SHIM_DIR GEN_SIGNAL [WORKDIR]
. "$(dirname "$0")/lib.sh"
cl_init "$@" audacity Xvfb python3
[ -e /usr/lib/audacity/modules/mod-script-pipe.so ] ||
    cl_skip "Audacity has no mod-script-pipe module (/usr/lib/audacity/modules/mod-script-pipe.so)"
DRIVER=$(dirname "$0")/audacity_pipe.py
SECONDS=0

cl_gen s16_44.wav -t mix -r 44100 -d 3 -S 21
cl_gen s16_48.wav -t sweep -r 48000 -d 2 -S 22
cl_gen s16_22_mono.wav -t mix -r 22050 -c 1 -d 2 -S 23

SESSION=()      # the commands of one session; @LIB@ in a path: system or shim
CASES=()        # the case names, in export order
# the settings Audacity starts with (audacity.cfg), then SetPreference: at
# each change
START_PREFS=(--pref /FileFormats/MP3ForceMono=0 --pref /FileFormats/MP3RateModeChoice=SET
             --pref /FileFormats/MP3Bitrate=2 --pref /FileFormats/MP3ChannelModeChoice=JOINT)
CUR_MODE=SET CUR_RATE=2 CUR_CHANNELS=JOINT IMPORTED=0

pref() { SESSION+=("SetPreference: Name=/FileFormats/$1 Value=$2"); }

input() {       # input WAV: the next cases export IN/WAV alone
    [ $IMPORTED = 0 ] || SESSION+=("SelectAll:" "RemoveTracks:")
    SESSION+=("Import2: Filename=\"$IN/$1\"")
    IMPORTED=1
}

mp3() {         # mp3 NAME MODE RATE [CHANNELS [JOINT|STEREO]]
    local name=$1 mode=$2 rate=$3 channels=${4:-2} stereo=${5:-JOINT}
    [ "$mode" = "$CUR_MODE" ] || pref MP3RateModeChoice "$mode"
    [ "$rate" = "$CUR_RATE" ] && [ "$mode" = "$CUR_MODE" ] || pref MP3Bitrate "$rate"
    [ "$stereo" = "$CUR_CHANNELS" ] || pref MP3ChannelModeChoice "$stereo"
    CUR_MODE=$mode CUR_RATE=$rate CUR_CHANNELS=$stereo
    SESSION+=("Export2: Filename=\"$OUT/$name.@LIB@.mp3\" NumChannels=$channels")
    CASES+=("$name")
}

input s16_44.wav
mp3 preset_standard SET 2
mp3 preset_extreme SET 1
mp3 preset_insane SET 0
mp3 vbr_0 VBR 0
mp3 abr_96 ABR 96
mp3 cbr_128 CBR 128
mp3 cbr_192_stereo CBR 192 2 STEREO
mp3 cbr_128_downmix CBR 128 1
input s16_48.wav
mp3 preset_medium_48 SET 3
input s16_22_mono.wav
mp3 vbr_4_mono_22 VBR 4 1

session() {     # session LIB: runs Audacity once, exporting every case
    local lib=$1 cmds=() c
    for c in "${SESSION[@]}"; do cmds+=("${c//@LIB@/$lib}"); done
    rm -rf "$WORK/home.$lib" "$OUT/session.$lib".*
    # the driver has its own deadlines (120 s for the lock, 60 s a step);
    # this one catches the driver itself, inside CTest's 600 s for the test
    local start=$SECONDS rc=0
    timeout -k 10 270 python3 "$DRIVER" --maps "$OUT/session.$lib.maps" "${START_PREFS[@]}" \
        "$WORK/home.$lib" "${cmds[@]}" \
        >"$OUT/session.$lib.log" 2>&1 || rc=$?
    echo "audacity: the $lib library's session took $((SECONDS - start)) s"
    return $rc
}

maps_are() {    # maps_are LIB LIBRARY: Audacity's maps held LIBRARY's file alone
    local want
    want=$(realpath "$2") && [ "$(cat "$OUT/session.$1.maps")" = "$want" ]
}

WHY=""
if ! (unset LD_LIBRARY_PATH; session system); then
    WHY="Audacity failed with the system library ($(tail -c 400 "$OUT/session.system.log"))"
elif ! maps_are system "$SYSTEM_LIBMP3LAME"; then
    WHY="with the system library Audacity mapped $(tr '\n' ' ' <"$OUT/session.system.maps")"
elif ! LD_LIBRARY_PATH=$SHIM_DIR LD_DEBUG=libs LD_DEBUG_OUTPUT=$OUT/session.ld session shim; then
    WHY="Audacity failed with the drop-in ($(tail -c 400 "$OUT/session.shim.log"))"
elif ! cl_loaded_shim "$OUT/session.ld"; then
    WHY="the LD_DEBUG=libs logs do not show $SHIM_DIR/libmp3lame.so.0 alone initialised"
elif ! maps_are shim "$SHIM_DIR/libmp3lame.so.0"; then
    WHY="with the drop-in Audacity mapped $(tr '\n' ' ' <"$OUT/session.shim.maps"), not $SHIM_DIR's alone"
fi
COMMAND="LD_LIBRARY_PATH=$SHIM_DIR python3 $DRIVER $(cl_q "${START_PREFS[@]}") HOME $(cl_q "${SESSION[@]//@LIB@/shim}")"
for name in "${CASES[@]}"; do
    cl_judge "$name" "$OUT/$name.system.mp3" "$OUT/$name.shim.mp3" "" "$WHY" "$COMMAND" ||
        COMMAND="(as above)"
done
echo "audacity: ${#CASES[@]} exports with each library in ${SECONDS} s"
if [ "$CL_FAIL" -eq 0 ] && [ "${RL_KEEP:-0}" != 1 ]; then
    rm -rf "$WORK/home.system" "$WORK/home.shim" "$OUT"/*.mp3 "$OUT"/session.*
fi
cl_summary
