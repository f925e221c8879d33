/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: unit test of lame's option parsing details (frontend/parse.c):
 * which options take an argument and when, the short options -X/-Z/-e/-T,
 * the level options, presets and their old names, --freeformat's bitrate
 * rule, the developer-only switches, --out-dir and the help exits.  The
 * byte identity of each option is checked by tests/identity/options.sh.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "cli_args.h"

static char out_text[8192], err_text[2048];

/* Parses a blank-separated command line (without the program name); the
 * help output and the messages land in out_text / err_text. */
static int parse(RlArgs *a, const char *cmd)
{
    char buf[512], *argv[64];
    int argc = 0, rc;
    FILE *out, *err;

    argv[argc++] = (char *) "ringlame";
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *t = strtok(buf, " "); t && argc < 64; t = strtok(NULL, " "))
        argv[argc++] = t;
    memset(out_text, 0, sizeof out_text);
    memset(err_text, 0, sizeof err_text);
    out = fmemopen(out_text, sizeof out_text - 1, "w");
    err = fmemopen(err_text, sizeof err_text - 1, "w");
    rc = rl_args_parse(a, argc, argv, NULL, getenv("RINGLAME_SIMD"), out, err);
    fclose(out);
    fclose(err);
    return rc;
}

static int near(double x, double y)
{
    return fabs(x - y) < 1e-5 * fabs(y) + 1e-9;
}

static void short_options(RlArgs *a)
{
    /* -Z [n]: the level only when a number follows */
    CHECK(parse(a, "-Z in.wav") == RL_ARGS_OK && a->lame.opt.experimental_z == 1
          && strcmp(a->in_path, "in.wav") == 0, "-Z without a level");
    CHECK(parse(a, "-Z 3 in.wav") == RL_ARGS_OK && a->lame.opt.experimental_z == 3
          && strcmp(a->in_path, "in.wav") == 0, "-Z 3");
    CHECK(parse(a, "-Z3 in.wav") == RL_ARGS_OK && a->lame.opt.experimental_z == 3, "-Z3");
    CHECK(parse(a, "-ZV2 in.wav") == RL_ARGS_OK && a->lame.opt.experimental_z == 1 && a->lame.opt.vbr_q == 2,
          "-ZV2: V2 is not -Z's level");
    /* -X n[,m]: always takes its argument (the rest of the bundle too) */
    CHECK(parse(a, "-X 3 in.wav") == RL_ARGS_OK && strcmp(a->in_path, "in.wav") == 0, "-X 3");
    CHECK(parse(a, "-X in.wav out.mp3") == RL_ARGS_OK && strcmp(a->in_path, "out.mp3") == 0,
          "-X takes the next entry, whatever it is");
    CHECK(parse(a, "-Xh in.wav") == RL_ARGS_OK && a->lame.opt.quality == -1, "-Xh: h is -X's argument");
    /* -d, -k: obsolete, warn only */
    CHECK(parse(a, "-dk in.wav") == RL_ARGS_OK && strstr(err_text, "-d is obsolete")
          && strstr(err_text, "-k is obsolete"), "-d -k warn");
    /* -e, -c, -o */
    CHECK(parse(a, "-e 5 in.wav") == RL_ARGS_OK && a->lame.opt.emphasis == 1, "-e 5");
    CHECK(parse(a, "-ec in.wav") == RL_ARGS_OK && a->lame.opt.emphasis == 3, "-ec");
    CHECK(parse(a, "-e5 -e n in.wav") == RL_ARGS_OK && a->lame.opt.emphasis == 0, "-e n");
    CHECK(parse(a, "-e x in.wav") == RL_ARGS_ERROR && strstr(err_text, "n/5/c"), "-e x refused");
    CHECK(parse(a, "-co in.wav") == RL_ARGS_OK && a->lame.opt.copyright == 1 && a->lame.opt.original == 0, "-c -o");
    /* -Y, -t / -T */
    CHECK(parse(a, "-Y in.wav") == RL_ARGS_OK && a->lame.opt.experimental_y == 1, "-Y");
    CHECK(parse(a, "-t -T in.wav") == RL_ARGS_OK && a->lame.opt.write_lame_tag == 1, "-T after -t");
    CHECK(parse(a, "-T -t in.wav") == RL_ARGS_OK && a->lame.opt.write_lame_tag == 0, "-t after -T");
    CHECK(parse(a, "-T in.wav -") == RL_ARGS_OK && a->lame.opt.write_lame_tag == 0, "-T: still none on stdout");
    /* -? prints the long help and exits with 1, like lame */
    CHECK(parse(a, "-? in.wav") == RL_ARGS_ERROR && strstr(out_text, "--swap-channel"), "-?");
}

