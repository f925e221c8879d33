/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the manifest's lines, written and read
 * (batch_manifest.h).  The reader knows only the flat objects the writer
 * makes: string, number and array-of-string values. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
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

/* The length of the valid UTF-8 sequence at c (1 to 4), 0 if it is not
 * one (a stray or missing continuation byte, an overlong form, a
 * surrogate, above U+10FFFF). */
static int utf8_len(const unsigned char *c)
{
    int n;
    unsigned v;
    if (c[0] < 0x80)
        return 1;
    if (c[0] >= 0xc2 && c[0] <= 0xdf)
        n = 2, v = c[0] & 0x1fu;
    else if (c[0] >= 0xe0 && c[0] <= 0xef)
        n = 3, v = c[0] & 0x0fu;
    else if (c[0] >= 0xf0 && c[0] <= 0xf4)
        n = 4, v = c[0] & 0x07u;
    else
        return 0;
    for (int i = 1; i < n; i++) {
        if ((c[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (c[i] & 0x3fu);
    }
    if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff))
        || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    return n;
}

/* A JSON string of the bytes of s: valid UTF-8 as it is, '"', '\' and
 * control bytes escaped, and each byte that is not part of valid UTF-8
 * as the lone surrogate \udcXX (XX the byte: Python's "surrogateescape"),
 * so that any file name reads back to its bytes (batch_manifest.h). */
static void put_str(Buf *b, const char *s)
{
    put(b, "\"", 1);
    for (const unsigned char *c = (const unsigned char *) s; *c;) {
        char esc[8];
        int const n = utf8_len(c);
        if (*c == '"' || *c == '\\') {
            esc[0] = '\\';
            esc[1] = (char) *c;
            put(b, esc, 2);
        }
        else if (*c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *c);
            put(b, esc, 6);
        }
        else if (n == 0) {
            snprintf(esc, sizeof esc, "\\udc%02x", *c);
            put(b, esc, 6);
        }
        else {
            put(b, (const char *) c, (size_t) n);
            c += n;
            continue;
        }
        c++;
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

/* Opens path without blocking (a FIFO in its place must not hang the
 * batch) and checks that it is a regular file.  fd or -errno. */
static int open_regular(const char *path, int flags)
{
    struct stat st;
    int const fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno == ENXIO ? RL_MANIFEST_NOT_REGULAR : -errno;   /* a socket */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return RL_MANIFEST_NOT_REGULAR;
    }
    return fd;
}

int rl_manifest_open(const char *path)
{
    /* the lock is taken on the file that is open: a merge may have
     * renamed a new manifest over the name meanwhile, then the new one is
     * opened again */
    for (int tries = 0; tries < 8; tries++) {
        struct stat held, named;
        int const fd = open_regular(path, O_RDWR | O_CREAT | O_APPEND);
        if (fd < 0)
            return fd;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int const e = errno;
            close(fd);
            return e == EWOULDBLOCK ? RL_MANIFEST_LOCKED : -e;
        }
        if (fstat(fd, &held) == 0 && stat(path, &named) == 0 && held.st_dev == named.st_dev
            && held.st_ino == named.st_ino)
            return fd;
        close(fd);
    }
    return -EAGAIN;
}

int rl_manifest_in_use(const char *path)
{
    int busy;
    int const fd = open_regular(path, O_RDONLY);
    if (fd < 0)
        return 0;
    busy = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return busy;
}

const char *rl_manifest_strerror(int rc)
{
    if (rc == RL_MANIFEST_NOT_REGULAR)
        return "not a regular file";
    if (rc == RL_MANIFEST_LOCKED)
        return "another batch is using it (it holds its lock)";
    return strerror(-rc);
}

