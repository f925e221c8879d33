/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ID3 tags as lame 3.100's front end writes them (see id3tag.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "id3tag.h"

#define FID(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

enum {
    ID_TITLE = FID('T', 'I', 'T', '2'), ID_ARTIST = FID('T', 'P', 'E', '1'),
    ID_ALBUM = FID('T', 'A', 'L', 'B'), ID_YEAR = FID('T', 'Y', 'E', 'R'),
    ID_COMMENT = FID('C', 'O', 'M', 'M'), ID_TRACK = FID('T', 'R', 'C', 'K'),
    ID_GENRE = FID('T', 'C', 'O', 'N'), ID_ENCODER = FID('T', 'S', 'S', 'E'),
    ID_LENGTH = FID('T', 'L', 'E', 'N')
};

#define GENRE_NONE  255
#define GENRE_OTHER 12
#define UCS2_BOM    0xFEFFu

/* The ID3v1 genre list (Winamp's spelling) and its alphabetical order. */
static const char *const genre_names[RL_ID3_GENRES] = {
    "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge",
    "Hip-Hop", "Jazz", "Metal", "New Age", "Oldies", "Other", "Pop", "R&B",
    "Rap", "Reggae", "Rock", "Techno", "Industrial", "Alternative", "Ska",
    "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop",
    "Vocal", "Jazz+Funk", "Fusion", "Trance", "Classical", "Instrumental",
    "Acid", "House", "Game", "Sound Clip", "Gospel", "Noise", "Alternative Rock",
    "Bass", "Soul", "Punk", "Space", "Meditative", "Instrumental Pop",
    "Instrumental Rock", "Ethnic", "Gothic", "Darkwave", "Techno-Industrial",
    "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy",
    "Cult", "Gangsta", "Top 40", "Christian Rap", "Pop/Funk", "Jungle",
    "Native US", "Cabaret", "New Wave", "Psychedelic", "Rave",
    "Showtunes", "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz",
    "Polka", "Retro", "Musical", "Rock & Roll", "Hard Rock", "Folk",
    "Folk-Rock", "National Folk", "Swing", "Fast Fusion", "Bebob", "Latin",
    "Revival", "Celtic", "Bluegrass", "Avantgarde", "Gothic Rock",
    "Progressive Rock", "Psychedelic Rock", "Symphonic Rock", "Slow Rock",
    "Big Band", "Chorus", "Easy Listening", "Acoustic", "Humour", "Speech",
    "Chanson", "Opera", "Chamber Music", "Sonata", "Symphony", "Booty Bass",
    "Primus", "Porn Groove", "Satire", "Slow Jam", "Club", "Tango", "Samba",
    "Folklore", "Ballad", "Power Ballad", "Rhythmic Soul", "Freestyle", "Duet",
    "Punk Rock", "Drum Solo", "A Cappella", "Euro-House", "Dance Hall",
    "Goa", "Drum & Bass", "Club-House", "Hardcore", "Terror", "Indie",
    "BritPop", "Negerpunk", "Polsk Punk", "Beat", "Christian Gangsta",
    "Heavy Metal", "Black Metal", "Crossover", "Contemporary Christian",
    "Christian Rock", "Merengue", "Salsa", "Thrash Metal", "Anime", "JPop",
    "SynthPop"
};

static const unsigned char genre_alpha[RL_ID3_GENRES] = {
    123, 34, 74, 73, 99, 20, 40, 26, 145, 90, 116, 41, 135, 85, 96, 138, 89, 0,
    107, 132, 65, 88, 104, 102, 97, 136, 61, 141, 32, 1, 112, 128, 57, 140, 2,
    139, 58, 3, 125, 50, 22, 4, 55, 127, 122, 120, 98, 52, 48, 54, 124, 25, 84,
    80, 115, 81, 119, 5, 30, 36, 59, 126, 38, 49, 91, 6, 129, 79, 137, 7, 35,
    100, 131, 19, 33, 46, 47, 8, 29, 146, 63, 86, 71, 45, 142, 9, 77, 82, 64,
    133, 10, 66, 39, 11, 103, 12, 75, 134, 13, 53, 62, 109, 117, 23, 108, 92,
    67, 93, 43, 121, 15, 68, 14, 16, 76, 87, 118, 17, 78, 143, 114, 110, 69, 21,
    111, 95, 105, 42, 37, 24, 56, 44, 101, 83, 94, 106, 147, 113, 18, 51, 130,
    144, 60, 70, 31, 72, 27, 28
};

const char *rl_id3_genre_name(int i)
{
    return i >= 0 && i < RL_ID3_GENRES ? genre_names[i] : NULL;
}

int rl_id3_genre_alpha(int k)
{
    return k >= 0 && k < RL_ID3_GENRES ? genre_alpha[k] : -1;
}

/* ---- the ID3v2 frame list ---- */

/* The frame with this id (every frame we set is single: COMM is always the
 * "eng" one with an empty descriptor), or a new one at the end. */
