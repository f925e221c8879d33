/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's --decode console text (see decode_console.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <string.h>

#include "decode_console.h"

void rl_decode_console_head(FILE *fp, const char *in_path, const char *out_path, int samplerate,
                            int channels, const char *format, int skip_start, int skip_end)
{
    fprintf(fp, "\rinput:  %s%s(%g kHz, %i channel%s, %s)\n",
            strcmp(in_path, "-") ? in_path : "<stdin>", strlen(in_path) > 26 ? "\n\t" : "  ",
            samplerate / 1.e3, channels, channels != 1 ? "s" : "", format);
    fprintf(fp, "output: %s%s(16 bit, Microsoft WAVE)\n",
            strcmp(out_path, "-") ? out_path : "<stdout>", strlen(out_path) > 45 ? "\n\t" : "  ");
    if (skip_start > 0)
        fprintf(fp, "skipping initial %i samples (encoder+decoder delay)\n", skip_start);
    if (skip_end > 0)
        fprintf(fp, "skipping final %i samples (encoder padding-decoder delay)\n", skip_end);
}

/* lame's count: the samples plus the decoder's 576 and the encoder's
 * padding, in whole frames */
static uint64_t end_padding(uint64_t samples, int framesize)
{
    uint64_t pad;
    samples += 576;
    pad = (uint64_t) framesize - samples % (uint64_t) framesize;
    if (pad < 576)
        pad += (uint64_t) framesize;
    return pad;
}

void rl_decode_progress_init(RlDecodeProgress *dp, int64_t samples, int framesize)
{
    /* lame's num_samples is an unsigned long: unknown is 2^32-1 */
    uint64_t const n = samples < 0 ? 0xFFFFFFFFu : (uint64_t) samples;

    memset(dp, 0, sizeof *dp);
    dp->framesize = framesize;
    if (framesize == 576 || framesize == 1152) {
        uint64_t const pad = end_padding(n, framesize);
        dp->frames_total = (int64_t) ((n + 576 + pad) / (uint64_t) framesize);
        dp->samples = (int64_t) (576 + pad);
    }
    else if (framesize > 0) {
        dp->frames_total = (int64_t) (n / (uint64_t) framesize);
    }
    else {
        dp->frames_total = (int64_t) n;
    }
}

void rl_decode_progress_line(FILE *fp, RlDecodeProgress *dp, int n, int kbps, int mode,
                             int mode_ext)
{
    dp->samples += n;
    if (dp->framesize > 0) {
        dp->frame_ctr += dp->samples / dp->framesize;
        dp->samples %= dp->framesize;
    }
    if (dp->frames_total < dp->frame_ctr)
        dp->frames_total = dp->frame_ctr;
    /* lame's %i of ints */
    fprintf(fp, "\rFrame#%6i/%-6i %3i kbps", (int) dp->frame_ctr, (int) dp->frames_total, kbps);
    if (mode == 1) {
        int const last = dp->last_mode_ext;
        fprintf(fp, "  %s  %c",
                mode_ext & 2 ? last & 2 ? " MS " : "LMSR" : last & 2 ? "LMSR" : "L  R",
                mode_ext & 1 ? last & 1 ? 'I' : 'i' : last & 1 ? 'i' : ' ');
        dp->last_mode_ext = mode_ext;
    }
    else {
        fprintf(fp, "         ");
        dp->last_mode_ext = 0;
    }
    fprintf(fp, "        \b\b\b\b\b\b\b\b");
    fflush(fp);
}

void rl_decode_progress_finish(FILE *fp)
{
    fprintf(fp, "\n");
}
