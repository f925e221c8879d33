/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the command line (lame's frontend/parse.c for the command):
 * the file names, lame's console switches, --nogap and --decode, LAMEOPT,
 * and ringlame's own options (--batch, --out-dir, --shard, --compare,
 * --trace, --threads, --sequential, --simd, RINGLAME_SIMD).  Every other
 * option goes to lame's grammar for the encoder's settings (lame_args.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_CLI_ARGS_H
#define RL_CLI_ARGS_H

#include <stdio.h>

#include "lame_args.h"

#define RL_ARGS_MAX_ARGV 512   /* LAMEOPT tokens and arguments together */
#define RL_ARGS_MAX_NOGAP 200  /* files in a --nogap set (lame's MAX_NOGAP) */

typedef struct RlArgs {
    RlLameSettings lame;               /* lame's options: the encoder's settings */
    char in_path[RL_ARGS_PATH_MAX + 1];   /* "-" = stdin */
    char out_path[RL_ARGS_PATH_MAX + 1];  /* "-" = stdout */
    char out_dir[RL_ARGS_PATH_MAX + 1];   /* --out-dir: folder of the default output name ("" = the input's) */
    int  nohist;          /* --nohist: no bitrate histogram under the progress line */
    int  threads;         /* --threads N (0 = not given: the CPUs we may run on) */
    int  sequential;      /* --sequential: the ring inline on one thread, no I/O thread */
    char trace_path[RL_ARGS_PATH_MAX + 1];  /* --trace FILE: the run's timeline ("" = none) */
    int  batch;           /* --batch: every positional argument is an input (batch.h) */
    int  force;           /* --force: --batch redoes the files its manifest says are done */
    int  shard_k, shard_n; /* --shard K/N: --batch encodes share K of N (shard_n 0: all) */
    int  merge_manifests; /* --merge-manifests: --batch joins the shards' manifest parts */
    double stall_timeout; /* --stall-timeout S: --batch gives up a file after S s without progress (-1: not given) */
    int  n_inputs;        /* --batch, --nogap: the inputs, as indices into the caller's argv */
    int  input_argi[RL_ARGS_MAX_ARGV];
    int  nogap;           /* --nogap: the names after it are a gapless set (input_argi, n_inputs) */
    int  nogap_tags;      /* --nogaptags or -T: each file of the set keeps its LAME tag */
    char nogap_dir[RL_ARGS_PATH_MAX + 1];  /* the set's output folder ("" = beside each input) */
    int  decode;          /* --decode: MP3 in, WAV (or raw with -t) out */
    int  decode_raw;      /* -t (undone by -T): --decode writes no WAV header */
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
} RlArgs;

/* Parses argv (argv[0] is the program name).  `lameopt` (the LAMEOPT
 * environment variable, may be NULL) is split into tokens (blanks separate,
 * "double quotes" group) that are inserted before argv[1..]; `simd_env`
 * (RINGLAME_SIMD, may be NULL) lowers the SIMD level.  Help and version go
 * to `out`, warnings and errors to `err`.  Returns RL_ARGS_OK, RL_ARGS_EXIT
 * or RL_ARGS_ERROR. */
int rl_args_parse(RlArgs *a, int argc, char **argv, const char *lameopt, const char *simd_env,
                  FILE *out, FILE *err);

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

/* Help texts (cli_help.c). */
void rl_args_print_usage(FILE *fp, const char *prog);  /* lame's usage(); prog: argv[0] */
void rl_args_print_help(FILE *fp);          /* --help */
void rl_args_print_longhelp(FILE *fp);      /* --longhelp, -? */
void rl_args_print_dev_help(FILE *fp);      /* --help dev */
void rl_args_print_id3_help(FILE *fp);      /* --help id3 */
void rl_args_print_version(FILE *fp);

#endif
