/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's console text around an encode (see console.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "rl_config.h"
#include "tables.h"

static const char *bitness(void)
{
    return sizeof(void *) == 8 ? "64bits" : sizeof(void *) == 4 ? "32bits" : "";
}

/* lame_print_config: the version, then what the settings do to the input. */
static void print_config(const RlConfig *cfg)
{
    double const out_sr = cfg->samplerate_out, in_sr = cfg->samplerate_in;

    fprintf(stderr, "LAME 3.100 %s (http://lame.sf.net)\n", bitness());
    if (cfg->channels_in == 2 && cfg->channels_out == 1)
        fprintf(stderr, "Autoconverting from stereo to mono. Setting encoding to mono mode.\n");
    if (in_sr < out_sr * 0.9995 || in_sr > out_sr * 1.0005)
        fprintf(stderr, "Resampling:  input %g kHz  output %g kHz\n", 1.e-3 * in_sr, 1.e-3 * out_sr);
    if (cfg->highpass2 > 0.)
        fprintf(stderr, "Using polyphase highpass filter, transition band: %5.0f Hz - %5.0f Hz\n",
                0.5 * cfg->highpass1 * out_sr, 0.5 * cfg->highpass2 * out_sr);
    if (0. < cfg->lowpass1 || 0. < cfg->lowpass2)
        fprintf(stderr, "Using polyphase lowpass filter, transition band: %5.0f Hz - %5.0f Hz\n",
                0.5 * cfg->lowpass1 * out_sr, 0.5 * cfg->lowpass2 * out_sr);
    else
        fprintf(stderr, "polyphase lowpass filter disabled\n");
    if (cfg->free_format) {
        fprintf(stderr, "Warning: many decoders cannot handle free format bitstreams\n");
        if (cfg->avg_bitrate > 320)
            fprintf(stderr, "Warning: many decoders cannot handle free format bitrates >320 kbps "
                    "(see documentation)\n");
    }
}

static const char *pick(int i, const char *const *names, int n, const char *other)
{
    return i >= 0 && i < n ? names[i] : other;
}

