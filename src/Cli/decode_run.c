/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: --decode (decode_run.h).
 * Algorithm derived from LAME 3.100's frontend/lame_main.c (lame_decoder;
 * LGPL-2.0-or-later): whatever the input, its samples go out as LAME's
 * get_audio16 gives them (the top 16 bits). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode_console.h"
#include "exit_status.h"
#include "input_notes.h"
#include "decode_run.h"
#include "session_files.h"
#include "pcm_reader.h"
#include "run_failure.h"
#include "settings.h"
#include "signals.h"
#include "wav_writer.h"


/* What lame_init_params makes of the options for this input: its MPEG
 * version and output rate (the "input:" line names MPEG input by them) and
 * its frame size (the reads of PCM input).  -1 each when init fails. */
static void encoder_view(const RlArgs *a, RlPcmReader *in, int *version, int *rate_out,
                         int *frame_size)
{
    RlOptions o = a->lame.opt;
    RlConfig *cfg = malloc(sizeof *cfg);
    char why[160];

    *version = *rate_out = *frame_size = -1;
    if (cfg && rl_lame_apply_input(&a->lame, &o, rl_pcm_channels(in), rl_pcm_samplerate(in), why,
                                   sizeof why) == 0
        && rl_config_init(cfg, &o) == 0) {
        *version = cfg->version;
        *rate_out = cfg->samplerate_out;
        *frame_size = cfg->frame_size;
    }
    free(cfg);
}

/* lame's printInputFormat */
static void format_name(char *buf, size_t n, RlPcmKind kind, int version, int rate_out)
{
    static const char *const layer[3] = { "I", "II", "III" };
    switch (kind) {
    case RL_PCM_KIND_MP1:
    case RL_PCM_KIND_MP2:
    case RL_PCM_KIND_MP3:
        snprintf(buf, n, "MPEG-%u%s Layer %s", (unsigned) (2 - version), rate_out < 16000 ? ".5" : "",
                 layer[kind - RL_PCM_KIND_MP1]);
        break;
    case RL_PCM_KIND_RAW:
        snprintf(buf, n, "raw PCM data");
        break;
    case RL_PCM_KIND_WAVE:
        snprintf(buf, n, "Microsoft WAVE");
        break;
    case RL_PCM_KIND_AIFF:
        snprintf(buf, n, "SGI/Apple AIFF");
        break;
    default:
        snprintf(buf, n, "unknown");
        break;
    }
}

/* One of lame's get_audio16 calls: MPEG input a frame's worth at most (as
 * many frames decoded as it takes to have any), PCM input read_size
 * frames; with the kbps and mode of the frame decoded last (0 for PCM). */
static int read16(RlPcmReader *in, int read_size, int16_t *pcm, int32_t *buf, int ch,
                  int *kbps, int *mode, int *mode_ext)
{
    RlMpaReader *mpa = rl_pcm_mpeg(in);
    int n;

    if (mpa) {
        RlMpaFrameInfo fi;
        n = rl_mpa_reader_read(mpa, pcm, 1152);
        rl_mpa_reader_frame_info(mpa, &fi);
        *kbps = fi.bitrate;
        *mode = fi.mode;
        *mode_ext = fi.mode_ext;
        return n;
    }
    *kbps = *mode = *mode_ext = 0;
    n = rl_pcm_read(in, buf, read_size);
    for (int i = 0; i < n * ch; i++)
        pcm[i] = (int16_t) (buf[i] >> 16);
    return n;
}

/* One get_audio16 call of lame's: its reads until some samples are left
 * past --decode-mp3delay's skip (PCM input; MPEG input skips in its
 * reader), then --swap-channel's swap of the two buffers (a mono PCM
 * input's right one is zeros; a mono MPEG reader swaps itself). */
