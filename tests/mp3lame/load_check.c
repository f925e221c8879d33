/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: loading the drop-in libmp3lame starts no thread: the threads
 * of this process (/proc/self/task) before and after dlopen, and after
 * lame_init (which makes none either: the pool is lame_init_params').
 * usage: load_check LIBMP3LAME.SO */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>

static int threads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    int before, after_load, after_init;
    void *h, *(*init)(void), *g;
    int (*close_fn)(void *);

    if (argc != 2) {
        fprintf(stderr, "usage: load_check LIBMP3LAME.SO\n");
        return 2;
    }
    before = threads();
    if (before < 1) {
        fprintf(stderr, "skip: /proc/self/task not readable\n");
        return 77;
    }
    h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "FAIL: %s\n", dlerror());
        return 1;
    }
    after_load = threads();
    *(void **) &init = dlsym(h, "lame_init");
    *(void **) &close_fn = dlsym(h, "lame_close");
    if (!init || !close_fn) {
        fprintf(stderr, "FAIL: lame_init/lame_close not exported\n");
        return 1;
    }
    g = init();
    after_init = threads();
    close_fn(g);
    printf("threads: %d before, %d after dlopen, %d after lame_init\n", before, after_load,
           after_init);
    if (after_load != before || after_init != before) {
        printf("FAIL: the library started a thread before lame_init_params\n");
        return 1;
    }
    printf("ok\n");
    return 0;
}
