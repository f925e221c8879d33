/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: unit test of the ringlame-only options --threads and --sequential.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "cli_args.h"

/* Parses "-V 2 <extra...> in.wav out.mp3"; returns the RL_ARGS_* code and
 * the error text in err. */
static int parse(RlArgs *a, char *errbuf, size_t errlen, int n, const char **extra)
{
    char *argv[16];
    int argc = 0, rc;
    FILE *out = fopen("/dev/null", "w");
    FILE *err = fmemopen(errbuf, errlen, "w");

    argv[argc++] = (char *) "ringlame";
    argv[argc++] = (char *) "-V";
    argv[argc++] = (char *) "2";
    for (int i = 0; i < n; i++)
        argv[argc++] = (char *) extra[i];
    argv[argc++] = (char *) "in.wav";
    argv[argc++] = (char *) "out.mp3";
    memset(errbuf, 0, errlen);
    memset(a, 0, sizeof *a);
    rc = rl_args_parse(a, argc, argv, NULL, getenv("RINGLAME_SIMD"), out, err);
    fclose(err);
    fclose(out);
    return rc;
}

int main(void)
{
    RlArgs *a = malloc(sizeof *a);
    char e[512];

    {
        int rc = parse(a, e, sizeof e, 0, NULL);
        CHECK(rc == RL_ARGS_OK && a->threads == 0 && a->sequential == 0, "defaults: rc %d threads %d", rc,
              a->threads);
    }
    {
        const char *x[] = { "--threads", "3" };
        int rc = parse(a, e, sizeof e, 2, x);
        CHECK(rc == RL_ARGS_OK && a->threads == 3, "--threads 3: rc %d threads %d", rc, a->threads);
        CHECK(strcmp(a->in_path, "in.wav") == 0 && strcmp(a->out_path, "out.mp3") == 0, "paths");
    }
    {
        const char *x[] = { "--THREADS", "1024", "--sequential" };
        int rc = parse(a, e, sizeof e, 3, x);
        CHECK(rc == RL_ARGS_OK && a->threads == 1024 && a->sequential == 1, "case, max, --sequential");
    }
    {
        static const char *bad[] = { "0", "-1", "abc", "2x", "1025", "" };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            const char *x[] = { "--threads", bad[i] };
            int rc = parse(a, e, sizeof e, 2, x);
            CHECK(rc == RL_ARGS_ERROR, "--threads '%s' accepted (rc %d)", bad[i], rc);
            CHECK(strstr(e, "--threads") != NULL && strstr(e, "1 to 1024") != NULL,
                  "--threads '%s': message '%s'", bad[i], e);
        }
    }
    free(a);
    return rl_test_done();
}