static void level_options(RlArgs *a)
{
    CHECK(parse(a, "--scale 0.5 --scale-l 0.25 --scale-r 3 in.wav") == RL_ARGS_OK
          && a->lame.opt.scale == 0.5f && a->lame.opt.scale_left == 0.25f && a->lame.opt.scale_right == 3.f, "--scale*");
    CHECK(parse(a, "--gain 6 in.wav") == RL_ARGS_OK && near(a->lame.opt.scale, 1.99526231), "--gain 6");
    CHECK(parse(a, "--gain 30 in.wav") == RL_ARGS_OK && near(a->lame.opt.scale, 3.98107171), "--gain clamps to 12");
    CHECK(parse(a, "--gain -40 in.wav") == RL_ARGS_OK && near(a->lame.opt.scale, 0.1), "--gain clamps to -20");
    CHECK(parse(a, "--gain x.wav") == RL_ARGS_OK && strcmp(a->in_path, "x.wav") == 0
          && a->lame.opt.scale == 1.f && strstr(err_text, "argument missing for 'gain'"), "--gain without a number");
    CHECK(parse(a, "--swap-channel in.wav") == RL_ARGS_OK && a->lame.opt.swap_channels == 1, "--swap-channel");
    CHECK(parse(a, "--athaa-sensitivity 4.5 in.wav") == RL_ARGS_OK && a->lame.opt.athaa_sensitivity == 4.5f,
          "--athaa-sensitivity");
    CHECK(parse(a, "--ignorelength - x.mp3") == RL_ARGS_OK && a->lame.ignore_length == 1, "--ignorelength");
}

static void stream_options(RlArgs *a)
{
    CHECK(parse(a, "--buffer-constraint default in.wav") == RL_ARGS_OK
          && a->lame.opt.strict_iso == RL_MDB_DEFAULT, "--buffer-constraint default");
    CHECK(parse(a, "--buffer-constraint strict in.wav") == RL_ARGS_OK
          && a->lame.opt.strict_iso == RL_MDB_STRICT_ISO, "--buffer-constraint strict");
    CHECK(parse(a, "--strictly-enforce-ISO --buffer-constraint maximum in.wav") == RL_ARGS_OK
          && a->lame.opt.strict_iso == RL_MDB_MAXIMUM, "--buffer-constraint maximum");
    CHECK(parse(a, "--buffer-constraint Strict in.wav") == RL_ARGS_ERROR, "constraint names are case-sensitive");
    CHECK(parse(a, "--buffer-constraint") == RL_ARGS_ERROR, "--buffer-constraint without a name");
    CHECK(parse(a, "--noasm sse in.wav") == RL_ARGS_OK && strcmp(a->in_path, "in.wav") == 0,
          "--noasm takes its argument");
    CHECK(parse(a, "--comp 5 in.wav") == RL_ARGS_OK && a->lame.opt.compression_ratio == 5.f, "--comp 5");
    CHECK(parse(a, "--comp 0.9 in.wav") == RL_ARGS_ERROR && strstr(err_text, "1.0"), "--comp < 1 refused");
    CHECK(parse(a, "--comp x.wav") == RL_ARGS_OK && strcmp(a->in_path, "x.wav") == 0
          && a->lame.opt.compression_ratio == 0.f, "--comp without a number");
    /* free format needs -b 8..640 (a bitrate preset gives one) */
    CHECK(parse(a, "--freeformat in.wav") == RL_ARGS_ERROR && strstr(err_text, "--freeformat"),
          "--freeformat without -b");
    CHECK(parse(a, "--freeformat -b 640 in.wav") == RL_ARGS_OK && a->lame.opt.free_format == 1, "-b 640");
    CHECK(parse(a, "--freeformat -b 700 in.wav") == RL_ARGS_ERROR, "--freeformat -b 700");
    CHECK(parse(a, "--freeformat -V2 in.wav") == RL_ARGS_ERROR, "--freeformat -V2 (no bitrate)");
    CHECK(parse(a, "--freeformat --preset 112 in.wav") == RL_ARGS_OK, "--freeformat --preset 112");
    CHECK(parse(a, "--ogginput in.wav") == RL_ARGS_ERROR, "--ogginput");
}

