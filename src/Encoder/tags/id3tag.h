/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ID3 tags as lame 3.100's front end writes them.  An RlId3Tag is
 * the state lame's tag options build (in command-line order): the ID3v1
 * fields, the ID3v2 frames in the order they were first set (text, comment,
 * URL and user frames, Latin-1 or UCS-2), the album art, and the flags
 * (--add-id3v2, --id3v1-only, ...).  The builders turn it into the bytes
 * the output gets: the ID3v2 tag before the stream, the 128-byte ID3v1 tag
 * after it.  Text comes in already converted from the user's charset
 * (Latin-1 bytes, or UTF-16 units behind a BOM): this layer never looks at
 * the locale.  Pure computation, fixed storage (no allocation; the album
 * art is the caller's memory).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_ID3TAG_H
#define RL_ID3TAG_H

#include <stddef.h>
#include <stdint.h>

#define RL_ID3_FRAMES    64      /* ID3v2 frames (TSSE, TLEN and the user's) */
#define RL_ID3_POOL      32768   /* characters of all frame texts together */
#define RL_ID3_GENRES    148     /* the ID3v1 genre list */
#define RL_ID3_PAD_MAX   128000  /* --pad-id3v2-size's limit */

/* A frame's descriptor or text: pool[off .. off+len) (cap: room kept). */
typedef struct RlId3Str {
    uint32_t off, len, cap;
} RlId3Str;

typedef struct RlId3Frame {
    uint32_t id;                 /* "TIT2" as a big-endian number */
    uint8_t  ucs2;               /* 0: Latin-1 (a unit a byte); 1: UCS-2 (the BOM counts) */
    char     lang[3];            /* the COMM and USER frames' language ("eng" unless given) */
    uint16_t dsc_bom;            /* UCS-2: the descriptor's byte-order mark as given */
    RlId3Str dsc, txt;
} RlId3Frame;

enum { RL_ID3_ART_NONE = 0, RL_ID3_ART_JPEG, RL_ID3_ART_PNG, RL_ID3_ART_GIF };

typedef struct RlId3Tag {
    unsigned flags;              /* RL_ID3_F_* */
    /* the ID3v1 fields: the first 30 bytes and the whole length */
    char     title[31], artist[31], album[31], comment[31];
    size_t   title_len, artist_len, album_len, comment_len;
    int      year;               /* 0: none */
    int      track;              /* 0: none (ID3v1.0) */
    int      genre;              /* 255: none */
    unsigned padding;            /* bytes of ID3v2 padding with RL_ID3_F_PAD_V2 */
    int      art_type;           /* RL_ID3_ART_*: the APIC frame's picture */
    size_t   art_size;
    const uint8_t *art;          /* the caller's bytes (rl_id3_attach_art) */
    int      nframes;
    RlId3Frame frames[RL_ID3_FRAMES];
    uint32_t pool_used;
    uint16_t pool[RL_ID3_POOL];
} RlId3Tag;

enum {
    RL_ID3_F_CHANGED  = 1,       /* a field was set: the ID3v1 tag is written */
    RL_ID3_F_ADD_V2   = 2,
    RL_ID3_F_V1_ONLY  = 4,
    RL_ID3_F_V2_ONLY  = 8,
    RL_ID3_F_SPACE_V1 = 16,
    RL_ID3_F_PAD_V2   = 32
};

/* Returned when the frames or the text pool are full (lame has no limit). */
#define RL_ID3_FULL (-1000)

/* lame's id3tag_init: no field, the encoder's TSSE frame. */
void rl_id3_init(RlId3Tag *t);

/* One tag option of lame's front end in Latin-1 (lame's set_id3tag):
 * field 't' title, 'a' artist, 'l' album, 'y' year, 'c' comment,
 * 'n' track, 'g' genre, 'v' a raw frame "ID=value" (--tv).  s is Latin-1,
 * NUL-terminated.  Returns lame's result: 0, or negative (track outside
 * 1..255, genre number outside the list, a --tv value lame rejects), or
 * RL_ID3_FULL. */
int  rl_id3_set_latin1(RlId3Tag *t, int field, const char *s);

/* The n units of a big-endian UTF-16 string (after its mark) swapped to
 * little-endian, as lame swaps each unit when it writes it; in a new
 * buffer the caller frees (NULL: no memory). */
uint16_t *rl_id3_ucs2_swapped(const uint16_t *units, size_t n);

/* The same in UCS-2 (lame's set_id3v2tag): s is the BOM (0xFEFF) and the
 * UTF-16 units, 0-terminated.  The ID3v1 field is not touched (lame's
 * front end sets it first through rl_id3_set_latin1). */
int  rl_id3_set_utf16(RlId3Tag *t, int field, const uint16_t *s);
/* lame's id3tag_set_textinfo_latin1: frame id (its first four characters,
 * upper-case letters and digits, fewer where it is shorter: the frame id
 * led by zero bytes, written as a URL frame as lame writes it; else -1),
 * text NUL-terminated (NULL: 0).  lame's result. */
int  rl_id3_set_textinfo_latin1(RlId3Tag *t, const char *id, const char *text);
/* lame's id3tag_set_textinfo_utf16: frame id as above, text the UTF-16
 * units behind a byte-order mark of either order (NULL: 0; none: -3).
 * lame's result. */
int  rl_id3_set_textinfo_utf16(RlId3Tag *t, const char *id, const uint16_t *text);

void rl_id3_add_v2(RlId3Tag *t);         /* --add-id3v2, --id3v2-utf16, --id3v2-latin1 */
void rl_id3_v1_only(RlId3Tag *t);        /* --id3v1-only */
void rl_id3_v2_only(RlId3Tag *t);        /* --id3v2-only */
void rl_id3_space_v1(RlId3Tag *t);       /* --space-id3v1 */
void rl_id3_set_pad(RlId3Tag *t, unsigned n);   /* --pad-id3v2-size n (--pad-id3v2: 128) */

/* --ti: the picture type of an image (lame looks at the first bytes:
 * JPEG, PNG, GIF), RL_ID3_ART_NONE when it is none of them. */
int  rl_id3_art_type(const uint8_t *img, size_t n);

/* --ti with the image's bytes: -1 (and no change) when its type is not
 * known; else the art is set (a v2 tag is asked for) and img is kept as
 * the attached bytes (may be NULL: attach them before building). */
int  rl_id3_set_art(RlId3Tag *t, const uint8_t *img, size_t n);

/* Attaches the bytes of the art set before: 0, or -1 when they are not of
 * the same size and type. */
int  rl_id3_attach_art(RlId3Tag *t, const uint8_t *img, size_t n);

/* The ID3v2 tag: its size (0: none).  When cap is at least the size, the
 * bytes are written to buf.  num_samples < 0: unknown (no TLEN frame);
 * else the TLEN frame (play length in ms at samplerate_in) is set first,
 * as lame does.  Set art must be attached. */
size_t rl_id3_v2_build(RlId3Tag *t, int64_t num_samples, int samplerate_in,
                       uint8_t *buf, size_t cap);

/* The ID3v1 tag: 128 bytes written to buf, or 0 (none). */
size_t rl_id3_v1_build(const RlId3Tag *t, uint8_t buf[128]);

/* The genre list: the name of number i, and the k-th number in lame's
 * alphabetical order (--genre-list). */
const char *rl_id3_genre_name(int i);
int  rl_id3_genre_alpha(int k);

#endif
