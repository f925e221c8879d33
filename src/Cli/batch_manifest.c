/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the manifest's lines, written and read
 * (batch_manifest.h).  The reader knows only the flat objects the writer
 * makes: string, number and array-of-string values. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_manifest.h"

typedef struct Buf {
    char *p;
    size_t n, cap;
    int oom;
} Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void puts_(Buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void put_str(Buf *b, const char *s)
{
    put(b, "\"", 1);
    for (const unsigned char *c = (const unsigned char *) s; *c; c++) {
        char esc[8];
        if (*c == '"' || *c == '\\') {
            esc[0] = '\\';
            esc[1] = (char) *c;
            put(b, esc, 2);
        }
        else if (*c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *c);
            put(b, esc, 6);
        }
        else {
            put(b, (const char *) c, 1);
        }
    }
    put(b, "\"", 1);
}

char *rl_manifest_options_json(const char *const *tok, int n)
{
    Buf b = { 0 };
    put(&b, "[", 1);
    for (int i = 0; i < n; i++) {
        if (i)
            put(&b, ",", 1);
        put_str(&b, tok[i]);
    }
    put(&b, "]", 1);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

int rl_manifest_open(const char *path)
{
    int const fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    return fd < 0 ? -errno : fd;
}

int rl_manifest_append(int fd, const RlManifestRec *r)
{
    Buf b = { 0 };
    char num[64];
    size_t off = 0;
    int rc = 0;

    puts_(&b, "{\"input\":");
    put_str(&b, r->input);
    snprintf(num, sizeof num, ",\"size\":%lld,\"mtime_ns\":%lld,\"options\":",
             (long long) r->size, (long long) r->mtime_ns);
    puts_(&b, num);
    puts_(&b, r->options);
    puts_(&b, ",\"output\":");
    put_str(&b, r->output);
    snprintf(num, sizeof num, ",\"output_size\":%lld,\"sha256\":", (long long) r->output_size);
    puts_(&b, num);
    put_str(&b, r->sha256);
    puts_(&b, ",\"status\":");
    put_str(&b, r->encoded ? "encoded" : "failed");
    puts_(&b, ",\"reason\":");
    put_str(&b, r->reason);
    snprintf(num, sizeof num, ",\"seconds\":%.3f,\"audio_seconds\":%.3f", r->seconds,
             r->audio_seconds);
    puts_(&b, num);
    if (r->compare && r->compare[0]) {
        puts_(&b, ",\"compare\":");
        put_str(&b, r->compare);
    }
    puts_(&b, "}\n");
    if (b.oom) {
        free(b.p);
        return -ENOMEM;
    }
    /* one write: O_APPEND puts the whole line at the end (a regular file
     * takes it whole; the loop only covers a short write) */
    while (off < b.n) {
        ssize_t const w = write(fd, b.p + off, b.n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            rc = -errno;
            break;
        }
        off += (size_t) w;
    }
    free(b.p);
    return rc;
}

/* ---- reading ---- */

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return s;
}

/* A string at s ('"'): decoded into out (NULL: only skipped); the end. */
static const char *scan_str(const char *s, Buf *out)
{
    if (*s++ != '"')
        return NULL;
    while (*s && *s != '"') {
        char c = *s++;
        if (c == '\\') {
            c = *s++;
            if (c == 'u') {
                unsigned v = 0;
                for (int i = 0; i < 4; i++, s++) {
                    int const h = *s >= '0' && *s <= '9' ? *s - '0'
                                  : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                                  : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
                    if (h < 0)
                        return NULL;
                    v = v * 16 + (unsigned) h;
                }
                if (v > 0x7f)
                    return NULL;        /* the writer escapes control bytes only */
                c = (char) v;
            }
            else if (c == 'n')
                c = '\n';
            else if (c == 't')
                c = '\t';
            else if (c != '"' && c != '\\' && c != '/')
                return NULL;
        }
        if (out)
            put(out, &c, 1);
    }
    return *s == '"' ? s + 1 : NULL;
}

/* A value at s: its end, or NULL. */
static const char *scan_value(const char *s)
{
    if (*s == '"')
        return scan_str(s, NULL);
    if (*s == '[') {
        s = skip_ws(s + 1);
        if (*s == ']')
            return s + 1;
        for (;;) {
            s = scan_value(skip_ws(s));
            if (!s)
                return NULL;
            s = skip_ws(s);
            if (*s == ']')
                return s + 1;
            if (*s++ != ',')
                return NULL;
        }
    }
    if (*s == '-' || (*s >= '0' && *s <= '9')) {
        char *end;
        (void) strtod(s, &end);
        return end;
    }
    return NULL;
}

void rl_manifest_free(RlManifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        free((void *) m->v[i].input);    /* the record's store (see parse_line) */
    free(m->v);
    memset(m, 0, sizeof *m);
}

