/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the binary interface of libmp3lame 3.100 (lame.h) that the
 * drop-in libmp3lame.so.0 serves: the types callers see (enum values,
 * mp3data_struct, lame_version_t, the report callback) and the 233
 * functions Debian's library exports.  lame_global_flags and hip_t are
 * opaque to callers; their contents are ours (mp3lame_flags.h,
 * mp3lame_hip.c).  Private to src/Mp3lame: programs use their own lame.h. */
#ifndef RL_MP3LAME_ABI_H
#define RL_MP3LAME_ABI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* the exported functions (the library is built -fvisibility=hidden and
 * mp3lame.map lists them) */
#define MP3LAME_API __attribute__((visibility("default")))

typedef void (*lame_report_function)(const char *format, va_list ap);

typedef enum vbr_mode_e {
    vbr_off = 0, vbr_mt, vbr_rh, vbr_abr, vbr_mtrh, vbr_max_indicator,
    vbr_default = vbr_mtrh
} vbr_mode;

typedef enum MPEG_mode_e {
    STEREO = 0, JOINT_STEREO, DUAL_CHANNEL, MONO, NOT_SET, MAX_INDICATOR
} MPEG_mode;

typedef enum Padding_type_e {
    PAD_NO = 0, PAD_ALL, PAD_ADJUST, PAD_MAX_INDICATOR
} Padding_type;

typedef enum asm_optimizations_e {
    MMX = 1, AMD_3DNOW = 2, SSE = 3
} asm_optimizations;

struct lame_global_struct;
typedef struct lame_global_struct lame_global_flags;
typedef lame_global_flags *lame_t;

struct hip_global_struct;
typedef struct hip_global_struct hip_global_flags;
typedef hip_global_flags *hip_t;

typedef struct {
    int major, minor, alpha, beta;
    int psy_major, psy_minor, psy_alpha, psy_beta;
    const char *features;
} lame_version_t;

/* what the decoder's headers said (layout as lame.h's) */
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

/* lame.h's error codes */
enum {
    LAME_OKAY = 0, LAME_NOERROR = 0, LAME_GENERICERROR = -1, LAME_NOMEM = -10,
    LAME_BADBITRATE = -11, LAME_BADSAMPFREQ = -12, LAME_INTERNALERROR = -13,
    FRONTEND_READERROR = -80, FRONTEND_WRITEERROR = -81, FRONTEND_FILETOOLARGE = -82
};

/* version */
MP3LAME_API const char *get_lame_os_bitness(void);
MP3LAME_API const char *get_lame_short_version(void);
MP3LAME_API const char *get_lame_url(void);
MP3LAME_API const char *get_lame_version(void);
MP3LAME_API void get_lame_version_numerical(lame_version_t*);
MP3LAME_API const char *get_lame_very_short_version(void);
MP3LAME_API const char *get_psy_version(void);

/* decoder (hip and the old lame_decode) */
MP3LAME_API int hip_decode(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[], short pcm_r[]);
MP3LAME_API int hip_decode1(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[], short pcm_r[]);
MP3LAME_API int hip_decode1_headers(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[], short pcm_r[], mp3data_struct *mp3data);
MP3LAME_API int hip_decode1_headersB(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[], short pcm_r[], mp3data_struct *mp3data, int *enc_delay, int *enc_padding);
MP3LAME_API int hip_decode_exit(hip_t gfp);
MP3LAME_API int hip_decode_headers(hip_t gfp, unsigned char *mp3buf, size_t len, short pcm_l[], short pcm_r[], mp3data_struct *mp3data);
MP3LAME_API hip_t hip_decode_init(void);
MP3LAME_API void hip_set_debugf(hip_t gfp, lame_report_function f);
MP3LAME_API void hip_set_errorf(hip_t gfp, lame_report_function f);
MP3LAME_API void hip_set_msgf(hip_t gfp, lame_report_function f);
MP3LAME_API int lame_decode(unsigned char *mp3buf, int len, short pcm_l[], short pcm_r[]);
MP3LAME_API int lame_decode1(unsigned char *mp3buf, int len, short pcm_l[], short pcm_r[]);
MP3LAME_API int lame_decode1_headers(unsigned char *mp3buf, int len, short pcm_l[], short pcm_r[], mp3data_struct *mp3data);
MP3LAME_API int lame_decode1_headersB(unsigned char *mp3buf, int len, short pcm_l[], short pcm_r[], mp3data_struct *mp3data, int *enc_delay, int *enc_padding);
MP3LAME_API int lame_decode_exit(void);
MP3LAME_API int lame_decode_headers(unsigned char *mp3buf, int len, short pcm_l[], short pcm_r[], mp3data_struct *mp3data);
MP3LAME_API int lame_decode_init(void);

