/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's tags: the id3tag_* calls on the
 * handle's RlId3Tag (id3tag.h), the tag getters (lame_get_id3v1_tag,
 * lame_get_id3v2_tag) and the LAME tag frame (lame_get_lametag_frame,
 * lame_mp3_tags_fid).  Semantics derived from LAME 3.100
 * (LGPL-2.0-or-later). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mp3lame_flags.h"
#include "mp3lame_session.h"
#include "id3_frames.h"

static RlId3Tag *tag_of(lame_t g)
{
    return rl_mp3_valid(g) ? g->id3 : NULL;
}

MP3LAME_API void id3tag_init(lame_t gfp)
{
    if (tag_of(gfp))
        rl_id3_init(gfp->id3);
}

MP3LAME_API void id3tag_add_v2(lame_t gfp)
{
    if (tag_of(gfp))
        rl_id3_add_v2(gfp->id3);
}

MP3LAME_API void id3tag_v1_only(lame_t gfp)
{
    if (tag_of(gfp))
        rl_id3_v1_only(gfp->id3);
}

MP3LAME_API void id3tag_v2_only(lame_t gfp)
{
    if (tag_of(gfp))
        rl_id3_v2_only(gfp->id3);
}

MP3LAME_API void id3tag_space_v1(lame_t gfp)
{
    if (tag_of(gfp))
        rl_id3_space_v1(gfp->id3);
}

MP3LAME_API void id3tag_pad_v2(lame_t gfp)
{
    id3tag_set_pad(gfp, 128);
}

MP3LAME_API void id3tag_set_pad(lame_t gfp, size_t n)
{
    if (tag_of(gfp))
        rl_id3_set_pad(gfp->id3, (unsigned) n);
}

/* a Latin-1 field (NULL: nothing, as lame) */
static int set_latin1(lame_t g, int field, const char *s)
{
    if (!tag_of(g) || !s)
        return 0;
    return rl_id3_set_latin1(g->id3, field, s);
}

MP3LAME_API void id3tag_set_title(lame_t gfp, const char *title)
{
    (void) set_latin1(gfp, 't', title);
}

MP3LAME_API void id3tag_set_artist(lame_t gfp, const char *artist)
{
    (void) set_latin1(gfp, 'a', artist);
}

MP3LAME_API void id3tag_set_album(lame_t gfp, const char *album)
{
    (void) set_latin1(gfp, 'l', album);
}

MP3LAME_API void id3tag_set_year(lame_t gfp, const char *year)
{
    (void) set_latin1(gfp, 'y', year);
}

MP3LAME_API void id3tag_set_comment(lame_t gfp, const char *comment)
{
    (void) set_latin1(gfp, 'c', comment);
}

MP3LAME_API int id3tag_set_track(lame_t gfp, const char *track)
{
    return set_latin1(gfp, 'n', track);
}

MP3LAME_API int id3tag_set_genre(lame_t gfp, const char *genre)
{
    return set_latin1(gfp, 'g', genre);
}

MP3LAME_API int id3tag_set_fieldvalue(lame_t gfp, const char *fieldvalue)
{
    if (fieldvalue && *fieldvalue && (strlen(fieldvalue) < 5 || fieldvalue[4] != '='))
        return -1;
    return set_latin1(gfp, 'v', fieldvalue);
}

MP3LAME_API int id3tag_set_fieldvalue_utf16(lame_t gfp, const unsigned short *fieldvalue)
{
    if (!tag_of(gfp) || !fieldvalue)
        return 0;
    return rl_id3_set_utf16(gfp->id3, 'v', fieldvalue);
}

MP3LAME_API int id3tag_set_fieldvalue_ucs2(lame_t gfp, const unsigned short *fieldvalue)
{
    return id3tag_set_fieldvalue_utf16(gfp, fieldvalue);
}

static int textinfo_latin1(lame_t g, const char *id, const char *text)
{
    if (!tag_of(g))
        return -1;
    return rl_id3_set_textinfo_latin1(g->id3, id, text);
}

