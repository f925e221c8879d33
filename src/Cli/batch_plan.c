/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame --batch --shard K/N: the stored shard plan (batch_plan.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_manifest.h"
#include "batch_plan.h"

#define PLAN_PREFIX ".ringlame-plan."
#define PLAN_SUFFIX ".jsonl"

int rl_plan_path(char *buf, size_t len, const char *manifest, int n)
{
    const char *slash = strrchr(manifest, '/');
    int const dir = slash ? (int) (slash - manifest + 1) : 0;
    int const w = snprintf(buf, len, "%.*s" PLAN_PREFIX "%d" PLAN_SUFFIX, dir, manifest, n);
    return w >= 0 && (size_t) w < len ? 0 : -ENAMETOOLONG;
}

int rl_plan_is_name(const char *name)
{
    size_t const lp = strlen(PLAN_PREFIX), ls = strlen(PLAN_SUFFIX), n = strlen(name);
    if (n <= lp + ls || strncmp(name, PLAN_PREFIX, lp) != 0 || strcmp(name + n - ls, PLAN_SUFFIX) != 0)
        return 0;
    for (size_t i = lp; i < n - ls; i++)
        if (name[i] < '0' || name[i] > '9')
            return 0;
    return 1;
}

static int cmp_entry(const void *x, const void *y)
{
    return strcmp(((const RlPlanEntry *) x)->input, ((const RlPlanEntry *) y)->input);
}

void rl_plan_free(RlPlan *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].input);
    free(p->v);
    memset(p, 0, sizeof *p);
}

int rl_plan_make(RlPlan *p, const RlBatchList *l, int n)
{
    int *share = malloc((l->n + 1) * sizeof *share);
    memset(p, 0, sizeof *p);
    p->shards = n;
    p->v = calloc(l->n + 1, sizeof *p->v);
    if (!share || !p->v || rl_batch_shares(l, n, share) < 0) {
        free(share);
        rl_plan_free(p);
        return -ENOMEM;
    }
    for (size_t i = 0; i < l->n; i++) {
        RlPlanEntry *e = &p->v[p->n];
        e->input = strdup(l->v[i].in);
        if (!e->input) {
            free(share);
            rl_plan_free(p);
            return -ENOMEM;
        }
        e->size = l->v[i].size;
        e->mtime_ns = l->v[i].mtime_ns;
        e->shard = share[i];
        p->n++;
    }
    free(share);
    qsort(p->v, p->n, sizeof *p->v, cmp_entry);
    return 0;
}

int rl_plan_store(const RlPlan *p, const char *path)
{
    char tmp[4200];
    int rc = 0;
    int64_t bytes = 0;
    FILE *f = rl_temp_open(path, "tmp", tmp, sizeof tmp, &rc);
    if (!f)
        return rc;
    for (size_t i = 0; i < p->n; i++)
        bytes += p->v[i].size;
    fprintf(f, "{\"plan\":%d,\"files\":%zu,\"bytes\":%lld}\n", p->shards, p->n, (long long) bytes);
    for (size_t i = 0; i < p->n && rc == 0; i++) {
        char *name = rl_json_string(p->v[i].input);
        if (!name) {
            rc = -ENOMEM;
            break;
        }
        fprintf(f, "{\"input\":%s,\"size\":%lld,\"mtime_ns\":%lld,\"shard\":%d}\n", name,
                (long long) p->v[i].size, (long long) p->v[i].mtime_ns, p->v[i].shard);
        free(name);
    }
    rc = rl_temp_close(f, tmp, rc);
    if (rc < 0)
        return rc;
    /* link, not rename: a plan that is there already stays */
    rc = link(tmp, path) == 0 ? 1 : errno == EEXIST ? 0 : -errno;
    unlink(tmp);
    return rc;
}

typedef struct Reader {
    RlPlan *p;
    size_t cap;
    int lines, bad;
} Reader;

static int plan_line(RlPlan *p, size_t *cap, const char *line, int first)
{
    static const char *const head[] = { "plan", "files" };
    static const char *const keys[] = { "input", "size", "mtime_ns", "shard" };
    char *str[4];
    int64_t num[4];
    int found;
    if (first) {
        found = rl_json_fields(line, head, 2, str, num);
        if (found < 0 || !(found & 1) || num[0] < 1 || num[0] > 100000)
            return -EINVAL;
        free(str[0]);
        free(str[1]);
        p->shards = (int) num[0];
        return 0;
    }
    found = rl_json_fields(line, keys, 4, str, num);
    if (found != 15 || !str[0] || str[1] || str[2] || str[3] || num[3] < 0
        || num[3] >= p->shards
        || (p->n > 0 && strcmp(p->v[p->n - 1].input, str[0]) >= 0)) {
        if (found >= 0)
            for (int i = 0; i < 4; i++)
                free(str[i]);
        return -EINVAL;
    }
    if (rl_grow((void **) &p->v, cap, p->n, sizeof *p->v, 256) < 0) {
        free(str[0]);
        return -ENOMEM;
    }
    p->v[p->n].input = str[0];
    p->v[p->n].size = num[1];
    p->v[p->n].mtime_ns = num[2];
    p->v[p->n].shard = (int) num[3];
    p->n++;
    return 0;
}

int rl_plan_load(RlPlan *p, const char *path)
{
    struct stat st;
    FILE *f;
    char *line = NULL;
    size_t lcap = 0, cap = 0;
    ssize_t len;
    int rc = 0, first = 1;
    int const fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    memset(p, 0, sizeof *p);
    if (fd < 0)
        return -errno;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -EINVAL;
    }
    f = fdopen(fd, "r");
    if (!f) {
        rc = -errno;
        close(fd);
        return rc;
    }
    while (rc == 0 && (len = getline(&line, &lcap, f)) >= 0) {
        if (len == 0 || line[len - 1] != '\n')
            rc = -EINVAL;       /* the plan is written whole, then linked: never torn */
        else
            rc = plan_line(p, &cap, line, first);
        first = 0;
    }
    if (rc == 0 && (first || ferror(f)))
        rc = first ? -EINVAL : -EIO;
    free(line);
    fclose(f);
    if (rc < 0)
        rl_plan_free(p);
    return rc;
}

const RlPlanEntry *rl_plan_find(const RlPlan *p, const char *input)
{
    RlPlanEntry const key = { (char *) input, 0, 0, 0 };
    if (p->n == 0)
        return NULL;
    return bsearch(&key, p->v, p->n, sizeof *p->v, cmp_entry);
}