/* ID3 tags */
MP3LAME_API void id3tag_add_v2(lame_t gfp);
MP3LAME_API void id3tag_genre_list(void (*handler)(int, const char *, void*), void *cookie);
MP3LAME_API void id3tag_init(lame_t gfp);
MP3LAME_API void id3tag_pad_v2(lame_t gfp);
MP3LAME_API void id3tag_set_album(lame_t gfp, const char *album);
MP3LAME_API int id3tag_set_albumart(lame_t gfp, const char *image, size_t size);
MP3LAME_API void id3tag_set_artist(lame_t gfp, const char *artist);
MP3LAME_API void id3tag_set_comment(lame_t gfp, const char *comment);
MP3LAME_API int id3tag_set_comment_latin1(lame_t gfp, char const *lang, char const *desc, char const *text);
MP3LAME_API int id3tag_set_comment_ucs2(lame_t gfp, char const *lang, unsigned short const *desc, unsigned short const *text);
MP3LAME_API int id3tag_set_comment_utf16(lame_t gfp, char const *lang, unsigned short const *desc, unsigned short const *text);
MP3LAME_API int id3tag_set_fieldvalue(lame_t gfp, const char *fieldvalue);
MP3LAME_API int id3tag_set_fieldvalue_ucs2(lame_t gfp, const unsigned short *fieldvalue);
MP3LAME_API int id3tag_set_fieldvalue_utf16(lame_t gfp, const unsigned short *fieldvalue);
MP3LAME_API int id3tag_set_genre(lame_t gfp, const char *genre);
MP3LAME_API void id3tag_set_pad(lame_t gfp, size_t n);
MP3LAME_API int id3tag_set_textinfo_latin1(lame_t gfp, char const *id, char const *text);
MP3LAME_API int id3tag_set_textinfo_ucs2(lame_t gfp, char const *id, unsigned short const *text);
MP3LAME_API int id3tag_set_textinfo_utf16(lame_t gfp, char const *id, unsigned short const *text);
MP3LAME_API void id3tag_set_title(lame_t gfp, const char *title);
MP3LAME_API int id3tag_set_track(lame_t gfp, const char *track);
MP3LAME_API void id3tag_set_year(lame_t gfp, const char *year);
MP3LAME_API void id3tag_space_v1(lame_t gfp);
MP3LAME_API void id3tag_v1_only(lame_t gfp);
MP3LAME_API void id3tag_v2_only(lame_t gfp);

