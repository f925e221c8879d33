/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's setters and getters of the options
 * (lame_set_* / lame_get_* with set_get.c's return codes and clamping):
 * each writes or reads the handle's RlOptions, or the lame_global_flags
 * field RlOptions has no place for.  A setter works at any time (later
 * values do not reach a running encode); a getter reads what
 * lame_init_params wrote back once it ran.  A handle lame_init did not
 * make: setters return -1, getters 0 (lame's rule).
 * Semantics derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "mp3lame_flags.h"

/* a setter through rl_set_* (its own checks), and its getter */
#define RL_MP3_SET_WITH(name, type, fn)                                     \
    MP3LAME_API int lame_set_##name(lame_global_flags *g, type v)           \
    {                                                                       \
        return rl_mp3_valid(g) ? fn(&g->opt, v) : -1;                       \
    }
#define RL_MP3_GET(name, type, expr)                                        \
    MP3LAME_API type lame_get_##name(const lame_global_flags *g)            \
    {                                                                       \
        return rl_mp3_valid(g) ? (type) (expr) : (type) 0;                  \
    }
/* a 0/1 flag: -1 for other values */
#define RL_MP3_BOOL(name, field)                                            \
    MP3LAME_API int lame_set_##name(lame_global_flags *g, int v)            \
    {                                                                       \
        if (!rl_mp3_valid(g) || v < 0 || v > 1)                             \
            return -1;                                                      \
        g->field = v;                                                       \
        return 0;                                                           \
    }                                                                       \
    RL_MP3_GET(name, int, g->field)
/* any value, kept as given */
#define RL_MP3_PLAIN(name, type, field)                                     \
    MP3LAME_API int lame_set_##name(lame_global_flags *g, type v)           \
    {                                                                       \
        if (!rl_mp3_valid(g))                                               \
            return -1;                                                      \
        g->field = v;                                                       \
        return 0;                                                           \
    }                                                                       \
    RL_MP3_GET(name, type, g->field)

/* ---- the input */
MP3LAME_API int lame_set_num_samples(lame_global_flags *g, unsigned long n)
{
    if (!rl_mp3_valid(g))
        return -1;
    g->num_samples = n;
    return 0;
}
RL_MP3_GET(num_samples, unsigned long, g->num_samples)
RL_MP3_SET_WITH(in_samplerate, int, rl_set_in_samplerate)
RL_MP3_GET(in_samplerate, int, g->opt.samplerate_in)
RL_MP3_SET_WITH(num_channels, int, rl_set_num_channels)
RL_MP3_GET(num_channels, int, g->opt.num_channels)
RL_MP3_PLAIN(scale, float, opt.scale)
RL_MP3_PLAIN(scale_left, float, opt.scale_left)
RL_MP3_PLAIN(scale_right, float, opt.scale_right)
RL_MP3_SET_WITH(out_samplerate, int, rl_set_out_samplerate)
RL_MP3_GET(out_samplerate, int, g->opt.samplerate_out)

/* ---- general control */
RL_MP3_BOOL(analysis, analysis)
RL_MP3_BOOL(bWriteVbrTag, opt.write_lame_tag)
RL_MP3_BOOL(decode_only, decode_only)
RL_MP3_SET_WITH(quality, int, rl_set_quality)
RL_MP3_GET(quality, int, g->opt.quality)
MP3LAME_API int lame_set_mode(lame_global_flags *g, MPEG_mode m)
{
    return rl_mp3_valid(g) ? rl_set_mode(&g->opt, (RlMpegMode) m) : -1;
}
MP3LAME_API MPEG_mode lame_get_mode(const lame_global_flags *g)
{
    return rl_mp3_valid(g) ? (MPEG_mode) g->opt.mode : NOT_SET;
}
MP3LAME_API int lame_set_mode_automs(lame_global_flags *g, int v)
{
    if (!rl_mp3_valid(g) || v < 0 || v > 1)
        return -1;
    (void) rl_set_mode(&g->opt, RL_JOINT_STEREO);
    return 0;
}
MP3LAME_API int lame_get_mode_automs(const lame_global_flags *g)
{
    (void) g;
    return 1;
}
RL_MP3_BOOL(force_ms, opt.force_ms)
RL_MP3_BOOL(free_format, opt.free_format)
RL_MP3_BOOL(findReplayGain, opt.find_replay_gain)
RL_MP3_BOOL(decode_on_the_fly, opt.decode_on_the_fly)
MP3LAME_API int lame_set_findPeakSample(lame_global_flags *g, int v)
{
    return lame_set_decode_on_the_fly(g, v);
}
MP3LAME_API int lame_get_findPeakSample(const lame_global_flags *g)
{
    return lame_get_decode_on_the_fly(g);
}
MP3LAME_API int lame_set_ReplayGain_input(lame_global_flags *g, int v)
{
    return lame_set_findReplayGain(g, v);
}
MP3LAME_API int lame_get_ReplayGain_input(const lame_global_flags *g)
{
    return lame_get_findReplayGain(g);
}
MP3LAME_API int lame_set_ReplayGain_decode(lame_global_flags *g, int v)
{
    return lame_set_decode_on_the_fly(g, v) < 0 || lame_set_findReplayGain(g, v) < 0 ? -1 : 0;
}
MP3LAME_API int lame_get_ReplayGain_decode(const lame_global_flags *g)
{
    return lame_get_decode_on_the_fly(g) > 0 && lame_get_findReplayGain(g) > 0;
}
RL_MP3_PLAIN(nogap_total, int, nogap_total)
RL_MP3_PLAIN(nogap_currentindex, int, nogap_current)
MP3LAME_API int lame_set_ogg(lame_global_flags *g, int v)
{
    (void) g;
    (void) v;
    return -1;
}
MP3LAME_API int lame_get_ogg(const lame_global_flags *g)
{
    (void) g;
    return 0;
}
MP3LAME_API void lame_set_write_id3tag_automatic(lame_global_flags *g, int v)
{
    if (rl_mp3_valid(g))
        g->write_id3tag_automatic = v;
}
MP3LAME_API int lame_get_write_id3tag_automatic(const lame_global_flags *g)
{
    return rl_mp3_valid(g) ? g->write_id3tag_automatic : 1;
}
MP3LAME_API int lame_set_asm_optimizations(lame_global_flags *g, int optim, int mode)
{
    /* lame keeps the switches for its own assembler; the kernels here are
     * chosen by the CPU and give the same bytes either way */
    (void) mode;
    return rl_mp3_valid(g) ? optim : -1;
}

/* ---- bitrates and the frame header */
RL_MP3_SET_WITH(brate, int, rl_set_brate)
RL_MP3_GET(brate, int, g->opt.brate)
RL_MP3_SET_WITH(compression_ratio, float, rl_set_compression_ratio)
RL_MP3_GET(compression_ratio, float, g->opt.compression_ratio)
RL_MP3_BOOL(copyright, opt.copyright)
RL_MP3_BOOL(original, opt.original)
RL_MP3_BOOL(error_protection, opt.error_protection)
RL_MP3_BOOL(extension, opt.extension)
MP3LAME_API int lame_set_padding_type(lame_global_flags *g, Padding_type t)
{
    (void) g;
    (void) t;
    return 0;
}
MP3LAME_API Padding_type lame_get_padding_type(const lame_global_flags *g)
{
    (void) g;
    return PAD_ADJUST;
}
RL_MP3_SET_WITH(strict_ISO, int, rl_set_strict_iso)
RL_MP3_GET(strict_ISO, int, g->opt.strict_iso)
RL_MP3_BOOL(disable_reservoir, opt.disable_reservoir)
MP3LAME_API int lame_set_emphasis(lame_global_flags *g, int v)
{
    if (!rl_mp3_valid(g) || v < 0 || v > 3)
        return -1;
    g->opt.emphasis = v;
    return 0;
}
RL_MP3_GET(emphasis, int, g->opt.emphasis)

/* ---- quantization and the experimental switches */
RL_MP3_PLAIN(quant_comp, int, opt.quant_comp)
RL_MP3_PLAIN(quant_comp_short, int, opt.quant_comp_short)
MP3LAME_API int lame_set_experimentalX(lame_global_flags *g, int v)
{
    if (!rl_mp3_valid(g))
        return -1;
    g->opt.quant_comp = v;
    g->opt.quant_comp_short = v;
    return 0;
}
MP3LAME_API int lame_get_experimentalX(const lame_global_flags *g)
{
    return lame_get_quant_comp(g);
}
RL_MP3_PLAIN(experimentalY, int, opt.experimental_y)
RL_MP3_PLAIN(experimentalZ, int, opt.experimental_z)
RL_MP3_PLAIN(exp_nspsytune, int, opt.exp_nspsytune)
MP3LAME_API int lame_set_preset(lame_global_flags *g, int preset)
{
    return rl_mp3_valid(g) ? rl_set_preset(&g->opt, preset) : -1;
}
MP3LAME_API int lame_set_preset_expopts(lame_global_flags *g, int v)
{
    (void) g;
    (void) v;
    return 0;
}

/* ---- VBR */
MP3LAME_API int lame_set_VBR(lame_global_flags *g, vbr_mode v)
{
    return rl_mp3_valid(g) ? rl_set_vbr(&g->opt, (RlVbrMode) v) : -1;
}
MP3LAME_API vbr_mode lame_get_VBR(const lame_global_flags *g)
{
    return rl_mp3_valid(g) ? (vbr_mode) g->opt.vbr : vbr_off;
}
RL_MP3_SET_WITH(VBR_q, int, rl_set_vbr_q)
RL_MP3_GET(VBR_q, int, g->opt.vbr_q)
RL_MP3_SET_WITH(VBR_quality, float, rl_set_vbr_quality)
RL_MP3_GET(VBR_quality, float, g->opt.vbr_q + g->opt.vbr_q_frac)
RL_MP3_PLAIN(VBR_mean_bitrate_kbps, int, opt.vbr_mean_bitrate_kbps)
RL_MP3_PLAIN(VBR_min_bitrate_kbps, int, opt.vbr_min_bitrate_kbps)
RL_MP3_PLAIN(VBR_max_bitrate_kbps, int, opt.vbr_max_bitrate_kbps)
RL_MP3_BOOL(VBR_hard_min, opt.vbr_hard_min)

/* ---- filters */
RL_MP3_PLAIN(lowpassfreq, int, opt.lowpassfreq)
RL_MP3_PLAIN(lowpasswidth, int, opt.lowpasswidth)
RL_MP3_PLAIN(highpassfreq, int, opt.highpassfreq)
RL_MP3_PLAIN(highpasswidth, int, opt.highpasswidth)

/* ---- psychoacoustics */
RL_MP3_PLAIN(ATHonly, int, opt.ath_only)
RL_MP3_PLAIN(ATHshort, int, opt.ath_short)
RL_MP3_PLAIN(noATH, int, opt.no_ath)
RL_MP3_PLAIN(ATHtype, int, opt.ath_type)
RL_MP3_PLAIN(ATHlower, float, opt.ath_lower_db)
RL_MP3_PLAIN(athaa_type, int, opt.athaa_type)
RL_MP3_PLAIN(athaa_sensitivity, float, opt.athaa_sensitivity)
MP3LAME_API int lame_set_athaa_loudapprox(lame_global_flags *g, int v)
{
    (void) g;
    (void) v;
    return 0;
}
MP3LAME_API int lame_get_athaa_loudapprox(const lame_global_flags *g)
{
    (void) g;
    return 2;
}
MP3LAME_API int lame_set_cwlimit(lame_global_flags *g, int v)
{
    (void) g;
    (void) v;
    return 0;
}
MP3LAME_API int lame_get_cwlimit(const lame_global_flags *g)
{
    (void) g;
    return 0;
}
MP3LAME_API int lame_set_allow_diff_short(lame_global_flags *g, int v)
{
    if (!rl_mp3_valid(g))
        return -1;
    g->opt.short_blocks = v ? RL_SB_ALLOWED : RL_SB_COUPLED;
    return 0;
}
RL_MP3_GET(allow_diff_short, int, g->opt.short_blocks == RL_SB_ALLOWED)
MP3LAME_API int lame_set_useTemporal(lame_global_flags *g, int v)
{
    if (!rl_mp3_valid(g) || v < 0 || v > 1)
        return -1;
    g->opt.use_temporal = v;
    return 0;
}
RL_MP3_GET(useTemporal, int, g->opt.use_temporal)
MP3LAME_API int lame_set_interChRatio(lame_global_flags *g, float r)
{
    return rl_mp3_valid(g) ? rl_set_interch_ratio(&g->opt, r) : -1;
}
RL_MP3_GET(interChRatio, float, g->opt.interch_ratio)
MP3LAME_API int lame_set_no_short_blocks(lame_global_flags *g, int v)
{
    if (!rl_mp3_valid(g) || v < 0 || v > 1)
        return -1;
    g->opt.short_blocks = v ? RL_SB_DISPENSED : RL_SB_ALLOWED;
    return 0;
}
MP3LAME_API int lame_get_no_short_blocks(const lame_global_flags *g)
{
    if (!rl_mp3_valid(g))
        return -1;
    switch (g->opt.short_blocks) {
    case RL_SB_DISPENSED:
        return 1;
    case RL_SB_ALLOWED: case RL_SB_COUPLED: case RL_SB_FORCED:
        return 0;
    default:
        return -1;
    }
}
MP3LAME_API int lame_set_force_short_blocks(lame_global_flags *g, int v)
{
    if (!rl_mp3_valid(g) || v < 0 || v > 1)
        return -1;
    if (v == 1)
        g->opt.short_blocks = RL_SB_FORCED;
    else if (g->opt.short_blocks == RL_SB_FORCED)
        g->opt.short_blocks = RL_SB_ALLOWED;
    return 0;
}
MP3LAME_API int lame_get_force_short_blocks(const lame_global_flags *g)
{
    if (!rl_mp3_valid(g))
        return -1;
    switch (g->opt.short_blocks) {
    case RL_SB_FORCED:
        return 1;
    case RL_SB_DISPENSED: case RL_SB_ALLOWED: case RL_SB_COUPLED:
        return 0;
    default:
        return -1;
    }
}
MP3LAME_API void lame_set_msfix(lame_global_flags *g, double v)
{
    if (rl_mp3_valid(g))
        (void) rl_set_msfix(&g->opt, v);
}
RL_MP3_GET(msfix, float, g->opt.msfix)
