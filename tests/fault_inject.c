/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame test helper (LD_PRELOAD): makes the Nth allocation that
 * ringlame's own code asks for fail, or the Nth read, to check that every
 * such failure ends in a clear error with no output, never a crash, a hang
 * or a wrong file (dav1d's approach for the allocations).  Only calls from the main executable count: system
 * libraries (libsndfile, libc's own helpers) have their own contracts.
 *   RL_FAIL_ALLOC_AT=N     fail the Nth counted call (malloc, calloc, realloc)
 *   RL_FAIL_ALLOC_REPORT=1 print "allocations: <count>" on exit
 * The same library fails reads, for a read error in the middle of the input:
 *   RL_FAIL_READ_AT=N      the Nth read()/pread() of the process (from any
 *                          caller: libsndfile reads too) fails with EIO, and
 *                          io_uring is refused, so that reads go through them
 *   RL_FAIL_READ_FROM=B    count only reads at file offsets >= B: an error in
 *                          the middle of the input, past its header (libsndfile
 *                          may take a header it could not read to its end for
 *                          a shorter header: its open succeeds with what it read)
 *   RL_FAIL_READ_REPORT=1  print "reads: <count>" on exit
 * Used by tests/inject_faults.sh. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <dlfcn.h>
#include <link.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static long fail_at = -1;
static long count;
static long fail_read_at = -1;
static long fail_read_from;
static long read_count;
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
    s = getenv("RL_FAIL_READ_AT");
    fail_read_at = s ? atol(s) : -1;
    s = getenv("RL_FAIL_READ_FROM");
    fail_read_from = s ? atol(s) : 0;
}

__attribute__((destructor)) static void fail_alloc_report(void)
{
    if (getenv("RL_FAIL_ALLOC_REPORT")) {
        char buf[64];
        int const k = snprintf(buf, sizeof buf, "allocations: %ld\n", count);
        if (write(STDERR_FILENO, buf, (size_t) k) < 0)
            return;
    }
    if (getenv("RL_FAIL_READ_REPORT")) {
        char buf[64];
        int const k = snprintf(buf, sizeof buf, "reads: %ld\n", read_count);
        if (write(STDERR_FILENO, buf, (size_t) k) < 0)
            return;
    }
}

/* ---- reads ---- */

struct io_uring;
extern ssize_t __read(int fd, void *buf, size_t n);
extern ssize_t __libc_pread(int fd, void *buf, size_t n, off_t off);

static int read_fails_now(off_t off)
{
    if (fail_read_at < 0 && !getenv("RL_FAIL_READ_REPORT"))
        return 0;
    if (off < (off_t) fail_read_from)
        return 0;
    return __atomic_add_fetch(&read_count, 1, __ATOMIC_SEQ_CST) == fail_read_at;
}

ssize_t read(int fd, void *buf, size_t n)
{
    if (read_fails_now(fail_read_from > 0 ? lseek(fd, 0, SEEK_CUR) : 0)) {
        errno = EIO;
        return -1;
    }
    return __read(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    if (read_fails_now(off)) {
        errno = EIO;
        return -1;
    }
    return __libc_pread(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off) __attribute__((alias("pread")));

/* io_uring reads cannot be failed from here: refuse the ring (the thread
 * backend then reads with pread) while read failures are asked for */
int io_uring_queue_init(unsigned entries, struct io_uring *ring, unsigned flags)
{
    (void) entries;
    (void) ring;
    (void) flags;
    if (fail_read_at >= 0 || getenv("RL_FAIL_READ_REPORT"))
        return -EPERM;
    {
        typedef int (*init_fn)(unsigned, struct io_uring *, unsigned);
        init_fn real = (init_fn) dlsym(RTLD_NEXT, "io_uring_queue_init");
        return real ? real(entries, ring, flags) : -ENOSYS;
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
