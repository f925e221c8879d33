/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* --batch's pure parts (src/Cli/batch_walk.c and batch_manifest.c compiled
 * in): the --shard plan (the same plan whatever the inputs' order, each
 * file in exactly one share, no share above the average by more than the
 * largest file, more shares than files, one share) and the manifest's
 * lines (written and read back with awkward paths, escaped strings,
 * fields in any order, unknown fields, every truncation of a line, garbage
 * lines, an unfinished last line, the last line of an input winning), and
 * the walk's MPEG inputs with an earlier run's outputs beside them; the
 * manifest as a log: non-UTF-8 names escaped and read back, a torn tail
 * set aside, the lock, a FIFO in its place; the stored shard plan. */
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "batch_manifest.h"
#include "batch_plan.h"
#include "batch_walk.h"
#include "harness.h"

/* ---- the shard plan ---- */

static uint64_t rng;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A list of n items named f000.wav... with the given sizes. */
static void make_list(RlBatchList *l, size_t n, const int64_t *size)
{
    memset(l, 0, sizeof *l);
    l->v = calloc(n + 1, sizeof *l->v);
    if (!l->v)
        rl_test_fatal("out of memory");
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "in/f%03zu.wav", i);
        l->v[i].in = strdup(name);
        snprintf(name, sizeof name, "out/f%03zu.mp3", i);
        l->v[i].out = strdup(name);
        if (!l->v[i].in || !l->v[i].out)
            rl_test_fatal("out of memory");
        l->v[i].size = size[i];
    }
    l->n = l->cap = n;
}

/* share[i]: the one share that holds item i (-1 none, -2 several). */
static void plan(const RlBatchList *l, int n, int *share)
{
    unsigned char *mine = calloc(l->n + 1, 1);
    if (!mine)
        rl_test_fatal("out of memory");
    for (size_t i = 0; i < l->n; i++)
        share[i] = -1;
    for (int k = 0; k < n; k++) {
        CHECK_EQ(rl_batch_shard(l, k, n, mine), 0, "rl_batch_shard %d/%d", k, n);
        for (size_t i = 0; i < l->n; i++)
            if (mine[i])
                share[i] = share[i] == -1 ? k : -2;
    }
    free(mine);
}

static void check_plan(size_t nfiles, const int64_t *size, int n, const char *what)
{
    RlBatchList l, shuffled;
    int *share = calloc(nfiles + 1, sizeof *share), *again = calloc(nfiles + 1, sizeof *again);
    int64_t *total = calloc((size_t) n, sizeof *total), sum = 0, largest = 0;
    size_t *perm = calloc(nfiles + 1, sizeof *perm);
    int64_t *psize = calloc(nfiles + 1, sizeof *psize);
    int once = 1, same = 1, balanced = 1;

    if (!share || !again || !total || !perm || !psize)
        rl_test_fatal("out of memory");
    make_list(&l, nfiles, size);
    plan(&l, n, share);
    for (size_t i = 0; i < nfiles; i++) {
        if (share[i] < 0) {
            once = 0;
            continue;
        }
        total[share[i]] += size[i];
        sum += size[i];
        if (size[i] > largest)
            largest = size[i];
    }
    CHECK(once, "%s: %zu files, %d shares: a file in no share or in several", what, nfiles, n);
    /* no share more than the largest file above the average */
    for (int k = 0; k < n; k++)
        if ((double) total[k] > (double) sum / n + (double) largest)
            balanced = 0;
    CHECK(balanced, "%s: %zu files, %d shares: a share above the average + the largest file",
          what, nfiles, n);

    /* deterministic: again, and with the inputs listed in another order */
    plan(&l, n, again);
    for (size_t i = 0; i < nfiles; i++)
        same &= again[i] == share[i];
    CHECK(same, "%s: two plans of the same list differ", what);
    for (size_t i = 0; i < nfiles; i++)
        perm[i] = i;
    for (size_t i = nfiles; i > 1; i--) {
        size_t const j = (size_t) (next_rand() % i), t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < nfiles; i++)
        psize[i] = size[perm[i]];
    make_list(&shuffled, nfiles, psize);
    for (size_t i = 0; i < nfiles; i++) {     /* item i is the original's perm[i] */
        free(shuffled.v[i].in);
        shuffled.v[i].in = strdup(l.v[perm[i]].in);
        if (!shuffled.v[i].in)
            rl_test_fatal("out of memory");
    }
    plan(&shuffled, n, again);
    same = 1;
    for (size_t i = 0; i < nfiles; i++)
        same &= again[i] == share[perm[i]];
    CHECK(same, "%s: %zu files, %d shares: the plan depends on the inputs' order", what, nfiles, n);

    rl_batch_list_free(&l);
    rl_batch_list_free(&shuffled);
    free(share);
    free(again);
    free(total);
    free(perm);
    free(psize);
}

