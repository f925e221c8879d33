/* SPDX-License-Identifier: LGPL-2.0-or-later */
#include "mp3lame_case.h"

#include "lame_abi.h"

#include <string.h>

const char *const rlt_entry_names[RLT_ENTRY_COUNT] = {
    "lame_encode_buffer",
    "lame_encode_buffer_interleaved",
    "lame_encode_buffer_float",
    "lame_encode_buffer_ieee_float",
    "lame_encode_buffer_interleaved_ieee_float",
    "lame_encode_buffer_ieee_double",
    "lame_encode_buffer_interleaved_ieee_double",
    "lame_encode_buffer_int",
    "lame_encode_buffer_long",
    "lame_encode_buffer_long2",
    "lame_encode_buffer_interleaved_int",
};

static const char *const signal_names[RLT_SIGNAL_COUNT] = {
    "noise", "sweep", "silence", "square", "impulses", "antiphase", "musiclike",
};

uint64_t rlt_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

int rlt_rand_below(uint64_t *state, int n)
{
    return (int)(rlt_rand(state) % (uint64_t)n);
}

/* a percentage chance */
static int chance(uint64_t *r, int percent)
{
    return rlt_rand_below(r, 100) < percent;
}

static float rand_float(uint64_t *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rlt_rand(r) >> 40) / (float)(1u << 24);
}

#define PICK(r, array) ((array)[rlt_rand_below((r), (int)(sizeof(array) / sizeof((array)[0])))])

void rlt_case_add(struct rlt_case *c, enum rlt_op_kind kind, const char *name, int i, float f, const char *s)
{
    if (c->nops >= RLT_MAX_OPS)
        return;
    c->ops[c->nops++] = (struct rlt_op){kind, name, i, f, s};
}

static void set_int(struct rlt_case *c, const char *name, int v)
{
    rlt_case_add(c, RLT_OP_SET_INT, name, v, 0.0f, NULL);
}

static void set_float(struct rlt_case *c, const char *name, float v)
{
    rlt_case_add(c, RLT_OP_SET_FLOAT, name, 0, v, NULL);
}

static const int rates[] = {8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000};
static const int bitrates[] = {8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 192, 224, 256, 320};

/* returns 1 for CBR (the only rate control that takes free format) */
static int draw_rate_control(struct rlt_case *c, uint64_t *r)
{
    static const int presets[] = {LAME_V0, 490, 480, 470, 460, 450, 440, 430, 420, LAME_V9, LAME_STANDARD,
                                  LAME_EXTREME, LAME_INSANE, LAME_MEDIUM, 8, 32, 96, 128, 160, 256, 320};
    switch (rlt_rand_below(r, 6)) {
    case 0:   /* the library's default: CBR 128 */
        return 1;
    case 1:
        if (chance(r, 50))
            set_int(c, "lame_set_VBR", LAME_VBR_OFF);
        set_int(c, "lame_set_brate", PICK(r, bitrates));
        return 1;
    case 2:
        set_int(c, "lame_set_VBR", LAME_VBR_ABR);
        set_int(c, "lame_set_VBR_mean_bitrate_kbps", PICK(r, bitrates));
        if (chance(r, 30)) {   /* min above max: Debian's library fails an assertion */
            int lo = PICK(r, bitrates), hi = PICK(r, bitrates);
            set_int(c, "lame_set_VBR_min_bitrate_kbps", lo < hi ? lo : hi);
            set_int(c, "lame_set_VBR_max_bitrate_kbps", lo < hi ? hi : lo);
        }
        break;
    case 3:
    case 4:
        set_int(c, "lame_set_VBR", rlt_rand_below(r, 2) ? LAME_VBR_RH : LAME_VBR_MTRH);
        if (chance(r, 50))
            set_int(c, "lame_set_VBR_q", rlt_rand_below(r, 10));
        else
            set_float(c, "lame_set_VBR_quality", rand_float(r, 0.0f, 9.999f));
        if (chance(r, 15))
            set_int(c, "lame_set_VBR_hard_min", 1);
        if (chance(r, 15))
            set_int(c, "lame_set_VBR_min_bitrate_kbps", PICK(r, bitrates));
        break;
    default:
        set_int(c, "lame_set_preset", PICK(r, presets));
        break;
    }
    return 0;
}

void rlt_comment(int i, const char **desc, const char **text)
{
    static const char *const pairs[][2] = {
        {"", "A comment"}, {"desc", "Text of the comment"}, {NULL, "No descriptor"}, {"d", ""},
        {"Description", NULL}, {"x", "Same text"}, {"", "Another one"}, {"notes", "Zoë"},
    };
    int const n = (int)(sizeof pairs / sizeof pairs[0]);
    *desc = pairs[i % n][0];
    *text = pairs[i % n][1];
}

