/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's encode state (mp3lame_session.h).
 * The frame counts and flush sizes follow LAME 3.100's lame.c
 * (LGPL-2.0-or-later). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mp3lame_session.h"
#include "tables.h"
#include "rl_config.h"

/* lame.h: everything a flush returns fits in 7,200 bytes */
#define RL_MP3_FLUSH_PROMISE 7200
/* the files one gapless sequence may have (the ReplayGain titles the
 * gain feed keeps; lame's own front end takes 200) */
#define RL_MP3_NOGAP_FILES 256

/* A frame's largest size in bytes: the highest bitrate the stream may use
 * (CBR: its own), with the padding slot. */
static int max_frame_bytes(const RlConfig *cfg)
{
    int kbps = cfg->vbr == RL_VBR_OFF ? cfg->avg_bitrate
               : rl_bitrate_kbps(cfg->version, cfg->vbr_max_bitrate_index);
    if (cfg->free_format || kbps <= 0)
        kbps = cfg->brate > 0 ? cfg->brate : 640;
    return (cfg->version + 1) * 72000 * kbps / cfg->samplerate_out + 1;
}

/* Frames the ring may lag behind libmp3lame: what the flush promise leaves
 * beside libmp3lame's own flush at its largest (the frames lame_encode_flush
 * encodes: 3 of 1152 samples or 4 of 576, each of the largest size, a full
 * bit reservoir, and the ID3v1 tag it writes: tail bytes), each lagging
 * frame of the largest size, less one: the ring can be a frame further
 * behind when an encode call returns, its samples still in the input
 * queue (seen with CBR 128 mono, calls of 4096 samples: 14 frames behind
 * where 13 were allowed, 41 bytes past a 7,200-byte flush). */
static int inflight_frames(const RlConfig *cfg, size_t tail)
{
    int const big = max_frame_bytes(cfg);
    int const own = (cfg->mode_gr == 2 ? 3 : 4) * big + (cfg->version == 1 ? 511 : 255)
                    + (int) tail;
    int k;

    k = (RL_MP3_FLUSH_PROMISE - own) / big - 1;
    return k > 0 ? k : 0;
}

/* lame's calcNeeded: the samples mfbuf must hold for a frame */
static int lame_mf_needed(const RlConfig *cfg)
{
    int const fs = 576 * cfg->mode_gr;
    return (RL_BLKSIZE + fs - RL_FFTOFFSET) > (512 + fs - 32) ? RL_BLKSIZE + fs - RL_FFTOFFSET
                                                               : 512 + fs - 32;
}

/* Frames libmp3lame has encoded after `samples` input samples per channel
 * (lame_encode_buffer_sample_t: a frame once mfbuf holds mf_needed
 * samples, mfbuf starting with ENCDELAY - MDCTDELAY zeros, or after a
 * flush the stream went on from with what that flush left); with
 * resampling the output samples are estimated, which is safe: a frame the
 * ring cannot make yet leaves it starved, and the call returns. */
int64_t rl_mp3_session_lame_frames(const RlMp3Session *s, int64_t samples)
{
    const RlConfig *cfg = s->cfg;
    int const fs = 576 * cfg->mode_gr;
    int const need = lame_mf_needed(cfg);
    int64_t out = samples - s->base_samples;
    int64_t have;

    if (cfg->samplerate_in != cfg->samplerate_out)
        out = out * cfg->samplerate_out / cfg->samplerate_in + 1;
    have = s->base_have + out;
    return s->base_frames + (have < need ? 0 : (have - need) / fs + 1);
}

static void count(int *cell, int n)
{
    __atomic_fetch_add(cell, n, __ATOMIC_RELAXED);
}

