#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/partial: inputs that end inside a sample frame, and headers that
# end early, never end or make no sense.
#
# Partial last frames.  lame keeps (samples read) / channels frames of each
# read and copies them from the END of what it read.  Its last read of a
# stereo stream that holds exactly one whole sample past its last whole
# frame has an odd sample count, so that read loses its FIRST sample and
# every frame of it moves one sample on (left = sample 2i+1, right = 2i+2).
# libsndfile (named files) returns such a lone sample when the file holds it
# after the last whole frame; lame's own stdin reader when the header
# promises more than the stream holds, or for raw PCM.  Every trailing-byte
# count 0 .. bytes-per-frame - 1, for 8/16/24/32-bit, mono and stereo, WAV
# (cut short, a data length that ends mid-frame, stray bytes after the
# data), AIFF and raw, named and on stdin, through each of ringlame's read
# paths: --threads 2 (the ring with direct reads of the data), --threads 1
# and --sequential (libsndfile / stdin decode, lame's read size).  The CTest
# case runs --threads 2 and --sequential (each reader once); --full (the
# fourth argument) adds --threads 1, the I/O thread over the reader of
# --sequential.
#
# Bad headers.  Every one ends quickly (RL_BAD_TIMEOUT, 10 s) with a message
# that names the input and the problem, a non-zero exit and no output.
. "$(dirname "$0")/lib.sh"
FULL=0
[ "${4:-}" = --full ] && FULL=1
id_init "${@:1:3}"
PATHS=("--threads 2" "--sequential")
[ $FULL = 1 ] && PATHS+=("--threads 1")

N=1500          # frames: 1500 % 1152 = 348 and 1500 % 576 = 348, so lame's last read is short
RL_BAD_TIMEOUT=${RL_BAD_TIMEOUT:-10}

# ringlame through one read path: a wrapper that adds the option, so that
# lib.sh's check (which gives lame and ringlame the same options) runs it
RL_REAL=$RL
export RL_REAL RL_STDIN=/dev/null
declare -A RL_PATH
for s in "--threads 2" "--threads 1" "--sequential"; do
    w="$WORK/rl${s// /_}"
    # shellcheck disable=SC2016  # the wrapper expands them when it runs
    printf '#!/bin/sh\nexec "$RL_REAL" %s "$@"\n' "$s" >"$w" && chmod +x "$w"
    RL_PATH[$s]=$w
done
# ringlame with its stdin taken from $RL_STDIN (check_bad gives it /dev/null)
# shellcheck disable=SC2016
printf '#!/bin/sh\nexec "$RL_REAL" "$@" <"$RL_STDIN"\n' >"$WORK/rl-stdin" && chmod +x "$WORK/rl-stdin"