static void presets(RlArgs *a)
{
    static const struct { const char *name; int kbps, mono; } old_names[] = {
        { "phone", 16, 1 }, { "phon+", 24, 1 }, { "lw", 24, 1 }, { "mw-eu", 24, 1 }, { "sw", 24, 1 },
        { "mw-us", 40, 1 }, { "voice", 56, 1 }, { "fm", 112, 0 }, { "radio", 112, 0 },
        { "tape", 112, 0 }, { "hifi", 160, 0 }, { "cd", 192, 0 }, { "studio", 256, 0 },
    };
    char cmd[128];

    for (size_t k = 0; k < sizeof old_names / sizeof old_names[0]; k++) {
        snprintf(cmd, sizeof cmd, "--preset %s in.wav", old_names[k].name);
        CHECK(parse(a, cmd) == RL_ARGS_OK && a->lame.opt.vbr == RL_VBR_ABR
              && a->lame.opt.vbr_mean_bitrate_kbps == old_names[k].kbps
              && (a->lame.opt.mode == RL_MONO) == old_names[k].mono, "%s", cmd);
        snprintf(cmd, sizeof cmd, "--preset cbr %s in.wav", old_names[k].name);
        CHECK(parse(a, cmd) == RL_ARGS_OK && a->lame.opt.vbr == RL_VBR_OFF && a->lame.opt.brate == old_names[k].kbps,
              "%s", cmd);
    }
    CHECK(parse(a, "--preset 128k in.wav") == RL_ARGS_OK && a->lame.opt.vbr_mean_bitrate_kbps == 128,
          "--preset 128k: the number in front counts (atoi)");
    CHECK(parse(a, "--alt-preset cbr fast cbr standard in.wav") == RL_ARGS_OK && a->lame.opt.vbr == RL_VBR_MTRH
          && a->lame.opt.vbr_q == 2 && strcmp(a->in_path, "in.wav") == 0, "fast/cbr words before standard");
    CHECK(parse(a, "--preset 400 in.wav") == RL_ARGS_ERROR
          && strstr(err_text, "out of the valid range for this preset"), "--preset 400: lame's words");
    CHECK(parse(a, "--preset 0 in.wav") == RL_ARGS_ERROR, "--preset 0");
    CHECK(parse(a, "--preset fast 128 in.wav") == RL_ARGS_ERROR, "--preset fast 128");
    CHECK(parse(a, "--preset fast insane in.wav") == RL_ARGS_ERROR, "--preset fast insane");
    CHECK(parse(a, "--preset cbr insane in.wav") == RL_ARGS_OK && a->lame.opt.brate == 320, "--preset cbr insane");
    CHECK(parse(a, "--preset help in.wav") == RL_ARGS_ERROR && strstr(out_text, "phone"),
          "--preset help: on stdout, exit 1");
    CHECK(parse(a, "--preset cbr help in.wav") == RL_ARGS_ERROR && out_text[0] == '\0',
          "--preset cbr help is an unknown preset");
    /* the scale of a bitrate preset is applied at parse time too */
    CHECK(parse(a, "--scale 2 --preset 96 in.wav") == RL_ARGS_OK && a->lame.opt.scale == 2.f * 0.95f,
          "--scale then --preset");
    CHECK(parse(a, "--preset 96 --scale 2 in.wav") == RL_ARGS_OK && a->lame.opt.scale == 2.f,
          "--preset then --scale");
    CHECK(parse(a, "--r3mix in.wav") == RL_ARGS_OK && a->lame.opt.vbr == RL_VBR_MTRH && a->lame.opt.vbr_q == 3
          && a->lame.opt.preset == RL_PRESET_V3 && a->lame.opt.preset_ath_fixpoint == 96.f, "--r3mix");
    CHECK(parse(a, "--r3mix --preset 128 in.wav") == RL_ARGS_OK && a->lame.opt.vbr == RL_VBR_ABR
          && a->lame.opt.preset_ath_fixpoint == 96.f, "an ABR preset keeps r3mix's ATH fix point");
}

