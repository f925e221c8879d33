/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch: the inputs expanded into (input, output) pairs
 * (batch_walk.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "batch_walk.h"

static int audio_suffix(const char *name, int raw)
{
    static const char *const sfx[] = { ".wav", ".aif", ".aiff", ".au", ".snd", ".flac",
                                       ".w64", ".ogg" };
    /* lame's MPEG suffixes (its file-name rule); -r would read them as raw PCM */
    static const char *const mpeg[] = { ".mp3", ".mp2", ".mp1", ".mpg" };
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name)
        return 0;
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        if (strcasecmp(dot, sfx[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof mpeg / sizeof mpeg[0] && !raw; i++)
        if (strcasecmp(dot, mpeg[i]) == 0)
            return 1;
    return raw && (strcasecmp(dot, ".raw") == 0 || strcasecmp(dot, ".pcm") == 0);
}

static char *join(const char *a, const char *b)
{
    size_t const na = strlen(a), nb = strlen(b);
    int const slash = na > 0 && a[na - 1] != '/';
    char *s = malloc(na + (size_t) slash + nb + 1);
    if (!s)
        return NULL;
    memcpy(s, a, na);
    if (slash)
        s[na] = '/';
    memcpy(s + na + (size_t) slash, b, nb + 1);
    return s;
}

static void visit(const RlBatchList *l, const char *path)
{
    if (l->visit)
        l->visit(l->visit_arg, path);
}

/* Adds path; out_dir: where its output goes ("" or NULL: beside it);
 * walked: found in a folder, not named. */
static int add_item(RlBatchList *l, const char *path, const char *out_dir, int walked,
                    char *err, size_t errlen)
{
    RlBatchItem *it;
    struct stat st;
    char out[RL_ARGS_PATH_MAX + 1];

    if (rl_args_default_output(path, out_dir, out, sizeof out) != 0) {
        snprintf(err, errlen, "%s: output file name too long", path);
        return -ENAMETOOLONG;
    }
    if (l->n == l->cap) {
        size_t const cap = l->cap ? 2 * l->cap : 64;
        RlBatchItem *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    it = &l->v[l->n];
    memset(it, 0, sizeof *it);
    it->in = strdup(path);
    it->out = strdup(out);
    it->walked = walked;
    if (!it->in || !it->out) {
        free(it->in);
        free(it->out);
        return -ENOMEM;
    }
    visit(l, path);
    if (stat(path, &st) != 0)
        it->error = -errno;
    else if (S_ISDIR(st.st_mode))
        it->error = -EISDIR;
    else if (!S_ISREG(st.st_mode)) {
        it->error = RL_BATCH_NOT_REGULAR;     /* opening or reading it may block */
        it->mode = st.st_mode & S_IFMT;
    }
    else {
        it->mode = S_IFREG;
        it->size = (int64_t) st.st_size;
        it->mtime_ns = (int64_t) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        it->dev = st.st_dev;
        it->ino = st.st_ino;
    }
    l->n++;
    return 0;
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp(*(char *const *) x, *(char *const *) y);
}

#define MANIFEST_PREFIX ".ringlame-manifest"

static int add_manifest(RlBatchList *l, const char *dir, const char *name)
{
    char **v = realloc(l->manifests, (l->n_manifests + 1) * sizeof *v);
    if (!v)
        return -ENOMEM;
    l->manifests = v;
    v[l->n_manifests] = join(dir, name);
    if (!v[l->n_manifests])
        return -ENOMEM;
    l->n_manifests++;
    return 0;
}

const char *rl_batch_type_name(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFDIR: return "a folder";
    default: return "not a regular file";
    }
}

void rl_batch_drop_irregular(RlBatchList *l, void (*report)(void *arg, const RlBatchItem *it),
                             void *arg)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        RlBatchItem *it = &l->v[i];
        if (it->walked && it->error == RL_BATCH_NOT_REGULAR) {
            if (report)
                report(arg, it);
            free(it->in);
            free(it->out);
        }
        else
            l->v[kept++] = *it;
    }
    l->n = kept;
}

