/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* The part of libmp3lame 3.100's binary interface (lame.h) that the tests
 * call, written from the header's ABI: opaque handles, the report callback,
 * mp3data_struct, and the prototypes as an X-macro so that a library loaded
 * with dlopen gets one typed pointer per function (mp3lame_lib.h).  Enum
 * arguments (vbr_mode, MPEG_mode, preset_mode ...) are passed as int, as the
 * C ABI passes them. */
#ifndef RL_TEST_LAME_ABI_H
#define RL_TEST_LAME_ABI_H

#include <stdarg.h>
#include <stddef.h>

typedef struct lame_global_struct lame_global_flags;
typedef lame_global_flags *lame_t;
typedef struct hip_global_struct hip_global_flags;
typedef hip_global_flags *hip_t;
typedef void (*lame_report_function)(const char *format, va_list ap);

typedef struct {
    int header_parsed;
    int stereo;
    int samplerate;
    int bitrate;
    int mode;
    int mode_ext;
    int framesize;
    unsigned long nsamp;
    int totalframes;
    int framenum;
} mp3data_struct;

/* lame.h's enum values the tests use */
enum { LAME_VBR_OFF = 0, LAME_VBR_RH = 2, LAME_VBR_ABR = 3, LAME_VBR_MTRH = 4 };
enum { LAME_STEREO = 0, LAME_JOINT_STEREO = 1, LAME_MONO = 3 };
enum { LAME_V9 = 410, LAME_V0 = 500, LAME_STANDARD = 1001, LAME_EXTREME = 1002, LAME_INSANE = 1003,
       LAME_MEDIUM = 1006 };

/* X(return type, name, parameter list) */
#define RLT_LAME_FUNCTIONS(X)                                                                              \
    X(lame_t, lame_init, (void))                                                                           \
    X(int, lame_init_params, (lame_t))                                                                     \
    X(int, lame_set_copyright, (lame_t, int))                                                              \
    X(int, lame_get_copyright, (const lame_global_flags *))                                                \
    X(int, lame_close, (lame_t))                                                                           \
    X(int, lame_set_errorf, (lame_t, lame_report_function))                                                \
    X(int, lame_set_debugf, (lame_t, lame_report_function))                                                \
    X(int, lame_set_msgf, (lame_t, lame_report_function))                                                  \
    X(void, lame_print_config, (const lame_global_flags *))                                                \
    X(void, lame_print_internals, (const lame_global_flags *))                                             \
    X(int, lame_encode_buffer, (lame_t, const short *, const short *, int, unsigned char *, int))          \
    X(int, lame_encode_buffer_interleaved, (lame_t, short *, int, unsigned char *, int))                   \
    X(int, lame_encode_buffer_float, (lame_t, const float *, const float *, int, unsigned char *, int))    \
    X(int, lame_encode_buffer_ieee_float, (lame_t, const float *, const float *, int, unsigned char *, int)) \
    X(int, lame_encode_buffer_interleaved_ieee_float, (lame_t, const float *, int, unsigned char *, int))  \
    X(int, lame_encode_buffer_ieee_double,                                                                 \
      (lame_t, const double *, const double *, int, unsigned char *, int))                                 \
    X(int, lame_encode_buffer_interleaved_ieee_double, (lame_t, const double *, int, unsigned char *, int)) \
    X(int, lame_encode_buffer_int, (lame_t, const int *, const int *, int, unsigned char *, int))          \
    X(int, lame_encode_buffer_long, (lame_t, const long *, const long *, int, unsigned char *, int))       \
    X(int, lame_encode_buffer_long2, (lame_t, const long *, const long *, int, unsigned char *, int))      \
    X(int, lame_encode_buffer_interleaved_int, (lame_t, const int *, int, unsigned char *, int))           \
    X(int, lame_encode_flush, (lame_t, unsigned char *, int))                                              \
    X(int, lame_encode_flush_nogap, (lame_t, unsigned char *, int))                                        \
    X(int, lame_init_bitstream, (lame_t))                                                                  \
    X(size_t, lame_get_lametag_frame, (const lame_global_flags *, unsigned char *, size_t))                \
    X(size_t, lame_get_id3v1_tag, (lame_t, unsigned char *, size_t))                                       \
    X(size_t, lame_get_id3v2_tag, (lame_t, unsigned char *, size_t))                                       \
    X(void, lame_bitrate_hist, (const lame_global_flags *, int *))                                         \
    X(void, lame_bitrate_kbps, (const lame_global_flags *, int *))                                         \
    X(void, lame_stereo_mode_hist, (const lame_global_flags *, int *))                                     \
    X(void, lame_bitrate_stereo_mode_hist, (const lame_global_flags *, int (*)[4]))                        \
    X(void, lame_block_type_hist, (const lame_global_flags *, int *))                                      \
    X(void, lame_bitrate_block_type_hist, (const lame_global_flags *, int (*)[6]))                         \
    X(void, id3tag_init, (lame_t))                                                                         \
    X(void, lame_set_write_id3tag_automatic, (lame_t, int))                                                \
    X(void, id3tag_set_pad, (lame_t, size_t))                                                              \
    X(hip_t, hip_decode_init, (void))                                                                      \
    X(int, hip_decode_exit, (hip_t))                                                                       \
    X(void, hip_set_errorf, (hip_t, lame_report_function))                                                 \
    X(void, hip_set_debugf, (hip_t, lame_report_function))                                                 \
    X(void, hip_set_msgf, (hip_t, lame_report_function))                                                   \
    X(int, hip_decode1_headersB,                                                                           \
      (hip_t, unsigned char *, size_t, short *, short *, mp3data_struct *, int *, int *))                  \
    X(const char *, get_lame_version, (void))

/* the shapes of the setters, getters and ID3 calls that the case scripts
 * name (mp3lame_case.h) and resolve by name */
typedef int (*rlt_set_int_fn)(lame_t, int);
typedef int (*rlt_set_float_fn)(lame_t, float);
typedef int (*rlt_get_int_fn)(const lame_global_flags *);
typedef float (*rlt_get_float_fn)(const lame_global_flags *);
typedef void (*rlt_id3_void_fn)(lame_t);
typedef void (*rlt_id3_str_fn)(lame_t, const char *);
typedef int (*rlt_id3_str_int_fn)(lame_t, const char *);
typedef int (*rlt_id3_comment_fn)(lame_t, const char *, const char *, const char *);
typedef int (*rlt_id3_comment_utf16_fn)(lame_t, const char *, const unsigned short *, const unsigned short *);

#endif
