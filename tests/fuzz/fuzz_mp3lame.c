/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz target "mp3lame": random call sequences and settings
 * against the drop-in libmp3lame.so.0 (src/Mp3lame), as OSS-Fuzz's LAME
 * encoder fuzzer drives libmp3lame: setters with fuzzed values before and
 * after lame_init_params, every encode entry point with fuzzed sample counts
 * and output buffer sizes, flushes, nogap boundaries, ID3 calls, the tag
 * getters, the hip decoder on what came out, lame_close at any point.
 * Invariants: no crash and no sanitizer report; no call returns more bytes
 * than its buffer holds.
 *
 * Input layout: a sequence of operations, each an opcode byte and its
 * argument bytes (below); the operations stop at MAX_OPS or the end of the
 * input.  The samples are a fixed pseudo-random signal scaled by a fuzzed
 * gain, at most MAX_SAMPLES per call. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "../mp3lame/lame_abi.h"

#define MAX_OPS 48
#define MAX_SAMPLES 4608
#define MAX_TOTAL 40000   /* output-rate samples per input: keeps one run short */

#define DECLARE(ret, name, params) ret name params;
RLT_LAME_FUNCTIONS(DECLARE)
#undef DECLARE

/* the setters the sequences pick from: X(name, lo, hi) draws an int in [lo, hi] */
#define INT_SETTERS(X)                                                                                     \
    X(lame_set_num_channels, 0, 3) X(lame_set_in_samplerate, 0, 200000) X(lame_set_out_samplerate, 0, 50000) \
    X(lame_set_brate, 0, 700) X(lame_set_quality, -2, 11) X(lame_set_mode, -1, 5) X(lame_set_VBR, -1, 6)    \
    X(lame_set_VBR_q, -2, 11) X(lame_set_VBR_mean_bitrate_kbps, 0, 400)                                      \
    X(lame_set_VBR_min_bitrate_kbps, 0, 400) X(lame_set_VBR_max_bitrate_kbps, 0, 400)                        \
    X(lame_set_VBR_hard_min, 0, 1) X(lame_set_preset, 0, 1010) X(lame_set_findReplayGain, 0, 1)              \
    X(lame_set_decode_on_the_fly, 0, 1) X(lame_set_lowpassfreq, -1, 30000) X(lame_set_highpassfreq, -1, 30000) \
    X(lame_set_lowpasswidth, -1, 5000) X(lame_set_highpasswidth, -1, 5000)                                   \
    X(lame_set_disable_reservoir, 0, 1) X(lame_set_free_format, 0, 1) X(lame_set_bWriteVbrTag, 0, 1)         \
    X(lame_set_error_protection, 0, 1) X(lame_set_copyright, 0, 1) X(lame_set_original, 0, 1)                \
    X(lame_set_force_ms, 0, 1) X(lame_set_strict_ISO, 0, 2) X(lame_set_emphasis, 0, 3)                      \
    X(lame_set_num_samples, 0, 100000) X(lame_set_nogap_total, -1, 5) X(lame_set_nogap_currentindex, -1, 5)  \
    X(lame_set_ATHtype, -1, 6) X(lame_set_noATH, 0, 1) X(lame_set_no_short_blocks, 0, 1)                     \
    X(lame_set_force_short_blocks, 0, 1) X(lame_set_quant_comp, 0, 12) X(lame_set_useTemporal, 0, 1)       \
    X(lame_set_extension, 0, 1) X(lame_set_analysis, 0, 1) X(lame_set_padding_type, 0, 3)
#define FLOAT_SETTERS(X)                                                                                   \
    X(lame_set_scale) X(lame_set_scale_left) X(lame_set_scale_right) X(lame_set_VBR_quality)                 \
    X(lame_set_compression_ratio) X(lame_set_ATHlower) X(lame_set_msfix) X(lame_set_interChRatio)

