/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: tag text from the user's charset, as lame's front end converts
 * its arguments (iconv from the locale's codeset, nl_langinfo(CODESET)):
 * to Latin-1 with transliteration for ID3v1 and Latin-1 frames, to UTF-16
 * behind a BOM for UCS-2 frames.  Conversion stops at the first byte the
 * codeset does not allow (the text is cut there, as lame cuts it).  The
 * locale is the caller's: the command sets LC_CTYPE from the environment
 * as lame does; a program using the library keeps its own.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_TAG_CHARSET_H
#define RL_TAG_CHARSET_H

#include <stdint.h>

/* s in Latin-1, NUL-terminated (malloc'd; NULL: out of memory). */
char *rl_tag_to_latin1(const char *s);

/* s as the BOM 0xFEFF and UTF-16 units, 0-terminated (malloc'd; NULL: out
 * of memory). */
uint16_t *rl_tag_to_utf16(const char *s);

#endif