static void test_shard_plan(void)
{
    int64_t size[64];
    int counts[8];
    RlBatchList l;
    int share[64];

    /* random corpora: sizes with ties and empty files */
    for (int round = 0; round < 200; round++) {
        size_t const nfiles = (size_t) (next_rand() % 41);
        int const n = 1 + (int) (next_rand() % 9);
        for (size_t i = 0; i < nfiles; i++) {
            uint64_t const r = next_rand();
            size[i] = r % 5 == 0 ? 0 : r % 5 == 1 ? 1000 : (int64_t) (r % 10000000);
        }
        check_plan(nfiles, size, n, "random");
    }
    /* one huge file: still within the bound */
    for (int i = 0; i < 10; i++)
        size[i] = i == 3 ? 1000000 : 10;
    check_plan(10, size, 3, "one huge file");

    /* N = 1: every file */
    for (int i = 0; i < 7; i++)
        size[i] = 100 + i;
    make_list(&l, 7, size);
    plan(&l, 1, share);
    for (int i = 0; i < 7; i++)
        CHECK_EQ(share[i], 0, "N = 1: file %d", i);
    /* N > files: one file per share, the largest in share 0 */
    plan(&l, 10, share);
    memset(counts, 0, sizeof counts);
    for (int i = 0; i < 7; i++) {
        CHECK(share[i] >= 0 && share[i] < 7, "N > files: file %d in share %d", i, share[i]);
        if (share[i] >= 0 && share[i] < 8)
            counts[share[i]]++;
    }
    for (int k = 0; k < 7; k++)
        CHECK_EQ(counts[k], 1, "N > files: files in share %d", k);
    CHECK_EQ(share[6], 0, "N > files: the largest file's share");
    rl_batch_list_free(&l);
    /* equal sizes: the counts differ by one at most, names break the ties */
    for (int i = 0; i < 10; i++)
        size[i] = 4096;
    make_list(&l, 10, size);
    plan(&l, 3, share);
    memset(counts, 0, sizeof counts);
    for (int i = 0; i < 10; i++)
        if (share[i] >= 0)
            counts[share[i]]++;
    CHECK(counts[0] == 4 && counts[1] == 3 && counts[2] == 3, "equal sizes: %d %d %d files",
          counts[0], counts[1], counts[2]);
    CHECK(share[0] == 0 && share[1] == 1 && share[2] == 2 && share[3] == 0,
          "equal sizes: not dealt in name order (%d %d %d %d)", share[0], share[1], share[2],
          share[3]);
    rl_batch_list_free(&l);
    /* no files */
    make_list(&l, 0, size);
    plan(&l, 4, share);
    rl_batch_list_free(&l);
}

/* ---- the manifest ---- */

static RlManifestRec sample(const char *input, const char *options, const char *compare)
{
    RlManifestRec r;
    memset(&r, 0, sizeof r);
    r.input = input;
    r.size = 352844;
    r.mtime_ns = 1796051869417144171LL;    /* above 2^53: must not go through a double */
    r.options = options;
    r.output = "out/x.mp3";
    r.output_size = 48224;
    r.sha256 = "04787d85894ab25fa4921f05bdb611a53c952408793581fa4d2995bda90f3586";
    r.encoded = 1;
    r.reason = "";
    r.seconds = 0.058;
    r.audio_seconds = 2.0;
    r.compare = compare;
    return r;
}

