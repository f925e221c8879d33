/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: command-line front end (lame's frontend/lame_main.c).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later).
 *
 * Exit status:
 *   0  success, or --help / --version; an input lame opens but whose first
 *      read fails (its message, a two-frame stream)
 *   1  usage error (unknown or unsupported option, missing input name,
 *      excess argument, bad option value), and -? / --preset help
 *   255  lame's "Can't init infile/outfile": the input or the output cannot
 *      be opened (an unsupported input format too), input == output, the
 *      settings refused for the input
 *   2  an error once the encode began (a read or write error, a thread or
 *      signal handler that cannot be set up); no partial output is left.
 *   (exit_status.h: lame's status wherever lame defines one.)
 *   With --compare: 0 the outputs are identical, 1 they differ (or a usage
 *      error), 2 as above or lame is missing or failed (compare_run.h).
 *   130 / 143  interrupted by SIGINT / SIGTERM: the ring drains, the partial
 *      output is removed (a second signal, or the first with --sequential,
 *      exits at once and still removes the temporary file: signals.h).
 * Messages go to stderr as "ringlame: <file>: <problem>".
 * The encode is the file session (session_files.h): on --threads N threads (default: the CPUs this
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

#include "cli_args.h"
#include "batch.h"
#include "compare_run.h"
#include "console.h"
#include "exit_status.h"
#include "input_notes.h"
#include "decode_run.h"
#include "mp3_writer.h"
#include "nogap.h"
#include "trace.h"
#include "pcm_reader.h"
#include "progress.h"
#include "ring.h"
#include "run_failure.h"
#include "session_files.h"
#include "signals.h"
#include "settings.h"
#include "simd.h"
#include "tables.h"
#include "version.h"


/* The stop callback, on the signal thread (signals.h). */
static void stop_ring(void *token)
{
    rl_ring_stop_request(token);
}

/* --verbose: the ring's task times (work only: Encode's waits in its
 * fork-joins are shown apart, not in the task time).  The serial share is
 * the serial stages' work (Dispatch, Resolve, Encode with the channel loops
 * it runs itself, Finish) over all task time. */
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
            "serial share %.1f%%; Encode waited %.3f s in its joins\n",
            threads, (long long) s->frames, (long long) s->search_redos,
            s->frames ? 100.0 * (double) s->search_redos / (double) s->frames : 0.0, s->wall_s,
            busy, s->dispatch_s * pct, s->prepare_s * pct, s->resolve_s * pct, s->search_s * pct,
            s->encode_s * pct, s->side_s * pct, (long long) s->side_tasks, s->gain_s * pct,
            s->redecode_s * pct, (s->dispatch_s + s->resolve_s + s->encode_s + s->finish_s) * pct,
            s->join_wait_s);
}

static void on_frame_info(void *arg, int64_t frame, const RlRingFrameInfo *fi)
{
    (void) frame;
    rl_progress_frame(arg, fi->bitrate_index, fi->mode_ext, fi->block_count);
}

/* What the console watches of an MPEG input: the decoder's messages land
 * between the progress lines where lame's do. */
typedef struct MpegWatch {
    RlProgress   *prog;
    RlMpaReader  *rd;
} MpegWatch;

/* the session's read_at (Dispatch, where lame's next read begins) */
static void on_read_at(void *arg, int64_t sample)
{
    rl_progress_read_at(arg, sample);
}

/* the decoder's message (on the thread that reads): queued for the console
 * at its read's point, or printed at once when no progress is shown */
static void on_decoder_note(void *arg, const char *text)
{
    MpegWatch *m = arg;

    if (!m->prog || rl_progress_note(m->prog, rl_mpa_reader_handed_out(m->rd), text) < 0)
        fputs(text, stderr);
}

/* the progress display's question: did lame's last read fail (a stream
 * ending inside its end's skip, or one whose channels or rate changed)? */
static int mpeg_ended_short(void *arg)
{
    MpegWatch *m = arg;
    return rl_mpa_reader_short_end(m->rd) || rl_mpa_reader_changed(m->rd);
}

static int read_refused(void *arg)
{
    (void) arg;
    return 1;
}

/* lame's front end messages where the stream changed its channels or rate:
 * made by its last read, so after every display but the end's */
static void note_changes(MpegWatch *m)
{
    int const why = rl_mpa_reader_changed(m->rd);

    if (why & RL_MPA_CHANGED_CHANNELS)
        on_decoder_note(m, "Error: number of channels has changed in MP3 file - not supported\n");
    if (why & RL_MPA_CHANGED_RATE)
        on_decoder_note(m, "Error: sample frequency has changed in MP3 file - not supported\n");
}

/* The encode through the session, with lame's console around it.  With
 * --trace, the timeline is written after a successful encode; its result
 * (0 or -errno) goes to *trace_rc and does not change the encode's.  A
 * failed run's RlRingEnd goes to *failed_end. */
static int run_encode(const RlArgs *a, RlFileSession *fs, int *trace_rc, int *failed_end)
{
    RlSessionRun run;
    RlRingStats stats;
    RlRingResult result;
    RlProgress *prog = NULL;
    MpegWatch mpeg;
    RlPcmReader *in = rl_file_session_reader(fs, 0);
    const RlOptions *derived;
    const RlConfig *cfg = rl_file_session_config(fs, &derived);
    char why[RL_ARGS_PATH_MAX + 128];
    int rc;

    *trace_rc = 0;
    memset(&run, 0, sizeof run);
    memset(&result, 0, sizeof result);
    if (a->trace_path[0]) {
        *trace_rc = rl_trace_create(&run.trace);
        if (*trace_rc == 0)
            *trace_rc = rl_trace_name_thread(run.trace, "main");
    }
    run.sequential = a->sequential;
    run.threads = a->threads;
    /* the signal thread requests the stop (a signal that already came
     * requests it at once, and the ring then returns -EINTR) */
    rc = rl_ring_stop_create(&run.stop);
    if (rc < 0)
        return rc;
    rc = rl_signals_set_stop_callback(stop_ring, run.stop);
    if (rc < 0) {
        rl_ring_stop_free(run.stop);
        return rc;
    }
    /* lame's progress display, terminal or not, unless silenced */
    if (a->lame.silent <= 0)
        rl_console_progress(&prog, cfg, derived, rl_file_session_frames(fs, 0), !a->nohist);
    if (prog) {
        run.hooks.arg = prog;
        run.hooks.progress = rl_progress_update;
        run.hooks.read_progress = rl_progress_read;
        run.hooks.read_at = on_read_at;
        if (!a->nohist)
            run.hooks.frame_info = on_frame_info;
    }
    /* MPEG input: lame's decoder messages and its short-end rule */
    memset(&mpeg, 0, sizeof mpeg);
    if (rl_pcm_mpeg(in)) {
        mpeg.prog = prog;
        mpeg.rd = rl_pcm_mpeg(in);
        rl_progress_set_short_end(prog, mpeg_ended_short, &mpeg);
        if (a->lame.silent < 10)     /* lame's front end prints them unless --quiet */
            rl_mpa_reader_set_report(mpeg.rd, on_decoder_note, &mpeg);
    }
    /* an input lame's reader refuses: its first read fails */
    if (rl_pcm_read_refusal(in))
        rl_progress_set_short_end(prog, read_refused, NULL);
    run.result = &result;
    if (a->lame.silent <= -10)       /* --verbose: where the ring's time went (after lame's text) */
        run.stats = &stats;
    why[0] = '\0';
    rc = rl_file_session_run(fs, &run, why, sizeof why);
    if (rc < 0 && why[0])
        fprintf(stderr, "ringlame: %s\n", why);
    *failed_end = rc < 0 ? result.failed_end : RL_RING_END_NONE;
    if (mpeg.rd) {
        rl_mpa_reader_set_report(mpeg.rd, NULL, NULL);
        if (rc == 0 && a->lame.silent < 10)
            note_changes(&mpeg);
    }
    if (prog) {
        if (rc == 0)
            rl_progress_finish(prog, result.frames);
        else
            rl_progress_abort(prog);
        rl_progress_free(prog);
    }
    if (rc == 0 && a->lame.silent <= 0) {
        rl_console_closing(result.tag_len, result.replay_gain, result.radio_gain);
        if (a->lame.clipdetect && result.decoded)
            rl_console_clipping(result.noclip_gain_change, result.noclip_scale, result.scale);
    }
    if (rc == 0 && run.stats) {
        int const cpu = rl_cpu_simd_level();
        fprintf(stderr, "SIMD level: %s (this CPU's best: %s)\n",
                rl_simd_name(a->lame.opt.simd_level < 0 ? cpu : a->lame.opt.simd_level), rl_simd_name(cpu));
        print_ring_stats(&stats, rl_session_threads(&run));
    }
    if (rc == 0 && run.trace && *trace_rc == 0)
        *trace_rc = rl_trace_write(run.trace, a->trace_path);
    rl_trace_free(run.trace);
    /* after this returns the signal thread never touches the token again */
    (void) rl_signals_set_stop_callback(NULL, NULL);
    rl_ring_stop_free(run.stop);
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
        return RL_EXIT_USAGE;
    }
    if (a->out_given && strcmp(a->out_path, "-") == 0) {
        fprintf(stderr, "ringlame: --compare: the output must be a file, not stdout\n");
        return RL_EXIT_USAGE;
    }
    rc = rl_compare_tmpdir(compare_dir, sizeof compare_dir);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --compare: cannot create a temporary folder: %s\n", strerror(-rc));
        compare_dir[0] = '\0';
        return RL_EXIT_IO;
    }
    atexit(remove_compare_dir);
    if (!a->out_given
        && snprintf(a->out_path, sizeof a->out_path, "%s/ringlame.mp3", compare_dir)
           >= (int) sizeof a->out_path) {
        fprintf(stderr, "ringlame: --compare: %s: %s\n", compare_dir, strerror(ENAMETOOLONG));
        return RL_EXIT_IO;
    }
    return 0;
}

