/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: command-line front end (lame's frontend/lame_main.c).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 *
 * Exit status:
 *   0  success, or --help / --version
 *   1  usage error (unknown or unsupported option, missing input name,
 *      excess argument, bad option value), and -? / --preset help
 *   2  input/output or encoding error (cannot open or read the input,
 *      unsupported input format, cannot create or write the output, input ==
 *      output, encoder initialisation failure); no partial output is left.
 *   With --compare: 0 the outputs are identical, 1 they differ (or a usage
 *      error), 2 as above or lame is missing or failed (compare_run.h).
 *   130 / 143  interrupted by SIGINT / SIGTERM: the ring drains, the partial
 *      output is removed (a second signal, or the first with --sequential,
 *      exits at once and still removes the temporary file: signals.h).
 * Messages go to stderr as "ringlame: <file>: <problem>".
 * The encode is rl_run_ring: on --threads N threads (default: the CPUs this
 * process may run on) with the I/O scheduler, or with --sequential on the
 * calling thread alone (no pool workers) with direct reads and writes;
 * lame's console text on stderr (the banner, the progress display, the
 * closing lines) unless silenced. */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "batch.h"
#include "compare_run.h"
#include "console.h"
#include "decode_run.h"
#include "mp3_writer.h"
#include "nogap.h"
#include "trace.h"
#include "pcm_reader.h"
#include "progress.h"
#include "ring.h"
#include "signals.h"
#include "settings.h"
#include "simd.h"
#include "tables.h"
#include "version.h"

#define EXIT_USAGE 1
#define EXIT_IO    2

/* The stop callback, on the signal thread (signals.h). */
static void stop_ring(void *token)
{
    rl_ring_stop_request(token);
}

/* --verbose: the ring's task times.  The chain share is Encode's time (the
 * serial stage, with the channel loops it forks) over all task time. */
static void print_ring_stats(const RlRingStats *s, int threads)
{
    double const busy = s->dispatch_s + s->prepare_s + s->resolve_s + s->search_s + s->encode_s
                        + s->side_s + s->gain_s + s->finish_s + s->redecode_s;
    double const pct = 100.0 / (busy > 0 ? busy : 1);
    fprintf(stderr,
            "ring: %d workers, %lld frames, %lld searches redone (%.2f%%), wall %.3f s, "
            "task time %.3f s: dispatch %.1f%% prepare %.1f%% resolve %.1f%% search %.1f%% "
            "encode %.1f%% (forked to other workers: %.1f%%, %lld items) gain %.1f%% "
            "redecode %.1f%%; "
            "serial share %.1f%%\n",
            threads, (long long) s->frames, (long long) s->search_redos,
            s->frames ? 100.0 * (double) s->search_redos / (double) s->frames : 0.0, s->wall_s,
            busy, s->dispatch_s * pct, s->prepare_s * pct, s->resolve_s * pct, s->search_s * pct,
            s->encode_s * pct, s->side_s * pct, (long long) s->side_tasks, s->gain_s * pct,
            s->redecode_s * pct, (s->dispatch_s + s->resolve_s + s->encode_s + s->finish_s) * pct);
}

static void on_frame_info(void *arg, int64_t frame, const RlRingFrameInfo *fi)
{
    (void) frame;
    rl_progress_frame(arg, fi->bitrate_index, fi->mode_ext, fi->block_count);
}

/* An MPEG input's reads as lame makes them, and where each begins, so that
 * the decoder's messages land between the progress lines where lame's do. */
typedef struct MpegReads {
    RlMpaReadPlan plan;
    int64_t       at;       /* the input sample where the next read begins */
    RlProgress   *prog;
    RlMpaReader  *rd;
} MpegReads;

/* the ring's next_read (Dispatch, just before the read's read_progress) */
static int next_mpeg_read(void *arg)
{
    MpegReads *m = arg;
    int const n = rl_mpa_read_plan_next(&m->plan);

    rl_progress_read_at(m->prog, m->at);
    if (n > 0)
        m->at += n;
    return n;
}