int rl_manifest_append(int fd, const RlManifestRec *r)
{
    Buf b = { 0 };
    char num[64];
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
    {
        /* one write: O_APPEND puts the whole line at the end; a short or
         * failed write (a full disk) is cut off again, so that the file
         * keeps whole lines (the lock makes the size ours to restore) */
        struct stat st;
        off_t const before = fstat(fd, &st) == 0 ? st.st_size : -1;
        ssize_t const w = write(fd, b.p, b.n);
        if (w != (ssize_t) b.n) {
            rc = w < 0 ? -errno : -ENOSPC;
            if (w > 0 && (before < 0 || ftruncate(fd, before) != 0))
                rc = -EIO;
        }
        /* the record is on disk before the next file starts (docs/options.md) */
        else if (fdatasync(fd) != 0 && errno != EINVAL)
            rc = -errno;
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

static int hex4(const char *s, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int const h = s[i] >= '0' && s[i] <= '9' ? s[i] - '0'
                      : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
                      : s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10 : -1;
        if (h < 0)
            return -1;
        *v = *v * 16 + (unsigned) h;
    }
    return 0;
}

static void put_utf8(Buf *out, unsigned v)
{
    char u[4];
    size_t n;
    if (v < 0x80)
        u[0] = (char) v, n = 1;
    else if (v < 0x800)
        u[0] = (char) (0xc0 | v >> 6), u[1] = (char) (0x80 | (v & 0x3f)), n = 2;
    else if (v < 0x10000)
        u[0] = (char) (0xe0 | v >> 12), u[1] = (char) (0x80 | (v >> 6 & 0x3f)),
        u[2] = (char) (0x80 | (v & 0x3f)), n = 3;
    else
        u[0] = (char) (0xf0 | v >> 18), u[1] = (char) (0x80 | (v >> 12 & 0x3f)),
        u[2] = (char) (0x80 | (v >> 6 & 0x3f)), u[3] = (char) (0x80 | (v & 0x3f)), n = 4;
    put(out, u, n);
}

/* A string at s ('"'): decoded into out (NULL: only skipped); the end.
 * \udc80 to \udcff give back the byte put_str escaped; other escapes
 * are JSON's (another tool may have written them); \u0000 is refused. */
static const char *scan_str(const char *s, Buf *out)
{
    if (*s++ != '"')
        return NULL;
    while (*s && *s != '"') {
        char c = *s++;
        unsigned v;
        if ((unsigned char) c < 0x20)
            return NULL;
        if (c != '\\') {
            if (out)
                put(out, &c, 1);
            continue;
        }
        c = *s++;
        if (c == 'u') {
            if (hex4(s, &v) != 0 || v == 0)
                return NULL;
            s += 4;
            if (v >= 0xdc80 && v <= 0xdcff) {     /* an escaped byte */
                c = (char) (v - 0xdc00);
                if (out)
                    put(out, &c, 1);
                continue;
            }
            if (v >= 0xd800 && v <= 0xdbff) {     /* a pair */
                unsigned lo;
                if (s[0] != '\\' || s[1] != 'u' || hex4(s + 2, &lo) != 0 || lo < 0xdc00
                    || lo > 0xdfff)
                    return NULL;
                s += 6;
                v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
            }
            else if (v >= 0xdc00 && v <= 0xdfff)
                return NULL;
            if (out)
                put_utf8(out, v);
            continue;
        }
        switch (c) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case '"': case '\\': case '/': break;
        default: return NULL;
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

int rl_grow(void **v, size_t *cap, size_t n, size_t size, size_t first)
{
    size_t c;
    void *p;
    if (n < *cap)
        return 0;
    c = *cap ? 2 * *cap : first;
    p = realloc(*v, c * size);
    if (!p)
        return -ENOMEM;
    *v = p;
    *cap = c;
    return 0;
}

FILE *rl_temp_open(const char *path, const char *tag, char *tmp, size_t tmplen, int *err)
{
    FILE *f;
    int fd;
    if (snprintf(tmp, tmplen, "%s.%s-%ld", path, tag, (long) getpid()) >= (int) tmplen) {
        *err = -ENAMETOOLONG;
        return NULL;
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        *err = -errno;
        return NULL;
    }
    f = fdopen(fd, "w");
    if (!f) {
        *err = -errno;
        close(fd);
        unlink(tmp);
    }
    return f;
}

int rl_temp_close(FILE *f, const char *tmp, int rc)
{
    if (rc == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        rc = -errno;
    if (fclose(f) != 0 && rc == 0)
        rc = -errno;
    if (rc < 0)
        unlink(tmp);
    return rc;
}

char *rl_json_string(const char *s)
{
    Buf b = { 0 };
    put_str(&b, s);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

int rl_json_fields(const char *line, const char *const *keys, int nkeys, char **str,
                   int64_t *num)
{
    const char *s = skip_ws(line);
    int found = 0;
    for (int i = 0; i < nkeys; i++) {
        str[i] = NULL;
        num[i] = 0;
    }
    if (*s++ != '{')
        return -EINVAL;
    for (s = skip_ws(s); *s != '}';) {
        Buf key = { 0 };
        const char *v;
        int f = -1;
        s = scan_str(s, &key);
        if (s && !key.oom) {
            s = skip_ws(s);
            s = *s == ':' ? skip_ws(s + 1) : NULL;
        }
        v = s;
        s = s ? scan_value(s) : NULL;
        for (int i = 0; s && key.p && i < nkeys; i++)
            if (strcmp(key.p, keys[i]) == 0 && !(found >> i & 1))
                f = i;
        free(key.p);
        if (!s)
            goto bad;
        if (f >= 0 && *v == '"') {
            Buf val = { 0 };
            (void) scan_str(v, &val);
            put(&val, "", 0);
            if (val.oom) {
                free(val.p);
                goto bad;
            }
            str[f] = val.p;
            found |= 1 << f;
        }
        else if (f >= 0 && *v != '[') {
            num[f] = strtoll(v, NULL, 10);
            found |= 1 << f;
        }
        s = skip_ws(s);
        if (*s == ',')
            s = skip_ws(s + 1);
        else if (*s != '}')
            goto bad;
    }
    return found;
bad:
    for (int i = 0; i < nkeys; i++) {
        free(str[i]);
        str[i] = NULL;
    }
    return -EINVAL;
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
                /* integers read as integers: a huge value saturates, never
                 * goes through an out-of-range double conversion */
                if (strcmp(key.p, "size") == 0)
                    r->size = strtoll(v, NULL, 10), have_num |= 1;
                else if (strcmp(key.p, "mtime_ns") == 0)
                    r->mtime_ns = strtoll(v, NULL, 10), have_num |= 2;
                else if (strcmp(key.p, "output_size") == 0)
                    r->output_size = strtoll(v, NULL, 10), have_num |= 4;
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

/* The whole file at fd, from its start, into b.  0 or -errno. */
static int read_all(int fd, Buf *b)
{
    char chunk[65536];
    off_t off = 0;
    for (;;) {
        ssize_t const n = pread(fd, chunk, sizeof chunk, off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (n == 0)
            break;
        put(b, chunk, (size_t) n);
        if (b->oom)
            return -ENOMEM;
        off += n;
    }
    if (!b->p)
        put(b, "", 0);
    return b->oom ? -ENOMEM : 0;
}

int rl_manifest_read(const char *path, int fd, RlManifestLineFn fn, void *arg)
{
    Buf b = { 0 };
    int rc, own = fd < 0;
    if (own) {
        fd = open_regular(path, O_RDONLY);
        if (fd == -ENOENT)
            return 0;
        if (fd < 0)
            return fd;
    }
    rc = read_all(fd, &b);
    if (own)
        close(fd);
    for (char *line = b.p; rc == 0 && line && *line;) {
        char *nl = strchr(line, '\n');
        RlManifestRec r;
        char *store;
        if (!nl)
            break;                          /* an unfinished last line */
        *nl = '\0';
        if (rl_manifest_parse_line(line, &r, &store) == 0) {
            *nl = '\n';
            rc = fn(arg, line, (size_t) (nl + 1 - line), &r);
        }
        line = nl + 1;
    }
    free(b.p);
    return rc;
}

int rl_manifest_set_aside_tail(int fd, const char *path, char *msg, size_t msglen)
{
    Buf b = { 0 };
    char side[4200];
    size_t keep, torn;
    const char *nl;
    int rc = read_all(fd, &b), sfd;
    msg[0] = '\0';
    if (rc < 0 || b.n == 0 || b.p[b.n - 1] == '\n') {
        free(b.p);
        return rc;
    }
    nl = memrchr(b.p, '\n', b.n);
    keep = nl ? (size_t) (nl + 1 - b.p) : 0;
    torn = b.n - keep;
    /* the fragment is kept in PATH.torn (it may be all that is left of a
     * record), then cut off, so that the next record starts a line */
    put(&b, "\n", 1);
    rc = b.oom ? -ENOMEM
         : snprintf(side, sizeof side, "%s.torn", path) < (int) sizeof side ? 0 : -ENAMETOOLONG;
    sfd = rc == 0 ? open_regular(side, O_WRONLY | O_CREAT | O_APPEND) : rc;
    if (sfd < 0)
        rc = sfd;
    else {
        ssize_t const w = write(sfd, b.p + keep, torn + 1);
        if (w != (ssize_t) (torn + 1))
            rc = w < 0 ? -errno : -ENOSPC;
        else if (fsync(sfd) != 0)
            rc = -errno;
        close(sfd);
    }
    if (rc == 0 && ftruncate(fd, (off_t) keep) != 0)
        rc = -errno;
    free(b.p);
    if (rc == 0) {
        snprintf(msg, msglen, "%s: its last line is incomplete (%zu bytes, from an interrupted "
                 "run): moved to %s", path, torn, side);
        return 0;
    }
    if (write(fd, "\n", 1) == 1) {         /* at least the next record starts a line */
        snprintf(msg, msglen, "%s: its last line is incomplete (%zu bytes); it could not be "
                 "moved to %s (%s) and is left as a line of its own", path, torn, side,
                 strerror(-rc));
        return 0;
    }
    snprintf(msg, msglen, "%s: its last line is incomplete and cannot be set aside: %s", path,
             strerror(-rc));
    return rc;
}

typedef struct Loader {
    RlManifest *m;
    size_t cap;
} Loader;

static int load_one(void *arg, const char *line, size_t len, RlManifestRec *r)
{
    Loader *l = arg;
    (void) line;
    (void) len;
    if (rl_grow((void **) &l->m->v, &l->cap, l->m->n, sizeof *l->m->v, 64) < 0) {
        free((void *) r->input);
        return -ENOMEM;
    }
    l->m->v[l->m->n++] = *r;
    return 0;
}

int rl_manifest_load_fd(RlManifest *m, const char *path, int fd)
{
    Loader l = { m, 0 };
    int rc;
    memset(m, 0, sizeof *m);
    rc = rl_manifest_read(path, fd, load_one, &l);
    if (rc < 0)
        rl_manifest_free(m);
    return rc;
}

int rl_manifest_load(RlManifest *m, const char *path)
{
    return rl_manifest_load_fd(m, path, -1);
}

const RlManifestRec *rl_manifest_find(const RlManifest *m, const char *input)
{
    for (size_t i = m->n; i-- > 0;)
        if (strcmp(m->v[i].input, input) == 0)
            return &m->v[i];
    return NULL;
}