/* lame's updateStats */
static void on_frame(void *arg, int64_t frame, const RlRingFrameInfo *fi)
{
    RlMp3Session *s = arg;
    int const br = fi->bitrate_index >= 0 && fi->bitrate_index < 15 ? fi->bitrate_index : 0;
    int b;

    count(&s->bitrate_stmode[br][4], 1);
    count(&s->bitrate_stmode[15][4], 1);
    if (fi->mode_ext >= 0) {
        count(&s->bitrate_stmode[br][fi->mode_ext & 3], 1);
        count(&s->bitrate_stmode[15][fi->mode_ext & 3], 1);
    }
    for (b = 0; b < 5; b++) {
        int const n = fi->block_count[b];
        if (n) {
            count(&s->bitrate_btype[br][b], n);
            count(&s->bitrate_btype[br][5], n);
            count(&s->bitrate_btype[15][b], n);
            count(&s->bitrate_btype[15][5], n);
        }
    }
    (void) frame;
}

static void on_tag_nogap(void *arg, int file, int *total, int *current)
{
    const RlMp3Session *s = arg;
    (void) file;
    *total = s->nogap_total;
    *current = s->nogap_current;
}

static void on_file_end(void *arg, int file, const RlRingResult *res)
{
    RlMp3Session *s = arg;
    (void) file;
    s->file_radio_gain = res->radio_gain;
    s->file_noclip_change = res->decoded ? res->noclip_gain_change : 0;
    s->file_noclip_scale = res->decoded ? res->noclip_scale : -1.0f;
    s->peak = res->peak_sample;
    s->gains_of_file = 1;
    __atomic_store_n(&s->flush_strange, res->flush_empty, __ATOMIC_RELEASE);
}

int rl_mp3_session_take_flush_strange(RlMp3Session *s)
{
    return __atomic_exchange_n(&s->flush_strange, 0, __ATOMIC_ACQ_REL);
}

static void on_progress(void *arg, int64_t frames_done, int64_t total)
{
    RlMp3Session *s = arg;
    int const at = (int) (frames_done % RL_MP3_FRAME_MARKS);
    s->frame_out[at] = rl_api_output_written(&s->out);
    if (__atomic_load_n(&s->flush_sizes, __ATOMIC_ACQUIRE)) {
        int strange;
        s->frame_flush_size[at] = rl_ring_flush_size(s->ring, &strange);
        s->frame_flush_strange[at] = (unsigned char) strange;
    }
    __atomic_store_n(&s->frames_done, frames_done, __ATOMIC_RELEASE);
    (void) total;
}

/* the ring's next_read: the samples of the caller's next encode call */
static int next_call(void *arg)
{
    RlMp3Session *s = arg;
    return rl_mp3_calls_pop(&s->calls);
}

/* the ring's read_progress: before each call's samples are fed and once
 * at the input's end, with the frames cut by then (libmp3lame encodes a
 * frame inside the call that completes it) */
static void on_call_fed(void *arg, int64_t frames_cut)
{
    RlMp3Session *s = arg;
    __atomic_store_n(&s->frames_cut, frames_cut, __ATOMIC_RELEASE);
}

int64_t rl_mp3_session_frames(const RlMp3Session *s)
{
    return __atomic_load_n(&s->frames_done, __ATOMIC_ACQUIRE);
}

