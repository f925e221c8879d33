/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch --merge-manifests: the shards' manifest parts joined
 * into the manifest (batch_manifest.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_manifest.h"
#include "batch_plan.h"

#define PART_PREFIX ".ringlame-manifest."
#define PART_SUFFIX ".jsonl"

typedef struct Source {
    char *path;
    int64_t mtime_ns;
    int k, n;               /* the share; n 0: the manifest itself */
} Source;

typedef struct Line {
    char *input;            /* the record's store (freed with it) */
    char *text;
    size_t seq;             /* the order read: later wins */
} Line;

int rl_manifest_part_path(char *buf, size_t len, const char *manifest, int k, int n)
{
    const char *slash = strrchr(manifest, '/');
    int const dir = slash ? (int) (slash - manifest + 1) : 0;
    int const w = snprintf(buf, len, "%.*s" PART_PREFIX "%d-of-%d" PART_SUFFIX, dir, manifest, k, n);
    return w >= 0 && (size_t) w < len ? 0 : -ENAMETOOLONG;
}

/* K and N of a part's name ("K-of-N" between the prefix and the suffix,
 * plain decimals); 0, or -EINVAL when name is not a part's. */
static int part_of(const char *name, int *k, int *n)
{
    size_t const lp = strlen(PART_PREFIX), ls = strlen(PART_SUFFIX), ln = strlen(name);
    long v[2];
    const char *s;
    if (ln <= lp + ls || strncmp(name, PART_PREFIX, lp) != 0
        || strcmp(name + ln - ls, PART_SUFFIX) != 0)
        return -EINVAL;
    s = name + lp;
    for (int i = 0; i < 2; i++) {
        char *end;
        if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
            return -EINVAL;
        v[i] = strtol(s, &end, 10);
        if (v[i] > 100000)
            return -EINVAL;
        s = end;
        if (i == 0) {
            if (strncmp(s, "-of-", 4) != 0)
                return -EINVAL;
            s += 4;
        }
    }
    if (s != name + ln - ls || v[1] < 1 || v[0] >= v[1])
        return -EINVAL;
    *k = (int) v[0];
    *n = (int) v[1];
    return 0;
}

static int cmp_source(const void *x, const void *y)
{
    const Source *a = x, *b = y;
    if (a->mtime_ns != b->mtime_ns)
        return a->mtime_ns < b->mtime_ns ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

static int cmp_line(const void *x, const void *y)
{
    const Line *a = x, *b = y;
    int const c = strcmp(a->input, b->input);
    if (c)
        return c;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int cmp_input(const void *x, const void *y)
{
    return strcmp(((const Line *) x)->input, ((const Line *) y)->input);
}

static int add_source(Source **v, size_t *n, size_t *cap, const char *path, int k, int sn)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? 0 : -errno;
    if (!S_ISREG(st.st_mode))
        return 0;
    if (*n == *cap) {
        size_t const c = *cap ? 2 * *cap : 16;
        Source *p = realloc(*v, c * sizeof *p);
        if (!p)
            return -ENOMEM;
        *v = p;
        *cap = c;
    }
    (*v)[*n].path = strdup(path);
    if (!(*v)[*n].path)
        return -ENOMEM;
    (*v)[*n].mtime_ns = (int64_t) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    (*v)[*n].k = k;
    (*v)[*n].n = sn;
    (*n)++;
    return 0;
}

typedef struct Lines {
    Line *v;
    size_t n, cap;
} Lines;

static int add_line(void *arg, const char *text, size_t len, RlManifestRec *r)
{
    Lines *l = arg;
    if (rl_grow((void **) &l->v, &l->cap, l->n, sizeof *l->v, 256) < 0) {
        free((void *) r->input);
        return -ENOMEM;
    }
    l->v[l->n].input = (char *) r->input;
    l->v[l->n].text = strndup(text, len);
    l->v[l->n].seq = l->n;
    if (!l->v[l->n].text) {
        free((void *) r->input);
        return -ENOMEM;
    }
    l->n++;
    return 0;
}

/* Writes the lines (sorted, the last per input) to manifest through a
 * temporary file renamed over it.  The number of inputs, or -errno. */
static long write_merged(const char *manifest, Line *lines, size_t n)
{
    char tmp[4200];
    long inputs = 0;
    int rc = 0;
    FILE *f = rl_temp_open(manifest, "merge", tmp, sizeof tmp, &rc);
    if (!f)
        return rc;
    qsort(lines, n, sizeof *lines, cmp_line);
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && strcmp(lines[i].input, lines[i + 1].input) == 0)
            continue;           /* a later line names the same input */
        fputs(lines[i].text, f);
        inputs++;
    }
    rc = rl_temp_close(f, tmp, rc);
    if (rc == 0 && rename(tmp, manifest) != 0) {
        rc = -errno;
        unlink(tmp);
    }
    if (rc < 0)
        return rc;
    return inputs;
}

