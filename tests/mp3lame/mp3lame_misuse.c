/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* mp3lame_misuse: a drop-in libmp3lame under misuse, against Debian's:
 *   - calls in the wrong order and on NULL handles get libmp3lame's return
 *     codes (encode before lame_init_params, lame_init_params twice, flush
 *     twice, a too small output buffer, lame_close mid-stream, ...), each
 *     scenario in a child process so that a crash is a result;
 *   - independent lame_global_flags on several threads at once, each
 *     stream compared with the reference's bytes for the same case.
 *
 *   mp3lame_misuse [--first LIB] [--second LIB] [--threads N] [--seed S] [--tolerate NAME_PART]...
 * Exit: 0 all equal, 1 a difference, 77 a library cannot be loaded. */
#include "mp3lame_lib.h"
#include "mp3lame_run.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEBIAN_LIBMP3LAME "/usr/lib/x86_64-linux-gnu/libmp3lame.so.0"
#define PCM_SAMPLES 44100

static short pcm[2 * PCM_SAMPLES];
static unsigned char out[1 << 18];

static void make_pcm(void)
{
    uint64_t r = 7;
    for (int i = 0; i < 2 * PCM_SAMPLES; i++)
        pcm[i] = (short)(rlt_rand_below(&r, 20001) - 10000);
}

/* a stereo 44.1 kHz handle with lame_init_params done */
static lame_t ready(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = l->lame_init();
    rlt_result_put_int(res, "lame_init_params", l->lame_init_params(gfp));
    return gfp;
}

static int encode(const struct rlt_lame *l, lame_t gfp, int n, int size)
{
    return l->lame_encode_buffer_interleaved(gfp, pcm, n, out, size);
}

/* An encode or flush call: its error code, or "no error"; its bytes join the
 * scenario's stream (a drop-in may hand bytes out later than libmp3lame, so
 * the stream is compared as a whole). */
static void put_call(struct rlt_result *res, const char *name, int ret)
{
    rlt_result_put_int(res, name, ret < 0 ? ret : 0);
    if (ret > 0)
        rlt_result_append_stream(res, out, (size_t)ret);
}

/* A call whose bytes are not compared (the stream is abandoned): its code only. */
static void put_code(struct rlt_result *res, const char *name, int ret)
{
    rlt_result_put_int(res, name, ret < 0 ? ret : 0);
}

static void close_handle(const struct rlt_lame *l, lame_t gfp, struct rlt_result *res)
{
    rlt_result_put_int(res, "lame_close", l->lame_close(gfp));
}

/* the end of a stream: one 7200-byte flush, lame_close */
static void finish(const struct rlt_lame *l, lame_t gfp, struct rlt_result *res)
{
    put_call(res, "flush", l->lame_encode_flush(gfp, out, 7200));
    close_handle(l, gfp, res);
}

static void encode_before_init(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = l->lame_init();
    put_call(res, "lame_encode_buffer_interleaved before lame_init_params", encode(l, gfp, 1152, sizeof out));
    put_call(res, "lame_encode_flush before lame_init_params", l->lame_encode_flush(gfp, out, 7200));
    rlt_result_put_int(res, "lame_init_bitstream before lame_init_params", l->lame_init_bitstream(gfp));
    rlt_result_put_int(res, "lame_get_lametag_frame before lame_init_params",
                       (long)l->lame_get_lametag_frame(gfp, out, sizeof out));
    close_handle(l, gfp, res);
}

static void init_twice(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    rlt_result_put_int(res, "lame_init_params again", l->lame_init_params(gfp));
    put_call(res, "encode", encode(l, gfp, 5000, sizeof out));
    finish(l, gfp, res);
}

/* a stream flushed twice; the handle stays open */
static lame_t flushed_twice(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_call(res, "encode", encode(l, gfp, 20000, sizeof out));
    put_call(res, "flush", l->lame_encode_flush(gfp, out, 7200));
    put_call(res, "flush again", l->lame_encode_flush(gfp, out, 7200));
    return gfp;
}

static void flush_twice(const struct rlt_lame *l, struct rlt_result *res)
{
    close_handle(l, flushed_twice(l, res), res);
}

/* the getters a flush sets, named after `when` */
static void put_flush_getters(const struct rlt_lame *l, lame_t gfp, struct rlt_result *res, const char *when)
{
    static const char *const getters[] = {"lame_get_frameNum", "lame_get_encoder_padding",
                                          "lame_get_mf_samples_to_encode", "lame_get_RadioGain",
                                          "lame_get_noclipGainChange", "lame_get_size_mp3buffer"};
    char name[160];
    for (size_t i = 0; i < sizeof getters / sizeof getters[0]; i++) {
        snprintf(name, sizeof name, "%s: %s", when, getters[i]);
        rlt_result_put_int(res, name, ((rlt_get_int_fn)rlt_lame_symbol(l, getters[i]))(gfp));
    }
}

/* ... and the LAME tag */
static void put_flush_state(const struct rlt_lame *l, lame_t gfp, struct rlt_result *res, const char *when)
{
    char name[160];
    put_flush_getters(l, gfp, res, when);
    float const peak = ((float (*)(lame_t))rlt_lame_symbol(l, "lame_get_PeakSample"))(gfp);
    snprintf(name, sizeof name, "%s: lame_get_PeakSample", when);
    rlt_result_put(res, name, &peak, sizeof peak);
    static unsigned char tag[4096];
    size_t n = l->lame_get_lametag_frame(gfp, tag, sizeof tag);
    snprintf(name, sizeof name, "%s: lame_get_lametag_frame", when);
    rlt_result_put(res, name, tag, n < sizeof tag ? n : 0);
}

/* a flush into 7200 bytes, its bytes and what the getters and the tag say after it */
static void flush_with_state(const struct rlt_lame *l, lame_t gfp, struct rlt_result *res, const char *name)
{
    put_call(res, name, l->lame_encode_flush(gfp, out, 7200));
    put_flush_state(l, gfp, res, name);
}

static void encode_after_flush(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = flushed_twice(l, res);
    put_flush_state(l, gfp, res, "after the flush");
    put_call(res, "encode 0 samples after the flush", encode(l, gfp, 0, sizeof out));
    put_call(res, "encode after the flush", encode(l, gfp, 5000, sizeof out));
    put_call(res, "encode more", encode(l, gfp, 30000, sizeof out));
    flush_with_state(l, gfp, res, "flush a third time");
    put_call(res, "flush a fourth time", l->lame_encode_flush(gfp, out, 7200));
    close_handle(l, gfp, res);
}

/* VBR with ReplayGain (decoded on the fly or not) and ID3 tags written by
 * the library: encode, flush, encode into the ended stream in two calls,
 * flush again, then a third time after a short encode */