/* ASCII (or Latin-1) as UTF-16 after a byte-order mark, little-endian
 * units, or big-endian ones for odd i */
void rlt_comment_utf16(int i, const char *s, unsigned short out[RLT_COMMENT_UNITS])
{
    int const big = i % 2;
    int n = 0;
    out[n++] = big ? 0xFFFEu : 0xFEFFu;
    for (; s[n - 1] && n < RLT_COMMENT_UNITS - 1; n++) {
        unsigned short const u = (unsigned char)s[n - 1];
        out[n] = big ? (unsigned short)(u << 8) : u;
    }
    out[n] = 0;
}

/* COMM frames with languages (lame's id3tag_set_comment_*): a generator
 * of their own, so that the other draws of a case stay as they were */
static void draw_comments(struct rlt_case *c, uint64_t seed)
{
    static const char *const langs[] = {"eng", "deu", "FRA", "e", "", NULL, "Eng", "spanish", "jp\x01"};
    uint64_t r = seed;
    rlt_rand(&r);
    if (!chance(&r, 50))
        return;
    for (int k = 1 + rlt_rand_below(&r, 3); k > 0; k--) {
        const char *lang = langs[rlt_rand_below(&r, (int)(sizeof langs / sizeof langs[0]))];
        rlt_case_add(c, RLT_OP_COMMENT, chance(&r, 50) ? "id3tag_set_comment_latin1" : "id3tag_set_comment_utf16",
                     rlt_rand_below(&r, 16), 0.0f, lang);
    }
}

static void draw_id3(struct rlt_case *c, uint64_t *r)
{
    static const char *const texts[] = {
        "Title", "A title that is longer than thirty characters", "", "Ünïcödé in Latin-1? no, UTF-8",
        "Some Artist", "Album", NULL,
    };
    static const char *const years[] = {"2024", "1999", "12345", "", NULL};
    static const char *const tracks[] = {"3", "3/12", "300", "0", "x", NULL};
    static const char *const genres[] = {"Rock", "17", "Unknownish", "255", "147", "Jazz+Funk", NULL};
    static const char *const fields[] = {"TPOS=1/2", "TCOM=Composer", "TXXX=key=value", "TBPM=120", "XXXX=bad", NULL};
    /* each text call with its chance and the values it draws from */
    static const struct {
        const char *name;
        enum rlt_op_kind kind;
        int percent;
        const char *const *values;
    } calls[] = {
        {"id3tag_set_title", RLT_OP_STR, 70, texts},       {"id3tag_set_artist", RLT_OP_STR, 50, texts},
        {"id3tag_set_album", RLT_OP_STR, 40, texts},       {"id3tag_set_year", RLT_OP_STR, 40, years},
        {"id3tag_set_comment", RLT_OP_STR, 40, texts},     {"id3tag_set_track", RLT_OP_STR_INT, 40, tracks},
        {"id3tag_set_genre", RLT_OP_STR_INT, 40, genres}, {"id3tag_set_fieldvalue", RLT_OP_STR_INT, 30, fields},
    };
    rlt_case_add(c, RLT_OP_VOID, "id3tag_init", 0, 0.0f, NULL);
    draw_comments(c, *r ^ 0x9e3779b97f4a7c15u);
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        if (!chance(r, calls[i].percent))
            continue;
        int n = 0;
        while (calls[i].values[n])
            n++;
        rlt_case_add(c, calls[i].kind, calls[i].name, 0, 0.0f, calls[i].values[rlt_rand_below(r, n)]);
    }
    switch (rlt_rand_below(r, 8)) {
    case 0: rlt_case_add(c, RLT_OP_VOID, "id3tag_v1_only", 0, 0.0f, NULL); break;
    case 1: rlt_case_add(c, RLT_OP_VOID, "id3tag_v2_only", 0, 0.0f, NULL); break;
    case 2: rlt_case_add(c, RLT_OP_VOID, "id3tag_add_v2", 0, 0.0f, NULL); break;
    case 3: rlt_case_add(c, RLT_OP_VOID, "id3tag_pad_v2", 0, 0.0f, NULL); break;
    case 4: rlt_case_add(c, RLT_OP_VOID, "id3tag_space_v1", 0, 0.0f, NULL); break;
    case 5: rlt_case_add(c, RLT_OP_ID3_PAD, "id3tag_set_pad", 128 * rlt_rand_below(r, 4), 0.0f, NULL); break;
    default: break;
    }
    if (chance(r, 15))
        rlt_case_add(c, RLT_OP_ID3_AUTO, "lame_set_write_id3tag_automatic", 0, 0.0f, NULL);
}