static int get_audio16(RlPcmReader *in, int read_size, int16_t *pcm, int32_t *buf, int ch,
                       int swap, int64_t *skip_left, int *kbps, int *mode, int *mode_ext)
{
    int n;

    for (;;) {
        n = read16(in, read_size, pcm, buf, ch, kbps, mode, mode_ext);
        if (n <= 0 || *skip_left <= 0)
            break;
        if (*skip_left >= n) {
            *skip_left -= n;
            continue;
        }
        memmove(pcm, pcm + *skip_left * ch, (size_t) (n - *skip_left) * (size_t) ch * sizeof *pcm);
        n -= (int) *skip_left;
        *skip_left = 0;
        break;
    }
    if (n > 0 && swap && !rl_pcm_mpeg(in)) {
        if (ch == 1)
            memset(pcm, 0, (size_t) n * sizeof *pcm);
    }
    if (n > 0 && swap && ch == 2) {
        for (int i = 0; i < n; i++) {
            int16_t const t = pcm[2 * i];
            pcm[2 * i] = pcm[2 * i + 1];
            pcm[2 * i + 1] = t;
        }
    }
    return n;
}

/* lame's num_samples after the skip at the start (init_infile) */
static int64_t frames_left(RlPcmReader *in, int64_t skip)
{
    int64_t const n = rl_pcm_frames(in);
    return n < 0 ? n : n > skip ? n - skip : 0;
}

static void print_report(void *arg, const char *text)
{
    fputs(text, arg);
}

