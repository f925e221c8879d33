/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the tag options of lame 3.100's front end (see id3tag.h): what
 * each one sets in the ID3v1 fields and the ID3v2 frames, in Latin-1 and
 * in UCS-2, with lame's return values; --tv's "ID=value" rules; --ti.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "id3_frames.h"

#define GENRE_NONE  255
#define GENRE_OTHER 12

static const RlId3Text no_text = { NULL, 0, 0 };

static RlId3Text latin1(const char *s)
{
    return (RlId3Text){ s, s ? strlen(s) : 0, 0 };
}

/* A v1 field's copy in ID3v2: Latin-1, and it does not ask for a v2 tag. */
static int copy_to_v2(RlId3Tag *t, uint32_t id, RlId3Text dsc, const char *s)
{
    unsigned const keep = t->flags;
    int const rc = rl_id3_frame_add(t, id, 0, dsc, latin1(s));
    t->flags = keep;
    return rc;
}

void rl_id3_init(RlId3Tag *t)
{
    char enc[96];

    memset(t, 0, offsetof(RlId3Tag, pool));
    t->genre = GENRE_NONE;
    t->padding = 128;
    snprintf(enc, sizeof enc, "LAME %sversion 3.100 (http://lame.sf.net)",
             sizeof(void *) == 8 ? "64bits " : sizeof(void *) == 4 ? "32bits " : "");
    (void) copy_to_v2(t, RL_FID_ENCODER, no_text, enc);
}

void rl_id3_add_v2(RlId3Tag *t)
{
    t->flags = (t->flags & ~(unsigned) RL_ID3_F_V1_ONLY) | RL_ID3_F_ADD_V2;
}

void rl_id3_v1_only(RlId3Tag *t)
{
    t->flags = (t->flags & ~(unsigned)(RL_ID3_F_ADD_V2 | RL_ID3_F_V2_ONLY)) | RL_ID3_F_V1_ONLY;
}

void rl_id3_v2_only(RlId3Tag *t)
{
    t->flags = (t->flags & ~(unsigned) RL_ID3_F_V1_ONLY) | RL_ID3_F_V2_ONLY;
}

void rl_id3_space_v1(RlId3Tag *t)
{
    t->flags = (t->flags & ~(unsigned) RL_ID3_F_V2_ONLY) | RL_ID3_F_SPACE_V1;
}

void rl_id3_set_pad(RlId3Tag *t, unsigned n)
{
    t->flags = (t->flags & ~(unsigned) RL_ID3_F_V1_ONLY) | RL_ID3_F_PAD_V2 | RL_ID3_F_ADD_V2;
    t->padding = n;
}

/* ---- Latin-1 (lame's id3tag_set_title ... id3tag_set_fieldvalue) ---- */

