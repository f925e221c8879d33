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
 * a read that never returns (a FUSE-like source that stalls: only the
 * process's end ends it; io_uring is refused, as above):
 *   RL_STALL_READ=TEXT     every read()/pread() of a file whose path (its
 *                          /proc/self/fd link) contains TEXT sleeps forever
 * a full disk under one file (the manifest's appends):
 *   RL_FAIL_WRITE_MATCH=TEXT with RL_FAIL_WRITE_AT=N: the Nth write() to a
 *                          file whose path contains TEXT writes half of its
 *                          bytes and returns that short count; every later
 *                          write() to such a file fails with ENOSPC
 * and thread set-up (only calls from the main executable count):
 *   RL_FAIL_PTHREAD_AT=N   the Nth pthread_create (EAGAIN), pthread_mutex_init
 *                          or pthread_cond_init (ENOMEM) fails
 *   RL_FAIL_PTHREAD_REPORT=1 print "pthread inits: <count>" on exit
 * and the io_uring ring itself (a build with liburing):
 *   RL_FAIL_URING_AT=N     the Nth io_uring_submit_and_wait submits what is
 *                          queued (the kernel then holds those reads and
 *                          writes) and returns -EIO instead of waiting; that
 *                          ring's io_uring_queue_exit then checks that the
 *                          kernel holds nothing any more (every submission
 *                          has its completion) and aborts if it does: the
 *                          caller freed buffers the kernel may still write
 *   RL_FAIL_URING_REPORT=1 print "uring waits: <count>" on exit
 * Used by tests/inject_faults.sh. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef RL_FI_URING
#include <liburing.h>
#endif

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static long fail_at = -1;
static long count;
static long fail_read_at = -1;
static long fail_read_from;
static long read_count;
static long fail_pthread_at = -1;
static long pthread_count;
static long fail_uring_at = -1;
static long uring_count;
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
    s = getenv("RL_FAIL_PTHREAD_AT");
    fail_pthread_at = s ? atol(s) : -1;
    s = getenv("RL_FAIL_URING_AT");
    fail_uring_at = s ? atol(s) : -1;
}

/* "<key>: <n>" on stderr when the environment asks for it. */
static void report(const char *env, const char *key, long n)
{
    if (getenv(env)) {
        char buf[64];
        int const k = snprintf(buf, sizeof buf, "%s: %ld\n", key, n);
        (void) !write(STDERR_FILENO, buf, (size_t) k);
    }
}

__attribute__((destructor)) static void fail_alloc_report(void)
{
    report("RL_FAIL_ALLOC_REPORT", "allocations", count);
    report("RL_FAIL_READ_REPORT", "reads", read_count);
    report("RL_FAIL_PTHREAD_REPORT", "pthread inits", pthread_count);
    report("RL_FAIL_URING_REPORT", "uring waits", uring_count);
}

#ifdef RL_FI_URING
/* What was submitted on each ring, and whether a failure was injected there
 * (a process has few rings at once: a small table keyed by the ring). */
typedef struct RingUse {
    struct io_uring *ring;
    unsigned submitted;
    int failed;
} RingUse;
static RingUse rings[16];
static pthread_mutex_t rings_mu = PTHREAD_MUTEX_INITIALIZER;

static RingUse *ring_use(struct io_uring *ring, int add)
{
    RingUse *free_one = NULL;
    for (int i = 0; i < 16; i++) {
        if (rings[i].ring == ring)
            return &rings[i];
        if (!rings[i].ring && !free_one)
            free_one = &rings[i];
    }
    if (add && free_one) {
        free_one->ring = ring;
        free_one->submitted = 0;
        free_one->failed = 0;
    }
    return add ? free_one : NULL;
}

#endif

/* ---- reads ---- */

struct io_uring;
extern ssize_t __read(int fd, void *buf, size_t n);
extern ssize_t __libc_pread(int fd, void *buf, size_t n, off_t off);

/* 1 if fd's path contains text */
static int fd_path_has(int fd, const char *text)
{
    char link[64], path[4096];
    ssize_t n;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof path - 1);
    if (n <= 0)
        return 0;
    path[n] = '\0';
    return strstr(path, text) != NULL;
}

static void stall_if_asked(int fd)
{
    const char *text = getenv("RL_STALL_READ");
    if (text && *text && fd_path_has(fd, text))
        for (;;)
            sleep(1000);
}

extern ssize_t __write(int fd, const void *buf, size_t n);
static long write_count;