#define DECLARE_INT(name, lo, hi) int name(lame_t, int);
#define DECLARE_FLOAT(name) int name(lame_t, float);
INT_SETTERS(DECLARE_INT)
FLOAT_SETTERS(DECLARE_FLOAT)
#undef DECLARE_INT
#undef DECLARE_FLOAT
int lame_get_framesize(const lame_global_flags *);
int lame_get_in_samplerate(const lame_global_flags *);
int lame_get_out_samplerate(const lame_global_flags *);
int lame_get_encoder_delay(const lame_global_flags *);
int lame_get_encoder_padding(const lame_global_flags *);
int lame_get_frameNum(const lame_global_flags *);
int lame_get_mf_samples_to_encode(const lame_global_flags *);
int lame_get_size_mp3buffer(const lame_global_flags *);
int lame_get_RadioGain(const lame_global_flags *);
int lame_get_totalframes(const lame_global_flags *);
float lame_get_PeakSample(const lame_global_flags *);
float lame_get_noclipScale(const lame_global_flags *);
void id3tag_set_title(lame_t, const char *);
void id3tag_set_artist(lame_t, const char *);
void id3tag_set_comment(lame_t, const char *);
int id3tag_set_comment_latin1(lame_t, const char *, const char *, const char *);
int id3tag_set_comment_utf16(lame_t, const char *, const unsigned short *, const unsigned short *);
int id3tag_set_genre(lame_t, const char *);
int id3tag_set_track(lame_t, const char *);
int id3tag_set_fieldvalue(lame_t, const char *);
void id3tag_v1_only(lame_t);
void id3tag_v2_only(lame_t);
void id3tag_add_v2(lame_t);

struct int_setter {
    int (*set)(lame_t, int);
    int lo, hi;
};
#define INT_ENTRY(name, lo, hi) {name, lo, hi},
static const struct int_setter int_setters[] = {INT_SETTERS(INT_ENTRY)};
#define FLOAT_ENTRY(name) name,
static int (*const float_setters[])(lame_t, float) = {FLOAT_SETTERS(FLOAT_ENTRY)};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static short s16[2 * MAX_SAMPLES];
static int s32[2 * MAX_SAMPLES];
static long sl[2 * MAX_SAMPLES];
static float f32[2 * MAX_SAMPLES];
static double f64[2 * MAX_SAMPLES];
static unsigned char out[5 * MAX_SAMPLES / 4 + 7200 + 64];
static unsigned char stream[1 << 17];
static size_t stream_len;

static void quiet(const char *format, va_list ap)
{
    (void)format;
    (void)ap;
}

static void fill(unsigned gain_byte)
{
    static const float gains[] = {0.0f, 0.001f, 0.5f, 1.0f, 1.5f, 8.0f};
    float g = gains[gain_byte % COUNT(gains)];
    uint32_t r = 12345u + gain_byte;
    for (int i = 0; i < 2 * MAX_SAMPLES; i++) {
        r = r * 1664525u + 1013904223u;
        double x = g * ((double)(r >> 8) / (double)(1u << 23) - 1.0);
        double c = x > 1.0 ? 1.0 : x < -1.0 ? -1.0 : x;
        s16[i] = (short)(c * 32767.0);
        s32[i] = (int)(c * 2147483647.0);
        sl[i] = (long)(c * 32767.0);
        f32[i] = (float)x;
        f64[i] = x;
    }
}

static void keep(int ret, int size)
{
    FZ_CHECK(ret <= size || size == 0, "a call returned %d bytes into a %d-byte buffer", ret, size);
    if (ret > 0 && stream_len + (size_t)ret <= sizeof stream) {
        memcpy(stream + stream_len, out, (size_t)ret);
        stream_len += (size_t)ret;
    }
}

/* Output samples per input sample, rounded up (1 when not resampling up). */
static long upsampling(lame_t gfp)
{
    long const in = lame_get_in_samplerate(gfp), o = lame_get_out_samplerate(gfp);
    return in > 0 && o > in ? (o + in - 1) / in : 1;
}

static int encode(lame_t gfp, unsigned entry, int n, int size)
{
    const long *slr = sl + MAX_SAMPLES;
    switch (entry % 11) {
    case 0: return lame_encode_buffer(gfp, s16, s16 + MAX_SAMPLES, n, out, size);
    case 1: return lame_encode_buffer_interleaved(gfp, s16, n, out, size);
    case 2: return lame_encode_buffer_float(gfp, f32, f32 + MAX_SAMPLES, n, out, size);
    case 3: return lame_encode_buffer_ieee_float(gfp, f32, f32 + MAX_SAMPLES, n, out, size);
    case 4: return lame_encode_buffer_interleaved_ieee_float(gfp, f32, n, out, size);
    case 5: return lame_encode_buffer_ieee_double(gfp, f64, f64 + MAX_SAMPLES, n, out, size);
    case 6: return lame_encode_buffer_interleaved_ieee_double(gfp, f64, n, out, size);
    case 7: return lame_encode_buffer_int(gfp, s32, s32 + MAX_SAMPLES, n, out, size);
    case 8: return lame_encode_buffer_long(gfp, sl, slr, n, out, size);
    case 9: return lame_encode_buffer_long2(gfp, sl, slr, n, out, size);
    default: return lame_encode_buffer_interleaved_int(gfp, s32, n, out, size);
    }
}

