/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's option grammar for an encoder's settings (lame_args.h):
 * short options bundle, arguments attached or separate, case-insensitive
 * long options, each with lame's meaning.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "lame_args.h"
#include "simd.h"
#include "tag_charset.h"
#include "whole_file.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PROG "ringlame"

/* The name messages give the program (lame's ProgramName: argv[0]).  Per
 * thread: the library parses settings on whatever threads its callers use. */
static _Thread_local const char *prog_name = PROG;
#define RL_STR_(x) #x
#define RL_STR(x) RL_STR_(x)
#define NOT_MINE 2      /* internal: the option belongs to another group */

static int str_ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int const ca = tolower((unsigned char) *a), cb = tolower((unsigned char) *b);
        if (ca != cb)
            return 0;
        if (!ca)
            return 1;
    }
}

/* Largest magnitude a numeric option may have: every one ends up in an int
 * or a float setting, and NaN, infinities or huge values would be undefined
 * there (lame crashes on -V nan). */
#define RL_ARG_NUMBER_MAX 1e9

/* lame's getDoubleValue/getIntValue: a missing or non-numeric argument
 * only warns, and the token is then not consumed.  A number that is not
 * finite or too large is refused (a->bad_value; the argument is consumed). */
int rl_lame_number_arg(RlLameSettings *a, const char *name, const char *arg, double *v, FILE *err)
{
    char *end = NULL;
    *v = strtod(arg, &end);
    if (end != arg) {
        if (!isfinite(*v) || fabs(*v) > RL_ARG_NUMBER_MAX) {
            fprintf(err, "%s: option %s%s: '%s' is not a usable number\n", prog_name,
                    strlen(name) > 1 ? "--" : "-", name, arg);
            a->bad_value = 1;
            *v = 0;
        }
        return 1;
    }
    fprintf(err, "WARNING: argument missing for '%s'\n", name);
    return 0;
}

static int get_int(const char *name, const char *arg, int *v, FILE *err)
{
    char *end = NULL;
    long const d = strtol(arg, &end, 10);
    *v = (int) d;
    if (end != arg)
        return 1;
    fprintf(err, "WARNING: argument missing for '%s'\n", name);
    return 0;
}

/* sscanf(arg, "%d", v) as lame reads -Z's optional level: 1 = a number
 * (stored), 0 = no number, -1 = nothing but blanks.  lame uses the result
 * as "argument used", so -1 consumes the (empty) argument too. */
static int scan_int(const char *arg, int *v)
{
    char *end = NULL;
    long d;
    while (isspace((unsigned char) *arg))
        ++arg;
    if (*arg == '\0')
        return -1;
    d = strtol(arg, &end, 10);
    if (end == arg)
        return 0;
    *v = (int) d;
    return 1;
}

/* frontend resample_rate: integer kHz class, 0 (= automatic) if unknown. */
static int resample_rate(double freq, FILE *err)
{
    if (freq >= 1.e3)
        freq *= 1.e-3;
    switch ((int) freq) {
    case 8: return 8000;
    case 11: return 11025;
    case 12: return 12000;
    case 16: return 16000;
    case 22: return 22050;
    case 24: return 24000;
    case 32: return 32000;
    case 44: return 44100;
    case 48: return 48000;
    default:
        fprintf(err, "Illegal resample frequency: %.3f kHz\n", freq);
        return 0;
    }
}

/* ---- --preset (lame's presets_set) ---- */

/* The old preset names: a bitrate, and whether the preset is mono. */
static const char *preset_alias(const char *name, int *mono)
{
    static const struct { const char *name, *kbps; int mono; } aliases[] = {
        { "phone", "16", 1 }, { "phon+", "24", 1 }, { "lw", "24", 1 }, { "mw-eu", "24", 1 },
        { "sw", "24", 1 }, { "mw-us", "40", 1 }, { "voice", "56", 1 }, { "fm", "112", 0 },
        { "radio", "112", 0 }, { "tape", "112", 0 }, { "hifi", "160", 0 }, { "cd", "192", 0 },
        { "studio", "256", 0 },
    };
    *mono = 0;
    for (size_t k = 0; k < sizeof(aliases) / sizeof(aliases[0]); k++) {
        if (strcmp(name, aliases[k].name) == 0) {
            *mono = aliases[k].mono;
            return aliases[k].kbps;
        }
    }
    return name;
}