/* the decoder's message (on the thread that reads): queued for the console
 * at its read's point, or printed at once when no progress is shown */
static void on_decoder_note(void *arg, const char *text)
{
    MpegReads *m = arg;

    if (!m->prog || rl_progress_note(m->prog, rl_mpa_reader_handed_out(m->rd), text) < 0)
        fputs(text, stderr);
}

/* the progress display's question: did lame's last read fail (a stream
 * ending inside its end's skip, or one whose channels or rate changed)? */
static int mpeg_ended_short(void *arg)
{
    MpegReads *m = arg;
    return rl_mpa_reader_short_end(m->rd) || rl_mpa_reader_changed(m->rd);
}

/* lame's front end messages where the stream changed its channels or rate:
 * made by its last read, so after every display but the end's */
static void note_changes(MpegReads *m)
{
    int const why = rl_mpa_reader_changed(m->rd);

    if (why & RL_MPA_CHANGED_CHANNELS)
        on_decoder_note(m, "Error: number of channels has changed in MP3 file - not supported\n");
    if (why & RL_MPA_CHANGED_RATE)
        on_decoder_note(m, "Error: sample frequency has changed in MP3 file - not supported\n");
}

/* The encode: the ring on --threads, or --sequential's inline ring.  With
 * --trace, the timeline is written after a successful encode; its result
 * (0 or -errno) goes to *trace_rc and does not change the encode's. */