static void draw_settings(struct rlt_case *c, uint64_t *r)
{
    int in_rate = PICK(r, rates);
    set_int(c, "lame_set_num_channels", c->channels);
    set_int(c, "lame_set_in_samplerate", in_rate);
    switch (rlt_rand_below(r, 5)) {
    case 0: set_int(c, "lame_set_out_samplerate", 0); break;
    case 1: set_int(c, "lame_set_out_samplerate", in_rate); break;
    case 2: set_int(c, "lame_set_out_samplerate", PICK(r, rates)); break;
    default: break;   /* unset: lame picks */
    }
    int cbr = draw_rate_control(c, r);
    if (chance(r, 70))
        set_int(c, "lame_set_quality", rlt_rand_below(r, 10));
    if (chance(r, 50)) {
        static const int modes[] = {LAME_STEREO, LAME_JOINT_STEREO, LAME_MONO};
        set_int(c, "lame_set_mode", PICK(r, modes));
    }
    if (chance(r, 10))
        set_int(c, "lame_set_force_ms", 1);
    if (chance(r, 25))
        set_int(c, "lame_set_findReplayGain", 1);
    if (chance(r, 15))
        set_int(c, "lame_set_decode_on_the_fly", 1);
    if (chance(r, 12))
        set_float(c, "lame_set_scale", rand_float(r, 0.25f, 2.0f));
    if (chance(r, 8))
        set_float(c, "lame_set_scale_left", rand_float(r, 0.25f, 2.0f));
    if (chance(r, 8))
        set_float(c, "lame_set_scale_right", rand_float(r, 0.25f, 2.0f));
    if (chance(r, 15))
        set_int(c, "lame_set_lowpassfreq", chance(r, 20) ? -1 : 1000 + rlt_rand_below(r, 19000));
    if (chance(r, 5))
        set_int(c, "lame_set_lowpasswidth", rlt_rand_below(r, 3000));
    if (chance(r, 10))
        set_int(c, "lame_set_highpassfreq", chance(r, 20) ? -1 : 10 + rlt_rand_below(r, 1000));
    if (chance(r, 5))
        set_int(c, "lame_set_highpasswidth", rlt_rand_below(r, 500));
    if (chance(r, 10))
        set_int(c, "lame_set_disable_reservoir", 1);
    if (cbr && chance(r, 8))   /* with VBR Debian's library fails an assertion */
        set_int(c, "lame_set_free_format", 1);
    if (chance(r, 50))
        set_int(c, "lame_set_bWriteVbrTag", rlt_rand_below(r, 2));
    if (chance(r, 5))
        set_int(c, "lame_set_error_protection", 1);
    if (chance(r, 5))
        set_int(c, "lame_set_copyright", 1);
    if (chance(r, 5))
        set_int(c, "lame_set_original", 0);
    if (chance(r, 3))
        set_int(c, "lame_set_emphasis", 1);
    if (chance(r, 3))
        set_int(c, "lame_set_strict_ISO", 1);
    if (chance(r, 3))
        set_int(c, "lame_set_num_samples", rlt_rand_below(r, 100000));
    if (chance(r, 25))
        draw_id3(c, r);
    if (c->ntracks > 1 && chance(r, 50)) {
        set_int(c, "lame_set_nogap_total", c->ntracks);
        set_int(c, "lame_set_nogap_currentindex", 0);
    }
}

/* the mid-stream probes: a generator of their own, so that the other
 * draws of a case stay as they were */
static void draw_probes(struct rlt_case *c, uint64_t seed)
{
    static const int percents[] = {2, 10, 50, 100};
    uint64_t r = seed;
    rlt_rand(&r);
    if (!chance(&r, 40))
        return;
    c->probe_percent = PICK(&r, percents);
    c->probe_seed = rlt_rand(&r);
}

/* The track encoded after the flush: a generator of its own, so that the
 * other draws of a case stay as they were */
static void draw_more(struct rlt_case *c, uint64_t seed)
{
    uint64_t r = seed;
    rlt_rand(&r);
    if (!chance(&r, 15))
        return;
    c->has_more = 1;
    c->more.signal = (enum rlt_signal)rlt_rand_below(&r, RLT_SIGNAL_COUNT);
    c->more.nsamples = chance(&r, 10) ? rlt_rand_below(&r, 2001) : 1 + rlt_rand_below(&r, 50000);
    c->more.gain = chance(&r, 30) ? 1.0 : rand_float(&r, 0.05f, 1.0f);
    c->more.seed = rlt_rand(&r);
}