/* --preset / --alt-preset at argv[i]: any "fast" and "cbr" words, then the
 * name (case-sensitive, as in lame).  *used = the argv entries consumed.
 * A bitrate preset (and insane) is applied at once, as lame_set_preset
 * does; rl_config_init applies it a second time (lame_init_params). */
static int parse_preset(RlLameSettings *a, int i, int argc, char **argv, int *used, FILE *out, FILE *err)
{
    RlOptions *o = &a->opt;
    int fast = 0, cbr = 0, mono = 0, n = 1, kbps;
    const char *name = i + 1 < argc ? argv[i + 1] : "";

    while (strcmp(name, "fast") == 0 || strcmp(name, "cbr") == 0) {
        if (name[0] == 'f')
            fast = 1;
        else
            cbr = 1;
        n++;
        name = i + n < argc ? argv[i + n] : "";
    }
    *used = n;

    if (strcmp(name, "help") == 0 && !fast && !cbr) {
        rl_lame_print_preset_help(out);
        return RL_ARGS_ERROR;       /* lame exits with 1 after it */
    }
    name = preset_alias(name, &mono);
    /* the VBR names: only -V's quality and the VBR mode ("fast" is a no-op) */
    if (strcmp(name, "medium") == 0 || strcmp(name, "standard") == 0
        || strcmp(name, "extreme") == 0) {
        (void) rl_set_vbr_q(o, name[0] == 'm' ? 4 : name[1] == 't' ? 2 : 0);
        (void) rl_set_vbr(o, RL_VBR_MTRH);
        return RL_ARGS_OK;
    }
    if (strcmp(name, "insane") == 0 && !fast) {
        (void) rl_set_preset(o, RL_PRESET_INSANE);
        return RL_ARGS_OK;
    }
    kbps = atoi(name);
    if (kbps > 0 && !fast) {
        if (kbps < 8 || kbps > 320) {
            rl_lame_print_version_line(err);
            fprintf(err, "Error: The bitrate specified is out of the valid range for this preset\n"
                    "\n"
                    "When using this mode you must enter a value between \"32\" and \"320\"\n"
                    "\n" "For further information try: \"%s --preset help\"\n", prog_name);
            return RL_ARGS_ERROR;
        }
        (void) rl_set_preset(o, kbps);
        if (cbr)
            (void) rl_set_vbr(o, RL_VBR_OFF);
        if (mono)
            (void) rl_set_mode(o, RL_MONO);
        return RL_ARGS_OK;
    }
    /* lame's words (the old names and "fast" are not in its list) */
    rl_lame_print_version_line(err);
    fprintf(err, "Error: You did not enter a valid profile and/or options with --preset\n"
            "\n"
            "Available profiles are:\n"
            "\n"
            "                 medium\n"
            "                 standard\n"
            "                 extreme\n"
            "                 insane\n"
            "          <cbr> (ABR Mode) - The ABR Mode is implied. To use it,\n"
            "                             simply specify a bitrate. For example:\n"
            "                             \"--preset 185\" activates this\n"
            "                             preset and uses 185 as an average kbps.\n" "\n");
    fprintf(err, "    Some examples:\n"
            "\n"
            " or \"%s --preset standard <input file> <output file>\"\n"
            " or \"%s --preset cbr 192 <input file> <output file>\"\n"
            " or \"%s --preset 172 <input file> <output file>\"\n"
            " or \"%s --preset extreme <input file> <output file>\"\n"
            "\n"
            "For further information try: \"%s --preset help\"\n", prog_name, prog_name,
            prog_name, prog_name, prog_name);
    return RL_ARGS_ERROR;
}

/* ---- long options, by group; each returns RL_ARGS_*, or NOT_MINE ---- */

