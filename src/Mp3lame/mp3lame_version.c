/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's version strings (those of LAME 3.100,
 * whose bytes it writes) and its configuration reports
 * (lame_print_config, lame_print_internals) through the handle's message
 * callback, with lame's texts.  Derived from LAME 3.100
 * (LGPL-2.0-or-later). */
#include <math.h>

#include "mp3lame_flags.h"
#include "mp3lame_session.h"

MP3LAME_API const char *get_lame_version(void)
{
    return "3.100";
}

MP3LAME_API const char *get_lame_short_version(void)
{
    return "3.100";
}

MP3LAME_API const char *get_lame_very_short_version(void)
{
    return "LAME3.100 ";     /* a release without a patch level: a space */
}

MP3LAME_API const char *get_psy_version(void)
{
    return "1.0";
}

MP3LAME_API const char *get_lame_url(void)
{
    return "http://lame.sf.net";
}

MP3LAME_API const char *get_lame_os_bitness(void)
{
    return sizeof(void *) == 8 ? "64bits" : sizeof(void *) == 4 ? "32bits" : "";
}

MP3LAME_API void get_lame_version_numerical(lame_version_t *v)
{
    if (!v)
        return;
    v->major = 3;
    v->minor = 100;
    v->alpha = v->beta = 0;
    v->psy_major = 1;
    v->psy_minor = 0;
    v->psy_alpha = v->psy_beta = 0;
    v->features = "";
}

MP3LAME_API void lame_print_config(const lame_global_flags *gfp)
{
    const RlConfig *c;
    double out_sr, in_sr;

    if (!rl_mp3_ready(gfp))
        return;
    c = gfp->ses->cfg;
    out_sr = c->samplerate_out;
    in_sr = c->samplerate_in;
    rl_mp3_msgf(gfp, "LAME %s %s (%s)\n", get_lame_version(), get_lame_os_bitness(),
                get_lame_url());
    /* (Debian's build has no assembler: lame finds no CPU feature to list) */
    if (c->channels_in == 2 && c->channels_out == 1)
        rl_mp3_msgf(gfp, "Autoconverting from stereo to mono. Setting encoding to mono mode.\n");
    if (c->samplerate_in != c->samplerate_out)
        rl_mp3_msgf(gfp, "Resampling:  input %g kHz  output %g kHz\n", 1.e-3 * in_sr,
                    1.e-3 * out_sr);
    if (c->highpass2 > 0.)
        rl_mp3_msgf(gfp, "Using polyphase highpass filter, transition band: %5.0f Hz - %5.0f Hz\n",
                    0.5 * c->highpass1 * out_sr, 0.5 * c->highpass2 * out_sr);
    if (0. < c->lowpass1 || 0. < c->lowpass2)
        rl_mp3_msgf(gfp, "Using polyphase lowpass filter, transition band: %5.0f Hz - %5.0f Hz\n",
                    0.5 * c->lowpass1 * out_sr, 0.5 * c->lowpass2 * out_sr);
    else
        rl_mp3_msgf(gfp, "polyphase lowpass filter disabled\n");
    if (c->free_format) {
        rl_mp3_msgf(gfp, "Warning: many decoders cannot handle free format bitstreams\n");
        if (c->avg_bitrate > 320)
            rl_mp3_msgf(gfp, "Warning: many decoders cannot handle free format bitrates >320 kbps (see documentation)\n");
    }
}

static const char *mode_name(RlMpegMode m)
{
    switch (m) {
    case RL_JOINT_STEREO: return "joint stereo";
    case RL_STEREO: return "stereo";
    case RL_DUAL_CHANNEL: return "dual channel";
    case RL_MONO: return "mono";
    case RL_MODE_NOT_SET: return "not set (error)";
    default: return "unknown (error)";
    }
}

static const char *short_blocks_name(RlShortBlockMode b)
{
    switch (b) {
    case RL_SB_ALLOWED: return "allowed";
    case RL_SB_COUPLED: return "channel coupled";
    case RL_SB_DISPENSED: return "dispensed";
    case RL_SB_FORCED: return "forced";
    default: return "?";
    }
}

static void print_vbr(const lame_global_flags *g, const RlConfig *c)
{
    static const char *const names[] = { "constant bitrate - CBR", "variable bitrate - VBR mt",
                                         "variable bitrate - VBR rh", "variable bitrate - ABR",
                                         "variable bitrate - VBR mtrh" };
    const char *pc = c->vbr == RL_VBR_MTRH ? "(default)" : c->free_format ? "(free format)" : "";

    if (c->vbr >= RL_VBR_OFF && c->vbr <= RL_VBR_MTRH)
        rl_mp3_msgf(g, "\t%s %s\n", names[c->vbr], pc);
    else
        rl_mp3_msgf(g, "\t ?? oops, some new one ?? \n");
}

