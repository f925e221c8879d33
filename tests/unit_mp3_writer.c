/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: the MP3 output writer (temporary file, rename on commit,
 * removal on abort, stdout and devices not seekable).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#include "mp3_writer.h"

/* Writes n bytes of p to path through the writer and commits. */
static int write_output(const char *path, const uint8_t *p, size_t n)
{
    RlMp3Writer *w = NULL;
    char err[512];
    int rc = rl_mp3_open(&w, path, err, sizeof err);
    if (rc < 0)
        return rc;
    rc = rl_mp3_write(w, p, n);
    if (rc < 0) {
        (void) rl_mp3_close(w, 0);
        return rc;
    }
    return rl_mp3_close(w, 1);
}

/* What happens to an existing output: its mode and owner carry over, a
 * user who cannot write it cannot replace it, a hard link keeps the old
 * content, and any legal name works (no temporary suffix). */
static void check_existing_output(const char *dir, const uint8_t *big)
{
    char path[512], link2[512], longname[600];
    uint8_t back[64];
    struct stat st;
    int fd;

    snprintf(path, sizeof path, "%s/existing.mp3", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && write(fd, "OLD", 3) == 3 && close(fd) == 0, "create existing output");
    CHECK(chown(path, 1, 2) == 0 || geteuid() != 0, "give it another owner");
    snprintf(link2, sizeof link2, "%s/hardlink.mp3", dir);
    CHECK(link(path, link2) == 0, "hard link");
    CHECK(write_output(path, big, 10) == 0, "replace");
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600, "mode 0600 kept: %o",
          (unsigned) (st.st_mode & 07777));
    if (geteuid() == 0)
        CHECK(st.st_uid == 1 && st.st_gid == 2, "owner kept: %d:%d", (int) st.st_uid, (int) st.st_gid);
    CHECK(rl_test_read_file(path, back, sizeof back) == 10 && memcmp(back, big, 10) == 0, "new content");
    CHECK(rl_test_read_file(link2, back, sizeof back) == 3 && memcmp(back, "OLD", 3) == 0,
          "the other hard link keeps the old content");
    unlink(link2);

    /* a read-only file of another user in a world-writable directory:
     * an unprivileged user may not replace it (lame could not open it) */
    if (geteuid() == 0) {
        pid_t pid;
        int status;
        CHECK(chown(path, 0, 0) == 0 && chmod(path, 0444) == 0 && chmod(dir, 01777) == 0,
              "read-only root file in a sticky world-writable directory");
        pid = fork();
        if (pid == 0) {
            RlMp3Writer *w = NULL;
            char err[512];
            int rc;
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(2);
            rc = rl_mp3_open(&w, path, err, sizeof err);
            _exit(rc == -EACCES && w == NULL && strstr(err, "existing.mp3") != NULL ? 0 : 1);
        }
        CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "another user is refused: status 0x%x", status);
        CHECK(rl_test_read_file(path, back, sizeof back) == 10 && memcmp(back, big, 10) == 0,
              "the refused output is untouched");
        CHECK(rl_test_count_entries(dir) == 1, "nothing left by the refusal");
        CHECK(chmod(dir, 0700) == 0, "directory mode back");
    }
    unlink(path);

    /* the longest legal name: nothing is appended to it */
    memset(longname, 0, sizeof longname);
    snprintf(longname, sizeof longname, "%s/", dir);
    memset(longname + strlen(longname), 'x', 250);
    CHECK(write_output(longname, big, 10) == 0, "a 250-character file name");
    CHECK(rl_test_read_file(longname, back, sizeof back) == 10, "written under that name");
    unlink(longname);
}

int main(void)
{
    char dir[256], path[512], err[512];
    static uint8_t big[200000], back[300000];
    RlMp3Writer *w;
    struct stat st;
    int rc;

    if (rl_test_tmpdir(dir, sizeof dir, "unit-mp3-writer") != 0)
        rl_test_fatal("cannot create a temporary directory");
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
        CHECK(rl_test_count_entries(dir) == 0, "no name while writing (unnamed file)");
        CHECK(rl_mp3_close(w, 1) == 0, "commit");
        CHECK(rl_test_count_entries(dir) == 1, "only the output remains");
        CHECK(rl_test_read_file(path, back, sizeof back) == (long)sizeof big + 3, "size after commit");
        CHECK(memcmp(back, "TAG", 3) == 0 && memcmp(back + 3, big + 3, sizeof big - 3) == 0
              && memcmp(back + sizeof big, "END", 3) == 0, "content after commit");
    }

    /* abort over an existing file: the old file stays, no temporary left */
    rc = rl_mp3_open(&w, path, err, sizeof err);
    CHECK(rc == 0, "reopen");
    if (rc == 0) {
        rl_mp3_write(w, (const uint8_t *)"partial", 7);
        CHECK(rl_mp3_close(w, 0) == 0, "abort");
        CHECK(rl_test_count_entries(dir) == 1, "no temporary after abort");
        CHECK(rl_test_read_file(path, back, sizeof back) == (long)sizeof big + 3, "old file untouched");
    }

    /* abort with no previous file leaves nothing */
    unlink(path);
    rc = rl_mp3_open(&w, path, err, sizeof err);
    if (rc == 0) {
        rl_mp3_write(w, big, 5000);
        rl_mp3_close(w, 0);
    }
    CHECK(rl_test_count_entries(dir) == 0, "nothing left after abort");

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

    check_existing_output(dir, big);

    rmdir(dir);
    return rl_test_done();
}
