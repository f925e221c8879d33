/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the ID3v2 frame list of an RlId3Tag (id3tag.h) and the genre
 * lookup, shared by the tag's setters and builders.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_ID3_FRAMES_H
#define RL_ID3_FRAMES_H

#include "id3tag.h"

#define RL_FID(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) \
                            | ((uint32_t)(c) << 8) | (uint32_t)(d))

enum {
    RL_FID_TITLE = RL_FID('T', 'I', 'T', '2'), RL_FID_ARTIST = RL_FID('T', 'P', 'E', '1'),
    RL_FID_ALBUM = RL_FID('T', 'A', 'L', 'B'), RL_FID_YEAR = RL_FID('T', 'Y', 'E', 'R'),
    RL_FID_COMMENT = RL_FID('C', 'O', 'M', 'M'), RL_FID_TRACK = RL_FID('T', 'R', 'C', 'K'),
    RL_FID_GENRE = RL_FID('T', 'C', 'O', 'N'), RL_FID_ENCODER = RL_FID('T', 'S', 'S', 'E'),
    RL_FID_LENGTH = RL_FID('T', 'L', 'E', 'N'), RL_FID_TXXX = RL_FID('T', 'X', 'X', 'X'),
    RL_FID_WXXX = RL_FID('W', 'X', 'X', 'X'), RL_FID_USER = RL_FID('U', 'S', 'E', 'R'),
    RL_FID_PCST = RL_FID('P', 'C', 'S', 'T'), RL_FID_WFED = RL_FID('W', 'F', 'E', 'D'),
    RL_FID_APIC = RL_FID('A', 'P', 'I', 'C')
};

#define RL_UCS2_BOM 0xFEFFu

/* A text as the setters hand it to the frame list: Latin-1 bytes, or the
 * UTF-16 units after an implied BOM; raw (UCS-2 only): the units as they
 * are, no BOM (lame keeps a UTF-16 comment without one as given, and
 * writes it so).  p NULL: no text at all (an empty string: p set, n 0; in
 * UCS-2 that is the BOM alone). */
typedef struct RlId3Text {
    const void *p;
    size_t n;
    int raw;
} RlId3Text;

/* A frame's dsc_bom when its UCS-2 descriptor had no byte-order mark */
#define RL_UCS2_NO_BOM 1u

/* lame's id3v2_add_latin1 / id3v2_add_ucs2: sets (or, for a frame id that
 * may repeat, the one with the same descriptor) frame id to dsc and txt;
 * a v2 tag is asked for.  0, or RL_ID3_FULL. */
int rl_id3_frame_add(RlId3Tag *t, uint32_t id, int ucs2, RlId3Text dsc, RlId3Text txt);
/* The same with a language (lame's id3v2_add_* with lng): its first three
 * bytes, zeros after a shorter string's end; NULL or "": "eng".  A frame id
 * that may repeat is replaced only where the language (ignoring case) and
 * the descriptor are the same; in UCS-2 dsc_bom is the byte-order mark the
 * caller's descriptor had (its units are given little-endian either way;
 * 0: RL_UCS2_BOM; a raw descriptor has none): lame compares the units as
 * given, marks included. */
int rl_id3_frame_add_lang(RlId3Tag *t, uint32_t id, const char *lang, int ucs2, RlId3Text dsc,
                          unsigned dsc_bom, RlId3Text txt);

/* lame's lookupGenre: the genre's number; -1: a number outside the list;
 * -2: no such name. */
int rl_id3_genre_find(const char *s);

#endif
