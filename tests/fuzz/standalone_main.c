/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz targets without libFuzzer: runs a target's
 * LLVMFuzzerTestOneInput once on every file named on the command line, or
 * in a folder named there (not recursive; names starting with '.' and
 * README* are skipped; files in name order).  A missing folder is reported
 * and skipped, so that an empty regress/<target>/ (git keeps no empty
 * folders) is not an error; no input at all is (exit 1: the test would
 * check nothing).  Exit 0 when every input ran; a finding
 * aborts (or crashes) the process, which the test reports as a failure.
 * An input that runs longer than $RL_FUZZ_INPUT_TIMEOUT seconds (default 60;
 * libFuzzer's -timeout in tests/fuzz/run.sh is 10) is a hang: exit 1.
 *
 *   fuzz_pcm_standalone tests/fuzz/corpus/pcm tests/fuzz/regress/pcm
 *
 * CTest runs one per target (label fuzz_regress, tests/CMakeLists.txt). */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *volatile current = "";
static unsigned input_timeout = 60;

static void on_alarm(int sig)
{
    static const char msg[] = "standalone: the input ran past the time limit (a hang): ";
    const char *p = current;
    size_t n = 0;
    (void)sig;
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    while (p[n])
        n++;
    (void)!write(STDERR_FILENO, p, n);
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(1);
}

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf;
    long len;

    if (!fp) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    /* an exact-size heap copy, as libFuzzer passes it: overreads show
     * under a sanitizer */
    buf = malloc(len > 0 ? (size_t)len : 1);
    if (!buf || fread(buf, 1, (size_t)len, fp) != (size_t)len) {
        free(buf);
        fclose(fp);
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    fclose(fp);
    printf("running %s (%ld bytes)\n", path, len);
    fflush(stdout);
    current = path;
    alarm(input_timeout);
    LLVMFuzzerTestOneInput(buf, (size_t)len);
    alarm(0);
    free(buf);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int bad = 0;

    if (!d) {
        printf("skipping %s (no such folder)\n", dir);
        return 0;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap * 2 + 16) * sizeof *names);
            if (!nn)
                abort();
            names = nn;
        }
        names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (!names[n])
            abort();
        sprintf(names[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) != 0)
                bad = 1;
            else
                ++*count;
        }
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int i, count = 0, bad = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
        return 2;
    }
    if (getenv("RL_FUZZ_INPUT_TIMEOUT") && atoi(getenv("RL_FUZZ_INPUT_TIMEOUT")) > 0)
        input_timeout = (unsigned)atoi(getenv("RL_FUZZ_INPUT_TIMEOUT"));
    signal(SIGALRM, on_alarm);
    for (i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            bad |= run_dir(argv[i], &count);
        else if (stat(argv[i], &st) == 0) {
            if (run_file(argv[i]) != 0)
                bad = 1;
            else
                count++;
        }
        else
            printf("skipping %s (not found)\n", argv[i]);
    }
    printf("%d inputs ran%s\n", count, bad ? ", some could not be read" : "");
    if (count == 0) {
        printf("FAIL: no input ran\n");
        return 1;
    }
    return bad ? 1 : 0;
}