static void set_v1_text(char dst[31], size_t *len, const char *s)
{
    size_t n = strlen(s);
    *len = n;
    if (n > 30)
        n = 30;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static int set_genre_latin1(RlId3Tag *t, const char *s)
{
    int num;
    if (*s == '\0')
        return 0;
    num = rl_id3_genre_find(s);
    if (num == -1)
        return -1;
    t->flags |= RL_ID3_F_CHANGED;
    if (num >= 0) {
        t->genre = num;
        s = rl_id3_genre_name(num);
    }
    else {
        t->genre = GENRE_OTHER;
        t->flags |= RL_ID3_F_ADD_V2;
    }
    return copy_to_v2(t, RL_FID_GENRE, no_text, s);
}

static int set_track_latin1(RlId3Tag *t, const char *s)
{
    int ret = 0, num, rc;
    if (*s == '\0')
        return 0;
    num = atoi(s);
    if (num < 1 || num > 255) {
        num = 0;
        ret = -1;
        t->flags |= RL_ID3_F_CHANGED | RL_ID3_F_ADD_V2;
    }
    if (num) {
        t->track = num;
        t->flags |= RL_ID3_F_CHANGED;
    }
    if (strchr(s, '/'))
        t->flags |= RL_ID3_F_CHANGED | RL_ID3_F_ADD_V2;
    rc = copy_to_v2(t, RL_FID_TRACK, no_text, s);
    return rc < 0 ? rc : ret;
}

/* A frame id of up to four letters A-Z or digits (lame reads up to the
 * first four, to a NUL), as a number (0: not one). */
static uint32_t frame_id_of(const unsigned *c, size_t n)
{
    uint32_t x = 0;
    for (size_t i = 0; i < 4 && i < n && c[i]; i++) {
        if (!((c[i] >= 'A' && c[i] <= 'Z') || (c[i] >= '0' && c[i] <= '9')))
            return 0;
        x = (x << 8) | c[i];
    }
    return x;
}

static uint32_t frame_id_latin1(const char *s)
{
    unsigned c[4] = { 0, 0, 0, 0 };
    for (size_t i = 0; i < 4 && s[i]; i++)
        c[i] = (unsigned char) s[i];
    return frame_id_of(c, 4);
}

/* lame's test for a text or URL frame: frame_id_matches(id, 'T' or 'W'
 * then three zero bytes) lets a zero byte of id pass, so an id shorter
 * than four characters (its first byte zero) is taken too. */
static int text_or_url_id(uint32_t id)
{
    return (id >> 24) == 'T' || (id >> 24) == 'W' || (id >> 24) == 0;
}

/* lame's id3tag_set_textinfo_latin1 (--tv "ID=text" comes here too). */
static int textinfo_latin1(RlId3Tag *t, uint32_t id, const char *text)
{
    if (id == RL_FID_TXXX || id == RL_FID_WXXX || id == RL_FID_COMMENT) {
        const char *eq = strchr(text, '=');
        if (!eq)
            return -7;
        return rl_id3_frame_add(t, id, 0, (RlId3Text){ text, (size_t)(eq - text), 0 }, latin1(eq + 1));
    }
    if (id == RL_FID_GENRE)
        return set_genre_latin1(t, text);
    if (id == RL_FID_PCST)
        return rl_id3_frame_add(t, id, 0, no_text, latin1(text));
    if (id == RL_FID_USER || id == RL_FID_WFED)
        return rl_id3_frame_add(t, id, 0, latin1(text), no_text);
    if (text_or_url_id(id))
        return rl_id3_frame_add(t, id, 0, no_text, latin1(text));
    return -255;
}

int rl_id3_set_latin1(RlId3Tag *t, int field, const char *s)
{
    int num;
    uint32_t id;

    switch (field) {
    case 't':
    case 'a':
    case 'l':
        if (*s == '\0')
            return 0;
        if (field == 't')
            set_v1_text(t->title, &t->title_len, s);
        else if (field == 'a')
            set_v1_text(t->artist, &t->artist_len, s);
        else
            set_v1_text(t->album, &t->album_len, s);
        t->flags |= RL_ID3_F_CHANGED;
        id = field == 't' ? RL_FID_TITLE : field == 'a' ? RL_FID_ARTIST : RL_FID_ALBUM;
        return copy_to_v2(t, id, no_text, s);
    case 'c':
        if (*s == '\0')
            return 0;
        set_v1_text(t->comment, &t->comment_len, s);
        t->flags |= RL_ID3_F_CHANGED;
        return copy_to_v2(t, RL_FID_COMMENT, latin1(""), s);
    case 'y':
        if (*s == '\0')
            return 0;
        num = atoi(s);
        num = num < 0 ? 0 : num > 9999 ? 9999 : num;
        if (num) {
            t->year = num;
            t->flags |= RL_ID3_F_CHANGED;
        }
        return copy_to_v2(t, RL_FID_YEAR, no_text, s);
    case 'n':
        return set_track_latin1(t, s);
    case 'g':
        return set_genre_latin1(t, s);
    case 'v':
        if (*s == '\0')
            return 0;
        if (strlen(s) < 5 || s[4] != '=')
            return -1;
        id = frame_id_latin1(s);
        return id ? textinfo_latin1(t, id, s + 5) : -1;
    }
    return 0;
}

/* ---- UCS-2 (lame's id3tag_set_textinfo_utf16 ... fieldvalue_utf16) ---- */

/* lame's genre in UCS-2: text Latin-1 can hold (up to U+00FE) is looked
 * up as Latin-1 (a known genre is stored by name in Latin-1); else the
 * UCS-2 text with genre "Other". */
static int set_genre_ucs2(RlId3Tag *t, RlId3Text s)
{
    const uint16_t *u = s.p;
    int maybe_latin1 = 1, rc;

    for (size_t i = 0; i < s.n; i++)
        if (u[i] > 0x00fe)
            maybe_latin1 = 0;
    if (maybe_latin1) {
        char *l = malloc(s.n + 1);
        int num;
        if (!l)
            return RL_ID3_FULL;
        for (size_t i = 0; i < s.n; i++)
            l[i] = (char)(u[i] < 0x20 || u[i] > 0xff ? ' ' : u[i]);
        l[s.n] = '\0';
        num = rl_id3_genre_find(l);
        free(l);
        if (num == -1)
            return -1;
        if (num >= 0) {
            t->flags |= RL_ID3_F_CHANGED;
            t->genre = num;
            return copy_to_v2(t, RL_FID_GENRE, no_text, rl_id3_genre_name(num));
        }
    }
    rc = rl_id3_frame_add(t, RL_FID_GENRE, 1, no_text, s);
    if (rc == 0) {
        t->flags |= RL_ID3_F_CHANGED;
        t->genre = GENRE_OTHER;
    }
    return rc;
}

/* lame's id3tag_set_textinfo_utf16: s is the text after its BOM (bom: the
 * mark as given; the units little-endian either way). */
static int textinfo_ucs2(RlId3Tag *t, uint32_t id, RlId3Text s, unsigned bom)
{
    const uint16_t *u = s.p;
    if (id == RL_FID_TXXX || id == RL_FID_WXXX || id == RL_FID_COMMENT) {
        size_t a = 0;
        while (a < s.n && u[a] != '=')
            a++;
        if (a == s.n)
            return -7;
        return rl_id3_frame_add_lang(t, id, NULL, 1, (RlId3Text){ u, a, 0 }, bom,
                                     (RlId3Text){ u + a + 1, s.n - a - 1, 0 });
    }
    if (id == RL_FID_GENRE)
        return set_genre_ucs2(t, s);
    if (id == RL_FID_PCST)
        return rl_id3_frame_add(t, id, 1, no_text, s);
    if (id == RL_FID_USER || id == RL_FID_WFED)
        return rl_id3_frame_add(t, id, 1, s, no_text);
    if (text_or_url_id(id))
        return rl_id3_frame_add(t, id, 1, no_text, s);
    return -255;
}

int rl_id3_set_utf16(RlId3Tag *t, int field, const uint16_t *s)
{
    size_t n = 0;
    RlId3Text text;

    if (s[0] != RL_UCS2_BOM)
        return -3;
    while (s[1 + n])
        n++;
    text = (RlId3Text){ s + 1, n, 0 };
    switch (field) {
    case 't': return textinfo_ucs2(t, RL_FID_TITLE, text, RL_UCS2_BOM);
    case 'a': return textinfo_ucs2(t, RL_FID_ARTIST, text, RL_UCS2_BOM);
    case 'l': return textinfo_ucs2(t, RL_FID_ALBUM, text, RL_UCS2_BOM);
    case 'y': return textinfo_ucs2(t, RL_FID_YEAR, text, RL_UCS2_BOM);
    case 'n': return textinfo_ucs2(t, RL_FID_TRACK, text, RL_UCS2_BOM);
    case 'g': return set_genre_ucs2(t, text);
    case 'c': return rl_id3_frame_add(t, RL_FID_COMMENT, 1, no_text, text);
    case 'v': {
        unsigned c[4];
        uint32_t id;
        if (n < 5 || s[5] != '=')
            return -1;
        for (int i = 0; i < 4; i++)
            c[i] = s[1 + i];
        id = frame_id_of(c, 4);
        return id ? textinfo_ucs2(t, id, (RlId3Text){ s + 6, n - 5, 0 }, RL_UCS2_BOM) : -1;
    }
    }
    return 0;
}

uint16_t *rl_id3_ucs2_swapped(const uint16_t *units, size_t n)
{
    uint16_t *out = malloc((n + 1) * sizeof *out);

    if (out)
        for (size_t i = 0; i < n; i++)
            out[i] = (uint16_t) (((units[i] & 0xffu) << 8) | (units[i] >> 8));
    return out;
}

int rl_id3_set_textinfo_latin1(RlId3Tag *t, const char *id, const char *text)
{
    uint32_t const fid = id ? frame_id_latin1(id) : 0;

    if (!fid)
        return -1;
    return text ? textinfo_latin1(t, fid, text) : 0;
}

int rl_id3_set_textinfo_utf16(RlId3Tag *t, const char *id, const uint16_t *text)
{
    uint32_t const fid = id ? frame_id_latin1(id) : 0;
    uint16_t *swapped = NULL;
    size_t n = 0;
    int rc;

    if (!fid)
        return -1;
    if (!text)
        return 0;
    if (text[0] != RL_UCS2_BOM && text[0] != 0xFFFEu)
        return -3;          /* lame: a text frame's UTF-16 needs its mark */
    while (text[1 + n])
        n++;
    if (text[0] != RL_UCS2_BOM && !(swapped = rl_id3_ucs2_swapped(text + 1, n)))
        return -254;        /* lame's "memory problem" */
    rc = textinfo_ucs2(t, fid, (RlId3Text){ swapped ? swapped : text + 1, n, 0 }, text[0]);
    free(swapped);
    return rc;
}

/* ---- --ti ---- */

int rl_id3_art_type(const uint8_t *img, size_t n)
{
    if (n > 2 && img[0] == 0xFF && img[1] == 0xD8)
        return RL_ID3_ART_JPEG;
    if (n > 4 && img[0] == 0x89 && memcmp(img + 1, "PNG", 3) == 0)
        return RL_ID3_ART_PNG;
    if (n > 4 && memcmp(img, "GIF8", 4) == 0)
        return RL_ID3_ART_GIF;
    return RL_ID3_ART_NONE;
}

int rl_id3_set_art(RlId3Tag *t, const uint8_t *img, size_t n)
{
    int const type = rl_id3_art_type(img, n);
    if (type == RL_ID3_ART_NONE)
        return -1;
    t->art_type = type;
    t->art_size = n;
    t->art = img;
    t->flags |= RL_ID3_F_CHANGED;
    rl_id3_add_v2(t);
    return 0;
}

int rl_id3_attach_art(RlId3Tag *t, const uint8_t *img, size_t n)
{
    if (n != t->art_size || rl_id3_art_type(img, n) != t->art_type)
        return -1;
    t->art = img;
    return 0;
}