int rl_mp3_session_create(RlMp3Session **out, const RlOptions *o, int threads, int inflight,
                          const uint8_t *v2, size_t v2_len, const uint8_t *v1, size_t v1_len,
                          RlOptions *derived)
{
    RlMp3Session *s;
    const RlOptions *d;
    RlSessionRun run;
    RlRingParams p;
    RlRingInput inp;
    RlRingOutput outp;
    int rc;

    *out = NULL;
    s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->st.opt = *o;
    if (v2_len > 0) {
        s->st.tags.v2 = malloc(v2_len);
        if (!s->st.tags.v2) {
            rc = -ENOMEM;
            goto fail;
        }
        memcpy(s->st.tags.v2, v2, v2_len);
        s->st.tags.v2_len = v2_len;
    }
    if (v1_len > 0) {
        memcpy(s->st.tags.v1, v1, v1_len < 128 ? v1_len : 128);
        s->st.tags.v1_len = v1_len < 128 ? v1_len : 128;
    }
    s->cfg = rl_session_stream_config(&s->st, &d);
    if (!s->cfg) {
        rc = s->st.cfg_rc < 0 ? s->st.cfg_rc : -ENOMEM;
        goto fail;
    }
    *derived = *d;
    s->frame_size = 576 * s->cfg->mode_gr;

    memset(&run, 0, sizeof run);
    run.threads = threads;
    s->threads = rl_session_threads(&run);
    s->frame_max = max_frame_bytes(s->cfg);
    if (s->threads <= 1)
        s->inflight = 0;    /* the caller's thread encodes each frame in its call */
    else if (inflight >= 0)
        s->inflight = inflight < RL_MP3_INFLIGHT_MAX ? inflight : RL_MP3_INFLIGHT_MAX;
    else
        s->inflight = inflight_frames(s->cfg, s->st.tags.v1_len);
    rc = rl_executor_create(&s->ex, s->threads - 1);
    if (rc < 0)
        goto fail;
    run.exec = s->ex;
    run.result = &s->result;
    run.hooks.arg = s;
    run.hooks.progress = on_progress;
    run.hooks.frame_info = on_frame;
    run.hooks.file_end = on_file_end;

    rc = rl_api_output_init(&s->out);
    if (rc < 0)
        goto fail;
    /* the blocks the lag allows, one being filled, one being fed */
    rc = rl_api_input_init_fmt(&s->in, s->frame_size, o->num_channels, s->inflight + 2,
                               RL_SF_F32_UV, 2 * (int) sizeof(float));
    if (rc < 0)
        goto fail;
    rl_api_input_port(&s->in, &inp);
    rl_api_output_port(&s->out, &outp);
    rl_session_ring_params(&run, &s->st, &p);
    /* frame records for the lag and one frame per thread besides */
    p.slots = s->inflight + s->threads + 2;
    /* every stream may turn into a gapless sequence (lame_encode_flush_nogap) */
    p.nogap_files = RL_MP3_NOGAP_FILES;
    p.tag_nogap = on_tag_nogap;
    p.id3v1_last_only = 1;      /* lame_encode_flush writes it, the nogap flush does not */
    p.head_by_caller = 1;       /* a gapless file's head: lame_init_bitstream's */
    if (s->cfg->samplerate_in != s->cfg->samplerate_out) {
        rc = rl_mp3_calls_init(&s->calls);
        if (rc < 0)
            goto fail;
        s->by_call = 1;
        p.next_read = next_call;
        p.next_read_arg = s;
        p.read_progress = on_call_fed;
    }
    rc = rl_ring_create(&s->ring, &s->st.opt, s->ex, &inp, &outp, &p);
    if (rc < 0)
        goto fail;
    s->head_len = rl_api_output_count(&s->out);     /* written by rl_ring_create */
    s->frame_out[0] = s->head_len;
    s->owed = -1;
    s->file_open = 1;
    s->stop_frames = -1;
    s->base_have = RL_ENCDELAY - RL_MDCTDELAY;
    *out = s;
    return 0;
fail:
    rl_mp3_session_destroy(s);
    return rc;
}

void rl_mp3_session_destroy(RlMp3Session *s)
{
    if (!s)
        return;
    rl_ring_destroy(s->ring);
    rl_executor_destroy(s->ex);
    if (s->in.blk)
        rl_api_input_free(&s->in);
    if (s->out.buf)
        rl_api_output_free(&s->out);
    rl_session_stream_free(&s->st);
    rl_mp3_calls_free(&s->calls);
    free(s);
}

/* the caller's samples as lame_copy_inbuffer converts them */
typedef struct RlMp3Fill {
    const RlPcmTyped *src;
    float m[4];
} RlMp3Fill;

static void fill_uv(void *ctx, size_t at, size_t n, void *dst)
{
    const RlMp3Fill *f = ctx;
    rl_pcm_typed_to_uv(f->src, at, n, f->m, dst);
}

static int input_has_room(void *arg)
{
    RlMp3Session *s = arg;
    return rl_api_input_room(&s->in) > 0;
}

