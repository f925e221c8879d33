#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/options: lame's options, each compared with lame's bytes: VBR
# (-V, -v, --vbr-new, --vbr-mtrh, VBR presets, the limits -b/-B/-F), CBR and
# ABR (-b, --cbr, --abr, bitrate presets and their old names, --r3mix,
# --comp, --freeformat), input level and channels (--scale*, --gain,
# --swap-channel), the stream (-p, -c, -o, -e, --nores, ISO buffer
# constraints, -t/-T), ReplayGain, filters, -q/-m/-a, -Y/-Z, the switches
# lame accepts without effect (-X, -d, -k, --noasm, the developer-only
# ones), the command lines lame refuses (same exit status), and seeded
# random combinations of the VBR and of the CBR/ABR options.
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

# seeded pseudo-random combinations of everything above, over inputs of
# several rates and channel counts (bash's RANDOM).  RL_TEST_SEED=n draws
# other series (n for this one, n+1 for the CBR/ABR one below); the default
# seeds are fixed, so that every run checks the same cases.
gen r48.wav -t mix -r 48000 -d 1.5 -S 24
gen r32m.wav -t burst -r 32000 -c 1 -d 1.5 -S 25
gen r22.wav -t pink -r 22050 -d 1.5 -S 26
gen r11.wav -t mix -r 11025 -d 1.5 -S 27
inputs=("$S" "$M" "$N" "$IN/r48.wav" "$IN/r32m.wav" "$IN/r22.wav" "$IN/r11.wav")
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
SEED=${RL_TEST_SEED:-20261129}
echo "VBR random combinations: seed $SEED (replay: RL_TEST_SEED=$SEED)"
RANDOM=$SEED
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

# ---- CBR and ABR ----
gen c1.wav -t mix -d 1 -S 41
gen c1m.wav -t mix -c 1 -d 1 -S 42
gen c1n.wav -t burst -d 1 -S 43
C=$IN/c1.wav CM=$IN/c1m.wav CN=$IN/c1n.wav
check_file cbr_default "$C"
check_file cbr_default_mono "$CM"
for b in 8 64 192 320; do check_file "cbr_b$b" "$C" -b "$b"; done
check_file cbr_b100_snap "$C" -b 100
check_file cbr_b400 "$CN" -b 400
check_file cbr_flag "$C" --cbr -b 160
check_file cbr_after_V "$C" -V 2 --cbr -b 224
check_file cbr_B_F_ignored "$C" -b 160 -B 256 -F
check_file cbr_mono_b48 "$CM" -b 48
for b in 8 64 128 160 200 320 8000 128000 400; do check_file "abr_$b" "$C" --abr "$b"; done
check_file abr_noise_b_B "$CN" --abr 150 -b 96 -B 192
check_file abr_mono "$CM" --abr 96
for p in 8 96 128 160 185 192 224 256 320; do check_file "preset_$p" "$C" --preset "$p"; done
for p in 64 128 192 256; do check_file "preset_cbr_$p" "$C" --preset cbr "$p"; done
check_file preset_insane "$C" --preset insane
check_file preset_cbr_insane "$CN" --preset cbr insane
check_file alt_preset_112 "$C" --alt-preset 112
check_file preset_cbr_medium "$C" --preset cbr medium
check_file preset_fast_cbr_standard "$C" --preset fast cbr standard
for p in phone phon+ lw mw-eu sw mw-us voice fm radio tape hifi cd studio; do
    check_file "preset_$p" "$C" --preset "$p"
done
check_file preset_cbr_voice "$C" --preset cbr voice
check_file preset_128_then_V2 "$C" --preset 128 -V 2
check_file V2_then_preset_128 "$C" -V 2 --preset 128
check_file preset_128_q2 "$CN" --preset 128 -q 2
check_file r3mix "$C" --r3mix
check_file r3mix_V5 "$CN" --r3mix -V 5
# lame_set_preset(R3MIX) leaves the V3 ATH fix point in lame's internal
# config, and CBR/ABR never replace it
check_file r3mix_cbr "$C" --r3mix --cbr
check_file r3mix_abr "$C" --r3mix --abr 128
check_file r3mix_preset_cbr "$CN" --r3mix --preset cbr 96
check_file scale_r3mix_abr "$C" --scale 0.5 --r3mix --abr 200
for r in 1 5.5 11.025 20 60; do check_file "comp_$r" "$C" --comp "$r"; done
check_file comp_over_b "$C" --comp 8 -b 320
check_file comp_mono "$CM" --comp 4
check_file freeformat_b128 "$C" --freeformat -b 128
check_file freeformat_b8 "$C" --freeformat -b 8
check_file freeformat_b400 "$CN" --freeformat -b 400
check_file freeformat_b640 "$C" --freeformat -b 640
check_file freeformat_V2_b128 "$C" --freeformat -V 2 -b 128
check_file freeformat_abr "$C" --freeformat --abr 128 -b 128
check_file freeformat_preset "$C" --freeformat --preset 112
check_file freeformat_22k "$C" --freeformat -b 96 --resample 22.05