/* Rate control and quality. */
static int long_rate_control(RlLameSettings *a, const char *token, int i, int argc, char **argv,
                             int *used, FILE *out, FILE *err)
{
    RlOptions *o = &a->opt;
    const char *next = i + 1 < argc ? argv[i + 1] : "";
    double dv = 0;
    int iv = 0;

    if (str_ieq(token, "vbr-old")) {
        (void) rl_set_vbr(o, RL_VBR_RH);
    }
    else if (str_ieq(token, "vbr-new")) {
        (void) rl_set_vbr(o, RL_VBR_MT);
    }
    else if (str_ieq(token, "vbr-mtrh")) {
        (void) rl_set_vbr(o, RL_VBR_MTRH);
    }
    else if (str_ieq(token, "cbr")) {
        (void) rl_set_vbr(o, RL_VBR_OFF);
    }
    else if (str_ieq(token, "abr")) {
        /* values from 8000 up are bits per second */
        if ((*used = get_int(token, next, &iv, err))) {
            if (iv >= 8000)
                iv = (int) (((long) iv + 500) / 1000);   /* lame's int sum, without its overflow */
            if (iv > 320)
                iv = 320;
            if (iv < 8)
                iv = 8;
            (void) rl_set_vbr(o, RL_VBR_ABR);
            (void) rl_set_vbr_mean_bitrate_kbps(o, iv);
        }
    }
    else if (str_ieq(token, "r3mix")) {
        (void) rl_set_preset(o, RL_PRESET_R3MIX);
    }
    else if (str_ieq(token, "comp")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err))) {
            if (dv < 1.0) {
                fprintf(err, "%s: --comp %s: the compression ratio must be >= 1.0\n", prog_name, next);
                return RL_ARGS_ERROR;
            }
            (void) rl_set_compression_ratio(o, (float) dv);
        }
    }
    else if (str_ieq(token, "freeformat")) {
        o->free_format = 1;     /* needs -b 8..640: checked after the whole line */
    }
    else if (str_ieq(token, "preset") || str_ieq(token, "alt-preset")) {
        return parse_preset(a, i, argc, argv, used, out, err);
    }
    else if (str_ieq(token, "athaa-sensitivity")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err)))
            (void) rl_set_athaa_sensitivity(o, (float) dv);
    }
    else {
        return NOT_MINE;
    }
    return RL_ARGS_OK;
}

/* Input level, channels and the input description. */
static int long_input(RlLameSettings *a, const char *token, int i, int argc, char **argv,
                      int *used, FILE *err)
{
    RlOptions *o = &a->opt;
    const char *next = i + 1 < argc ? argv[i + 1] : "";
    double dv = 0;
    int iv = 0;

    if (str_ieq(token, "scale")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err)))
            (void) rl_set_scale(o, (float) dv);
    }
    else if (str_ieq(token, "scale-l")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err)))
            (void) rl_set_scale_left(o, (float) dv);
    }
    else if (str_ieq(token, "scale-r")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err)))
            (void) rl_set_scale_right(o, (float) dv);
    }
    else if (str_ieq(token, "gain")) {
        /* dB, clamped to -20..12, as a --scale factor */
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err))) {
            dv = dv > -20.f ? dv : -20.f;
            dv = dv < 12.f ? dv : 12.f;
            (void) rl_set_scale(o, (float) pow(10.f, dv * 0.05));
        }
    }
    else if (str_ieq(token, "swap-channel")) {
        (void) rl_set_swap_channels(o, 1);
    }
    else if (str_ieq(token, "ignorelength")) {
        a->ignore_length = 1;
    }
    else if (str_ieq(token, "mp1input") || str_ieq(token, "mp2input") || str_ieq(token, "mp3input")) {
        a->mpeg_input = token[2] - '0';
        a->raw_input = 0;       /* lame: the last of -r and --mpNinput decides */
    }
    else if (str_ieq(token, "decode-mp3delay")) {
        if ((*used = get_int(token, next, &iv, err))) {
            a->mpeg_delay = iv;
            a->mpeg_delay_set = 1;
        }
    }
    else if (str_ieq(token, "bitwidth")) {
        if ((*used = get_int(token, next, &iv, err)))
            a->raw_bitwidth = iv;
    }
    else if (str_ieq(token, "signed")) {
        a->raw_signed = 1;
    }
    else if (str_ieq(token, "unsigned")) {
        a->raw_signed = 0;
    }
    else if (str_ieq(token, "little-endian")) {
        a->raw_big_endian = 0;
    }
    else if (str_ieq(token, "big-endian")) {
        a->raw_big_endian = 1;
    }
    else if (str_ieq(token, "resample")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err)))
            (void) rl_set_out_samplerate(o, resample_rate(dv, err));
    }
    else {
        return NOT_MINE;
    }
    return RL_ARGS_OK;
}

