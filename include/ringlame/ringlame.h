/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: an MP3 encoder whose output is byte for byte LAME 3.100's, on
 * every core.  This is the only header a program needs (docs/api.md).
 *
 * Life cycle:
 *     ringlame_settings_new -> ringlame_settings_parse / ringlame_settings_set_*
 *     ringlame_open -> { ringlame_send, ringlame_receive }* -> ringlame_flush
 *     -> ringlame_receive until it returns 0 -> ringlame_tag_frame -> ringlame_close
 *
 * Send PCM, receive MP3 bytes: ringlame_send takes what it can and returns
 * -EAGAIN when its input queue is full; ringlame_receive returns bytes, or
 * -EAGAIN when the encoder needs more input to produce any.  The bytes do
 * not depend on how the PCM is cut into ringlame_send calls, nor on the
 * thread count: they are `lame`'s for the same samples and options.
 *
 * Errors are negative errno values (-EINVAL, -ENOMEM, -EAGAIN, ...); every
 * function is safe to call from any thread, one call at a time per object,
 * except where said.  Algorithms derived from LAME 3.100
 * (LGPL-2.0-or-later). */
#ifndef RINGLAME_H
#define RINGLAME_H

#include <stddef.h>
#include <stdint.h>

#include "ringlame/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(RINGLAME_BUILDING) && defined(__GNUC__)
#define RINGLAME_API __attribute__((visibility("default")))
#else
#define RINGLAME_API
#endif

/* ------------------------------------------------------------- version */

/* "0.1.0": the library's version at run time (RINGLAME_VERSION_STRING is
 * the header's). */
RINGLAME_API const char *ringlame_version(void);
/* RINGLAME_VERSION_NUMBER of the library. */
RINGLAME_API unsigned ringlame_version_number(void);

/* ---------------------------------------------------------- worker pool */

/* A pool of worker threads that knows nothing of MP3.  Several encoders may
 * share one (ringlame_settings_set_pool); each encoder without one gets a
 * pool of its own.  workers >= 0: threads besides the callers' (0: every
 * frame is encoded inside ringlame_send/ringlame_receive, on the caller's
 * thread); < 0: one per CPU this process may run on, minus one.  0 or
 * -errno. */
typedef struct RingLamePool RingLamePool;
RINGLAME_API int  ringlame_pool_new(RingLamePool **out, int workers);
/* Only once every encoder using it is closed.  NULL: nothing. */
RINGLAME_API void ringlame_pool_free(RingLamePool *pool);

/* -------------------------------------------------------------- settings */

typedef struct RingLameSettings RingLameSettings;

/* lame's defaults (CBR 128 kbps, joint stereo, -q 3) for 44.1 kHz stereo
 * input, threads: one per CPU. */
RINGLAME_API int  ringlame_settings_new(RingLameSettings **out);
RINGLAME_API void ringlame_settings_free(RingLameSettings *s);   /* NULL: nothing */

/* Applies lame command-line options (argv[0..argc-1]: no program name, no
 * file names): every encoding, filter, tag and input-description option of
 * `lame --help` and `--longhelp`, with lame's rules, e.g. {"-V", "2"},
 * {"--preset", "extreme"}, {"-b", "192", "-q", "2"}.  Options accumulate:
 * the settings are what `lame` does with all the options given so far
 * (parse calls and the setters below, which add the equivalent options),
 * in that order.  On error (-EINVAL) nothing is applied and
 * ringlame_settings_error(s) names the option and the reason.  The
 * options of the command rather than of an encoder are refused that way:
 * lame's console switches (-S, --quiet, --verbose, ...), its files and
 * modes (--nogap, --decode, --out-dir, ...), its information (--help,
 * --version) and ringlame's own (--batch, --compare, --trace, --threads,
 * --simd, ...; the setters below take the thread count and the SIMD
 * level).  Input options (-r, --bitwidth, ...) are accepted and have no
 * effect: the caller sends PCM (ringlame_settings_set_input), except -s,
 * which overrides its rate as in lame.  The ID3 tag options (--tt ...
 * --tv, --ti FILE, --add-id3v2, ...) put lame's tags into the stream;
 * their text is taken in the charset of the program's locale (LC_CTYPE:
 * call setlocale(LC_CTYPE, "") first, as lame does, for UTF-8 text; in the
 * C locale it is ASCII) and --ti reads its file when parsed and again when
 * the encoder opens. */
RINGLAME_API int  ringlame_settings_parse(RingLameSettings *s, int argc, const char *const *argv);
RINGLAME_API const char *ringlame_settings_error(const RingLameSettings *s);

/* The input: sample rate in Hz and 1 or 2 channels (what lame reads from
 * the file header). */