/* Writes r with rl_manifest_append into path (truncated first), reads the
 * line back into buf. */
static int write_line(const char *path, const RlManifestRec *r, char *buf, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    FILE *f;
    if (fd < 0)
        return -errno;
    close(fd);
    fd = rl_manifest_open(path);
    if (fd < 0)
        return fd;
    CHECK_EQ(rl_manifest_append(fd, r), 0, "rl_manifest_append");
    close(fd);
    f = fopen(path, "r");
    if (!f || !fgets(buf, (int) len, f)) {
        if (f)
            fclose(f);
        return -EIO;
    }
    fclose(f);
    return 0;
}

static void test_round_trip(const char *dir)
{
    static const char *const tok[] = { "-V", "2", "--tt", "a \"quoted\" \\ title\t\x01" };
    static const char *const inputs[] = {
        "in/plain.wav", "in/with \"quotes\".wav", "in/back\\slash.wav", "in/new\nline.wav",
        "in/ctrl\x01\x1f.wav", "in/caf\xc3\xa9 \xe2\x99\xab.flac", "",
    };
    char path[600], line[4096];
    char *opts = rl_manifest_options_json(tok, 4);

    if (!opts)
        rl_test_fatal("out of memory");
    CHECK(strcmp(opts, "[\"-V\",\"2\",\"--tt\",\"a \\\"quoted\\\" \\\\ title\\u0009\\u0001\"]") == 0,
          "options JSON: %s", opts);
    snprintf(path, sizeof path, "%s/one.jsonl", dir);
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        for (int c = 0; c < 3; c++) {
            const char *cmp = c == 0 ? NULL : c == 1 ? "identical"
                              : "differs: byte 5000, \"frame\" 8\\main data";
            RlManifestRec w = sample(inputs[i], opts, cmp), r;
            char *store = NULL;
            if (write_line(path, &w, line, sizeof line) < 0)
                rl_test_fatal("%s: cannot write or read back", path);
            CHECK(strchr(line, '\n') == line + strlen(line) - 1, "line %zu: one line", i);
            CHECK(c != 0 || !strstr(line, "\"compare\""), "no compare field without a verdict");
            if (!CHECK_EQ(rl_manifest_parse_line(line, &r, &store), 0, "parse %s", line))
                continue;
            CHECK(strcmp(r.input, inputs[i]) == 0, "input %zu read back as '%s'", i, r.input);
            CHECK(r.input == store, "the input's field heads the store");
            CHECK(strcmp(r.options, opts) == 0, "options read back as %s", r.options);
            CHECK(strcmp(r.output, w.output) == 0 && strcmp(r.sha256, w.sha256) == 0
                  && strcmp(r.reason, "") == 0, "output, sha256, reason read back");
            CHECK_EQ(r.size, w.size, "size");
            CHECK_EQ(r.mtime_ns, w.mtime_ns, "mtime_ns");
            CHECK_EQ(r.output_size, w.output_size, "output_size");
            CHECK_EQ(r.encoded, 1, "status");
            CHECK(r.seconds > 0.0575 && r.seconds < 0.0585 && r.audio_seconds == 2.0,
                  "seconds %g, audio_seconds %g", r.seconds, r.audio_seconds);
            CHECK(strcmp(r.compare, cmp ? cmp : "") == 0, "compare read back as '%s'", r.compare);
            free(store);
        }
    }
    /* a failed file */
    {
        RlManifestRec w = sample("in/bad.wav", opts, NULL), r;
        char *store = NULL;
        w.encoded = 0;
        w.reason = "not a sound file: \"bad\"";
        w.sha256 = "";
        if (write_line(path, &w, line, sizeof line) < 0)
            rl_test_fatal("%s: cannot write or read back", path);
        if (CHECK_EQ(rl_manifest_parse_line(line, &r, &store), 0, "parse %s", line)) {
            CHECK(r.encoded == 0 && strcmp(r.reason, w.reason) == 0 && r.sha256[0] == '\0',
                  "a failed file read back: %d '%s'", r.encoded, r.reason);
            free(store);
        }
    }
    free(opts);
}