# ---- input level and channels ----
check_file scale_0.5 "$C" --scale 0.5
check_file scale_2_V2 "$CN" --scale 2 -V 2
check_file scale_l "$C" --scale-l 0.3
check_file scale_r_abr "$C" --scale-r 1.7 --abr 128
check_file scale_neg "$C" --scale -1 -b 192
check_file scale_before_preset "$C" --scale 2 --preset 96
check_file scale_after_preset "$C" --preset 96 --scale 2
for g in -25 -6 0 3.5 12 20; do check_file "gain_$g" "$C" --gain "$g"; done
check_file gain_V4 "$CN" --gain -3 -V 4
check_file swap "$C" --swap-channel
check_file swap_V2 "$CN" --swap-channel -V 2
check_file swap_ms "$C" --swap-channel -m s -b 192
check_file swap_a "$C" --swap-channel -a
check_file swap_ml "$C" --swap-channel -m l
check_file swap_scale_l "$C" --swap-channel --scale-l 0.25
check_file swap_mono_silence "$CM" --swap-channel
check_file swap_mono_V2 "$CM" --swap-channel -V 2
check_stdin swap_stdin "$C" --swap-channel -b 160
# a WAV whose data chunk announces 1 s of the 2 s that follow it
[ -s "$IN/understated.wav" ] || { cat "$C" && tail -c +45 "$CN"; } >"$IN/understated.wav"
check_stdin understated_stdin "$IN/understated.wav"
check_stdin ignorelength_stdin "$IN/understated.wav" --ignorelength
check_file ignorelength_file "$IN/understated.wav" --ignorelength -V 2

# ---- stream and header bits ----
check_file crc_cbr "$C" -p -b 192
check_file crc_abr_mono "$CM" -p --abr 80
for e in n 5 c; do check_file "emphasis_$e" "$C" -e "$e"; done
check_file emphasis_bundled "$C" -e5 -c -o
check_file copyright "$C" -c
check_file original_off "$C" -o -V 2
for bc in default strict maximum; do
    check_file "buffer_$bc" "$CN" --buffer-constraint "$bc" -b 320
    check_file "buffer_${bc}_V0" "$CN" --buffer-constraint "$bc" -V 0
done
check_file buffer_strict_then_iso "$C" --strictly-enforce-ISO --buffer-constraint maximum
check_file nores_cbr "$C" --nores -b 128
check_file tag_T "$C" -T
check_file tag_t_then_T "$C" -t -T -V 2
check_file tag_T_then_t "$C" -T -t
check_stdout tag_T_stdout "$C" -T -b 128
check_file noreplaygain_cbr "$C" --noreplaygain -b 256

# ---- psychoacoustics and experimental switches ----
check_file Y_cbr "$C" -Y
check_file Y_V2 "$CN" -Y -V 2
check_file Y_V6 "$C" -Y -V 6
check_file Z "$CN" -Z
check_file Z_V4 "$CN" -Z -V 4
check_file Z_0_V4 "$CN" -Z 0 -V 4
check_file Z_3_abr "$C" -Z 3 --abr 192
check_file Z_bundled "$C" -ZV2
check_file athaa_sens_V5 "$CN" --athaa-sensitivity 6 -V 5
check_file athaa_sens_cbr "$CN" --athaa-sensitivity -4 -b 96
check_file q0_cbr "$C" -q 0 -b 160
check_file q9_abr "$C" -q 9 --abr 112
check_file h_cbr_mono "$CM" -h -b 64

# ---- accepted without effect (lame: warning or nothing, same bytes) ----
check_file X_single "$C" -X 3
check_file X_pair "$C" -X2,5 -V 2
check_file X_bundled_rest "$C" -Xh
check_file d_obsolete "$C" -d
check_file k_obsolete "$C" -k -V 4
check_file noasm_sse "$C" --noasm sse
check_file noasm_other "$C" --noasm whatever -b 192
check_file nogaptags "$C" --nogaptags
check_file flush_disptime "$C" --flush --disptime 2
for sw in noshort short allshort notemp nspsytune nssafejoint no-preset-tune sfscale \
          noath athonly athshort; do
    check_file "dev_$sw" "$C" "--$sw"