typedef struct RlMp3Wait {
    RlMp3Session *s;
    int64_t frames;
} RlMp3Wait;

static int frames_reached(void *arg)
{
    const RlMp3Wait *w = arg;
    return rl_mp3_session_frames(w->s) >= w->frames;
}

/* helps the ring until done(arg) or it cannot move: 0, 1 (starved or
 * done) or -errno */
static int help(RlMp3Session *s, int (*done)(void *), void *arg)
{
    int st = rl_ring_help_until(s->ring, done, arg);
    if (st < 0) {
        s->err = st;
        return st;
    }
    if (st == RL_RING_DONE)
        s->ended = 1;
    return st == RL_RING_RUNNING ? 0 : 1;
}

static int take_at_most(RlMp3Session *s, uint8_t *buf, size_t room)
{
    size_t const n = rl_api_output_take(&s->out, buf, room);
    s->handed += n;
    return (int) n;
}

static int take(RlMp3Session *s, uint8_t *buf, int cap)
{
    return take_at_most(s, buf, cap <= 0 ? (size_t) INT_MAX : (size_t) cap);
}

/* take, though not the head lame still holds (an encode call takes it) */
static int take_before_head(RlMp3Session *s, uint8_t *buf, int cap)
{
    size_t room = cap <= 0 ? (size_t) INT_MAX : (size_t) cap;
    if (s->head_len > 0 && room > s->head_at - s->handed)
        room = (size_t) (s->head_at - s->handed);
    return take_at_most(s, buf, room);
}

/* libmp3lame's return code for a failure (-errno): -2 out of memory, -4
 * anything else (its "psycho acoustic problems", the catch-all) */
static int lame_error(int rc)
{
    return rc == -ENOMEM ? -2 : -4;
}

/* The session fails with rc from now on; libmp3lame's code for it. */
static int fail(RlMp3Session *s, int rc)
{
    s->err = rc;
    return lame_error(rc);
}

/* An encode call with samples after lame_encode_flush: libmp3lame goes on
 * from its state after the flush (mfbuf holds what its last padding frame
 * left: mf_needed - frame size samples), its frame count and handed-out
 * bytes where the flush left them.  0, or lame's -2 / -4. */
static int reopen(RlMp3Session *s)
{
    int64_t const frames = rl_mp3_session_frames(s);
    int rc;

    __atomic_store_n(&s->flush_sizes, 0, __ATOMIC_RELEASE);
    rl_api_input_reopen(&s->in);
    rc = rl_ring_reopen(s->ring);
    if (rc < 0)
        return fail(s, rc);
    s->flushed = 0;
    s->ended = 0;
    s->tag_restarted = 0;
    s->base_samples = s->samples_in;
    s->base_frames = frames;
    s->base_have = lame_mf_needed(s->cfg) - s->frame_size;
    s->frame_out[frames % RL_MP3_FRAME_MARKS] = rl_api_output_written(&s->out);
    return 0;
}

/* lame's copy_buffer into cap: the n bytes in its bit buffer do not fit */
static int no_room(int64_t n, int cap)
{
    return n > 0 && (cap < 0 || (cap > 0 && n > cap));
}

/* lame's next copy of its bit buffer hands a held flush out as non-music
 * (an encode call, lame_encode_flush): never decoded */
static int drop_held(RlMp3Session *s)
{
    int rc = s->nogap_held ? rl_ring_held_out(s->ring, RL_RING_HELD_DROP, NULL) : 0;
    s->nogap_held = 0;
    return rc;
}

