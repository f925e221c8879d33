/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: what a lame_global_flags holds in the drop-in libmp3lame: the
 * options the setters write (RlOptions, lame_set_* semantics; after
 * lame_init_params the values it writes back), the lame_global_flags
 * fields RlOptions has no place for, the report callbacks, the ID3 tag
 * the id3tag_* calls build, and after lame_init_params the encode session
 * (mp3lame_session.h).  Private to src/Mp3lame. */
#ifndef RL_MP3LAME_FLAGS_H
#define RL_MP3LAME_FLAGS_H

#include "mp3lame_abi.h"
#include "settings.h"
#include "id3tag.h"

#include <stdint.h>

#define RL_MP3LAME_MAGIC   0xFFF88E3Bu      /* a lame_init'ed handle */
#define RL_MP3LAME_NUM_SAMPLES_UNKNOWN 0xFFFFFFFFul

struct RlMp3Session;

struct lame_global_struct {
    unsigned magic;
    RlOptions opt;
    /* lame_global_flags fields outside RlOptions */
    unsigned long num_samples;
    int   analysis, decode_only;
    int   nogap_total, nogap_current;
    int   write_id3tag_automatic;
    int   maskingadjust_set;
    lame_report_function errorf, debugf, msgf;
    RlId3Tag *id3;
    uint8_t  *art;              /* the album art's bytes (the tag points at them) */
    int   params_called;        /* lame_init_params was called (lame_close's answer) */
    int   in_buffer_made;       /* lame's input buffer exists: an encode call had samples */
    struct RlMp3Session *ses;   /* the encode session, after lame_init_params */
};

/* a handle lame_init made and lame_close has not closed */
static inline int rl_mp3_valid(const lame_global_flags *g)
{
    return g && g->magic == RL_MP3LAME_MAGIC;
}

/* lame_init_params succeeded: the encode state exists */
static inline int rl_mp3_ready(const lame_global_flags *g)
{
    return rl_mp3_valid(g) && g->ses;
}

/* Reports through the handle's callbacks (lame's default prints to
 * stderr; NULL: nothing). */
void rl_mp3_msgf(const lame_global_flags *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rl_mp3_errorf(const lame_global_flags *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rl_mp3_debugf(const lame_global_flags *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* lame's default report function (vfprintf to stderr) */
void rl_mp3_report_default(const char *fmt, va_list ap);

#endif