MP3LAME_API int id3tag_set_textinfo_latin1(lame_t gfp, char const *id, char const *text)
{
    return textinfo_latin1(gfp, id, text);
}

static int textinfo_utf16(lame_t g, const char *id, const unsigned short *text)
{
    if (!tag_of(g))
        return -1;
    return rl_id3_set_textinfo_utf16(g->id3, id, text);
}

MP3LAME_API int id3tag_set_textinfo_utf16(lame_t gfp, char const *id, unsigned short const *text)
{
    return textinfo_utf16(gfp, id, text);
}

MP3LAME_API int id3tag_set_textinfo_ucs2(lame_t gfp, char const *id, unsigned short const *text)
{
    return textinfo_utf16(gfp, id, text);
}

/* COMM frames, as lame's id3v2_add_latin1 / _ucs2 make them: the
 * language's first three characters (NULL or "": "eng"), a NULL or empty
 * descriptor or text stored empty; 0 on a NULL handle, as lame */
MP3LAME_API int id3tag_set_comment_latin1(lame_t gfp, char const *lang, char const *desc,
                                          char const *text)
{
    if (!tag_of(gfp))
        return 0;
    return rl_id3_frame_add_lang(gfp->id3, RL_FID_COMMENT, lang, 0,
                                 (RlId3Text){ desc ? desc : "", desc ? strlen(desc) : 0, 0 }, 0,
                                 (RlId3Text){ text ? text : "", text ? strlen(text) : 0, 0 });
}

/* A UTF-16 string as the frame list takes it: the units after the
 * byte-order mark in little-endian order (lame swaps each unit of a
 * big-endian string as it writes it), or without a mark the units as they
 * are (lame writes them so, without one); NULL or "" (lame's empty string,
 * no mark): no text.  *swapped: the units, when they had to be swapped
 * (the caller frees it).  0 or -ENOMEM. */
static int utf16_text(const unsigned short *s, RlId3Text *out, uint16_t **swapped)
{
    size_t n = 0;

    *swapped = NULL;
    *out = (RlId3Text){ NULL, 0, 0 };
    if (!s || !s[0])
        return 0;
    if (s[0] != RL_UCS2_BOM && s[0] != 0xFFFEu) {
        while (s[n])
            n++;
        *out = (RlId3Text){ s, n, 1 };
        return 0;
    }
    while (s[1 + n])
        n++;
    *out = (RlId3Text){ s + 1, n, 0 };
    if (s[0] == RL_UCS2_BOM)
        return 0;
    *swapped = rl_id3_ucs2_swapped(s + 1, n);
    if (!*swapped)
        return -ENOMEM;
    out->p = *swapped;
    return 0;
}

MP3LAME_API int id3tag_set_comment_utf16(lame_t gfp, char const *lang,
                                         unsigned short const *desc, unsigned short const *text)
{
    RlId3Text d, t;
    uint16_t *ds = NULL, *ts = NULL;
    int rc;

    if (!tag_of(gfp))
        return 0;
    rc = utf16_text(desc, &d, &ds);
    if (rc == 0)
        rc = utf16_text(text, &t, &ts);
    if (rc == 0)
        rc = rl_id3_frame_add_lang(gfp->id3, RL_FID_COMMENT, lang, 1, d, desc && desc[0] ? desc[0] : 0,
                                   t);
    free(ds);
    free(ts);
    return rc < 0 ? -1 : rc;
}

MP3LAME_API int id3tag_set_comment_ucs2(lame_t gfp, char const *lang,
                                        unsigned short const *desc, unsigned short const *text)
{
    return id3tag_set_comment_utf16(gfp, lang, desc, text);
}

MP3LAME_API int id3tag_set_albumart(lame_t gfp, const char *image, size_t size)
{
    RlId3Tag *t = tag_of(gfp);
    uint8_t *copy;

    if (!t)
        return -1;
    if (!image || size == 0) {
        t->art_type = RL_ID3_ART_NONE;
        t->art_size = 0;
        t->art = NULL;
        return 0;
    }
    if (rl_id3_art_type((const uint8_t *) image, size) == RL_ID3_ART_NONE)
        return -1;
    /* lame keeps its own copy; the handle's lives with the tag */
    copy = malloc(size);
    if (!copy)
        return -1;
    memcpy(copy, image, size);
    free(gfp->art);
    gfp->art = copy;
    return rl_id3_set_art(t, copy, size);
}