int rl_mp3_session_encode(RlMp3Session *s, const RlPcmTyped *src, int n, float norm,
                          uint8_t *buf, int cap)
{
    RlMp3Fill f;
    RlMp3Wait w;
    size_t done = 0;
    int pub, rc;

    if (s->err)
        return lame_error(s->err);
    if (s->flushed) {
        if (s->owed >= 0 || s->nogap_ending)
            return -3;      /* the stream's end was dropped (docs/api.md) */
        if (n <= 0)
            return take(s, buf, cap);
        rc = reopen(s);
        if (rc < 0)
            return rc;
    }
    if (no_room((int64_t) s->head_len, cap))
        return -1;          /* lame: the tags it holds do not fit, no sample taken */
    s->head_len = 0;
    rc = drop_held(s);
    if (rc < 0)
        return fail(s, rc);
    s->file_open = 1;
    if (s->by_call && n > 0 && rl_mp3_calls_push(&s->calls, n) < 0)
        return -2;
    f.src = src;
    rl_pcm_matrix(s->cfg, norm, f.m);
    while (done < (size_t) n) {
        done += rl_api_input_write(&s->in, fill_uv, &f, done, (size_t) n - done, &pub);
        if (pub)
            rl_ring_input_ready(s->ring);
        if (done < (size_t) n && !input_has_room(s)) {
            rc = help(s, input_has_room, s);
            if (rc < 0)
                return lame_error(rc);
            if (rc == 1 && !input_has_room(s))
                return -4;  /* the ring cannot take more: it does not move */
        }
    }
    s->samples_in += n;
    /* the lag bound: libmp3lame's frames so far, less the frames in flight */
    w.s = s;
    w.frames = rl_mp3_session_lame_frames(s, s->samples_in) - s->inflight;
    while (!frames_reached(&w)) {
        rc = help(s, frames_reached, &w);
        if (rc < 0)
            return lame_error(rc);
        if (rc == 1)
            break;          /* starved: the rest waits in a block being filled */
    }
    return take(s, buf, cap);
}

/* The frames libmp3lame had made when the flush came, once the ring has
 * ended: lame_frames (its count for the samples given), or with resampling
 * the frames Dispatch had cut from the last call's samples. */
static int64_t lame_frames_made(RlMp3Session *s, int64_t lame_frames)
{
    return s->by_call ? __atomic_load_n(&s->frames_cut, __ATOMIC_ACQUIRE) : lame_frames;
}

/* The bytes libmp3lame's lame_encode_flush returns now (everything after
 * what it handed out by the last encode call: nothing before the call that
 * took the stream's head, else the bytes of the frames it had made), once
 * the ring has ended. */
static int64_t lame_flush_bytes(RlMp3Session *s, int64_t lame_frames)
{
    uint64_t const before = s->head_len > 0 ? s->head_at
                            : s->frame_out[lame_frames_made(s, lame_frames) % RL_MP3_FRAME_MARKS];
    return (int64_t) (rl_api_output_written(&s->out) - before);
}

/* A failed flush's stop (lame_encode_flush into cap, whose bytes do not
 * all fit: each padding frame's bytes are copied as it is made, then the
 * bitstream flush's, then the ID3v1 tag's; the first that does not fit
 * stops it, with its bytes left in lame's bit buffer).  A padding frame
 * that does not fit is counted (lame_encode_mp3_frame counts it before
 * its copy fails) and save_gain_values is not reached. */
static void note_stop(RlMp3Session *s, int64_t lame_frames, int cap)
{
    int64_t const end = rl_mp3_session_frames(s);
    int64_t const tail = (int64_t) s->st.tags.v1_len;
    int64_t copied = 0, k, last;
    int strange;

    for (k = lame_frames + 1; k <= end; k++) {
        int const at = (int) (k % RL_MP3_FRAME_MARKS);
        int64_t const b = (int64_t) (s->frame_out[at]
                                     - s->frame_out[(k - 1) % RL_MP3_FRAME_MARKS]);
        if (b > cap - copied) {
            s->stop_frames = k;
            s->stop_size = s->frame_flush_size[at] + (int) b;
            s->stop_strange = s->frame_flush_strange[at];
            s->stop_unsaved = 1;
            return;
        }
        copied += b;
    }
    /* the bitstream flush's bytes, or else the ID3v1 tag, stay in lame's buffer */
    last = (int64_t) (rl_api_output_written(&s->out) - s->frame_out[end % RL_MP3_FRAME_MARKS])
           - tail;
    s->stop_frames = end;
    s->stop_size = rl_ring_flush_size(s->ring, &strange) + (int) (last > cap - copied ? last : tail);
    s->stop_strange = strange;
    s->stop_unsaved = 0;
}