static const char good[] =
    "{\"input\":\"in/a.wav\",\"size\":10,\"mtime_ns\":20,\"options\":[\"-V\",\"2\"],"
    "\"output\":\"out/a.mp3\",\"output_size\":30,\"sha256\":\"ab\",\"status\":\"encoded\","
    "\"reason\":\"\",\"seconds\":0.5,\"audio_seconds\":1.5}";

static void test_parse(void)
{
    RlManifestRec r;
    char *store;
    char buf[1024];
    static const char *const garbage[] = {
        "", "\n", "not json", "{", "}", "[]", "{}", "null", "{\"input\":}",
        "{\"input\":\"x\"}",
        /* a required field missing (status) */
        "{\"input\":\"in/a.wav\",\"size\":10,\"mtime_ns\":20,\"options\":[],\"output\":\"o\","
        "\"output_size\":30,\"sha256\":\"ab\",\"reason\":\"\",\"seconds\":0,\"audio_seconds\":0}",
        /* a number missing (size) */
        "{\"input\":\"in/a.wav\",\"mtime_ns\":20,\"options\":[],\"output\":\"o\","
        "\"output_size\":30,\"sha256\":\"ab\",\"status\":\"encoded\",\"reason\":\"\"}",
        /* a bad escape, a lone surrogate that is no escaped byte, \\u0000, an
         * unterminated string, a bare word */
        "{\"input\":\"in/\\x.wav\",\"size\":10,\"mtime_ns\":20,\"options\":[],\"output\":\"o\","
        "\"output_size\":30,\"sha256\":\"ab\",\"status\":\"encoded\",\"reason\":\"\"}",
        "{\"input\":\"in/\\udc41.wav\",\"size\":10,\"mtime_ns\":20,\"options\":[],\"output\":\"o\","
        "\"output_size\":30,\"sha256\":\"ab\",\"status\":\"encoded\",\"reason\":\"\"}",
        "{\"input\":\"in/\\u0000.wav\",\"size\":10,\"mtime_ns\":20,\"options\":[],\"output\":\"o\","
        "\"output_size\":30,\"sha256\":\"ab\",\"status\":\"encoded\",\"reason\":\"\"}",
        "{\"input\":\"in/a.wav,\"size\":10}",
        "{\"input\":\"in/a.wav\",\"size\":10,\"mtime_ns\":20,\"options\":[],\"output\":\"o\","
        "\"output_size\":30,\"sha256\":\"ab\",\"status\":\"encoded\",\"reason\":\"\",\"x\":true}",
        "\x01\x02\xff{}",
    };

    CHECK_EQ(rl_manifest_parse_line(good, &r, &store), 0, "a valid line");
    if (store) {
        CHECK(strcmp(r.input, "in/a.wav") == 0 && r.size == 10 && r.mtime_ns == 20
              && r.output_size == 30 && r.encoded == 1 && strcmp(r.compare, "") == 0
              && strcmp(r.options, "[\"-V\",\"2\"]") == 0, "the valid line's fields");
        free(store);
    }
    /* every truncation of it fails; none crashes */
    for (size_t n = 0; n < sizeof good - 1; n++) {
        memcpy(buf, good, n);
        buf[n] = '\0';
        store = NULL;
        if (!CHECK(rl_manifest_parse_line(buf, &r, &store) == -EINVAL,
                   "the line cut at %zu parsed", n))
            free(store);
    }
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
        store = NULL;
        if (!CHECK(rl_manifest_parse_line(garbage[i], &r, &store) == -EINVAL,
                   "garbage %zu parsed: %s", i, garbage[i]))
            free(store);
    }
    /* escapes, white space, fields in another order, unknown fields kept out */
    {
        static const char line[] =
            "  { \"seconds\" : 1 , \"future\" : [\"a\", [\"b\"], 3], \"status\":\"encoded\","
            "\"unknown_number\": -1.5e3, \"reason\":\"r\\\"\\\\\\/\\n\\t\\u0041\","
            "\"output\":\"o\",\"sha256\":\"s\",\"options\":[ ],\"input\":\"i\\u002fj\","
            "\"size\":1,\"mtime_ns\":9007199254740993,\"output_size\":2,"
            "\"audio_seconds\":3,\"compare\":\"identical\",\"extra\":\"x\"}\n";
        store = NULL;
        if (CHECK_EQ(rl_manifest_parse_line(line, &r, &store), 0, "fields in another order")) {
            CHECK(strcmp(r.input, "i/j") == 0, "input '%s'", r.input);
            CHECK(r.input == store, "the input's field heads the store");
            CHECK(strcmp(r.reason, "r\"\\/\n\tA") == 0, "escapes decoded: '%s'", r.reason);
            CHECK(strcmp(r.options, "[ ]") == 0, "options '%s'", r.options);
            CHECK_EQ(r.mtime_ns, 9007199254740993LL, "mtime_ns beyond a double's precision");
            CHECK(strcmp(r.compare, "identical") == 0 && strcmp(r.output, "o") == 0
                  && strcmp(r.sha256, "s") == 0, "the other strings");
            free(store);
        }
    }
}