done
for sw in interch temporal-masking nsmsfix ns-bass ns-alto ns-treble ns-sfb21 tune \
          shortthreshold maskingadjust maskingadjustshort athcurve substep sbgain athlower \
          athtype athaa-type; do
    check_file "dev_$sw" "$C" "--$sw" 2 -V 3
done
check_file dev_debug_file "$C" --debug-file "$WORK/never-written.txt"
check_file dev_case "$C" --AthOnly --NS-BASS -4
# a developer switch with an argument takes the next entry, whatever it is
check_file dev_takes_option "$C" --athtype -V2

# ---- command lines lame refuses: same exit status, no output ----
check_error freeformat_no_b "$C" --freeformat
check_error freeformat_V2 "$C" --freeformat -V 2
check_error freeformat_b7 "$C" --freeformat -b 7
check_error freeformat_b700 "$C" --freeformat -b 700
check_error comp_below_1 "$C" --comp 0.5
check_error preset_400 "$C" --preset 400
check_error preset_7 "$C" --preset 7
check_error preset_fast_128 "$C" --preset fast 128
check_error preset_fast_insane "$C" --preset fast insane
check_error preset_unknown "$C" --preset loud
check_error preset_case "$C" --preset Insane
check_error preset_help "$C" --preset help
check_error preset_cbr_help "$C" --preset cbr help
check_error buffer_bad "$C" --buffer-constraint strictest
check_error emphasis_bad "$C" -e x
check_error question_mark "$C" -?
check_error ogginput "$C" --ogginput
check_error maskingadjust_dash_short "$C" --maskingadjust-short 2

# ---- seeded random combinations of the CBR/ABR options ----
# RL_TEST_SEED=n draws this series from n+1 (RL_TEST_SEED=n replays both).
SEED=$(( ${RL_TEST_SEED:-20261129} + 1 ))
echo "CBR/ABR random combinations: seed $SEED (replay: RL_TEST_SEED=$((SEED - 1)))"
RANDOM=$SEED
gen c48.wav -t mix -r 48000 -d 1 -S 44
gen c32m.wav -t burst -r 32000 -c 1 -d 1 -S 45
gen c22.wav -t pink -r 22050 -d 1 -S 46
gen c16.wav -t mix -r 16000 -d 1 -S 47
cinputs=("$C" "$CM" "$CN" "$IN/c48.wav" "$IN/c32m.wav" "$IN/c22.wav" "$IN/c16.wav")
# shellcheck disable=SC2207  # the options are split into words on purpose
for k in $(seq 1 30); do
    o=($(pick "-b 32" "-b 64" "-b 96" "-b 112" "-b 128" "-b 160" "-b 192" "-b 256" "-b 320" \
              "-b $((RANDOM % 330 + 1))" "--cbr -b 144" "--abr $((RANDOM % 320 + 8))" \
              "--abr 96 -b 64 -B 160" "--preset $((RANDOM % 313 + 8))" \
              "--preset cbr $((RANDOM % 313 + 8))" "--preset insane" "--preset voice" \
              "--preset fm" "--preset cd" "--r3mix --cbr" "--r3mix --abr $((RANDOM % 313 + 8))" \
              "--comp $((RANDOM % 20 + 1)).5" \
              "--freeformat -b $((RANDOM % 632 + 8))"))
    o+=($(pick "" "" "-m j" "-m s" "-m f" "-m m" "-a" "-m d"))
    o+=($(pick "" "" "-q 0" "-q 2" "-q 5" "-q 7" "-q 9" "-h" "-f"))
    o+=($(pick "" "" "" "-p" "-c -o" "-e 5"))
    o+=($(pick "" "" "" "--nores" "--strictly-enforce-ISO" "--buffer-constraint default"))
    o+=($(pick "" "" "" "--noreplaygain" "-t" "-T"))
    o+=($(pick "" "" "" "" "--scale 0.7" "--gain 2" "--swap-channel" "--scale-l 1.5"))
    o+=($(pick "" "" "" "" "-Y" "-Z" "-X 1" "--athaa-sensitivity 3"))
    o+=($(pick "" "" "" "--lowpass 12000" "--highpass 200" "--lowpass -1"))
    o+=($(pick "" "" "" "" "--resample 32" "--resample 22.05" "--resample 16" "--resample 44.1"))
    in=$(pick "${cinputs[@]}")
    check_file "random_cbr_abr_${k}" "$in" "${o[@]}"
done

id_summary