/* Filters, the stream layout and the tag. */
static int long_stream(RlLameSettings *a, const char *token, int i, int argc, char **argv,
                       int *used, FILE *err)
{
    RlOptions *o = &a->opt;
    const char *next = i + 1 < argc ? argv[i + 1] : "";
    double dv = 0;

    if (str_ieq(token, "nores")) {
        (void) rl_set_disable_reservoir(o, 1);
    }
    else if (str_ieq(token, "strictly-enforce-ISO")) {
        (void) rl_set_strict_iso(o, RL_MDB_STRICT_ISO);
    }
    else if (str_ieq(token, "buffer-constraint")) {
        *used = 1;              /* whatever follows */
        if (strcmp(next, "default") == 0)
            (void) rl_set_strict_iso(o, RL_MDB_DEFAULT);
        else if (strcmp(next, "strict") == 0)
            (void) rl_set_strict_iso(o, RL_MDB_STRICT_ISO);
        else if (strcmp(next, "maximum") == 0)
            (void) rl_set_strict_iso(o, RL_MDB_MAXIMUM);
        else {
            fprintf(err, "%s: --buffer-constraint '%s': use default, strict or maximum\n", prog_name, next);
            return RL_ARGS_ERROR;
        }
    }
    else if (str_ieq(token, "replaygain-fast")) {
        (void) rl_set_find_replay_gain(o, 1);
    }
    else if (str_ieq(token, "noreplaygain")) {
        a->noreplaygain = 1;
        (void) rl_set_find_replay_gain(o, 0);
    }
    else if (str_ieq(token, "replaygain-accurate")) {
        (void) rl_set_decode_on_the_fly(o, 1);
        (void) rl_set_find_replay_gain(o, 1);
    }
    else if (str_ieq(token, "clipdetect")) {
        a->clipdetect = 1;
        (void) rl_set_decode_on_the_fly(o, 1);
    }
    else if (str_ieq(token, "lowpass")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err))) {
            if (dv < 0) {
                (void) rl_set_lowpassfreq(o, -1);
            }
            else {
                if (dv < 0.001 || dv > 50000.) {
                    fprintf(err, "Must specify lowpass with --lowpass freq, freq >= 0.001 kHz\n");
                    return RL_ARGS_ERROR;
                }
                (void) rl_set_lowpassfreq(o, (int) (dv * (dv < 50. ? 1.e3 : 1.e0) + 0.5));
            }
        }
    }
    else if (str_ieq(token, "lowpass-width")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err))) {
            if (dv < 0.001 || dv > 50000.) {
                fprintf(err, "Must specify lowpass width with --lowpass-width freq, freq >= 0.001 kHz\n");
                return RL_ARGS_ERROR;
            }
            (void) rl_set_lowpasswidth(o, (int) (dv * (dv < 16. ? 1.e3 : 1.e0) + 0.5));
        }
    }
    else if (str_ieq(token, "highpass")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err))) {
            if (dv < 0.0) {
                (void) rl_set_highpassfreq(o, -1);
            }
            else {
                if (dv < 0.001 || dv > 50000.) {
                    fprintf(err, "Must specify highpass with --highpass freq, freq >= 0.001 kHz\n");
                    return RL_ARGS_ERROR;
                }
                (void) rl_set_highpassfreq(o, (int) (dv * (dv < 16. ? 1.e3 : 1.e0) + 0.5));
            }
        }
    }
    else if (str_ieq(token, "highpass-width")) {
        if ((*used = rl_lame_number_arg(a, token, next, &dv, err))) {
            if (dv < 0.001 || dv > 50000.) {
                fprintf(err, "Must specify highpass width with --highpass-width freq, freq >= 0.001 kHz\n");
                return RL_ARGS_ERROR;
            }
            (void) rl_set_highpasswidth(o, (int) dv);   /* no kHz rule here (lame) */
        }
    }
    else {
        return NOT_MINE;
    }
    return RL_ARGS_OK;
}

/* lame's developer-only switches.  Debian's lame is built without them:
 * each prints a warning, takes the next argv entry if it has an argument
 * (whatever that entry is, even the input name) and changes nothing. */