static void dev_only(RlArgs *a)
{
    CHECK(parse(a, "--athtype 2 in.wav") == RL_ARGS_OK && strcmp(a->in_path, "in.wav") == 0
          && a->lame.opt.ath_type == -1 && strstr(err_text, "developer-only switch --athtype 2"), "--athtype 2");
    CHECK(parse(a, "--athtype in.wav out.mp3") == RL_ARGS_OK && strcmp(a->in_path, "out.mp3") == 0,
          "a developer switch takes the next entry, whatever it is");
    CHECK(parse(a, "--NoATH in.wav") == RL_ARGS_OK && a->lame.opt.no_ath == 0 && strcmp(a->in_path, "in.wav") == 0
          && strstr(err_text, "--NoATH"), "--noath: no argument, case-insensitive");
    CHECK(parse(a, "--ns-bass 3 --interch 0.5 --substep 2 --sfscale in.wav") == RL_ARGS_OK
          && a->lame.opt.exp_nspsytune == 0 && a->lame.opt.interch_ratio == -1.f && a->lame.opt.noise_shaping == 0,
          "no effect");
    CHECK(parse(a, "--maskingadjust-short 2 in.wav") == RL_ARGS_ERROR, "lame's name is maskingadjustshort");
}

static void program_options(RlArgs *a)
{
    CHECK(parse(a, "--out-dir d in.wav") == RL_ARGS_OK && strcmp(a->out_path, "d/in.mp3") == 0, "--out-dir d");
    CHECK(parse(a, "--out-dir d/ a/x.MP3") == RL_ARGS_OK && strcmp(a->out_path, "d/x.mp3") == 0,
          "--out-dir replaces .mp3 too");
    CHECK(parse(a, "--out-dir / a/b.flac") == RL_ARGS_OK && strcmp(a->out_path, "/b.mp3") == 0, "--out-dir /");
    CHECK(parse(a, "--out-dir d in.wav o.mp3") == RL_ARGS_OK && strcmp(a->out_path, "o.mp3") == 0,
          "an output name wins over --out-dir");
    CHECK(parse(a, "--disptime 5 --flush --nogaptags --nohist in.wav") == RL_ARGS_OK
          && strcmp(a->in_path, "in.wav") == 0, "console options");
    CHECK(parse(a, "--help") == RL_ARGS_EXIT && strstr(out_text, "--longhelp"), "--help");
    CHECK(parse(a, "--help dev") == RL_ARGS_EXIT && strstr(out_text, "--athtype"), "--help dev");
    CHECK(parse(a, "--usage id3") == RL_ARGS_EXIT && strstr(out_text, "ID3"), "--usage id3");
    CHECK(parse(a, "--longhelp") == RL_ARGS_EXIT && strstr(out_text, "--buffer-constraint"), "--longhelp");
    CHECK(parse(a, "--license") == RL_ARGS_EXIT, "--license");
    CHECK(parse(a, "--tv x in.wav") == RL_ARGS_OK && strstr(err_text, "Invalid field value: 'x'. Ignored"),
          "--tv: lame's warning for a value it ignores");
    CHECK(parse(a, "--tv TXXX=a=b in.wav") == RL_ARGS_OK && a->lame.id3.nframes == 2, "--tv TXXX=a=b");
    CHECK(parse(a, "--ti /nonexistent/x.jpg in.wav") == RL_ARGS_ERROR
          && strstr(err_text, "Could not find: '/nonexistent/x.jpg'."), "--ti: lame's message");
    CHECK(parse(a, "--tg 300 in.wav") == RL_ARGS_ERROR && strstr(err_text, "genre number"), "--tg 300");
    CHECK(parse(a, "--genre-list") == RL_ARGS_EXIT && strstr(err_text, "123 A Cappella"), "--genre-list");
}

int main(void)
{
    RlArgs *a = malloc(sizeof *a);
    if (!a)
        return 1;
    short_options(a);
    level_options(a);
    stream_options(a);
    presets(a);
    dev_only(a);
    program_options(a);
    free(a);
    return rl_test_done();
}
