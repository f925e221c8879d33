/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz target "manifest": --batch's manifest as a log (its
 * reader, its torn-tail recovery, its writer) and the stored shard plan
 * (src/Cli/batch_manifest.c, batch_plan.c).
 *
 * Input layout (docs/reliability.md): the whole input is used three ways.
 *   1. As a manifest file: opened (locked) as a batch opens it, its torn
 *      tail set aside, read; every record read is written again with
 *      rl_manifest_append into a second manifest and read back.
 *   2. As a shard plan file: read; a plan that reads is stored again and
 *      read back.
 *   3. As NUL-separated names (at most 16): each is an input name of a
 *      record appended and read back.
 *
 * Invariants checked besides memory safety and termination:
 *   - after the tail is set aside the manifest is empty or ends with a
 *     newline, and the bytes cut off are in PATH.torn;
 *   - a record read and written again reads back with the same strings,
 *     sizes and status; a name of any bytes reads back to those bytes;
 *   - every line the writer makes is valid UTF-8 (unless a record read
 *     carried an options array that was not);
 *   - a plan that reads, stored again, reads back the same. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_manifest.h"
#include "batch_plan.h"
#include "fuzz_util.h"

static int valid_utf8(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned const c = p[i];
        unsigned need, v;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            need = 1, v = c & 0x1fu;
        else if (c >= 0xe0 && c <= 0xef)
            need = 2, v = c & 0x0fu;
        else if (c >= 0xf0 && c <= 0xf4)
            need = 3, v = c & 0x07u;
        else
            return 0;
        if (i + need >= n)
            return 0;
        for (unsigned k = 1; k <= need; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return 0;
            v = v << 6 | (p[i + k] & 0x3fu);
        }
        if ((need == 2 && v < 0x800) || (need == 3 && (v < 0x10000 || v > 0x10ffff))
            || (v >= 0xd800 && v <= 0xdfff))
            return 0;
        i += need + 1;
    }
    return 1;
}

typedef struct Again {
    int fd;
    const char *path;
    int n;
} Again;

/* Writes r again into a.fd and checks that it reads back the same. */
static int write_again(void *arg, const char *line, size_t len, RlManifestRec *r)
{
    Again *a = arg;
    RlManifestRec back;
    char *store;
    uint8_t *text;
    size_t n;
    (void) line;
    (void) len;
    FZ_CHECK(ftruncate(a->fd, 0) == 0, "truncate");
    FZ_CHECK(rl_manifest_append(a->fd, r) == 0, "append a record read");
    FZ_CHECK(fz_read_file(a->path, &text, &n) == 0 && n > 0 && text[n - 1] == '\n',
             "the appended line");
    /* the options' array is copied as read: UTF-8 only if it was */
    FZ_CHECK(!valid_utf8((const uint8_t *) r->options, strlen(r->options)) || valid_utf8(text, n),
             "the writer made a line that is not UTF-8");
    text[n - 1] = '\0';
    FZ_CHECK(rl_manifest_parse_line((const char *) text, &back, &store) == 0,
             "a line the writer made does not parse: %s", (const char *) text);
    FZ_CHECK(strcmp(back.input, r->input) == 0 && strcmp(back.output, r->output) == 0
             && strcmp(back.reason, r->reason) == 0 && strcmp(back.sha256, r->sha256) == 0
             && strcmp(back.compare, r->compare) == 0 && back.size == r->size
             && back.mtime_ns == r->mtime_ns && back.output_size == r->output_size
             && back.encoded == r->encoded, "a record read back differs");
    free(store);
    free(text);
    free((void *) r->input);
    a->n++;
    return 0;
}

