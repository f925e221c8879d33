/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's console text around an encode (see console.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "lame_report.h"
#include "rl_config.h"
#include "tables.h"

/* the reports' sink: stderr */
static void to_stderr(void *arg, const char *fmt, va_list ap)
{
    (void) arg;
    (void) vfprintf(stderr, fmt, ap);
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
        rl_lame_print_config(cfg, to_stderr, NULL);
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
            rl_lame_print_internals(cfg, &o, to_stderr, NULL);
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
