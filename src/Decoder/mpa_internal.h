/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the decoder's state, tables and bit reader (private to src/Decoder).
 * Algorithms derived from LAME 3.100's mpglib (LGPL-2.0-or-later). */
#ifndef RL_MPA_INTERNAL_H
#define RL_MPA_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include "decoder.h"

/* mpglib computes in float ("real") everywhere; so do we, for its bits */
typedef float real_t;

#define SBLIMIT 32
#define SSLIMIT 18
#define MPA_MAXFRAMESIZE 2880
#define MPA_MD_JOINT_STEREO 1
#define MPA_MD_MONO 3

enum { MPA_ERR = -1, MPA_OK = 0, MPA_NEED_MORE = 1 };

/* one frame header (mpglib's struct frame) */
typedef struct MpaFrame {
    int stereo, single, lsf, mpeg25, lay, error_protection, bitrate_index;
    int sampling_frequency, padding, extension, mode, mode_ext;
    int copyright, original, emphasis, framesize;
} MpaFrame;

/* side information of one granule and channel; gains are indices into
 * MpaTables.gainpow2 */
typedef struct L3Granule {
    int      scfsi;
    unsigned part2_3_length, big_values, scalefac_compress, block_type, mixed_block_flag;
    unsigned table_select[3];
    unsigned maxband[3], maxbandl, maxb;
    unsigned region1start, region2start;
    unsigned preflag, scalefac_scale, count1table_select;
    int      full_gain[3];
    int      pow2gain;
} L3Granule;

typedef struct L3Side {
    unsigned  main_data_begin, private_bits;
    L3Granule gr[2][2];   /* [channel][granule] */
} L3Side;

/* the scale-factor band layout of one sample rate */
typedef struct L3Bands {
    short long_idx[23], long_diff[22], short_idx[14], short_diff[13];
} L3Bands;
extern const L3Bands rl_l3_bands[9];

/* a Layer II allocation entry (l2_alloc.c) */
typedef struct L2Alloc {
    short bits, d;
} L2Alloc;
extern const L2Alloc *const rl_l2_alloc[5];

#define GAINPOW2_N (256 + 118 + 4)

typedef struct MpaTables {
    real_t ispow[8207];
    real_t aa_ca[8], aa_cs[8];
    real_t win[4][36], win1[4][36];
    real_t gainpow2[GAINPOW2_N];
    real_t cos9[9], cos6_1, cos6_2, tfcos36[9], tfcos12[3];
    int    long_limit[9][23], short_limit[9][14];
    /* band walks: [0] mixed, [1] short, [2] long (4, 4 and 2 ints per entry) */
    int    map0[9][152], map1[9][156], map2[9][44];
    int    map_len[9][3];
    unsigned n_slen2[512], i_slen2[256];
    real_t tan1_1[16], tan2_1[16], tan1_2[16], tan2_2[16];
    real_t pow1_1[2][16], pow2_1[2][16], pow1_2[2][16], pow2_2[2][16];
    /* synthesis */
    real_t decwin[512 + 32];
    real_t cos64[16], cos32[8], cos16[4], cos8[2], cos4[1];
    /* Layers I and II: the dequantisation factors by [class][scale factor]
     * and the ungrouping of 3, 5 and 9-step triples */
    real_t  muls[27][64];
    uint8_t grp3[32 * 3], grp5[128 * 3], grp9[1024 * 3];
} MpaTables;

void rl_mpa_tables_init(MpaTables *t);

struct RlMpaDecoder {
    /* where mpglib's error messages go (rl_mpa_set_report); NULL: nowhere */
    void   (*report)(void *arg, const char *text);
    void    *report_arg;
    /* the input queue (mpglib's buffer list) */
    uint8_t *q;
    size_t   q_head, q_cap;
    int      bsize;          /* bytes queued */

    int vbr_header, num_frames, enc_delay, enc_padding;
    int header_parsed, side_parsed, data_parsed;
    int free_format, old_free_format;
    int framesize, ssize, dsize, fsizeold, fsizeold_nopadding;
    MpaFrame fr;
    L3Side   side;
    unsigned long header;
    int      sync_bitstream;

    /* the bit reservoir: two frame buffers, 512 bytes of history in front */
    uint8_t  bsspace[2][MPA_MAXFRAMESIZE + 1024];
    int      bsnum;
    int      bitindex;
    uint8_t *wordpointer;

