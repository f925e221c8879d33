/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: lame's texts of its preset grammar: --preset help, and the
 * version line its preset errors start with.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "lame_args.h"
#include "version.h"

void rl_lame_print_preset_help(FILE *fp)
{
    fprintf(fp,
            "ringlame %s (reproduces LAME 3.100 output)\n"
            "\n"
            "--preset [fast] [cbr] <name>\n"
            "\n"
            "  VBR:   medium = -V 4, standard = -V 2, extreme = -V 0 (\"fast\" changes nothing)\n"
            "  CBR:   insane = 320 kbps\n"
            "  ABR:   a bitrate from 8 to 320 kbps, with the tuning of the nearest\n"
            "         standard bitrate; \"cbr\" before it makes it CBR.  Like lame, the\n"
            "         preset's input scaling (x0.95 up to 160 kbps, 0.97 at 192, 0.98 at\n"
            "         224) is applied twice, so --preset 128 is not --abr 128.\n"
            "  Old names:  phone = 16 kbps mono; phon+, lw, mw-eu, sw = 24 kbps mono;\n"
            "         mw-us = 40 kbps mono; voice = 56 kbps mono; fm, radio, tape = 112;\n"
            "         hifi = 160; cd = 192; studio = 256.\n",
            rl_version());
}

/* lame's lame_version_print: the whole line fits in 80 columns */
void rl_lame_print_version_line(FILE *fp)
{
    const char *const bits = sizeof(void *) == 8 ? "64bits" : sizeof(void *) == 4 ? "32bits" : "";
    if (bits[0])
        fprintf(fp, "LAME %s version 3.100 (http://lame.sf.net)\n\n", bits);
    else
        fprintf(fp, "LAME version 3.100 (http://lame.sf.net)\n\n");
}