int rl_manifest_parse_line(const char *line, RlManifestRec *r, char **store)
{
    /* the strings go into one buffer of NUL-separated fields; offsets
     * first, pointers at the end (the buffer moves as it grows) */
    enum { F_IN, F_OPT, F_OUT, F_SHA, F_STATUS, F_REASON, F_CMP, F_N };
    size_t off[F_N];
    int have[F_N] = { 0 }, have_num = 0;
    Buf b = { 0 };
    const char *s = skip_ws(line);

    memset(r, 0, sizeof *r);
    *store = NULL;
    if (*s++ != '{')
        return -EINVAL;
    for (;;) {
        Buf key = { 0 };
        const char *v;
        int f = -1;
        s = skip_ws(s);
        s = scan_str(s, &key);
        if (!s || key.oom) {
            free(key.p);
            free(b.p);
            return -EINVAL;
        }
        s = skip_ws(s);
        if (*s++ != ':') {
            free(key.p);
            free(b.p);
            return -EINVAL;
        }
        v = skip_ws(s);
        s = scan_value(v);
        if (!s) {
            free(key.p);
            free(b.p);
            return -EINVAL;
        }
        if (key.p) {
            static const char *const names[F_N] = { "input", "options", "output", "sha256",
                                                    "status", "reason", "compare" };
            for (int i = 0; i < F_N; i++)
                if (strcmp(key.p, names[i]) == 0)
                    f = i;
            if (f == F_OPT) {
                off[f] = b.n;
                put(&b, v, (size_t) (s - v));       /* the array's text */
                put(&b, "", 1);
                have[f] = 1;
            }
            else if (f >= 0 && *v == '"') {
                off[f] = b.n;
                (void) scan_str(v, &b);
                put(&b, "", 1);
                have[f] = 1;
            }
            else if (*v != '"' && *v != '[') {
                double const x = strtod(v, NULL);
                if (strcmp(key.p, "size") == 0)
                    r->size = (int64_t) x, have_num |= 1;
                else if (strcmp(key.p, "mtime_ns") == 0)
                    r->mtime_ns = strtoll(v, NULL, 10), have_num |= 2;
                else if (strcmp(key.p, "output_size") == 0)
                    r->output_size = (int64_t) x, have_num |= 4;
                else if (strcmp(key.p, "seconds") == 0)
                    r->seconds = x;
                else if (strcmp(key.p, "audio_seconds") == 0)
                    r->audio_seconds = x;
            }
        }
        free(key.p);
        s = skip_ws(s);
        if (*s == '}')
            break;
        if (*s++ != ',') {
            free(b.p);
            return -EINVAL;
        }
    }
    if (!have[F_CMP]) {        /* optional: "" */
        off[F_CMP] = b.n;
        put(&b, "", 1);
        have[F_CMP] = 1;
    }
    for (int i = 0; i < F_N; i++)
        if (!have[i]) {
            free(b.p);
            return -EINVAL;
        }
    if (b.oom || have_num != 7) {
        free(b.p);
        return -EINVAL;
    }
    /* the input's field comes first in the store, so that freeing
     * r->input frees the store */
    if (off[F_IN] != 0) {
        size_t const n = strlen(b.p + off[F_IN]) + 1;
        char *p = malloc(n + b.n + 1);   /* the input, then the whole store */
        if (!p) {
            free(b.p);
            return -ENOMEM;
        }
        memcpy(p, b.p + off[F_IN], n);
        memcpy(p + n, b.p, b.n + 1);
        for (int i = 0; i < F_N; i++)
            off[i] = i == F_IN ? 0 : off[i] + n;
        free(b.p);
        b.p = p;
    }
    r->input = b.p + off[F_IN];
    r->options = b.p + off[F_OPT];
    r->output = b.p + off[F_OUT];
    r->sha256 = b.p + off[F_SHA];
    r->encoded = strcmp(b.p + off[F_STATUS], "encoded") == 0;
    r->reason = b.p + off[F_REASON];
    r->compare = b.p + off[F_CMP];
    *store = b.p;
    return 0;
}

int rl_manifest_load(RlManifest *m, const char *path)
{
    FILE *f = fopen(path, "re");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    size_t vcap = 0;

    memset(m, 0, sizeof *m);
    if (!f)
        return errno == ENOENT ? 0 : -errno;
    while ((len = getline(&line, &cap, f)) >= 0) {
        RlManifestRec r;
        char *store;
        if (len == 0 || line[len - 1] != '\n')
            continue;                       /* an unfinished last line */
        if (rl_manifest_parse_line(line, &r, &store) != 0)
            continue;
        if (m->n == vcap) {
            size_t const c = vcap ? 2 * vcap : 64;
            RlManifestRec *v = realloc(m->v, c * sizeof *v);
            if (!v) {
                free(store);
                free(line);
                fclose(f);
                rl_manifest_free(m);
                return -ENOMEM;
            }
            m->v = v;
            vcap = c;
        }
        m->v[m->n++] = r;
    }
    free(line);
    fclose(f);
    return 0;
}

const RlManifestRec *rl_manifest_find(const RlManifest *m, const char *input)
{
    for (size_t i = m->n; i-- > 0;)
        if (strcmp(m->v[i].input, input) == 0)
            return &m->v[i];
    return NULL;
}