static void read_getters(lame_t gfp)
{
    int h14[14], h4[4], h6[6], h14x4[14][4], h14x6[14][6];
    volatile long sink = lame_get_framesize(gfp) + lame_get_encoder_delay(gfp) + lame_get_encoder_padding(gfp) +
                         lame_get_frameNum(gfp) + lame_get_mf_samples_to_encode(gfp) +
                         lame_get_size_mp3buffer(gfp) + lame_get_RadioGain(gfp) + lame_get_totalframes(gfp);
    volatile float fsink = lame_get_PeakSample(gfp) + lame_get_noclipScale(gfp);
    (void)sink;
    (void)fsink;
    lame_bitrate_hist(gfp, h14);
    lame_bitrate_kbps(gfp, h14);
    lame_stereo_mode_hist(gfp, h4);
    lame_bitrate_stereo_mode_hist(gfp, h14x4);
    lame_block_type_hist(gfp, h6);
    lame_bitrate_block_type_hist(gfp, h14x6);
}

/* a comment with a language (in a zero-filled buffer: libmp3lame reads
 * three bytes of it) and UTF-16 strings with either byte-order mark, none,
 * or empty */
static void comment_call(lame_t gfp, unsigned which, unsigned text, const char *t)
{
    static const char *const langs[] = {"eng", "", "e", "DEU", "xx\x01", "spanish"};
    static const unsigned short bom[] = {0xFEFFu, 0xFFFEu, 0x0041u, 0};
    char lang[8] = {0};
    unsigned short d[64], x[64];
    size_t i, n = strlen(t) < 60 ? strlen(t) : 60;
    const char *l = text & 64 ? NULL : strncpy(lang, langs[(text >> 3) % COUNT(langs)], sizeof lang - 1);

    if (which & 1) {
        (void)id3tag_set_comment_latin1(gfp, l, text & 128 ? NULL : t, t);
        return;
    }
    d[0] = x[0] = bom[(text >> 1) % COUNT(bom)];
    for (i = 0; i < n; i++)
        d[1 + i] = x[1 + i] = (unsigned short)(d[0] == 0xFFFEu ? (unsigned char)t[i] << 8 : (unsigned char)t[i]);
    d[1 + n] = x[1 + n] = 0;
    if (d[0] == 0)
        d[1] = 0;
    (void)id3tag_set_comment_utf16(gfp, l, text & 128 ? NULL : d, text & 4 ? NULL : x);
}

static void id3_call(lame_t gfp, unsigned which, unsigned text)
{
    static const char *const texts[] = {"", "x", "Title", "17", "Rock", "3/12", "TPOS=1/2", "TXXX=a=b",
                                        "A text longer than thirty characters, for ID3v2", "COMM=bad", "255"};
    const char *t = texts[text % COUNT(texts)];
    if (which % 12 >= 10) {
        comment_call(gfp, which / 12, text, t);
        return;
    }
    switch (which % 10) {
    case 0: id3tag_init(gfp); break;
    case 1: id3tag_set_title(gfp, t); break;
    case 2: id3tag_set_artist(gfp, t); break;
    case 3: id3tag_set_comment(gfp, t); break;
    case 4: (void)id3tag_set_genre(gfp, t); break;
    case 5: (void)id3tag_set_track(gfp, t); break;
    case 6: (void)id3tag_set_fieldvalue(gfp, t); break;
    case 7: id3tag_v1_only(gfp); break;
    case 8: id3tag_v2_only(gfp); break;
    default: id3tag_set_pad(gfp, text % 300); break;
    }
}

static void read_tags(lame_t gfp)
{
    static unsigned char tag[1 << 16];
    size_t n = lame_get_lametag_frame(gfp, tag, sizeof tag);
    FZ_CHECK(n <= sizeof tag, "lame_get_lametag_frame: %zu bytes into %zu", n, sizeof tag);
    n = lame_get_id3v1_tag(gfp, tag, sizeof tag);
    FZ_CHECK(n <= sizeof tag, "lame_get_id3v1_tag: %zu bytes into %zu", n, sizeof tag);
    n = lame_get_id3v2_tag(gfp, tag, sizeof tag);
    FZ_CHECK(n <= sizeof tag, "lame_get_id3v2_tag: %zu bytes into %zu", n, sizeof tag);
    (void)lame_get_lametag_frame(gfp, tag, 0);
    (void)lame_get_id3v2_tag(gfp, tag, 3);
}

