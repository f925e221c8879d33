/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the drop-in libmp3lame's encode entry points, each with lame's
 * own conversion of its samples (the sample type, and the norm the input
 * matrix is scaled by: 1 for short, float and long, 2^-16 for int,
 * 2^-(8*sizeof(long)-16) for long2, 32767 for the ieee ones), and the
 * flush.  Semantics derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <limits.h>

#include "mp3lame_flags.h"
#include "mp3lame_session.h"

/* lame_encode_buffer_template: -3 before lame_init_params, 0 for no
 * samples (nothing is handed out then, not even the tags) or a missing
 * buffer; mono input reads the left buffer twice */
static int encode(lame_global_flags *g, const void *l, const void *r, int n, RlPcmType type,
                  int jump, float norm, unsigned char *buf, int cap)
{
    RlPcmTyped src;
    int stereo;

    if (!rl_mp3_ready(g))
        return -3;
    if (n == 0)
        return 0;
    if (n < 0) {
        /* lame_encode_buffer_template: the input buffer of n samples cannot
         * be made (it is dropped); one made before is kept and nothing is
         * encoded */
        if (!g->in_buffer_made) {
            rl_mp3_errorf(g, "Error: can't allocate in_buffer buffer\n");
            return -2;
        }
        n = 0;
    }
    else
        g->in_buffer_made = 1;
    /* the channels lame_init_params fixed (a later setter does not count) */
    stereo = g->ses->cfg->channels_in > 1;
    if (stereo ? !l || !r : !l)
        return 0;
    src.type = type;
    src.l = l;
    src.r = stereo ? r : l;
    src.jump = jump;
    return rl_mp3_session_encode(g->ses, &src, n, norm, buf, cap);
}

/* lame's norms, as its FLOAT */
#define RL_MP3_NORM_INT   ((float) (1.0 / (1L << (8 * sizeof(int) - 16))))
#define RL_MP3_NORM_LONG2 ((float) (1.0 / (1L << (8 * sizeof(long) - 16))))
#define RL_MP3_NORM_IEEE  32767.0f