/* What the ReplayGain and clipping getters say before a flush (lame's
 * values from its last save_gain_values) */
static void note_gains(RlMp3Session *s)
{
    rl_mp3_session_gains(s, &s->prev_radio_gain, &s->prev_noclip_change, &s->prev_noclip_scale);
}

void rl_mp3_session_gains(const RlMp3Session *s, int *radio_gain, int *noclip_change,
                          float *noclip_scale)
{
    if (s->gains_of_file) {
        *radio_gain = s->file_radio_gain;
        *noclip_change = s->file_noclip_change;
        *noclip_scale = s->file_noclip_scale;
    } else {
        *radio_gain = s->flushes > 0 ? s->result.radio_gain : 0;
        *noclip_change = s->flushes > 0 ? s->result.noclip_gain_change : 0;
        *noclip_scale = s->flushes > 0 && s->result.decoded ? s->result.noclip_scale : -1.0f;
    }
}

int rl_mp3_session_flush(RlMp3Session *s, uint8_t *buf, int cap)
{
    if (s->err)
        return lame_error(s->err);
    if (s->owed >= 0) {
        /* after the failed flush: what the caller had from libmp3lame */
        size_t room = cap <= 0 ? (size_t) INT_MAX : (size_t) cap;
        int n;
        if (room > (size_t) s->owed)
            room = (size_t) s->owed;
        n = take_at_most(s, buf, room);
        s->owed -= n;
        return n;
    }
    if (!s->flushed) {
        int64_t const lame_frames = rl_mp3_session_lame_frames(s, s->samples_in);
        int64_t lame_bytes;
        int rc = drop_held(s);
        if (rc < 0)
            return fail(s, rc);
        s->flushed = 1;
        note_gains(s);
        __atomic_store_n(&s->flush_sizes, 1, __ATOMIC_RELEASE);
        rl_api_input_end(&s->in);
        rl_ring_input_ready(s->ring);
        rc = rl_ring_wait(s->ring);
        if (rc < 0)
            return fail(s, rc);
        s->ended = 1;
        s->flushes++;
        s->gains_of_file = 0;
        s->peak = s->result.peak_sample;
        __atomic_store_n(&s->flush_strange, s->result.flush_empty, __ATOMIC_RELEASE);
        lame_bytes = lame_flush_bytes(s, lame_frames);
        if (lame_bytes > 0 && (cap < 0 || (cap > 0 && lame_bytes > cap))) {
            /* libmp3lame: its flush does not fit, -1; the bytes it had
             * handed out before stay the caller's */
            s->owed = (int64_t) (rl_api_output_written(&s->out) - (uint64_t) lame_bytes - s->handed);
            if (s->owed < 0)
                s->owed = 0;    /* cannot be: the ring's bytes never come earlier */
            if (cap > 0 && s->head_len == 0)
                note_stop(s, lame_frames_made(s, lame_frames), cap);
            s->head_len = 0;
            return -1;
        }
        s->head_len = 0;        /* its first padding call copied the head out */
    }
    return take_before_head(s, buf, cap);
}

static int never(void *arg)
{
    (void) arg;
    return 0;
}

/* A nogap flush that did not fit: the ended file's flush (with a head
 * lame held) stays held, out of its music and its tag (the ring made the
 * tag without it).  -1 (lame's). */
static int hold_flush(RlMp3Session *s, int64_t n)
{
    if (s->head_len == 0)
        s->head_at = rl_api_output_written(&s->out) - (uint64_t) n;
    s->head_len = (size_t) n;
    s->nogap_held = 1;
    return -1;
}

/* The nogap flush retried after one that did not fit: lame copies its bit
 * buffer out as music if it fits this time, decoding it on the fly.
 * Fitting or not, its save_gain_values closes a ReplayGain title of its
 * own (empty where nothing was decoded: RadioGain 0) and says the clipping
 * figures again; the file's tag is made again with them. */