static void test_load(const char *dir)
{
    char path[600];
    RlManifest m;
    FILE *f;
    const RlManifestRec *r;

    snprintf(path, sizeof path, "%s/missing.jsonl", dir);
    CHECK_EQ(rl_manifest_load(&m, path), 0, "a missing manifest");
    CHECK_EQ((long long) m.n, 0, "a missing manifest: records");
    rl_manifest_free(&m);

    snprintf(path, sizeof path, "%s/m.jsonl", dir);
    f = fopen(path, "w");
    if (!f)
        rl_test_fatal("%s: %s", path, strerror(errno));
    fprintf(f, "%s\n", good);
    fprintf(f, "garbage line\n\n{\"input\":\"in/a.wav\"}\n");
    fprintf(f, "{\"input\":\"in/b.wav\",\"size\":1,\"mtime_ns\":2,\"options\":[],\"output\":\"o\","
               "\"output_size\":3,\"sha256\":\"\",\"status\":\"failed\",\"reason\":\"bad\","
               "\"seconds\":0,\"audio_seconds\":0}\n");
    /* a later line for in/a.wav wins */
    fprintf(f, "{\"input\":\"in/a.wav\",\"size\":11,\"mtime_ns\":20,\"options\":[],\"output\":\"o\","
               "\"output_size\":31,\"sha256\":\"cd\",\"status\":\"encoded\",\"reason\":\"\","
               "\"seconds\":0,\"audio_seconds\":0,\"compare\":\"differs: byte 1\"}\n");
    /* an unfinished last line (a crash in the middle of a write), even a
     * complete object without its newline */
    fprintf(f, "{\"input\":\"in/c.wav\",\"size\":1,\"mtime_ns\":2,\"options\":[],\"output\":\"o\","
               "\"output_size\":3,\"sha256\":\"\",\"status\":\"encoded\",\"reason\":\"\","
               "\"seconds\":0,\"audio_seconds\":0}");
    fclose(f);
    CHECK_EQ(rl_manifest_load(&m, path), 0, "load");
    CHECK_EQ((long long) m.n, 3, "records read (valid, complete lines)");
    r = rl_manifest_find(&m, "in/a.wav");
    CHECK(r && r->size == 11 && strcmp(r->compare, "differs: byte 1") == 0,
          "the last line for an input wins");
    r = rl_manifest_find(&m, "in/b.wav");
    CHECK(r && !r->encoded && strcmp(r->reason, "bad") == 0, "a failed record");
    CHECK(rl_manifest_find(&m, "in/c.wav") == NULL, "the unfinished last line is ignored");
    CHECK(rl_manifest_find(&m, "in/none.wav") == NULL, "an input not in the manifest");
    rl_manifest_free(&m);
}

