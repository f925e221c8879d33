/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's option grammar (frontend/parse.c) for the settings of an
 * encoder: every encoding, filter, tag and input-description option of
 * `lame --help` / `--longhelp`, with lame's argument rules and lame's
 * parse-time effects (presets applied at once, as lame_set_preset).  The
 * library owns it; a front end walks its argument list (file names, its
 * own options, lame's console switches) and hands each option here.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_LAME_ARGS_H
#define RL_LAME_ARGS_H

#include <stdint.h>
#include <stdio.h>

#include "settings.h"
#include "id3tag.h"

#define RL_ARGS_PATH_MAX 4096

/* What lame's options say, before the input is known. */
typedef struct RlLameSettings {
    RlOptions opt;        /* encoder options, lame_set_* semantics */
    int  bad_value;       /* a numeric option was NaN, infinite or too large */
    /* lame's verbosity when the option was parsed (0 default, 1 stdin, 5 -S,
     * 9 --silent, 10 --quiet, -5 --brief, -10 --verbose): the front end's
     * console switches set it; the tag options' warnings follow it */
    int  silent;
    int  autoconvert;     /* -a */
    int  noreplaygain;    /* --noreplaygain given */
    int  clipdetect;      /* --clipdetect: lame's clipping verdict at the end */
    int  input_samplerate; /* -s (Hz), 0 = from the input; overrides it like lame */
    int  ignore_length;   /* --ignorelength: a WAV on stdin is read to EOF */
    /* raw PCM (-r) description (lame's global_raw_pcm / global_reader) */
    int  raw_input;       /* -r */
    int  raw_bitwidth;    /* --bitwidth, 16 */
    int  raw_signed;      /* --signed 1 / --unsigned 0, -1 = neither given */
    int  raw_big_endian;  /* --big-endian / --little-endian, 0 */
    int  raw_swapbytes;   /* -x */
    /* MPEG input */
    int  mpeg_input;      /* --mp1input .. --mp3input: 1..3; 0 = by the file name */
    int  mpeg_delay, mpeg_delay_set;  /* --decode-mp3delay n */
    /* -t / -T beyond the tag itself: the last of them ('t', 'T' or 0), and
     * whether -T was given (lame: it also keeps the tag with --nogap) */
    int  tag_last;
    int  tag_T;
    /* ID3 tags: the tag lame's --t* options build, in argument order */
    RlId3Tag id3;
    int  id3_latin1;      /* --id3v2-latin1 was the last encoding option (else UTF-16) */
    int  id3_mode;        /* 0, 1 after --id3v1-only, 2 after --id3v2-only (lame's messages) */
    int  ignore_tag_errors; /* --ignore-tag-errors */
    int  id3_used;        /* a tag option was given */
    char art_path[RL_ARGS_PATH_MAX + 1];  /* --ti: the picture ("" = none), read again to encode */
} RlLameSettings;

enum {
    RL_ARGS_OK = 0,       /* taken */
    RL_ARGS_EXIT = 1,     /* help/version printed: exit 0 */
    RL_ARGS_ERROR = -1,   /* usage error printed, or lame's help that exits 1
                             (-?, --preset help): exit 1 */
    RL_ARGS_NOT_LAME = 2  /* not an option of lame's grammar for an encoder */
};

/* lame's defaults (the settings before any option). */
void rl_lame_settings_init(RlLameSettings *s);

/* The name messages give the program (lame's: argv[0]), for the calling
 * thread, until it is set again; NULL: "ringlame". */
void rl_lame_set_prog_name(const char *name);
const char *rl_lame_prog_name(void);

/* One long option, token without its "--" (case-insensitive, as lame),
 * at argv[i]; its arguments follow in argv.  *used: the argv entries after
 * argv[i] it took.  Returns RL_ARGS_OK, RL_ARGS_ERROR (message on err),
 * RL_ARGS_EXIT or RL_ARGS_NOT_LAME (nothing printed).  s->bad_value set:
 * the message named the option, the caller stops. */
int rl_lame_long_option(RlLameSettings *s, const char *token, int i, int argc, char **argv,
                        int *used, FILE *out, FILE *err);

/* A bundle of short options at argv[*i] without its '-' ("hV2", "mj", "V"
 * with "2" next); *i is advanced past argv entries taken as arguments.  A
 * letter lame's grammar for an encoder does not have goes to front (ctx;
 * may be NULL), which returns RL_ARGS_OK when it took it, RL_ARGS_NOT_LAME
 * (then: "unrecognized option"), RL_ARGS_ERROR or RL_ARGS_EXIT. */
int rl_lame_short_options(RlLameSettings *s, const char *token, int *i, int argc, char **argv,
                          int (*front)(void *ctx, char letter, FILE *out, FILE *err), void *ctx,
                          FILE *out, FILE *err);

/* lame's getDoubleValue for option `name` (without dashes) and its
 * argument: 1 with the number in *v (a number that is not finite or too
 * large is refused: s->bad_value, the message on err), or 0 with a warning
 * when arg is no number (it is then not taken).  For the front end's
 * options that take a number too (--disptime). */
int rl_lame_number_arg(RlLameSettings *s, const char *name, const char *arg, double *v, FILE *err);

/* After the last option: lame's defaults that depend on all of them
 * (ReplayGain on unless --noreplaygain, the channel guess for raw input)
 * and the checks lame makes at init (--freeformat's bitrate).  RL_ARGS_OK
 * or RL_ARGS_ERROR (message on err). */
int rl_lame_settings_finish(RlLameSettings *s, FILE *err);

/* The SIMD level of the encoder's kernels (simd.h): at most the CPU's
 * best; < 0: the CPU's best.  0 or -EINVAL (the CPU or build lacks it). */
int rl_lame_settings_set_simd(RlLameSettings *s, int level);

/* What lame's front end takes from the input (its header, or what a
 * program says it sends) into *opt: the channel count, and the sample rate
 * unless -s gave one.  0, or -EINVAL with the reason ("unsupported number
 * of channels: 3") in why. */
int rl_lame_apply_input(const RlLameSettings *s, RlOptions *opt, int channels, int samplerate,
                        char *why, size_t whylen);

/* The ID3 tags of the options for one encode (args_tags.c), as lame's
 * front end writes them: the ID3v2 tag (TLEN from frames, the input's
 * length at samplerate_in; < 0: unknown; the --ti picture read again) and
 * the ID3v1 tag; without an ID3v2 tag of the options' own, a copy of
 * input_v2 (an MPEG input's own ID3v2 tag, lame's rule; NULL: none);
 * a length 0: none.  For RlRingParams.id3v2/id3v1, kept for the run. */
typedef struct RlArgsTags {
    uint8_t *v2;
    size_t   v2_len;
    uint8_t  v1[128];
    size_t   v1_len;
} RlArgsTags;

/* 0, or -errno with "FILE: problem" in why (-EINVAL: the --ti file changed
 * since parsing).  Free with rl_args_tags_free (also after an error). */
int  rl_args_tags_build(const RlLameSettings *s, int64_t frames, int samplerate_in,
                        const uint8_t *input_v2, size_t input_v2_len, RlArgsTags *t,
                        char *why, size_t whylen);
void rl_args_tags_free(RlArgsTags *t);

/* --preset help (lame's text; part of --preset's grammar), and lame's
 * version line ("LAME 64bits version 3.100 (...)" and a blank line). */
void rl_lame_print_preset_help(FILE *fp);
void rl_lame_print_version_line(FILE *fp);

#endif
