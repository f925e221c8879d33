/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: tag text conversion from the locale's charset (tag_charset.h).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <iconv.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "tag_charset.h"

/* Bytes of one character in the locale's codeset (lame asks iconv how
 * much room "A" needs: 1 for every ASCII-based codeset). */
static size_t char_width(void)
{
    size_t n = 1;
    iconv_t cd = iconv_open(nl_langinfo(CODESET), "ISO_8859-1");
    if (cd != (iconv_t) -1) {
        for (n = 0; n < 32; n++) {
            char src[] = "A", dst[32];
            char *in = src, *out = dst;
            size_t inleft = 1, outleft = n;
            if (iconv(cd, &in, &inleft, &out, &outleft) != (size_t) -1)
                break;
        }
        iconv_close(cd);
    }
    return n;
}

/* Characters before the first all-zero character of width w. */
static size_t length_in_chars(const char *s, size_t w)
{
    size_t n = 0;
    for (;; n++) {
        size_t zeros = 0;
        for (size_t i = 0; i < w; i++)
            zeros += s[n * w + i] == 0;
        if (zeros == w || w == 0)
            return n;
    }
}

/* Converts s (in the locale's codeset) to `to` into dst (room bytes, zeroed
 * by the caller): as much as converts, the rest left zero. */
static void convert(const char *to, const char *s, char *dst, size_t room)
{
    size_t const w = char_width();
    size_t const n = length_in_chars(s, w);
    iconv_t cd = iconv_open(to, nl_langinfo(CODESET));
    if (cd != (iconv_t) -1) {
        char *in = (char *) s, *out = dst;
        size_t inleft = n * w, outleft = room;
        (void) iconv(cd, &in, &inleft, &out, &outleft);
        iconv_close(cd);
    }
}

char *rl_tag_to_latin1(const char *s)
{
    size_t const n = strlen(s) * 4;
    char *dst = calloc(n + 4, 4);
    if (dst)
        convert("ISO_8859-1//TRANSLIT", s, dst, n);
    return dst;
}

uint16_t *rl_tag_to_utf16(const char *s)
{
    size_t const n = (strlen(s) + 1) * 4;
    unsigned char *dst = calloc(n + 4, 4);
    uint16_t *u;
    size_t units;
    if (!dst)
        return NULL;
    convert("UTF-16LE//TRANSLIT", s, (char *) dst + 2, n);
    /* the units as numbers, whatever this machine's byte order */
    units = 1;
    while (units * 2 + 1 < n + 2 && (dst[units * 2] | dst[units * 2 + 1]))
        units++;
    u = calloc(units + 1, sizeof *u);
    if (u) {
        u[0] = 0xFEFFu;
        for (size_t i = 1; i < units; i++)
            u[i] = (uint16_t)(dst[2 * i] | dst[2 * i + 1] << 8);
    }
    free(dst);
    return u;
}