RINGLAME_API int  ringlame_settings_set_input(RingLameSettings *s, int sample_rate, int channels);
/* The number of frames (samples per channel) that will be sent, as lame
 * knows it from the file header: it only fills the ID3v2 tag's TLEN frame.
 * < 0 (the default): unknown, no TLEN (as lame on a headerless stream). */
RINGLAME_API int  ringlame_settings_set_length(RingLameSettings *s, int64_t frames);
/* Threads of the encoder's own pool, the caller's included (ignored with a
 * shared pool): 0 = one per CPU, 1 = the caller's only (every frame is
 * encoded inside ringlame_send/ringlame_receive). */
RINGLAME_API int  ringlame_settings_set_threads(RingLameSettings *s, int threads);
/* The SIMD level of the encoder's kernels: "scalar", "sse4.1", "avx2",
 * "avx512" (at most the CPU's best), or NULL for the CPU's best (the
 * default).  The bytes are the same at every level.  0, -EINVAL (not a
 * level) or -ENOTSUP (this CPU or build lacks it). */
RINGLAME_API int  ringlame_settings_set_simd(RingLameSettings *s, const char *level);
/* A shared pool (NULL: the encoder's own).  The pool must outlive the
 * encoder. */
RINGLAME_API int  ringlame_settings_set_pool(RingLameSettings *s, RingLamePool *pool);
/* Common lame options without a command line: */
RINGLAME_API int  ringlame_settings_set_vbr_quality(RingLameSettings *s, float v);   /* -V v, 0..9.999 */
RINGLAME_API int  ringlame_settings_set_cbr(RingLameSettings *s, int kbps);          /* -b kbps --cbr */
RINGLAME_API int  ringlame_settings_set_abr(RingLameSettings *s, int kbps);          /* --abr kbps */
RINGLAME_API int  ringlame_settings_set_quality(RingLameSettings *s, int q);         /* -q 0..9 */

/* --------------------------------------------------------------- encoder */

typedef struct RingLameEncoder RingLameEncoder;

/* The settings are copied.  -EINVAL: a combination lame refuses. */
RINGLAME_API int  ringlame_open(RingLameEncoder **out, const RingLameSettings *s);
/* Frees everything, also mid-stream (the pending frames are dropped).
 * NULL: nothing. */
RINGLAME_API void ringlame_close(RingLameEncoder *enc);

typedef enum RingLameSampleFormat {
    RINGLAME_S16 = 1,   /* int16_t, full scale 32768 */
    RINGLAME_S32 = 2,   /* int32_t, full scale 2^31 (what lame reads from any file) */
    RINGLAME_F32 = 3    /* float, full scale 1.0, converted like libsndfile's
                         * sf_read_int (what `lame` does with a float WAV) */
} RingLameSampleFormat;

/* One piece of PCM.  Interleaved: data[0] holds frames * channels samples
 * (L R L R ...).  Planar: data[c] holds channel c's frames samples. */
typedef struct RingLamePcm {
    RingLameSampleFormat format;
    int          planar;           /* 0: interleaved, 1: one plane per channel */
    const void  *data[2];
    size_t       frames;           /* samples per channel */
} RingLamePcm;

/* Queues PCM.  Returns the frames taken (> 0, maybe fewer than offered),
 * or -EAGAIN when the queue is full (call ringlame_receive, then send the
 * rest), -EINVAL (bad description), -EPIPE after ringlame_flush, or the
 * error the encoder stopped with. */
RINGLAME_API long ringlame_send(RingLameEncoder *enc, const RingLamePcm *pcm);

/* Copies encoded bytes, in stream order, into buf (at most cap).  Returns
 * the count (> 0); -EAGAIN when nothing can be produced before more input
 * is sent (never after ringlame_flush); 0 once the stream is complete
 * (after ringlame_flush); or -errno.  With a pool, it waits for frames in
 * flight and helps encode them. */
RINGLAME_API long ringlame_receive(RingLameEncoder *enc, uint8_t *buf, size_t cap);

/* End of input (lame_encode_flush): the last frames follow through
 * ringlame_receive. */
RINGLAME_API int  ringlame_flush(RingLameEncoder *enc);

/* After ringlame_receive returned 0: the final Xing/LAME tag frame, which
 * replaces the placeholder frame of the same length at *offset in the
 * stream (0: the first bytes ringlame_receive returned; a program that
 * wrote an ID3v2 tag first adds its length).  Returns its length, 0 when
 * there is none (-t, or a frame too small), -EAGAIN before the end, or
 * -ENOSPC when cap is too small (RINGLAME_TAG_FRAME_MAX always fits). */
#define RINGLAME_TAG_FRAME_MAX 2880
RINGLAME_API int  ringlame_tag_frame(RingLameEncoder *enc, uint8_t *buf, size_t cap, uint64_t *offset);

#ifdef __cplusplus
}
#endif

#endif