static int run_encode(const RlArgs *a, RlPcmReader *in, RlMp3Writer *out, int *trace_rc)
{
    RlRingParams p;
    RlRingStats stats;
    RlRingResult result;
    RlProgress *prog = NULL;
    MpegReads mpeg;
    RlArgsTags tags;
    const uint8_t *in_v2;
    size_t in_v2_len;
    char why[RL_ARGS_PATH_MAX + 128];
    int rc;

    *trace_rc = 0;
    memset(&p, 0, sizeof p);
    memset(&result, 0, sizeof result);
    if (a->trace_path[0]) {
        *trace_rc = rl_trace_create(&p.trace);
        if (*trace_rc == 0)
            *trace_rc = rl_trace_name_thread(p.trace, "main");
    }
    if (a->sequential) {
        p.threads = 1;          /* no pool workers: the ring runs on this thread */
        p.io_backend = RL_RING_IO_DIRECT;      /* no I/O thread: Dispatch reads, Encode writes */
    }
    else {
        p.threads = rl_threads_resolve(a->threads);
    }
    /* the signal thread requests the stop (a signal that already came
     * requests it at once, and the ring then returns -EINTR) */
    rc = rl_ring_stop_create(&p.stop);
    if (rc < 0)
        return rc;
    rc = rl_signals_set_stop_callback(stop_ring, p.stop);
    if (rc < 0) {
        rl_ring_stop_free(p.stop);
        return rc;
    }
    /* lame's progress display, terminal or not, unless silenced */
    if (a->silent <= 0)
        rl_console_progress(&prog, &a->opt, rl_pcm_frames(in), !a->nohist);
    if (prog) {
        p.progress = rl_progress_update;
        p.read_progress = rl_progress_read;
        p.progress_arg = prog;
        if (!a->nohist)
            p.frame_info = on_frame_info;
    }
    /* MPEG input: lame reads it one decoded chunk at a time */
    if (rl_pcm_mpeg(in)) {
        memset(&mpeg, 0, sizeof mpeg);
        rl_mpa_read_plan_init(&mpeg.plan, rl_pcm_mpeg(in));
        mpeg.prog = prog;
        mpeg.rd = rl_pcm_mpeg(in);
        rl_progress_set_short_end(prog, mpeg_ended_short, &mpeg);
        p.next_read = next_mpeg_read;
        p.next_read_arg = &mpeg;
        if (a->silent < 10)     /* lame's front end prints them unless --quiet */
            rl_mpa_reader_set_report(mpeg.rd, on_decoder_note, &mpeg);
    }
    p.result = &result;
    if (a->silent <= -10)       /* --verbose: where the ring's time went (after lame's text) */
        p.stats = &stats;
    /* the ID3 tags, as lame's front end writes them (TLEN from the
     * input's length when the header gives it) */
    in_v2 = rl_pcm_input_id3v2(in, &in_v2_len);
    rc = rl_args_tags_build(a, rl_pcm_frames(in), a->opt.samplerate_in, in_v2, in_v2_len, &tags,
                            why, sizeof why);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s\n", why);
    }
    else {
        p.id3v2 = tags.v2;
        p.id3v2_len = tags.v2_len;
        p.id3v1 = tags.v1;
        p.id3v1_len = tags.v1_len;
        rc = rl_run_ring(&a->opt, in, out, &p);
    }
    rl_args_tags_free(&tags);
    if (rl_pcm_mpeg(in)) {
        rl_mpa_reader_set_report(rl_pcm_mpeg(in), NULL, NULL);
        if (rc == 0 && a->silent < 10)
            note_changes(&mpeg);
    }
    if (prog) {
        if (rc == 0)
            rl_progress_finish(prog, result.frames);
        else
            rl_progress_abort(prog);
        rl_progress_free(prog);
    }
    if (rc == 0 && a->silent <= 0) {
        rl_console_closing(result.tag_len, result.replay_gain, result.radio_gain);
        if (a->clipdetect && result.decoded)
            rl_console_clipping(result.noclip_gain_change, result.noclip_scale, result.scale);
    }
    if (rc == 0 && p.stats) {
        int const cpu = rl_cpu_simd_level();
        fprintf(stderr, "SIMD level: %s (this CPU's best: %s)\n",
                rl_simd_name(a->opt.simd_level < 0 ? cpu : a->opt.simd_level), rl_simd_name(cpu));
        print_ring_stats(&stats, p.threads);
    }
    if (rc == 0 && p.trace && *trace_rc == 0)
        *trace_rc = rl_trace_write(p.trace, a->trace_path);
    rl_trace_free(p.trace);
    /* after this returns the signal thread never touches the token again */
    (void) rl_signals_set_stop_callback(NULL, NULL);
    rl_ring_stop_free(p.stop);
    return rc;
}

/* 1 if out_path names the same file as in_path ("-": standard input or
 * output, compared by what the descriptor is). */
static int same_file(const char *in_path, const char *out_path)
{
    struct stat si, so;
    int const in_ok = strcmp(in_path, "-") == 0 ? fstat(STDIN_FILENO, &si) == 0
                                                : stat(in_path, &si) == 0;
    int const out_ok = strcmp(out_path, "-") == 0 ? fstat(STDOUT_FILENO, &so) == 0
                                                  : stat(out_path, &so) == 0;
    if (strcmp(in_path, "-") != 0 && strcmp(in_path, out_path) == 0)
        return 1;               /* the same name, existing or not */
    /* only regular files can be overwritten by mistake (not /dev/null) */
    return in_ok && out_ok && S_ISREG(si.st_mode) && si.st_dev == so.st_dev
           && si.st_ino == so.st_ino;
}

/* --compare's folder of temporary outputs, removed at exit ("" = none). */
static char compare_dir[RL_ARGS_PATH_MAX + 1];

static void remove_compare_dir(void)
{
    if (compare_dir[0])
        rl_compare_tmpdir_remove(compare_dir);
}

/* --compare: refuses what cannot be compared, and makes the folder of the
 * temporary outputs (lame's, and ours when no output is named).  0, or an
 * exit status after a message. */