MP3LAME_API int lame_encode_buffer(lame_global_flags *gfp, const short buffer_l[],
                                   const short buffer_r[], const int nsamples,
                                   unsigned char *mp3buf, const int mp3buf_size)
{
    return encode(gfp, buffer_l, buffer_r, nsamples, RL_PCM_SHORT, 1, 1.0f, mp3buf, mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_interleaved(lame_global_flags *gfp, short pcm[],
                                               int num_samples, unsigned char *mp3buf,
                                               int mp3buf_size)
{
    return encode(gfp, pcm, pcm ? pcm + 1 : NULL, num_samples, RL_PCM_SHORT, 2, 1.0f, mp3buf,
                  mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_float(lame_global_flags *gfp, const float pcm_l[],
                                         const float pcm_r[], const int nsamples,
                                         unsigned char *mp3buf, const int mp3buf_size)
{
    return encode(gfp, pcm_l, pcm_r, nsamples, RL_PCM_FLOAT, 1, 1.0f, mp3buf, mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_ieee_float(lame_t gfp, const float pcm_l[],
                                              const float pcm_r[], const int nsamples,
                                              unsigned char *mp3buf, const int mp3buf_size)
{
    return encode(gfp, pcm_l, pcm_r, nsamples, RL_PCM_FLOAT, 1, RL_MP3_NORM_IEEE, mp3buf,
                  mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_interleaved_ieee_float(lame_t gfp, const float pcm[],
                                                          const int nsamples,
                                                          unsigned char *mp3buf,
                                                          const int mp3buf_size)
{
    return encode(gfp, pcm, pcm ? pcm + 1 : NULL, nsamples, RL_PCM_FLOAT, 2, RL_MP3_NORM_IEEE,
                  mp3buf, mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_ieee_double(lame_t gfp, const double pcm_l[],
                                               const double pcm_r[], const int nsamples,
                                               unsigned char *mp3buf, const int mp3buf_size)
{
    return encode(gfp, pcm_l, pcm_r, nsamples, RL_PCM_DOUBLE, 1, RL_MP3_NORM_IEEE, mp3buf,
                  mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_interleaved_ieee_double(lame_t gfp, const double pcm[],
                                                           const int nsamples,
                                                           unsigned char *mp3buf,
                                                           const int mp3buf_size)
{
    return encode(gfp, pcm, pcm ? pcm + 1 : NULL, nsamples, RL_PCM_DOUBLE, 2, RL_MP3_NORM_IEEE,
                  mp3buf, mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_int(lame_global_flags *gfp, const int buffer_l[],
                                       const int buffer_r[], const int nsamples,
                                       unsigned char *mp3buf, const int mp3buf_size)
{
    return encode(gfp, buffer_l, buffer_r, nsamples, RL_PCM_INT, 1, RL_MP3_NORM_INT, mp3buf,
                  mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_interleaved_int(lame_t gfp, const int pcm[],
                                                   const int nsamples, unsigned char *mp3buf,
                                                   const int mp3buf_size)
{
    return encode(gfp, pcm, pcm ? pcm + 1 : NULL, nsamples, RL_PCM_INT, 2, RL_MP3_NORM_INT,
                  mp3buf, mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_long(lame_global_flags *gfp, const long buffer_l[],
                                        const long buffer_r[], const int nsamples,
                                        unsigned char *mp3buf, const int mp3buf_size)
{
    return encode(gfp, buffer_l, buffer_r, nsamples, RL_PCM_LONG, 1, 1.0f, mp3buf, mp3buf_size);
}

MP3LAME_API int lame_encode_buffer_long2(lame_global_flags *gfp, const long buffer_l[],
                                         const long buffer_r[], const int nsamples,
                                         unsigned char *mp3buf, const int mp3buf_size)
{
    return encode(gfp, buffer_l, buffer_r, nsamples, RL_PCM_LONG, 1, RL_MP3_NORM_LONG2, mp3buf,
                  mp3buf_size);
}

/* what the LAME tag of the file a flush ends carries */
static void tag_numbers(lame_global_flags *g)
{
    g->ses->nogap_total = g->nogap_total;
    g->ses->nogap_current = g->nogap_current;
}

/* flush_bitstream's report of a file that had nothing to flush */
static int report_flush(lame_global_flags *g, int rc)
{
    if (rl_mp3_session_take_flush_strange(g->ses))
        rl_mp3_errorf(g, "strange error flushing buffer ... \n");
    return rc;
}

MP3LAME_API int lame_encode_flush(lame_global_flags *gfp, unsigned char *mp3buf, int size)
{
    if (!rl_mp3_ready(gfp))
        return -3;
    tag_numbers(gfp);
    return report_flush(gfp, rl_mp3_session_flush(gfp->ses, mp3buf, size));
}

MP3LAME_API int lame_encode_finish(lame_global_flags *gfp, unsigned char *mp3buf, int size)
{
    int const n = lame_encode_flush(gfp, mp3buf, size);
    (void) lame_close(gfp);
    return n;
}

MP3LAME_API int lame_encode_flush_nogap(lame_global_flags *gfp, unsigned char *mp3buf, int size)
{
    if (!rl_mp3_ready(gfp))
        return -3;
    tag_numbers(gfp);
    return report_flush(gfp, rl_mp3_session_flush_nogap(gfp->ses, mp3buf, size));
}

MP3LAME_API int lame_init_bitstream(lame_global_flags *gfp)
{
    if (!rl_mp3_valid(gfp))
        return -3;
    if (!gfp->ses)
        return 0;           /* lame: its state exists from lame_init; lame_init_params starts it */
    return rl_mp3_session_next_file(gfp->ses);
}