static void encode_after_flush_vbr(const struct rlt_lame *l, struct rlt_result *res, int decode)
{
    lame_t gfp = l->lame_init();
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_VBR"))(gfp, LAME_VBR_MTRH);
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_findReplayGain"))(gfp, 1);
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_decode_on_the_fly"))(gfp, decode);
    l->id3tag_init(gfp);
    ((void (*)(lame_t, const char *))rlt_lame_symbol(l, "id3tag_set_title"))(gfp, "after the flush");
    rlt_result_put_int(res, "lame_init_params", l->lame_init_params(gfp));
    put_call(res, "encode", encode(l, gfp, 30000, sizeof out));
    flush_with_state(l, gfp, res, "flush");
    put_call(res, "encode after the flush", encode(l, gfp, 20000, sizeof out));
    put_call(res, "encode more", encode(l, gfp, 7, sizeof out));
    flush_with_state(l, gfp, res, "flush again");
    put_call(res, "encode 1000 after the second flush", encode(l, gfp, 1000, sizeof out));
    flush_with_state(l, gfp, res, "flush a third time");
    close_handle(l, gfp, res);
}

static void encode_after_flush_gain(const struct rlt_lame *l, struct rlt_result *res)
{
    encode_after_flush_vbr(l, res, 0);
}

static void encode_after_flush_decoded(const struct rlt_lame *l, struct rlt_result *res)
{
    encode_after_flush_vbr(l, res, 1);
}

/* the set's next file and its end: lame_init_bitstream (recorded as
 * init), 9000 samples, the last flush and its state, lame_close */
static void last_file(const struct rlt_lame *l, lame_t gfp, struct rlt_result *res, const char *init)
{
    rlt_result_put_int(res, init, l->lame_init_bitstream(gfp));
    put_call(res, "encode the next file", encode(l, gfp, 9000, sizeof out));
    flush_with_state(l, gfp, res, "the last flush");
    close_handle(l, gfp, res);
}

/* CBR: a flush, an encode into the ended stream, then a gapless file's end
 * (lame_encode_flush_nogap + lame_init_bitstream) and the last flush */
static void encode_after_flush_nogap(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_call(res, "encode", encode(l, gfp, 12000, sizeof out));
    flush_with_state(l, gfp, res, "flush");
    put_call(res, "encode after the flush", encode(l, gfp, 15000, sizeof out));
    put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
    put_flush_state(l, gfp, res, "after the nogap flush");
    last_file(l, gfp, res, "lame_init_bitstream");
}

static void flush_without_encode(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_call(res, "flush with nothing encoded", l->lame_encode_flush(gfp, out, 7200));
    size_t n = l->lame_get_lametag_frame(gfp, out, sizeof out);
    rlt_result_put(res, "lame_get_lametag_frame", out, n < sizeof out ? n : 0);
    close_handle(l, gfp, res);
}

/* encode calls into buffers smaller than the stream's head, then one
 * without a limit, then a flush into `flush_size` and one into 7200 */
static void small_buffers_then_flush(const struct rlt_lame *l, struct rlt_result *res, int flush_size)
{
    lame_t gfp = ready(l, res);
    put_call(res, "encode 1152 into 10 bytes", encode(l, gfp, 1152, 10));
    put_call(res, "encode 20000 into 100 bytes", encode(l, gfp, 20000, 100));
    put_call(res, "encode 20000 with size 0 (no limit)", encode(l, gfp, 20000, 0));
    put_call(res, "flush", l->lame_encode_flush(gfp, out, flush_size));
    put_call(res, "flush into 7200 bytes", l->lame_encode_flush(gfp, out, 7200));
    close_handle(l, gfp, res);
}

/* a negative mp3buf_size while libmp3lame holds the stream's head (after
 * lame_init_params and after lame_init_bitstream): -1, no sample taken;
 * 0 samples: 0 */
static void negative_size_head(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_call(res, "encode 0 samples into size -5", encode(l, gfp, 0, -5));
    put_call(res, "encode 1152 into size -5", encode(l, gfp, 1152, -5));
    put_call(res, "encode 5000", encode(l, gfp, 5000, sizeof out));
    put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
    rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
    put_call(res, "encode 1000 into size -1", encode(l, gfp, 1000, -1));
    put_call(res, "encode 9000", encode(l, gfp, 9000, sizeof out));
    finish(l, gfp, res);
}

static void small_buffers(const struct rlt_lame *l, struct rlt_result *res)
{
    small_buffers_then_flush(l, res, 7200);
}

static void small_flush_buffer(const struct rlt_lame *l, struct rlt_result *res)
{
    small_buffers_then_flush(l, res, 10);
}

/* A flush into `size` bytes after 40,000 samples (CBR 128 or VBR): where
 * libmp3lame's flush does not fit it returns -1 and the next flush 0; the
 * bytes it handed out before are the stream; where it fits, the drop-in's
 * frames in flight may take a second flush */
static void flush_into_at(const struct rlt_lame *l, struct rlt_result *res, int vbr, int size, int out_rate)
{
    lame_t gfp = l->lame_init();
    if (vbr)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_VBR"))(gfp, LAME_VBR_MTRH);
    if (vbr == 2)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_findReplayGain"))(gfp, 1);
    if (out_rate)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_out_samplerate"))(gfp, out_rate);
    rlt_result_put_int(res, "lame_init_params", l->lame_init_params(gfp));
    if (out_rate) {             /* the resampler rounds once per call: two calls */
        put_call(res, "encode 17003", encode(l, gfp, 17003, 0));
        put_call(res, "encode 22997", l->lame_encode_buffer_interleaved(gfp, pcm + 2 * 17003, 22997, out, 0));
    }
    else
        put_call(res, "encode 40000", encode(l, gfp, 40000, 0));
    put_call(res, "flush", l->lame_encode_flush(gfp, out, size));
    /* (the LAME tag after a flush that failed is the whole stream's:
     * docs/api.md) */
    put_flush_getters(l, gfp, res, "after the flush");
    put_call(res, "flush into 7200 bytes", l->lame_encode_flush(gfp, out, 7200));
    put_call(res, "flush into 7200 bytes again", l->lame_encode_flush(gfp, out, 7200));
    close_handle(l, gfp, res);
}

static void flush_into(const struct rlt_lame *l, struct rlt_result *res, int vbr, int size)
{
    flush_into_at(l, res, vbr, size, 0);
}

/* the same resampled to 32 kHz (the drop-in feeds one call at a time) */
static void flush_resampled_short(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into_at(l, res, 0, 700, 32000);
}

static void flush_resampled_fits(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into_at(l, res, 0, 2500, 32000);
}

static void flush_resampled_vbr_short(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into_at(l, res, 1, 300, 22050);
}

/* ReplayGain: a flush that stops at a padding frame leaves RadioGain unsaved */
static void flush_gain_short(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into_at(l, res, 2, 600, 0);
}

static void flush_gain_fits(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into_at(l, res, 2, 3000, 0);
}

static void flush_cbr_short(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into(l, res, 0, 1000);
}

static void flush_cbr_fits(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into(l, res, 0, 3000);
}

static void flush_vbr_short(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into(l, res, 1, 600);
}

static void flush_vbr_fits(const struct rlt_lame *l, struct rlt_result *res)
{
    flush_into(l, res, 1, 2500);
}

