/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's console text for a --nogap set (see nogap_console.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "nogap_console.h"
#include "progress.h"

typedef struct ReadPoint {
    int     file;
    int64_t frames;
} ReadPoint;

struct RlNogapConsole {
    pthread_mutex_t mu;
    const RlArgs *a;
    const RlConfig  *cfg;       /* what lame_init_params derived (NULL: refused) */
    const RlOptions *opt;       /* the options as it wrote them back */
    int n;
    const char *const *in_path;
    char *const *out_path;
    const int64_t *samples;
    int file;                   /* the file Encode writes */
    int64_t file_start;         /* its first frame in the set's stream */
    RlProgress *prog;           /* its progress display; NULL: none */
    ReadPoint *later;           /* read points of the files after it, in order */
    size_t nlater, cap;
};

int rl_nogap_console_create(RlNogapConsole **out, const RlArgs *a, const RlConfig *cfg,
                            const RlOptions *opt, int n,
                            const char *const *in_path, char *const *out_path,
                            const int64_t *samples)
{
    RlNogapConsole *c = calloc(1, sizeof *c);
    int rc;

    *out = NULL;
    if (!c)
        return -ENOMEM;
    rc = pthread_mutex_init(&c->mu, NULL);
    if (rc != 0) {
        free(c);
        return -rc;
    }
    c->a = a;
    c->cfg = cfg;
    c->opt = opt;
    c->n = n;
    c->in_path = in_path;
    c->out_path = out_path;
    c->samples = samples;
    *out = c;
    return 0;
}

/* Assumes mu.  lame's encoder_progress_begin for file c->file: the banner
 * (lame_print_config each time) and a fresh progress display. */
static void begin_file(RlNogapConsole *c)
{
    if (c->a->lame.silent < 9)
        rl_console_banner(c->in_path[c->file], c->out_path[c->file], c->cfg, c->opt,
                          c->a->lame.silent <= -10);
    if (c->a->lame.silent <= 0)
        rl_console_progress(&c->prog, c->cfg, c->opt, c->samples[c->file], !c->a->nohist);
}

/* Assumes mu.  The file's last line and its closing lines. */
static void end_file(RlNogapConsole *c, int64_t frames, const RlRingResult *res)
{
    if (res->flush_empty)           /* lame's library message: whatever the silence */
        fprintf(stderr, "strange error flushing buffer ... \n");
    rl_progress_finish(c->prog, frames);
    rl_progress_free(c->prog);
    c->prog = NULL;
    if (c->a->lame.silent <= 0) {
        rl_console_closing(res->tag_len, res->replay_gain, res->radio_gain);
        if (c->a->lame.clipdetect && res->decoded)
            rl_console_clipping(res->noclip_gain_change, res->noclip_scale, res->scale);
    }
}

static void on_read(void *arg, int file, int64_t frames)
{
    RlNogapConsole *c = arg;

    pthread_mutex_lock(&c->mu);
    if (file == c->file) {
        rl_progress_read(c->prog, frames);
    }
    else {
        if (c->nlater == c->cap) {
            size_t const cap = c->cap ? 2 * c->cap : 64;
            ReadPoint *p = realloc(c->later, cap * sizeof *p);
            if (p) {
                c->later = p;
                c->cap = cap;
            }
        }
        if (c->nlater < c->cap)     /* out of memory: the line is left out */
            c->later[c->nlater++] = (ReadPoint) { file, frames };
    }
    pthread_mutex_unlock(&c->mu);
}

static void on_update(void *arg, int64_t done, int64_t total)
{
    RlNogapConsole *c = arg;

    pthread_mutex_lock(&c->mu);
    rl_progress_update(c->prog, done - c->file_start, total);
    pthread_mutex_unlock(&c->mu);
}

static void on_frame_info(void *arg, int64_t frame, const RlRingFrameInfo *fi)
{
    RlNogapConsole *c = arg;

    (void) frame;
    pthread_mutex_lock(&c->mu);
    rl_progress_frame(c->prog, fi->bitrate_index, fi->mode_ext, fi->block_count);
    pthread_mutex_unlock(&c->mu);
}

static void on_file_end(void *arg, int file, const RlRingResult *res)
{
    RlNogapConsole *c = arg;
    size_t k = 0;

    pthread_mutex_lock(&c->mu);
    if (file == c->file && file + 1 < c->n) {
        end_file(c, res->frames, res);
        c->file++;
        c->file_start += res->frames;
        begin_file(c);
        /* the read points Dispatch made in this file so far, in order */
        while (k < c->nlater && c->later[k].file == c->file)
            rl_progress_read(c->prog, c->later[k++].frames);
        memmove(c->later, c->later + k, (c->nlater - k) * sizeof *c->later);
        c->nlater -= k;
    }
    pthread_mutex_unlock(&c->mu);
}

void rl_nogap_console_hooks(RlNogapConsole *c, RlSessionHooks *h)
{
    h->arg = c;
    h->file_end = on_file_end;
    if (c->a->lame.silent > 0)
        return;
    h->progress = on_update;
    h->file_read_progress = on_read;
    if (!c->a->nohist)
        h->frame_info = on_frame_info;
}

void rl_nogap_console_begin(RlNogapConsole *c)
{
    pthread_mutex_lock(&c->mu);
    begin_file(c);
    pthread_mutex_unlock(&c->mu);
}

void rl_nogap_console_end(RlNogapConsole *c, int ok, const RlRingResult *res)
{
    pthread_mutex_lock(&c->mu);
    if (ok)
        end_file(c, res->frames - c->file_start, res);
    else
        rl_progress_abort(c->prog);
    pthread_mutex_unlock(&c->mu);
}

void rl_nogap_console_free(RlNogapConsole *c)
{
    if (!c)
        return;
    rl_progress_free(c->prog);
    free(c->later);
    pthread_mutex_destroy(&c->mu);
    free(c);
}