/* ---- MPEG inputs walked, an earlier run's outputs dropped ---- */

static void touch_file(const char *dir, const char *name)
{
    char path[700];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f)
        rl_test_fatal("cannot create a file");
    fputs("x", f);
    fclose(f);
}

static void test_walk_outputs(const char *dir)
{
    /* a.wav's output is a.mp3, b.mp3's b.mp3.mp3 (lame keeps the suffix
     * beside an input of the output's suffix), c.MPG's c.mp3; with -r
     * no MPEG suffix is walked; into its own folder b.mp3 is its own
     * output: kept, and refused as such */
    static const char *const files[] = { "a.wav", "a.mp3", "b.mp3", "b.mp3.mp3", "c.MPG",
                                         "d.mp2", "notes.txt", "e.raw" };
    static const char *const want[][2] = { { "a.wav", "a.mp3" }, { "b.mp3", "b.mp3.mp3" },
                                           { "c.MPG", "c.mp3" }, { "d.mp2", "d.mp3" } };
    char sub[600], err[256], in[700], out[700];
    RlBatchList l;

    snprintf(sub, sizeof sub, "%s/walk", dir);
    if (mkdir(sub, 0777) != 0)
        rl_test_fatal("cannot make a folder");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        touch_file(sub, files[i]);
    memset(&l, 0, sizeof l);
    CHECK_EQ(rl_batch_walk(&l, sub, NULL, 0, err, sizeof err), 0, "walk");
    CHECK_EQ((long long) l.n, 6, "walked: the audio and MPEG suffixes");
    CHECK_EQ(rl_batch_drop_outputs(&l), 0, "drop");
    CHECK_EQ((long long) l.n, 4, "the earlier outputs a.mp3 and b.mp3.mp3 dropped");
    for (size_t i = 0; i < l.n && i < 4; i++) {
        snprintf(in, sizeof in, "%s/%s", sub, want[i][0]);
        snprintf(out, sizeof out, "%s/%s", sub, want[i][1]);
        CHECK(strcmp(l.v[i].in, in) == 0 && strcmp(l.v[i].out, out) == 0, "input %s -> %s",
              want[i][0], want[i][1]);
    }
    CHECK_EQ(rl_batch_check_collisions(&l, err, sizeof err), 0, "no collision left");
    rl_batch_list_free(&l);

    CHECK_EQ(rl_batch_walk(&l, sub, NULL, 1, err, sizeof err), 0, "walk with -r");
    CHECK_EQ((long long) l.n, 2, "with -r: a.wav and e.raw, no MPEG suffix");
    rl_batch_list_free(&l);

    touch_file(sub, "e.mp3");
    CHECK_EQ(rl_batch_walk(&l, sub, sub, 0, err, sizeof err), 0, "walk into its own folder");
    CHECK_EQ(rl_batch_drop_outputs(&l), 0, "drop");
    CHECK_EQ(rl_batch_check_collisions(&l, err, sizeof err), -EEXIST,
             "b.mp3, its own output under --out-dir: refused");
    rl_batch_list_free(&l);
    memset(&l, 0, sizeof l);
    snprintf(in, sizeof in, "%s/e.mp3", sub);
    CHECK_EQ(rl_batch_walk(&l, in, sub, 0, err, sizeof err), 0, "named");
    CHECK_EQ(rl_batch_drop_outputs(&l), 0, "drop");
    CHECK_EQ((long long) l.n, 1, "a named input is never dropped");
    CHECK_EQ(rl_batch_check_collisions(&l, err, sizeof err), -EEXIST, "its own output: refused");
    rl_batch_list_free(&l);
}

