/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's version strings (those of LAME 3.100,
 * whose bytes it writes) and its configuration reports
 * (lame_print_config, lame_print_internals) through the handle's message
 * callback, with lame's texts.  Derived from LAME 3.100
 * (LGPL-2.0-or-later). */
#include <stdarg.h>

#include "lame_report.h"
#include "mp3lame_flags.h"
#include "mp3lame_session.h"

MP3LAME_API const char *get_lame_version(void)
{
    return "3.100";
}

MP3LAME_API const char *get_lame_short_version(void)
{
    return "3.100";
}

MP3LAME_API const char *get_lame_very_short_version(void)
{
    return "LAME3.100 ";     /* a release without a patch level: a space */
}

MP3LAME_API const char *get_psy_version(void)
{
    return "1.0";
}

MP3LAME_API const char *get_lame_url(void)
{
    return "http://lame.sf.net";
}

MP3LAME_API const char *get_lame_os_bitness(void)
{
    return sizeof(void *) == 8 ? "64bits" : sizeof(void *) == 4 ? "32bits" : "";
}

MP3LAME_API void get_lame_version_numerical(lame_version_t *v)
{
    if (!v)
        return;
    v->major = 3;
    v->minor = 100;
    v->alpha = v->beta = 0;
    v->psy_major = 1;
    v->psy_minor = 0;
    v->psy_alpha = v->psy_beta = 0;
    v->features = "";
}

/* the reports' sink: the handle's message callback */
static void to_msgf(void *arg, const char *fmt, va_list ap)
{
    const lame_global_flags *g = arg;
    if (g->msgf)
        g->msgf(fmt, ap);
}

MP3LAME_API void lame_print_config(const lame_global_flags *gfp)
{
    if (rl_mp3_ready(gfp))
        rl_lame_print_config(gfp->ses->cfg, to_msgf, (void *) gfp);
}

MP3LAME_API void lame_print_internals(const lame_global_flags *gfp)
{
    if (rl_mp3_ready(gfp))
        rl_lame_print_internals(gfp->ses->cfg, &gfp->opt, to_msgf, (void *) gfp);
}