static void odd_arguments(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_call(res, "encode 0 samples", encode(l, gfp, 0, sizeof out));
    put_call(res, "encode -5 samples", encode(l, gfp, -5, sizeof out));
    put_call(res, "lame_encode_buffer with right NULL (stereo)",
             l->lame_encode_buffer(gfp, pcm, NULL, 1152, out, sizeof out));
    put_call(res, "lame_encode_buffer with left NULL", l->lame_encode_buffer(gfp, NULL, pcm, 1152, out, sizeof out));
    put_call(res, "encode 5000", encode(l, gfp, 5000, sizeof out));
    finish(l, gfp, res);
}

static void set_after_init(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    rlt_set_int_fn brate = (rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_brate");
    rlt_set_int_fn quality = (rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_quality");
    rlt_get_int_fn get_brate = (rlt_get_int_fn)rlt_lame_symbol(l, "lame_get_brate");
    rlt_result_put_int(res, "lame_set_brate(320) after lame_init_params", brate(gfp, 320));
    rlt_result_put_int(res, "lame_set_quality(0) after lame_init_params", quality(gfp, 0));
    rlt_result_put_int(res, "lame_get_brate", get_brate(gfp));
    put_call(res, "encode", encode(l, gfp, 20000, sizeof out));
    finish(l, gfp, res);
}

static void nogap_misorder(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_call(res, "encode", encode(l, gfp, 10000, sizeof out));
    put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
    put_call(res, "encode without lame_init_bitstream", encode(l, gfp, 10000, sizeof out));
    put_call(res, "lame_encode_flush_nogap again", l->lame_encode_flush_nogap(gfp, out, 7200));
    rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
    rlt_result_put_int(res, "lame_init_bitstream twice", l->lame_init_bitstream(gfp));
    put_call(res, "encode", encode(l, gfp, 10000, sizeof out));
    finish(l, gfp, res);
}

/* lame_get_lametag_frame (into a buffer, a short one, none) and
 * lame_get_size_mp3buffer, named after when they are asked */
static void ask_tag_and_size(const struct rlt_lame *l, lame_t gfp, const char *when, struct rlt_result *res)
{
    static unsigned char tag[4096];
    char name[96];
    size_t n = l->lame_get_lametag_frame(gfp, tag, sizeof tag);
    snprintf(name, sizeof name, "lame_get_lametag_frame %s", when);
    rlt_result_put(res, name, tag, n <= sizeof tag ? n : sizeof tag);
    snprintf(name, sizeof name, "lame_get_lametag_frame into 10 bytes %s", when);
    rlt_result_put_int(res, name, (long)l->lame_get_lametag_frame(gfp, tag, 10));
    snprintf(name, sizeof name, "lame_get_lametag_frame into NULL %s", when);
    rlt_result_put_int(res, name, (long)l->lame_get_lametag_frame(gfp, NULL, sizeof tag));
    snprintf(name, sizeof name, "lame_get_size_mp3buffer %s", when);
    rlt_result_put_int(res, name, ((rlt_get_int_fn)rlt_lame_symbol(l, "lame_get_size_mp3buffer"))(gfp));
}

/* a VBR gapless pair, the tag and the flush size asked between every call */
static void tag_and_size_mid_stream(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = l->lame_init();
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_VBR"))(gfp, LAME_VBR_MTRH);
    rlt_result_put_int(res, "lame_init_params (VBR)", l->lame_init_params(gfp));
    ask_tag_and_size(l, gfp, "before any encode call", res);
    put_call(res, "encode 100 samples", encode(l, gfp, 100, sizeof out));
    ask_tag_and_size(l, gfp, "before a frame is made", res);
    put_call(res, "encode", encode(l, gfp, 20000, sizeof out));
    ask_tag_and_size(l, gfp, "mid-stream", res);
    put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
    ask_tag_and_size(l, gfp, "after lame_encode_flush_nogap", res);
    rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
    ask_tag_and_size(l, gfp, "after lame_init_bitstream", res);
    put_call(res, "encode the next file", encode(l, gfp, 9000, sizeof out));
    ask_tag_and_size(l, gfp, "in the next file", res);
    put_call(res, "flush", l->lame_encode_flush(gfp, out, 7200));
    ask_tag_and_size(l, gfp, "after the flush", res);
    close_handle(l, gfp, res);
}

/* The getters that follow the frames libmp3lame has encoded and decoded
 * so far, asked after every encode call: the peak decoded on the fly, the
 * five histograms, the frame count and mf_samples_to_encode, the gains. */
static void ask_running_state(const struct rlt_lame *l, lame_t gfp, const char *when,
                              struct rlt_result *res)
{
    static const char *const getters[] = {"lame_get_frameNum", "lame_get_mf_samples_to_encode",
                                          "lame_get_RadioGain", "lame_get_noclipGainChange"};
    struct {
        int bitrate[14], stmode[4], btype[6], bitrate_stmode[14][4], bitrate_btype[14][6];
    } h;
    char name[96];
    float v[2];
    v[0] = ((float (*)(const lame_global_flags *))rlt_lame_symbol(l, "lame_get_PeakSample"))(gfp);
    v[1] = ((float (*)(const lame_global_flags *))rlt_lame_symbol(l, "lame_get_noclipScale"))(gfp);
    snprintf(name, sizeof name, "%s: lame_get_PeakSample", when);
    rlt_result_put(res, name, &v[0], sizeof v[0]);
    memset(&h, 0, sizeof h);
    l->lame_bitrate_hist(gfp, h.bitrate);
    l->lame_stereo_mode_hist(gfp, h.stmode);
    l->lame_block_type_hist(gfp, h.btype);
    l->lame_bitrate_stereo_mode_hist(gfp, h.bitrate_stmode);
    l->lame_bitrate_block_type_hist(gfp, h.bitrate_btype);
    snprintf(name, sizeof name, "%s: the histograms", when);
    rlt_result_put(res, name, &h, sizeof h);
    int counts[4];
    for (size_t i = 0; i < 4; i++)
        counts[i] = ((rlt_get_int_fn)rlt_lame_symbol(l, getters[i]))(gfp);
    snprintf(name, sizeof name, "%s: frameNum, mf_samples_to_encode, RadioGain, noclip", when);
    rlt_result_put(res, name, counts, sizeof counts);
    snprintf(name, sizeof name, "%s: lame_get_noclipScale", when);
    rlt_result_put(res, name, &v[1], sizeof v[1]);
}

enum { RUNNING_VBR = 1, RUNNING_GAIN = 2, RUNNING_MONO = 4, RUNNING_RESAMPLE = 8, RUNNING_PLAIN = 16 };

/* Encode calls of several sizes on a signal whose level rises, decoding on
 * the fly (not with RUNNING_PLAIN), the running state asked after each;
 * then a nogap file end, lame_init_bitstream, more calls, the flush. */
static void running_state(const struct rlt_lame *l, struct rlt_result *res, int how)
{
    static const int sizes[] = {100, 1152, 4096, 577, 1, 10000, 2303, 30000, 5000, 700};
    static short rising[2 * PCM_SAMPLES];
    int const channels = how & RUNNING_MONO ? 1 : 2;
    int at = 0;
    char when[64];
    for (int i = 0; i < PCM_SAMPLES; i++)
        for (int c = 0; c < 2; c++)
            rising[2 * i + c] = (short)(pcm[2 * i + c] * (0.05 + 2.0 * i / PCM_SAMPLES) / 1.5);
    lame_t gfp = l->lame_init();
    if (how & RUNNING_VBR)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_VBR"))(gfp, LAME_VBR_MTRH);
    if (how & RUNNING_GAIN)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_findReplayGain"))(gfp, 1);
    if (how & RUNNING_MONO)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_num_channels"))(gfp, 1);
    if (how & RUNNING_RESAMPLE)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_out_samplerate"))(gfp, 32000);
    if (!(how & RUNNING_PLAIN))
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_decode_on_the_fly"))(gfp, 1);
    rlt_result_put_int(res, "lame_init_params", l->lame_init_params(gfp));
    ask_running_state(l, gfp, "before any encode call", res);
    for (int k = 0; k < 2 * (int)(sizeof sizes / sizeof sizes[0]); k++) {
        int n = sizes[k % (int)(sizeof sizes / sizeof sizes[0])];
        if (at + n > PCM_SAMPLES)
            at = 0;
        int rc = channels == 2 ? l->lame_encode_buffer_interleaved(gfp, rising + 2 * at, n, out, sizeof out)
                               : l->lame_encode_buffer(gfp, rising + at, NULL, n, out, sizeof out);
        at += n;
        snprintf(when, sizeof when, "encode %d samples (call %d)", n, k + 1);
        put_call(res, when, rc);
        ask_running_state(l, gfp, when, res);
        if (k == 9) {
            put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
            ask_running_state(l, gfp, "after lame_encode_flush_nogap", res);
            rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
            ask_running_state(l, gfp, "after lame_init_bitstream", res);
        }
    }
    put_call(res, "flush", l->lame_encode_flush(gfp, out, 7200));
    ask_running_state(l, gfp, "after the flush", res);
    close_handle(l, gfp, res);
}

static void running_cbr(const struct rlt_lame *l, struct rlt_result *res)
{
    running_state(l, res, 0);
}

static void running_vbr(const struct rlt_lame *l, struct rlt_result *res)
{
    running_state(l, res, RUNNING_VBR);
}

static void running_gain(const struct rlt_lame *l, struct rlt_result *res)
{
    running_state(l, res, RUNNING_VBR | RUNNING_GAIN);
}

static void running_mono(const struct rlt_lame *l, struct rlt_result *res)
{
    running_state(l, res, RUNNING_MONO | RUNNING_GAIN);
}

static void running_resampled(const struct rlt_lame *l, struct rlt_result *res)
{
    running_state(l, res, RUNNING_RESAMPLE);
}

static void running_resampled_vbr(const struct rlt_lame *l, struct rlt_result *res)
{
    running_state(l, res, RUNNING_RESAMPLE | RUNNING_VBR | RUNNING_GAIN);
}

static void running_plain(const struct rlt_lame *l, struct rlt_result *res)
{
    running_state(l, res, RUNNING_VBR | RUNNING_GAIN | RUNNING_PLAIN);
}

static void close_mid_stream(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_code(res, "encode half a second", encode(l, gfp, 22050, sizeof out));
    rlt_result_put_int(res, "lame_close mid-stream", l->lame_close(gfp));
    lame_t fresh = l->lame_init();
    rlt_result_put_int(res, "lame_close without lame_init_params", l->lame_close(fresh));
    /* VBR with ReplayGain and decode on the fly: more state to let go of */
    gfp = l->lame_init();
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_VBR"))(gfp, LAME_VBR_MTRH);
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_findReplayGain"))(gfp, 1);
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_decode_on_the_fly"))(gfp, 1);
    rlt_result_put_int(res, "lame_init_params (VBR, ReplayGain)", l->lame_init_params(gfp));
    put_code(res, "encode", encode(l, gfp, 30000, sizeof out));
    rlt_result_put_int(res, "lame_close mid-stream (VBR, ReplayGain)", l->lame_close(gfp));
}

static void null_handles(const struct rlt_lame *l, struct rlt_result *res)
{
    rlt_result_put_int(res, "lame_init_params(NULL)", l->lame_init_params(NULL));
    put_call(res, "lame_encode_buffer_interleaved(NULL)", encode(l, NULL, 1152, sizeof out));
    put_call(res, "lame_encode_buffer_float(NULL)", l->lame_encode_buffer_float(NULL, NULL, NULL, 10, out, 100));
    put_call(res, "lame_encode_flush(NULL)", l->lame_encode_flush(NULL, out, 7200));
    put_call(res, "lame_encode_flush_nogap(NULL)", l->lame_encode_flush_nogap(NULL, out, 7200));
    rlt_result_put_int(res, "lame_init_bitstream(NULL)", l->lame_init_bitstream(NULL));
    rlt_result_put_int(res, "lame_get_lametag_frame(NULL)", (long)l->lame_get_lametag_frame(NULL, out, 100));
    rlt_result_put_int(res, "lame_get_id3v1_tag(NULL)", (long)l->lame_get_id3v1_tag(NULL, out, 200));
    rlt_result_put_int(res, "lame_get_id3v2_tag(NULL)", (long)l->lame_get_id3v2_tag(NULL, out, 200));
    static const char *const getters[] = {"lame_get_framesize", "lame_get_encoder_delay", "lame_get_frameNum",
                                          "lame_get_quality", "lame_get_brate", "lame_get_out_samplerate",
                                          "lame_get_RadioGain", "lame_get_size_mp3buffer"};
    for (size_t i = 0; i < sizeof getters / sizeof getters[0]; i++)
        rlt_result_put_int(res, getters[i], ((rlt_get_int_fn)rlt_lame_symbol(l, getters[i]))(NULL));
    static const char *const setters[] = {"lame_set_quality", "lame_set_brate", "lame_set_VBR",
                                          "lame_set_in_samplerate", "lame_set_findReplayGain"};
    for (size_t i = 0; i < sizeof setters / sizeof setters[0]; i++)
        rlt_result_put_int(res, setters[i], ((rlt_set_int_fn)rlt_lame_symbol(l, setters[i]))(NULL, 2));
    l->id3tag_init(NULL);
    rlt_result_put_int(res, "lame_close(NULL)", l->lame_close(NULL));
    rlt_result_put_int(res, "hip_decode_exit(NULL)", l->hip_decode_exit(NULL));
}

/* lame_init_bitstream right after lame_encode_flush, then a sample-less
 * nogap flush (the head and the ended stream's end in the bit buffer) */
static void init_after_flush_then_nogap(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = ready(l, res);
    put_call(res, "encode", encode(l, gfp, 20000, sizeof out));
    flush_with_state(l, gfp, res, "flush");
    rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
    put_call(res, "sample-less lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
    put_flush_state(l, gfp, res, "after the nogap flush");
    last_file(l, gfp, res, "lame_init_bitstream again");
}

/* lame_init_bitstream twice in a row, decoding on the fly */
static void init_twice_decoded(const struct rlt_lame *l, struct rlt_result *res)
{
    lame_t gfp = l->lame_init();
    ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_decode_on_the_fly"))(gfp, 1);
    rlt_result_put_int(res, "lame_init_params (decode on the fly)", l->lame_init_params(gfp));
    put_call(res, "encode", encode(l, gfp, 20000, sizeof out));
    put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
    put_flush_state(l, gfp, res, "after the nogap flush");
    rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
    rlt_result_put_int(res, "lame_init_bitstream twice", l->lame_init_bitstream(gfp));
    put_call(res, "encode the next file", encode(l, gfp, 9000, sizeof out));
    put_call(res, "lame_encode_flush_nogap of the next file", l->lame_encode_flush_nogap(gfp, out, 7200));
    put_flush_state(l, gfp, res, "after the second nogap flush");
    last_file(l, gfp, res, "lame_init_bitstream for the third");
}

/* A nogap flush into `size` bytes (< 0: lame_get_size_mp3buffer's answer
 * before it, the exact size, plus size + 1), then `next & 7`: 0 the nogap
 * flush again, 1 an encode call, 2 lame_init_bitstream, 3 lame_encode_flush,
 * 4 lame_init_bitstream and a sample-less nogap flush, 5..7 lame_init_bitstream
 * and a sample-less nogap flush into size, then a retry / an encode call /
 * lame_encode_flush; the tag and the
 * getters after each step, then the set's end.  NOGAP_VBR in next: VBR
 * with ReplayGain and an ID3v2 tag; NOGAP_DECODE: decoding on the fly;
 * NOGAP_TWICE (5..7): lame_init_bitstream and the short sample-less nogap
 * flush twice. */
enum { NOGAP_VBR = 8, NOGAP_DECODE = 16, NOGAP_TWICE = 32 };
static void nogap_short(const struct rlt_lame *l, struct rlt_result *res, int size, int next)
{
    lame_t gfp = l->lame_init();
    int exact, held, rc;
    if (next & NOGAP_VBR) {
        /* a larger flush, a title */
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_VBR"))(gfp, LAME_VBR_MTRH);
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_findReplayGain"))(gfp, 1);
        l->id3tag_init(gfp);
        ((void (*)(lame_t))rlt_lame_symbol(l, "id3tag_add_v2"))(gfp);
        ((void (*)(lame_t, const char *))rlt_lame_symbol(l, "id3tag_set_title"))(gfp, "nogap");
    }
    if (next & NOGAP_DECODE)
        ((rlt_set_int_fn)rlt_lame_symbol(l, "lame_set_decode_on_the_fly"))(gfp, 1);
    rlt_result_put_int(res, "lame_init_params", l->lame_init_params(gfp));
    put_call(res, "encode", encode(l, gfp, 20000, sizeof out));
    exact = ((rlt_get_int_fn)rlt_lame_symbol(l, "lame_get_size_mp3buffer"))(gfp);
    rlt_result_put_int(res, "lame_get_size_mp3buffer before the nogap flush", exact);
    if (size < 0)
        size = exact + size + 1;
    rc = l->lame_encode_flush_nogap(gfp, out, size);
    held = rc < 0;
    put_call(res, "lame_encode_flush_nogap into size", rc);
    put_flush_state(l, gfp, res, "after the nogap flush into size");
    switch (next & 7) {
    case 0:
        put_call(res, "lame_encode_flush_nogap into size again", l->lame_encode_flush_nogap(gfp, out, size));
        put_call(res, "lame_encode_flush_nogap retried", l->lame_encode_flush_nogap(gfp, out, 7200));
        put_flush_state(l, gfp, res, "after the retried nogap flush");
        break;
    case 1:
        /* (a frame that does not fit is a difference of its own: docs/api.md) */
        if (held)
            put_call(res, "encode into 10 bytes", encode(l, gfp, 3000, 10));
        put_call(res, "encode", encode(l, gfp, 3000, sizeof out));
        put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
        put_flush_state(l, gfp, res, "after the encode call's nogap flush");
        break;
    case 2:
        rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
        put_flush_state(l, gfp, res, "after lame_init_bitstream");
        break;
    case 4:
        rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
        put_call(res, "sample-less lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
        put_flush_state(l, gfp, res, "after the sample-less nogap flush");
        break;
    case 3:
        flush_with_state(l, gfp, res, "lame_encode_flush");
        close_handle(l, gfp, res);
        return;
    default:
        /* nested: lame_init_bitstream, a sample-less nogap flush into size
         * again, then 5 a retry, 6 an encode call, 7 lame_encode_flush */
        for (int k = next & NOGAP_TWICE ? 2 : 1; k > 0; k--) {
            rlt_result_put_int(res, "lame_init_bitstream", l->lame_init_bitstream(gfp));
            rc = l->lame_encode_flush_nogap(gfp, out, size);
            held = rc < 0;
            put_call(res, "sample-less lame_encode_flush_nogap into size", rc);
            put_flush_state(l, gfp, res, "after the sample-less nogap flush into size");
        }
        if ((next & 7) == 5) {
            put_call(res, "sample-less lame_encode_flush_nogap retried", l->lame_encode_flush_nogap(gfp, out, 7200));
            put_flush_state(l, gfp, res, "after the retried sample-less nogap flush");
        } else if ((next & 7) == 6) {
            if (held)
                put_call(res, "encode into 10 bytes", encode(l, gfp, 3000, 10));
            put_call(res, "encode", encode(l, gfp, 3000, sizeof out));
            put_call(res, "lame_encode_flush_nogap", l->lame_encode_flush_nogap(gfp, out, 7200));
            put_flush_state(l, gfp, res, "after the encode call's nogap flush");
        } else {
            flush_with_state(l, gfp, res, "lame_encode_flush");
            close_handle(l, gfp, res);
            return;
        }
        break;
    }
    last_file(l, gfp, res, "lame_init_bitstream for the next file");
}

#define NOGAP_SHORT(sz, next, tag) \
    static void nogap_short_##tag(const struct rlt_lame *l, struct rlt_result *res) \
    {                                                                                \
        nogap_short(l, res, sz, next);                                               \
    }
#define NOGAP_SHORT_ALL(sz, flags, tag)                                             \
    NOGAP_SHORT(sz, (flags) | 0, tag##_retry) NOGAP_SHORT(sz, (flags) | 1, tag##_encode) \
    NOGAP_SHORT(sz, (flags) | 2, tag##_init) NOGAP_SHORT(sz, (flags) | 3, tag##_flush)  \
    NOGAP_SHORT(sz, (flags) | 4, tag##_init_nogap) NOGAP_SHORT(sz, (flags) | 5, tag##_nested_retry) \
    NOGAP_SHORT(sz, (flags) | 6, tag##_nested_encode) NOGAP_SHORT(sz, (flags) | 7, tag##_nested_flush)
NOGAP_SHORT_ALL(0, 0, unlimited)
NOGAP_SHORT_ALL(1, 0, one)
NOGAP_SHORT_ALL(300, 0, some)
NOGAP_SHORT_ALL(-2, 0, below)
NOGAP_SHORT_ALL(-1, 0, exact)
NOGAP_SHORT_ALL(0, NOGAP_VBR, vbr_unlimited)
NOGAP_SHORT_ALL(300, NOGAP_VBR, vbr_some)
NOGAP_SHORT_ALL(-2, NOGAP_VBR, vbr_below)
NOGAP_SHORT_ALL(-1, NOGAP_VBR, vbr_exact)
NOGAP_SHORT_ALL(-2, NOGAP_DECODE, decoded_below)
NOGAP_SHORT_ALL(300, NOGAP_DECODE | NOGAP_VBR, vbr_decoded_some)
NOGAP_SHORT_ALL(-2, NOGAP_DECODE | NOGAP_VBR, vbr_decoded_below)
NOGAP_SHORT(-2, NOGAP_TWICE | 5, twice_retry)
NOGAP_SHORT(-2, NOGAP_TWICE | 6, twice_encode)
NOGAP_SHORT(300, NOGAP_TWICE | NOGAP_DECODE | NOGAP_VBR | 5, vbr_decoded_twice_retry)
NOGAP_SHORT(300, NOGAP_TWICE | NOGAP_DECODE | NOGAP_VBR | 7, vbr_decoded_twice_flush)
#define NOGAP_SHORT_ROWS(tag, what)                                                        \
    {"nogap flush into " what ", retried", nogap_short_##tag##_retry},                     \
    {"nogap flush into " what ", then an encode call", nogap_short_##tag##_encode},        \
    {"nogap flush into " what ", then lame_init_bitstream", nogap_short_##tag##_init},     \
    {"nogap flush into " what ", then lame_encode_flush", nogap_short_##tag##_flush},      \
    {"nogap flush into " what ", then lame_init_bitstream and a sample-less nogap flush",   \
     nogap_short_##tag##_init_nogap},                                                        \
    {"nogap flush into " what ", lame_init_bitstream, a sample-less nogap flush into it, retried", \
     nogap_short_##tag##_nested_retry},                                                        \
    {"nogap flush into " what ", lame_init_bitstream, a sample-less nogap flush into it, an encode call", \
     nogap_short_##tag##_nested_encode},                                                       \
    {"nogap flush into " what ", lame_init_bitstream, a sample-less nogap flush into it, lame_encode_flush", \
     nogap_short_##tag##_nested_flush}

/* The end of an ID3 scenario: lame_init_params, the ID3v2 tag
 * lame_get_id3v2_tag gives, an encode call and the stream's end */
static void id3v2_then_stream(const struct rlt_lame *l, lame_t gfp, struct rlt_result *res)
{
    size_t (*const get_v2)(lame_t, unsigned char *, size_t) =
        (size_t (*)(lame_t, unsigned char *, size_t))rlt_lame_symbol(l, "lame_get_id3v2_tag");
    static unsigned char v2[1 << 14];
    size_t n;

    rlt_result_put_int(res, "lame_init_params", l->lame_init_params(gfp));
    n = get_v2(gfp, v2, sizeof v2);
    rlt_result_put(res, "lame_get_id3v2_tag", v2, n <= sizeof v2 ? n : 0);
    put_call(res, "encode", encode(l, gfp, 5000, sizeof out));
    finish(l, gfp, res);
}

/* UTF-16 ID3 texts without a byte-order mark, and with a big-endian one:
 * libmp3lame's COMM frames take them as given (written without a mark),
 * its text frames refuse a text without one (-3); each call's code, the
 * ID3v2 tag lame_get_id3v2_tag gives, then the stream */
typedef int (*comment16_fn)(lame_t, const char *, const unsigned short *, const unsigned short *);
typedef int (*textinfo16_fn)(lame_t, const char *, const unsigned short *);
static void id3_utf16_without_bom(const struct rlt_lame *l, struct rlt_result *res)
{
    static const unsigned short plain[] = {'n', 'o', ' ', 'm', 'a', 'r', 'k', 0};
    static const unsigned short plain2[] = {'o', 't', 'h', 'e', 'r', 0x263a, 0};
    static const unsigned short plain3[] = {'n', 'o', ' ', 'm', 'a', 'r', 'k', 's', 0};
    static const unsigned short le[] = {0xFEFF, 'l', 'e', 0x00e9, 0};
    static const unsigned short be[] = {0xFFFE, 0x6200, 0x6500, 0xe900, 0};
    static const unsigned short txxx[] = {'d', 's', 'c', '=', 'v', 0};
    static const unsigned short txxx_le[] = {0xFEFF, 'd', '=', 'x', 0};
    static const unsigned short txxx_be[] = {0xFFFE, 0x6400, 0x3d00, 0x7900, 0};
    static const unsigned short field[] = {'T', 'A', 'L', 'B', '=', 'a', 'l', 0};
    comment16_fn const comment = (comment16_fn)rlt_lame_symbol(l, "id3tag_set_comment_utf16");
    textinfo16_fn const textinfo = (textinfo16_fn)rlt_lame_symbol(l, "id3tag_set_textinfo_utf16");
    int (*const fieldvalue)(lame_t, const unsigned short *) =
        (int (*)(lame_t, const unsigned short *))rlt_lame_symbol(l, "id3tag_set_fieldvalue_utf16");
    lame_t gfp = l->lame_init();

    l->id3tag_init(gfp);
    ((void (*)(lame_t))rlt_lame_symbol(l, "id3tag_add_v2"))(gfp);
    rlt_result_put_int(res, "comment: descriptor and text without a mark", comment(gfp, "eng", plain, plain2));
    rlt_result_put_int(res, "comment: marked descriptor, unmarked text", comment(gfp, "deu", le, plain));
    rlt_result_put_int(res, "comment: unmarked descriptor, big-endian text", comment(gfp, "fra", plain2, be));
    rlt_result_put_int(res, "comment: the first descriptor again", comment(gfp, "eng", plain, le));
    rlt_result_put_int(res, "comment: an unmarked descriptor it begins with", comment(gfp, "ENG", plain3, plain));
    rlt_result_put_int(res, "comment: no descriptor, unmarked text", comment(gfp, "ita", NULL, plain));
    rlt_result_put_int(res, "textinfo TIT2 without a mark", textinfo(gfp, "TIT2", plain));
    rlt_result_put_int(res, "textinfo TXXX without a mark", textinfo(gfp, "TXXX", txxx));
    rlt_result_put_int(res, "textinfo COMM without a mark", textinfo(gfp, "COMM", txxx));
    rlt_result_put_int(res, "textinfo TCON without a mark", textinfo(gfp, "TCON", plain));
    rlt_result_put_int(res, "textinfo TPE1 marked", textinfo(gfp, "TPE1", le));
    rlt_result_put_int(res, "textinfo TCOM big-endian", textinfo(gfp, "TCOM", be));
    rlt_result_put_int(res, "textinfo TXXX marked", textinfo(gfp, "TXXX", txxx_le));
    rlt_result_put_int(res, "textinfo TXXX big-endian, the same descriptor", textinfo(gfp, "TXXX", txxx_be));
    rlt_result_put_int(res, "textinfo TXXX marked again", textinfo(gfp, "TXXX", txxx_le));
    rlt_result_put_int(res, "textinfo NULL text", textinfo(gfp, "TIT1", NULL));
    rlt_result_put_int(res, "textinfo_latin1 NULL text",
                       ((int (*)(lame_t, const char *, const char *))rlt_lame_symbol(
                           l, "id3tag_set_textinfo_latin1"))(gfp, "TIT1", NULL));
    rlt_result_put_int(res, "fieldvalue without a mark", fieldvalue(gfp, field));
    id3v2_then_stream(l, gfp, res);
}

/* id3tag_set_textinfo_* with frame ids shorter (or longer) than four
 * characters: libmp3lame reads up to four, to the NUL, and takes an id led
 * by zero bytes for a text and a URL frame at once (written as a URL
 * frame); each call's code, the ID3v2 tag, then the stream */
static void id3_short_frame_ids(const struct rlt_lame *l, struct rlt_result *res)
{
    static const char *const ids[] = {"T", "TI", "TIT", "W", "WX", "WOA", "AB", "X", "1", "12",
                                      "ab", "", "T1=", "TIT2X", "TIT", "TXX", "COM", "GEN"};
    static const unsigned short le[] = {0xFEFF, 'u', 't', 'f', 0x263a, 0};
    static const unsigned short be[] = {0xFFFE, 0x6200, 0x6500, 0};
    int (*const latin1)(lame_t, const char *, const char *) =
        (int (*)(lame_t, const char *, const char *))rlt_lame_symbol(l, "id3tag_set_textinfo_latin1");
    textinfo16_fn const utf16 = (textinfo16_fn)rlt_lame_symbol(l, "id3tag_set_textinfo_utf16");
    char name[80], text[32];
    lame_t gfp = l->lame_init();

    l->id3tag_init(gfp);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        snprintf(name, sizeof name, "textinfo_latin1 \"%s\"", ids[i]);
        snprintf(text, sizeof text, "text %zu", i);
        rlt_result_put_int(res, name, latin1(gfp, ids[i], text));
    }
    rlt_result_put_int(res, "textinfo_latin1 \"TI\" NULL text", latin1(gfp, "TI", NULL));
    rlt_result_put_int(res, "textinfo_utf16 \"TI\"", utf16(gfp, "TI", le));
    rlt_result_put_int(res, "textinfo_utf16 \"WO\"", utf16(gfp, "WO", le));
    rlt_result_put_int(res, "textinfo_utf16 \"Q\" big-endian", utf16(gfp, "Q", be));
    rlt_result_put_int(res, "textinfo_utf16 \"TPE1X\"", utf16(gfp, "TPE1X", le));
    rlt_result_put_int(res, "textinfo_utf16 \"\"", utf16(gfp, "", le));
    id3v2_then_stream(l, gfp, res);
}

struct scenario {
    const char *name;
    void (*run)(const struct rlt_lame *, struct rlt_result *);
};
static const struct scenario scenarios[] = {
    {"encode before lame_init_params", encode_before_init},
    {"lame_init_params twice", init_twice},
    {"flush twice", flush_twice},
    {"encode after the flush", encode_after_flush},
    {"encode after the flush (VBR, ReplayGain, ID3)", encode_after_flush_gain},
    {"encode after the flush (VBR, ReplayGain decoded on the fly, ID3)", encode_after_flush_decoded},
    {"encode after the flush, then a nogap flush", encode_after_flush_nogap},
    {"flush with nothing encoded", flush_without_encode},
    {"output buffers too small", small_buffers},
    {"a negative output size while the stream's head is held", negative_size_head},
    {"flush into 10 bytes", small_flush_buffer},
    {"CBR flush into 1000 bytes (libmp3lame's does not fit)", flush_cbr_short},
    {"CBR flush into 3000 bytes (libmp3lame's fits)", flush_cbr_fits},
    {"VBR flush into 600 bytes (libmp3lame's does not fit)", flush_vbr_short},
    {"VBR flush into 2500 bytes (libmp3lame's fits)", flush_vbr_fits},
    {"VBR with ReplayGain flush into 600 bytes (libmp3lame's does not fit)", flush_gain_short},
    {"VBR with ReplayGain flush into 3000 bytes (libmp3lame's fits)", flush_gain_fits},
    {"CBR at 32 kHz flush into 700 bytes (libmp3lame's does not fit)", flush_resampled_short},
    {"CBR at 32 kHz flush into 2500 bytes (libmp3lame's fits)", flush_resampled_fits},
    {"VBR at 22.05 kHz flush into 300 bytes (libmp3lame's does not fit)", flush_resampled_vbr_short},
    {"0, negative and NULL sample arguments", odd_arguments},
    {"setters after lame_init_params", set_after_init},
    {"nogap calls out of order", nogap_misorder},
    {"lame_init_bitstream after the flush, then a sample-less nogap flush", init_after_flush_then_nogap},
    {"lame_init_bitstream twice, decoding on the fly", init_twice_decoded},
    NOGAP_SHORT_ROWS(unlimited, "0 bytes (unlimited)"),
    NOGAP_SHORT_ROWS(one, "1 byte"),
    NOGAP_SHORT_ROWS(some, "300 bytes"),
    NOGAP_SHORT_ROWS(below, "one byte less than its size"),
    NOGAP_SHORT_ROWS(exact, "its size"),
    NOGAP_SHORT_ROWS(vbr_unlimited, "0 bytes (unlimited; VBR, ReplayGain, ID3v2)"),
    NOGAP_SHORT_ROWS(vbr_some, "300 bytes (VBR, ReplayGain, ID3v2)"),
    NOGAP_SHORT_ROWS(vbr_below, "one byte less than its size (VBR, ReplayGain, ID3v2)"),
    NOGAP_SHORT_ROWS(vbr_exact, "its size (VBR, ReplayGain, ID3v2)"),
    NOGAP_SHORT_ROWS(decoded_below, "one byte less than its size (decoded on the fly)"),
    NOGAP_SHORT_ROWS(vbr_decoded_some, "300 bytes (VBR, ReplayGain decoded on the fly, ID3v2)"),
    NOGAP_SHORT_ROWS(vbr_decoded_below,
                     "one byte less than its size (VBR, ReplayGain decoded on the fly, ID3v2)"),
    {"nogap flush into one byte less than its size, lame_init_bitstream and a sample-less nogap flush into it twice, "
     "retried", nogap_short_twice_retry},
    {"nogap flush into one byte less than its size, lame_init_bitstream and a sample-less nogap flush into it twice, "
     "an encode call", nogap_short_twice_encode},
    {"nogap flush into 300 bytes (VBR, ReplayGain decoded on the fly, ID3v2), lame_init_bitstream and a sample-less "
     "nogap flush into it twice, retried", nogap_short_vbr_decoded_twice_retry},
    {"nogap flush into 300 bytes (VBR, ReplayGain decoded on the fly, ID3v2), lame_init_bitstream and a sample-less "
     "nogap flush into it twice, lame_encode_flush", nogap_short_vbr_decoded_twice_flush},
    {"ID3 UTF-16 texts without a byte-order mark", id3_utf16_without_bom},
    {"ID3 text frames with ids of fewer or more than four characters", id3_short_frame_ids},
    {"lame_get_lametag_frame and lame_get_size_mp3buffer mid-stream", tag_and_size_mid_stream},
    {"the running state after every encode call (CBR, decoded on the fly)", running_cbr},
    {"the running state after every encode call (VBR, decoded on the fly)", running_vbr},
    {"the running state after every encode call (VBR, ReplayGain decoded on the fly)", running_gain},
    {"the running state after every encode call (mono, ReplayGain decoded on the fly)", running_mono},
    {"the running state after every encode call (CBR at 32 kHz, decoded on the fly)", running_resampled},
    {"the running state after every encode call (VBR at 32 kHz, ReplayGain decoded on the fly)",
     running_resampled_vbr},
    {"the running state after every encode call (VBR, ReplayGain, not decoded)", running_plain},
    {"lame_close mid-stream", close_mid_stream},
    {"NULL handles", null_handles},
};

/* A scenario's records, run in a child that sends them back through a pipe
 * as (name, length, bytes); a crash comes back as the record "crashed". */
static void run_scenario(const struct rlt_lame *l, const struct scenario *s, struct rlt_result *res)
{
    int fd[2];
    memset(res, 0, sizeof *res);
    fflush(stdout);
    if (pipe(fd) < 0) {
        res->oom = 1;
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        alarm(60);   /* a library that hangs is a result too: SIGALRM */
        close(fd[0]);
        struct rlt_result r;
        memset(&r, 0, sizeof r);
        s->run(l, &r);
        FILE *w = fdopen(fd[1], "w");
        for (int i = 0; w && i < r.nrecords; i++) {
            fwrite(&r.records[i].is_stream, sizeof(int), 1, w);
            fwrite(r.records[i].name, 1, sizeof r.records[i].name, w);
            fwrite(&r.records[i].bytes.len, sizeof(size_t), 1, w);
            if (r.records[i].bytes.len > 0)     /* (an empty record may have no data) */
                fwrite(r.records[i].bytes.data, 1, r.records[i].bytes.len, w);
        }
        if (w)
            fclose(w);
        _exit(0);
    }
    close(fd[1]);
    FILE *rd = fdopen(fd[0], "r");
    char name[sizeof res->records[0].name];
    size_t len;
    int is_stream;
    while (rd && fread(&is_stream, sizeof is_stream, 1, rd) == 1 && fread(name, 1, sizeof name, rd) == sizeof name &&
           fread(&len, sizeof len, 1, rd) == 1) {
        unsigned char *data = malloc(len ? len : 1);
        if (!data || fread(data, 1, len, rd) != len) {
            free(data);
            break;
        }
        name[sizeof name - 1] = '\0';
        if (is_stream)
            rlt_result_append_stream(res, data, len);
        else
            rlt_result_put(res, name, data, len);
        free(data);
    }
    if (rd)
        fclose(rd);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        rlt_result_put_int(res, "crashed (signal)", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
}

struct thread_job {
    const struct rlt_lame *lib;
    struct rlt_case c;
    struct rlt_result result;
    int err;
};

static void *thread_main(void *arg)
{
    struct thread_job *j = arg;
    j->err = rlt_run_case(j->lib, &j->c, RLT_PERTURB_NONE, &j->result);
    return NULL;
}

/* threads cases on the second library at once, each compared with the
 * reference's result for its case (computed alone, one after the other) */
static int threads_at_once(const struct rlt_lame *a, const struct rlt_lame *b, int threads, unsigned long long seed)
{
    struct thread_job *jobs = calloc((size_t)threads, sizeof *jobs);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    int failed = 0;
    if (!jobs || !ids) {
        free(jobs);
        free(ids);
        return 1;
    }
    for (int i = 0; i < threads; i++) {
        jobs[i].lib = b;
        rlt_case_draw(&jobs[i].c, seed, i);
        /* Debian's hip decoder rebuilds its global tables in every
         * hip_decode_init: decoding on several threads at once races there */
        jobs[i].c.no_decode = 1;
    }
    for (int i = 0; i < threads; i++)
        if (pthread_create(&ids[i], NULL, thread_main, &jobs[i]) != 0)
            ids[i] = 0, jobs[i].err = -1;
    for (int i = 0; i < threads; i++)
        if (ids[i])
            pthread_join(ids[i], NULL);
    for (int i = 0; i < threads; i++) {
        struct rlt_result ref;
        int err = rlt_run_case(a, &jobs[i].c, RLT_PERTURB_NONE, &ref);
        if (err < 0 || jobs[i].err < 0 || rlt_result_compare(stdout, &ref, &jobs[i].result) != 0) {
            printf("FAIL thread %d of %d: differs from the reference alone in\n", i + 1, threads);
            rlt_case_print(stdout, &jobs[i].c);
            failed++;
        }
        rlt_result_free(&ref);
        rlt_result_free(&jobs[i].result);
    }
    if (!failed)
        printf("ok %d handles on %d threads at once, each equal to the reference\n", threads, threads);
    free(jobs);
    free(ids);
    return failed;
}

int main(int argc, char **argv)
{
    const char *first = DEBIAN_LIBMP3LAME, *second = DEBIAN_LIBMP3LAME;
    int threads = 6;
    unsigned long long seed = 3;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--first"))
            first = argv[i + 1];
        else if (!strcmp(argv[i], "--second"))
            second = argv[i + 1];
        else if (!strcmp(argv[i], "--threads"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--tolerate") && rlt_result_tolerate(argv[i + 1]) == 0)
            continue;
        else {
            fprintf(stderr, "mp3lame_misuse: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    struct rlt_lame a, b;
    if (rlt_lame_open(&a, first) < 0)
        return 77;
    if (rlt_lame_open(&b, second) < 0)
        return 77;
    printf("mp3lame_misuse: first %s, second %s\n", first, second);
    make_pcm();
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        struct rlt_result ra, rb;
        run_scenario(&a, &scenarios[i], &ra);
        run_scenario(&b, &scenarios[i], &rb);
        int reference_crashed = ra.nrecords > 0 && !strncmp(ra.records[ra.nrecords - 1].name, "crashed", 7);
        if (rlt_result_compare(stdout, &ra, &rb) == 0 && !ra.oom && !rb.oom) {
            printf("ok %s%s (%d values)\n", scenarios[i].name,
                   reference_crashed ? " (the reference crashes too)" : "", ra.nrecords);
            passed++;
        } else if (rlt_result_is_tolerated(scenarios[i].name)) {
            printf("ok %s: differs, tolerated (--tolerate)\n", scenarios[i].name);
            passed++;
        } else {
            printf("FAIL %s\n", scenarios[i].name);
            failed++;
        }
        rlt_result_free(&ra);
        rlt_result_free(&rb);
    }
    if (threads > 0) {
        if (threads_at_once(&a, &b, threads, seed))
            failed++;
        else
            passed++;
    }
    printf("mp3lame_misuse: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