static int long_dev_only(const char *token, int i, int argc, char **argv, int *used, FILE *err)
{
    static const struct { const char *name; int has_arg; } dev_only[] = {
        { "noshort", 0 }, { "short", 0 }, { "allshort", 0 }, { "notemp", 0 },
        { "interch", 1 }, { "temporal-masking", 1 }, { "nspsytune", 0 }, { "nssafejoint", 0 },
        { "nsmsfix", 1 }, { "ns-bass", 1 }, { "ns-alto", 1 }, { "ns-treble", 1 },
        { "ns-sfb21", 1 }, { "tune", 1 }, { "shortthreshold", 1 }, { "maskingadjust", 1 },
        { "maskingadjustshort", 1 }, { "athcurve", 1 }, { "no-preset-tune", 0 }, { "substep", 1 },
        { "sbgain", 1 }, { "sfscale", 0 }, { "noath", 0 }, { "athonly", 0 }, { "athshort", 0 },
        { "athlower", 1 }, { "athtype", 1 }, { "athaa-type", 1 }, { "debug-file", 1 },
    };
    for (size_t k = 0; k < sizeof(dev_only) / sizeof(dev_only[0]); k++) {
        if (!str_ieq(token, dev_only[k].name))
            continue;
        if (dev_only[k].has_arg) {
            const char *next = i + 1 < argc ? argv[i + 1] : "";
            fprintf(err, "WARNING: ignoring developer-only switch --%s %s\n", token, next);
            *used = 1;
        }
        else {
            fprintf(err, "WARNING: ignoring developer-only switch --%s\n", token);
        }
        return RL_ARGS_OK;
    }
    return NOT_MINE;
}

/* One tag option's text as lame's id3_tag sets it: in UCS-2 (the default)
 * the ID3v1 field first from the Latin-1 text (not for --tv), then the
 * frame from the UTF-16 text; with --id3v2-latin1 both from the Latin-1
 * text.  Returns lame's result, RL_ID3_FULL or -ENOMEM. */
static int id3_tag(RlLameSettings *a, int field, const char *s)
{
    uint16_t *u;
    int rc = 0;

    if (a->id3_latin1 || field != 'v') {
        char *l = rl_tag_to_latin1(s);
        if (!l)
            return -ENOMEM;
        rc = rl_id3_set_latin1(&a->id3, field, l);
        free(l);
        if (a->id3_latin1 || rc == RL_ID3_FULL)
            return rc;
    }
    u = rl_tag_to_utf16(s);
    if (!u)
        return -ENOMEM;
    rc = rl_id3_set_utf16(&a->id3, field, u);
    free(u);
    return rc;
}

/* ringlame's limits (lame has none): 1 after the message. */
static int id3_no_room(const char *token, int ret, FILE *err)
{
    if (ret != RL_ID3_FULL && ret != -ENOMEM)
        return 0;
    fprintf(err, "%s: option --%s: %s\n", prog_name, token, ret == -ENOMEM ? "out of memory"
            : "the tag texts are too long for ringlame (at most "
              RL_STR(RL_ID3_POOL) " characters and " RL_STR(RL_ID3_FRAMES) " frames)");
    return 1;
}

/* --ti FILE: lame reads the picture at once (its messages; 0 or non-zero).
 * The bytes are read again for the encode (rl_args_tags_build, lame_tags.c). */
static int id3_art(RlLameSettings *a, const char *path, FILE *err)
{
    uint8_t *img = NULL;
    size_t n = 0;
    int const rc = rl_whole_file_read(path, &img, &n);

    if (rc == -ENOMEM) {
        fprintf(err, "Insufficient memory for reading the albumart.\n");
        return 2;
    }
    if (rc == -EIO) {
        fprintf(err, "Read error: '%s'.\n", path);
        return 3;
    }
    if (rc < 0) {
        fprintf(err, "Could not find: '%s'.\n", path);
        return 1;
    }
    if (rl_id3_set_art(&a->id3, img, n) != 0) {
        free(img);
        fprintf(err, "Unsupported image: '%s'.\nSpecify JPEG/PNG/GIF image\n", path);
        return 4;
    }
    a->id3.art = NULL;
    free(img);
    snprintf(a->art_path, sizeof a->art_path, "%s", path);
    return 0;
}

