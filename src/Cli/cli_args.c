/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the command line (cli_args.h): lame's argument walk (LAMEOPT
 * tokens first, names in order, "-" for stdin/stdout), the command's own
 * options, and lame's grammar for the rest (lame_args.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "cli_args.h"
#include "simd.h"
#include "thread_policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PROG "ringlame"
#define MAX_ARGS RL_ARGS_MAX_ARGV
#define RL_STR_(x) #x
#define RL_STR(x) RL_STR_(x)
/* lame's ProgramName, for the calling thread (lame_args.h) */
#define prog_name rl_lame_prog_name()

static int str_ieq(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

/* The short letters that are the command's: -S (lame's console switch)
 * and -? (lame's long help, exit 1). */
static int short_command(void *ctx, char letter, FILE *out, FILE *err)
{
    RlArgs *a = ctx;
    (void) err;
    if (letter == 'S') {
        a->lame.silent = 5;
        return RL_ARGS_OK;
    }
    if (letter == '?') {
        rl_args_print_longhelp(out);
        return RL_ARGS_ERROR;   /* lame exits with 1 after it */
    }
    return RL_ARGS_NOT_LAME;
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

/* The command's long options: lame's console switches, files and
 * information, and ringlame's own (own_token).  NOT_LAME: lame's grammar
 * for the encoder takes it, or nobody. */
static int long_command(RlArgs *a, const char *token, int i, int argc, char **argv,
                        int *used, FILE *out, FILE *err)
{
    const char *next = i + 1 < argc ? argv[i + 1] : "";

    if (str_ieq(token, "quiet")) {
        a->lame.silent = 10;
    }
    else if (str_ieq(token, "silent")) {
        a->lame.silent = 9;
    }
    else if (str_ieq(token, "brief")) {
        a->lame.silent = -5;
    }
    else if (str_ieq(token, "verbose")) {
        a->lame.silent = -10;
    }
    else if (str_ieq(token, "nohist")) {
        a->nohist = 1;
    }
    else if (str_ieq(token, "flush")) {
        /* every write is complete anyway */
    }
    else if (str_ieq(token, "nogaptags")) {
        a->nogap_tags = 1;
    }
    else if (str_ieq(token, "nogap")) {
        a->nogap = 1;           /* the names that follow are the set's files */
    }
    else if (str_ieq(token, "nogapout")) {
        if (strlen(next) >= RL_ARGS_PATH_MAX) {
            fprintf(err, "%s: --nogapout: folder name too long\n", prog_name);
            return RL_ARGS_ERROR;
        }
        snprintf(a->nogap_dir, sizeof(a->nogap_dir), "%s", next);
        *used = 1;
    }
    else if (str_ieq(token, "disptime")) {
        double dv;              /* ringlame's progress keeps its own pace */
        *used = rl_lame_number_arg(&a->lame, token, next, &dv, err);
    }
    else if (str_ieq(token, "out-dir")) {
        if (strlen(next) >= RL_ARGS_PATH_MAX) {
            fprintf(err, "%s: --out-dir: folder name too long\n", prog_name);
            return RL_ARGS_ERROR;
        }
        snprintf(a->out_dir, sizeof(a->out_dir), "%s", next);
        *used = 1;
    }
    else if (str_ieq(token, "trace")) {
        if (*next == '\0') {
            fprintf(err, "%s: --trace needs a file name\n", prog_name);
            return RL_ARGS_ERROR;
        }
        if (strlen(next) >= RL_ARGS_PATH_MAX) {
            fprintf(err, "%s: --trace: file name too long\n", prog_name);
            return RL_ARGS_ERROR;
        }
        snprintf(a->trace_path, sizeof(a->trace_path), "%s", next);
        a->own_token = 1;
        *used = 1;
    }
    else if (str_ieq(token, "sequential")) {
        a->sequential = 1;
        a->own_token = 1;
    }
    else if (str_ieq(token, "batch") || str_ieq(token, "force")) {
        if (str_ieq(token, "batch"))
            a->batch = 1;
        else
            a->force = 1;
        a->own_token = 1;
    }
    else if (str_ieq(token, "shard")) {
        char *end = NULL, *end2 = NULL;
        long k = -1, n = 0;
        if (*next >= '0' && *next <= '9') {
            k = strtol(next, &end, 10);
            if (*end == '/' && end[1] >= '0' && end[1] <= '9')
                n = strtol(end + 1, &end2, 10);
        }
        if (!end2 || *end2 != '\0' || n < 1 || n > 100000 || k < 0 || k >= n) {
            if (*next == '\0')
                fprintf(err, "%s: --shard needs K/N (0 <= K < N <= 100000)\n", prog_name);
            else
                fprintf(err, "%s: --shard %s: not K/N with 0 <= K < N <= 100000\n", prog_name, next);
            return RL_ARGS_ERROR;
        }
        a->shard_k = (int) k;
        a->shard_n = (int) n;
        a->own_token = 1;
        *used = 1;
    }
    else if (str_ieq(token, "stall-timeout")) {
        char *end = NULL;
        double const v = strtod(next, &end);
        if (end == next || *end != '\0' || !(v >= 0 && v <= 86400)) {
            fprintf(err, "%s: --stall-timeout %s: not a number of seconds (0 to 86400; 0: none)\n",
                    prog_name, next);
            return RL_ARGS_ERROR;
        }
        a->stall_timeout = v;
        a->own_token = 1;
        *used = 1;
    }
    else if (str_ieq(token, "merge-manifests")) {
        a->merge_manifests = 1;
        a->own_token = 1;
    }
    else if (str_ieq(token, "compare")) {
        a->compare = 1;
        a->own_token = 1;
    }
    else if (str_ieq(token, "lame") || str_ieq(token, "compare-to")) {
        int const lame = str_ieq(token, "lame");
        if (*next == '\0' || strlen(next) > RL_ARGS_PATH_MAX) {
            fprintf(err, "%s: --%s needs a file name\n", prog_name, lame ? "lame" : "compare-to");
            return RL_ARGS_ERROR;
        }
        snprintf(lame ? a->lame_path : a->compare_to, RL_ARGS_PATH_MAX + 1, "%s", next);
        a->compare = 1;
        a->own_token = 1;
        *used = 1;
    }
    else if (str_ieq(token, "threads")) {
        char *end = NULL;
        long const n = strtol(next, &end, 10);
        if (end == next || *end != '\0' || n < 1 || n > RL_THREADS_MAX) {
            if (*next == '\0')
                fprintf(err, "%s: --threads needs a number of worker threads (1 to " RL_STR(RL_THREADS_MAX) ")\n", prog_name);
            else
                fprintf(err, "%s: --threads %s: not a number of worker threads (1 to " RL_STR(RL_THREADS_MAX) ")\n", prog_name, next);
            return RL_ARGS_ERROR;
        }
        a->threads = (int) n;
        a->own_token = 1;
        *used = 1;
    }
    else if (str_ieq(token, "simd")) {
        int const cpu = rl_cpu_simd_level();
        int const level = rl_simd_parse(next);
        if (level < 0) {
            if (*next == '\0')
                fprintf(err, "%s: --simd needs a level (scalar, sse4.1, avx2 or avx512)\n", prog_name);
            else
                fprintf(err, "%s: --simd %s: not a level (scalar, sse4.1, avx2 or avx512)\n", prog_name, next);
            return RL_ARGS_ERROR;
        }
        if (level > cpu) {
            fprintf(err, "%s: --simd %s: this CPU (or build) does not have it; its best is %s\n", prog_name,
                    rl_simd_name(level), rl_simd_name(cpu));
            return RL_ARGS_ERROR;
        }
        (void) rl_lame_settings_set_simd(&a->lame, level);
        a->own_token = 1;
        *used = 1;
    }
    else if (str_ieq(token, "version") || str_ieq(token, "license")) {
        rl_args_print_version(out);
        return RL_ARGS_EXIT;
    }
    else if (str_ieq(token, "help") || str_ieq(token, "usage")) {
        if (strncasecmp(next, "id3", 3) == 0)
            rl_args_print_id3_help(out);
        else if (strncasecmp(next, "dev", 3) == 0)
            rl_args_print_dev_help(out);
        else
            rl_args_print_help(out);
        return RL_ARGS_EXIT;
    }
    else if (str_ieq(token, "longhelp") || str_ieq(token, "?")) {
        rl_args_print_longhelp(out);
        return RL_ARGS_EXIT;
    }
    else if (str_ieq(token, "decode")) {
        a->decode = 1;
    }
    else {
        return RL_ARGS_NOT_LAME;
    }
    return RL_ARGS_OK;
}

/* Index i of the merged list in the caller's argv (LAMEOPT's ntok tokens
 * come first): 0 for a LAMEOPT token. */
static int user_index(int i, int ntok)
{
    return i > ntok ? i - ntok : 0;
}

static int parse_argv(RlArgs *a, int argc, char **argv, int ntok, FILE *out, FILE *err)
{
    int have_input = 0;

    for (int i = 1; i < argc; i++) {
        const char *token = argv[i];
        if (token[0] == '-') {
            token++;
            if (*token == '\0' && a->batch) {
                fprintf(err, "%s: --batch reads files, not stdin (-)\n", prog_name);
                return RL_ARGS_ERROR;
            }
            if (*token == '\0') {           /* "-": stdin, then stdout */
                have_input = 1;
                if (a->in_path[0] == '\0') {
                    snprintf(a->in_path, sizeof(a->in_path), "%s", argv[i]);
                    a->in_argi = user_index(i, ntok);
                }
                else if (a->out_path[0] == '\0') {
                    snprintf(a->out_path, sizeof(a->out_path), "%s", argv[i]);
                    a->out_argi = user_index(i, ntok);
                }
                continue;
            }
            if (*token == '-') {
                int used = 0, r;
                token++;
                a->own_token = 0;
                r = long_command(a, token, i, argc, argv, &used, out, err);
                if (r == RL_ARGS_NOT_LAME)
                    r = rl_lame_long_option(&a->lame, token, i, argc, argv, &used, out, err);
                if (r == RL_ARGS_NOT_LAME) {
                    fprintf(err, "%s: unrecognized option --%s\n", prog_name, token);
                    return RL_ARGS_ERROR;
                }
                if (r != RL_ARGS_OK)
                    return r;
                for (int k = i; a->own_token && k <= i + used && k < argc; k++)
                    a->own_arg[user_index(k, ntok)] = 1;
                i += used;
            }
            else {
                int const r = rl_lame_short_options(&a->lame, token, &i, argc, argv, short_command,
                                                    a, out, err);
                if (r != RL_ARGS_OK)
                    return r;
            }
            if (a->lame.bad_value)
                return RL_ARGS_ERROR;   /* the message named the option */
        }
        else {
            if (strlen(argv[i]) > RL_ARGS_PATH_MAX) {
                fprintf(err, "%s: file name too long: %s\n", prog_name, argv[i]);
                return RL_ARGS_ERROR;
            }
            if (a->nogap) {         /* after --nogap every name is a file of the set */
                if (user_index(i, ntok) == 0) {
                    fprintf(err, "%s: --nogap: LAMEOPT cannot name inputs (%s)\n", prog_name, argv[i]);
                    return RL_ARGS_ERROR;
                }
                if (a->n_inputs >= RL_ARGS_MAX_NOGAP) {
                    fprintf(err, "%s: --nogap: at most %d files in a set (lame's limit)\n", prog_name,
                            RL_ARGS_MAX_NOGAP);
                    return RL_ARGS_ERROR;
                }
                a->input_argi[a->n_inputs++] = user_index(i, ntok);
                have_input = 1;
            }
            else if (a->batch) {    /* every name is an input */
                if (user_index(i, ntok) == 0) {
                    fprintf(err, "%s: --batch: LAMEOPT cannot name inputs (%s)\n", prog_name, argv[i]);
                    return RL_ARGS_ERROR;
                }
                a->input_argi[a->n_inputs++] = user_index(i, ntok);
                if (a->in_path[0] == '\0') {
                    snprintf(a->in_path, sizeof(a->in_path), "%s", argv[i]);
                    a->in_argi = user_index(i, ntok);
                }
                have_input = 1;
            }
            else if (a->in_path[0] == '\0') {
                snprintf(a->in_path, sizeof(a->in_path), "%s", argv[i]);
                a->in_argi = user_index(i, ntok);
                have_input = 1;
            }
            else if (a->out_path[0] == '\0') {
                snprintf(a->out_path, sizeof(a->out_path), "%s", argv[i]);
                a->out_argi = user_index(i, ntok);
            }
            else {
                fprintf(err, "%s: excess arg %s\n", prog_name, argv[i]);
                return RL_ARGS_ERROR;
            }
        }
    }

    if (!have_input && !(a->batch && a->merge_manifests && a->out_dir[0])) {
        rl_args_print_usage(err, prog_name);
        return RL_ARGS_ERROR;
    }
    return RL_ARGS_OK;
}

/* --nogap's rules (lame's parse_args / lame_main): the output folder is
 * --nogapout's, else an output name given before --nogap, else --out-dir's
 * ("": beside each input); the LAME tag is dropped unless --nogaptags or
 * -T keeps it.  A name before --nogap, and "-", are ignored as lame ignores
 * them; --batch and --compare are refused. */
static int nogap_finish(RlArgs *a, FILE *err)
{
    if (a->batch || a->compare) {
        fprintf(err, "%s: --nogap cannot be combined with --%s\n", prog_name, a->batch ? "batch" : "compare");
        return RL_ARGS_ERROR;
    }
    if (a->in_path[0] != '\0') {
        /* lame takes a name before --nogap, and "-" anywhere, as its single
         * input, which a set never reads (only "-" makes it quieter) */
        fprintf(err, "%s: --nogap: '%s' is not a file of the set (%s): ignored, as lame ignores it\n",
                prog_name, a->in_path,
                strcmp(a->in_path, "-") == 0 ? "'-' is never one" : "it comes before --nogap");
        a->in_path[0] = '\0';
    }
    if (a->nogap_dir[0] == '\0')
        snprintf(a->nogap_dir, sizeof a->nogap_dir, "%s", a->out_path[0] ? a->out_path : a->out_dir);
    if (!a->nogap_tags && a->lame.opt.write_lame_tag) {
        /* lame prints it even with --quiet */
        fprintf(err, "Note: Disabling VBR Xing/Info tag since it interferes with --nogap\n");
        (void) rl_set_write_lame_tag(&a->lame.opt, 0);
    }
    return RL_ARGS_OK;
}

static int args_parse(RlArgs *a, int argc, char **argv, const char *lameopt, const char *simd_env,
                      FILE *out, FILE *err)
{
    char *env = NULL;
    char *merged[MAX_ARGS];
    char *tok[MAX_ARGS];
    int ntok = 0, n = 0, r;

    memset(a, 0, sizeof(*a));
    a->stall_timeout = -1;
    rl_lame_settings_init(&a->lame);

    /* LAMEOPT tokens go between argv[0] and the user's arguments */
    if (lameopt) {
        env = strdup(lameopt);
        if (!env) {
            fprintf(err, "%s: out of memory\n", prog_name);
            return RL_ARGS_ERROR;
        }
        ntok = split_tokens(env, tok, MAX_ARGS - 1);
    }
    merged[n++] = argc > 0 ? argv[0] : (char *) PROG;
    for (int k = 0; k < ntok && n < MAX_ARGS; k++)
        merged[n++] = tok[k];
    for (int k = 1; k < argc && n < MAX_ARGS; k++)
        merged[n++] = argv[k];

    /* --batch changes what the names are: known before they are seen */
    for (int k = 1; k < n; k++)
        if (str_ieq(merged[k], "--batch"))
            a->batch = 1;
    r = parse_argv(a, n, merged, ntok, out, err);
    free(env);
    if (r != RL_ARGS_OK)
        return r;

    if (a->in_path[0] == '-' && a->lame.silent == 0)
        a->lame.silent = 1;         /* like lame: stdin input is quieter */
    /* -t and -T beyond the tag: --decode's header, --nogap's tags */
    a->decode_raw = a->lame.tag_last == 't';
    if (a->lame.tag_T)
        a->nogap_tags = 1;

    /* RINGLAME_SIMD lowers the level (--simd's, else the CPU's best) */
    if (simd_env != NULL && *simd_env != '\0') {
        int const cpu = rl_cpu_simd_level();
        int const level = rl_simd_parse(simd_env);
        if (level < 0) {
            fprintf(err, "%s: RINGLAME_SIMD=%s: not a level (scalar, sse4.1, avx2 or avx512)\n", prog_name,
                    simd_env);
            return RL_ARGS_ERROR;
        }
        if (level > cpu) {
            fprintf(err, "%s: RINGLAME_SIMD=%s: this CPU (or build) does not have it; its best is %s\n", prog_name,
                    rl_simd_name(level), rl_simd_name(cpu));
            return RL_ARGS_ERROR;
        }
        if (a->lame.opt.simd_level < 0 || level < a->lame.opt.simd_level)
            (void) rl_lame_settings_set_simd(&a->lame, level);
    }

    a->own_arg[0] = 0;              /* index 0 stands for "not in argv" */
    if (a->force && !a->batch) {
        fprintf(err, "%s: --force is an option of --batch\n", prog_name);
        return RL_ARGS_ERROR;
    }
    if ((a->shard_n || a->merge_manifests || a->stall_timeout >= 0) && !a->batch) {
        fprintf(err, "%s: --%s is an option of --batch\n", prog_name,
                a->shard_n ? "shard" : a->merge_manifests ? "merge-manifests" : "stall-timeout");
        return RL_ARGS_ERROR;
    }
    if (a->nogap && a->decode) {
        fprintf(err, "combination of nogap and decode not supported!\n");   /* lame's words */
        return RL_ARGS_ERROR;
    }
    if (a->nogap) {
        int const rc = nogap_finish(a, err);
        if (rc != RL_ARGS_OK)
            return rc;
    }
    a->out_given = a->out_path[0] != '\0';
    if (a->nogap) {
        /* every file's name is made by the command (rl_args_default_output) */
    }
    else if (a->out_path[0] == '\0') {
        if (a->in_path[0] == '-' && a->in_path[1] == '\0')
            strcpy(a->out_path, "-");
        else if (rl_args_default_output_ext(a->in_path, a->out_dir, a->decode ? ".wav" : ".mp3",
                                            a->out_path, sizeof(a->out_path)) != 0) {
            fprintf(err, "%s: output file name too long\n", prog_name);
            return RL_ARGS_ERROR;
        }
    }

    if (a->out_path[0] == '-')      /* no tag frame on stdout, even with -T */
        (void) rl_set_write_lame_tag(&a->lame.opt, 0);
    return rl_lame_settings_finish(&a->lame, err);
}

int rl_args_parse(RlArgs *a, int argc, char **argv, const char *lameopt, const char *simd_env,
                  FILE *out, FILE *err)
{
    int r;
    rl_lame_set_prog_name(argc > 0 && argv[0] ? argv[0] : NULL);
    r = args_parse(a, argc, argv, lameopt, simd_env, out, err);
    rl_lame_set_prog_name(NULL);    /* argv[0] may not outlive the call */
    return r;
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

int rl_args_default_output(const char *in, const char *out_dir, char *out, size_t outlen)
{
    return rl_args_default_output_ext(in, out_dir, ".mp3", out, outlen);
}

int rl_args_default_output_ext(const char *in, const char *out_dir, const char *new_ext, char *out,
                               size_t outlen)
{
    const char *s, *dir = in, *dir_end = in;
    const char *base = in, *ext = in;
    size_t len = 0;
    int const use_dir = out_dir && out_dir[0] != '\0';

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
    if (use_dir) {
        dir = out_dir;
        dir_end = out_dir + strlen(out_dir);
        if (dir_end[-1] == '/')
            --dir_end;          /* lame adds the '/' only when it is missing */
    }

    size_t const ndir = (size_t) (dir_end - dir);
    size_t const nbase = (size_t) (ext - base);
    int const slash = ndir > 0 || (use_dir && out_dir[0] == '/');
    /* lame keeps the input's suffix when it is the new one, next to the input */
    int const replace = is_common_suffix(ext) && (use_dir || !str_ieq(ext, new_ext));
    size_t const next = replace ? 0 : strlen(ext);
    size_t const nnew = strlen(new_ext);
    size_t const need = ndir + (size_t) slash + nbase + next + nnew + 1;
    if (need > outlen)
        return -1;
    memcpy(out + len, dir, ndir);
    len += ndir;
    if (slash)
        out[len++] = '/';
    memcpy(out + len, base, nbase);
    len += nbase;
    memcpy(out + len, ext, next);
    len += next;
    memcpy(out + len, new_ext, nnew + 1);
    return 0;
}

