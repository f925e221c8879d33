/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: unit test of the settings derivation (rl_config_init) and of the
 * command line parser (rl_args_parse), against values printed by Debian's
 * lame 3.100.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "cli_args.h"
#include "settings.h"
#include "tables.h"

/* Expectations come from Debian's lame 3.100-6, per case:
 *   sox -D -n -r <rate> -c <1|2> -b 16 <in>.wav synth 0.2 sine 440
 *   lame --verbose --nohist <options> <in>.wav o.mp3
 * read off: "Encoding as <sr> kHz <mode> ... VBR(q=<q>)", the polyphase
 * lowpass/highpass "transition band" (-1 = disabled / none), "noise shaping",
 * "^ amplification", "huffman search: best" (1) or "normal" (0), "^ level
 * adjustement", and from o.mp3 the Xing quality field (100 - 10*VBR_q -
 * quality) and the LAME-tag lowpass byte (lowpassfreq/100 rounded). */
typedef struct Case {
    const char *opts;       /* command line options */
    const char *input;      /* stWWW.wav = stereo at WWW Hz, mono44100.wav mono */
    int sr_out;
    const char *mode;
    const char *vbr_q;      /* lame prints %g of VBR_q + VBR_q_frac */
    int lp_lo, lp_hi, hp_lo, hp_hi;
    int noise_shaping, ns_amp, best_huffman;
    const char *ath_offset_db;
    int xing_quality, tag_lowpass;
} Case;

