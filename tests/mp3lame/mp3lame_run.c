/* SPDX-License-Identifier: LGPL-2.0-or-later */
#include "mp3lame_run.h"

#include "mp3lame_signal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the getters read after lame_init_params and again at the end */
static const char *const int_getters[] = {
    "lame_get_num_samples", "lame_get_in_samplerate", "lame_get_num_channels", "lame_get_out_samplerate",
    "lame_get_analysis", "lame_get_bWriteVbrTag", "lame_get_decode_only", "lame_get_quality", "lame_get_mode",
    "lame_get_force_ms", "lame_get_free_format", "lame_get_findReplayGain", "lame_get_decode_on_the_fly",
    "lame_get_nogap_total", "lame_get_nogap_currentindex", "lame_get_brate", "lame_get_copyright",
    "lame_get_original", "lame_get_error_protection", "lame_get_extension", "lame_get_strict_ISO",
    "lame_get_disable_reservoir", "lame_get_quant_comp", "lame_get_quant_comp_short", "lame_get_exp_nspsytune",
    "lame_get_VBR", "lame_get_VBR_q", "lame_get_VBR_mean_bitrate_kbps", "lame_get_VBR_min_bitrate_kbps",
    "lame_get_VBR_max_bitrate_kbps", "lame_get_VBR_hard_min", "lame_get_lowpassfreq", "lame_get_lowpasswidth",
    "lame_get_highpassfreq", "lame_get_highpasswidth", "lame_get_ATHonly", "lame_get_ATHshort", "lame_get_noATH",
    "lame_get_ATHtype", "lame_get_athaa_type", "lame_get_useTemporal", "lame_get_no_short_blocks",
    "lame_get_force_short_blocks", "lame_get_emphasis", "lame_get_version", "lame_get_encoder_delay",
    "lame_get_encoder_padding", "lame_get_framesize", "lame_get_mf_samples_to_encode",
    "lame_get_frameNum", "lame_get_totalframes", "lame_get_RadioGain", "lame_get_AudiophileGain",
    "lame_get_noclipGainChange", "lame_get_findPeakSample", "lame_get_write_id3tag_automatic",
    "lame_get_allow_diff_short", "lame_get_padding_type", "lame_get_experimentalX", "lame_get_experimentalY",
    "lame_get_experimentalZ", "lame_get_ReplayGain_input", "lame_get_ReplayGain_decode", "lame_get_ogg",
    "lame_get_mode_automs", "lame_get_cwlimit", "lame_get_athaa_loudapprox",
};
static const char *const float_getters[] = {
    "lame_get_scale", "lame_get_scale_left", "lame_get_scale_right", "lame_get_compression_ratio",
    "lame_get_VBR_quality", "lame_get_ATHlower", "lame_get_athaa_sensitivity", "lame_get_interChRatio",
    "lame_get_msfix", "lame_get_PeakSample", "lame_get_noclipScale",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int rlt_bytes_append(struct rlt_bytes *b, const void *data, size_t len)
{
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len)
            cap *= 2;
        unsigned char *p = realloc(b->data, cap);
        if (!p)
            return -ENOMEM;
        b->data = p;
        b->cap = cap;
    }
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

