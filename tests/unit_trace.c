/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the run's timeline (--trace, src/Tasks/trace.h).  Encodes a
 * short noise file on the ring with a trace and checks the JSON: well
 * formed (python3's json module, when there is a python3), one event per
 * stage for every frame, the events of one thread never overlapping, the
 * I/O thread's events on a thread of their own; and the MP3 bytes the same
 * without the trace and, when lame can run, as lame's.
 *
 * usage: unit_trace    env: LAME=path (default /usr/bin/lame) */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_encode.h"
#include "cli_args.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "ring.h"
#include "trace.h"

#define MAX_TIDS 64

static char g_dir[512];

/* A 16-bit stereo WAV of seeded noise with a slow tone (frames frames). */
static int write_wav(const char *path, long frames, unsigned seed)
{
    FILE *f = fopen(path, "wb");
    uint8_t h[44];
    uint32_t const data = (uint32_t) frames * 4;
    uint32_t x = seed * 2654435761u + 1;
    long i;

    if (!f)
        return -errno;
    memcpy(h, "RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x02\0\x44\xac\0\0\x10\xb1\x02\0\x04\0\x10\0data",
           40);
    h[4] = (uint8_t) (data + 36); h[5] = (uint8_t) ((data + 36) >> 8);
    h[6] = (uint8_t) ((data + 36) >> 16); h[7] = (uint8_t) ((data + 36) >> 24);
    h[40] = (uint8_t) data; h[41] = (uint8_t) (data >> 8);
    h[42] = (uint8_t) (data >> 16); h[43] = (uint8_t) (data >> 24);
    fwrite(h, 1, sizeof h, f);
    for (i = 0; i < frames * 2; i++) {
        int v;
        x = x * 1664525u + 1013904223u;
        v = (int) ((x >> 16) & 0x3fff) - 0x2000 + ((i / 200) % 2 ? 6000 : -6000);
        fputc(v & 0xff, f);
        fputc((v >> 8) & 0xff, f);
    }
    return fclose(f) == 0 ? 0 : -errno;
}

/* The ring on `threads` threads with I/O backend io. */
static int encode(const char *opts, const char *in_path, const char *out_path, int threads,
                  RlRingIo io, RlRingTrace *trace)
{
    RlRingParams p;
    memset(&p, 0, sizeof p);
    p.threads = threads;
    p.io_backend = io;
    p.trace = trace;
    if (trace)
        (void) rl_trace_name_thread(trace, "main");
    return rl_test_encode_file(opts, in_path, out_path, &p);
}

typedef struct Ev {
    char   name[32];
    int    tid;
    double ts, dur;
    long long frame;       /* -1: none */
} Ev;

static int ev_cmp(const void *pa, const void *pb)
{
    const Ev *a = pa, *b = pb;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* Checks the trace file of a run with RG (gain tasks) or not, forked
 * Encode (side events allowed) and I/O on a thread of its own (io_thread). */
static void check_trace(const char *path, const char *what, int rg, int io_thread)
{
    static const char *const stages[] = { "dispatch", "prepare", "resolve", "search", "encode" };
    FILE *f = fopen(path, "r");
    char line[1024], cmd[1200];
    Ev *ev = NULL;
    size_t n = 0, cap = 0, i;
    long long frames = 0, s;
    int *seen[5] = { 0 }, io_tid = -1, finish = 0, gain = 0, bad = 0, rc;
    char names[MAX_TIDS][32];

    memset(names, 0, sizeof names);
    CHECK(f != NULL, "%s: no trace file", what);
    if (!f)
        return;
    snprintf(cmd, sizeof cmd, "command -v python3 >/dev/null && "
             "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
             "assert isinstance(d[\"traceEvents\"], list)' '%s'", path);
    rc = rl_test_run("command -v python3 >/dev/null", NULL, NULL);
    if (rc == 0)
        CHECK_EQ(rl_test_run(cmd, NULL, NULL), 0, "%s: python3 json.load", what);
    else
        printf("note: no python3: the JSON is checked line by line only\n");

    while (fgets(line, sizeof line, f)) {
        char name[32], tname[32];
        int tid;
        double ts, dur;
        const char *fr;

        if (sscanf(line, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                   "\"args\":{\"name\":\"%31[^\"]\"}}", &tid, tname) == 2) {
            if (tid >= 0 && tid < MAX_TIDS)
                snprintf(names[tid], sizeof names[tid], "%s", tname);
            continue;
        }
        if (sscanf(line, "{\"name\":\"%31[^\"]\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                   "\"ts\":%lf,\"dur\":%lf,", name, &tid, &ts, &dur) != 4)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            ev = realloc(ev, cap * sizeof *ev);
            if (!ev)
                rl_test_fatal("out of memory");
        }
        snprintf(ev[n].name, sizeof ev[n].name, "%s", name);
        ev[n].tid = tid;
        ev[n].ts = ts;
        ev[n].dur = dur;
        fr = strstr(line, "\"frame\":");
        ev[n].frame = fr ? strtoll(fr + 8, NULL, 10) : -1;
        if (strcmp(name, "encode") == 0)
            frames++;
        n++;
    }
    fclose(f);
    CHECK(frames > 10, "%s: %lld encode events", what, frames);
    for (s = 0; s < 5; s++)
        seen[s] = calloc((size_t) frames + 1, sizeof(int));
    for (i = 0; i < n; i++) {
        int k;
        for (k = 0; k < 5; k++) {
            if (strcmp(ev[i].name, stages[k]) == 0 && ev[i].frame >= 0) {
                if (ev[i].frame >= frames)
                    bad++;
                else
                    seen[k][ev[i].frame]++;
            }
        }
        if (strcmp(ev[i].name, "encode-side") == 0 && (ev[i].frame < 0 || ev[i].frame >= frames))
            bad++;
        if (strcmp(ev[i].name, "finish") == 0)
            finish++;
        if (strncmp(ev[i].name, "gain", 4) == 0)
            gain++;
        if (strcmp(ev[i].name, "read") == 0 || strcmp(ev[i].name, "write") == 0
            || strcmp(ev[i].name, "decode") == 0) {
            if (io_tid < 0)
                io_tid = ev[i].tid;
            if (ev[i].tid != io_tid)
                bad++;
        }
        else if (ev[i].tid == io_tid) {
            bad++;
        }
    }
    CHECK_EQ(bad, 0, "%s: events with a frame out of range or I/O on a ring thread", what);
    for (s = 0; s < 5; s++) {
        long long fr, wrong = 0;
        for (fr = 0; fr < frames; fr++)
            wrong += seen[s][fr] != 1;
        CHECK_EQ(wrong, 0, "%s: frames without exactly one %s event", what, stages[s]);
        free(seen[s]);
    }
    CHECK_EQ(finish, 1, "%s: finish events", what);
    CHECK(rg ? gain > 0 : gain == 0, "%s: %d gain events (ReplayGain %s)", what, gain,
          rg ? "on" : "off");
    if (io_thread) {
        CHECK(io_tid >= 0, "%s: no I/O events", what);
        if (io_tid >= 0 && io_tid < MAX_TIDS)
            CHECK(strcmp(names[io_tid], "io") == 0, "%s: the I/O thread is named '%s'", what,
                  names[io_tid]);
    }
    CHECK(names[1][0] != '\0', "%s: thread 1 has no name", what);
    /* one thread runs one task at a time: its events follow each other */
    qsort(ev, n, sizeof *ev, ev_cmp);
    bad = 0;
    for (i = 1; i < n; i++)
        if (ev[i].tid == ev[i - 1].tid && ev[i].ts + 0.0005 < ev[i - 1].ts + ev[i - 1].dur)
            bad++;
    CHECK_EQ(bad, 0, "%s: overlapping events on one thread", what);
    free(ev);
}

int main(void)
{
    static const struct {
        const char *opts;
        int threads;
        RlRingIo io;
        int rg, io_thread;
    } cases[] = {
        { "-V 2", 2, RL_RING_IO_THREAD, 1, 1 },                  /* RG, forked Encode, the thread backend */
        { "-V 4 --noreplaygain", 1, RL_RING_IO_AUTO, 0, 0 },   /* no pool workers */
        { "-b 128", 3, RL_RING_IO_AUTO, 1, 0 },
    };
    const char *lame = rl_test_lame();
    char wav[600], a_mp3[600], b_mp3[600], l_mp3[600], json[600], cmd[2000];
    size_t k;

    if (rl_test_tmpdir(g_dir, sizeof g_dir, "trace") < 0)
        rl_test_fatal("no temporary folder");
    snprintf(wav, sizeof wav, "%s/in.wav", g_dir);
    CHECK_EQ(write_wav(wav, 44100 * 3 / 2, 7), 0, "write the input");

    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        RlRingTrace *t = NULL;
        char what[128];
        int rc;

        snprintf(what, sizeof what, "%s, %d threads", cases[k].opts, cases[k].threads);
        snprintf(a_mp3, sizeof a_mp3, "%s/a%zu.mp3", g_dir, k);
        snprintf(b_mp3, sizeof b_mp3, "%s/b%zu.mp3", g_dir, k);
        snprintf(l_mp3, sizeof l_mp3, "%s/l%zu.mp3", g_dir, k);
        snprintf(json, sizeof json, "%s/t%zu.json", g_dir, k);
        CHECK_EQ(rl_trace_create(&t), 0, "%s: create", what);
        rc = encode(cases[k].opts, wav, a_mp3, cases[k].threads, cases[k].io, t);
        CHECK_EQ(rc, 0, "%s: traced encode", what);
        CHECK_EQ(rl_trace_write(t, json), 0, "%s: write the trace", what);
        rl_trace_free(t);
        check_trace(json, what, cases[k].rg, cases[k].io_thread);
        CHECK_EQ(encode(cases[k].opts, wav, b_mp3, cases[k].threads, cases[k].io, NULL), 0,
                 "%s: encode", what);
        CHECK_EQ(rl_test_files_equal(a_mp3, b_mp3), 1, "%s: the trace changed the bytes", what);
        if (lame) {
            snprintf(cmd, sizeof cmd, "'%s' --quiet %s '%s' '%s' </dev/null", lame,
                     cases[k].opts, wav, l_mp3);
            CHECK_EQ(rl_test_run(cmd, NULL, NULL), 0, "%s: lame", what);
            CHECK_EQ(rl_test_files_equal(a_mp3, l_mp3), 1, "%s: differs from lame", what);
        }
    }
    if (!lame)
        printf("note: no lame ($LAME, else /usr/bin/lame): lame's comparison SKIPPED\n");

    /* a trace that cannot be written: an error, nothing else */
    {
        RlRingTrace *t = NULL;
        snprintf(json, sizeof json, "%s/no/such/dir/t.json", g_dir);
        CHECK_EQ(rl_trace_create(&t), 0, "create");
        CHECK_EQ(rl_trace_write(t, json), -ENOENT, "write into a missing folder");
        rl_trace_free(t);
    }
    /* the option */
    {
        RlArgs *a = malloc(sizeof *a);
        FILE *devnull = fopen("/dev/null", "w");
        char *argv1[] = { "ringlame", "--trace", "x.json", "in.wav", "out.mp3", NULL };
        char *argv2[] = { "ringlame", "in.wav", "out.mp3", "--trace", NULL };
        if (!a || !devnull)
            rl_test_fatal("out of memory");
        CHECK_EQ(rl_args_parse(a, 5, argv1, NULL, getenv("RINGLAME_SIMD"), devnull, devnull), RL_ARGS_OK, "--trace x.json");
        CHECK(strcmp(a->trace_path, "x.json") == 0 && strcmp(a->in_path, "in.wav") == 0,
              "--trace x.json: '%s' '%s'", a->trace_path, a->in_path);
        CHECK_EQ(rl_args_parse(a, 4, argv2, NULL, getenv("RINGLAME_SIMD"), devnull, devnull), RL_ARGS_ERROR,
                 "--trace without a name");
        fclose(devnull);
        free(a);
    }
    if (rl_test_failures() == 0)
        rl_test_rmtree(g_dir);
    return rl_test_done();
}