static int compare_setup(RlArgs *a)
{
    int rc;
    if (!a->compare)
        return 0;
    if (!a->compare_to[0] && strcmp(a->in_path, "-") == 0) {
        fprintf(stderr, "ringlame: --compare: lame must read the input too: name a file, not stdin "
                "(or compare with an existing file: --compare-to REF.mp3)\n");
        return EXIT_USAGE;
    }
    if (a->out_given && strcmp(a->out_path, "-") == 0) {
        fprintf(stderr, "ringlame: --compare: the output must be a file, not stdout\n");
        return EXIT_USAGE;
    }
    rc = rl_compare_tmpdir(compare_dir, sizeof compare_dir);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --compare: cannot create a temporary folder: %s\n", strerror(-rc));
        compare_dir[0] = '\0';
        return EXIT_IO;
    }
    atexit(remove_compare_dir);
    if (!a->out_given
        && snprintf(a->out_path, sizeof a->out_path, "%s/ringlame.mp3", compare_dir)
           >= (int) sizeof a->out_path) {
        fprintf(stderr, "ringlame: --compare: %s: %s\n", compare_dir, strerror(ENAMETOOLONG));
        return EXIT_IO;
    }
    return 0;
}

static int file_error(const char *path, const char *msg)
{
    fprintf(stderr, "ringlame: %s: %s\n", path, msg);
    return EXIT_IO;
}