static struct rlt_record *record(struct rlt_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static struct rlt_record *record(struct rlt_result *res, const char *fmt, ...)
{
    static struct rlt_record overflow;
    if (res->nrecords >= RLT_MAX_RECORDS) {
        res->oom = 1;
        overflow.bytes.len = 0;
        return &overflow;
    }
    struct rlt_record *r = &res->records[res->nrecords++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->name, sizeof r->name, fmt, ap);
    va_end(ap);
    return r;
}

static void put(struct rlt_result *res, struct rlt_record *r, const void *data, size_t len)
{
    if (rlt_bytes_append(&r->bytes, data, len) < 0)
        res->oom = 1;
}

void rlt_result_put(struct rlt_result *res, const char *name, const void *data, size_t len)
{
    put(res, record(res, "%s", name), data, len);
}

static void put_int(struct rlt_result *res, const char *name, const char *when, long v)
{
    put(res, record(res, "%s%s", when, name), &v, sizeof v);
}

/* errorf/debugf/msgf: every message of the run, in order, into one record */
static _Thread_local struct rlt_bytes *messages;

static void capture(char kind, const char *format, va_list ap)
{
    char text[2048];
    int n = vsnprintf(text, sizeof text, format, ap);
    if (messages && n > 0) {
        rlt_bytes_append(messages, &kind, 1);
        rlt_bytes_append(messages, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
    }
}
static void capture_error(const char *format, va_list ap) { capture('E', format, ap); }
static void capture_debug(const char *format, va_list ap) { capture('D', format, ap); }
static void capture_msg(const char *format, va_list ap) { capture('M', format, ap); }

static void add_call(struct rlt_result *res, int ret, int is_flush, size_t total)
{
    if (res->ncalls == res->calls_cap) {
        size_t cap = res->calls_cap ? 2 * res->calls_cap : 1024;
        struct rlt_call *p = realloc(res->calls, cap * sizeof *p);
        if (!p) {
            res->oom = 1;
            return;
        }
        res->calls = p;
        res->calls_cap = cap;
    }
    res->calls[res->ncalls++] = (struct rlt_call){ret, is_flush, total};
}

/* id3tag_set_comment_latin1 / _utf16 in language lang */
static int apply_comment(void *f, lame_t gfp, const struct rlt_op *op, const char *language)
{
    /* libmp3lame reads three bytes of the language whatever its length:
     * a zero-filled buffer keeps that read defined */
    char buf[8] = {0};
    const char *lang = language ? strncpy(buf, language, sizeof buf - 1) : NULL;
    const char *desc, *text;
    rlt_comment(op->i, &desc, &text);
    if (strcmp(op->name, "id3tag_set_comment_utf16") != 0)
        return ((rlt_id3_comment_fn)f)(gfp, lang, desc, text);
    unsigned short d[RLT_COMMENT_UNITS], t[RLT_COMMENT_UNITS];
    if (desc)
        rlt_comment_utf16(op->i, desc, d);
    if (text)
        rlt_comment_utf16(op->i, text, t);
    return ((rlt_id3_comment_utf16_fn)f)(gfp, lang, desc ? d : NULL, text ? t : NULL);
}

int rlt_case_has_comment_lang(const struct rlt_case *c)
{
    int comment = 0;
    for (int i = 0; i < c->nops; i++) {
        if (c->ops[i].kind == RLT_OP_COMMENT)
            comment = 1;
        if (!strcmp(c->ops[i].name, "id3tag_v1_only"))
            return 0;
    }
    return comment;
}

/* the language a perturbed second side gives every comment instead */
#define PERTURBED_LANG "xyz"

static int apply_op(const struct rlt_lame *lib, lame_t gfp, const struct rlt_op *op, enum rlt_perturb perturb)
{
    void *f = rlt_lame_symbol(lib, op->name);
    if (!f)
        return -9999;
    switch (op->kind) {
    case RLT_OP_SET_INT: return ((rlt_set_int_fn)f)(gfp, op->i);
    case RLT_OP_SET_FLOAT: return ((rlt_set_float_fn)f)(gfp, op->f);
    case RLT_OP_VOID: ((rlt_id3_void_fn)f)(gfp); return 0;
    case RLT_OP_STR: ((rlt_id3_str_fn)f)(gfp, op->s); return 0;
    case RLT_OP_STR_INT: return ((rlt_id3_str_int_fn)f)(gfp, op->s);
    case RLT_OP_ID3_PAD: lib->id3tag_set_pad(gfp, (size_t)op->i); return 0;
    case RLT_OP_ID3_AUTO: lib->lame_set_write_id3tag_automatic(gfp, op->i); return 0;
    case RLT_OP_COMMENT:
        return apply_comment(f, gfp, op, perturb == RLT_PERTURB_COMMENT_LANG ? PERTURBED_LANG : op->s);
    }
    return -9999;
}

static void read_getters(const struct rlt_lame *lib, lame_t gfp, const char *when, struct rlt_result *res)
{
    for (size_t i = 0; i < COUNT(int_getters); i++) {
        rlt_get_int_fn f = (rlt_get_int_fn)rlt_lame_symbol(lib, int_getters[i]);
        put_int(res, int_getters[i], when, f ? f(gfp) : -9999);
    }
    for (size_t i = 0; i < COUNT(float_getters); i++) {
        rlt_get_float_fn f = (rlt_get_float_fn)rlt_lame_symbol(lib, float_getters[i]);
        float v = f ? f(gfp) : -9999.0f;
        put(res, record(res, "%s%s", when, float_getters[i]), &v, sizeof v);
    }
    /* Debian's library reports "strange error flushing buffer" through errorf
     * when lame_get_size_mp3buffer is asked before a frame is out: the
     * getter's messages go to a record of its own, named after it */
    struct rlt_record *own = record(res, "%slame_get_size_mp3buffer: its errorf/debugf/msgf messages", when);
    struct rlt_bytes *all = messages;
    rlt_get_int_fn size = (rlt_get_int_fn)rlt_lame_symbol(lib, "lame_get_size_mp3buffer");
    messages = &own->bytes;
    put_int(res, "lame_get_size_mp3buffer", when, size(gfp));
    messages = all;
}

static void read_histograms(const struct rlt_lame *lib, lame_t gfp, struct rlt_result *res)
{
    int h14[14] = {0}, h4[4] = {0}, h6[6] = {0}, h14x4[14][4] = {{0}}, h14x6[14][6] = {{0}};
    lib->lame_bitrate_hist(gfp, h14);
    put(res, record(res, "lame_bitrate_hist"), h14, sizeof h14);
    lib->lame_bitrate_kbps(gfp, h14);
    put(res, record(res, "lame_bitrate_kbps"), h14, sizeof h14);
    lib->lame_stereo_mode_hist(gfp, h4);
    put(res, record(res, "lame_stereo_mode_hist"), h4, sizeof h4);
    lib->lame_bitrate_stereo_mode_hist(gfp, h14x4);
    put(res, record(res, "lame_bitrate_stereo_mode_hist"), h14x4, sizeof h14x4);
    lib->lame_block_type_hist(gfp, h6);
    put(res, record(res, "lame_block_type_hist"), h6, sizeof h6);
    lib->lame_bitrate_block_type_hist(gfp, h14x6);
    put(res, record(res, "lame_bitrate_block_type_hist"), h14x6, sizeof h14x6);
}

/* a tag getter's size query (buffer too small) and then its bytes */
static void read_tag(struct rlt_result *res, const char *name, lame_t gfp,
                     size_t (*get)(lame_t, unsigned char *, size_t))
{
    unsigned char probe[1];
    size_t need = get(gfp, probe, 0);
    put_int(res, name, "size asked with 0 bytes: ", (long)need);
    if (need > 0 && need < (1u << 20)) {
        unsigned char *buf = calloc(need, 1);
        if (!buf) {
            res->oom = 1;
            return;
        }
        size_t got = get(gfp, buf, need);
        put(res, record(res, "%s", name), buf, got <= need ? got : need);
        free(buf);
    }
}

static size_t get_lametag(lame_t gfp, unsigned char *buf, size_t size, const struct rlt_lame *lib)
{
    return lib->lame_get_lametag_frame(gfp, buf, size);
}

static void read_lametag(const struct rlt_lame *lib, lame_t gfp, int track, struct rlt_result *res)
{
    unsigned char probe[1], buf[4096];
    size_t need = get_lametag(gfp, probe, 0, lib);
    put_int(res, "lame_get_lametag_frame", "size asked with 0 bytes: ", (long)need);
    size_t got = get_lametag(gfp, buf, sizeof buf, lib);
    put(res, record(res, "lame_get_lametag_frame after track %d", track + 1), buf,
        got <= sizeof buf ? got : sizeof buf);
}

static int encode_call(const struct rlt_lame *lib, lame_t gfp, const struct rlt_case *c,
                       const struct rlt_entry_pcm *in, int pos, int n, unsigned char *out, int out_size)
{
    size_t ss = in->sample_size;
    const void *l = (const char *)in->left + (size_t)pos * ss * (in->interleaved ? 2 : 1);
    const void *r = in->interleaved ? NULL : (const char *)in->right + (size_t)pos * ss;
    if (c->channels == 1 && !in->interleaved)
        r = c->mono_null_right ? NULL : l;
    switch (c->entry) {
    case RLT_E_BUFFER: return lib->lame_encode_buffer(gfp, l, r, n, out, out_size);
    case RLT_E_INTERLEAVED: return lib->lame_encode_buffer_interleaved(gfp, (short *)(uintptr_t)l, n, out,
                                                                       out_size);
    case RLT_E_FLOAT: return lib->lame_encode_buffer_float(gfp, l, r, n, out, out_size);
    case RLT_E_IEEE_FLOAT: return lib->lame_encode_buffer_ieee_float(gfp, l, r, n, out, out_size);
    case RLT_E_INTERLEAVED_IEEE_FLOAT: return lib->lame_encode_buffer_interleaved_ieee_float(gfp, l, n, out,
                                                                                             out_size);
    case RLT_E_IEEE_DOUBLE: return lib->lame_encode_buffer_ieee_double(gfp, l, r, n, out, out_size);
    case RLT_E_INTERLEAVED_IEEE_DOUBLE: return lib->lame_encode_buffer_interleaved_ieee_double(gfp, l, n, out,
                                                                                               out_size);
    case RLT_E_INT: return lib->lame_encode_buffer_int(gfp, l, r, n, out, out_size);
    case RLT_E_LONG: return lib->lame_encode_buffer_long(gfp, l, r, n, out, out_size);
    case RLT_E_LONG2: return lib->lame_encode_buffer_long2(gfp, l, r, n, out, out_size);
    case RLT_E_INTERLEAVED_INT: return lib->lame_encode_buffer_interleaved_int(gfp, l, n, out, out_size);
    case RLT_ENTRY_COUNT: break;
    }
    return -9999;
}

/* lame.h's promise: 1.25 * nsamples + 7200 bytes hold one call's output;
 * it counts output samples, so an upsampling encode gets the rate's ratio
 * more (Debian's library returns -1 on the promise's size there) */
static int mp3buf_size(int n, int upsampling)
{
    return 5 * (n / 4 * upsampling) + 5 + 7200;
}

/* the output rate's ratio to the input's, rounded up (1 without upsampling) */
static int upsampling(const struct rlt_lame *lib, lame_t gfp)
{
    rlt_get_int_fn get_in = (rlt_get_int_fn)rlt_lame_symbol(lib, "lame_get_in_samplerate");
    rlt_get_int_fn get_out = (rlt_get_int_fn)rlt_lame_symbol(lib, "lame_get_out_samplerate");
    int in = get_in(gfp), out = get_out(gfp);
    return in > 0 && out > in ? (out + in - 1) / in : 1;
}

static struct rlt_record *stream_record(struct rlt_result *res)
{
    for (int i = 0; i < res->nrecords; i++)
        if (res->records[i].is_stream)
            return &res->records[i];
    return NULL;
}

/* The mid-stream probes' records (every probe of the case appended) and
 * the generator that picks the calls they follow */
struct probes {
    struct rlt_record *tag, *size, *size_messages;
    uint64_t rand;
    int call;      /* encode calls so far, all tracks */
    long early;    /* RLT_PERTURB_PROBE_SIZE: the size before the first call, for the first probe */
    int early_pending;
};

static void probes_open(struct probes *p, const struct rlt_case *c, struct rlt_result *res)
{
    p->tag = record(res, "mid-stream lame_get_lametag_frame (call, size asked with 0 bytes, frame)");
    p->size = record(res, "mid-stream lame_get_size_mp3buffer (call, size)");
    p->size_messages = record(res, "mid-stream lame_get_size_mp3buffer: its errorf/debugf/msgf messages");
    p->rand = c->probe_seed;
    p->call = 0;
    p->early_pending = 0;
}

static long size_asked(const struct rlt_lame *lib, lame_t gfp, struct probes *p)
{
    rlt_get_int_fn size = (rlt_get_int_fn)rlt_lame_symbol(lib, "lame_get_size_mp3buffer");
    struct rlt_bytes *all = messages;
    messages = &p->size_messages->bytes;
    long v = size(gfp);
    messages = all;
    return v;
}

/* RLT_PERTURB_PROBE_SIZE: the first probe's size is asked now, before the first encode call */
static void probe_size_early(const struct rlt_lame *lib, lame_t gfp, struct probes *p)
{
    p->early = size_asked(lib, gfp, p);
    p->early_pending = 1;
}

static void probe_size(const struct rlt_lame *lib, lame_t gfp, struct probes *p, struct rlt_result *res)
{
    long v[2] = {p->call, p->early_pending ? p->early : size_asked(lib, gfp, p)};
    p->early_pending = 0;
    put(res, p->size, v, sizeof v);
}

static const struct rlt_bytes *find_record(const struct rlt_result *res, const char *name)
{
    for (int i = 0; i < res->nrecords; i++)
        if (!strcmp(res->records[i].name, name))
            return &res->records[i].bytes;
    return NULL;
}

enum rlt_perturb rlt_probe_perturbation(const struct rlt_result *ref, int prefer_tag)
{
    const struct rlt_bytes *tags = find_record(ref, "mid-stream lame_get_lametag_frame (call, size asked with 0 bytes, frame)");
    const struct rlt_bytes *sizes = find_record(ref, "mid-stream lame_get_size_mp3buffer (call, size)");
    const struct rlt_bytes *early = find_record(ref, "after lame_init_params: lame_get_size_mp3buffer");
    int tag = 0, size = 0;
    /* each tag probe: call, size, bytes got (longs), then the frame */
    for (size_t at = 0; tags && at + 3 * sizeof(long) <= tags->len;) {
        long head[3];
        memcpy(head, tags->data + at, sizeof head);
        at += sizeof head + (size_t)head[2];
        tag |= head[2] > 0;
    }
    if (sizes && early && sizes->len >= 2 * sizeof(long) && early->len == sizeof(long)) {
        long first[2], start;
        memcpy(first, sizes->data, sizeof first);
        memcpy(&start, early->data, sizeof start);
        size = first[1] != start;
    }
    if (tag && (prefer_tag || !size))
        return RLT_PERTURB_PROBE_TAG;
    return size ? RLT_PERTURB_PROBE_SIZE : RLT_PERTURB_NONE;
}

static void probe_tag(const struct rlt_lame *lib, lame_t gfp, struct probes *p, enum rlt_perturb perturb,
                      struct rlt_result *res)
{
    rlt_get_int_fn get_index = (rlt_get_int_fn)rlt_lame_symbol(lib, "lame_get_nogap_currentindex");
    rlt_set_int_fn set_index = (rlt_set_int_fn)rlt_lame_symbol(lib, "lame_set_nogap_currentindex");
    unsigned char probe[1], buf[4096];
    int const index = get_index(gfp);
    if (perturb == RLT_PERTURB_PROBE_TAG)   /* the tag's nogap flags change */
        set_index(gfp, index + 1);
    size_t need = lib->lame_get_lametag_frame(gfp, probe, 0);
    size_t got = lib->lame_get_lametag_frame(gfp, buf, sizeof buf);
    if (perturb == RLT_PERTURB_PROBE_TAG)
        set_index(gfp, index);
    long head[3] = {p->call, (long)need, (long)got};
    put(res, p->tag, head, sizeof head);
    put(res, p->tag, buf, got <= sizeof buf ? got : sizeof buf);
}

/* track tr through c's entry point and cutting; changed: one sample
 * perturbed; probes: the mid-stream probes to make (NULL: none), with the
 * case's perturbation perturb */
static int encode_track(const struct rlt_lame *lib, lame_t gfp, const struct rlt_case *c,
                        const struct rlt_track *tr, int changed, enum rlt_perturb perturb,
                        struct rlt_result *res, unsigned char *out, struct probes *probes)
{
    struct rlt_pcm pcm;
    struct rlt_entry_pcm in;
    if (rlt_signal_make(&pcm, tr) < 0)
        return -ENOMEM;
    if (changed && pcm.nsamples > 0) {
        pcm.left[pcm.nsamples / 2] = pcm.left[pcm.nsamples / 2] > 0.0 ? -0.9 : 0.9;
        pcm.right[pcm.nsamples / 2] = pcm.left[pcm.nsamples / 2];
    }
    int err = rlt_entry_pcm_make(&in, &pcm, c->entry);
    rlt_signal_free(&pcm);
    if (err < 0)
        return err;
    struct rlt_record *stream = stream_record(res);
    uint64_t cuts = tr->seed ^ 0x5eedu;
    int up = upsampling(lib, gfp);
    int const middle = tr->nsamples / 2;
    for (int pos = 0; pos < tr->nsamples;) {
        int left = tr->nsamples - pos;
        int n = c->cut ? c->cut : 1 + rlt_rand_below(&cuts, 5000);
        if (n > left)
            n = left;
        int probe = probes && (rlt_rand_below(&probes->rand, 100) < c->probe_percent ||
                               (pos <= middle && pos + n > middle));
        int ret = encode_call(lib, gfp, c, &in, pos, n, out, mp3buf_size(n, up));
        if (ret > 0)
            put(res, stream, out, (size_t)ret);
        add_call(res, ret, 0, stream->bytes.len);
        if (ret < 0)
            break;
        pos += n;
        if (probes)
            probes->call++;
        if (probe) {
            probe_tag(lib, gfp, probes, perturb, res);
            probe_size(lib, gfp, probes, res);
        }
    }
    rlt_entry_pcm_free(&in);
    return 0;
}

/* a flush call's return and its bytes (out) into the stream */
static void flush_call(struct rlt_result *res, int ret, const unsigned char *out)
{
    struct rlt_record *stream = stream_record(res);
    if (ret > 0)
        put(res, stream, out, (size_t)ret);
    add_call(res, ret, 1, stream->bytes.len);
}

/* A gapless track's lame_encode_flush_nogap into lame.h's 7200 bytes;
 * for a quarter of the tracks (by the track's seed) first into a buffer of
 * 1..600 bytes, which libmp3lame's flush may not fit (-1: its bytes stay
 * in its bit buffer for the retry).  That try is not a completing flush:
 * a drop-in may still hold bytes libmp3lame had handed out.  Not with
 * decoding on the fly (docs/api.md: the held bytes' peak). */
static void nogap_flush(const struct rlt_lame *lib, lame_global_flags *gfp, const struct rlt_track *tk,
                        struct rlt_result *res, unsigned char *out)
{
    rlt_get_int_fn decoding = (rlt_get_int_fn)rlt_lame_symbol(lib, "lame_get_decode_on_the_fly");
    if (tk->seed % 4 == 0 && !decoding(gfp)) {
        struct rlt_record *stream = stream_record(res);
        int ret = lib->lame_encode_flush_nogap(gfp, out, 1 + (int)((tk->seed >> 8) % 600));
        if (ret > 0)
            put(res, stream, out, (size_t)ret);
        add_call(res, ret, 0, stream->bytes.len);
        if (ret >= 0)
            return;
    }
    flush_call(res, lib->lame_encode_flush_nogap(gfp, out, 7200), out);
}

/* hip_decode1_headersB over the stream in 1000-byte pieces, each piece
 * drained frame by frame: the PCM, the header data and the delay/padding
 * the decoder found */
static void decode_stream(const struct rlt_lame *lib, const struct rlt_bytes *mp3, struct rlt_result *res)
{
    hip_t hip = lib->hip_decode_init();
    if (!hip) {
        put_int(res, "hip_decode_init", "", 0);
        return;
    }
    lib->hip_set_errorf(hip, capture_error);
    lib->hip_set_debugf(hip, capture_debug);
    lib->hip_set_msgf(hip, capture_msg);
    struct rlt_record *pcm = record(res, "hip_decode1_headersB: decoded PCM");
    struct rlt_record *rets = record(res, "hip_decode1_headersB: return values");
    struct rlt_record *headers = record(res, "hip_decode1_headersB: mp3data and delay/padding");
    static short l[4608], r[4608];
    unsigned char empty[1];
    for (size_t pos = 0; pos < mp3->len || pos == 0; pos += 1000) {
        size_t len = mp3->len - pos < 1000 ? mp3->len - pos : 1000;
        unsigned char *in = len ? mp3->data + pos : empty;
        for (int k = 0; k < 64; k++) {
            mp3data_struct md;
            int delay = -7, padding = -7;
            memset(&md, 0, sizeof md);
            int n = lib->hip_decode1_headersB(hip, in, len, l, r, &md, &delay, &padding);
            put(res, rets, &n, sizeof n);
            if (md.header_parsed) {
                int h[] = {md.stereo, md.samplerate, md.bitrate, md.mode, md.mode_ext, md.framesize,
                           (int)md.nsamp, md.totalframes, delay, padding};
                put(res, headers, h, sizeof h);
            }
            if (n <= 0)
                break;
            for (int i = 0; i < n && i < 4608; i++) {
                put(res, pcm, &l[i], sizeof l[i]);
                put(res, pcm, &r[i], sizeof r[i]);
            }
            in = empty;
            len = 0;
        }
        if (mp3->len == 0)
            break;
    }
    put_int(res, "hip_decode_exit", "", lib->hip_decode_exit(hip));
}

/* After the last flush: the getters there, c->more encoded into the ended
 * stream, a second flush into 7200 bytes and the LAME tag again */
static int encode_more(const struct rlt_lame *lib, lame_t gfp, const struct rlt_case *c,
                       enum rlt_perturb perturb, struct rlt_result *res, unsigned char *out)
{
    read_getters(lib, gfp, "after the flush: ", res);
    if (encode_track(lib, gfp, c, &c->more, perturb == RLT_PERTURB_MORE_SAMPLE, perturb, res, out, NULL) < 0)
        return -ENOMEM;
    flush_call(res, lib->lame_encode_flush(gfp, out, 7200), out);
    read_lametag(lib, gfp, c->ntracks, res);
    return 0;
}

int rlt_run_case(const struct rlt_lame *lib, const struct rlt_case *c, enum rlt_perturb perturb,
                 struct rlt_result *res)
{
    memset(res, 0, sizeof *res);
    struct rlt_record *msg = record(res, "errorf/debugf/msgf messages");
    messages = &msg->bytes;
    lame_t gfp = lib->lame_init();
    if (!gfp) {
        put_int(res, "lame_init", "", 0);
        messages = NULL;
        return res->oom ? -ENOMEM : 0;
    }
    put_int(res, "lame_set_errorf", "", lib->lame_set_errorf(gfp, capture_error));
    put_int(res, "lame_set_debugf", "", lib->lame_set_debugf(gfp, capture_debug));
    put_int(res, "lame_set_msgf", "", lib->lame_set_msgf(gfp, capture_msg));
    struct rlt_record *setters = record(res, "setter and id3tag return values");
    for (int i = 0; i < c->nops; i++) {
        int ret = apply_op(lib, gfp, &c->ops[i], perturb);
        put(res, setters, &ret, sizeof ret);
    }
    if (perturb == RLT_PERTURB_SETTING)
        lib->lame_set_copyright(gfp, !lib->lame_get_copyright(gfp));
    int init = lib->lame_init_params(gfp);
    put_int(res, "lame_init_params", "", init);
    unsigned char *out = NULL;
    if (init >= 0) {
        read_getters(lib, gfp, "after lame_init_params: ", res);
        lib->lame_print_config(gfp);
        lib->lame_print_internals(gfp);
        struct rlt_record *stream = record(res, "MP3 stream (every encode and flush call's bytes)");
        stream->is_stream = 1;
        out = malloc((size_t)mp3buf_size(220500, 6));   /* 8 to 48 kHz at the most */
        if (!out) {
            res->oom = 1;
            goto done;
        }
        struct probes probes;
        if (c->probe_percent)
            probes_open(&probes, c, res);
        if (c->probe_percent && perturb == RLT_PERTURB_PROBE_SIZE)
            probe_size_early(lib, gfp, &probes);
        for (int t = 0; t < c->ntracks; t++) {
            if (encode_track(lib, gfp, c, &c->tracks[t], perturb == RLT_PERTURB_SAMPLE, perturb, res, out,
                             c->probe_percent ? &probes : NULL) < 0) {
                res->oom = 1;
                goto done;
            }
            /* GStreamer's flush: once, exactly lame.h's 7200 bytes */
            int last = t == c->ntracks - 1;
            if (last)
                flush_call(res, lib->lame_encode_flush(gfp, out, 7200), out);
            else
                nogap_flush(lib, gfp, &c->tracks[t], res, out);
            read_lametag(lib, gfp, t, res);
            if (!last)
                put_int(res, "lame_init_bitstream", "", lib->lame_init_bitstream(gfp));
        }
        if (c->has_more && encode_more(lib, gfp, c, perturb, res, out) < 0) {
            res->oom = 1;
            goto done;
        }
        read_getters(lib, gfp, "at the end: ", res);
        read_histograms(lib, gfp, res);
        read_tag(res, "lame_get_id3v1_tag", gfp, lib->lame_get_id3v1_tag);
        read_tag(res, "lame_get_id3v2_tag", gfp, lib->lame_get_id3v2_tag);
    }
done:
    put_int(res, "lame_close", "", lib->lame_close(gfp));
    struct rlt_record *stream = stream_record(res);
    if (stream && !res->oom && !c->no_decode)
        decode_stream(lib, &stream->bytes, res);
    messages = NULL;
    free(out);
    return res->oom ? -ENOMEM : 0;
}

void rlt_result_append_stream(struct rlt_result *res, const void *data, size_t len)
{
    struct rlt_record *stream = stream_record(res);
    if (!stream) {
        stream = record(res, "MP3 stream (every call's bytes)");
        stream->is_stream = 1;
    }
    put(res, stream, data, len);
}

void rlt_result_put_int(struct rlt_result *res, const char *name, long v)
{
    put_int(res, name, "", v);
}

void rlt_result_free(struct rlt_result *res)
{
    for (int i = 0; i < res->nrecords; i++)
        free(res->records[i].bytes.data);
    free(res->calls);
    res->nrecords = 0;
    res->calls = NULL;
}

static size_t first_difference(const struct rlt_bytes *a, const struct rlt_bytes *b)
{
    size_t n = a->len < b->len ? a->len : b->len, i = 0;
    while (i < n && a->data[i] == b->data[i])
        i++;
    return i;
}

/* Each call's return: an error on either side must be the same error; the
 * second side may give its bytes later than the first (a client's queue takes
 * that) but never earlier, and every flush has given everything before it. */
static int compare_calls(FILE *out, const struct rlt_result *a, const struct rlt_result *b)
{
    if (a->ncalls != b->ncalls) {
        fprintf(out, "  encode/flush calls: %zu against %zu\n", a->ncalls, b->ncalls);
        return 1;
    }
    for (size_t i = 0; i < a->ncalls; i++) {
        const struct rlt_call *x = &a->calls[i], *y = &b->calls[i];
        if ((x->ret < 0 || y->ret < 0) && x->ret != y->ret) {
            fprintf(out, "  call %zu%s returned %d against %d\n", i + 1, x->is_flush ? " (flush)" : "", x->ret,
                    y->ret);
            return 1;
        }
        if (y->total > x->total) {
            fprintf(out, "  call %zu: the second library had given %zu bytes, earlier than the first (%zu)\n",
                    i + 1, y->total, x->total);
            return 1;
        }
        if (x->is_flush && y->total != x->total) {
            fprintf(out, "  call %zu (flush): %zu bytes out in all against %zu\n", i + 1, x->total, y->total);
            return 1;
        }
    }
    return 0;
}

#define RLT_MAX_TOLERATED 8
static const char *tolerated[RLT_MAX_TOLERATED];
static int ntolerated;

int rlt_result_tolerate(const char *name_part)
{
    if (ntolerated == RLT_MAX_TOLERATED)
        return -ENOSPC;
    tolerated[ntolerated++] = name_part;
    return 0;
}

int rlt_result_is_tolerated(const char *name)
{
    for (int i = 0; i < ntolerated; i++)
        if (strstr(name, tolerated[i]))
            return 1;
    return 0;
}

int rlt_result_compare(FILE *out, const struct rlt_result *a, const struct rlt_result *b)
{
    int differences = compare_calls(out, a, b);
    if (a->nrecords != b->nrecords) {
        fprintf(out, "  %d records against %d\n", a->nrecords, b->nrecords);
        differences++;
    }
    int n = a->nrecords < b->nrecords ? a->nrecords : b->nrecords;
    for (int i = 0; i < n; i++) {
        const struct rlt_record *x = &a->records[i], *y = &b->records[i];
        if (strcmp(x->name, y->name) != 0) {
            fprintf(out, "  record %d: \"%s\" against \"%s\"\n", i, x->name, y->name);
            return differences + 1;
        }
        if (x->bytes.len == y->bytes.len &&
            (x->bytes.len == 0 || memcmp(x->bytes.data, y->bytes.data, x->bytes.len) == 0))
            continue;
        int known = rlt_result_is_tolerated(x->name);
        differences += !known;
        size_t at = first_difference(&x->bytes, &y->bytes);
        fprintf(out, "  %s%s: %zu bytes against %zu, first difference at byte %zu", known ? "(tolerated) " : "",
                x->name, x->bytes.len,
                y->bytes.len, at);
        if (x->bytes.len == sizeof(long) && y->bytes.len == sizeof(long) && !x->is_stream) {
            long u, v;
            memcpy(&u, x->bytes.data, sizeof u);
            memcpy(&v, y->bytes.data, sizeof v);
            fprintf(out, " (%ld against %ld)", u, v);
        }
        if (x->bytes.len == sizeof(float) && y->bytes.len == sizeof(float)) {   /* the float getters */
            float u, v;
            memcpy(&u, x->bytes.data, sizeof u);
            memcpy(&v, y->bytes.data, sizeof v);
            fprintf(out, " (%.9g against %.9g)", (double)u, (double)v);
        }
        if (strncmp(x->name, "errorf", 6) == 0)   /* the messages: show where the texts part */
            fprintf(out, "\n    first: \"%.*s\"\n    second: \"%.*s\"", (int)(x->bytes.len - at < 160 ? x->bytes.len - at : 160),
                    x->bytes.data + at, (int)(y->bytes.len - at < 160 ? y->bytes.len - at : 160),
                    y->bytes.data + at);
        fputc('\n', out);
    }
    return differences;
}
