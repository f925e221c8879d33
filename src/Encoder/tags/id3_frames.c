/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the ID3v2 frame list and the bytes of both tags (see
 * id3tag.h): which frame a setter replaces, each frame kind's layout
 * (text, comment, URL, picture), the v2 header and padding, the v1 fields.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <stdio.h>
#include <string.h>

#include "id3_frames.h"

/* ---- the frame list ---- */

/* Frames that may appear more than once (told apart by the descriptor). */
static int is_multi(uint32_t id)
{
    static const char multi[][5] = {
        "TXXX", "WXXX", "COMM", "SYLT", "APIC", "GEOB", "PCNT", "AENC", "LINK", "ENCR",
        "GRID", "PRIV"
    };
    for (size_t k = 0; k < sizeof multi / sizeof multi[0]; k++)
        if (id == RL_FID(multi[k][0], multi[k][1], multi[k][2], multi[k][3]))
            return 1;
    return 0;
}

static size_t text_len(RlId3Text s, int ucs2)
{
    return !s.p ? 0 : ucs2 && !s.raw ? s.n + 1 : s.n;
}

/* Unit i of a text: the BOM first in UCS-2, unless it has none. */
static unsigned text_unit(RlId3Text s, int ucs2, size_t i)
{
    if (ucs2 && s.raw)
        return ((const uint16_t *) s.p)[i];
    if (ucs2)
        return i == 0 ? RL_UCS2_BOM : ((const uint16_t *) s.p)[i - 1];
    return ((const unsigned char *) s.p)[i];
}

/* lame's descriptor test: the frame's descriptor is a prefix of dsc (an
 * empty one matches any), and of the same encoding when not empty; lame
 * compares the UCS-2 units as given, so the byte-order marks must agree. */
static int same_descriptor(const RlId3Tag *t, const RlId3Frame *f, int ucs2, RlId3Text dsc,
                           unsigned bom)
{
    size_t const n = text_len(dsc, ucs2);
    if (f->ucs2 != ucs2 && f->dsc.len > 0)
        return 0;
    if (ucs2 && f->dsc.len > 0 && f->dsc_bom != bom)
        return 0;
    for (uint32_t i = 0; i < f->dsc.len; i++)
        if (i >= n || t->pool[f->dsc.off + i] != text_unit(dsc, ucs2, i))
            return 0;
    return 1;
}

/* Stores s into str: in its old place when it fits, else at the pool's end. */
static int store(RlId3Tag *t, RlId3Str *str, int ucs2, RlId3Text s)
{
    size_t const n = text_len(s, ucs2);
    if (n > str->cap) {
        if (n > RL_ID3_POOL - t->pool_used)
            return RL_ID3_FULL;
        str->off = t->pool_used;
        str->cap = (uint32_t) n;
        t->pool_used += (uint32_t) n;
    }
    for (size_t i = 0; i < n; i++)
        t->pool[str->off + i] = (uint16_t) text_unit(s, ucs2, i);
    str->len = (uint32_t) n;
    return 0;
}

/* lame's setLang: the language's first three bytes ("eng" for NULL or "").
 * lame copies three bytes whatever the string's length (a shorter one is
 * read past its end); here the bytes after a shorter string's end are
 * zeros, which is what lame writes for a language in a zero-filled buffer. */
static void lang_set(char dst[3], const char *src)
{
    int i = 0;
    if (!src || !*src) {
        memcpy(dst, "eng", 3);
        return;
    }
    for (; i < 3 && src[i]; i++)
        dst[i] = src[i];
    for (; i < 3; i++)
        dst[i] = 0;
}

/* lame's isSameLang: ignoring case (in the C locale), control characters
 * as blanks */
static int lang_unit(char c)
{
    int const u = (unsigned char) c;
    int const low = u >= 'A' && u <= 'Z' ? u - 'A' + 'a' : u;
    return (signed char) low < ' ' ? ' ' : low;
}

static int same_lang(const char a[3], const char b[3])
{
    for (int i = 0; i < 3; i++)
        if (lang_unit(a[i]) != lang_unit(b[i]))
            return 0;
    return 1;
}

int rl_id3_frame_add(RlId3Tag *t, uint32_t id, int ucs2, RlId3Text dsc, RlId3Text txt)
{
    return rl_id3_frame_add_lang(t, id, NULL, ucs2, dsc, 0, txt);
}

