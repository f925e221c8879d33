/* ringlame unit test: the MP3 output writer (temporary file, rename on commit,
 * removal on abort, stdout and devices not seekable).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mp3_writer.h"

static int passed, failed;

#define CHECK(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL line %d: ", __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static long read_file(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f)
        return -1;
    n = (long)fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

int main(void)
{
    char dir[] = "/tmp/rl_mp3w_XXXXXX";
    char path[512], err[512];
    static uint8_t big[200000], back[300000];
    RlMp3Writer *w;
    struct stat st;
    int rc;

    if (!mkdtemp(dir)) {
        printf("mkdtemp failed\n0 passed, 1 failed\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/out.mp3", dir);
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 7 + 3);

    /* commit: nothing at the final path until close, then the bytes */
    rc = rl_mp3_open(&w, path, err, sizeof err);
    CHECK(rc == 0 && w, "open: %d %s", rc, err);
    if (w) {
        CHECK(rl_mp3_is_seekable(w) == 1, "file is seekable");
        CHECK(rl_mp3_write(w, big, 100) == 0, "small write");
        CHECK(rl_mp3_write(w, big + 100, sizeof big - 100) == 0, "big write");
        CHECK(rl_mp3_write(w, (const uint8_t *)"END", 3) == 0, "tail write");
        CHECK(rl_mp3_write_at(w, 0, (const uint8_t *)"TAG", 3) == 0, "write_at 0");
        CHECK(stat(path, &st) != 0, "final path absent before commit");
        CHECK(count_entries(dir) == 1, "one temporary file");
        CHECK(rl_mp3_close(w, 1) == 0, "commit");
        CHECK(count_entries(dir) == 1, "only the output remains");
        CHECK(read_file(path, back, sizeof back) == (long)sizeof big + 3, "size after commit");
        CHECK(memcmp(back, "TAG", 3) == 0 && memcmp(back + 3, big + 3, sizeof big - 3) == 0
              && memcmp(back + sizeof big, "END", 3) == 0, "content after commit");
    }

    /* abort over an existing file: the old file stays, no temporary left */
    rc = rl_mp3_open(&w, path, err, sizeof err);
    CHECK(rc == 0, "reopen");
    if (rc == 0) {
        rl_mp3_write(w, (const uint8_t *)"partial", 7);
        CHECK(rl_mp3_close(w, 0) == 0, "abort");
        CHECK(count_entries(dir) == 1, "no temporary after abort");
        CHECK(read_file(path, back, sizeof back) == (long)sizeof big + 3, "old file untouched");
    }

    /* abort with no previous file leaves nothing */
    unlink(path);
    rc = rl_mp3_open(&w, path, err, sizeof err);
    if (rc == 0) {
        rl_mp3_write(w, big, 5000);
        rl_mp3_close(w, 0);
    }
    CHECK(count_entries(dir) == 0, "nothing left after abort");

    /* unwritable place: error with the path in the message */
    snprintf(path, sizeof path, "%s/missing/out.mp3", dir);
    w = (RlMp3Writer *)1;
    err[0] = 0;
    rc = rl_mp3_open(&w, path, err, sizeof err);
    CHECK(rc < 0 && w == NULL && strstr(err, "missing/out.mp3") != NULL, "open error: %d '%s'", rc, err);

    /* stdout: never seekable */
    rc = rl_mp3_open(&w, "-", err, sizeof err);
    CHECK(rc == 0, "open stdout");
    if (rc == 0) {
        CHECK(rl_mp3_is_seekable(w) == 0, "stdout not seekable");
        CHECK(rl_mp3_write_at(w, 0, big, 4) == -ESPIPE, "stdout write_at -ESPIPE");
        CHECK(rl_mp3_close(w, 1) == 0, "close stdout");
    }

    /* a character device is written in place and not seekable */
    rc = rl_mp3_open(&w, "/dev/null", err, sizeof err);
    CHECK(rc == 0, "open /dev/null: %s", err);
    if (rc == 0) {
        CHECK(rl_mp3_write(w, big, 1000) == 0, "write /dev/null");
        CHECK(rl_mp3_write_at(w, 0, big, 4) == -ESPIPE, "/dev/null write_at");
        CHECK(rl_mp3_close(w, 1) == 0, "close /dev/null");
        CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "/dev/null still a device");
    }

    rmdir(dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
