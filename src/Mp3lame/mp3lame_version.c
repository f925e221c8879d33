/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's version strings (those of LAME 3.100,
 * whose bytes it writes) and its configuration reports
 * (lame_print_config, lame_print_internals) through the handle's message
 * callback, with lame's texts.  Derived from LAME 3.100
 * (LGPL-2.0-or-later). */
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
    return "LAME3.100r";
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
    /* no "CPU features" line: Debian's library prints none (its build
     * leaves gfc->CPU_features zero) */
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

MP3LAME_API void lame_print_internals(const lame_global_flags *gfp)
{
    static const char *const modes[] = { "stereo", "joint stereo", "dual channel", "mono",
                                         "not set (error)" };
    static const char *const vbrs[] = { "off", "mt", "rh", "abr", "mtrh" };
    const RlConfig *c;

    if (!rl_mp3_ready(gfp))
        return;
    c = gfp->ses->cfg;
    rl_mp3_msgf(gfp, "\nmisc:\n\n");
    rl_mp3_msgf(gfp, "\tscaling: %g\n", (double) gfp->opt.scale);
    rl_mp3_msgf(gfp, "\tch0 (left) scaling: %g\n", (double) gfp->opt.scale_left);
    rl_mp3_msgf(gfp, "\tch1 (right) scaling: %g\n", (double) gfp->opt.scale_right);
    rl_mp3_msgf(gfp, "\nstream format:\n\n");
    rl_mp3_msgf(gfp, "\tMPEG-%s Layer 3\n", c->version == 1 ? "1" : c->samplerate_out < 16000 ? "2.5" : "2");
    rl_mp3_msgf(gfp, "\t%d channel - %s\n", c->channels_out,
                modes[c->mode >= 0 && c->mode <= 4 ? c->mode : 4]);
    rl_mp3_msgf(gfp, "\tpadding: %s\n", c->vbr == RL_VBR_OFF ? "all" : "off");
    rl_mp3_msgf(gfp, "\tVBR: %s\n", vbrs[c->vbr >= 0 && c->vbr <= 4 ? c->vbr : 0]);
    rl_mp3_msgf(gfp, "\nquantization:\n\n");
    rl_mp3_msgf(gfp, "\tquality: %d\n", c->quality);
    rl_mp3_msgf(gfp, "\n");
}
