/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame unit test: decode on the fly (redecode.h) on MP3s that lame made
 * with --replaygain-accurate: the music bytes after lame's tag frame, fed in
 * odd-sized chunks through a gain feed barely larger than one frame (so
 * nearly every chunk stops with -EAGAIN and resumes), give the peak sample
 * and the radio gain lame wrote into its tag. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "decoder.h"
#include "gain_feed.h"
#include "lametag.h"
#include "redecode.h"
#include "replaygain.h"

static char g_dir[256];

/* raw 16-bit little-endian PCM: loud noise bursts that clip after encoding */
static int write_raw(const char *path, int channels, long frames, uint32_t seed)
{
    FILE *f = fopen(path, "wb");
    uint32_t x = seed;
    if (!f)
        return -errno;
    for (long i = 0; i < frames * channels; i++) {
        long const t = i / channels;
        int v;
        x = x * 1103515245u + 12345u;
        v = (int)((x >> 8) & 0xffff) - 32768;
        if ((t / 4410) % 3 == 2)
            v /= 64;                    /* a quieter stretch */
        fputc(v & 0xff, f);
        fputc((v >> 8) & 0xff, f);
    }
    return fclose(f) == 0 ? 0 : -errno;
}

/* decodes mp3[start..n) in chunks of `step` bytes through a feed of
 * cap samples; *peak_field and *gain_field as the LAME tag stores them */
static int redecode_file(const uint8_t *mp3, size_t start, size_t n, size_t step, size_t cap,
                         int channels, long rate, uint32_t *peak_field, int *gain_field,
                         long *eagain)
{
    RlGainFeed g;
    RlRedecode rd;
    float title;
    int rc;

    memset(&g, 0, sizeof g);
    *eagain = 0;
    rc = rl_gain_feed_init(&g, rate, channels, cap, NULL, NULL, NULL);
    if (rc < 0)
        return rc;
    rc = rl_redecode_init(&rd, 1, 1, channels);
    for (size_t pos = start; rc == 0 && pos < n; pos += step) {
        size_t const len = n - pos < step ? n - pos : step;
        while ((rc = rl_redecode_chunk(&rd, &g, mp3 + pos, len)) == -EAGAIN) {
            (*eagain)++;
            for (int ch = 0; ch < channels; ch++)
                while (rc == -EAGAIN && rl_gain_task_pending(&g, ch) > 0)
                    if (rl_gain_task_run(&g, ch) < 0)
                        rc = -EIO;
            if (rc == -EIO)
                break;
        }
    }
    for (int ch = 0; rc == 0 && ch < channels; ch++)
        while (rl_gain_task_pending(&g, ch) > 0 && (rc = rl_gain_task_run(&g, ch)) == 0)
            ;
    if (rc == 0)
        rc = rl_gain_feed_result(&g, &title);
    if (rc == 0) {
        *gain_field = rl_gain_tag_field(rl_gain_radio_value(title), 1);
        *peak_field = (uint32_t) abs((int) ((((float) rd.peak) / 32767.0) * pow(2, 23) + .5));
    }
    rl_redecode_free(&rd);
    rl_gain_feed_free(&g);
    return rc;
}

static void check_case(const char *lame, const char *name, int channels, long rate,
                       const char *opts)
{
    char raw[512], mp3p[512], cmd[2048];
    uint8_t *mp3 = NULL;
    size_t n = 0;
    RlMpaVbrTag vt;
    RlTagFields tf;
    static const size_t steps[] = { 1, 417, 1044, 5000 };
    int rc;

    snprintf(raw, sizeof raw, "%s/%s.raw", g_dir, name);
    snprintf(mp3p, sizeof mp3p, "%s/%s.mp3", g_dir, name);
    CHECK_EQ(write_raw(raw, channels, rate * 2, (uint32_t) rate + (uint32_t) channels), 0,
             "%s: the input", name);
    snprintf(cmd, sizeof cmd, "'%s' --quiet -r -s %g --bitwidth 16 --signed --little-endian %s "
             "--replaygain-accurate %s '%s' '%s' </dev/null 2>/dev/null", lame, (double) rate / 1000.0,
             channels == 1 ? "-m m" : "", opts, raw, mp3p);
    rc = rl_test_run(cmd, NULL, NULL);
    CHECK(rc == 0, "%s: lame failed (%d): %s", name, rc, cmd);
    if (rc != 0 || rl_test_slurp(mp3p, &mp3, &n) != 0 || n < RL_MPA_TAG_PROBE)
        return;
    CHECK(rl_mpa_vbr_tag(mp3, &vt) == 1 && vt.header_size > 0 && (size_t) vt.header_size < n,
          "%s: lame's tag frame", name);
    CHECK(rl_lametag_parse(mp3, n, &tf) == 0, "%s: lame's LAME tag", name);
    CHECK(tf.peak != 0, "%s: lame's peak field is set", name);
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        uint32_t peak = 0;
        int gain = 0;
        long eagain = 0;
        /* the feed: one frame's room (1152) plus a little */
        rc = redecode_file(mp3, (size_t) vt.header_size, n, steps[k], 1152 + 100, channels, rate,
                           &peak, &gain, &eagain);
        CHECK_EQ(rc, 0, "%s step %zu: redecode", name, steps[k]);
        CHECK(peak == tf.peak, "%s step %zu: peak field %u, lame %u", name, steps[k], peak, tf.peak);
        CHECK(gain == tf.radio_gain, "%s step %zu: radio gain field %#x, lame %#x", name, steps[k],
              (unsigned) gain, (unsigned) tf.radio_gain);
        CHECK(eagain > 0, "%s step %zu: the small feed made the chunks wait", name, steps[k]);
    }
    free(mp3);
}

int main(void)
{
    const char *lame = rl_test_lame();
    RlRedecode off;
    int change;
    float scale;

    /* off: nothing allocated, chunks are ignored */
    CHECK_EQ(rl_redecode_init(&off, 0, 1, 2), 0, "off: init");
    CHECK_EQ(rl_redecode_chunk(&off, NULL, (const uint8_t *) "xyz", 3), 0, "off: a chunk");
    rl_redecode_free(&off);
    /* save_gain_values' figures */
    off.peak = 41000.0f;    /* 1.95 dB over full scale */
    rl_redecode_noclip(&off, &change, &scale);
    CHECK(change == 20 && scale == 0.79f, "noclip at 41000: %d %g", change, (double) scale);
    off.peak = 16000.0f;
    rl_redecode_noclip(&off, &change, &scale);
    CHECK(change < 0 && scale == -1.0f, "noclip below full scale: %d %g", change, (double) scale);

    if (!lame) {
        printf("SKIP the comparisons with lame: no lame ($LAME, else /usr/bin/lame)\n");
        int const rc = rl_test_done();
        return rc ? rc : 77;
    }
    if (rl_test_tmpdir(g_dir, sizeof g_dir, "unit-redecode") != 0)
        rl_test_fatal("cannot create a temporary directory");
    check_case(lame, "st44_V2", 2, 44100, "-V 2");
    check_case(lame, "st44_cbr", 2, 44100, "-b 128");
    check_case(lame, "mono22_abr", 1, 22050, "--abr 48");
    check_case(lame, "st8_V5", 2, 8000, "-V 5");
    (void) rl_test_rmtree(g_dir);
    return rl_test_done();
}