# each_path MODE NAME INPUT OPTS...   the identity case through every read
# path of PATHS (lame runs once for them all)
each_path() {
    local mode=$1 name=$2 in=$3 s t; shift 3
    for s in "${PATHS[@]}"; do
        t=${s#--}
        RL=${RL_PATH[$s]} ID_LAME_MEMO=1 check "$mode" "${name}_${t// /}" "$in" "$@"
    done
}

# bad_stdin NAME PATTERN INPUT OPTS...   check_bad with INPUT on stdin ("-")
bad_stdin() {
    local name=$1 pat=$2 in=$3; shift 3
    RL_STDIN=$in RL=$WORK/rl-stdin RL_TIMEOUT=$RL_BAD_TIMEOUT check_bad "$name" "$pat" - "$@"
}

le32() {  # the 4 little-endian bytes of $1, as printf escapes
    printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}

# ---- partial last frames ----
for b in 8 16 24 32; do
    for c in 1 2; do
        bps=$((b / 8)); fb=$((bps * c))
        case $b in 8) wb=u8; ab=s8 ;; *) wb=$b; ab=$b ;; esac
        mono=(); [ "$c" = 1 ] && mono=(-m m)
        tag="${b}bit_c$c"
        # sources: N and N+1 frames (the sample data is last in both containers)
        gen "w${tag}_n.wav" -t mix -n $N -b "$wb" -c "$c" -S "$b$c" || continue
        gen "w${tag}_n1.wav" -t mix -n $((N + 1)) -b "$wb" -c "$c" -S "$b$c" || continue
        gen "a${tag}_n1.aif" -f aiff -t mix -n $((N + 1)) -b "$ab" -c "$c" -S "$b$c" || continue
        gen "r${tag}_n1.raw" -f raw -t white -n $((N + 1)) -b "$ab" -c "$c" -S "$b$c" || continue
        wsrc=$IN/w${tag}_n1.wav asrc=$IN/a${tag}_n1.aif
        whdr=$(($(stat -c %s "$wsrc") - (N + 1) * fb))
        ahdr=$(($(stat -c %s "$asrc") - (N + 1) * fb))
        for ((e = 0; e < fb; e++)); do
            id="${tag}_plus$e"
            # a WAV cut short (a truncated download: the header promises a frame more)
            head -c $((whdr + N * fb + e)) "$wsrc" >"$IN/wcut_$id.wav"
            each_path file "wav_cut_$id" "$IN/wcut_$id.wav" -V 5
            each_path stdin "wav_cut_${id}_stdin" "$IN/wcut_$id.wav" -V 5
            # a WAV whose data length ends e bytes past a whole frame
            cp "$IN/wcut_$id.wav" "$IN/wodd_$id.wav"
            # shellcheck disable=SC2059  # le32 gives the escapes
            printf "$(le32 $((N * fb + e)))" | dd of="$IN/wodd_$id.wav" bs=1 seek=$((whdr - 4)) conv=notrunc status=none
            each_path file "wav_oddlen_$id" "$IN/wodd_$id.wav" -V 5
            each_path stdin "wav_oddlen_${id}_stdin" "$IN/wodd_$id.wav" -V 5
            # e stray bytes after a whole data chunk
            { cat "$IN/w${tag}_n.wav"; head -c "$e" "$IN/r${tag}_n1.raw"; } >"$IN/wstray_$id.wav"
            each_path file "wav_stray_$id" "$IN/wstray_$id.wav" -V 5
            # an AIFF cut short
            head -c $((ahdr + N * fb + e)) "$asrc" >"$IN/acut_$id.aif"
            each_path file "aiff_cut_$id" "$IN/acut_$id.aif" -V 5
            each_path stdin "aiff_cut_${id}_stdin" "$IN/acut_$id.aif" -V 5
            # raw PCM with e leftover bytes
            head -c $((N * fb + e)) "$IN/r${tag}_n1.raw" >"$IN/raw_$id.raw"
            each_path file "raw_$id" "$IN/raw_$id.raw" -r --bitwidth "$b" "${mono[@]}" -V 5
            each_path stdin "raw_${id}_stdin" "$IN/raw_$id.raw" -r --bitwidth "$b" "${mono[@]}" -V 5
        done
    done
done
# the shifted last read with other read sizes and modes: 576-frame reads
# (MPEG-2 output), CBR, --ignorelength on stdin (reads past the data length)
each_path file wav_cut_16bit_c2_plus2_resample22 "$IN/wcut_16bit_c2_plus2.wav" -V 5 --resample 22.05
each_path stdin wav_cut_24bit_c2_plus4_stdin_resample16 "$IN/wcut_24bit_c2_plus4.wav" --resample 16
each_path file wav_stray_16bit_c2_plus3_cbr "$IN/wstray_16bit_c2_plus3.wav" -b 192
each_path stdin wav_stray_16bit_c2_plus2_ignorelength "$IN/wstray_16bit_c2_plus2.wav" -V 5 --ignorelength
each_path stdout raw_32bit_c2_plus5_stdout "$IN/raw_32bit_c2_plus5.raw" -r --bitwidth 32 -V 2

