/* ringlame test helper (LD_PRELOAD): makes the Nth allocation that
 * ringlame's own code asks for fail, to check that every allocation
 * failure ends in a clear error with no output, never a crash or a hang
 * (dav1d's approach).  Only calls from the main executable count: system
 * libraries (libsndfile, libc's own helpers) have their own contracts.
 *   RL_FAIL_ALLOC_AT=N     fail the Nth counted call (malloc, calloc, realloc)
 *   RL_FAIL_ALLOC_REPORT=1 print "allocations: <count>" on exit
 * Used by tests/alloc_fail.sh. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static long fail_at = -1;
static long count;
static uintptr_t text_lo, text_hi;      /* the executable's code */

static int find_exe(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void) size;
    (void) arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            text_lo = info->dlpi_addr + ph->p_vaddr;
            text_hi = text_lo + ph->p_memsz;
        }
    }
    return 1;                           /* the first object is the executable */
}

__attribute__((constructor)) static void fail_alloc_init(void)
{
    const char *s = getenv("RL_FAIL_ALLOC_AT");
    dl_iterate_phdr(find_exe, NULL);
    fail_at = s ? atol(s) : -1;
}

__attribute__((destructor)) static void fail_alloc_report(void)
{
    if (getenv("RL_FAIL_ALLOC_REPORT")) {
        char buf[64];
        int const k = snprintf(buf, sizeof buf, "allocations: %ld\n", count);
        if (write(STDERR_FILENO, buf, (size_t) k) < 0)
            return;
    }
}

static int fail_now(const void *caller)
{
    uintptr_t const c = (uintptr_t) caller;
    if (c < text_lo || c >= text_hi)
        return 0;
    return __atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST) == fail_at;
}

void *malloc(size_t n)
{
    if (fail_now(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    if (fail_now(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    if (fail_now(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, n);
}