int rl_id3_frame_add_lang(RlId3Tag *t, uint32_t id, const char *lang, int ucs2, RlId3Text dsc,
                          unsigned dsc_bom, RlId3Text txt)
{
    RlId3Frame *f = NULL;
    char lng[3];
    int rc;

    lang_set(lng, lang);
    if (!dsc_bom)
        dsc_bom = RL_UCS2_BOM;
    if (dsc.raw)
        dsc_bom = RL_UCS2_NO_BOM;
    for (int k = 0; k < t->nframes && !f; k++)
        if (t->frames[k].id == id
            && (!is_multi(id)
                || (same_lang(t->frames[k].lang, lng)
                    && same_descriptor(t, &t->frames[k], ucs2, dsc, dsc_bom))))
            f = &t->frames[k];
    if (!f) {
        if (t->nframes >= RL_ID3_FRAMES)
            return RL_ID3_FULL;
        f = &t->frames[t->nframes++];
        memset(f, 0, sizeof *f);
    }
    f->id = id;
    f->ucs2 = (uint8_t) ucs2;
    memcpy(f->lang, lng, 3);
    f->dsc_bom = (uint16_t) (ucs2 ? dsc_bom : 0);
    if ((rc = store(t, &f->dsc, ucs2, dsc)) < 0 || (rc = store(t, &f->txt, ucs2, txt)) < 0)
        return rc;
    t->flags |= RL_ID3_F_CHANGED | RL_ID3_F_ADD_V2;
    return 0;
}

/* ---- the ID3v2 bytes ---- */

static int is_comment_kind(uint32_t id)
{
    return id == RL_FID_COMMENT || id == RL_FID_USER;
}

/* (lame's frame_id_matches: an id shorter than four characters, its first
 * byte zero, is taken for a URL frame too) */
static int is_url_kind(uint32_t id)
{
    return (id >> 24) == 'W' || (id >> 24) == 0;
}

static size_t str_bytes(const RlId3Frame *f, uint32_t len)
{
    return f->ucs2 ? 2 * (size_t) len : len;
}

static size_t frame_size(const RlId3Frame *f)
{
    size_t const d = f->dsc.len, x = f->txt.len;
    if (is_comment_kind(f->id))     /* encoding, language, descriptor, text */
        return 10 + 1 + 3 + (f->ucs2 ? 2 + 2 * d : 1 + d) + str_bytes(f, f->txt.len);
    if (is_url_kind(f->id))         /* the URL itself always in Latin-1 */
        return 10 + (d > 0 ? 1 + (f->ucs2 ? 2 + 2 * d : 1 + d) : 0)
               + (x > 0 ? (f->ucs2 ? x - 1 : x) : 0);
    return 10 + 1 + (d > 0 ? str_bytes(f, f->dsc.len + 1) : 0) + str_bytes(f, f->txt.len);
}

static uint8_t *put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t) v;
    return p + 4;
}

/* The units of str as stored: bytes, or UCS-2 little-endian. */
static uint8_t *put_str(uint8_t *p, const RlId3Tag *t, const RlId3Frame *f, RlId3Str str)
{
    for (uint32_t i = 0; i < str.len; i++) {
        uint16_t const c = t->pool[str.off + i];
        *p++ = (uint8_t) c;
        if (f->ucs2)
            *p++ = (uint8_t)(c >> 8);
    }
    return p;
}

/* A descriptor and its terminator (one zero byte, two in UCS-2). */
static uint8_t *put_dsc(uint8_t *p, const RlId3Tag *t, const RlId3Frame *f)
{
    p = put_str(p, t, f, f->dsc);
    *p++ = 0;
    if (f->ucs2)
        *p++ = 0;
    return p;
}

/* A UCS-2 URL as Latin-1: the BOM dropped, what Latin-1 lacks a blank. */
static uint8_t *put_low_bytes(uint8_t *p, const RlId3Tag *t, RlId3Str str)
{
    uint32_t i = 0;
    if (str.len > 0 && (t->pool[str.off] == 0xFEFFu || t->pool[str.off] == 0xFFFEu))
        i = 1;
    for (; i < str.len; i++) {
        uint16_t const c = t->pool[str.off + i];
        *p++ = (uint8_t)(c < 0x20 || c > 0xff ? ' ' : c);
    }
    return p;
}

static uint8_t *put_frame(uint8_t *p, const RlId3Tag *t, const RlId3Frame *f)
{
    size_t const n = frame_size(f);
    if (n <= 10)                    /* lame writes nothing (the size still counts) */
        return p;
    p = put_u32(p, f->id);
    p = put_u32(p, (uint32_t)(n - 10));
    *p++ = 0;
    *p++ = 0;
    if (is_comment_kind(f->id)) {
        *p++ = f->ucs2;
        memcpy(p, f->lang, 3);
        p += 3;
        p = put_dsc(p, t, f);
        return put_str(p, t, f, f->txt);
    }
    if (is_url_kind(f->id)) {
        if (f->dsc.len > 0) {
            *p++ = f->ucs2;
            p = put_dsc(p, t, f);
        }
        return f->ucs2 ? put_low_bytes(p, t, f->txt) : put_str(p, t, f, f->txt);
    }
    *p++ = f->ucs2;
    if (f->dsc.len > 0)
        p = put_dsc(p, t, f);
    return put_str(p, t, f, f->txt);
}