/* ID3 tags (lame's parse_args rules and messages). */
static int long_id3(RlLameSettings *a, const char *token, int i, int argc, char **argv,
                    int *used, FILE *err)
{
    static const struct { const char *name; char field; } text[] = {
        { "tt", 't' }, { "ta", 'a' }, { "tl", 'l' }, { "ty", 'y' },
        { "tc", 'c' }, { "tn", 'n' }, { "tg", 'g' },
    };
    const char *next = i + 1 < argc ? argv[i + 1] : "";
    RlId3Tag *t = &a->id3;
    int iv = 0;

    for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++) {
        int ret = 0;
        if (!str_ieq(token, text[k].name))
            continue;
        *used = 1;
        a->id3_used = 1;
        if (text[k].field != 'g' || *next != '\0')
            ret = id3_tag(a, text[k].field, next);
        if (id3_no_room(token, ret, err))
            return RL_ARGS_ERROR;
        if (ret == 0 || a->ignore_tag_errors)
            return RL_ARGS_OK;
        if (text[k].field == 'g') {
            fprintf(err, "Unknown ID3v1 genre number: '%s'.\n", next);
            return RL_ARGS_ERROR;
        }
        if (text[k].field == 'n') {
            if (a->id3_mode == 1) {
                if (a->silent < 9)
                    fprintf(err, "The track number has to be between 1 and 255 for ID3v1.\n");
                return RL_ARGS_ERROR;
            }
            if (a->id3_mode == 0 && a->silent < 9)
                fprintf(err, "The track number has to be between 1 and 255 for ID3v1, ignored for ID3v1.\n");
        }
        return RL_ARGS_OK;
    }
    if (str_ieq(token, "tv")) {
        int const ret = id3_tag(a, 'v', next);
        *used = 1;
        if (id3_no_room(token, ret, err))
            return RL_ARGS_ERROR;
        if (ret != 0 && a->silent < 9)
            fprintf(err, "Invalid field value: '%s'. Ignored\n", next);
    }
    else if (str_ieq(token, "ti")) {
        *used = 1;
        if (id3_art(a, next, err) != 0 && !a->ignore_tag_errors)
            return RL_ARGS_ERROR;
    }
    else     if (str_ieq(token, "id3v2-utf16") || str_ieq(token, "id3v2-ucs2")) {
        a->id3_latin1 = 0;
        rl_id3_add_v2(t);
    }
    else if (str_ieq(token, "id3v2-latin1")) {
        a->id3_latin1 = 1;
        rl_id3_add_v2(t);
    }
    else if (str_ieq(token, "ignore-tag-errors")) {
        a->ignore_tag_errors = 1;
    }
    else if (str_ieq(token, "add-id3v2")) {
        rl_id3_add_v2(t);
    }
    else if (str_ieq(token, "id3v1-only")) {
        rl_id3_v1_only(t);
        a->id3_mode = 1;
    }
    else if (str_ieq(token, "id3v2-only")) {
        rl_id3_v2_only(t);
        a->id3_mode = 2;
    }
    else if (str_ieq(token, "space-id3v1")) {
        rl_id3_space_v1(t);
    }
    else if (str_ieq(token, "pad-id3v2")) {
        rl_id3_set_pad(t, 128);
    }
    else if (str_ieq(token, "pad-id3v2-size")) {
        if ((*used = get_int(token, next, &iv, err)))
            rl_id3_set_pad(t, (unsigned)(iv > RL_ID3_PAD_MAX ? RL_ID3_PAD_MAX : iv < 0 ? 0 : iv));
    }
    else if (str_ieq(token, "genre-list")) {
        for (int k = 0; k < RL_ID3_GENRES; k++) {
            int const g = rl_id3_genre_alpha(k);
            fprintf(err, "%3d %s\n", g, rl_id3_genre_name(g));
        }
        return RL_ARGS_EXIT;
    }
    else {
        return NOT_MINE;
    }
    a->id3_used = 1;
    return RL_ARGS_OK;
}

/* Long options (without the leading "--").  *used = extra argv entries consumed. */
int rl_lame_long_option(RlLameSettings *a, const char *token, int i, int argc, char **argv,
                        int *used, FILE *out, FILE *err)
{
    int r;

    *used = 0;
    if ((r = long_rate_control(a, token, i, argc, argv, used, out, err)) != NOT_MINE)
        return r;
    if ((r = long_input(a, token, i, argc, argv, used, err)) != NOT_MINE)
        return r;
    if ((r = long_stream(a, token, i, argc, argv, used, err)) != NOT_MINE)
        return r;
    if ((r = long_dev_only(token, i, argc, argv, used, err)) != NOT_MINE)
        return r;
    if ((r = long_id3(a, token, i, argc, argv, used, err)) != NOT_MINE)
        return r;
    if (str_ieq(token, "noasm")) {
        *used = 1;              /* no assembler code to turn off */
        return RL_ARGS_OK;
    }
    if (str_ieq(token, "ogginput")) {
        fprintf(err, "sorry, vorbis support in LAME is deprecated.\n");
        return RL_ARGS_ERROR;
    }
    return RL_ARGS_NOT_LAME;
}

