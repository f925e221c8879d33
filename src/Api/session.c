/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encode session's shared half (session.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "rl_config.h"

int rl_session_stream_init(RlSessionStream *st, const RlLameSettings *a, const RlSessionInput *in,
                           char *why, size_t whylen)
{
    int rc;

    memset(st, 0, sizeof *st);
    st->opt = a->opt;
    rc = rl_lame_apply_input(a, &st->opt, in->channels, in->samplerate, why, whylen);
    if (rc < 0)
        return rc;
    /* the ID3 tags as lame's front end writes them (TLEN from the input's
     * length at its rate when the header gives it) */
    return rl_args_tags_build(a, in->frames, st->opt.samplerate_in, in->id3v2, in->id3v2_len,
                              &st->tags, why, whylen);
}

void rl_session_stream_free(RlSessionStream *st)
{
    rl_args_tags_free(&st->tags);
    free(st->cfg);
    st->cfg = NULL;
    st->cfg_rc = 0;
}

const RlConfig *rl_session_stream_config(RlSessionStream *st, const RlOptions **derived)
{
    if (st->cfg_rc == 0) {
        st->derived = st->opt;
        st->cfg = malloc(sizeof *st->cfg);
        st->cfg_rc = !st->cfg ? -ENOMEM : rl_config_init(st->cfg, &st->derived) < 0 ? -EINVAL : 1;
    }
    if (derived)
        *derived = &st->derived;
    return st->cfg_rc > 0 ? st->cfg : NULL;
}

int rl_session_threads(const RlSessionRun *run)
{
    if (run->sequential)
        return 1;
    /* one ring: a thread beyond the frames in flight finds no work */
    return rl_threads_for_ring(run->threads);
}

void rl_session_ring_params(const RlSessionRun *run, const RlSessionStream *st, RlRingParams *p)
{
    memset(p, 0, sizeof *p);
    p->threads = rl_session_threads(run);
    /* sequential: no I/O thread either; Dispatch reads and Encode writes */
    p->io_backend = run->sequential ? RL_RING_IO_DIRECT : RL_RING_IO_AUTO;
    p->exec = run->exec;
    p->slots = run->slots;
    p->max_workers = run->max_workers;
    p->stop = run->stop;
    p->trace = run->trace;
    p->stats = run->stats;
    p->result = run->result;
    p->progress = run->hooks.progress;
    p->read_progress = run->hooks.read_progress;
    p->frame_info = run->hooks.frame_info;
    p->file_read_progress = run->hooks.file_read_progress;
    p->file_end = run->hooks.file_end;
    p->progress_arg = run->hooks.arg;
    p->id3v2 = st->tags.v2;
    p->id3v2_len = st->tags.v2_len;
    p->id3v1 = st->tags.v1;
    p->id3v1_len = st->tags.v1_len;
}

int rl_session_ring_create(RlRing **out, const RlSessionRun *run, const RlSessionStream *st,
                           const RlRingInput *in, const RlRingOutput *outp)
{
    RlRingParams p;

    *out = NULL;
    if (!run->exec)
        return -EINVAL;
    rl_session_ring_params(run, st, &p);
    return rl_ring_create(out, &st->opt, run->exec, in, outp, &p);
}