MP3LAME_API void id3tag_genre_list(void (*handler)(int, const char *, void *), void *cookie)
{
    int k;

    if (!handler)
        return;
    for (k = 0; k < RL_ID3_GENRES; k++) {
        int const i = rl_id3_genre_alpha(k);
        handler(i, rl_id3_genre_name(i), cookie);
    }
}

MP3LAME_API size_t lame_get_id3v2_tag(lame_t gfp, unsigned char *buffer, size_t size)
{
    int64_t ns;

    if (!tag_of(gfp))
        return 0;
    ns = gfp->num_samples == RL_MP3LAME_NUM_SAMPLES_UNKNOWN ? -1 : (int64_t) gfp->num_samples;
    return rl_id3_v2_build(gfp->id3, ns, gfp->opt.samplerate_in, buffer, buffer ? size : 0);
}

MP3LAME_API size_t lame_get_id3v1_tag(lame_t gfp, unsigned char *buffer, size_t size)
{
    if (!gfp)
        return 0;
    if (size < 128)
        return 128;
    if (!tag_of(gfp) || !buffer)
        return 0;
    return rl_id3_v1_build(gfp->id3, buffer);
}

/* lame's answer for a tag frame of len bytes (0: none): its size where
 * the caller's buffer is smaller, 0 for no buffer, else the frame */
static size_t give_tag(const uint8_t *tag, size_t len, unsigned char *buffer, size_t size)
{
    if (len == 0)
        return 0;
    if (size < len)
        return len;
    if (!buffer)
        return 0;
    memcpy(buffer, tag, len);
    return len;
}

/* Before the flush: the tag of the frames libmp3lame has made so far,
 * from Encode's state once the frames in flight are done */
static size_t tag_mid_stream(const lame_global_flags *g, unsigned char *buffer, size_t size)
{
    uint8_t tag[RL_ENCODER_TAG_MAX];
    int n = rl_mp3_session_tag_now(g->ses, g->nogap_total, g->nogap_current, tag, sizeof tag);
    return n > 0 ? give_tag(tag, (size_t) n, buffer, size) : 0;
}

MP3LAME_API size_t lame_get_lametag_frame(const lame_global_flags *gfp, unsigned char *buffer,
                                          size_t size)
{
    const RlMp3Session *s;

    if (!rl_mp3_ready(gfp) || !gfp->opt.write_lame_tag)
        return 0;
    s = gfp->ses;
    if (!s->flushed && !s->err && s->file_open)
        return tag_mid_stream(gfp, buffer, size);
    /* the tag made when the stream or a gapless file ended */
    if ((!s->ended && s->out.files_ended == 0) || s->tag_restarted)
        return 0;
    return give_tag(s->out.tag, s->out.tag_len, buffer, size);
}

/* lame's PutVbrTag: the tag frame over the placeholder, after the file's
 * ID3v2 tag */
MP3LAME_API void lame_mp3_tags_fid(lame_global_flags *gfp, FILE *fid)
{
    unsigned char tag[RL_ENCODER_TAG_MAX], head[10];
    size_t n;
    long skip = 0;

    if (!fid || !rl_mp3_ready(gfp))
        return;
    n = lame_get_lametag_frame(gfp, tag, sizeof tag);
    if (n == 0 || n > sizeof tag)
        return;
    if (fseek(fid, 0, SEEK_SET) != 0)
        return;
    if (fread(head, 1, sizeof head, fid) == sizeof head && memcmp(head, "ID3", 3) == 0)
        skip = (((long) head[6] & 127) << 21 | ((long) head[7] & 127) << 14
                | ((long) head[8] & 127) << 7 | ((long) head[9] & 127)) + 10;
    if (fseek(fid, skip, SEEK_SET) != 0)
        return;
    (void) fwrite(tag, 1, n, fid);
    (void) fflush(fid);
}