ssize_t write(int fd, const void *buf, size_t n)
{
    const char *text = getenv("RL_FAIL_WRITE_MATCH"), *at = getenv("RL_FAIL_WRITE_AT");
    if (text && *text && at && fd_path_has(fd, text)) {
        long const k = __atomic_add_fetch(&write_count, 1, __ATOMIC_SEQ_CST);
        if (k == atol(at) && n > 1)
            return __write(fd, buf, n / 2);
        if (k > atol(at)) {
            errno = ENOSPC;
            return -1;
        }
    }
    return __write(fd, buf, n);
}

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
    stall_if_asked(fd);
    if (read_fails_now(fail_read_from > 0 ? lseek(fd, 0, SEEK_CUR) : 0)) {
        errno = EIO;
        return -1;
    }
    return __read(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    stall_if_asked(fd);
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
    if (fail_read_at >= 0 || getenv("RL_FAIL_READ_REPORT") || getenv("RL_STALL_READ"))
        return -EPERM;
    {
        typedef int (*init_fn)(unsigned, struct io_uring *, unsigned);
        init_fn real = (init_fn) dlsym(RTLD_NEXT, "io_uring_queue_init");
        int const rc = real ? real(entries, ring, flags) : -ENOSYS;
#ifdef RL_FI_URING
        if (rc == 0) {           /* a new ring (maybe at an old one's address) */
            pthread_mutex_lock(&rings_mu);
            RingUse *u = ring_use(ring, 1);
            if (u)
                u->submitted = 0, u->failed = 0;
            pthread_mutex_unlock(&rings_mu);
        }
#endif
        return rc;
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

/* ---- thread set-up ---- */

static int from_exe(const void *caller)
{
    uintptr_t const c = (uintptr_t) caller;
    return c >= text_lo && c < text_hi;
}

static int pthread_fails_now(const void *caller)
{
    if (!from_exe(caller))
        return 0;
    return __atomic_add_fetch(&pthread_count, 1, __ATOMIC_SEQ_CST) == fail_pthread_at;
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*mutex_init_fn)(pthread_mutex_t *, const pthread_mutexattr_t *);
typedef int (*cond_init_fn)(pthread_cond_t *, const pthread_condattr_t *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    create_fn real;
    if (pthread_fails_now(__builtin_return_address(0)))
        return EAGAIN;
    real = (create_fn) dlsym(RTLD_NEXT, "pthread_create");
    return real ? real(t, attr, fn, arg) : ENOSYS;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
    mutex_init_fn real;
    if (pthread_fails_now(__builtin_return_address(0)))
        return ENOMEM;
    real = (mutex_init_fn) dlsym(RTLD_NEXT, "pthread_mutex_init");
    return real ? real(m, attr) : ENOSYS;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
    cond_init_fn real;
    if (pthread_fails_now(__builtin_return_address(0)))
        return ENOMEM;
    /* the current version, as the executable links it */
    real = (cond_init_fn) dlvsym(RTLD_NEXT, "pthread_cond_init", "GLIBC_2.3.2");
    if (!real)
        real = (cond_init_fn) dlsym(RTLD_NEXT, "pthread_cond_init");
    return real ? real(c, attr) : ENOSYS;
}

/* ---- the io_uring ring ---- */

#ifdef RL_FI_URING
static void count_submitted(struct io_uring *ring, int n, int failed)
{
    RingUse *u;
    pthread_mutex_lock(&rings_mu);
    u = ring_use(ring, 1);
    if (u) {
        if (n > 0)
            u->submitted += (unsigned) n;
        u->failed |= failed;
    }
    pthread_mutex_unlock(&rings_mu);
}

typedef int (*submit_fn)(struct io_uring *);
typedef int (*submit_wait_fn)(struct io_uring *, unsigned);
typedef void (*exit_fn)(struct io_uring *);

int io_uring_submit(struct io_uring *ring)
{
    submit_fn real = (submit_fn) dlsym(RTLD_NEXT, "io_uring_submit");
    int const rc = real ? real(ring) : -ENOSYS;
    count_submitted(ring, rc, 0);
    return rc;
}

int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)
{
    long const n = __atomic_add_fetch(&uring_count, 1, __ATOMIC_SEQ_CST);
    int rc;
    if (n == fail_uring_at) {
        /* the requests go to the kernel, then the ring "fails" */
        submit_fn real = (submit_fn) dlsym(RTLD_NEXT, "io_uring_submit");
        rc = real ? real(ring) : -ENOSYS;
        count_submitted(ring, rc, 1);
        return -EIO;
    }
    {
        submit_wait_fn real = (submit_wait_fn) dlsym(RTLD_NEXT, "io_uring_submit_and_wait");
        rc = real ? real(ring, wait_nr) : -ENOSYS;
    }
    count_submitted(ring, rc, 0);
    return rc;
}

void io_uring_queue_exit(struct io_uring *ring)
{
    exit_fn real = (exit_fn) dlsym(RTLD_NEXT, "io_uring_queue_exit");
    RingUse *u;
    pthread_mutex_lock(&rings_mu);
    u = ring_use(ring, 0);
    if (u) {
        /* every submission posts exactly one completion (the ring's tail
         * counts them from 0): a difference is still in the kernel */
        unsigned const posted = __atomic_load_n(ring->cq.ktail, __ATOMIC_ACQUIRE);
        unsigned const held = u->submitted - posted;
        int const failed = u->failed;
        u->ring = NULL;
        pthread_mutex_unlock(&rings_mu);
        if (failed && held != 0) {
            char buf[160];
            int const k = snprintf(buf, sizeof buf, "fault_inject: io_uring_queue_exit after the "
                                   "injected failure with %u requests still in the kernel\n", held);
            (void) !write(STDERR_FILENO, buf, (size_t) k);
            abort();
        }
    }
    else
        pthread_mutex_unlock(&rings_mu);
    if (real)
        real(ring);
}
#endif