static char *slurp(const char *path)
{
    static char buf[8192];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

static int keep_input(void *arg, const char *line, size_t len, RlManifestRec *r)
{
    char *out = arg;
    (void) line;
    (void) len;
    snprintf(out, 256, "%s", r->input);
    free((void *) r->input);
    return 0;
}

/* Names of any bytes: valid JSON (UTF-8, escapes), read back to the bytes. */
static void test_escape(const char *dir)
{
    static const char *const names[] = {
        "plain.wav", "caf\xc3\xa9.wav", "latin1-\xe9t\xe9.wav", "\xff\xfe\x80.wav",
        "overlong-\xc0\xaf.wav", "surrogate-\xed\xa0\x80.wav", "cut-\xe2\x82.wav",
        "emoji-\xf0\x9f\x8e\xb5.wav", "ctl-\x01\x1f\t\n.wav", "quote\"back\\slash.wav",
        "lit-\\udcff.wav",
    };
    char path[600], back[256];
    snprintf(path, sizeof path, "%s/esc.jsonl", dir);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        RlManifestRec r = sample(names[i], "[]", NULL);
        int fd;
        const unsigned char *t;
        unlink(path);
        fd = rl_manifest_open(path);
        if (!CHECK(fd >= 0, "open %s", path))
            return;
        CHECK_EQ(rl_manifest_append(fd, &r), 0, "append %zu", i);
        close(fd);
        /* the line is ASCII but for valid UTF-8 the name held */
        t = (const unsigned char *) slurp(path);
        for (; *t; t++)
            if (*t >= 0x80 && !strchr(names[i], (char) *t)) {
                CHECK(0, "name %zu: byte %02x written raw", i, *t);
                break;
            }
        back[0] = '\0';
        CHECK_EQ(rl_manifest_read(path, -1, keep_input, back), 0, "read %zu", i);
        CHECK(strcmp(back, names[i]) == 0, "name %zu read back as '%s'", i, back);
    }
    CHECK(strstr(slurp(path), "lit-\\\\udcff") != NULL, "a literal backslash-u stays text");
}

/* A torn last line is set aside, the next record starts a line of its own. */
static void test_torn(const char *dir)
{
    char path[600], side[640], msg[2000];
    RlManifestRec r = sample("in/a.wav", "[]", NULL), r2 = sample("in/b.wav", "[]", NULL);
    RlManifest m;
    FILE *f;
    int fd;
    snprintf(path, sizeof path, "%s/torn.jsonl", dir);
    snprintf(side, sizeof side, "%s.torn", path);
    unlink(path);
    unlink(side);
    fd = rl_manifest_open(path);
    CHECK_EQ(rl_manifest_append(fd, &r), 0, "append");
    close(fd);
    f = fopen(path, "a");
    fputs("{\"input\":\"in/c.wav\",\"size\":1", f);
    fclose(f);
    fd = rl_manifest_open(path);
    CHECK_EQ(rl_manifest_set_aside_tail(fd, path, msg, sizeof msg), 0, "set aside");
    CHECK(strstr(msg, "incomplete") && strstr(msg, side), "the message: %s", msg);
    CHECK(strcmp(slurp(side), "{\"input\":\"in/c.wav\",\"size\":1\n") == 0, "the fragment kept");
    CHECK_EQ(rl_manifest_set_aside_tail(fd, path, msg, sizeof msg), 0, "nothing to set aside");
    CHECK(msg[0] == '\0', "no message for a whole file");
    CHECK_EQ(rl_manifest_append(fd, &r2), 0, "append after");
    CHECK_EQ(rl_manifest_load_fd(&m, path, fd), 0, "load");
    CHECK_EQ((long long) m.n, 2, "both records");
    rl_manifest_free(&m);
    close(fd);
}

