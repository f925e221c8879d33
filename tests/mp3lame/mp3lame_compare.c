/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* mp3lame_compare: drives two libmp3lame libraries (Debian's and a drop-in)
 * through the same seeded cases, side by side in one process, and compares
 * every byte and value they return (mp3lame_run.h).
 *
 *   mp3lame_compare [--first LIB] [--second LIB] [--seed S] [--cases N] [--index I]
 *                   [--expect-mismatch] [--tolerate NAME_PART]... [--verbose]
 *
 * --first is the reference (default Debian's libmp3lame.so.0), --second the
 * library under test (default the same file, which must compare equal).
 * --index runs the one case I of seed S (a failure prints both numbers).
 * --expect-mismatch perturbs the second side (a setting, one sample, or the
 * language of the case's id3tag_set_comment_* calls) and
 * succeeds only when every case is caught: the harness's own check.
 * --tolerate: records whose names contain NAME_PART may differ (printed,
 * not counted): differences the library under test documents.
 * Exit: 0 all equal, 1 a mismatch (the case and the first differing byte are
 * printed), 77 a library cannot be loaded, 2 bad usage. */
#include "mp3lame_lib.h"
#include "mp3lame_run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEBIAN_LIBMP3LAME "/usr/lib/x86_64-linux-gnu/libmp3lame.so.0"

struct options {
    const char *first, *second;
    unsigned long long seed;
    long cases, index;
    int expect_mismatch, verbose;
};

static int parse(int argc, char **argv, struct options *o)
{
    const char *env = getenv("RL_TEST_SEED");
    *o = (struct options){DEBIAN_LIBMP3LAME, DEBIAN_LIBMP3LAME, env ? strtoull(env, NULL, 0) : 1, 100, -1, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--expect-mismatch"))
            o->expect_mismatch = 1;
        else if (!strcmp(a, "--verbose"))
            o->verbose = 1;
        else if (v && !strcmp(a, "--first"))
            o->first = argv[++i];
        else if (v && !strcmp(a, "--second"))
            o->second = argv[++i];
        else if (v && !strcmp(a, "--seed"))
            o->seed = strtoull(argv[++i], NULL, 0);
        else if (v && !strcmp(a, "--cases"))
            o->cases = strtol(argv[++i], NULL, 0);
        else if (v && !strcmp(a, "--index"))
            o->index = strtol(argv[++i], NULL, 0);
        else if (v && !strcmp(a, "--tolerate")) {
            if (rlt_result_tolerate(argv[++i]) < 0)
                return -1;
        }
        else {
            fprintf(stderr, "mp3lame_compare: unknown or incomplete option '%s'\n", a);
            return -1;
        }
    }
    return 0;
}

/* 1 when the case compares equal, 0 when it does not, -1 on a test failure */
static int run_one(const struct rlt_lame *a, const struct rlt_lame *b, const struct options *o, long index)
{
    struct rlt_case c;
    struct rlt_result ra, rb;
    rlt_case_draw(&c, o->seed, index);
    enum rlt_perturb perturb = !o->expect_mismatch ? RLT_PERTURB_NONE
                               : index % 2         ? RLT_PERTURB_SAMPLE
                                                   : RLT_PERTURB_SETTING;
    /* a sample changed in an empty track cannot show */
    if (perturb == RLT_PERTURB_SAMPLE && c.tracks[0].nsamples < 2)
        perturb = RLT_PERTURB_SETTING;
    /* the language of the COMM frames, where a case sets one */
    if (perturb == RLT_PERTURB_SETTING && rlt_case_has_comment_lang(&c)) {
        perturb = RLT_PERTURB_COMMENT_LANG;
        printf("case %ld: the comments' language perturbed\n", index);
    }
    /* a sample of the track after the flush, where a case has one */
    if (perturb == RLT_PERTURB_SAMPLE && c.has_more && c.more.nsamples >= 2 && index % 4 == 1) {
        perturb = RLT_PERTURB_MORE_SAMPLE;
        printf("case %ld: a sample after the flush perturbed\n", index);
    }
    if (o->verbose)
        rlt_case_print(stdout, &c);
    int err = rlt_run_case(a, &c, RLT_PERTURB_NONE, &ra);
    /* the mid-stream probes, in the cases that make them where the
     * reference shows the perturbation: the tag's or the size's */
    if (err == 0 && perturb == RLT_PERTURB_SETTING && c.probe_percent) {
        enum rlt_perturb p = rlt_probe_perturbation(&ra, index % 4 == 0);
        if (p != RLT_PERTURB_NONE) {
            perturb = p;
            printf("case %ld: the mid-stream %s perturbed\n", index, p == RLT_PERTURB_PROBE_TAG ? "tag" : "size");
        }
    }
    if (err == 0)
        err = rlt_run_case(b, &c, perturb, &rb);
    else
        memset(&rb, 0, sizeof rb);
    if (err < 0) {
        fprintf(stderr, "mp3lame_compare: out of memory in case %ld\n", index);
        rlt_result_free(&ra);
        rlt_result_free(&rb);
        return -1;
    }
    FILE *sink = o->expect_mismatch ? fopen("/dev/null", "w") : stdout;
    int differences = rlt_result_compare(sink ? sink : stdout, &ra, &rb);
    if (sink && sink != stdout)
        fclose(sink);
    if (differences && !o->expect_mismatch) {
        printf("MISMATCH (%d) between %s and %s in\n", differences, a->path, b->path);
        rlt_case_print(stdout, &c);
    }
    if (!differences && o->expect_mismatch) {
        printf("NOT CAUGHT: the second side was perturbed (%s) and compared equal in\n",
               perturb == RLT_PERTURB_SAMPLE          ? "one sample"
               : perturb == RLT_PERTURB_MORE_SAMPLE  ? "one sample after the flush"
               : perturb == RLT_PERTURB_COMMENT_LANG ? "the comments' language"
               : perturb == RLT_PERTURB_PROBE_TAG    ? "the mid-stream tag's nogap index"
               : perturb == RLT_PERTURB_PROBE_SIZE   ? "the first mid-stream size asked first"
                                                     : "lame_set_copyright");
        rlt_case_print(stdout, &c);
    }
    rlt_result_free(&ra);
    rlt_result_free(&rb);
    return differences == 0;
}

/* The reference alone, in a child: does it survive the case? */
static int reference_survives(const struct rlt_lame *a, const struct options *o, long index)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(240);
        struct rlt_case c;
        struct rlt_result r;
        rlt_case_draw(&c, o->seed, index);
        rlt_run_case(a, &c, RLT_PERTURB_NONE, &r);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return 1;
    return !WIFSIGNALED(status);
}

/* Each case runs in a child process, so that a library that aborts (Debian's
 * fails assertions on a few setting combinations) ends the case, not the run:
 * 1 equal, 0 a mismatch or the second library crashed, 2 the reference
 * itself crashed (the case says nothing), -1 a test failure. */
static int run_isolated(const struct rlt_lame *a, const struct rlt_lame *b, const struct options *o, long index)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return run_one(a, b, o, index);
    if (pid == 0) {
        alarm(240);   /* a library that hangs ends the case: SIGALRM */
        int r = run_one(a, b, o, index);
        fflush(stdout);
        _exit(r < 0 ? 3 : r);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status) == 3 ? -1 : WEXITSTATUS(status);
    if (!reference_survives(a, o, index)) {
        printf("case %ld: the reference %s itself dies (signal %d): not counted\n", index, a->path,
               WTERMSIG(status));
        return 2;
    }
    struct rlt_case c;
    rlt_case_draw(&c, o->seed, index);
    printf("CRASH (signal %d) of %s where %s does not, in\n", WTERMSIG(status), b->path, a->path);
    rlt_case_print(stdout, &c);
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* the case is printed before a library can abort */
    if (parse(argc, argv, &o) < 0)
        return 2;
    struct rlt_lame a, b;
    if (rlt_lame_open(&a, o.first) < 0)
        return 77;
    if (rlt_lame_open(&b, o.second) < 0) {
        rlt_lame_close(&a);
        return 77;
    }
    printf("mp3lame_compare: first %s, second %s, seed %llu, %s\n", o.first, o.second, o.seed,
           o.expect_mismatch ? "second side perturbed" : "every returned byte compared");
    long from = o.index >= 0 ? o.index : 0, to = o.index >= 0 ? o.index + 1 : o.cases;
    long equal = 0, failed = 0, unusable = 0;
    time_t start = time(NULL);
    for (long i = from; i < to; i++) {
        int r = run_isolated(&a, &b, &o, i);
        if (r < 0)
            return 1;
        if (r == 2) {
            unusable++;
            continue;
        }
        int ok = o.expect_mismatch ? !r : r;
        equal += r;
        if (!ok) {
            failed++;
            if (!o.expect_mismatch)
                printf("replay: mp3lame_compare --first %s --second %s --seed %llu --index %ld --verbose\n",
                       o.first, o.second, o.seed, i);
        }
    }
    printf("%ld cases (%ld the reference dies on), %ld compared equal, %ld passed, %ld failed (%.1f s)\n",
           to - from, unusable, equal, to - from - unusable - failed, failed,
           (double)(time(NULL) - start));
    if (to - from - unusable == 0) {
        printf("no case ran\n");
        return 1;
    }
    rlt_lame_close(&a);
    rlt_lame_close(&b);
    return failed ? 1 : 0;
}
