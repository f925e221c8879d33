/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: command line parsing with lame's rules (frontend/parse.c): every
 * option of `lame --help` / `--longhelp`, with lame's argument rules, and
 * lame's parse-time effects (presets applied at once, as lame_set_preset).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_ARGS_H
#define RL_ARGS_H

#include <stdio.h>
#include "settings.h"
#include "pcm_reader.h"   /* RlRawFormat */
#include "id3tag.h"

#define RL_ARGS_PATH_MAX 4096
#define RL_ARGS_MAX_ARGV 512   /* LAMEOPT tokens and arguments together */
#define RL_ARGS_MAX_NOGAP 200  /* files in a --nogap set (lame's MAX_NOGAP) */

typedef struct RlArgs {
    RlOptions opt;                     /* encoder options, lame_set_* semantics */
    char in_path[RL_ARGS_PATH_MAX + 1];   /* "-" = stdin */
    char out_path[RL_ARGS_PATH_MAX + 1];  /* "-" = stdout */
    char out_dir[RL_ARGS_PATH_MAX + 1];   /* --out-dir: folder of the default output name ("" = the input's) */
    int  bad_value;       /* a numeric option was NaN, infinite or too large */
    int  silent;          /* lame's scale: 0 default, 1 stdin, 5 -S, 9 --silent, 10 --quiet, -5 --brief, -10 --verbose */
    int  nohist;          /* --nohist: no bitrate histogram under the progress line */
    int  threads;         /* --threads N, 1..1024 (0 = not given: the CPUs we may run on) */
    int  sequential;      /* --sequential: the ring inline on one thread, no I/O thread */
    char trace_path[RL_ARGS_PATH_MAX + 1];  /* --trace FILE: the run's timeline ("" = none) */
    int  batch;           /* --batch: every positional argument is an input (batch.h) */
    int  force;           /* --force: --batch redoes the files its manifest says are done */
    int  shard_k, shard_n; /* --shard K/N: --batch encodes share K of N (shard_n 0: all) */
    int  merge_manifests; /* --merge-manifests: --batch joins the shards' manifest parts */
    int  n_inputs;        /* --batch, --nogap: the inputs, as indices into the caller's argv */
    int  input_argi[RL_ARGS_MAX_ARGV];
    int  nogap;           /* --nogap: the names after it are a gapless set (input_argi, n_inputs) */
    int  nogap_tags;      /* --nogaptags or -T: each file of the set keeps its LAME tag */
    char nogap_dir[RL_ARGS_PATH_MAX + 1];  /* the set's output folder ("" = beside each input) */
    int  compare;         /* --compare: also encode with lame and compare the two outputs */
    char lame_path[RL_ARGS_PATH_MAX + 1];  /* --lame PATH ("" = lame on PATH) */
    char compare_to[RL_ARGS_PATH_MAX + 1]; /* --compare-to REF.mp3 ("" = none) */
    /* where the parsed argv (not LAMEOPT) held what lame must not see:
     * the input and output names (0: not in argv) and ringlame's own
     * options with their values (own_arg[i] != 0) */
    int  in_argi, out_argi;
    int  out_given;       /* the output was named (out_path is not lame's default) */
    int  own_token;       /* internal: the option just parsed is ringlame's own */
    unsigned char own_arg[RL_ARGS_MAX_ARGV];
    int  autoconvert;     /* -a */
    int  noreplaygain;    /* --noreplaygain given */
    int  clipdetect;      /* --clipdetect: print lame's clipping verdict at the end */
    int  input_samplerate; /* -s (Hz), 0 = from the file header; overrides the header like lame */
    int  ignore_length;   /* --ignorelength: a WAV on stdin is read to EOF */
    /* raw PCM (-r) description (lame's global_raw_pcm / global_reader) */
    int  raw_input;       /* -r */
    int  raw_bitwidth;    /* --bitwidth, 16 */
    int  raw_signed;      /* --signed 1 / --unsigned 0, -1 = neither given */
    int  raw_big_endian;  /* --big-endian / --little-endian, 0 */
    int  raw_swapbytes;   /* -x */
    /* MPEG input and decoding */
    int  mpeg_input;      /* --mp1input .. --mp3input: 1..3 (RlRawFormat.mpeg); 0 = by the file name */
    int  decode;          /* --decode: MP3 in, WAV (or raw with -t) out */
    int  decode_raw;      /* -t (undone by -T): --decode writes no WAV header */
    int  mpeg_delay, mpeg_delay_set;  /* --decode-mp3delay n */
    /* ID3 tags: the tag lame's --t* options build, in argv order */
    RlId3Tag id3;
    int  id3_latin1;      /* --id3v2-latin1 was the last encoding option (else UTF-16) */
    int  id3_mode;        /* 0, 1 after --id3v1-only, 2 after --id3v2-only (lame's messages) */
    int  ignore_tag_errors; /* --ignore-tag-errors */
    int  id3_used;        /* a tag option was given */
    char art_path[RL_ARGS_PATH_MAX + 1];  /* --ti: the picture ("" = none), read again to encode */
} RlArgs;

