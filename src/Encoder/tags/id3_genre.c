/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the ID3v1 genre list and lame's genre lookup (exact name,
 * loose name, number).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <ctype.h>
#include <stdlib.h>

#include "id3_frames.h"

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

int rl_id3_genre_find(const char *s)
{
    char *end = NULL;
    /* lame keeps strtol's long in an int (a huge number wraps) */
    int const num = (int) strtol(s, &end, 10);
    int i;

    if (*end == '\0')
        return num >= 0 && num < RL_ID3_GENRES ? num : -1;
    for (i = 0; i < RL_ID3_GENRES; i++)
        if (same_ignoring_case(s, genre_names[i]))
            return i;
    for (i = 0; i < RL_ID3_GENRES; i++)
        if (loose_match(s, genre_names[i]))
            return i;
    return -2;
}
