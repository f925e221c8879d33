/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: ID3 tags as lame 3.100's front end writes them.  An RlId3Tag is
 * the state lame's tag options build (in command-line order): the ID3v1
 * fields, the ID3v2 frames in the order they were first set, and the flags
 * (--add-id3v2, --id3v1-only, ...).  The builders turn it into the bytes the
 * output gets: the ID3v2 tag before the stream, the 128-byte ID3v1 tag after
 * it.  Pure computation, fixed storage (no allocation).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_ID3TAG_H
#define RL_ID3TAG_H

#include <stddef.h>
#include <stdint.h>

#define RL_ID3_TEXT_MAX  1024    /* characters of one tag text option */
#define RL_ID3_FRAMES    12      /* TSSE, the seven text options, TLEN and room */
#define RL_ID3_GENRES    148     /* the ID3v1 genre list */
#define RL_ID3_PAD_MAX   128000  /* --pad-id3v2-size's limit */

typedef struct RlId3Frame {
    uint32_t id;                 /* "TIT2" as a big-endian number */
    char     lang[3];            /* COMM only */
    uint8_t  desc_enc;           /* COMM: the empty descriptor's encoding (0 Latin-1, 1 UCS-2) */
    uint8_t  text_enc;           /* 0: Latin-1 (one byte a character); 1: UCS-2 with BOM */
    uint16_t len;                /* characters in text (the BOM counts) */
    uint16_t text[RL_ID3_TEXT_MAX + 2];
} RlId3Frame;

typedef struct RlId3Tag {
    unsigned flags;              /* RL_ID3_F_* */
    /* the ID3v1 fields: the first 30 bytes and the whole length */
    char     title[31], artist[31], album[31], comment[31];
    size_t   title_len, artist_len, album_len, comment_len;
    int      year;               /* 0: none */
    int      track;              /* 0: none (ID3v1.0) */
    int      genre;              /* 255: none */
    unsigned padding;            /* bytes of ID3v2 padding with RL_ID3_F_PAD_V2 */
    int      nframes;
    RlId3Frame frames[RL_ID3_FRAMES];
} RlId3Tag;

enum {
    RL_ID3_F_CHANGED  = 1,       /* a field was set: the ID3v1 tag is written */
    RL_ID3_F_ADD_V2   = 2,
    RL_ID3_F_V1_ONLY  = 4,
    RL_ID3_F_V2_ONLY  = 8,
    RL_ID3_F_SPACE_V1 = 16,
    RL_ID3_F_PAD_V2   = 32
};

/* lame's id3tag_init: no field, the encoder's TSSE frame. */
void rl_id3_init(RlId3Tag *t);

/* One tag text option of lame's front end: field 't' title, 'a' artist,
 * 'l' album, 'y' year, 'c' comment, 'n' track, 'g' genre; text is ASCII
 * (at most RL_ID3_TEXT_MAX characters).  utf16 1: the default
 * (--id3v2-utf16): the ID3v1 field and then the ID3v2 frame in UCS-2;
 * 0 (--id3v2-latin1): both in Latin-1.  Returns lame's result: 0, or -1
 * (track outside 1..255 in Latin-1 mode, genre number outside the list). */
int  rl_id3_set_text(RlId3Tag *t, int field, const char *text, int utf16);

void rl_id3_add_v2(RlId3Tag *t);         /* --add-id3v2, --id3v2-utf16, --id3v2-latin1 */
void rl_id3_v1_only(RlId3Tag *t);        /* --id3v1-only */
void rl_id3_v2_only(RlId3Tag *t);        /* --id3v2-only */
void rl_id3_space_v1(RlId3Tag *t);       /* --space-id3v1 */
void rl_id3_set_pad(RlId3Tag *t, unsigned n);   /* --pad-id3v2-size n (--pad-id3v2: 128) */

/* The ID3v2 tag: its size (0: none).  When cap is at least the size, the
 * bytes are written to buf.  num_samples < 0: unknown (no TLEN frame);
 * else the TLEN frame (play length in ms at samplerate_in) is set first,
 * as lame does. */
size_t rl_id3_v2_build(RlId3Tag *t, int64_t num_samples, int samplerate_in,
                       uint8_t *buf, size_t cap);

/* The ID3v1 tag: 128 bytes written to buf, or 0 (none). */
size_t rl_id3_v1_build(const RlId3Tag *t, uint8_t buf[128]);

/* The genre list: the name of number i, and the k-th number in lame's
 * alphabetical order (--genre-list). */
const char *rl_id3_genre_name(int i);
int  rl_id3_genre_alpha(int k);

#endif