/* lame_print_internals (--verbose). */
static void print_internals(const RlConfig *cfg, const RlOptions *o)
{
    static const char *const huffman[] = { "normal", "best (outside loop)", "best (inside loop, slow)" };
    static const char *const vbr[] = { "constant bitrate - CBR", "variable bitrate - VBR mt",
                                       "variable bitrate - VBR rh", "variable bitrate - ABR",
                                       "variable bitrate - VBR mtrh" };
    static const char *const shortb[] = { "allowed", "channel coupled", "dispensed", "forced" };
    const char *pc;

    fprintf(stderr, "\nmisc:\n\n");
    fprintf(stderr, "\tscaling: %g\n", (double) cfg->scale);
    fprintf(stderr, "\tch0 (left) scaling: %g\n", (double) o->scale_left);
    fprintf(stderr, "\tch1 (right) scaling: %g\n", (double) o->scale_right);
    fprintf(stderr, "\thuffman search: %s\n",
            cfg->use_best_huffman == 1 || cfg->use_best_huffman == 2 ? huffman[cfg->use_best_huffman]
                                                                     : huffman[0]);
    fprintf(stderr, "\texperimental Y=%d\n", o->experimental_y);
    fprintf(stderr, "\t...\n");

    fprintf(stderr, "\nstream format:\n\n");
    /* lame names the version bit's 0 "2.5", MPEG-2 included */
    fprintf(stderr, "\tMPEG-%s Layer 3\n", cfg->version == 1 ? "1" : "2.5");
    switch (cfg->mode) {
    case RL_JOINT_STEREO: pc = "joint stereo"; break;
    case RL_STEREO: pc = "stereo"; break;
    case RL_DUAL_CHANNEL: pc = "dual channel"; break;
    case RL_MONO: pc = "mono"; break;
    case RL_MODE_NOT_SET: pc = "not set (error)"; break;
    default: pc = "unknown (error)"; break;
    }
    fprintf(stderr, "\t%d channel - %s\n", cfg->channels_out, pc);
    fprintf(stderr, "\tpadding: %s\n", cfg->vbr == RL_VBR_OFF ? "off" : "all");
    pc = cfg->vbr == RL_VBR_MTRH ? "(default)" : cfg->free_format ? "(free format)" : "";
    fprintf(stderr, "\t%s %s\n", pick((int) cfg->vbr, vbr, 5, " ?? oops, some new one ??"), pc);
    if (cfg->write_lame_tag)
        fprintf(stderr, "\tusing LAME Tag\n");
    fprintf(stderr, "\t...\n");

    fprintf(stderr, "\npsychoacoustic:\n\n");
    fprintf(stderr, "\tusing short blocks: %s\n", pick((int) cfg->short_blocks, shortb, 4, "?"));
    fprintf(stderr, "\tsubblock gain: %d\n", cfg->subblock_gain);
    fprintf(stderr, "\tadjust masking: %g dB\n", (double) cfg->mask_adjust);
    fprintf(stderr, "\tadjust masking short: %g dB\n", (double) cfg->mask_adjust_short);
    fprintf(stderr, "\tquantization comparison: %d\n", cfg->quant_comp);
    fprintf(stderr, "\t ^ comparison short blocks: %d\n", cfg->quant_comp_short);
    fprintf(stderr, "\tnoise shaping: %d\n", cfg->noise_shaping);
    fprintf(stderr, "\t ^ amplification: %d\n", cfg->noise_shaping_amp);
    fprintf(stderr, "\t ^ stopping: %d\n", cfg->noise_shaping_stop);
    pc = cfg->no_ath ? "not used" : cfg->ath_only ? "the only masking"
         : cfg->ath_short ? "the only masking for short blocks" : "using";
    fprintf(stderr, "\tATH: %s\n", pc);
    fprintf(stderr, "\t ^ type: %d\n", cfg->ath_type);
    fprintf(stderr, "\t ^ shape: %g%s\n", (double) cfg->ath_curve, " (only for type 4)");
    fprintf(stderr, "\t ^ level adjustement: %g dB\n", (double) cfg->ath_offset_db);
    fprintf(stderr, "\t ^ adjust type: %d\n", cfg->ath_use_adjust);
    fprintf(stderr, "\t ^ adjust sensitivity power: %f\n", (double) cfg->ath_aa_sensitivity_p);
    fprintf(stderr, "\texperimental psy tunings by Naoki Shibata\n");
    fprintf(stderr, "\t   adjust masking bass=%g dB, alto=%g dB, treble=%g dB, sfb21=%g dB\n",
            10 * log10(cfg->longfact[0]), 10 * log10(cfg->longfact[7]),
            10 * log10(cfg->longfact[14]), 10 * log10(cfg->longfact[21]));
    fprintf(stderr, "\tusing temporal masking effect: %s\n",
            cfg->use_temporal_masking_effect ? "yes" : "no");
    fprintf(stderr, "\tinterchannel masking ratio: %g\n", (double) cfg->interch_ratio);
    fprintf(stderr, "\t...\n");
    fprintf(stderr, "\n");
}

void rl_console_banner(const char *in_path, const char *out_path, const RlConfig *cfg,
                       const RlOptions *opt, int verbose)
{
    static const char *const mode_names[2][4] = {
        {"stereo", "j-stereo", "dual-ch", "single-ch"},
        {"stereo", "force-ms", "dual-ch", "single-ch"}
    };

    if (cfg) {
        const RlOptions o = *opt;
        print_config(cfg);
        fprintf(stderr, "Encoding %s%s to %s\n", strcmp(in_path, "-") ? in_path : "<stdin>",
                strlen(in_path) + strlen(out_path) < 66 ? "" : "\n     ",
                strcmp(out_path, "-") ? out_path : "<stdout>");
        fprintf(stderr, "Encoding as %g kHz %s MPEG-%u%s Layer III ", 1.e-3 * cfg->samplerate_out,
                mode_names[o.force_ms ? 1 : 0][cfg->mode < 4 ? cfg->mode : 1],
                (unsigned) (2 - cfg->version), cfg->samplerate_out < 16000 ? ".5" : "");
        if (cfg->vbr == RL_VBR_OFF || cfg->vbr == RL_VBR_ABR)
            fprintf(stderr, cfg->vbr == RL_VBR_ABR ? "(%gx) average %d kbps qval=%d\n"
                    : "(%gx) %3d kbps qval=%d\n", 0.1 * (int) (10. * o.compression_ratio + 0.5),
                    cfg->vbr == RL_VBR_ABR ? o.vbr_mean_bitrate_kbps : o.brate, o.quality);
        else if (cfg->vbr == RL_VBR_RH)
            fprintf(stderr, "VBR(q=%g) qval=%d\n", (double) (o.vbr_q + o.vbr_q_frac), o.quality);
        else
            fprintf(stderr, "VBR(q=%g)\n", (double) (o.vbr_q + o.vbr_q_frac));
        if (verbose)
            print_internals(cfg, &o);
    }
}

