#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/formats: every container and sample format libsndfile opens
# (WAV, WAVEX, RF64, W64, AIFF, AU, CAF, FLAC, Ogg Vorbis; 8/16/24/32-bit
# integer, float, double), mono and stereo.  Float input is normalised to its
# peak by libsndfile in lame's front end, so all-zero float input is a case.
# Headerless VOX ADPCM down to a few samples and an empty file.
. "$(dirname "$0")/lib.sh"
id_init "$@"

fmt_case() {  # NAME FORMAT SUBTYPE CHANNELS [gen args...] -- encoder options...
    local name=$1 f=$2 b=$3 c=$4; shift 4
    local g=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do g+=("$1"); shift; done
    shift
    local ext=$f
    case $f in wavex|rf64) ext=wav ;; aiff) ext=aif ;; esac
    gen "$name.$ext" -f "$f" -b "$b" -c "$c" "${g[@]}" && check_file "$name" "$IN/$name.$ext" "$@"
}

for c in 1 2; do
    for b in u8 16 24 32 float double; do
        fmt_case "wav_${b}_c$c" wav "$b" "$c" -t mix -d 2 -- -V 2
    done
    for b in s8 16 24 32 float; do
        fmt_case "aiff_${b}_c$c" aiff "$b" "$c" -t mix -d 2 -- -V 2
    done
    for b in s8 16 24; do
        fmt_case "flac_${b}_c$c" flac "$b" "$c" -t mix -d 2 -- -V 2
    done
    fmt_case "ogg_vorbis_c$c" ogg vorbis "$c" -t mix -d 2 -- -V 2
    fmt_case "au_16_c$c" au 16 "$c" -t mix -d 2 -- -V 4
    fmt_case "caf_24_c$c" caf 24 "$c" -t mix -d 2 -- -V 4
done
fmt_case wavex_16 wavex 16 2 -t mix -d 2 -- -V 2
fmt_case wavex_float wavex float 2 -t mix -d 2 -- -V 2
fmt_case w64_24 w64 24 2 -t mix -d 2 -- -V 2
fmt_case rf64_16 rf64 16 2 -t mix -d 2 -- -V 2
fmt_case au_float au float 2 -t mix -d 2 -- -V 2

# headerless PCM described on the command line (-r): lame's RAW fallback
gen st.raw -f raw -b 16 -t mix -d 2 && check_file raw_s16_44k "$IN/st.raw" -r -V 2
gen mono22.raw -f raw -b 16 -c 1 -r 22050 -t mix -d 2 \
    && check_file raw_s16_22k_mono "$IN/mono22.raw" -r -s 22.05 -m m -V 4
gen st24.raw -f raw -b 24 -t mix -d 2 && check_file raw_s24 "$IN/st24.raw" -r --bitwidth 24 -V 2

# other rates and settings through non-16-bit paths
fmt_case flac_24_48k flac 24 2 -t pink -r 48000 -d 2 -- -V 0
fmt_case wav_float_22k wav float 2 -t mix -r 22050 -d 2 -- -V 5
fmt_case wav_32_96k wav 32 2 -t mix -r 96000 -d 1.5 -- -V 2
fmt_case ogg_vorbis_48k ogg vorbis 2 -t mix -r 48000 -d 2 -- -V 9

# float normalisation corner cases
fmt_case wav_float_silence wav float 2 -t silence -d 1 -- -V 2
fmt_case wav_float_quiet wav float 2 -t mix -a 0.05 -d 2 -- -V 2
fmt_case wav_float_loud_nopeak wav float 2 -t sine -a 0.99 -d 2 --no-peak -- -V 2
fmt_case wav_float_square wav float 2 -t square -d 2 -- -V 0
fmt_case wav_double_dc wav double 1 -t dc -d 2 -- -V 4
fmt_case wav_u8_silence wav u8 2 -t silence -d 1 -- -V 2
fmt_case wav_u8_square wav u8 1 -t square -d 1 -- -V 2
fmt_case wav_24_full wav 24 2 -t white -a 1 -d 2 -- -V 0
fmt_case wav_32_square wav 32 2 -t square -d 1 -- -V 2

# headerless VOX ADPCM (libsndfile knows it by the name): its reader reports
# odd counts and leaves an error from lame's scaling command behind
if [ ! -s "$IN/adpcm.vox" ]; then
    sox -n -r 8000 -c 1 -e oki-adpcm "$IN/adpcm.vox" synth 1.23457 sine 440 2>/dev/null \
        || id_fail "generate adpcm.vox" "sox failed (scripts/setup.sh installs it)"
fi
check_file vox_adpcm_V5 "$IN/adpcm.vox" -V 5
check_file vox_adpcm_cbr "$IN/adpcm.vox"
# tiny VOX files: shorter than libsndfile's 12-byte format probe, they open
# by their name with the probe's error left behind; lame encodes them (the
# empty one too, as an empty stream)
head -c 5 "$IN/adpcm.vox" >"$IN/adpcm10.vox"    # 10 samples
head -c 1 "$IN/adpcm.vox" >"$IN/adpcm2.vox"     # 2 samples
: >"$IN/adpcm0.vox"
check_file vox_10_samples_cbr "$IN/adpcm10.vox"
check_file vox_10_samples_V2 "$IN/adpcm10.vox" -V 2
check_file vox_2_samples_b320 "$IN/adpcm2.vox" -b 320
check_file vox_empty "$IN/adpcm0.vox"
check_file vox_empty_V5 "$IN/adpcm0.vox" -V 5

id_summary