enum {
    RL_ARGS_OK = 0,       /* encode */
    RL_ARGS_EXIT = 1,     /* help/version printed: exit 0 */
    RL_ARGS_ERROR = -1    /* usage error printed, or lame's help that exits 1
                             (-?, --preset help): exit 1 */
};

/* Parses argv (argv[0] is the program name).  `lameopt` (the LAMEOPT
 * environment variable, may be NULL) is split into tokens (blanks separate,
 * "double quotes" group) that are inserted before argv[1..].  Help and
 * version go to `out`, warnings and errors to `err`.  Returns RL_ARGS_*. */
int rl_args_parse(RlArgs *a, int argc, char **argv, const char *lameopt, FILE *out, FILE *err);

/* lame's default output name (generateOutPath): a known audio suffix is
 * replaced by ".mp3", anything else gets ".mp3" appended.  Without an
 * out_dir (NULL or "") the output goes next to the input and an ".mp3"
 * input keeps its suffix (x.mp3 -> x.mp3.mp3); with one it goes into
 * out_dir and ".mp3" is replaced too.  Returns 0, or -1 if the name does
 * not fit in outlen bytes. */
int rl_args_default_output(const char *in_path, const char *out_dir, char *out, size_t outlen);
/* the same with another suffix than ".mp3" (--decode: ".wav") */
int rl_args_default_output_ext(const char *in_path, const char *out_dir, const char *new_ext,
                               char *out, size_t outlen);

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
int  rl_args_tags_build(const RlArgs *a, int64_t frames, int samplerate_in,
                        const uint8_t *input_v2, size_t input_v2_len, RlArgsTags *t,
                        char *why, size_t whylen);
void rl_args_tags_free(RlArgsTags *t);

/* Help texts (args_help.c). */
void rl_args_print_lame_version(FILE *fp);  /* "LAME 64bits version 3.100 (...)" and a blank line */
void rl_args_print_usage(FILE *fp, const char *prog);  /* lame's usage(); prog: argv[0] */
void rl_args_print_help(FILE *fp);          /* --help */
void rl_args_print_longhelp(FILE *fp);      /* --longhelp, -? */
void rl_args_print_dev_help(FILE *fp);      /* --help dev */
void rl_args_print_id3_help(FILE *fp);      /* --help id3 */
void rl_args_print_preset_help(FILE *fp);   /* --preset help */
void rl_args_print_version(FILE *fp);

/* The input description for rl_pcm_open from the parsed options (raw
 * PCM layout, -s, --ignorelength), as lame's front end derives it. */
void rl_args_raw_format(const RlArgs *a, RlRawFormat *raw);

/* What lame's front end takes from the input (its header, or what a
 * program says it sends) into *opt: the channel count, and the sample rate
 * unless -s gave one.  0, or -EINVAL with the reason ("unsupported number
 * of channels: 3") in why. */
int rl_args_apply_input(const RlArgs *a, RlOptions *opt, int channels, int samplerate,
                        char *why, size_t whylen);

#endif