static void as_manifest(const uint8_t *data, size_t size)
{
    char path[320], side[340], again[320], msg[1200];
    uint8_t *text, *torn;
    size_t n, tn;
    Again a;
    int fd;
    fz_path(path, sizeof path, "m.jsonl");
    fz_path(again, sizeof again, "again.jsonl");
    snprintf(side, sizeof side, "%s.torn", path);
    unlink(side);
    fz_write_file(path, data, size);
    fd = rl_manifest_open(path);
    FZ_CHECK(fd >= 0, "open the manifest: %d", fd);
    FZ_CHECK(rl_manifest_set_aside_tail(fd, path, msg, sizeof msg) == 0, "set aside: %s", msg);
    FZ_CHECK(fz_read_file(path, &text, &n) == 0, "read back");
    FZ_CHECK(n == 0 || text[n - 1] == '\n', "the manifest still ends inside a line");
    if (msg[0]) {
        FZ_CHECK(fz_read_file(side, &torn, &tn) == 0 && tn > 0 && n + tn - 1 == size
                 && memcmp(torn, data + n, tn - 1) == 0, "the cut bytes are not in .torn");
        free(torn);
    }
    else
        FZ_CHECK(n == size, "bytes lost without a message");
    free(text);
    a.fd = rl_manifest_open(again);
    a.path = again;
    a.n = 0;
    FZ_CHECK(a.fd >= 0, "open the second manifest");
    (void) rl_manifest_read(path, fd, write_again, &a);
    close(a.fd);
    close(fd);
}

static void as_plan(const uint8_t *data, size_t size)
{
    char path[320], again[320];
    RlPlan p, q;
    fz_path(path, sizeof path, ".ringlame-plan.7.jsonl");
    fz_path(again, sizeof again, ".ringlame-plan.8.jsonl");
    fz_write_file(path, data, size);
    if (rl_plan_load(&p, path) != 0)
        return;
    unlink(again);
    FZ_CHECK(rl_plan_store(&p, again) == 1, "store a plan read");
    FZ_CHECK(rl_plan_load(&q, again) == 0 && q.n == p.n && q.shards == p.shards,
             "a stored plan reads back");
    for (size_t i = 0; i < p.n; i++) {
        FZ_CHECK(strcmp(p.v[i].input, q.v[i].input) == 0 && p.v[i].shard == q.v[i].shard
                 && p.v[i].size == q.v[i].size && p.v[i].mtime_ns == q.v[i].mtime_ns,
                 "plan entry %zu differs", i);
        FZ_CHECK(rl_plan_find(&q, p.v[i].input) != NULL, "a planned input not found");
    }
    rl_plan_free(&p);
    rl_plan_free(&q);
}

static int keep_name(void *arg, const char *line, size_t len, RlManifestRec *r)
{
    char **name = arg;
    (void) line;
    (void) len;
    free(*name);
    *name = (char *) r->input;       /* the record's store */
    return 0;
}

static void as_names(const uint8_t *data, size_t size)
{
    char path[320];
    size_t off = 0;
    fz_path(path, sizeof path, "names.jsonl");
    for (int k = 0; k < 16 && off < size; k++) {
        size_t const len = strnlen((const char *) data + off, size - off);
        char *name = malloc(len + 1), *back = NULL;
        RlManifestRec r;
        int fd;
        FZ_CHECK(name != NULL, "out of memory");
        memcpy(name, data + off, len);
        name[len] = '\0';
        off += len + 1;
        memset(&r, 0, sizeof r);
        r.input = name;
        r.output = name;
        r.options = "[]";
        r.sha256 = "";
        r.reason = name;
        r.compare = name;
        unlink(path);
        fd = rl_manifest_open(path);
        FZ_CHECK(fd >= 0 && rl_manifest_append(fd, &r) == 0, "append a name");
        FZ_CHECK(rl_manifest_read(path, fd, keep_name, &back) == 0, "read the name back");
        FZ_CHECK(back && strcmp(back, name) == 0, "a name read back differs");
        free(back);
        free(name);
        close(fd);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_manifest(data, size);
    as_plan(data, size);
    as_names(data, size);
    return 0;
}
