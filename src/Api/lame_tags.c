/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the ID3 tags of the parsed options for one encode (lame_args.h),
 * shared by the command, --batch and the library.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lame_args.h"
#include "whole_file.h"

/* --ti's picture, read again and attached to tag (*img: the caller frees). */
static int attach_art(const RlLameSettings *a, RlId3Tag *tag, uint8_t **img, char *why, size_t whylen)
{
    size_t n = 0;
    int rc;

    *img = NULL;
    if (!tag->art_size || !a->art_path[0])
        return 0;
    rc = rl_whole_file_read(a->art_path, img, &n);
    if (rc == 0 && rl_id3_attach_art(tag, *img, n) != 0)
        rc = -EINVAL;
    if (rc < 0)
        snprintf(why, whylen, "%s: %s", a->art_path, rc == -EINVAL
                 ? "the album art (--ti) changed since the options were read" : strerror(-rc));
    return rc;
}

int rl_args_tags_build(const RlLameSettings *a, int64_t frames, int samplerate_in,
                       const uint8_t *input_v2, size_t input_v2_len, RlArgsTags *t,
                       char *why, size_t whylen)
{
    RlId3Tag *tag = malloc(sizeof *tag);
    uint8_t *art = NULL;
    int rc;

    memset(t, 0, sizeof *t);
    if (!tag) {
        snprintf(why, whylen, "%s", strerror(ENOMEM));
        return -ENOMEM;
    }
    *tag = a->id3;
    rc = attach_art(a, tag, &art, why, whylen);
    if (rc == 0) {
        const uint8_t *copy = NULL;     /* the input's own tag, else ours is built */
        t->v2_len = rl_id3_v2_build(tag, frames, samplerate_in, NULL, 0);
        if (t->v2_len == 0 && input_v2) {
            copy = input_v2;
            t->v2_len = input_v2_len;
        }
        if (t->v2_len > 0) {
            t->v2 = malloc(t->v2_len);
            if (t->v2 && copy)
                memcpy(t->v2, copy, t->v2_len);
            else if (t->v2)
                (void) rl_id3_v2_build(tag, frames, samplerate_in, t->v2, t->v2_len);
            else {
                t->v2_len = 0;
                rc = -ENOMEM;
                snprintf(why, whylen, "%s", strerror(ENOMEM));
            }
        }
        t->v1_len = rl_id3_v1_build(tag, t->v1);
    }
    free(art);
    free(tag);
    return rc;
}

void rl_args_tags_free(RlArgsTags *t)
{
    free(t->v2);
    t->v2 = NULL;
    t->v2_len = 0;
}
