#!/usr/bin/env bash
# identity/options: the VBR options of the current slice: -V (integer and
# fractional), -v, --vbr-new, --vbr-mtrh, --preset, ReplayGain, -t, -m, -a,
# -q, --lowpass/--highpass, -p, --strictly-enforce-ISO, --nores, the VBR
# limits -b/-B/-F, and combinations of them.
. "$(dirname "$0")/lib.sh"
id_init "$@"

gen st.wav -t mix -d 2 -S 21
gen mono.wav -t mix -c 1 -d 2 -S 22
gen noise.wav -t burst -d 2 -S 23
S=$IN/st.wav M=$IN/mono.wav N=$IN/noise.wav

for v in 0 1 2 3 4 5 6 7 8 9; do check_file "V$v" "$S" -V "$v"; done
for v in 0.5 2.7 4.5 5.999; do check_file "V$v" "$S" -V "$v"; done
check_file bundled_V2 "$S" -V2
check_file v "$S" -v
check_file vbr_new "$S" --vbr-new
check_file vbr_new_V2 "$S" --vbr-new -V 2
check_file vbr_new_V7 "$S" -V 7 --vbr-new
check_file vbr_mtrh_V3 "$S" --vbr-mtrh -V 3
check_file vbr_mtrh "$S" --vbr-mtrh
for p in medium standard extreme; do check_file "preset_$p" "$S" --preset "$p"; done
check_file preset_standard_mono "$M" --preset standard

check_file noreplaygain_V2 "$S" -V 2 --noreplaygain
check_file noreplaygain_V6 "$N" -V 6 --noreplaygain
check_file replaygain_fast_V2 "$S" -V 2 --replaygain-fast
check_file notag_V2 "$S" -V 2 -t
check_file notag_norg_V4 "$S" -V 4 -t --noreplaygain

for m in j s m f; do
    check_file "mode_${m}_V2" "$S" -V 2 -m "$m"
    check_file "mode_${m}_V5_noise" "$N" -V 5 -m "$m"
done
check_file mode_d_V2 "$S" -V 2 -m d
check_file mode_l_V4 "$S" -V 4 -m l
check_file mode_r_V4 "$S" -V 4 -m r
check_file bundled_mm "$S" -V 2 -mm
check_file a_V2 "$S" -V 2 -a
check_file a_V9 "$S" -V 9 -a
check_file mono_in_V2 "$M" -V 2
check_file mono_in_V9 "$M" -V 9
check_file mono_in_ms "$M" -V 2 -m s

for q in 0 1 2 3 4 5 6 7 8 9; do check_file "q${q}_V2" "$S" -V 2 -q "$q"; done
check_file h_V4 "$S" -V 4 -h
check_file f_V4 "$S" -V 4 -f
check_file q7_V0_noise "$N" -V 0 -q 7

check_file lowpass_15000 "$S" -V 2 --lowpass 15000
check_file lowpass_12.5k "$S" -V 2 --lowpass 12.5
check_file lowpass_5000 "$S" -V 4 --lowpass 5000
check_file lowpass_off "$S" -V 2 --lowpass -1
check_file lowpass_21000_V0 "$S" -V 0 --lowpass 21000
check_file highpass_200 "$S" -V 2 --highpass 200
check_file highpass_0.5k "$N" -V 4 --highpass 0.5
check_file band_100_16000 "$S" -V 3 --highpass 100 --lowpass 16000
check_file lowpass_V9 "$S" -V 9 --lowpass 8000
check_file lowpass_width "$S" -V 2 --lowpass 16000 --lowpass-width 1000
check_file highpass_width "$N" -V 4 --highpass 200 --highpass-width 100
check_file samplerate_override "$S" -V 2 -s 48
check_file preset_fast_standard "$S" --preset fast standard

check_file crc_V2 "$S" -V 2 -p
check_file crc_V9 "$S" -V 9 -p
check_file crc_mono "$M" -V 5 -p
check_file strict_V2 "$S" -V 2 --strictly-enforce-ISO
check_file strict_V0_noise "$N" -V 0 --strictly-enforce-ISO
check_file nores_V2 "$S" -V 2 --nores
check_file nores_V0_noise "$N" -V 0 --nores
check_file nores_V9 "$S" -V 9 --nores