static void decode(void)
{
    static short l[4608], r[4608];
    hip_t hip = hip_decode_init();
    if (!hip)
        return;
    hip_set_errorf(hip, quiet);
    hip_set_debugf(hip, quiet);
    hip_set_msgf(hip, quiet);
    for (size_t pos = 0; pos < stream_len; pos += 700) {
        size_t len = stream_len - pos < 700 ? stream_len - pos : 700;
        mp3data_struct md;
        int delay, padding;
        int n = hip_decode1_headersB(hip, stream + pos, len, l, r, &md, &delay, &padding);
        for (int k = 0; n > 0 && k < 8; k++)
            n = hip_decode1_headersB(hip, stream + pos, 0, l, r, &md, &delay, &padding);
    }
    hip_decode_exit(hip);
}

static lame_t fresh(void)
{
    lame_t gfp = lame_init();
    if (gfp) {
        lame_set_errorf(gfp, quiet);
        lame_set_debugf(gfp, quiet);
        lame_set_msgf(gfp, quiet);
    }
    return gfp;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FzBytes b = {data, size};
    long total = 0;
    int mid_stream = 0;   /* samples encoded since the last flush: lame_get_size_mp3buffer drains the ring */
    stream_len = 0;
    fill(fz_u8(&b));
    lame_t gfp = fresh();
    if (!gfp)
        return 0;
    for (int op = 0; op < MAX_OPS && b.n > 0; op++) {
        switch (fz_u8(&b) % 12) {
        case 0: {
            const struct int_setter *s = &int_setters[fz_pick(&b, COUNT(int_setters))];
            int span = s->hi - s->lo + 1;
            s->set(gfp, s->lo + (int)(fz_u16(&b) % (unsigned)span));
            break;
        }
        case 1: {
            int (*set)(lame_t, float) = float_setters[fz_pick(&b, COUNT(float_setters))];
            set(gfp, ((float)(int)fz_u16(&b) - 16384.0f) / 1024.0f);
            break;
        }
        case 2:
            lame_init_params(gfp);
            break;
        case 3: {
            unsigned entry = fz_u8(&b);
            int n = (int)(fz_u16(&b) % (MAX_SAMPLES + 1));
            unsigned sz = fz_u8(&b);
            /* the promise (1.25 n + 7200), 0 (no limit), or a small buffer */
            int bufsize = sz < 200 ? 5 * n / 4 + 7200 : sz < 230 ? 0 : (int)(sz - 229) * 64;
            /* counted at the output rate: resampling 1 Hz up to 48 kHz
             * makes every input sample tens of thousands to encode */
            long const cost = (long)n * upsampling(gfp);
            if (total + cost > MAX_TOTAL)
                break;
            total += cost;
            int got = encode(gfp, entry, n, bufsize);
            if (got >= 0 && n > 0)
                mid_stream = 1;
            keep(got, bufsize ? bufsize : (int)sizeof out);
            break;
        }
        case 4: {
            int bufsize = fz_u8(&b) < 230 ? 7200 : 100;
            keep(lame_encode_flush(gfp, out, bufsize), bufsize);
            mid_stream = 0;
            break;
        }
        case 5: {
            int bufsize = fz_u8(&b) < 230 ? 7200 : 100;
            /* libmp3lame's count of its own bit buffer (mp3lame_compare checks it
             * exactly); the drop-in's nogap flush also returns the bytes its
             * encode calls handed out late, so the count bounds nothing here */
            if (mid_stream)
                (void) lame_get_size_mp3buffer(gfp);
            keep(lame_encode_flush_nogap(gfp, out, bufsize), bufsize);
            mid_stream = 0;
            break;
        }
        case 6:
            lame_init_bitstream(gfp);
            break;
        case 7:
            read_getters(gfp);
            break;
        case 8: {
            unsigned which = fz_u8(&b);
            id3_call(gfp, which, fz_u8(&b));
            break;
        }
        case 9:
            read_tags(gfp);
            break;
        case 10:   /* lame_close at any point, and a new handle */
            lame_close(gfp);
            mid_stream = 0;
            gfp = fresh();
            if (!gfp)
                return 0;
            break;
        default:
            decode();
            break;
        }
    }
    lame_close(gfp);
    decode();
    return 0;
}
