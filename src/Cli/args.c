/* ringlame: command line parsing with lame's rules (short options bundle,
 * arguments attached or separate, case-insensitive long options, LAMEOPT
 * tokens first).  Only the VBR subset is accepted for now (-b/-B/-F as its
 * minimum/maximum bitrate limits).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "args.h"
#include "version.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define PROG "ringlame"
#define MAX_ARGS 512

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

/* lame's getDoubleValue/getIntValue: a missing or non-numeric argument
 * only warns, and the token is then not consumed. */
static int get_double(const char *name, const char *arg, double *v, FILE *err)
{
    char *end = NULL;
    *v = strtod(arg, &end);
    if (end != arg)
        return 1;
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

static int refuse_cbr(FILE *err, const char *dash, const char *opt)
{
    fprintf(err, PROG ": option %s%s: CBR/ABR are not supported yet (use -V 0..9)\n", dash, opt);
    return RL_ARGS_ERROR;
}

static int refuse(FILE *err, const char *dash, const char *opt)
{
    fprintf(err, PROG ": option %s%s is not supported yet\n", dash, opt);
    return RL_ARGS_ERROR;
}

/* frontend string_to_argv: blanks separate, a leading '"' quotes up to the next '"'. */
static int split_tokens(char *s, char **tok, int max)
{
    int n = 0;
    if (!s)
        return 0;
    for (;;) {
        int quoted = 0;
        while (isspace((unsigned char) *s))
            ++s;
        if (*s == '"') {
            quoted = 1;
            ++s;
        }
        if (*s == '\0')
            break;
        if (n < max)
            tok[n++] = s;
        for (; *s != '\0'; ++s) {
            if (quoted ? (*s == '"') : isspace((unsigned char) *s)) {
                *s++ = '\0';
                break;
            }
        }
    }
    return n;
}

/* Long options (without the leading "--").  *used = extra argv entries consumed. */
static int parse_long(RlArgs *a, const char *token, int i, int argc, char **argv,
                      int *used, FILE *out, FILE *err)
{
    RlOptions *o = &a->opt;
    const char *next = i + 1 < argc ? argv[i + 1] : "";
    double dv = 0;
    int iv = 0;

    *used = 0;
    if (str_ieq(token, "resample")) {
        if ((*used = get_double(token, next, &dv, err)))
            (void) rl_set_out_samplerate(o, resample_rate(dv, err));
    }
    else if (str_ieq(token, "vbr-new")) {
        (void) rl_set_vbr(o, RL_VBR_MT);
    }
    else if (str_ieq(token, "vbr-mtrh")) {
        (void) rl_set_vbr(o, RL_VBR_MTRH);
    }
    else if (str_ieq(token, "vbr-old")) {
        return refuse(err, "--", token);
    }
    else if (str_ieq(token, "cbr")) {
        (void) rl_set_vbr(o, RL_VBR_OFF);
    }
    else if (str_ieq(token, "abr")) {
        /* values from 8000 up are bits per second */
        if ((*used = get_int(token, next, &iv, err))) {
            if (iv >= 8000)
                iv = (iv + 500) / 1000;
            if (iv > 320)
                iv = 320;
            if (iv < 8)
                iv = 8;
            (void) rl_set_vbr(o, RL_VBR_ABR);
            (void) rl_set_vbr_mean_bitrate_kbps(o, iv);
        }
    }
    else if (str_ieq(token, "freeformat")) {
        o->free_format = 1;
    }
    else if (str_ieq(token, "r3mix") || str_ieq(token, "comp")) {
        return refuse_cbr(err, "--", token);
    }
    else if (str_ieq(token, "preset") || str_ieq(token, "alt-preset")) {
        /* lame skips any "fast"/"cbr" words before the preset name */
        int n = 1;
        const char *name = next;
        while (strcmp(name, "fast") == 0 || strcmp(name, "cbr") == 0) {
            n++;
            name = i + n < argc ? argv[i + n] : "";
        }
        *used = n;
        if (strcmp(name, "medium") == 0) {
            (void) rl_set_vbr_q(o, 4);
            (void) rl_set_vbr(o, RL_VBR_MTRH);
        }
        else if (strcmp(name, "standard") == 0) {
            (void) rl_set_vbr_q(o, 2);
            (void) rl_set_vbr(o, RL_VBR_MTRH);
        }
        else if (strcmp(name, "extreme") == 0) {
            (void) rl_set_vbr_q(o, 0);
            (void) rl_set_vbr(o, RL_VBR_MTRH);
        }
        else if (strcmp(name, "help") == 0) {
            return refuse(err, "--preset ", name);
        }
        else if (atoi(name) > 0 || strcmp(name, "insane") == 0 || strcmp(name, "phone") == 0
                 || strcmp(name, "phon+") == 0 || strcmp(name, "lw") == 0
                 || strcmp(name, "mw-eu") == 0 || strcmp(name, "sw") == 0
                 || strcmp(name, "mw-us") == 0 || strcmp(name, "voice") == 0
                 || strcmp(name, "fm") == 0 || strcmp(name, "radio") == 0
                 || strcmp(name, "tape") == 0 || strcmp(name, "hifi") == 0
                 || strcmp(name, "cd") == 0 || strcmp(name, "studio") == 0) {
            return refuse_cbr(err, "--preset ", name);
        }
        else {
            fprintf(err, PROG ": --preset: unknown preset '%s' (medium, standard, extreme)\n", name);
            return RL_ARGS_ERROR;
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
    else if (str_ieq(token, "nores")) {
        (void) rl_set_disable_reservoir(o, 1);
    }
    else if (str_ieq(token, "strictly-enforce-ISO")) {
        (void) rl_set_strict_iso(o, RL_MDB_STRICT_ISO);
    }
    else if (str_ieq(token, "replaygain-fast")) {
        (void) rl_set_find_replay_gain(o, 1);
    }
    else if (str_ieq(token, "noreplaygain")) {
        a->noreplaygain = 1;
        (void) rl_set_find_replay_gain(o, 0);
    }
    else if (str_ieq(token, "lowpass")) {
        if ((*used = get_double(token, next, &dv, err))) {
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
        if ((*used = get_double(token, next, &dv, err))) {
            if (dv < 0.001 || dv > 50000.) {
                fprintf(err, "Must specify lowpass width with --lowpass-width freq, freq >= 0.001 kHz\n");
                return RL_ARGS_ERROR;
            }
            (void) rl_set_lowpasswidth(o, (int) (dv * (dv < 16. ? 1.e3 : 1.e0) + 0.5));
        }
    }
    else if (str_ieq(token, "highpass")) {
        if ((*used = get_double(token, next, &dv, err))) {
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
        if ((*used = get_double(token, next, &dv, err))) {
            if (dv < 0.001 || dv > 50000.) {
                fprintf(err, "Must specify highpass width with --highpass-width freq, freq >= 0.001 kHz\n");
                return RL_ARGS_ERROR;
            }
            (void) rl_set_highpasswidth(o, (int) dv);   /* no kHz rule here (lame) */
        }
    }
    else if (str_ieq(token, "sequential")) {
        a->sequential = 1;
    }
    else if (str_ieq(token, "threads")) {
        char *end = NULL;
        long const n = strtol(next, &end, 10);
        if (end == next || *end != '\0' || n < 1 || n > 1024) {
            if (*next == '\0')
                fprintf(err, PROG ": --threads needs a number of worker threads (1 to 1024)\n");
            else
                fprintf(err, PROG ": --threads %s: not a number of worker threads (1 to 1024)\n", next);
            return RL_ARGS_ERROR;
        }
        a->threads = (int) n;
        *used = 1;
    }
    else if (str_ieq(token, "quiet")) {
        a->silent = 10;
    }
    else if (str_ieq(token, "silent")) {
        a->silent = 9;
    }
    else if (str_ieq(token, "brief")) {
        a->silent = -5;
    }
    else if (str_ieq(token, "verbose")) {
        a->silent = -10;
    }
    else if (str_ieq(token, "nohist")) {
        /* console only; ringlame prints no histogram */
    }
    else if (str_ieq(token, "version") || str_ieq(token, "license")) {
        rl_args_print_version(out);
        return RL_ARGS_EXIT;
    }
    else if (str_ieq(token, "help") || str_ieq(token, "usage")) {
        rl_args_print_help(out);
        return RL_ARGS_EXIT;
    }
    else {
        fprintf(err, PROG ": unrecognized or unsupported option --%s\n", token);
        return RL_ARGS_ERROR;
    }
    return RL_ARGS_OK;
}

/* A bundle of short options ("-hV2", "-mj", "-V" "2"). */
static int parse_short(RlArgs *a, const char *token, int *i, int argc, char **argv, FILE *err)
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
                fprintf(err, PROG ": -m mode must be s/d/f/j/m/l/r not %s\n", arg);
                return RL_ARGS_ERROR;
            }
            break;
        case 'V':
            if ((used = get_double(name, arg, &dv, err))) {
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
            if ((used = get_double(name, arg, &dv, err))) {
                dv = (int) (dv * (dv <= 192 ? 1.e3 : 1.e0) + 0.5);
                a->input_samplerate = (int) dv;
                (void) rl_set_in_samplerate(o, (int) dv);
            }
            break;
        case 't':
            (void) rl_set_write_lame_tag(o, 0);
            break;
        case 'r':
            a->raw_input = 1;
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
        case 'S':
            a->silent = 5;
            break;
        /* -b/-B/-F are VBR limits here; without a VBR option they would
         * mean CBR, which rl_args_parse refuses once everything is read */
        case 'b':
            if (!a->bitrate_opt)
                a->bitrate_opt = c;
            if ((used = get_int(name, arg, &iv, err))) {
                (void) rl_set_brate(o, iv);     /* >320 also turns the reservoir off (lame) */
                (void) rl_set_vbr_min_bitrate_kbps(o, o->brate);
            }
            break;
        case 'B':
            if (!a->bitrate_opt)
                a->bitrate_opt = c;
            if ((used = get_int(name, arg, &iv, err)))
                (void) rl_set_vbr_max_bitrate_kbps(o, iv);
            break;
        case 'F':
            if (!a->bitrate_opt)
                a->bitrate_opt = c;
            (void) rl_set_vbr_hard_min(o, 1);
            break;
        case '?':
            fprintf(err, PROG ": unrecognized or unsupported option -%c\n", c);
            return RL_ARGS_ERROR;
        default:
            if (strchr("TceoYZXdk", c))
                return refuse(err, "-", name);
            fprintf(err, PROG ": unrecognized option -%c\n", c);
            return RL_ARGS_ERROR;
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

static int parse_argv(RlArgs *a, int argc, char **argv, FILE *out, FILE *err)
{
    int have_input = 0;

    for (int i = 1; i < argc; i++) {
        const char *token = argv[i];
        if (token[0] == '-') {
            token++;
            if (*token == '\0') {           /* "-": stdin, then stdout */
                have_input = 1;
                if (a->in_path[0] == '\0')
                    snprintf(a->in_path, sizeof(a->in_path), "%s", argv[i]);
                else if (a->out_path[0] == '\0')
                    snprintf(a->out_path, sizeof(a->out_path), "%s", argv[i]);
                continue;
            }
            if (*token == '-') {
                int used = 0, r;
                token++;
                r = parse_long(a, token, i, argc, argv, &used, out, err);
                if (r != RL_ARGS_OK)
                    return r;
                i += used;
            }
            else {
                int const r = parse_short(a, token, &i, argc, argv, err);
                if (r != RL_ARGS_OK)
                    return r;
            }
        }
        else {
            if (strlen(argv[i]) > RL_ARGS_PATH_MAX) {
                fprintf(err, PROG ": file name too long: %s\n", argv[i]);
                return RL_ARGS_ERROR;
            }
            if (a->in_path[0] == '\0') {
                snprintf(a->in_path, sizeof(a->in_path), "%s", argv[i]);
                have_input = 1;
            }
            else if (a->out_path[0] == '\0') {
                snprintf(a->out_path, sizeof(a->out_path), "%s", argv[i]);
            }
            else {
                fprintf(err, PROG ": excess arg %s\n", argv[i]);
                return RL_ARGS_ERROR;
            }
        }
    }

    if (!have_input) {
        rl_args_print_usage(err);
        return RL_ARGS_ERROR;
    }
    return RL_ARGS_OK;
}

int rl_args_parse(RlArgs *a, int argc, char **argv, const char *lameopt, FILE *out, FILE *err)
{
    char *env = NULL;
    char *merged[MAX_ARGS];
    char *tok[MAX_ARGS];
    int ntok = 0, n = 0, r;

    memset(a, 0, sizeof(*a));
    rl_options_defaults(&a->opt);
    a->raw_bitwidth = 16;
    a->raw_signed = -1;     /* neither --signed nor --unsigned */

    /* LAMEOPT tokens go between argv[0] and the user's arguments */
    if (lameopt) {
        env = strdup(lameopt);
        if (!env) {
            fprintf(err, PROG ": out of memory\n");
            return RL_ARGS_ERROR;
        }
        ntok = split_tokens(env, tok, MAX_ARGS - 1);
    }
    merged[n++] = argc > 0 ? argv[0] : (char *) PROG;
    for (int k = 0; k < ntok && n < MAX_ARGS; k++)
        merged[n++] = tok[k];
    for (int k = 1; k < argc && n < MAX_ARGS; k++)
        merged[n++] = argv[k];

    r = parse_argv(a, n, merged, out, err);
    free(env);
    if (r != RL_ARGS_OK)
        return r;

    if (a->in_path[0] == '-' && a->silent == 0)
        a->silent = 1;              /* like lame: stdin input is quieter */

    if (a->out_path[0] == '\0') {
        if (a->in_path[0] == '-' && a->in_path[1] == '\0')
            strcpy(a->out_path, "-");
        else if (rl_args_default_output(a->in_path, a->out_path, sizeof(a->out_path)) != 0) {
            fprintf(err, PROG ": output file name too long\n");
            return RL_ARGS_ERROR;
        }
    }

    if (!a->noreplaygain)           /* ReplayGain is on by default */
        (void) rl_set_find_replay_gain(&a->opt, 1);

    if (a->out_path[0] == '-')      /* no tag frame on stdout */
        (void) rl_set_write_lame_tag(&a->opt, 0);

    /* default channel guess (used for raw input) */
    if (a->autoconvert)
        (void) rl_set_num_channels(&a->opt, 2);
    else if (a->opt.mode == RL_MONO)
        (void) rl_set_num_channels(&a->opt, 1);
    else
        (void) rl_set_num_channels(&a->opt, 2);
    return RL_ARGS_OK;
}

static int is_common_suffix(const char *ext)
{
    static const char *const suffixes[] = {
        ".wav", ".raw", ".mp1", ".mp2", ".mp3", ".mpg", ".mpa", ".cda", ".ogg", ".aif",
        ".aiff", ".au", ".snd", ".flac", ".wv", ".ofr", ".tak", ".mp4", ".m4a", ".pcm", ".w64"
    };
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
        if (str_ieq(ext, suffixes[i]))
            return 1;
    return 0;
}

int rl_args_default_output(const char *in, char *out, size_t outlen)
{
    const char *s, *dir_end = in;
    const char *base = in, *ext = in;
    size_t len = 0;

    /* directory part: up to the last '/' (a leading "/x" keeps none, as lame) */
    for (s = in; *s; ++s)
        if (*s == '/')
            dir_end = s;
    /* base name and extension (from its last '.') */
    for (s = in; *s; ++s) {
        if (*s == '/')
            base = ext = s;
        else if (*s == '.')
            ext = s;
    }
    if (ext == base)
        ext = s;
    if (*base == '/')
        ++base;

    size_t const ndir = (size_t) (dir_end - in);
    size_t const nbase = (size_t) (ext - base);
    int const replace = is_common_suffix(ext) && !str_ieq(ext, ".mp3");
    size_t const next = replace ? 0 : strlen(ext);
    size_t const need = ndir + (ndir > 0) + nbase + next + 4 + 1;
    if (need > outlen)
        return -1;
    memcpy(out + len, in, ndir);
    len += ndir;
    if (ndir > 0)
        out[len++] = '/';
    memcpy(out + len, base, nbase);
    len += nbase;
    memcpy(out + len, ext, next);
    len += next;
    memcpy(out + len, ".mp3", 5);
    return 0;
}

void rl_args_print_usage(FILE *fp)
{
    fprintf(fp,
            "ringlame %s (reproduces LAME 3.100 output)\n"
            "\n"
            "usage: " PROG " [options] <infile> [outfile]\n"
            "\n"
            "    <infile> and/or <outfile> can be \"-\", which means stdin/stdout.\n"
            "\n"
            "Try:\n"
            "     \"" PROG " --help\"           for general usage information\n",
            rl_version());
}

void rl_args_print_help(FILE *fp)
{
    fprintf(fp,
            "ringlame %s (reproduces LAME 3.100 output)\n"
            "\n"
            "usage: " PROG " [options] <infile> [outfile]\n"
            "\n"
            "    <infile> and/or <outfile> can be \"-\", which means stdin/stdout.\n"
            "\n"
            "RECOMMENDED:\n"
            "    " PROG " -V2 input.wav output.mp3\n"
            "\n"
            "OPTIONS:\n"
            "    -V n            quality setting for VBR, 0 (best) .. 9.999 (smallest)\n"
            "    -v              VBR at the default quality (-V 4)\n"
            "    --vbr-new       use the vbr-new method (same audio, other tag byte)\n"
            "    --vbr-mtrh      use the default VBR method\n"
            "    --preset medium|standard|extreme   = -V4 / -V2 / -V0\n"
            "    -b n            with VBR: minimum bitrate in kbps (snapped to a legal rate)\n"
            "    -B n            with VBR: maximum bitrate in kbps (snapped to a legal rate)\n"
            "    -F              with VBR: keep the -b minimum also for digital silence\n"
            "    -q n            algorithm quality 0..9 (VBR: <5 -> 0, >7 -> 7)\n"
            "    -h / -f         = -q 2 / -q 7\n"
            "    -m s|j|f|d|m|l|r  stereo, joint, forced M/S, dual, mono, left, right\n"
            "    -a              downmix to mono\n"
            "    --resample n    output sample rate in kHz (8 11 12 16 22 24 32 44 48)\n"
            "    --lowpass f, --lowpass-width f, --highpass f, --highpass-width f\n"
            "    -p              add CRC error protection\n"
            "    -t              no Xing/LAME tag frame\n"
            "    --nores, --strictly-enforce-ISO\n"
            "    --noreplaygain, --replaygain-fast (default)\n"
            "    -r, -s n, --bitwidth n, --signed, --unsigned, --little-endian,\n"
            "    --big-endian, -x    raw PCM input description\n"
            "    --threads n     worker threads (default: the CPUs this process may use)\n"
            "    --sequential    the single-threaded driver (no progress line)\n"
            "    -S, --silent, --quiet       less output (no progress line)\n"
            "    --help, --version\n"
            "\n"
            "CBR and ABR (-b without a VBR option, --abr, --cbr, no -V) are not supported yet.\n"
            "The environment variable LAMEOPT is read before the command line.\n",
            rl_version());
}

void rl_args_print_version(FILE *fp)
{
    fprintf(fp,
            "ringlame %s, an MP3 encoder reproducing LAME 3.100 (http://lame.sf.net)\n"
            "\n"
            "Algorithms derived from LAME 3.100, distributed under the GNU Library\n"
            "General Public License, version 2 or later.\n",
            rl_version());
}
