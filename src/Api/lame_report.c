/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's reports on its settings (lame_report.h).
 * Derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <stdarg.h>

#include "lame_report.h"
#include "rl_config.h"

__attribute__((format(printf, 3, 4)))
static void say(RlReportFn out, void *arg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out(arg, fmt, ap);
    va_end(ap);
}

static const char *bitness(void)
{
    return sizeof(void *) == 8 ? "64bits" : sizeof(void *) == 4 ? "32bits" : "";
}

void rl_lame_print_config(const RlConfig *cfg, RlReportFn out, void *arg)
{
    double const out_sr = cfg->samplerate_out, in_sr = cfg->samplerate_in;

    say(out, arg, "LAME 3.100 %s (http://lame.sf.net)\n", bitness());
    if (cfg->channels_in == 2 && cfg->channels_out == 1)
        say(out, arg, "Autoconverting from stereo to mono. Setting encoding to mono mode.\n");
    if (in_sr < out_sr * 0.9995 || in_sr > out_sr * 1.0005)
        say(out, arg, "Resampling:  input %g kHz  output %g kHz\n", 1.e-3 * in_sr, 1.e-3 * out_sr);
    if (cfg->highpass2 > 0.)
        say(out, arg, "Using polyphase highpass filter, transition band: %5.0f Hz - %5.0f Hz\n",
                0.5 * cfg->highpass1 * out_sr, 0.5 * cfg->highpass2 * out_sr);
    if (0. < cfg->lowpass1 || 0. < cfg->lowpass2)
        say(out, arg, "Using polyphase lowpass filter, transition band: %5.0f Hz - %5.0f Hz\n",
                0.5 * cfg->lowpass1 * out_sr, 0.5 * cfg->lowpass2 * out_sr);
    else
        say(out, arg, "polyphase lowpass filter disabled\n");
    if (cfg->free_format) {
        say(out, arg, "Warning: many decoders cannot handle free format bitstreams\n");
        if (cfg->avg_bitrate > 320)
            say(out, arg, "Warning: many decoders cannot handle free format bitrates >320 kbps "
                    "(see documentation)\n");
    }
}

static const char *pick(int i, const char *const *names, int n, const char *other)
{
    return i >= 0 && i < n ? names[i] : other;
}

void rl_lame_print_internals(const RlConfig *cfg, const RlOptions *o, RlReportFn out, void *arg)
{
    static const char *const huffman[] = { "normal", "best (outside loop)", "best (inside loop, slow)" };
    static const char *const vbr[] = { "constant bitrate - CBR", "variable bitrate - VBR mt",
                                       "variable bitrate - VBR rh", "variable bitrate - ABR",
                                       "variable bitrate - VBR mtrh" };
    static const char *const shortb[] = { "allowed", "channel coupled", "dispensed", "forced" };
    const char *pc;

    say(out, arg, "\nmisc:\n\n");
    say(out, arg, "\tscaling: %g\n", (double) cfg->scale);
    say(out, arg, "\tch0 (left) scaling: %g\n", (double) o->scale_left);
    say(out, arg, "\tch1 (right) scaling: %g\n", (double) o->scale_right);
    say(out, arg, "\thuffman search: %s\n",
            cfg->use_best_huffman == 1 || cfg->use_best_huffman == 2 ? huffman[cfg->use_best_huffman]
                                                                     : huffman[0]);
    say(out, arg, "\texperimental Y=%d\n", o->experimental_y);
    say(out, arg, "\t...\n");

    say(out, arg, "\nstream format:\n\n");
    /* lame names the version bit's 0 "2.5", MPEG-2 included */
    say(out, arg, "\tMPEG-%s Layer 3\n", cfg->version == 1 ? "1" : "2.5");
    switch (cfg->mode) {
    case RL_JOINT_STEREO: pc = "joint stereo"; break;
    case RL_STEREO: pc = "stereo"; break;
    case RL_DUAL_CHANNEL: pc = "dual channel"; break;
    case RL_MONO: pc = "mono"; break;
    case RL_MODE_NOT_SET: pc = "not set (error)"; break;
    default: pc = "unknown (error)"; break;
    }
    say(out, arg, "\t%d channel - %s\n", cfg->channels_out, pc);
    say(out, arg, "\tpadding: %s\n", cfg->vbr == RL_VBR_OFF ? "off" : "all");
    pc = cfg->vbr == RL_VBR_MTRH ? "(default)" : cfg->free_format ? "(free format)" : "";
    say(out, arg, "\t%s %s\n", pick((int) cfg->vbr, vbr, 5, " ?? oops, some new one ??"), pc);
    if (cfg->write_lame_tag)
        say(out, arg, "\tusing LAME Tag\n");
    say(out, arg, "\t...\n");

    say(out, arg, "\npsychoacoustic:\n\n");
    say(out, arg, "\tusing short blocks: %s\n", pick((int) cfg->short_blocks, shortb, 4, "?"));
    say(out, arg, "\tsubblock gain: %d\n", cfg->subblock_gain);
    say(out, arg, "\tadjust masking: %g dB\n", (double) cfg->mask_adjust);
    say(out, arg, "\tadjust masking short: %g dB\n", (double) cfg->mask_adjust_short);
    say(out, arg, "\tquantization comparison: %d\n", cfg->quant_comp);
    say(out, arg, "\t ^ comparison short blocks: %d\n", cfg->quant_comp_short);
    say(out, arg, "\tnoise shaping: %d\n", cfg->noise_shaping);
    say(out, arg, "\t ^ amplification: %d\n", cfg->noise_shaping_amp);
    say(out, arg, "\t ^ stopping: %d\n", cfg->noise_shaping_stop);
    pc = cfg->no_ath ? "not used" : cfg->ath_only ? "the only masking"
         : cfg->ath_short ? "the only masking for short blocks" : "using";
    say(out, arg, "\tATH: %s\n", pc);
    say(out, arg, "\t ^ type: %d\n", cfg->ath_type);
    say(out, arg, "\t ^ shape: %g%s\n", (double) cfg->ath_curve, " (only for type 4)");
    say(out, arg, "\t ^ level adjustement: %g dB\n", (double) cfg->ath_offset_db);
    say(out, arg, "\t ^ adjust type: %d\n", cfg->ath_use_adjust);
    say(out, arg, "\t ^ adjust sensitivity power: %f\n", (double) cfg->ath_aa_sensitivity_p);
    say(out, arg, "\texperimental psy tunings by Naoki Shibata\n");
    say(out, arg, "\t   adjust masking bass=%g dB, alto=%g dB, treble=%g dB, sfb21=%g dB\n",
            10 * log10(cfg->longfact[0]), 10 * log10(cfg->longfact[7]),
            10 * log10(cfg->longfact[14]), 10 * log10(cfg->longfact[21]));
    say(out, arg, "\tusing temporal masking effect: %s\n",
            cfg->use_temporal_masking_effect ? "yes" : "no");
    say(out, arg, "\tinterchannel masking ratio: %g\n", (double) cfg->interch_ratio);
    say(out, arg, "\t...\n");
    say(out, arg, "\n");
}