/* The lock, and files that are not regular in the manifest's place. */
static void test_lock_and_fifo(const char *dir)
{
    char path[600];
    RlManifest m;
    struct sockaddr_un sa;
    int fd, fd2, sock;
    snprintf(path, sizeof path, "%s/lock.jsonl", dir);
    fd = rl_manifest_open(path);
    CHECK(fd >= 0, "open");
    fd2 = rl_manifest_open(path);
    CHECK_EQ(fd2, RL_MANIFEST_LOCKED, "a second open is refused while locked");
    CHECK(rl_manifest_in_use(path) == 1, "in use");
    close(fd);
    fd2 = rl_manifest_open(path);
    CHECK(fd2 >= 0, "open after the first closed");
    close(fd2);
    CHECK(rl_manifest_in_use(path) == 0, "not in use");
    snprintf(path, sizeof path, "%s/fifo.jsonl", dir);
    if (mkfifo(path, 0600) == 0) {
        CHECK_EQ(rl_manifest_open(path), RL_MANIFEST_NOT_REGULAR, "a FIFO: refused, not waited on");
        CHECK_EQ(rl_manifest_load(&m, path), RL_MANIFEST_NOT_REGULAR, "a FIFO: not read");
    }
    snprintf(path, sizeof path, "%s/sock.jsonl", dir);
    sock = socket(AF_UNIX, SOCK_STREAM, 0);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    if (sock >= 0 && strlen(path) < sizeof sa.sun_path) {
        strcpy(sa.sun_path, path);
        if (bind(sock, (struct sockaddr *) &sa, sizeof sa) == 0)
            CHECK_EQ(rl_manifest_open(path), RL_MANIFEST_NOT_REGULAR, "a socket: refused");
    }
    if (sock >= 0)
        close(sock);
}

/* The stored plan: made once, read back the same, not replaced. */
static void test_stored_plan(const char *dir)
{
    int64_t size[12];
    RlBatchList l;
    RlPlan p, q, other;
    char path[600];
    for (int i = 0; i < 12; i++)
        size[i] = 1000 * (i % 5) + i;
    make_list(&l, 12, size);
    snprintf(path, sizeof path, "%s/.ringlame-plan.3.jsonl", dir);
    CHECK(rl_plan_is_name(".ringlame-plan.3.jsonl") && !rl_plan_is_name(".ringlame-plan.x.jsonl"),
          "plan names");
    CHECK_EQ(rl_plan_make(&p, &l, 3), 0, "make");
    CHECK_EQ(rl_plan_store(&p, path), 1, "stored");
    l.v[0].size = 999999;       /* the tree changed: a new plan would differ */
    CHECK_EQ(rl_plan_make(&other, &l, 3), 0, "make another");
    CHECK_EQ(rl_plan_store(&other, path), 0, "a plan there already stays");
    CHECK_EQ(rl_plan_load(&q, path), 0, "load");
    CHECK(q.n == p.n && q.shards == 3, "the plan read back");
    for (size_t i = 0; i < p.n && i < q.n; i++)
        CHECK(strcmp(p.v[i].input, q.v[i].input) == 0 && p.v[i].shard == q.v[i].shard
              && p.v[i].size == q.v[i].size, "entry %zu", i);
    CHECK(rl_plan_find(&q, "in/f003.wav") != NULL && rl_plan_find(&q, "none.wav") == NULL, "find");
    rl_plan_free(&p);
    rl_plan_free(&q);
    rl_plan_free(&other);
    rl_batch_list_free(&l);
}

int main(void)
{
    char dir[512];
    rng = rl_test_seed(0x9e3779b97f4a7c15ULL) | 1;
    test_shard_plan();
    if (rl_test_tmpdir(dir, sizeof dir, "unit_batch") < 0)
        rl_test_fatal("cannot make a temporary folder");
    test_round_trip(dir);
    test_parse();
    test_load(dir);
    test_walk_outputs(dir);
    test_escape(dir);
    test_torn(dir);
    test_lock_and_fifo(dir);
    test_stored_plan(dir);
    rl_test_rmtree(dir);
    return rl_test_done();
}
