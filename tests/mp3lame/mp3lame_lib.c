/* SPDX-License-Identifier: LGPL-2.0-or-later */
#include "mp3lame_lib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

void *rlt_lame_symbol(const struct rlt_lame *lib, const char *name)
{
    return dlsym(lib->handle, name);
}

int rlt_lame_open(struct rlt_lame *lib, const char *path)
{
    memset(lib, 0, sizeof *lib);
    lib->path = path;
    lib->handle = dlopen(path, RTLD_LOCAL | RTLD_NOW);
    if (!lib->handle) {
        fprintf(stderr, "%s: cannot load: %s\n", path, dlerror());
        return -ENOENT;
    }
    for (int i = 0; i < RLT_LAME_SYMBOL_COUNT; i++) {
        if (!rlt_lame_symbol(lib, rlt_lame_symbols[i])) {
            fprintf(stderr, "%s: does not export %s\n", path, rlt_lame_symbols[i]);
            rlt_lame_close(lib);
            return -ENOSYS;
        }
    }
    /* dlsym returns void *; POSIX guarantees it converts to a function pointer */
#define RLT_RESOLVE(ret, name, params) *(void **)&lib->name = rlt_lame_symbol(lib, #name);
    RLT_LAME_FUNCTIONS(RLT_RESOLVE)
#undef RLT_RESOLVE
    return 0;
}

void rlt_lame_close(struct rlt_lame *lib)
{
    if (lib->handle)
        dlclose(lib->handle);
    lib->handle = NULL;
}