/* Walks folder dir; its outputs go to out_dir ("": beside the inputs). */
static int walk_dir(RlBatchList *l, const char *dir, const char *out_dir, int raw,
                    char *err, size_t errlen)
{
    DIR *d;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;

    visit(l, dir);
    d = opendir(dir);
    if (!d)
        return add_item(l, dir, out_dir, 0, err, errlen);  /* recorded with its error */
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, MANIFEST_PREFIX, strlen(MANIFEST_PREFIX)) == 0
            && strlen(e->d_name) >= strlen(MANIFEST_PREFIX) + 6
            && strcmp(e->d_name + strlen(e->d_name) - 6, ".jsonl") == 0)
            rc = add_manifest(l, dir, e->d_name);
        if (rc < 0)
            break;
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t const c = cap ? 2 * cap : 32;
            char **v = realloc(names, c * sizeof *v);
            if (!v) {
                rc = -ENOMEM;
                break;
            }
            names = v;
            cap = c;
        }
        names[n] = strdup(e->d_name);
        if (!names[n]) {
            rc = -ENOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0 && n > 1)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *path = join(dir, names[i]);
        struct stat st;
        if (!path) {
            rc = -ENOMEM;
            break;
        }
        visit(l, path);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            char *sub = out_dir[0] ? join(out_dir, names[i]) : strdup("");
            rc = sub ? walk_dir(l, path, sub, raw, err, errlen) : -ENOMEM;
            free(sub);
        }
        else if (audio_suffix(names[i], raw)) {
            rc = add_item(l, path, out_dir, 1, err, errlen);
        }
        free(path);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int rl_batch_walk(RlBatchList *l, const char *input, const char *out_dir, int raw,
                  char *err, size_t errlen)
{
    struct stat st;
    if (!out_dir)
        out_dir = "";
    visit(l, input);
    if (stat(input, &st) == 0 && S_ISDIR(st.st_mode))
        return walk_dir(l, input, out_dir, raw, err, errlen);
    return add_item(l, input, out_dir, 0, err, errlen);
}

typedef struct NameRef {
    const char *name;
    size_t item;
} NameRef;

static int cmp_ref(const void *x, const void *y)
{
    const NameRef *a = x, *b = y;
    int const c = strcmp(a->name, b->name);
    return c ? c : (a->item > b->item) - (a->item < b->item);
}

typedef struct FileRef {
    dev_t dev;
    ino_t ino;
    size_t item;
} FileRef;

static int cmp_file(const void *x, const void *y)
{
    const FileRef *a = x, *b = y;
    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    return (a->ino > b->ino) - (a->ino < b->ino);
}

/* 1 if sorted v[0..n) holds key (by cmp) for an item other than self */
static int held_by_other(const void *v, size_t n, size_t size, const void *key,
                         int (*cmp)(const void *, const void *), size_t (*item)(const void *),
                         size_t self)
{
    const char *base = v;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t const mid = lo + (hi - lo) / 2;
        if (cmp(base + mid * size, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && cmp(base + lo * size, key) == 0; lo++)
        if (item(base + lo * size) != self)
            return 1;
    return 0;
}

static int cmp_name_only(const void *x, const void *y)
{
    return strcmp(((const NameRef *) x)->name, ((const NameRef *) y)->name);
}

static size_t name_item(const void *x)
{
    return ((const NameRef *) x)->item;
}

static size_t file_item(const void *x)
{
    return ((const FileRef *) x)->item;
}

int rl_batch_drop_outputs(RlBatchList *l)
{
    NameRef *names;
    FileRef *files;
    size_t nf = 0, kept = 0;

    if (l->n == 0)
        return 0;
    names = malloc(l->n * sizeof *names);
    files = malloc(l->n * sizeof *files);
    if (!names || !files) {
        free(names);
        free(files);
        return -ENOMEM;
    }
    for (size_t i = 0; i < l->n; i++) {
        struct stat so;
        names[i].name = l->v[i].out;
        names[i].item = i;
        visit(l, l->v[i].out);
        if (stat(l->v[i].out, &so) == 0 && S_ISREG(so.st_mode)) {
            files[nf].dev = so.st_dev;
            files[nf].ino = so.st_ino;
            files[nf].item = i;
            nf++;
        }
    }
    qsort(names, l->n, sizeof *names, cmp_ref);
    if (nf > 1)
        qsort(files, nf, sizeof *files, cmp_file);
    /* judged against every other item's output, dropped ones' included: a
     * file the batch would write is never also read by it.  An item that
     * is its own output stays, for rl_batch_check_collisions to refuse. */
    for (size_t i = 0; i < l->n; i++) {
        RlBatchItem *it = &l->v[i];
        NameRef const nk = { it->in, 0 };
        FileRef const fk = { it->dev, it->ino, 0 };
        if (it->walked
            && (held_by_other(names, l->n, sizeof *names, &nk, cmp_name_only, name_item, i)
                || (it->error == 0
                    && held_by_other(files, nf, sizeof *files, &fk, cmp_file, file_item, i))))
            it->walked = -1;
    }
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].walked < 0) {
            free(l->v[i].in);
            free(l->v[i].out);
        }
        else {
            l->v[kept++] = l->v[i];
        }
    }
    l->n = kept;
    free(names);
    free(files);
    return 0;
}

