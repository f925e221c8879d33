/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* A libmp3lame loaded by path with dlopen(RTLD_LOCAL | RTLD_NOW), so that two
 * of them (Debian's and the drop-in) live side by side in one process: one
 * typed pointer per function the tests call, and a check that every one of
 * the 233 exported names resolves. */
#ifndef RL_TEST_MP3LAME_LIB_H
#define RL_TEST_MP3LAME_LIB_H

#include "lame_abi.h"

#define RLT_LAME_SYMBOL_COUNT 233
extern const char *const rlt_lame_symbols[RLT_LAME_SYMBOL_COUNT];

struct rlt_lame {
    void *handle;
    const char *path;
#define RLT_POINTER(ret, name, params) ret(*name) params;
    RLT_LAME_FUNCTIONS(RLT_POINTER)
#undef RLT_POINTER
};

/* Loads the library at path into *lib.  0, or -ENOENT when it cannot be
 * loaded (the message names the path and dlerror's reason) or -ENOSYS when
 * one of the 233 functions is missing (named in the message). */
int rlt_lame_open(struct rlt_lame *lib, const char *path);
void rlt_lame_close(struct rlt_lame *lib);
/* The function called name in lib, or NULL. */
void *rlt_lame_symbol(const struct rlt_lame *lib, const char *name);

#endif