static int retry_flush(RlMp3Session *s, uint8_t *buf, int cap)
{
    uint8_t spare[RL_ENCODER_TAG_MAX], tag[RL_ENCODER_TAG_MAX];
    int const fits = !no_room((int64_t) s->head_len, cap);
    RlRingResult res;
    int len, rc;

    if (fits) {
        rc = rl_ring_held_out(s->ring, RL_RING_HELD_RETRY, &res);
        if (rc < 0)
            return fail(s, rc);
        if (res.replay_gain)
            s->file_radio_gain = res.radio_gain;
        if (res.decoded) {
            s->file_noclip_change = res.noclip_gain_change;
            s->file_noclip_scale = res.noclip_scale;
            s->peak = res.peak_sample;
        }
    } else if (s->cfg->find_replay_gain)
        s->file_radio_gain = 0;
    s->gains_of_file = 1;
    if (fits || s->cfg->find_replay_gain) {
        len = rl_ring_tag_frame_now(s->ring, s->file_radio_gain, s->nogap_current,
                                    s->nogap_total, 1, tag, sizeof tag);
        if (len < 0) {
            s->err = len;
            return -4;
        }
        (void) rl_api_output_swap_tag(&s->out, tag, (size_t) len, spare, sizeof spare);
    }
    if (!fits)
        return -1;
    s->nogap_held = 0;
    s->head_len = 0;
    return (int) rl_api_output_take_file(&s->out, buf, cap <= 0 ? (size_t) INT_MAX : (size_t) cap);
}

int rl_mp3_session_flush_nogap(RlMp3Session *s, uint8_t *buf, int cap)
{
    size_t const room = cap <= 0 ? (size_t) INT_MAX : (size_t) cap;
    int rc, tries;

    if (s->err)
        return lame_error(s->err);
    if (s->flushed && s->head_len > 0) {
        /* lame_init_bitstream after the flush: lame copies its head out
         * as music */
        if (no_room((int64_t) s->head_len, cap))
            return -1;
        rc = rl_ring_head_as_music(s->ring);
        if (rc < 0)
            return fail(s, rc);
        s->head_len = 0;
    }
    if (s->flushed)
        return (int) rl_api_output_take_file(&s->out, buf, room);
    if (s->nogap_held && !s->file_open)
        return retry_flush(s, buf, cap);
    if (s->nogap_held && !no_room((int64_t) s->head_len, cap)) {
        /* lame_init_bitstream since: lame copies the held flush out as
         * music with the new head (a sample-less file flushes no more) */
        rc = rl_ring_held_out(s->ring, RL_RING_HELD_AHEAD, NULL);
        if (rc < 0)
            return fail(s, rc);
        s->nogap_held = 0;
    }
    if (!s->nogap_ending) {
        rc = rl_api_input_file_end(&s->in);
        if (rc < 0)
            return -1;
        s->nogap_ending = 1;
        rl_ring_input_ready(s->ring);
    }
    /* every frame of the file, then its end on this thread; a ring that
     * stays starved without reaching the file's end is an error */
    for (tries = 0;; tries++) {
        rc = rl_ring_end_file(s->ring, s->head_len, cap);
        if (rc != -EAGAIN)
            break;
        if (tries > 2) {
            rc = -EPROTO;
            break;
        }
        rc = help(s, never, NULL);
        if (rc < 0)
            break;
        if (rc == 0)
            tries = 0;
    }
    if (rc < 0)
        return fail(s, rc);
    s->nogap_ending = 0;
    s->file_open = 0;
    if (rc == 1)
        return hold_flush(s, lame_flush_bytes(s, rl_mp3_session_frames(s)));
    s->head_len = 0;
    return (int) rl_api_output_take_file(&s->out, buf, room);
}

/* Encode's state made libmp3lame's (below) */
static int drain(RlMp3Session *s);

