#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# clients/gst: GStreamer 1.22's lamemp3enc (lame_encode_buffer_interleaved,
# upstream's buffer sizes, output rate 0, one 7200-byte flush) writes the same
# file through the drop-in as through the system's libmp3lame: CBR, VBR
# (target=quality), ABR (target=bitrate without cbr), mono, 48 and 22.05 kHz.
# Every run gets a private plugin registry (GStreamer caches its plugin scan,
# and blacklists a plugin that failed to load once).
# Run as: bash gst.sh SHIM_DIR GEN_SIGNAL [WORKDIR]
. "$(dirname "$0")/lib.sh"
cl_init "$@" gst-launch-1.0
GST_PLUGIN_LAME=$(find /usr/lib -name libgstlame.so 2>/dev/null | head -1)
[ -n "$GST_PLUGIN_LAME" ] || cl_skip "no lamemp3enc (apt-get install gstreamer1.0-plugins-good)"

cl_gen s16_44.wav -t mix -r 44100 -d 4 -S 21
cl_gen s16_48.wav -t sweep -r 48000 -d 3 -S 22
cl_gen s16_22_mono.wav -t mix -r 22050 -c 1 -d 3 -S 23

gs() {   # gs NAME INPUT LAMEMP3ENC_PROPERTIES...
    local name=$1 in=$IN/$2
    shift 2
    cl_case "$name" mp3 env GST_REGISTRY=@OUT@.registry gst-launch-1.0 -q filesrc location="$in" ! wavparse ! \
        audioconvert ! lamemp3enc "$@" ! filesink location=@OUT@
}
gs cbr192 s16_44.wav target=bitrate bitrate=192 cbr=true
gs cbr128_48 s16_48.wav target=bitrate bitrate=128 cbr=true
gs cbr64_mono_22 s16_22_mono.wav target=bitrate bitrate=64 cbr=true
gs vbr_q2 s16_44.wav target=quality quality=2
gs vbr_q6_48_fast s16_48.wav target=quality quality=6 encoding-engine-quality=fast
gs vbr_q4_mono s16_22_mono.wav target=quality quality=4
gs abr160 s16_44.wav target=bitrate bitrate=160
gs abr96_high_48 s16_48.wav target=bitrate bitrate=96 encoding-engine-quality=high
cl_summary