/* encoding */
MP3LAME_API int lame_encode_buffer(lame_global_flags *gfp, const short buffer_l[], const short buffer_r[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_float(lame_global_flags *gfp, const float pcm_l[], const float pcm_r[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_ieee_double(lame_t gfp, const double pcm_l[], const double pcm_r[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_ieee_float(lame_t gfp, const float pcm_l[], const float pcm_r[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_int(lame_global_flags *gfp, const int buffer_l[], const int buffer_r[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_interleaved(lame_global_flags *gfp, short pcm[], int num_samples, unsigned char *mp3buf, int mp3buf_size);
MP3LAME_API int lame_encode_buffer_interleaved_ieee_double(lame_t gfp, const double pcm[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_interleaved_ieee_float(lame_t gfp, const float pcm[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_interleaved_int(lame_t gfp, const int pcm[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_long(lame_global_flags *gfp, const long buffer_l[], const long buffer_r[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_buffer_long2(lame_global_flags *gfp, const long buffer_l[], const long buffer_r[], const int nsamples, unsigned char *mp3buf, const int mp3buf_size);
MP3LAME_API int lame_encode_finish(lame_global_flags *gfp, unsigned char *mp3buf, int size);
MP3LAME_API int lame_encode_flush(lame_global_flags *gfp, unsigned char *mp3buf, int size);
MP3LAME_API int lame_encode_flush_nogap(lame_global_flags *gfp, unsigned char *mp3buf, int size);

/* statistics */
MP3LAME_API void lame_bitrate_block_type_hist(const lame_global_flags *gfp, int bitrate_btype_count[14][6]);
MP3LAME_API void lame_bitrate_hist(const lame_global_flags *gfp, int bitrate_count[14]);
MP3LAME_API void lame_bitrate_kbps(const lame_global_flags *gfp, int bitrate_kbps[14]);
MP3LAME_API void lame_bitrate_stereo_mode_hist(const lame_global_flags *gfp, int bitrate_stmode_count[14][4]);
MP3LAME_API void lame_block_type_hist(const lame_global_flags *gfp, int btype_count[6]);
MP3LAME_API void lame_stereo_mode_hist(const lame_global_flags *gfp, int stereo_mode_count[4]);

/* setters */
MP3LAME_API int lame_set_ATHlower(lame_global_flags *, float);
MP3LAME_API int lame_set_ATHonly(lame_global_flags *, int);
MP3LAME_API int lame_set_ATHshort(lame_global_flags *, int);
MP3LAME_API int lame_set_ATHtype(lame_global_flags *, int);
MP3LAME_API int lame_set_ReplayGain_decode(lame_global_flags *, int);
MP3LAME_API int lame_set_ReplayGain_input(lame_global_flags *, int);
MP3LAME_API int lame_set_VBR(lame_global_flags *, vbr_mode);
MP3LAME_API int lame_set_VBR_hard_min(lame_global_flags *, int);
MP3LAME_API int lame_set_VBR_max_bitrate_kbps(lame_global_flags *, int);
MP3LAME_API int lame_set_VBR_mean_bitrate_kbps(lame_global_flags *, int);
MP3LAME_API int lame_set_VBR_min_bitrate_kbps(lame_global_flags *, int);
MP3LAME_API int lame_set_VBR_q(lame_global_flags *, int);
MP3LAME_API int lame_set_VBR_quality(lame_global_flags *, float);
MP3LAME_API int lame_set_allow_diff_short(lame_global_flags *, int);
MP3LAME_API int lame_set_analysis(lame_global_flags *, int);
MP3LAME_API int lame_set_asm_optimizations(lame_global_flags *gfp, int, int);
MP3LAME_API int lame_set_athaa_loudapprox(lame_global_flags *, int);
MP3LAME_API int lame_set_athaa_sensitivity(lame_global_flags *, float);
MP3LAME_API int lame_set_athaa_type(lame_global_flags *, int);
MP3LAME_API int lame_set_bWriteVbrTag(lame_global_flags *, int);
MP3LAME_API int lame_set_brate(lame_global_flags *, int);
MP3LAME_API int lame_set_compression_ratio(lame_global_flags *, float);
MP3LAME_API int lame_set_copyright(lame_global_flags *, int);
MP3LAME_API int lame_set_cwlimit(lame_global_flags *, int);
MP3LAME_API int lame_set_debugf(lame_global_flags *, lame_report_function);
MP3LAME_API int lame_set_decode_on_the_fly(lame_global_flags *, int);
MP3LAME_API int lame_set_decode_only(lame_global_flags *, int);
MP3LAME_API int lame_set_disable_reservoir(lame_global_flags *, int);
MP3LAME_API int lame_set_emphasis(lame_global_flags *, int);
MP3LAME_API int lame_set_error_protection(lame_global_flags *, int);
MP3LAME_API int lame_set_errorf(lame_global_flags *, lame_report_function);
MP3LAME_API int lame_set_exp_nspsytune(lame_global_flags *, int);
MP3LAME_API int lame_set_experimentalX(lame_global_flags *, int);
MP3LAME_API int lame_set_experimentalY(lame_global_flags *, int);
MP3LAME_API int lame_set_experimentalZ(lame_global_flags *, int);
MP3LAME_API int lame_set_extension(lame_global_flags *, int);
MP3LAME_API int lame_set_findPeakSample(lame_global_flags *, int);
MP3LAME_API int lame_set_findReplayGain(lame_global_flags *, int);
MP3LAME_API int lame_set_force_ms(lame_global_flags *, int);
MP3LAME_API int lame_set_force_short_blocks(lame_global_flags *, int);
MP3LAME_API int lame_set_free_format(lame_global_flags *, int);
MP3LAME_API int lame_set_highpassfreq(lame_global_flags *, int);
MP3LAME_API int lame_set_highpasswidth(lame_global_flags *, int);
MP3LAME_API int lame_set_in_samplerate(lame_global_flags *, int);
MP3LAME_API int lame_set_interChRatio(lame_global_flags *, float);
MP3LAME_API int lame_set_lowpassfreq(lame_global_flags *, int);
MP3LAME_API int lame_set_lowpasswidth(lame_global_flags *, int);
MP3LAME_API int lame_set_mode(lame_global_flags *, MPEG_mode);
MP3LAME_API int lame_set_mode_automs(lame_global_flags *, int);
MP3LAME_API void lame_set_msfix(lame_global_flags *, double);
MP3LAME_API int lame_set_msgf(lame_global_flags *, lame_report_function);
MP3LAME_API int lame_set_noATH(lame_global_flags *, int);
MP3LAME_API int lame_set_no_short_blocks(lame_global_flags *, int);
MP3LAME_API int lame_set_nogap_currentindex(lame_global_flags *, int);
MP3LAME_API int lame_set_nogap_total(lame_global_flags *, int);
MP3LAME_API int lame_set_num_channels(lame_global_flags *, int);
MP3LAME_API int lame_set_num_samples(lame_global_flags *, unsigned long);
MP3LAME_API int lame_set_ogg(lame_global_flags *, int);
MP3LAME_API int lame_set_original(lame_global_flags *, int);
MP3LAME_API int lame_set_out_samplerate(lame_global_flags *, int);
MP3LAME_API int lame_set_padding_type(lame_global_flags *, Padding_type);
MP3LAME_API int lame_set_preset(lame_global_flags *gfp, int);
MP3LAME_API int lame_set_preset_expopts(lame_global_flags *, int);
MP3LAME_API int lame_set_quality(lame_global_flags *, int);
MP3LAME_API int lame_set_quant_comp(lame_global_flags *, int);
MP3LAME_API int lame_set_quant_comp_short(lame_global_flags *, int);
MP3LAME_API int lame_set_scale(lame_global_flags *, float);
MP3LAME_API int lame_set_scale_left(lame_global_flags *, float);
MP3LAME_API int lame_set_scale_right(lame_global_flags *, float);
MP3LAME_API int lame_set_strict_ISO(lame_global_flags *, int);
MP3LAME_API int lame_set_useTemporal(lame_global_flags *, int);
MP3LAME_API void lame_set_write_id3tag_automatic(lame_global_flags *gfp, int);

/* getters */
MP3LAME_API float lame_get_ATHlower(const lame_global_flags*);
MP3LAME_API int lame_get_ATHonly(const lame_global_flags*);
MP3LAME_API int lame_get_ATHshort(const lame_global_flags*);
MP3LAME_API int lame_get_ATHtype(const lame_global_flags*);
MP3LAME_API int lame_get_AudiophileGain(const lame_global_flags*);
MP3LAME_API float lame_get_PeakSample(const lame_global_flags*);
MP3LAME_API int lame_get_RadioGain(const lame_global_flags*);
MP3LAME_API int lame_get_ReplayGain_decode(const lame_global_flags*);
MP3LAME_API int lame_get_ReplayGain_input(const lame_global_flags*);
MP3LAME_API vbr_mode lame_get_VBR(const lame_global_flags*);
MP3LAME_API int lame_get_VBR_hard_min(const lame_global_flags*);
MP3LAME_API int lame_get_VBR_max_bitrate_kbps(const lame_global_flags*);
MP3LAME_API int lame_get_VBR_mean_bitrate_kbps(const lame_global_flags*);
MP3LAME_API int lame_get_VBR_min_bitrate_kbps(const lame_global_flags*);
MP3LAME_API int lame_get_VBR_q(const lame_global_flags*);
MP3LAME_API float lame_get_VBR_quality(const lame_global_flags*);
MP3LAME_API int lame_get_allow_diff_short(const lame_global_flags*);
MP3LAME_API int lame_get_analysis(const lame_global_flags*);
MP3LAME_API int lame_get_athaa_loudapprox(const lame_global_flags*);
MP3LAME_API float lame_get_athaa_sensitivity(const lame_global_flags*);
MP3LAME_API int lame_get_athaa_type(const lame_global_flags*);
MP3LAME_API int lame_get_bWriteVbrTag(const lame_global_flags*);
MP3LAME_API int lame_get_bitrate(int mpeg_version, int table_index);
MP3LAME_API int lame_get_brate(const lame_global_flags*);
MP3LAME_API float lame_get_compression_ratio(const lame_global_flags*);
MP3LAME_API int lame_get_copyright(const lame_global_flags*);
MP3LAME_API int lame_get_cwlimit(const lame_global_flags*);
MP3LAME_API int lame_get_decode_on_the_fly(const lame_global_flags*);
MP3LAME_API int lame_get_decode_only(const lame_global_flags*);
MP3LAME_API int lame_get_disable_reservoir(const lame_global_flags*);
MP3LAME_API int lame_get_emphasis(const lame_global_flags*);
MP3LAME_API int lame_get_encoder_delay(const lame_global_flags*);
MP3LAME_API int lame_get_encoder_padding(const lame_global_flags*);
MP3LAME_API int lame_get_error_protection(const lame_global_flags*);
MP3LAME_API int lame_get_exp_nspsytune(const lame_global_flags*);
MP3LAME_API int lame_get_experimentalX(const lame_global_flags*);
MP3LAME_API int lame_get_experimentalY(const lame_global_flags*);
MP3LAME_API int lame_get_experimentalZ(const lame_global_flags*);
MP3LAME_API int lame_get_extension(const lame_global_flags*);
MP3LAME_API int lame_get_findPeakSample(const lame_global_flags*);
MP3LAME_API int lame_get_findReplayGain(const lame_global_flags*);
MP3LAME_API int lame_get_force_ms(const lame_global_flags*);
MP3LAME_API int lame_get_force_short_blocks(const lame_global_flags*);
MP3LAME_API int lame_get_frameNum(const lame_global_flags*);
MP3LAME_API int lame_get_framesize(const lame_global_flags*);
MP3LAME_API int lame_get_free_format(const lame_global_flags*);
MP3LAME_API int lame_get_highpassfreq(const lame_global_flags*);
MP3LAME_API int lame_get_highpasswidth(const lame_global_flags*);
MP3LAME_API size_t lame_get_id3v1_tag(lame_t gfp, unsigned char *buffer, size_t size);
MP3LAME_API size_t lame_get_id3v2_tag(lame_t gfp, unsigned char *buffer, size_t size);
MP3LAME_API int lame_get_in_samplerate(const lame_global_flags*);
MP3LAME_API float lame_get_interChRatio(const lame_global_flags*);
MP3LAME_API size_t lame_get_lametag_frame(const lame_global_flags *, unsigned char *buffer, size_t size);
MP3LAME_API int lame_get_lowpassfreq(const lame_global_flags*);
MP3LAME_API int lame_get_lowpasswidth(const lame_global_flags*);
MP3LAME_API int lame_get_maximum_number_of_samples(lame_t gfp, size_t buffer_size);
MP3LAME_API int lame_get_mf_samples_to_encode(const lame_global_flags *gfp);
MP3LAME_API MPEG_mode lame_get_mode(const lame_global_flags*);
MP3LAME_API int lame_get_mode_automs(const lame_global_flags*);
MP3LAME_API float lame_get_msfix(const lame_global_flags*);
MP3LAME_API int lame_get_noATH(const lame_global_flags*);
MP3LAME_API int lame_get_no_short_blocks(const lame_global_flags*);
MP3LAME_API int lame_get_noclipGainChange(const lame_global_flags*);
MP3LAME_API float lame_get_noclipScale(const lame_global_flags*);
MP3LAME_API int lame_get_nogap_currentindex(const lame_global_flags*);
MP3LAME_API int lame_get_nogap_total(const lame_global_flags*);
MP3LAME_API int lame_get_num_channels(const lame_global_flags*);
MP3LAME_API unsigned long lame_get_num_samples(const lame_global_flags*);
MP3LAME_API int lame_get_ogg(const lame_global_flags*);
MP3LAME_API int lame_get_original(const lame_global_flags*);
MP3LAME_API int lame_get_out_samplerate(const lame_global_flags*);
MP3LAME_API Padding_type lame_get_padding_type(const lame_global_flags*);
MP3LAME_API int lame_get_quality(const lame_global_flags*);
MP3LAME_API int lame_get_quant_comp(const lame_global_flags*);
MP3LAME_API int lame_get_quant_comp_short(const lame_global_flags*);
MP3LAME_API int lame_get_samplerate(int mpeg_version, int table_index);
MP3LAME_API float lame_get_scale(const lame_global_flags*);
MP3LAME_API float lame_get_scale_left(const lame_global_flags*);
MP3LAME_API float lame_get_scale_right(const lame_global_flags*);
MP3LAME_API int lame_get_size_mp3buffer(const lame_global_flags *gfp);
MP3LAME_API int lame_get_strict_ISO(const lame_global_flags*);
MP3LAME_API int lame_get_totalframes(const lame_global_flags*);
MP3LAME_API int lame_get_useTemporal(const lame_global_flags*);
MP3LAME_API int lame_get_version(const lame_global_flags*);
MP3LAME_API int lame_get_write_id3tag_automatic(const lame_global_flags *gfp);

/* life cycle, parameters, reports */
MP3LAME_API int lame_close(lame_global_flags*);
MP3LAME_API lame_global_flags *lame_init(void);
MP3LAME_API int lame_init_bitstream(lame_global_flags *gfp);
MP3LAME_API int lame_init_params(lame_global_flags*);
MP3LAME_API void lame_mp3_tags_fid(lame_global_flags *, FILE *fid);
MP3LAME_API void lame_print_config(const lame_global_flags *gfp);
MP3LAME_API void lame_print_internals(const lame_global_flags *gfp);

#endif
