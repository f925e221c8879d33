#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# identity/signals: generated signals that stress particular encoder paths
# (silence, tones, sweeps, noise, attacks, full scale, hard panning, anti-phase,
# DC), stereo and mono, at several VBR settings.
. "$(dirname "$0")/lib.sh"
id_init "$@"

types="silence sine sweep white pink impulse square panned antiphase dc burst mix"
for t in $types; do
    gen "$t.wav" -t "$t" -d 2.5 -S 11
    for v in 0 2 6; do
        check_file "${t}_V$v" "$IN/$t.wav" -V "$v"
    done
    check_file "${t}_V9" "$IN/$t.wav" -V 9
    gen "${t}_mono.wav" -t "$t" -c 1 -d 2 -S 12
    check_file "${t}_mono_V4" "$IN/${t}_mono.wav" -V 4
done

# stereo-mode decisions on the signals where L/R vs M/S matters most
for t in panned antiphase sine; do
    check_file "${t}_ms_V2" "$IN/$t.wav" -V 2 -m s
    check_file "${t}_forcedms_V2" "$IN/$t.wav" -V 2 -m f
    check_file "${t}_mono_downmix_V2" "$IN/$t.wav" -V 2 -m m
done

# low-level and odd tones
gen quiet_sine.wav -t sine -a 0.0001 -d 2
check_file quiet_sine_V2 "$IN/quiet_sine.wav" -V 2
gen high_sine.wav -t sine -F 18000 -a 0.8 -d 2
check_file high_sine_V0 "$IN/high_sine.wav" -V 0
gen low_sine.wav -t sine -F 30 -a 0.9 -d 2
check_file low_sine_V4 "$IN/low_sine.wav" -V 4
gen square_48k.wav -t square -r 48000 -F 1000 -d 2
check_file square_48k_V0 "$IN/square_48k.wav" -V 0
gen white_full.wav -t white -a 1.0 -d 2
check_file white_full_V0 "$IN/white_full.wav" -V 0

id_summary
