/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encode session over files (session_files.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_files.h"
#include "mp3_writer.h"
#include "pcm_reader.h"

#define NOGAP_ENCODER_DELAY 576     /* LAME's ENCDELAY, set by lame_init_params */

struct RlFileSession {
    const RlLameSettings *a;
    int             nogap;          /* a gapless set (lame --nogap) */
    int             files;          /* inputs (and outputs) the run takes */
    int             n_in, n_out;
    int             stream_ready;   /* the first input set st.opt (st.tags: at run) */
    RlSessionStream st;
    RlPcmReader   **in;
    RlMp3Writer   **out;
    char          **in_path, **out_path;
    RlMpaReadPlan  *plan;           /* MPEG inputs: lame's decoded-chunk reads */
    int            *first_read;     /* PCM inputs with a skip: lame's first read's frames */
    uint8_t       **v2;             /* a set's ID3v2 tags of the files after the first */
    const uint8_t **v2_of;          /* every file's ID3v2 tag (the first's: st.tags) */
    size_t         *v2_len;
    /* the single input's read points, for the hooks' read_at */
    int64_t         read_at;
    const RlSessionHooks *hooks;
};

int rl_file_session_create(RlFileSession **out, const RlLameSettings *a, int files, int nogap)
{
    RlFileSession *s;

    *out = NULL;
    if (files < 1 || (files > 1 && !nogap))
        return -EINVAL;
    s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->a = a;
    s->nogap = nogap;
    s->files = files;
    s->in = calloc((size_t) files, sizeof *s->in);
    s->out = calloc((size_t) files, sizeof *s->out);
    s->plan = calloc((size_t) files, sizeof *s->plan);
    s->first_read = calloc((size_t) files, sizeof *s->first_read);
    s->in_path = calloc((size_t) files, sizeof *s->in_path);
    s->out_path = calloc((size_t) files, sizeof *s->out_path);
    s->v2 = calloc((size_t) files, sizeof *s->v2);
    s->v2_of = calloc((size_t) files, sizeof *s->v2_of);
    s->v2_len = calloc((size_t) files, sizeof *s->v2_len);
    if (!s->in || !s->out || !s->plan || !s->first_read || !s->in_path || !s->out_path || !s->v2 || !s->v2_of
        || !s->v2_len) {
        rl_file_session_free(s);
        return -ENOMEM;
    }
    *out = s;
    return 0;
}

void rl_file_session_free(RlFileSession *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->files; i++) {
        if (s->in && s->in[i])
            rl_pcm_close(s->in[i]);
        if (s->out && s->out[i])
            (void) rl_mp3_close(s->out[i], 0);
        if (s->v2)
            free(s->v2[i]);
        if (s->in_path)
            free(s->in_path[i]);
        if (s->out_path)
            free(s->out_path[i]);
    }
    rl_session_stream_free(&s->st);
    free(s->in);
    free(s->out);
    free(s->plan);
    free(s->first_read);
    free(s->in_path);
    free(s->out_path);
    free(s->v2);
    free(s->v2_of);
    free(s->v2_len);
    free(s);
}

/* lame's --decode-mp3delay on PCM input: the samples its front end drops
 * at the start of each input (MPEG input skips them in its reader) */
static int pcm_skip(const RlFileSession *s, int i)
{
    return !rl_pcm_mpeg(s->in[i]) && s->a->mpeg_delay_set && s->a->mpeg_delay > 0 ? s->a->mpeg_delay
                                                                                   : 0;
}