    real_t   hybrid_block[2][2][SBLIMIT * SSLIMIT];
    int      hybrid_blc[2];
    real_t   synth_buffs[2][2][0x110];
    int      synth_bo;

    real_t   out[2 * 1152];  /* one frame, interleaved, unclipped (mpglib's synthesis sums) */
    MpaTables t;
};

/* the bit reader (mpglib's getbits, getbits_fast, get1bit) */
static inline unsigned mpa_getbits(RlMpaDecoder *d, int n)
{
    unsigned long v;
    if (n <= 0 || !d->wordpointer)
        return 0;
    v = d->wordpointer[0];
    v = (v << 8) | d->wordpointer[1];
    v = (v << 8) | d->wordpointer[2];
    v <<= d->bitindex;
    v &= 0xffffff;
    d->bitindex += n;
    v >>= (24 - n);
    d->wordpointer += d->bitindex >> 3;
    d->bitindex &= 7;
    return (unsigned) v;
}

static inline unsigned mpa_getbits_fast(RlMpaDecoder *d, int n)
{
    unsigned long v = d->wordpointer[0];
    v = (v << 8) | d->wordpointer[1];
    v <<= d->bitindex;
    v &= 0xffff;
    d->bitindex += n;
    v >>= (16 - n);
    d->wordpointer += d->bitindex >> 3;
    d->bitindex &= 7;
    return (unsigned) v;
}

static inline unsigned mpa_get1bit(RlMpaDecoder *d)
{
    unsigned char v = (unsigned char) (*d->wordpointer << d->bitindex);
    d->bitindex++;
    d->wordpointer += d->bitindex >> 3;
    d->bitindex &= 7;
    return v >> 7;
}

/* mpa_header.c */
extern const int rl_mpa_kbps[2][3][16];
extern const long rl_mpa_freqs[9];
int  rl_mpa_head_check(unsigned long head, int check_layer);
int  rl_mpa_decode_header(MpaFrame *fr, unsigned long head, const char **why);

/* l3_side.c: the side info of the frame at wordpointer; returns the main
 * data bits this frame still needs (may be negative) */
int  rl_l3_read_side(RlMpaDecoder *d);
int  rl_l3_scalefactors_1(RlMpaDecoder *d, int *scf, L3Granule *g);
int  rl_l3_scalefactors_2(RlMpaDecoder *d, int *scf, L3Granule *g, int i_stereo);
/* l3_dequant.c: 0, or 1 when the granule overran its bits */
int  rl_l3_dequantize(RlMpaDecoder *d, real_t xr[SBLIMIT][SSLIMIT], int *scf, L3Granule *g,
                      int sfreq, int part2bits);
/* l3_stereo.c */
void rl_l3_intensity(const MpaTables *t, real_t xr[2][SBLIMIT][SSLIMIT], const int *scf,
                     const L3Granule *g, int sfreq, int ms_stereo, int lsf);
/* l3_hybrid.c */
void rl_l3_antialias(const MpaTables *t, real_t xr[SBLIMIT][SSLIMIT], const L3Granule *g);
void rl_l3_hybrid(RlMpaDecoder *d, real_t in[SBLIMIT][SSLIMIT], real_t out[SSLIMIT][SBLIMIT],
                  int ch, const L3Granule *g);
/* l3_frame.c: decodes the main data into d->out; samples per channel */
int  rl_l3_decode_frame(RlMpaDecoder *d);
/* l1_frame.c, l2_frame.c: a Layer I / II frame's data into d->out; sample
 * values written, or -1 (Layer I: an illegal allocation) */
int  rl_l1_decode_frame(RlMpaDecoder *d);
int  rl_l2_decode_frame(RlMpaDecoder *d);
/* synth.c: 32 subband samples of one channel into 32 output samples,
 * written every other value (stereo) or contiguously (mono) */
void rl_mpa_synth(RlMpaDecoder *d, const real_t *bands, int ch, real_t *out);
void rl_mpa_synth_mono(RlMpaDecoder *d, const real_t *bands, real_t *out);
/* a synthesis sum as mpglib's 16-bit output: rounded, clipped */
int16_t rl_mpa_to_pcm(real_t sum);
/* one row of each channel (right unused for mono) into out; returns the
 * position after the 32 samples per channel */
real_t *rl_mpa_synth_row(RlMpaDecoder *d, const real_t *left, const real_t *right, real_t *out);

/* one of mpglib's messages, fmt with one %ld: to d's report function, if any */
void rl_mpa_report(const RlMpaDecoder *d, const char *fmt, long n);

#endif