int main(int argc, char **argv)
{
    RlArgs *a;
    RlPcmReader *in = NULL;
    RlMp3Writer *out = NULL;
    RlRawFormat raw;
    char err[512];
    int rc, trace_rc = 0;

    /* tag text is in the environment's charset, as lame takes it */
    setlocale(LC_CTYPE, "");
    if (argc <= 1) {
        rl_args_print_usage(stderr, argv[0]);
        return EXIT_USAGE;
    }
    a = malloc(sizeof(*a));
    if (!a) {
        fprintf(stderr, "ringlame: out of memory\n");
        return EXIT_IO;
    }
    rc = rl_args_parse(a, argc, argv, getenv("LAMEOPT"), stdout, stderr);
    if (rc != RL_ARGS_OK) {
        free(a);
        return rc == RL_ARGS_EXIT ? 0 : EXIT_USAGE;
    }
    if (a->decode && (a->batch || a->compare)) {
        fprintf(stderr, "ringlame: --decode does not combine with --%s\n", a->batch ? "batch" : "compare");
        free(a);
        return EXIT_USAGE;
    }
    if (a->batch) {
        rc = rl_batch_main(a, argc, argv);
        free(a);
        return rc;
    }
    if (a->nogap) {
        rc = rl_nogap_main(a, argv);
        free(a);
        return rc;
    }

    if (a->raw_input) {
        if (a->raw_bitwidth != 8 && a->raw_bitwidth != 16 && a->raw_bitwidth != 24
            && a->raw_bitwidth != 32) {
            fprintf(stderr, "ringlame: --bitwidth must be 8, 16, 24 or 32\n");
            free(a);
            return EXIT_USAGE;
        }
        if (a->raw_signed == 0 && a->raw_bitwidth != 8) {
            fprintf(stderr, "ringlame: unsigned input is only supported with --bitwidth 8\n");
            free(a);
            return EXIT_USAGE;
        }
    }

    rc = compare_setup(a);
    if (rc != 0) {
        free(a);
        return rc;
    }

    /* the input is never overwritten: compared as files (device and inode,
     * through symlinks and hard links), not only by name as lame does */
    if (same_file(a->in_path, a->out_path)) {
        fprintf(stderr, "ringlame: %s: the output '%s' is the input file itself: "
                "refusing to overwrite the input\n", a->in_path, a->out_path);
        free(a);
        return EXIT_USAGE;
    }
    if (a->decode) {
        rc = rl_decode_run(a);
        free(a);
        return rc;
    }

    rl_args_raw_format(a, &raw);

    err[0] = '\0';
    rc = rl_pcm_open(&in, a->in_path, &raw, err, sizeof(err));
    if (rc < 0) {
        if (err[0])
            fprintf(stderr, "ringlame: %s\n", err);
        else
            fprintf(stderr, "ringlame: %s: %s\n", a->in_path, strerror(-rc));
        free(a);
        return EXIT_IO;
    }
    if (rl_args_apply_input(a, &a->opt, rl_pcm_channels(in), rl_pcm_samplerate(in), err,
                            sizeof(err)) < 0) {
        rc = file_error(a->in_path, err);
        rl_pcm_close(in);
        free(a);
        return rc;
    }

    /* before the output exists, so that a signal never leaves it behind,
     * and before any thread is created (the ring's workers, the I/O
     * thread): they inherit the blocked SIGINT/SIGTERM (signals.h) */
    rc = rl_signals_install(a->sequential);
    if (rc < 0) {
        fprintf(stderr, "ringlame: cannot install signal handlers: %s\n", strerror(-rc));
        rl_pcm_close(in);
        free(a);
        return EXIT_IO;
    }
    err[0] = '\0';
    rc = rl_mp3_open(&out, a->out_path, err, sizeof(err));
    if (rc < 0) {
        if (err[0])
            fprintf(stderr, "ringlame: %s\n", err);
        else
            fprintf(stderr, "ringlame: %s: %s\n", a->out_path, strerror(-rc));
        rl_pcm_close(in);
        free(a);
        return EXIT_IO;
    }

    /* what an immediate exit (second signal) must remove: only a named
     * temporary (an unnamed output file vanishes with the process) */
    (void) rl_signals_set_cleanup(rl_mp3_temp_name(out), !rl_mp3_is_seekable(out));

    rl_console_init_notes(&a->opt);
    if (a->silent < 9)
        rl_console_banner(a->in_path, a->out_path, &a->opt, a->silent <= -10);

    rc = run_encode(a, in, out, &trace_rc);
    rl_pcm_close(in);
    if (rc >= 0 && rl_signals_caught())
        rc = -EINTR;    /* a signal during the last frames: still no output */
    if (rc < 0) {
        int const stream = !rl_mp3_is_seekable(out);
        (void) rl_mp3_close(out, 0);
        (void) rl_signals_set_cleanup(NULL, 0);
        if (rc == -EINTR && rl_signals_caught()) {
            int const sig = rl_signals_caught();
            if (stream)
                fprintf(stderr, "ringlame: stopped by signal %d (%s); the output written so far "
                        "to %s is incomplete\n", sig, strsignal(sig), a->out_path);
            else
                fprintf(stderr, "ringlame: stopped by signal %d (%s), no output written\n", sig,
                        strsignal(sig));
            free(a);
            return rl_signals_exit_status();
        }
        if (stream) {
            fprintf(stderr, "ringlame: encoding %s to %s failed: %s (the output written so far "
                    "is incomplete)\n", a->in_path, a->out_path, strerror(-rc));
            free(a);
            return EXIT_IO;
        }
        /* the error may come from either end (a read or a write): name both */
        fprintf(stderr, "ringlame: encoding %s to %s failed: %s (no output written)\n",
                a->in_path, a->out_path, strerror(-rc));
        free(a);
        return EXIT_IO;
    }
    rc = rl_mp3_close(out, 1);
    (void) rl_signals_set_cleanup(NULL, 0);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s: %s\n", a->out_path, strerror(-rc));
        free(a);
        return EXIT_IO;
    }
    if (trace_rc < 0) {         /* the MP3 is complete; only the trace failed */
        fprintf(stderr, "ringlame: --trace %s: %s (the output %s is complete)\n", a->trace_path,
                strerror(-trace_rc), a->out_path);
        free(a);
        return EXIT_IO;
    }
    rc = a->compare ? rl_compare_run(a, argc, argv, a->out_path, compare_dir) : 0;
    free(a);
    return rc;
}