MP3LAME_API void lame_print_internals(const lame_global_flags *gfp)
{
    const RlConfig *c;
    const char *pc;

    if (!rl_mp3_ready(gfp))
        return;
    c = gfp->ses->cfg;
    rl_mp3_msgf(gfp, "\nmisc:\n\n");
    rl_mp3_msgf(gfp, "\tscaling: %g\n", (double) gfp->opt.scale);
    rl_mp3_msgf(gfp, "\tch0 (left) scaling: %g\n", (double) gfp->opt.scale_left);
    rl_mp3_msgf(gfp, "\tch1 (right) scaling: %g\n", (double) gfp->opt.scale_right);
    pc = c->use_best_huffman == 1 ? "best (outside loop)"
         : c->use_best_huffman == 2 ? "best (inside loop, slow)" : "normal";
    rl_mp3_msgf(gfp, "\thuffman search: %s\n", pc);
    rl_mp3_msgf(gfp, "\texperimental Y=%d\n", gfp->opt.experimental_y);
    rl_mp3_msgf(gfp, "\t...\n");

    rl_mp3_msgf(gfp, "\nstream format:\n\n");
    /* lame names its version 0 (MPEG-2 and 2.5) "2.5" */
    rl_mp3_msgf(gfp, "\tMPEG-%s Layer 3\n", c->version == 1 ? "1" : c->version == 0 ? "2.5" : "?");
    rl_mp3_msgf(gfp, "\t%d channel - %s\n", c->channels_out, mode_name(c->mode));
    rl_mp3_msgf(gfp, "\tpadding: %s\n", c->vbr == RL_VBR_OFF ? "off" : "all");
    print_vbr(gfp, c);
    if (c->write_lame_tag)
        rl_mp3_msgf(gfp, "\tusing LAME Tag\n");
    rl_mp3_msgf(gfp, "\t...\n");

    rl_mp3_msgf(gfp, "\npsychoacoustic:\n\n");
    rl_mp3_msgf(gfp, "\tusing short blocks: %s\n", short_blocks_name(c->short_blocks));
    rl_mp3_msgf(gfp, "\tsubblock gain: %d\n", c->subblock_gain);
    rl_mp3_msgf(gfp, "\tadjust masking: %g dB\n", (double) c->mask_adjust);
    rl_mp3_msgf(gfp, "\tadjust masking short: %g dB\n", (double) c->mask_adjust_short);
    rl_mp3_msgf(gfp, "\tquantization comparison: %d\n", c->quant_comp);
    rl_mp3_msgf(gfp, "\t ^ comparison short blocks: %d\n", c->quant_comp_short);
    rl_mp3_msgf(gfp, "\tnoise shaping: %d\n", c->noise_shaping);
    rl_mp3_msgf(gfp, "\t ^ amplification: %d\n", c->noise_shaping_amp);
    rl_mp3_msgf(gfp, "\t ^ stopping: %d\n", c->noise_shaping_stop);
    pc = c->no_ath ? "not used" : c->ath_only ? "the only masking"
         : c->ath_short ? "the only masking for short blocks" : "using";
    rl_mp3_msgf(gfp, "\tATH: %s\n", pc);
    rl_mp3_msgf(gfp, "\t ^ type: %d\n", c->ath_type);
    rl_mp3_msgf(gfp, "\t ^ shape: %g%s\n", (double) c->ath_curve, " (only for type 4)");
    rl_mp3_msgf(gfp, "\t ^ level adjustement: %g dB\n", (double) c->ath_offset_db);
    rl_mp3_msgf(gfp, "\t ^ adjust type: %d\n", c->ath_use_adjust);
    rl_mp3_msgf(gfp, "\t ^ adjust sensitivity power: %f\n", (double) c->ath_aa_sensitivity_p);
    rl_mp3_msgf(gfp, "\texperimental psy tunings by Naoki Shibata\n");
    rl_mp3_msgf(gfp, "\t   adjust masking bass=%g dB, alto=%g dB, treble=%g dB, sfb21=%g dB\n",
                10 * log10(c->longfact[0]), 10 * log10(c->longfact[7]),
                10 * log10(c->longfact[14]), 10 * log10(c->longfact[21]));
    rl_mp3_msgf(gfp, "\tusing temporal masking effect: %s\n",
                c->use_temporal_masking_effect ? "yes" : "no");
    rl_mp3_msgf(gfp, "\tinterchannel masking ratio: %g\n", (double) c->interch_ratio);
    rl_mp3_msgf(gfp, "\t...\n");
    rl_mp3_msgf(gfp, "\n");
}