int rl_decode_run(const RlArgs *a)
{
    RlRawFormat raw;
    RlPcmReader *in = NULL;
    RlWavWriter *out = NULL;
    RlDecodeProgress dp;
    char err[512] = "";
    char fmt[64];
    int32_t buf[2 * 1152];
    int16_t pcm[2 * 1152];
    int64_t written = 0, skip_left;
    int rc, ch, swap, version, rate_out, frame_size, read_size, read_failed = 0, stream;
    int const shown = a->lame.silent < 9;

    /* one thread: a signal exits at once, removing the partial output */
    rc = rl_signals_install(1);
    if (rc < 0) {
        fprintf(stderr, "ringlame: cannot install signal handlers: %s\n", strerror(-rc));
        return RL_EXIT_IO;
    }
    rl_file_session_raw_format(&a->lame, &raw);
    rc = rl_pcm_open(&in, a->in_path, &raw, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s\n", err[0] ? err : strerror(-rc));
        return rc == -ENOMEM ? RL_EXIT_IO : RL_EXIT_OPEN;    /* lame: "Can't init infile" */
    }
    rl_console_open_notes(in, a->lame.silent);
    ch = rl_pcm_channels(in);
    swap = a->lame.opt.swap_channels;
    skip_left = !rl_pcm_mpeg(in) && a->lame.mpeg_delay_set && a->lame.mpeg_delay > 0 ? a->lame.mpeg_delay : 0;
    rl_pcm_skip_counted(in, (int) skip_left);
    if (swap && ch == 1 && rl_pcm_mpeg(in) && (rc = rl_mpa_reader_swap_mono(rl_pcm_mpeg(in))) < 0) {
        fprintf(stderr, "ringlame: %s\n", strerror(-rc));
        rl_pcm_close(in);
        return RL_EXIT_IO;
    }
    if (rl_pcm_mpeg(in) && a->lame.silent < 10)     /* the decoder's own messages, as lame's */
        rl_mpa_reader_set_report(rl_pcm_mpeg(in), print_report, stderr);
    encoder_view(a, in, &version, &rate_out, &frame_size);
    /* lame's read size: the encoder's frame (without one, the input's) */
    read_size = frame_size > 0 ? frame_size : rl_pcm_samplerate(in) < 32000 ? 576 : 1152;
    rl_pcm_set_read_size(in, read_size);
    rc = rl_wav_open(&out, a->out_path, !a->decode_raw, a->lame.raw_swapbytes, ch,
                     a->lame.input_samplerate > 0 ? a->lame.input_samplerate : rl_pcm_samplerate(in), err,
                     sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s\n", err[0] ? err : strerror(-rc));
        rl_pcm_close(in);
        return RL_EXIT_OPEN;        /* lame: "Can't init outfile" */
    }
    (void) rl_signals_set_cleanup(rl_wav_removable_path(out), !rl_wav_removable_path(out));
    if (shown) {
        RlMpaReader *mpa = rl_pcm_mpeg(in);
        int skip_start = 0, skip_end = 0, framesize;
        format_name(fmt, sizeof fmt, rl_pcm_kind(in), version, rate_out);
        if (mpa) {
            RlMpaFrameInfo fi;
            rl_mpa_reader_skips(mpa, &skip_start, &skip_end);
            rl_mpa_reader_frame_info(mpa, &fi);
            framesize = fi.frame_samples;
        }
        else {
            framesize = rl_pcm_samplerate(in) < 32000 ? 576 : 1152;
            skip_start = (int) skip_left;
        }
        rl_decode_console_head(stderr, a->in_path, a->out_path,
                               a->lame.input_samplerate > 0 ? a->lame.input_samplerate : rl_pcm_samplerate(in),
                               ch, fmt, skip_start, skip_end);
        rl_decode_progress_init(&dp, frames_left(in, skip_left), framesize);
    }
    rl_console_read_refusal(in, a->lame.silent);
    for (;;) {
        int kbps, mode, mode_ext;
        int const n = get_audio16(in, read_size, pcm, buf, ch, swap, &skip_left, &kbps, &mode,
                                  &mode_ext);
        if (n < 0) {
            rc = n;
            read_failed = 1;
            if (shown)
                rl_decode_progress_finish(stderr);
            break;
        }
        if (n == 0 && rl_pcm_mpeg(in) && rl_mpa_reader_changed(rl_pcm_mpeg(in))) {
            /* lame's failed read: its messages, no line */
            int const why = rl_mpa_reader_changed(rl_pcm_mpeg(in));
            if (a->lame.silent < 10 && (why & RL_MPA_CHANGED_CHANNELS))
                fprintf(stderr, "Error: number of channels has changed in MP3 file - not supported\n");
            if (a->lame.silent < 10 && (why & RL_MPA_CHANGED_RATE))
                fprintf(stderr, "Error: sample frequency has changed in MP3 file - not supported\n");
            break;
        }
        if (n == 0 && ((rl_pcm_mpeg(in) && rl_mpa_reader_short_end(rl_pcm_mpeg(in)))
                       || rl_pcm_read_refusal(in)))
            break;              /* lame's read: a negative count, no line */
        if (shown)
            rl_decode_progress_line(stderr, &dp, n, kbps, mode, mode_ext);
        if (n == 0)
            break;
        written += n;
        rc = rl_wav_write(out, pcm, n);
        if (rc < 0) {
            if (shown)
                rl_decode_progress_finish(stderr);
            break;
        }
    }
    rl_pcm_close(in);
    if (rc < 0) {
        stream = !rl_wav_removable_path(out);
        (void) rl_wav_close(out, 0);
        (void) rl_signals_set_cleanup(NULL, 0);
        /* a write error: lame's status 1 (lame's decoder does not check its
         * writes and exits 0; its encoder exits 1) */
        return rl_run_failure(rc, read_failed ? RL_RING_END_INPUT : RL_RING_END_OUTPUT, a->in_path,
                              a->out_path, stream, "WAV");
    }
    if (written == 0 && a->lame.silent < 10)
        fprintf(stderr, "WAVE file contains 0 PCM samples\n");
    stream = !rl_wav_removable_path(out);
    rc = rl_wav_close(out, 1);
    (void) rl_signals_set_cleanup(NULL, 0);
    if (rc < 0)
        return rl_run_failure(rc, RL_RING_END_OUTPUT, a->in_path, a->out_path, stream, "WAV");
    if (shown)
        rl_decode_progress_finish(stderr);
    return 0;
}