/* lame's bitrate histogram under the progress lines (what lame reads
 * after lame_init_params: cfg and the options it wrote back). */
static void add_histogram(RlProgress *prog, const RlConfig *cfg, const RlOptions *o)
{
    RlBrhist *h;
    int kbps[14], i;

    for (i = 0; i < 14; i++)
        kbps[i] = cfg->free_format ? -1 : rl_bitrate_kbps(cfg->version, i + 1);
    if (cfg->free_format)
        kbps[0] = cfg->avg_bitrate;
    if (rl_brhist_create(&h, kbps, cfg->free_format, o->vbr_min_bitrate_kbps,
                         o->vbr_max_bitrate_kbps, cfg->frame_size, cfg->samplerate_out) < 0)
        return;
    if (rl_progress_set_hist(prog, h) < 0)
        rl_brhist_free(h);
}

void rl_console_progress(RlProgress **p, const RlConfig *cfg, const RlOptions *opt,
                         int64_t samples, int hist)
{
    *p = NULL;
    if (cfg && cfg->frame_size > 0
        && rl_progress_create(p, STDERR_FILENO, cfg->samplerate_out, cfg->frame_size,
                              rl_progress_total(samples, cfg->samplerate_in, cfg->samplerate_out,
                                                cfg->frame_size)) == 0 && hist)
        add_histogram(*p, cfg, opt);
}

void rl_console_init_notes(const RlConfig *cfg)
{
    if (cfg && cfg->highpass_dropped)
        fprintf(stderr, "Warning: highpass filter disabled.  highpass frequency too small\n");
}

void rl_console_closing(int tag_len, int replay_gain, int radio_gain)
{
    if (tag_len > 0)
        fprintf(stderr, "Writing LAME Tag...done\n");
    if (replay_gain) {
        fprintf(stderr, "ReplayGain: %s%.1fdB\n", radio_gain > 0 ? "+" : "",
                (double) ((float) radio_gain / 10.0));
        if (radio_gain > 0x1FE || radio_gain < -0x1FE)
            fprintf(stderr, "WARNING: ReplayGain exceeds the -51dB to +51dB range. Such a result is too\n"
                    "         high to be stored in the header.\n");
    }
}

void rl_console_clipping(int gain_change, float scale, float user_scale)
{
    float const change = (float) gain_change / 10.0f;

    if (change > 0.0) {
        fprintf(stderr, "WARNING: clipping occurs at the current gain. Set your decoder to decrease\n"
                "         the  gain  by  at least %.1fdB or encode again ", (double) change);
        if (scale > 0) {
            fprintf(stderr, "using  --scale %.2f\n", (double) (scale * user_scale));
            fprintf(stderr, "         or less (the value under --scale is approximate).\n");
        }
        else {
            fprintf(stderr, "using --scale <arg>\n"
                    "         (For   a   suggestion  on  the  optimal  value  of  <arg>  encode\n"
                    "         with  --scale 1  first)\n");
        }
    }
    else if (change > -0.1)
        fprintf(stderr, "\nThe waveform does not clip and is less than 0.1dB away from full scale.\n");
    else
        fprintf(stderr, "\nThe waveform does not clip and is at least %.1fdB away from full scale.\n",
                (double) -change);
}