void rlt_case_draw(struct rlt_case *c, uint64_t seed, long index)
{
    static const int cuts[] = {1, 7, 576, 1152, 4096, 220500, 0, 0};
    uint64_t r = seed ^ ((uint64_t)index * 0xd1b54a32d192ed03u);
    rlt_rand(&r);
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->index = index;
    c->channels = chance(&r, 70) ? 2 : 1;
    c->ntracks = chance(&r, 20) ? 2 + rlt_rand_below(&r, 2) : 1;
    c->entry = (enum rlt_entry)rlt_rand_below(&r, RLT_ENTRY_COUNT);
    c->cut = PICK(&r, cuts);
    c->mono_null_right = chance(&r, 50);
    draw_settings(c, &r);
    for (int t = 0; t < c->ntracks; t++) {
        struct rlt_track *tr = &c->tracks[t];
        tr->signal = (enum rlt_signal)rlt_rand_below(&r, RLT_SIGNAL_COUNT);
        /* 0.05 .. 1.6 s at 44.1 kHz (the rate does not change the count), a few
         * tiny tracks (0 .. 2000 samples) for the edges */
        tr->nsamples = chance(&r, 6) ? rlt_rand_below(&r, 2001) : 2205 + rlt_rand_below(&r, 68000);
        tr->gain = chance(&r, 30) ? 1.0 : rand_float(&r, 0.05f, 1.0f);
        /* unclipped values above full scale where the entry point takes floats */
        if ((c->entry == RLT_E_FLOAT || c->entry == RLT_E_IEEE_FLOAT || c->entry == RLT_E_IEEE_DOUBLE) &&
            chance(&r, 10))
            tr->gain = 1.5;
        tr->seed = rlt_rand(&r);
    }
    draw_probes(c, seed ^ ((uint64_t)index * 0x8cb92ba72f3d8dd7u) ^ 0x70b3u);
    draw_more(c, r ^ 0x6a09e667f3bcc909u);
}

void rlt_case_print(FILE *out, const struct rlt_case *c)
{
    fprintf(out, "case --seed %llu --index %ld: %s, %d channel(s), ", (unsigned long long)c->seed, c->index,
            rlt_entry_names[c->entry], c->channels);
    if (c->cut)
        fprintf(out, "%d samples per call", c->cut);
    else
        fprintf(out, "random sizes per call");
    if (c->channels == 1 && c->entry != RLT_E_INTERLEAVED && c->entry != RLT_E_INTERLEAVED_IEEE_FLOAT &&
        c->entry != RLT_E_INTERLEAVED_IEEE_DOUBLE && c->entry != RLT_E_INTERLEAVED_INT)
        fprintf(out, " (right pointer %s)", c->mono_null_right ? "NULL" : "= left");
    fprintf(out, "\n  settings:");
    for (int i = 0; i < c->nops; i++) {
        const struct rlt_op *op = &c->ops[i];
        switch (op->kind) {
        case RLT_OP_SET_INT:
        case RLT_OP_ID3_PAD:
        case RLT_OP_ID3_AUTO: fprintf(out, " %s(%d)", op->name, op->i); break;
        case RLT_OP_SET_FLOAT: fprintf(out, " %s(%.9g)", op->name, (double)op->f); break;
        case RLT_OP_VOID: fprintf(out, " %s()", op->name); break;
        case RLT_OP_STR:
        case RLT_OP_STR_INT: fprintf(out, " %s(\"%s\")", op->name, op->s); break;
        case RLT_OP_COMMENT: {
            const char *desc, *text;
            rlt_comment(op->i, &desc, &text);
            fprintf(out, " %s(%s%s%s, %s, %s)", op->name, op->s ? "\"" : "", op->s ? op->s : "NULL",
                    op->s ? "\"" : "", desc ? desc : "NULL", text ? text : "NULL");
            break;
        }
        }
    }
    fprintf(out, "\n  tracks:");
    for (int t = 0; t < c->ntracks; t++)
        fprintf(out, " [%s, %d samples, gain %.4g, seed %llu]", signal_names[c->tracks[t].signal],
                c->tracks[t].nsamples, c->tracks[t].gain, (unsigned long long)c->tracks[t].seed);
    fprintf(out, "%s", c->ntracks > 1 ? " (nogap: lame_encode_flush_nogap + lame_init_bitstream between)" : "");
    if (c->has_more)
        fprintf(out, "; after the flush [%s, %d samples, gain %.4g, seed %llu], flushed again",
                signal_names[c->more.signal], c->more.nsamples, c->more.gain,
                (unsigned long long)c->more.seed);
    fprintf(out, "\n");
    if (c->probe_percent)
        fprintf(out, "  mid-stream lame_get_lametag_frame and lame_get_size_mp3buffer after %d%% of the encode "
                "calls and the one past each track's middle\n", c->probe_percent);
}