static const Case cases[] = {
    {"-V0", "st44100.wav", 44100, "j-stereo", "0", -1, -1, -1, -1, 1, 2, 1, "-7.1", 100, 221},
    {"-V2", "st44100.wav", 44100, "j-stereo", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V4", "st44100.wav", 44100, "j-stereo", "4", 17249, 17782, -1, -1, 1, 2, 1, "0", 60, 175},
    {"-V6", "st44100.wav", 44100, "j-stereo", "6", 16538, 17071, -1, -1, 1, 2, 1, "12", 40, 165},
    {"-V 6.5", "st44100.wav", 32000, "j-stereo", "5.2", -1, -1, -1, -1, 1, 2, 1, "7.2", 50, 0},
    {"-V7", "st44100.wav", 32000, "j-stereo", "5.63333", -1, -1, -1, -1, 1, 2, 1, "9.8", 50, 0},
    {"-V8", "st44100.wav", 24000, "j-stereo", "5.2", -1, -1, -1, -1, 1, 2, 1, "7.2", 50, 0},
    {"-V9", "st44100.wav", 22050, "j-stereo", "6.47451", -1, -1, -1, -1, 1, 2, 1, "14.8471", 40, 0},
    {"-V 9.5", "st44100.wav", 12000, "j-stereo", "5.25", -1, -1, -1, -1, 1, 2, 1, "7.5", 50, 0},
    {"-V 4.5", "st44100.wav", 44100, "j-stereo", "4.5", 17249, 17782, -1, -1, 1, 2, 1, "3", 60, 173},
    {"-V2", "mono44100.wav", 44100, "single-ch", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2 -m s", "st44100.wav", 44100, "stereo", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2 -m m", "st44100.wav", 44100, "single-ch", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2 -a", "st44100.wav", 44100, "single-ch", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2 -m f", "st44100.wav", 44100, "force-ms", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2 --resample 32", "st44100.wav", 32000, "j-stereo", "2", -1, -1, -1, -1, 1, 2, 1, "-3.7", 80, 160},
    {"-V2 --lowpass 15000", "st44100.wav", 32000, "j-stereo", "2", 15097, 15484, -1, -1, 1, 2, 1, "-3.7", 80, 150},
    {"-V2 -q 0", "st44100.wav", 44100, "j-stereo", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2 -q 7", "st44100.wav", 44100, "j-stereo", "2", 18671, 19205, -1, -1, 0, 0, 0, "-3.7", 73, 185},
    {"-V2 -q 5", "st44100.wav", 44100, "j-stereo", "2", 18671, 19205, -1, -1, 1, 0, 0, "-3.7", 75, 185},
    {"-V2 -h", "st44100.wav", 44100, "j-stereo", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2 -f", "st44100.wav", 44100, "j-stereo", "2", 18671, 19205, -1, -1, 0, 0, 0, "-3.7", 73, 185},
    {"-V2", "st8000.wav", 8000, "j-stereo", "0.989899", -1, -1, -1, -1, 1, 2, 1, "-5.41717", 100, 40},
    {"-V2", "st11025.wav", 11025, "j-stereo", "1.0625", -1, -1, -1, -1, 1, 2, 1, "-5.29375", 90, 55},
    {"-V2", "st16000.wav", 16000, "j-stereo", "1.08768", -1, -1, -1, -1, 1, 2, 1, "-5.25094", 90, 80},
    {"-V2", "st22050.wav", 22050, "j-stereo", "1.22353", -1, -1, -1, -1, 1, 2, 1, "-5.02", 90, 110},
    {"-V2", "st32000.wav", 32000, "j-stereo", "1.6", -1, -1, -1, -1, 1, 2, 1, "-4.38", 90, 160},
    {"-V2", "st48000.wav", 48000, "j-stereo", "2", 18000, 18581, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V2", "st96000.wav", 48000, "j-stereo", "2", 18000, 18581, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"-V0", "st48000.wav", 48000, "j-stereo", "0", -1, -1, -1, -1, 1, 2, 1, "-7.1", 100, 240},
    {"-V6", "st22050.wav", 22050, "j-stereo", "3.67059", -1, -1, -1, -1, 1, 2, 1, "-0.658824", 70, 110},
    {"-V 9.5", "st16000.wav", 12000, "j-stereo", "5.25", -1, -1, -1, -1, 1, 2, 1, "7.5", 50, 0},
    {"-V3 --highpass 120", "st44100.wav", 44100, "j-stereo", "3", 17960, 18494, -1, -1, 1, 2, 1, "-2", 70, 180},
    {"-V3 --highpass 1", "st44100.wav", 44100, "j-stereo", "3", 17960, 18494, 711, 1245, 1, 2, 1, "-2", 70, 180},
    {"-V4 --highpass 2 --highpass-width 900", "st44100.wav", 44100, "j-stereo", "4", 17249, 17782, 1423, 3379, 1, 2, 1, "0", 60, 175},
    {"--preset standard", "st44100.wav", 44100, "j-stereo", "2", 18671, 19205, -1, -1, 1, 2, 1, "-3.7", 80, 185},
    {"--preset extreme", "st44100.wav", 44100, "j-stereo", "0", -1, -1, -1, -1, 1, 2, 1, "-7.1", 100, 221},
    {"--preset medium", "st44100.wav", 44100, "j-stereo", "4", 17249, 17782, -1, -1, 1, 2, 1, "0", 60, 175},
    {"-V5 --lowpass-width 2 --lowpass 12", "st44100.wav", 32000, "j-stereo", "5", 9935, 12387, -1, -1, 1, 2, 1, "6", 50, 120},
    {"--vbr-new -V 2.5", "st44100.wav", 44100, "j-stereo", "2.5", 17960, 18494, -1, -1, 1, 2, 1, "-2.85", 80, 183},
    {"-V 7.5", "st32000.wav", 32000, "j-stereo", "6.06667", -1, -1, -1, -1, 1, 2, 1, "12.4", 40, 0},
    {"-V 9.8", "st11025.wav", 11025, "j-stereo", "6.03333", -1, -1, -1, -1, 1, 2, 1, "12.2", 40, 0},
    {"-V 9.999", "st44100.wav", 8000, "j-stereo", "6.48399", -1, -1, -1, -1, 1, 2, 1, "14.904", 40, 0},
};

static int split_cmd(char *buf, char **argv, int max)
{
    int n = 0;
    argv[n++] = "ringlame";
    for (char *t = strtok(buf, " "); t && n < max - 1; t = strtok(NULL, " "))
        argv[n++] = t;
    return n;
}

static void test_case(const Case *c)
{
    char buf[256], *argv[32];
    RlArgs a;
    RlConfig cfg;
    static const char *const mode_names[2][4] = {
        {"stereo", "j-stereo", "dual-ch", "single-ch"},
        {"stereo", "force-ms", "dual-ch", "single-ch"}
    };

    snprintf(buf, sizeof(buf), "%s %s out.mp3", c->opts, c->input);
    int const argc = split_cmd(buf, argv, 32);
    FILE *sink = fopen("/dev/null", "w");
    int r = rl_args_parse(&a, argc, argv, NULL, getenv("RINGLAME_SIMD"), sink, sink);
    fclose(sink);
    CHECK(r == RL_ARGS_OK, "[%s] parse returned %d", c->opts, r);
    if (r != RL_ARGS_OK)
        return;

    /* what main() does with the input file's header */
    int sr_in = atoi(c->input + 2);
    int channels = 2;
    if (strncmp(c->input, "mono", 4) == 0) {
        sr_in = atoi(c->input + 4);
        channels = 1;
    }
    CHECK(rl_set_num_channels(&a.lame.opt, channels) == 0, "set channels");
    CHECK(rl_set_in_samplerate(&a.lame.opt, sr_in) == 0, "set samplerate");

    RlOptions o = a.lame.opt;
    CHECK(rl_config_init(&cfg, &o) == 0, "[%s %s] rl_config_init failed", c->opts, c->input);

    CHECK(cfg.samplerate_out == c->sr_out, "[%s %s] sr_out %d, lame %d", c->opts, c->input,
          cfg.samplerate_out, c->sr_out);
    const char *mode = mode_names[o.force_ms ? 1 : 0][cfg.mode];
    CHECK(strcmp(mode, c->mode) == 0, "[%s %s] mode %s, lame %s", c->opts, c->input, mode, c->mode);

    char q[32];
    snprintf(q, sizeof(q), "%g", (double) (o.vbr_q + o.vbr_q_frac));
    CHECK(strcmp(q, c->vbr_q) == 0, "[%s %s] VBR(q=%s), lame %s", c->opts, c->input, q, c->vbr_q);

    int lo = -1, hi = -1, hlo = -1, hhi = -1;
    double const sr = cfg.samplerate_out;
    if (0. < cfg.lowpass1 || 0. < cfg.lowpass2) {
        snprintf(buf, sizeof(buf), "%5.0f %5.0f", 0.5 * cfg.lowpass1 * sr, 0.5 * cfg.lowpass2 * sr);
        sscanf(buf, "%d %d", &lo, &hi);
    }
    if (cfg.highpass2 > 0.) {
        snprintf(buf, sizeof(buf), "%5.0f %5.0f", 0.5 * cfg.highpass1 * sr, 0.5 * cfg.highpass2 * sr);
        sscanf(buf, "%d %d", &hlo, &hhi);
    }
    CHECK(lo == c->lp_lo && hi == c->lp_hi, "[%s %s] lowpass band %d-%d, lame %d-%d",
          c->opts, c->input, lo, hi, c->lp_lo, c->lp_hi);
    CHECK(hlo == c->hp_lo && hhi == c->hp_hi, "[%s %s] highpass band %d-%d, lame %d-%d",
          c->opts, c->input, hlo, hhi, c->hp_lo, c->hp_hi);

    CHECK(cfg.noise_shaping == c->noise_shaping, "[%s %s] noise_shaping %d, lame %d",
          c->opts, c->input, cfg.noise_shaping, c->noise_shaping);
    CHECK(cfg.noise_shaping_amp == c->ns_amp, "[%s %s] noise_shaping_amp %d, lame %d",
          c->opts, c->input, cfg.noise_shaping_amp, c->ns_amp);
    CHECK((cfg.use_best_huffman == 1) == (c->best_huffman == 1), "[%s %s] use_best_huffman %d, lame %d",
          c->opts, c->input, cfg.use_best_huffman, c->best_huffman);

    char ath[32];
    snprintf(ath, sizeof(ath), "%g", (double) cfg.ath_offset_db);
    CHECK(strcmp(ath, c->ath_offset_db) == 0, "[%s %s] ATH offset %s dB, lame %s",
          c->opts, c->input, ath, c->ath_offset_db);

    int const xq = 100 - 10 * cfg.vbr_q - cfg.quality;
    CHECK(xq == c->xing_quality, "[%s %s] Xing quality %d (V%d q%d), lame %d",
          c->opts, c->input, xq, cfg.vbr_q, cfg.quality, c->xing_quality);
    double const lp = cfg.lowpassfreq / 100.0 + .5;
    int const tag_lp = lp > 255 ? 255 : (int) lp;
    CHECK(tag_lp == c->tag_lowpass, "[%s %s] tag lowpass %d (lowpassfreq %d), lame %d",
          c->opts, c->input, tag_lp, cfg.lowpassfreq, c->tag_lowpass);

    /* invariants */
    CHECK(cfg.frame_size == 576 * cfg.mode_gr, "frame_size");
    CHECK(cfg.mode_gr == (cfg.samplerate_out <= 24000 ? 1 : 2), "mode_gr");
    CHECK(cfg.sfb.l[22] == 576 && cfg.sfb.s[13] == 192, "sfb table ends");
    CHECK(cfg.vbr_max_bitrate_index == (cfg.samplerate_out < 16000 ? 8 : 14), "vbr max index");
}

/* ---- parser ---- */

static int parse(RlArgs *a, const char *cmd, const char *env)
{
    char buf[512], *argv[64];
    snprintf(buf, sizeof(buf), "%s", cmd);
    int const argc = split_cmd(buf, argv, 64);
    FILE *sink = fopen("/dev/null", "w");
    int const r = rl_args_parse(a, argc, argv, env, getenv("RINGLAME_SIMD"), sink, sink);
    fclose(sink);
    return r;
}

static void test_parser(void)
{
    RlArgs a;

    /* bundling and attached / separate arguments */
    CHECK(parse(&a, "-hV2 in.wav", NULL) == RL_ARGS_OK, "-hV2");
    CHECK(a.lame.opt.quality == 2 && a.lame.opt.vbr == RL_VBR_MTRH && a.lame.opt.vbr_q == 2, "-hV2 values");
    CHECK(parse(&a, "-V 2 -mj in.wav", NULL) == RL_ARGS_OK && a.lame.opt.mode == RL_JOINT_STEREO,
          "-V 2 -mj");
    CHECK(parse(&a, "-V6.5 -m s in.wav", NULL) == RL_ARGS_OK && a.lame.opt.mode == RL_STEREO
          && a.lame.opt.vbr_q == 6 && a.lame.opt.vbr_q_frac == 0.5f, "-V6.5 -m s");
    CHECK(parse(&a, "-fV3 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.quality == 7, "-fV3");
    CHECK(parse(&a, "-V 12 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr_q == 9
          && a.lame.opt.vbr_q_frac > 0.998f, "-V 12 clamps to 9.999");
    CHECK(parse(&a, "-q 12 -V2 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.quality == 9, "-q clamps");
    CHECK(parse(&a, "-v in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_MTRH && a.lame.opt.vbr_q == 4,
          "-v = -V4");
    CHECK(parse(&a, "--vbr-new -V2 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_MT, "--vbr-new");
    CHECK(parse(&a, "-V2 --vbr-new in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_MT,
          "--vbr-new after -V");
    CHECK(parse(&a, "-V2 -s 22.05 -r --bitwidth 24 --unsigned --big-endian -x in.raw", NULL) == RL_ARGS_OK
          && a.lame.input_samplerate == 22050 && a.lame.raw_input && a.lame.raw_bitwidth == 24 && a.lame.raw_signed == 0
          && a.lame.raw_big_endian == 1 && a.lame.raw_swapbytes == 1, "raw options");
    CHECK(parse(&a, "-V2 -a in.wav", NULL) == RL_ARGS_OK && a.lame.opt.mode == RL_MONO
          && a.lame.opt.num_channels == 2, "-a keeps 2 input channels");
    CHECK(parse(&a, "-V2 -m m in.wav", NULL) == RL_ARGS_OK && a.lame.opt.num_channels == 1, "-m m");
    CHECK(parse(&a, "-V2 -m f in.wav", NULL) == RL_ARGS_OK && a.lame.opt.force_ms == 1, "-m f");
    CHECK(parse(&a, "-V2 -p -t --nores --strictly-enforce-iso in.wav", NULL) == RL_ARGS_OK
          && a.lame.opt.error_protection == 1 && a.lame.opt.write_lame_tag == 0 && a.lame.opt.disable_reservoir == 1
          && a.lame.opt.strict_iso == RL_MDB_STRICT_ISO, "-p -t --nores --strictly-enforce-ISO");
    CHECK(parse(&a, "-V2 --lowpass 15 --highpass 0.5 --lowpass-width 2 --highpass-width 300 in.wav",
                NULL) == RL_ARGS_OK
          && a.lame.opt.lowpassfreq == 15000 && a.lame.opt.highpassfreq == 500 && a.lame.opt.lowpasswidth == 2000
          && a.lame.opt.highpasswidth == 300, "filter options (kHz rules)");
    CHECK(parse(&a, "-V2 --lowpass -1 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.lowpassfreq == -1,
          "--lowpass -1");
    CHECK(parse(&a, "-V2 --lowpass 0 in.wav", NULL) == RL_ARGS_ERROR, "--lowpass 0 refused");
    CHECK(parse(&a, "-V2 --resample 44.1 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.samplerate_out == 44100,
          "--resample 44.1");
    CHECK(parse(&a, "-V2 --resample 23 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.samplerate_out == 0,
          "--resample 23 ignored");
    CHECK(parse(&a, "-V2 --threads 4 --sequential in.wav", NULL) == RL_ARGS_OK && a.threads == 4
          && a.sequential == 1, "--threads --sequential");
    CHECK(parse(&a, "-V2 --threads x in.wav", NULL) == RL_ARGS_ERROR, "--threads x refused");

    /* case-insensitive long options, case-sensitive preset names */
    CHECK(parse(&a, "--PRESET standard in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr_q == 2
          && a.lame.opt.vbr == RL_VBR_MTRH, "--PRESET standard");
    CHECK(parse(&a, "--Preset fast extreme in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr_q == 0,
          "--preset fast extreme");
    CHECK(parse(&a, "--preset Standard in.wav", NULL) == RL_ARGS_ERROR, "preset names are case-sensitive");
    CHECK(parse(&a, "-V2 --NoReplayGain in.wav", NULL) == RL_ARGS_OK && a.lame.opt.find_replay_gain == 0,
          "--NoReplayGain");
    CHECK(parse(&a, "-V2 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.find_replay_gain == 1, "RG on by default");
    CHECK(parse(&a, "-V2 --QUIET in.wav", NULL) == RL_ARGS_OK && a.lame.silent == 10, "--QUIET");
    CHECK(parse(&a, "-V2 --silent in.wav", NULL) == RL_ARGS_OK && a.lame.silent == 9, "--silent");
    CHECK(parse(&a, "-SV2 in.wav", NULL) == RL_ARGS_OK && a.lame.silent == 5, "-S");

    /* default output names, stdin/stdout */
    CHECK(parse(&a, "-V2 x.foo", NULL) == RL_ARGS_OK && strcmp(a.out_path, "x.foo.mp3") == 0, "x.foo");
    CHECK(parse(&a, "-V2 y.mp3", NULL) == RL_ARGS_OK && strcmp(a.out_path, "y.mp3.mp3") == 0, "y.mp3");
    CHECK(parse(&a, "-V2 W.WAV", NULL) == RL_ARGS_OK && strcmp(a.out_path, "W.mp3") == 0, "W.WAV");
    CHECK(parse(&a, "-V2 d.x/s.flac", NULL) == RL_ARGS_OK && strcmp(a.out_path, "d.x/s.mp3") == 0,
          "d.x/s.flac");
    CHECK(parse(&a, "-V2 d.x/noext", NULL) == RL_ARGS_OK && strcmp(a.out_path, "d.x/noext.mp3") == 0,
          "d.x/noext");
    CHECK(parse(&a, "-V2 /tmp/q.aiff", NULL) == RL_ARGS_OK && strcmp(a.out_path, "/tmp/q.mp3") == 0,
          "/tmp/q.aiff");
    /* observed with lame: a file in / gets its output in the current directory */
    CHECK(parse(&a, "-V2 /r.wav", NULL) == RL_ARGS_OK && strcmp(a.out_path, "r.mp3") == 0, "/r.wav");
    CHECK(parse(&a, "-V2 - ", NULL) == RL_ARGS_OK && strcmp(a.in_path, "-") == 0
          && strcmp(a.out_path, "-") == 0 && a.lame.opt.write_lame_tag == 0 && a.lame.silent == 1, "stdin -> stdout");
    CHECK(parse(&a, "-V2 in.wav -", NULL) == RL_ARGS_OK && strcmp(a.out_path, "-") == 0
          && a.lame.opt.write_lame_tag == 0, "file -> stdout: no tag");
    CHECK(parse(&a, "-V2 - out.mp3", NULL) == RL_ARGS_OK && strcmp(a.out_path, "out.mp3") == 0
          && a.lame.opt.write_lame_tag == 1, "stdin -> file");
    CHECK(parse(&a, "-V2 a.wav b.mp3 c.mp3", NULL) == RL_ARGS_ERROR, "excess arg");
    CHECK(parse(&a, "-V2", NULL) == RL_ARGS_ERROR, "no input");

    /* LAMEOPT tokens come first; the command line overrides them */
    CHECK(parse(&a, "in.wav", "-V 3 -m m") == RL_ARGS_OK && a.lame.opt.vbr_q == 3 && a.lame.opt.mode == RL_MONO,
          "LAMEOPT");
    CHECK(parse(&a, "-V5 in.wav", "-V 3 \"--lowpass\" 12") == RL_ARGS_OK && a.lame.opt.vbr_q == 5
          && a.lame.opt.lowpassfreq == 12000, "LAMEOPT + argv, quoted token");

    /* info */
    CHECK(parse(&a, "--help", NULL) == RL_ARGS_EXIT, "--help");
    CHECK(parse(&a, "--version", NULL) == RL_ARGS_EXIT, "--version");

    /* CBR and ABR: -b alone is CBR; presets apply at parse time (lame_set_preset) */
    CHECK(parse(&a, "in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_OFF && a.lame.opt.brate == 0,
          "bare input = CBR (128 derived later)");
    CHECK(parse(&a, "-b 192 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_OFF
          && a.lame.opt.brate == 192 && a.lame.opt.vbr_min_bitrate_kbps == 192, "-b without VBR = CBR");
    CHECK(parse(&a, "-b192 -m s in.wav", NULL) == RL_ARGS_OK && a.lame.opt.brate == 192, "-b192 bundled");
    CHECK(parse(&a, "-B 192 -F in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_OFF
          && a.lame.opt.vbr_max_bitrate_kbps == 192 && a.lame.opt.vbr_hard_min == 1, "-B/-F without VBR");
    CHECK(parse(&a, "-V2 --abr 160 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_ABR
          && a.lame.opt.vbr_mean_bitrate_kbps == 160, "-V2 --abr 160");
    CHECK(parse(&a, "--abr 128000 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr_mean_bitrate_kbps == 128,
          "--abr in bits per second");
    CHECK(parse(&a, "--abr 5 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr_mean_bitrate_kbps == 8,
          "--abr clamps to 8");
    CHECK(parse(&a, "-V2 --cbr in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_OFF, "--cbr");
    CHECK(parse(&a, "--preset insane in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_OFF
          && a.lame.opt.brate == 320 && a.lame.opt.preset == 320 && a.lame.opt.scale == 1.0f, "--preset insane");
    CHECK(parse(&a, "--preset 128 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_ABR
          && a.lame.opt.vbr_mean_bitrate_kbps == 128 && a.lame.opt.brate == 128 && a.lame.opt.scale == 0.95f,
          "--preset 128: ABR, scaled once at parse time");
    CHECK(parse(&a, "--preset cbr 192 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_OFF
          && a.lame.opt.brate == 192 && a.lame.opt.scale == 0.97f, "--preset cbr 192");
    CHECK(parse(&a, "--vbr-old -V2 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_RH, "--vbr-old");
    CHECK(parse(&a, "-V2 -c in.wav", NULL) == RL_ARGS_OK && a.lame.opt.copyright == 1, "-c");

    /* refused: program paths ringlame does not have */
    CHECK(parse(&a, "-V2 --ti cover.jpg in.wav", NULL) == RL_ARGS_ERROR, "--ti refused");
    CHECK(parse(&a, "-V2 --tt title in.wav", NULL) == RL_ARGS_OK && a.lame.id3_used
          && strcmp(a.lame.id3.title, "title") == 0, "--tt sets the title");
    CHECK(parse(&a, "-V2 --bogus in.wav", NULL) == RL_ARGS_ERROR, "unknown long option");
    CHECK(parse(&a, "-V2 -m z in.wav", NULL) == RL_ARGS_ERROR, "bad -m");
    CHECK(parse(&a, "-V2 -- in.wav", NULL) == RL_ARGS_ERROR, "bare --");

    /* with VBR, -b/-B/-F are its limits (lame: -b sets brate and the VBR minimum) */
    CHECK(parse(&a, "-V2 -b192 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.brate == 192
          && a.lame.opt.vbr_min_bitrate_kbps == 192 && a.lame.opt.vbr_max_bitrate_kbps == 0
          && a.lame.opt.vbr_hard_min == 0, "-V2 -b192");
    CHECK(parse(&a, "-b 100 -B 150 -F -V5 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.vbr == RL_VBR_MTRH
          && a.lame.opt.vbr_min_bitrate_kbps == 100 && a.lame.opt.vbr_max_bitrate_kbps == 150
          && a.lame.opt.vbr_hard_min == 1, "-b -B -F before -V");
    CHECK(parse(&a, "--preset standard -FB 224 in.wav", NULL) == RL_ARGS_OK
          && a.lame.opt.vbr_max_bitrate_kbps == 224 && a.lame.opt.vbr_hard_min == 1, "--preset -FB 224 bundled");
    CHECK(parse(&a, "-V2 -b 400 in.wav", NULL) == RL_ARGS_OK && a.lame.opt.disable_reservoir == 1,
          "-b >320 turns the reservoir off (lame_set_brate)");
    CHECK(parse(&a, "-V2 -b x.wav", NULL) == RL_ARGS_OK && strcmp(a.in_path, "x.wav") == 0
          && a.lame.opt.vbr_min_bitrate_kbps == 0, "-b without a number");

    /* a missing numeric argument only warns (lame) and is not consumed */
    CHECK(parse(&a, "-V2 -q x.wav", NULL) == RL_ARGS_OK && strcmp(a.in_path, "x.wav") == 0,
          "-q without a number");
}

/* ---- VBR limits: lame_init_params' vbr_min/max_bitrate_index ---- */

static void vbr_limits(const char *cmd, int sr_in, int channels,
                       int sr_out, int min_idx, int max_idx, int min_kbps, int max_kbps, int enforce)
{
    RlArgs a;
    RlConfig cfg;
    if (parse(&a, cmd, NULL) != RL_ARGS_OK) {
        CHECK(0, "[%s] parse failed", cmd);
        return;
    }
    (void) rl_set_num_channels(&a.lame.opt, channels);
    (void) rl_set_in_samplerate(&a.lame.opt, sr_in);
    RlOptions o = a.lame.opt;
    if (rl_config_init(&cfg, &o) != 0) {
        CHECK(0, "[%s] rl_config_init failed", cmd);
        return;
    }
    CHECK(cfg.samplerate_out == sr_out && cfg.vbr_min_bitrate_index == min_idx
          && cfg.vbr_max_bitrate_index == max_idx && o.vbr_min_bitrate_kbps == min_kbps
          && o.vbr_max_bitrate_kbps == max_kbps && cfg.enforce_min_bitrate == enforce,
          "[%s @%d/%d] sr %d idx %d..%d (%d..%d kbps) enforce %d, want sr %d idx %d..%d (%d..%d) %d",
          cmd, sr_in, channels, cfg.samplerate_out, cfg.vbr_min_bitrate_index,
          cfg.vbr_max_bitrate_index, o.vbr_min_bitrate_kbps, o.vbr_max_bitrate_kbps,
          cfg.enforce_min_bitrate, sr_out, min_idx, max_idx, min_kbps, max_kbps, enforce);
}

static void test_vbr_limits(void)
{
    vbr_limits("-V2 in.wav", 44100, 2, 44100, 1, 14, 32, 320, 0);
    vbr_limits("-V2 -b 128 in.wav", 44100, 2, 44100, 9, 14, 128, 320, 0);
    vbr_limits("-V0 -B 192 in.wav", 44100, 2, 44100, 1, 11, 32, 192, 0);
    vbr_limits("-V5 -b 96 -B 160 -F in.wav", 44100, 2, 44100, 7, 10, 96, 160, 1);
    vbr_limits("-V2 -b 100 -B 150 in.wav", 44100, 2, 44100, 7, 10, 96, 160, 0);  /* snapped */
    vbr_limits("-V2 -b 400 in.wav", 44100, 2, 44100, 14, 14, 320, 320, 0);
    vbr_limits("-V2 -b 256 -B 96 in.wav", 44100, 2, 44100, 13, 7, 256, 96, 0);    /* kept crossed */
    vbr_limits("-V9 -b 32 in.wav", 44100, 2, 22050, 4, 14, 32, 160, 0);           /* MPEG-2 table */
    vbr_limits("-V4 -b 320 in.wav", 22050, 2, 22050, 14, 14, 160, 160, 0);       /* 320 -> 160 */
    vbr_limits("-V6 -B 64 in.wav", 44100, 1, 44100, 1, 5, 32, 64, 0);
    vbr_limits("-V4 --resample 8 -b 40 -B 100 in.wav", 44100, 2, 8000, 5, 8, 40, 64, 0); /* 2.5 */
    vbr_limits("-V2 -F in.wav", 44100, 2, 44100, 1, 14, 32, 320, 1);
}

static void test_tables(void)
{
    int v = -1;
    CHECK(rl_bitrate_kbps(1, 9) == 128 && rl_bitrate_kbps(0, 14) == 160 && rl_bitrate_kbps(2, 8) == 64,
          "bitrate table");
    CHECK(rl_smp_frq_index(22050, &v) == 0 && v == 0, "22.05k index");
    CHECK(rl_smp_frq_index(48000, &v) == 1 && v == 1, "48k index");
    CHECK(rl_smp_frq_index(44000, &v) == -1, "44k is not an MPEG rate");
    CHECK(rl_find_nearest_bitrate(999, 1, 44100) == 320, "nearest 999");
    CHECK(rl_find_nearest_bitrate(1, 0, 8000) == 8, "nearest 1 at 8k");
    CHECK(rl_find_nearest_bitrate(36, 1, 44100) == 32, "nearest tie keeps lower");
    CHECK(rl_bitrate_index(56, 0, 11025) == 7 && rl_bitrate_index(80, 0, 11025) == -1, "2.5 index");
    CHECK(rl_nearest_bitrate_full_index(128) == 11 && rl_nearest_bitrate_full_index(999) == 16
          && rl_nearest_bitrate_full_index(120) == 11, "full index");
    CHECK(rl_map2mp3_frequency(42777) == 44100 && rl_map2mp3_frequency(7000) == 8000
          && rl_map2mp3_frequency(96000) == 48000, "map2MP3Frequency");
    RlSfbBands b;
    CHECK(rl_sfb_bands(&b, 44100) == 0 && b.l[21] == 418 && b.psfb21[1] == 444 && b.psfb12[6] == 192,
          "44.1k bands");
    CHECK(rl_sfb_bands(&b, 8000) == 0 && b.l[17] == 566 && b.s[1] == 8, "8k bands");
    CHECK(rl_sfb_bands(&b, 7000) < 0, "7k has no bands");
}

int main(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        test_case(&cases[i]);
    test_parser();
    test_vbr_limits();
    test_tables();
    return rl_test_done();
}