int rl_manifest_merge(const char *manifest, int quiet)
{
    const char *slash = strrchr(manifest, '/');
    char dir[4200], path[4400];
    Source *src = NULL;
    Lines lines = { 0 };
    size_t nsrc = 0, srccap = 0, parts = 0;
    unsigned char *seen = NULL;
    char **plans = NULL;
    size_t nplans = 0;
    int maxn = 0, missing = 0, unrecorded = 0, rc = 0, busy = 0;
    long inputs = 0;
    DIR *d;
    int const lock_fd = rl_manifest_open(manifest);

    if (lock_fd < 0) {
        fprintf(stderr, "ringlame: --merge-manifests: %s: %s\n", manifest,
                rl_manifest_strerror(lock_fd));
        return lock_fd;
    }

    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int) (slash - manifest == 0 ? 1 : slash - manifest),
                 manifest);
    else
        snprintf(dir, sizeof dir, ".");
    rc = add_source(&src, &nsrc, &srccap, manifest, 0, 0);
    d = rc == 0 ? opendir(dir) : NULL;
    if (rc == 0 && !d)
        rc = -errno;
    while (rc == 0) {
        struct dirent *e;
        int k, n;
        errno = 0;
        e = readdir(d);
        if (!e) {
            rc = -errno;
            break;
        }
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int) sizeof path)
            continue;
        if (rl_plan_is_name(e->d_name)) {
            char **v = realloc(plans, (nplans + 1) * sizeof *v);
            if (!v || !(v[nplans] = strdup(path))) {
                plans = v ? v : plans;
                rc = -ENOMEM;
                break;
            }
            plans = v;
            nplans++;
            continue;
        }
        if (part_of(e->d_name, &k, &n) != 0)
            continue;
        if (rl_manifest_in_use(path)) {
            fprintf(stderr, "ringlame: --merge-manifests: shard %d/%d is still running (%s is "
                    "locked)\n", k, n, path);
            busy++;
        }
        rc = add_source(&src, &nsrc, &srccap, path, k, n);
    }
    if (d)
        closedir(d);
    if (rc < 0) {
        fprintf(stderr, "ringlame: --merge-manifests: %s: %s\n", dir, strerror(-rc));
        goto out;
    }
    for (size_t i = 0; i < nsrc; i++)
        if (src[i].n > 0) {
            parts++;
            if (src[i].n > maxn)
                maxn = src[i].n;
        }
    if (parts == 0) {
        fprintf(stderr, "ringlame: --merge-manifests: no manifest parts (%sK-of-N%s) in %s\n",
                PART_PREFIX, PART_SUFFIX, dir);
        rc = -ENOENT;
        goto out;
    }
    /* the shares each N should have: missing ones named */
    seen = calloc((size_t) maxn + 1, 1);
    if (!seen) {
        rc = -ENOMEM;
        goto out;
    }
    for (int n = 1; n <= maxn; n++) {
        int any = 0;
        memset(seen, 0, (size_t) maxn + 1);
        for (size_t i = 0; i < nsrc; i++)
            if (src[i].n == n) {
                seen[src[i].k] = 1;
                any = 1;
            }
        for (int k = 0; any && k < n; k++)
            if (!seen[k]) {
                (void) rl_manifest_part_path(path, sizeof path, manifest, k, n);
                fprintf(stderr, "ringlame: --merge-manifests: shard %d/%d is missing (no %s)\n",
                        k, n, path);
                missing++;
            }
    }
    /* oldest file first, so that a later line wins */
    qsort(src, nsrc, sizeof *src, cmp_source);
    for (size_t i = 0; i < nsrc && rc == 0; i++) {
        rc = rl_manifest_read(src[i].path, -1, add_line, &lines);
        if (rc < 0)
            fprintf(stderr, "ringlame: --merge-manifests: %s: %s\n", src[i].path, strerror(-rc));
    }
    if (rc == 0) {
        inputs = write_merged(manifest, lines.v, lines.n);
        if (inputs < 0) {
            rc = (int) inputs;
            fprintf(stderr, "ringlame: --merge-manifests: %s: %s\n", manifest, strerror(-rc));
        }
    }
    /* the plans: every planned input must have a line (lines are sorted now) */
    for (size_t p = 0; rc == 0 && p < nplans; p++) {
        RlPlan plan;
        int here = 0;
        int const prc = rl_plan_load(&plan, plans[p]);
        if (prc < 0) {
            fprintf(stderr, "ringlame: --merge-manifests: %s: %s\n", plans[p],
                    prc == -EINVAL ? "not a shard plan" : strerror(-prc));
            unrecorded++;
            continue;
        }
        for (size_t i = 0; i < plan.n; i++) {
            Line const key = { plan.v[i].input, NULL, 0 };
            if (bsearch(&key, lines.v, lines.n, sizeof *lines.v, cmp_input) == NULL) {
                fprintf(stderr, "ringlame: --merge-manifests: %s: planned for shard %d/%d, "
                        "recorded by no part\n", plan.v[i].input, plan.v[i].shard, plan.shards);
                here++;
            }
        }
        unrecorded += here;
        if (here == 0 && missing == 0 && busy == 0) {
            /* done: a later sharded run plans the corpus anew */
            if (unlink(plans[p]) == 0 && !quiet)
                fprintf(stderr, "ringlame: --merge-manifests: every input of %s is recorded: "
                        "plan removed\n", plans[p]);
        }
        rl_plan_free(&plan);
    }
    missing += busy;
    if (rc == 0 && !quiet)
        fprintf(stderr, "ringlame: --merge-manifests: %zu part%s merged into %s: %ld input%s%s%s\n",
                parts, parts == 1 ? "" : "s", manifest, inputs, inputs == 1 ? "" : "s",
                missing ? " (shards missing)" : "", unrecorded ? " (planned inputs missing)" : "");
out:
    for (size_t i = 0; i < lines.n; i++) {
        free(lines.v[i].input);
        free(lines.v[i].text);
    }
    for (size_t i = 0; i < nsrc; i++)
        free(src[i].path);
    free(lines.v);
    free(src);
    free(seen);
    for (size_t i = 0; i < nplans; i++)
        free(plans[i]);
    free(plans);
    close(lock_fd);
    return rc < 0 ? rc : missing + unrecorded;
}