int rl_mp3_session_next_file(RlMp3Session *s)
{
    uint64_t before = 0;
    int br, c, rc;

    /* lame writes the head into its bit buffer where the stream is: the
     * ring first makes every frame lame has made (after the flush it has
     * ended: the head waits there for an encode call) */
    rc = s->flushed ? 0 : drain(s);
    if (rc == 0) {
        before = rl_api_output_written(&s->out);
        rc = rl_ring_init_bitstream(s->ring);
    }
    if (rc < 0) {
        s->err = rc;
        return 0;           /* lame's answer; the next encode call fails */
    }
    if (s->head_len == 0)
        s->head_at = before;
    s->head_len += (size_t) (rl_api_output_written(&s->out) - before);
    s->tag_restarted = s->flushed;
    s->peak = 0.0f;         /* lame_init_bitstream's PeakSample = 0 */
    /* the bytes lame hands out with its frames so far: the head is taken
     * by the next encode call */
    s->frame_out[rl_mp3_session_frames(s) % RL_MP3_FRAME_MARKS] = rl_api_output_written(&s->out);
    s->file_open = 1;
    s->file_first_frame = rl_mp3_session_frames(s);
    for (br = 0; br < 16; br++) {
        for (c = 0; c < 5; c++)
            __atomic_store_n(&s->bitrate_stmode[br][c], 0, __ATOMIC_RELAXED);
        for (c = 0; c < 6; c++)
            __atomic_store_n(&s->bitrate_btype[br][c], 0, __ATOMIC_RELAXED);
    }
    return 0;
}

/* Encode's state made libmp3lame's (mp3lame_session.h): the block being
 * filled goes out short, then the ring is helped until it starves.  0 or
 * the error the ring stopped with. */
static int drain(RlMp3Session *s)
{
    int rc;

    if (s->err)
        return s->err;
    if (s->flushed)
        return -EPROTO;
    if (rl_api_input_publish(&s->in))
        rl_ring_input_ready(s->ring);
    do
        rc = help(s, never, NULL);
    while (rc == 0);
    return rc < 0 ? rc : 0;
}

int rl_mp3_session_catch_up(RlMp3Session *s)
{
    return s->flushed || s->err ? 0 : drain(s);
}

float rl_mp3_session_peak(RlMp3Session *s)
{
    /* without decoding on the fly lame's peak stays 0: no catching up */
    if (!s->cfg->decode_on_the_fly || s->flushed || s->err)
        return s->peak;
    if (drain(s) < 0)
        return s->peak;
    return rl_ring_peak_now(s->ring);
}

int rl_mp3_session_resampled_to_encode(RlMp3Session *s)
{
    int const rc = drain(s);
    return rc < 0 ? rc : rl_ring_samples_to_encode_now(s->ring);
}

int rl_mp3_session_tag_now(RlMp3Session *s, int nogap_total, int nogap_current, uint8_t *buf,
                           size_t cap)
{
    int rc = drain(s), gain, change;
    float scale;
    if (rc < 0)
        return rc;
    /* lame's RadioGain is what its last save_gain_values left */
    rl_mp3_session_gains(s, &gain, &change, &scale);
    return rl_ring_tag_frame_now(s->ring, gain, nogap_current, nogap_total, 0, buf, cap);
}

int rl_mp3_session_flush_size_now(RlMp3Session *s, int *strange)
{
    const RlConfig *c = s->cfg;
    int rc = drain(s);
    if (rc < 0)
        return rc;
    if (rl_mp3_session_frames(s) == 0) {
        /* no frame yet: every header slot of lame's is pending and none
         * written (compute_flushbits complains); one frame of the bitrate
         * index it starts with (VBR: 1) and the head it may still hold */
        int const kbps = c->vbr != RL_VBR_OFF ? rl_bitrate_kbps(c->version, 1) : c->avg_bitrate;
        *strange = 1;
        return (c->version + 1) * 72000 * kbps / c->samplerate_out + (int) s->head_len;
    }
    /* the ring wrote the file's head out at once; lame's bit buffer holds
     * it from lame_init_bitstream until an encode call takes it (its
     * header slots move with it: only its bytes count) */
    return rl_ring_flush_size(s->ring, strange) + (int) s->head_len;
}