# ---- headers that end early, never end, or make no sense ----
# (the names are regression inputs: each hung or misled before)
printf 'FORM\x7f\xff\xff\xf0AIFF' >"$IN/aiff_form_huge.aif"       # lame spins in its AIFF loop
bad_stdin aiff_form_huge_stdin 'truncated AIFF header' "$IN/aiff_form_huge.aif" -V 2
check_bad aiff_form_huge 'aiff_form_huge\.aif' "$IN/aiff_form_huge.aif" -V 2
# an AIFF whose chunk size is negative (lame seeks backwards: a loop)
printf 'FORM\x00\x00\x00\x40AIFFJUNK\xff\xff\xff\xf0abcdefgh' >"$IN/aiff_negative_chunk.aif"
bad_stdin aiff_negative_chunk_stdin 'corrupt or unsupported AIFF' "$IN/aiff_negative_chunk.aif" -V 2
# WAV headers that end inside a chunk header, or whose chunks run past the end
printf 'RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00' >"$IN/wav_cut_in_fmt.wav"
bad_stdin wav_cut_in_fmt_stdin 'truncated WAVE header' "$IN/wav_cut_in_fmt.wav" -V 2
check_bad wav_cut_in_fmt 'wav_cut_in_fmt\.wav' "$IN/wav_cut_in_fmt.wav" -V 2
{ head -c 36 "$IN/w16bit_c2_n.wav"; printf 'LIST\xf0\xff\xff\x7fjunk'; } >"$IN/wav_chunk_past_end.wav"
bad_stdin wav_chunk_past_end_stdin 'truncated WAVE header' "$IN/wav_chunk_past_end.wav" -V 2
# 0-length fmt chunk
printf 'RIFF\x24\x00\x00\x00WAVEfmt \x00\x00\x00\x00data\x00\x00\x00\x00' >"$IN/wav_fmt_empty.wav"
bad_stdin wav_fmt_empty_stdin 'corrupt or unsupported WAVE' "$IN/wav_fmt_empty.wav" -V 2
check_bad wav_fmt_empty 'wav_fmt_empty\.wav' "$IN/wav_fmt_empty.wav" -V 2
# 0-length chunks before the data are skipped, as lame skips them
{ head -c 12 "$IN/w16bit_c2_n.wav"; printf 'junk\x00\x00\x00\x00'; tail -c +13 "$IN/w16bit_c2_n.wav"; } \
    >"$IN/wav_empty_chunk.wav"
each_path stdin wav_empty_chunk_stdin "$IN/wav_empty_chunk.wav" -V 5
# a data length far past the end: read to the end, nothing allocated for it
cp "$IN/w16bit_c2_n.wav" "$IN/wav_huge_len.wav"
printf '\xf0\xff\xff\x7f' | dd of="$IN/wav_huge_len.wav" bs=1 seek=40 conv=notrunc status=none
each_path file wav_huge_len "$IN/wav_huge_len.wav" -V 5
each_path stdin wav_huge_len_stdin "$IN/wav_huge_len.wav" -V 5
# 1 Hz: lame's bytes (a few frames of audio, resampled to 8 kHz)
{ printf 'RIFF\x34\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00\x01\x00\x00\x00'
  printf '\x04\x00\x00\x00\x04\x00\x10\x00data\x10\x00\x00\x00'; head -c 16 "$IN/r16bit_c2_n1.raw"; } >"$IN/wav_1hz.wav"
check_file wav_1hz "$IN/wav_1hz.wav" -V 5
check_stdin wav_1hz_stdin "$IN/wav_1hz.wav" -V 5
# channel counts no encoder takes (65535 and -1 as WAV sees them, 2^31 in AU)
printf 'RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\xff\xff\x44\xac\x00\x00\x00\x00\x00\x00\x04\x00\x10\x00data\x00\x00\x00\x00' \
    >"$IN/wav_65535ch.wav"
bad_stdin wav_65535ch_stdin 'channels' "$IN/wav_65535ch.wav" -V 2
check_bad wav_65535ch 'wav_65535ch\.wav' "$IN/wav_65535ch.wav" -V 2
printf '.snd\x00\x00\x00\x18\x00\x00\x00\x10\x00\x00\x00\x03\x00\x00\xac\x44\x80\x00\x00\x00abcdefghijklmnop' >"$IN/au_2g_channels.au"
check_bad au_2g_channels 'au_2g_channels\.au' "$IN/au_2g_channels.au" -V 2
# stdin that is empty, too short, or closed
: >"$IN/empty.bin"
bad_stdin stdin_empty 'standard input is empty' "$IN/empty.bin" -V 2
printf 'RI' >"$IN/two_bytes.bin"
bad_stdin stdin_two_bytes 'ends after 2 bytes' "$IN/two_bytes.bin" -V 2
dir="$OUT/bad-stdin_closed"; rm -rf "$dir"; mkdir -p "$dir"
( cd "$dir" && timeout "$RL_BAD_TIMEOUT" "$RL_REAL" -V 2 - out.mp3 <&- >"$WORK/closed.out" 2>"$WORK/closed.err" )
rc=$?
# (lame: "Can't init infile '-'", exit 255)
if [ $rc -eq 255 ] && [ -z "$(ls -A "$dir")" ] && grep -q 'standard input is closed' "$WORK/closed.err"; then
    id_ok "stdin_closed (exit $rc: $(head -n 1 "$WORK/closed.err"))"
else
    id_fail stdin_closed "exit $rc, files: $(ls -A "$dir"), stderr: $(head -c 200 "$WORK/closed.err")" \
        "ringlame: cd $dir && $(id_q "$RL_REAL" -V 2 - out.mp3) <&-"
fi

id_summary