# VBR limits: -b = minimum (also sets brate), -B = maximum, -F = keep the
# minimum on digital silence too; values snap to the MPEG version's table
check_file vbr_b128_V2 "$S" -V 2 -b 128
check_file vbr_B192_V0 "$S" -V 0 -B 192
check_file vbr_b96_B160_F_V5 "$S" -V 5 -b 96 -B 160 -F
check_file vbr_b32_V9_mpeg2 "$S" -V 9 -b 32
check_file vbr_b320_V4 "$S" -V 4 -b 320
check_file vbr_B64_V6_mono "$M" -V 6 -B 64
check_file vbr_b_before_V "$S" -b 112 -V 3
check_file vbr_b100_B150_snap "$N" -V 2 -b 100 -B 150
check_file vbr_b400_nores "$S" -V 2 -b 400
check_file vbr_crossed "$S" -V 2 -b 256 -B 96
check_file vbr_preset_FB224 "$N" --preset standard -FB 224
check_file vbr_vbr_new_b64_B96 "$S" --vbr-new -b 64 -B 96
check_file vbr_22k_b100_B150 "$S" --resample 22 -V 2 -b 100 -B 150
check_file vbr_8k_b40_B100 "$S" --resample 8 -V 4 -b 40 -B 100
# digital silence between music (raw, so the three parts simply concatenate)
gen gap_a.raw -f raw -b 16 -t mix -d 1 -S 31
gen gap_s.raw -f raw -b 16 -t silence -d 1.5
gen gap_b.raw -f raw -b 16 -t mix -d 1 -S 32
[ -s "$IN/gap.raw" ] || { cat "$IN/gap_a.raw" "$IN/gap_s.raw" "$IN/gap_b.raw" >"$IN/gap.raw.part" \
    && mv "$IN/gap.raw.part" "$IN/gap.raw"; }
gen silence.wav -t silence -d 2
check_file vbr_F_V2_gap "$IN/gap.raw" -r -V 2 -F
check_file vbr_b128_V2_gap "$IN/gap.raw" -r -V 2 -b 128
check_file vbr_b128_F_V2_gap "$IN/gap.raw" -r -V 2 -b 128 -F
check_file vbr_F_V2_silence "$IN/silence.wav" -V 2 -F
check_file vbr_b96_F_V2_silence "$IN/silence.wav" -V 2 -b 96 -F

check_file combo_1 "$S" -V 2 -m s -q 5 -p --noreplaygain
check_file combo_2 "$N" --preset extreme --nores --lowpass 19000 -t
check_file combo_3 "$S" -V 6.5 -m m --resample 24 -p
check_file combo_4 "$M" --vbr-new -V 8 --highpass 150 --strictly-enforce-ISO
check_file combo_5 "$N" -V 1 -m f -q 3 --nores -p -t

# deterministic pseudo-random combinations of everything above, over inputs
# of several rates and channel counts (bash's RANDOM with a fixed seed)
gen r48.wav -t mix -r 48000 -d 1.5 -S 24
gen r32m.wav -t burst -r 32000 -c 1 -d 1.5 -S 25
gen r22.wav -t pink -r 22050 -d 1.5 -S 26
gen r11.wav -t mix -r 11025 -d 1.5 -S 27
inputs=("$S" "$M" "$N" "$IN/r48.wav" "$IN/r32m.wav" "$IN/r22.wav" "$IN/r11.wav")
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
RANDOM=20261129
# shellcheck disable=SC2207  # the options are split into words on purpose
for k in $(seq 1 40); do
    o=(-V "$((RANDOM % 10)).$((RANDOM % 10))")
    o+=($(pick "" "" "-m j" "-m s" "-m f" "-m m" "-a"))
    o+=($(pick "" "" "-q 0" "-q 5" "-q 6" "-q 7" "-q 9"))
    o+=($(pick "" "" "" "-p"))
    o+=($(pick "" "" "" "--nores" "--strictly-enforce-ISO"))
    o+=($(pick "" "" "" "--noreplaygain" "-t"))
    o+=($(pick "" "" "" "" "--vbr-new" "--vbr-mtrh"))
    o+=($(pick "" "" "" "" "--lowpass 14000" "--highpass 120" "--lowpass -1"))
    o+=($(pick "" "" "" "" "--resample 32" "--resample 22.05" "--resample 16" "--resample 48"))
    in=$(pick "${inputs[@]}")
    check_file "random_${k}" "$in" "${o[@]}"
done

id_summary