/* -m's mode letter (only the first character counts). */
static int set_mode_letter(RlOptions *o, const char *arg, FILE *err)
{
    switch (*arg) {
    case 's': (void) rl_set_mode(o, RL_STEREO); break;
    case 'd': (void) rl_set_mode(o, RL_DUAL_CHANNEL); break;
    case 'f': (void) rl_set_force_ms(o, 1); (void) rl_set_mode(o, RL_JOINT_STEREO); break;
    case 'j':
    case 'a': (void) rl_set_force_ms(o, 0); (void) rl_set_mode(o, RL_JOINT_STEREO); break;
    case 'm': (void) rl_set_mode(o, RL_MONO); break;
    case 'l':
        (void) rl_set_mode(o, RL_MONO);
        (void) rl_set_scale_left(o, 2);
        (void) rl_set_scale_right(o, 0);
        break;
    case 'r':
        (void) rl_set_mode(o, RL_MONO);
        (void) rl_set_scale_left(o, 0);
        (void) rl_set_scale_right(o, 2);
        break;
    default:
        fprintf(err, "%s: -m mode must be s/d/f/j/m/l/r not %s\n", prog_name, arg);
        return RL_ARGS_ERROR;
    }
    return RL_ARGS_OK;
}

int rl_lame_short_options(RlLameSettings *a, const char *token, int *i, int argc, char **argv,
                          int (*front)(void *ctx, char letter, FILE *out, FILE *err), void *ctx,
                          FILE *out, FILE *err)
{
    RlOptions *o = &a->opt;
    const char *next = *i + 1 < argc ? argv[*i + 1] : "";
    char c;

    while ((c = *token++) != '\0') {
        const char *arg = *token ? token : next;
        int used = 0;
        double dv = 0;
        int iv = 0;
        char name[2] = { c, 0 };

        switch (c) {
        case 'm':
            used = 1;
            if (set_mode_letter(o, arg, err) != RL_ARGS_OK)
                return RL_ARGS_ERROR;
            break;
        case 'V':
            if ((used = rl_lame_number_arg(a, name, arg, &dv, err))) {
                if (o->vbr == RL_VBR_OFF)
                    (void) rl_set_vbr(o, RL_VBR_MTRH);     /* lame's vbr_default */
                (void) rl_set_vbr_quality(o, (float) dv);
            }
            break;
        case 'v':
            if (o->vbr == RL_VBR_OFF)
                (void) rl_set_vbr(o, RL_VBR_MTRH);
            break;
        case 'q':
            if ((used = get_int(name, arg, &iv, err)))
                (void) rl_set_quality(o, iv);
            break;
        case 'f':
            (void) rl_set_quality(o, 7);
            break;
        case 'h':
            (void) rl_set_quality(o, 2);
            break;
        case 's':
            if ((used = rl_lame_number_arg(a, name, arg, &dv, err))) {
                double const hz = dv * (dv <= 192 ? 1.e3 : 1.e0) + 0.5;
                /* lame truncates to whole Hz and cannot open its input with
                 * a negative rate ("Can't init infile"); 0 means "the file's" */
                if (!(hz > -1.0 && hz < INT_MAX)) {
                    fprintf(err, "%s: option -s: '%s' is not a usable sample rate\n", prog_name, arg);
                    a->bad_value = 1;
                    break;
                }
                dv = (int) hz;
                a->input_samplerate = (int) dv;
                (void) rl_set_in_samplerate(o, (int) dv);
            }
            break;
        /* -b: the CBR bitrate, and the VBR minimum; -B/-F: VBR limits */
        case 'b':
            if ((used = get_int(name, arg, &iv, err))) {
                (void) rl_set_brate(o, iv);     /* >320 also turns the reservoir off (lame) */
                (void) rl_set_vbr_min_bitrate_kbps(o, o->brate);
            }
            break;
        case 'B':
            if ((used = get_int(name, arg, &iv, err)))
                (void) rl_set_vbr_max_bitrate_kbps(o, iv);
            break;
        case 'F':
            (void) rl_set_vbr_hard_min(o, 1);
            break;
        case 't':               /* also: --decode writes no WAV header */
            (void) rl_set_write_lame_tag(o, 0);
            a->tag_last = 't';
            break;
        case 'T':               /* stdout output still has no tag frame */
            (void) rl_set_write_lame_tag(o, 1);
            a->tag_T = 1;       /* lame: -T also keeps the tag with --nogap */
            a->tag_last = 'T';
            break;
        case 'r':
            /* Debian's lame reads named files with libsndfile too */
            fprintf(err, "WARNING: libsndfile may ignore -r and perform fseek's on the input.\n"
                    "Compile without libsndfile if this is a problem.\n");
            a->raw_input = 1;
            a->mpeg_input = 0;  /* lame: the last of -r and --mpNinput decides */
            break;
        case 'x':
            a->raw_swapbytes = 1;
            break;
        case 'p':
            (void) rl_set_error_protection(o, 1);
            break;
        case 'a':
            a->autoconvert = 1;
            (void) rl_set_mode(o, RL_MONO);
            break;
        case 'd':
        case 'k':
            fprintf(err, "WARNING: -%c is obsolete.\n", c);
            break;
        case 'X':
            used = 1;           /* n[,m]: lame's build ignores the noise measure */
            break;
        case 'Y':
            (void) rl_set_experimental_y(o, 1);
            break;
        case 'Z':
            iv = 1;             /* an optional level, 1 without one */
            used = scan_int(arg, &iv);
            (void) rl_set_experimental_z(o, iv);
            break;
        case 'e':
            used = 1;
            switch (*arg) {
            case 'n': (void) rl_set_emphasis(o, 0); break;
            case '5': (void) rl_set_emphasis(o, 1); break;
            case 'c': (void) rl_set_emphasis(o, 3); break;
            default:
                fprintf(err, "%s: -e emp must be n/5/c not %s\n", prog_name, arg);
                return RL_ARGS_ERROR;
            }
            break;
        case 'c':
            (void) rl_set_copyright(o, 1);
            break;
        case 'o':
            (void) rl_set_original(o, 0);
            break;
        default: {
            int const r = front ? front(ctx, c, out, err) : RL_ARGS_NOT_LAME;
            if (r == RL_ARGS_NOT_LAME) {
                fprintf(err, "%s: unrecognized option -%c\n", prog_name, c);
                return RL_ARGS_ERROR;
            }
            if (r != RL_ARGS_OK)
                return r;
            break;
        }
        }
        if (used) {
            if (arg == token)
                token = "";     /* the rest of the bundle was the argument */
            else
                ++*i;           /* the next argv entry was */
        }
    }
    return RL_ARGS_OK;
}