static RlId3Frame *frame_slot(RlId3Tag *t, uint32_t id)
{
    for (int k = 0; k < t->nframes; k++)
        if (t->frames[k].id == id)
            return &t->frames[k];
    if (t->nframes >= RL_ID3_FRAMES)
        return NULL;
    t->frames[t->nframes].id = id;
    return &t->frames[t->nframes++];
}

/* Sets frame id to Latin-1 text (lame's id3v2_add_latin1: ADD_V2 is set). */
static void frame_latin1(RlId3Tag *t, uint32_t id, const char *s)
{
    RlId3Frame *f = frame_slot(t, id);
    size_t n = 0;

    if (!f)
        return;
    memcpy(f->lang, "eng", 3);
    f->desc_enc = 0;
    f->text_enc = 0;
    while (s[n] && n < RL_ID3_TEXT_MAX + 1) {
        f->text[n] = (unsigned char) s[n];
        n++;
    }
    f->len = (uint16_t) n;
    t->flags |= RL_ID3_F_CHANGED | RL_ID3_F_ADD_V2;
}

/* Sets frame id to UCS-2 text: the BOM, then the ASCII characters. */
static void frame_ucs2(RlId3Tag *t, uint32_t id, const char *s)
{
    RlId3Frame *f = frame_slot(t, id);
    size_t n = 0;

    if (!f)
        return;
    memcpy(f->lang, "eng", 3);
    f->desc_enc = 1;
    f->text_enc = 1;
    f->text[n++] = UCS2_BOM;
    while (*s && n < RL_ID3_TEXT_MAX + 2)
        f->text[n++] = (unsigned char) *s++;
    f->len = (uint16_t) n;
    t->flags |= RL_ID3_F_CHANGED | RL_ID3_F_ADD_V2;
}

/* A v1 field's copy in ID3v2: Latin-1, and it does not ask for a v2 tag. */
static void copy_to_v2(RlId3Tag *t, uint32_t id, const char *s)
{
    unsigned const keep = t->flags;
    frame_latin1(t, id, s);
    t->flags = keep;
}