int rl_batch_check_collisions(const RlBatchList *l, char *err, size_t errlen)
{
    NameRef *outs;
    int rc = 0;

    if (l->n == 0)
        return 0;
    outs = malloc(l->n * sizeof *outs);
    if (!outs)
        return -ENOMEM;
    for (size_t i = 0; i < l->n; i++) {
        outs[i].name = l->v[i].out;
        outs[i].item = i;
    }
    qsort(outs, l->n, sizeof *outs, cmp_ref);
    for (size_t i = 1; i < l->n && rc == 0; i++)
        if (strcmp(outs[i - 1].name, outs[i].name) == 0) {
            snprintf(err, errlen, "%s and %s would both be encoded to %s",
                     l->v[outs[i - 1].item].in, l->v[outs[i].item].in, outs[i].name);
            rc = -EEXIST;
        }
    free(outs);
    /* an output that is an input: by name, or the same file */
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        struct stat so;
        int exists;
        visit(l, l->v[i].out);
        exists = stat(l->v[i].out, &so) == 0 && S_ISREG(so.st_mode);
        for (size_t j = 0; j < l->n; j++) {
            const RlBatchItem *in = &l->v[j];
            if (strcmp(l->v[i].out, in->in) == 0
                || (exists && in->error == 0 && in->dev == so.st_dev && in->ino == so.st_ino)) {
                snprintf(err, errlen, "the output %s of %s is the input %s", l->v[i].out,
                         l->v[i].in, in->in);
                rc = -EEXIST;
                break;
            }
        }
    }
    return rc;
}

static int cmp_plan(const void *x, const void *y)
{
    const RlBatchItem *a = *(const RlBatchItem *const *) x, *b = *(const RlBatchItem *const *) y;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return strcmp(a->in, b->in);
}

typedef struct Share {
    int64_t total;
    int index;
} Share;

static int share_less(const Share *a, const Share *b)
{
    return a->total < b->total || (a->total == b->total && a->index < b->index);
}

/* The heap's root moved down to its place. */
static void sift_down(Share *h, int n)
{
    int i = 0;
    for (;;) {
        int const l = 2 * i + 1, r = l + 1;
        int m = i;
        if (l < n && share_less(&h[l], &h[m]))
            m = l;
        if (r < n && share_less(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        Share const t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

int rl_batch_shares(const RlBatchList *l, int n, int *share)
{
    const RlBatchItem **order = malloc((l->n + 1) * sizeof *order);
    Share *heap = malloc((size_t) n * sizeof *heap);
    if (!order || !heap) {
        free(order);
        free(heap);
        return -ENOMEM;
    }
    for (size_t i = 0; i < l->n; i++)
        order[i] = &l->v[i];
    qsort(order, l->n, sizeof *order, cmp_plan);
    /* in index order, all totals 0: already a heap */
    for (int s = 0; s < n; s++) {
        heap[s].total = 0;
        heap[s].index = s;
    }
    for (size_t i = 0; i < l->n; i++) {
        const RlBatchItem *it = order[i];
        share[it - l->v] = heap[0].index;
        heap[0].total += it->size > 0 ? it->size : 0;
        sift_down(heap, n);
    }
    free(order);
    free(heap);
    return 0;
}

int rl_batch_shard(const RlBatchList *l, int k, int n, unsigned char *mine)
{
    int *share = malloc((l->n + 1) * sizeof *share);
    if (!share || rl_batch_shares(l, n, share) < 0) {
        free(share);
        return -ENOMEM;
    }
    for (size_t i = 0; i < l->n; i++)
        mine[i] = share[i] == k;
    free(share);
    return 0;
}

int rl_batch_drop_files(RlBatchList *l, const RlFileId *ids, size_t n)
{
    FileRef *files;
    size_t kept = 0;
    if (n == 0 || l->n == 0)
        return 0;
    files = malloc(n * sizeof *files);
    if (!files)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        files[i].dev = ids[i].dev;
        files[i].ino = ids[i].ino;
        files[i].item = 0;
    }
    qsort(files, n, sizeof *files, cmp_file);
    for (size_t i = 0; i < l->n; i++) {
        RlBatchItem *it = &l->v[i];
        FileRef const key = { it->dev, it->ino, 0 };
        if (it->walked && it->error == 0
            && bsearch(&key, files, n, sizeof *files, cmp_file) != NULL) {
            free(it->in);
            free(it->out);
        }
        else
            l->v[kept++] = *it;
    }
    l->n = kept;
    free(files);
    return 0;
}

void rl_batch_list_free(RlBatchList *l)
{
    for (size_t i = 0; i < l->n_manifests; i++)
        free(l->manifests[i]);
    free(l->manifests);
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].in);
        free(l->v[i].out);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}