static const char *art_mime(int type)
{
    switch (type) {
    case RL_ID3_ART_JPEG: return "image/jpeg";
    case RL_ID3_ART_PNG: return "image/png";
    case RL_ID3_ART_GIF: return "image/gif";
    default: return NULL;
    }
}

/* The APIC frame: Latin-1, the MIME type, picture type 0, no description. */
static uint8_t *put_apic(uint8_t *p, const char *mime, const uint8_t *img, size_t n)
{
    size_t const m = strlen(mime);
    p = put_u32(p, RL_FID_APIC);
    p = put_u32(p, (uint32_t)(4 + m + n));
    memset(p, 0, 3);
    p += 3;
    memcpy(p, mime, m + 1);
    p += m + 1;
    *p++ = 0;
    *p++ = 0;
    if (img)
        memcpy(p, img, n);
    else
        memset(p, 0, n);
    return p + n;
}

size_t rl_id3_v2_build(RlId3Tag *t, int64_t num_samples, int samplerate_in,
                       uint8_t *buf, size_t cap)
{
    const char *mime = t->art_size ? art_mime(t->art_type) : NULL;
    int usev2;
    size_t size, body;
    uint8_t *p;

    if (t->flags & RL_ID3_F_V1_ONLY)
        return 0;
    usev2 = (t->flags & (RL_ID3_F_ADD_V2 | RL_ID3_F_V2_ONLY)) != 0;
    if (t->title_len > 30 || t->artist_len > 30 || t->album_len > 30 || t->comment_len > 30
        || (t->track && t->comment_len > 28))
        usev2 = 1;
    if (!usev2)
        return 0;
    if (num_samples >= 0 && samplerate_in > 0) {
        char len[24];
        unsigned const keep = t->flags;
        double ms = (double) num_samples;
        unsigned long playlength;
        ms *= 1000;
        ms /= samplerate_in;
        playlength = ms > 4294967295.0 ? 4294967295UL : ms < 0 ? 0 : (unsigned long) ms;
        snprintf(len, sizeof len, "%lu", playlength);
        if (rl_id3_frame_add(t, RL_FID_LENGTH, 0, (RlId3Text){ NULL, 0, 0 },
                             (RlId3Text){ len, strlen(len), 0 }) < 0)
            return 0;
        t->flags = keep;
    }
    size = 10;
    if (mime)
        size += 10 + 4 + strlen(mime) + t->art_size;
    for (int k = 0; k < t->nframes; k++)
        size += frame_size(&t->frames[k]);
    if (t->flags & RL_ID3_F_PAD_V2)
        size += t->padding;
    if (!buf || cap < size)
        return size;
    p = buf;
    memcpy(p, "ID3\3\0\0", 6);
    p += 6;
    body = size - 10;
    *p++ = (uint8_t)((body >> 21) & 0x7f);
    *p++ = (uint8_t)((body >> 14) & 0x7f);
    *p++ = (uint8_t)((body >> 7) & 0x7f);
    *p++ = (uint8_t)(body & 0x7f);
    for (int k = 0; k < t->nframes; k++)
        p = put_frame(p, t, &t->frames[k]);
    if (mime)
        p = put_apic(p, mime, t->art, t->art_size);
    memset(p, 0, size - (size_t)(p - buf));
    return size;
}

/* ---- the ID3v1 bytes ---- */

static uint8_t *put_field(uint8_t *p, const char *s, size_t n, int pad)
{
    while (n--)
        *p++ = (uint8_t)(s && *s ? *s++ : pad);
    return p;
}

size_t rl_id3_v1_build(const RlId3Tag *t, uint8_t buf[128])
{
    int const pad = (t->flags & RL_ID3_F_SPACE_V1) ? ' ' : 0;
    char year[12];
    uint8_t *p = buf;

    if ((t->flags & RL_ID3_F_V2_ONLY) || !(t->flags & RL_ID3_F_CHANGED))
        return 0;
    memcpy(p, "TAG", 3);
    p += 3;
    p = put_field(p, t->title, 30, pad);
    p = put_field(p, t->artist, 30, pad);
    p = put_field(p, t->album, 30, pad);
    snprintf(year, sizeof year, "%d", t->year);
    p = put_field(p, t->year ? year : NULL, 4, pad);
    p = put_field(p, t->comment, t->track ? 28 : 30, pad);
    if (t->track) {
        *p++ = 0;
        *p++ = (uint8_t) t->track;
    }
    *p = (uint8_t) t->genre;
    return 128;
}