int rl_lame_apply_input(const RlLameSettings *a, RlOptions *opt, int channels, int samplerate,
                        char *why, size_t whylen)
{
    if (rl_set_num_channels(opt, channels) < 0) {
        snprintf(why, whylen, "unsupported number of channels: %d", channels);
        return -EINVAL;
    }
    /* -s overrides the input's rate, as in lame */
    if (rl_set_in_samplerate(opt, a->input_samplerate > 0 ? a->input_samplerate : samplerate) < 0) {
        snprintf(why, whylen, "unsupported sample rate: %d", samplerate);
        return -EINVAL;
    }
    return 0;
}

void rl_lame_settings_init(RlLameSettings *a)
{
    memset(a, 0, sizeof(*a));
    rl_options_defaults(&a->opt);
    rl_id3_init(&a->id3);
    a->raw_bitwidth = 16;
    a->raw_signed = -1;     /* neither --signed nor --unsigned */
}

void rl_lame_set_prog_name(const char *name)
{
    prog_name = name ? name : PROG;
}

const char *rl_lame_prog_name(void)
{
    return prog_name;
}

int rl_lame_settings_finish(RlLameSettings *a, FILE *err)
{
    if (!a->noreplaygain)           /* ReplayGain is on by default */
        (void) rl_set_find_replay_gain(&a->opt, 1);

    /* default channel guess (used for raw input) */
    if (a->autoconvert)
        (void) rl_set_num_channels(&a->opt, 2);
    else if (a->opt.mode == RL_MONO)
        (void) rl_set_num_channels(&a->opt, 1);
    else
        (void) rl_set_num_channels(&a->opt, 2);

    /* a free format stream needs its bitrate (presets set one too) */
    if (a->opt.free_format && (a->opt.brate < 8 || a->opt.brate > 640)) {
        fprintf(err, "%s: --freeformat needs a bitrate between 8 and 640 kbps (-b n)\n", prog_name);
        return RL_ARGS_ERROR;
    }
    return RL_ARGS_OK;
}

int rl_lame_settings_set_simd(RlLameSettings *a, int level)
{
    if (level < 0) {
        a->opt.simd_level = -1;
        return 0;
    }
    if (level >= RL_SIMD_LEVELS || level > rl_cpu_simd_level())
        return -EINVAL;
    a->opt.simd_level = level;
    return 0;
}