int main(int argc, char **argv)
{
    RlArgs *a;
    RlFileSession *fs = NULL;
    RlMp3Writer *out = NULL;
    char why[RL_ARGS_PATH_MAX + 640];
    int rc, trace_rc = 0, failed_end = RL_RING_END_NONE;

    /* tag text is in the environment's charset, as lame takes it */
    setlocale(LC_CTYPE, "");
    if (argc <= 1) {
        rl_args_print_usage(stderr, argv[0]);
        return RL_EXIT_USAGE;
    }
    a = malloc(sizeof(*a));
    if (!a) {
        fprintf(stderr, "ringlame: out of memory\n");
        return RL_EXIT_IO;
    }
    rc = rl_args_parse(a, argc, argv, getenv("LAMEOPT"), getenv("RINGLAME_SIMD"), stdout, stderr);
    if (rc != RL_ARGS_OK) {
        free(a);
        return rc == RL_ARGS_EXIT ? 0 : RL_EXIT_USAGE;
    }
    if (a->decode && (a->batch || a->compare)) {
        fprintf(stderr, "ringlame: --decode does not combine with --%s\n", a->batch ? "batch" : "compare");
        free(a);
        return RL_EXIT_USAGE;
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
        return RL_EXIT_OPEN;        /* lame: "Input file and Output file are the same" */
    }
    if (a->decode) {
        rc = rl_decode_run(a);
        free(a);
        return rc;
    }

    rc = rl_file_session_create(&fs, &a->lame, 1, 0);
    if (rc == 0)
        rc = rl_file_session_add_input(fs, a->in_path, why, sizeof why);
    if (rc < 0) {
        if (fs)
            fprintf(stderr, "ringlame: %s\n", why);
        else
            fprintf(stderr, "ringlame: %s\n", strerror(-rc));
        rl_file_session_free(fs);
        free(a);
        return rc == -ENOMEM ? RL_EXIT_IO : RL_EXIT_OPEN;     /* lame: "Can't init infile" */
    }
    rl_console_open_notes(rl_file_session_reader(fs, 0), a->lame.silent);

    /* before the output exists, so that a signal never leaves it behind,
     * and before any thread is created (the ring's workers, the I/O
     * thread): they inherit the blocked SIGINT/SIGTERM (signals.h) */
    rc = rl_signals_install(a->sequential);
    if (rc < 0) {
        fprintf(stderr, "ringlame: cannot install signal handlers: %s\n", strerror(-rc));
        rl_file_session_free(fs);
        free(a);
        return RL_EXIT_IO;
    }
    rc = rl_file_session_add_output(fs, a->out_path, why, sizeof why);
    if (rc < 0) {
        fprintf(stderr, "ringlame: %s\n", why);
        rl_file_session_free(fs);
        free(a);
        return RL_EXIT_OPEN;        /* lame: "Can't init outfile" */
    }
    out = rl_file_session_writer(fs, 0);

    /* what an immediate exit (second signal) must remove: only a named
     * temporary (an unnamed output file vanishes with the process) */
    (void) rl_signals_set_cleanup(rl_mp3_temp_name(out), !rl_mp3_is_seekable(out));

    {
        const RlOptions *derived;
        const RlConfig *cfg = rl_file_session_config(fs, &derived);
        rl_console_init_notes(cfg);
        if (a->lame.silent < 9)
            rl_console_banner(a->in_path, a->out_path, cfg, derived, a->lame.silent <= -10);
        rl_console_read_refusal(rl_file_session_reader(fs, 0), a->lame.silent);
    }

    rc = run_encode(a, fs, &trace_rc, &failed_end);
    if (rc >= 0 && rl_signals_caught())
        rc = -EINTR;    /* a signal during the last frames: still no output */
    if (rc < 0) {
        int const stream = !rl_mp3_is_seekable(out);
        rl_file_session_free(fs);      /* nothing committed: no output */
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
        rc = rl_run_failure(rc, failed_end, a->in_path, a->out_path, stream, "mp3");
        free(a);
        return rc;
    }
    rc = rl_file_session_commit(fs, why, sizeof why);
    rl_file_session_free(fs);
    (void) rl_signals_set_cleanup(NULL, 0);
    if (rc < 0) {               /* the output's last write, sync or name */
        fprintf(stderr, "ringlame: %s\n", why);
        free(a);
        return RL_EXIT_WRITE;
    }
    if (trace_rc < 0) {         /* the MP3 is complete; only the trace failed */
        fprintf(stderr, "ringlame: --trace %s: %s (the output %s is complete)\n", a->trace_path,
                strerror(-trace_rc), a->out_path);
        free(a);
        return RL_EXIT_IO;
    }
    rc = a->compare ? rl_compare_run(a, argc, argv, a->out_path, compare_dir) : 0;
    free(a);
    return rc;
}