int rl_file_session_add_input(RlFileSession *s, const char *path, char *why, size_t whylen)
{
    RlRawFormat raw;
    RlPcmReader *rd = NULL;
    char err[512];
    int const i = s->n_in;
    int rc;

    if (i >= s->files)
        return -E2BIG;
    rl_file_session_raw_format(s->a, &raw);
    if (s->nogap) {
        /* lame's file-name rule looks at its single input's name only,
         * which a --nogap set leaves empty: without --mpNinput every file
         * of the set goes to libsndfile, an MPEG one too */
        if (raw.mpeg == 0)
            raw.mpeg = RL_RAW_MPEG_NONE;
        /* lame opens the later files after lame_init_params, which sets
         * the encoder delay its MPEG reader may skip (mpa_reader.h) */
        raw.mpeg_encoder_delay = i > 0 ? NOGAP_ENCODER_DELAY : 0;
    }
    err[0] = '\0';
    rc = rl_pcm_open(&rd, path, &raw, err, sizeof err);
    if (rc < 0) {
        if (err[0])
            snprintf(why, whylen, "%s", err);
        else
            snprintf(why, whylen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    s->in[i] = rd;
    s->in_path[i] = strdup(path);
    s->n_in++;
    rl_pcm_skip_counted(rd, pcm_skip(s, i));
    if (!s->in_path[i])
        return -ENOMEM;
    if (i == 0) {
        s->st.opt = s->a->opt;
        rc = rl_lame_apply_input(s->a, &s->st.opt, rl_pcm_channels(rd), rl_pcm_samplerate(rd), err,
                                 sizeof err);
        if (rc < 0) {
            snprintf(why, whylen, "%s: %s", path, err);
            return rc;
        }
        s->stream_ready = 1;
    }
    else if (rl_pcm_channels(rd) != rl_pcm_channels(s->in[0])
             || rl_pcm_samplerate(rd) != rl_pcm_samplerate(s->in[0])) {
        snprintf(why, whylen, "%s: --nogap: %d Hz, %d channel(s), but %s has "
                 "%d Hz, %d channel(s): the files of a gapless set must have the same sample "
                 "rate and channel count", path, rl_pcm_samplerate(rd), rl_pcm_channels(rd),
                 s->in_path[0], rl_pcm_samplerate(s->in[0]), rl_pcm_channels(s->in[0]));
        return -EXDEV;
    }
    return 0;
}

int rl_file_session_add_output(RlFileSession *s, const char *path, char *why, size_t whylen)
{
    char err[512];
    int rc;

    if (s->n_out >= s->files)
        return -E2BIG;
    err[0] = '\0';
    rc = rl_mp3_open(&s->out[s->n_out], path, err, sizeof err);
    if (rc < 0) {
        s->out[s->n_out] = NULL;
        if (err[0])
            snprintf(why, whylen, "%s", err);
        else
            snprintf(why, whylen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    s->out_path[s->n_out] = strdup(path);
    s->n_out++;
    return s->out_path[s->n_out - 1] ? 0 : -ENOMEM;
}

const RlOptions *rl_file_session_options(const RlFileSession *s)
{
    return s->stream_ready ? &s->st.opt : NULL;
}

const struct RlConfig *rl_file_session_config(RlFileSession *s, const RlOptions **derived)
{
    if (!s->stream_ready) {
        if (derived)
            *derived = NULL;
        return NULL;
    }
    return rl_session_stream_config(&s->st, derived);
}

RlPcmReader *rl_file_session_reader(const RlFileSession *s, int i)
{
    return i >= 0 && i < s->n_in ? s->in[i] : NULL;
}

RlMp3Writer *rl_file_session_writer(const RlFileSession *s, int i)
{
    return i >= 0 && i < s->n_out ? s->out[i] : NULL;
}

/* The reads of PCM input i as lame's front end makes them: after a skip
 * (--decode-mp3delay) its first call gives what is left of the read the
 * skip ends in, then a frame's worth each (0: the frame size). */
static void pcm_read_plan_init(RlFileSession *s, int i)
{
    const RlConfig *cfg = rl_file_session_config(s, NULL);
    int const skip = pcm_skip(s, i);

    s->first_read[i] = skip > 0 && cfg ? cfg->frame_size - skip % cfg->frame_size : 0;
}

static int pcm_read_plan_next(RlFileSession *s, int i)
{
    int const n = s->first_read[i];

    s->first_read[i] = 0;
    return n;
}

/* The ring's next_read for a single MPEG input (lame reads it one decoded
 * chunk at a time) or a PCM input with a skip; the hooks hear where each
 * read begins. */
static int next_read_single(void *arg)
{
    RlFileSession *s = arg;
    int const n = rl_pcm_mpeg(s->in[0]) ? rl_mpa_read_plan_next(&s->plan[0])
                                        : pcm_read_plan_next(s, 0);

    if (s->hooks->read_at)
        s->hooks->read_at(s->hooks->arg, s->read_at);
    if (n > 0)
        s->read_at += n;
    return n;
}

/* A set's file_next_read: the MPEG inputs' chunks, the PCM inputs' reads
 * (0: the frame size). */
static int next_read_file(void *arg, int file)
{
    RlFileSession *s = arg;
    return rl_pcm_mpeg(s->in[file]) ? rl_mpa_read_plan_next(&s->plan[file])
                                    : pcm_read_plan_next(s, file);
}

int64_t rl_file_session_frames(const RlFileSession *s, int i)
{
    int64_t n;

    if (i < 0 || i >= s->n_in)
        return -1;
    n = rl_pcm_frames(s->in[i]);
    return n < 0 ? n : n > pcm_skip(s, i) ? n - pcm_skip(s, i) : 0;
}

/* The tags of file i, from its own input (its TLEN, an MPEG input's own
 * ID3v2 tag). */
static int file_tags(RlFileSession *s, int i, RlArgsTags *t, char *why, size_t whylen)
{
    size_t in_v2_len;
    const uint8_t *in_v2 = rl_pcm_input_id3v2(s->in[i], &in_v2_len);

    return rl_args_tags_build(s->a, rl_file_session_frames(s, i), s->st.opt.samplerate_in, in_v2,
                              in_v2_len, t, why, whylen);
}

int rl_file_session_run(RlFileSession *s, const RlSessionRun *run, char *why, size_t whylen)
{
    RlRingParams p;
    int rc;

    if (!s->stream_ready || s->n_in != s->files || s->n_out != s->files)
        return -EINVAL;
    rl_args_tags_free(&s->st.tags);
    rc = file_tags(s, 0, &s->st.tags, why, whylen);
    if (rc < 0)
        return rc;
    s->hooks = &run->hooks;
    if (!s->nogap) {
        rl_session_ring_params(run, &s->st, &p);
        p.skip_frames = pcm_skip(s, 0);
        if (rl_pcm_mpeg(s->in[0]) || p.skip_frames > 0) {
            if (rl_pcm_mpeg(s->in[0]))
                rl_mpa_read_plan_init(&s->plan[0], rl_pcm_mpeg(s->in[0]));
            else
                pcm_read_plan_init(s, 0);
            s->read_at = 0;
            p.next_read = next_read_single;
            p.next_read_arg = s;
        }
        return rl_run_ring(&s->st.opt, s->in[0], s->out[0], &p);
    }
    /* a gapless set: each file its own ID3v2 tag, the first's ID3v1 tag
     * for all (the options make it, so it is the same for every file) */
    for (int i = 0; i < s->files; i++) {
        RlArgsTags t;
        if (i == 0) {
            s->v2_of[0] = s->st.tags.v2;
            s->v2_len[0] = s->st.tags.v2_len;
        }
        else {
            rc = file_tags(s, i, &t, why, whylen);
            if (rc < 0) {
                rl_args_tags_free(&t);
                return rc;
            }
            s->v2[i] = t.v2;        /* freed with the session */
            s->v2_of[i] = t.v2;
            s->v2_len[i] = t.v2_len;
        }
        if (rl_pcm_mpeg(s->in[i]))
            rl_mpa_read_plan_init(&s->plan[i], rl_pcm_mpeg(s->in[i]));
        else
            pcm_read_plan_init(s, i);
    }
    rl_session_ring_params(run, &s->st, &p);
    p.skip_frames = pcm_skip(s, 0);     /* the files of a set are all PCM or all MPEG */
    p.nogap_id3v2 = s->v2_of;
    p.nogap_id3v2_len = s->v2_len;
    p.file_next_read = next_read_file;
    p.next_read_arg = s;
    return rl_run_ring_nogap(&s->st.opt, s->in, s->out, s->files, &p);
}

int rl_file_session_commit(RlFileSession *s, char *why, size_t whylen)
{
    int first = 0;

    for (int i = 0; i < s->files; i++) {
        if (s->in[i]) {
            rl_pcm_close(s->in[i]);
            s->in[i] = NULL;
        }
    }
    for (int i = 0; i < s->files; i++) {
        int rc;
        if (!s->out[i])
            continue;
        rc = rl_mp3_close(s->out[i], 1);
        s->out[i] = NULL;
        if (rc < 0 && first == 0) {
            first = rc;
            snprintf(why, whylen, "%s: %s", s->out_path[i], strerror(-rc));
        }
    }
    return first;
}

void rl_file_session_raw_format(const RlLameSettings *a, RlRawFormat *raw)
{
    memset(raw, 0, sizeof *raw);
    raw->enabled = a->raw_input;
    raw->samplerate = a->input_samplerate > 0 ? a->input_samplerate : a->opt.samplerate_in;
    raw->channels = a->opt.num_channels;
    raw->bitwidth = a->raw_bitwidth;
    raw->is_signed = a->raw_signed;
    raw->big_endian = a->raw_big_endian ^ a->raw_swapbytes;
    raw->swap_bytes = a->raw_swapbytes;
    raw->ignore_length = a->ignore_length;
    raw->mpeg = a->mpeg_input;
    raw->mpeg_delay = a->mpeg_delay;
    raw->mpeg_delay_set = a->mpeg_delay_set;
}