void rl_id3_init(RlId3Tag *t)
{
    char enc[96];

    memset(t, 0, sizeof *t);
    t->genre = GENRE_NONE;
    t->padding = 128;
    snprintf(enc, sizeof enc, "LAME %sversion 3.100 (http://lame.sf.net)",
             sizeof(void *) == 8 ? "64bits " : sizeof(void *) == 4 ? "32bits " : "");
    copy_to_v2(t, ID_ENCODER, enc);
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

/* ---- genres ---- */

static int same_ignoring_case(const char *a, const char *b)
{
    for (;; a++, b++) {
        int const x = tolower((unsigned char) *a), y = tolower((unsigned char) *b);
        if (x != y)
            return 0;
        if (x == 0)
            return 1;
    }
}

/* From p: the first letter (A-Z, either case) that is not x (upper case). */
static const char *next_letter(const char *p, int x)
{
    for (; *p; p++) {
        int const c = toupper((unsigned char) *p);
        if (c >= 'A' && c <= 'Z' && c != x)
            break;
    }
    return p;
}

/* lame's loose match: the letters, repeated letters counted once; an
 * abbreviation ("R." ) in p skips a word of q. */
static int loose_match(const char *p, const char *q)
{
    int cp, cq;

    p = next_letter(p, 0);
    q = next_letter(q, 0);
    cp = toupper((unsigned char) *p);
    cq = toupper((unsigned char) *q);
    while (cp == cq) {
        if (cp == 0)
            return 1;
        if (p[1] == '.') {
            while (*q && *q++ != ' ') {
            }
        }
        p = next_letter(p, cp);
        q = next_letter(q, cq);
        cp = toupper((unsigned char) *p);
        cq = toupper((unsigned char) *q);
    }
    return 0;
}

/* The genre's number; -1: a number outside the list; -2: no such name. */
static int find_genre(const char *s)
{
    char *end = NULL;
    long const num = strtol(s, &end, 10);
    int i;

    if (*end == '\0')
        return num >= 0 && num < RL_ID3_GENRES ? (int) num : -1;
    for (i = 0; i < RL_ID3_GENRES; i++)
        if (same_ignoring_case(s, genre_names[i]))
            return i;
    for (i = 0; i < RL_ID3_GENRES; i++)
        if (loose_match(s, genre_names[i]))
            return i;
    return -2;
}

/* ---- the options ---- */

static void set_v1_text(char dst[31], size_t *len, const char *s)
{
    *len = strlen(s);
    snprintf(dst, 31, "%s", s);
}

/* lame's Latin-1 setters (id3tag_set_title, ...). */
static int set_latin1(RlId3Tag *t, int field, const char *s)
{
    int num;

    if (*s == '\0')
        return 0;
    switch (field) {
    case 't':
        set_v1_text(t->title, &t->title_len, s);
        t->flags |= RL_ID3_F_CHANGED;
        copy_to_v2(t, ID_TITLE, s);
        return 0;
    case 'a':
        set_v1_text(t->artist, &t->artist_len, s);
        t->flags |= RL_ID3_F_CHANGED;
        copy_to_v2(t, ID_ARTIST, s);
        return 0;
    case 'l':
        set_v1_text(t->album, &t->album_len, s);
        t->flags |= RL_ID3_F_CHANGED;
        copy_to_v2(t, ID_ALBUM, s);
        return 0;
    case 'c':
        set_v1_text(t->comment, &t->comment_len, s);
        t->flags |= RL_ID3_F_CHANGED;
        copy_to_v2(t, ID_COMMENT, s);
        return 0;
    case 'y':
        num = atoi(s);
        num = num < 0 ? 0 : num > 9999 ? 9999 : num;
        if (num) {
            t->year = num;
            t->flags |= RL_ID3_F_CHANGED;
        }
        copy_to_v2(t, ID_YEAR, s);
        return 0;
    case 'n': {
        int ret = 0;
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
        copy_to_v2(t, ID_TRACK, s);
        return ret;
    }
    case 'g':
        num = find_genre(s);
        if (num == -1)
            return -1;
        t->flags |= RL_ID3_F_CHANGED;
        if (num >= 0) {
            t->genre = num;
            s = genre_names[num];
        } else {
            t->genre = GENRE_OTHER;
            t->flags |= RL_ID3_F_ADD_V2;
        }
        copy_to_v2(t, ID_GENRE, s);
        return 0;
    }
    return 0;
}

/* lame's UCS-2 setters (id3tag_set_textinfo_utf16, ...): the frame only;
 * the text is the BOM and the ASCII characters (an empty text too). */
static int set_ucs2(RlId3Tag *t, int field, const char *s)
{
    uint32_t id;
    int num;

    switch (field) {
    case 't': id = ID_TITLE; break;
    case 'a': id = ID_ARTIST; break;
    case 'l': id = ID_ALBUM; break;
    case 'y': id = ID_YEAR; break;
    case 'n': id = ID_TRACK; break;
    case 'c': id = ID_COMMENT; break;
    case 'g':
        /* ASCII is always Latin-1: a known genre is stored by name */
        num = find_genre(s);
        if (num == -1)
            return -1;
        if (num >= 0) {
            t->flags |= RL_ID3_F_CHANGED;
            t->genre = num;
            copy_to_v2(t, ID_GENRE, genre_names[num]);
            return 0;
        }
        frame_ucs2(t, ID_GENRE, s);
        t->flags |= RL_ID3_F_CHANGED;
        t->genre = GENRE_OTHER;
        return 0;
    default:
        return 0;
    }
    frame_ucs2(t, id, s);
    return 0;
}

int rl_id3_set_text(RlId3Tag *t, int field, const char *text, int utf16)
{
    if (!utf16)
        return set_latin1(t, field, text);
    (void) set_latin1(t, field, text);       /* the ID3v1 field */
    return set_ucs2(t, field, text);
}

/* ---- the bytes ---- */

static size_t frame_size(const RlId3Frame *f)
{
    size_t n = 10 + 1 + (size_t) f->len * (f->text_enc ? 2 : 1);
    if (f->id == ID_COMMENT)
        n += 3 + (f->desc_enc ? 2 : 1);
    return n;
}

static uint8_t *put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t) v;
    return p + 4;
}

static uint8_t *put_frame(uint8_t *p, const RlId3Frame *f)
{
    p = put_u32(p, f->id);
    p = put_u32(p, (uint32_t)(frame_size(f) - 10));
    *p++ = 0;
    *p++ = 0;
    *p++ = f->text_enc;
    if (f->id == ID_COMMENT) {
        memcpy(p, f->lang, 3);
        p += 3;
        *p++ = 0;                  /* the empty descriptor's terminator */
        if (f->desc_enc)
            *p++ = 0;
    }
    for (unsigned k = 0; k < f->len; k++) {
        *p++ = (uint8_t) f->text[k];
        if (f->text_enc)
            *p++ = (uint8_t)(f->text[k] >> 8);
    }
    return p;
}

size_t rl_id3_v2_build(RlId3Tag *t, int64_t num_samples, int samplerate_in,
                       uint8_t *buf, size_t cap)
{
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
        double ms = (double) num_samples;
        unsigned long playlength;
        ms *= 1000;
        ms /= samplerate_in;
        playlength = ms > 4294967295.0 ? 4294967295UL : ms < 0 ? 0 : (unsigned long) ms;
        snprintf(len, sizeof len, "%lu", playlength);
        copy_to_v2(t, ID_LENGTH, len);
    }
    size = 10;
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
        p = put_frame(p, &t->frames[k]);
    memset(p, 0, size - (size_t)(p - buf));
    return size;
}

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
