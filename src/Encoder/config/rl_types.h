/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: MPEG-1/2/2.5 Layer III constants and the side-information types
 * shared by every stage.  Sizes follow ISO 11172-3 / 13818-3.  Algorithms of
 * ringlame derive from LAME 3.100 (LGPL); this file is data layout only. */
#ifndef RL_TYPES_H
#define RL_TYPES_H

#include <stdint.h>

#define RL_ENCDELAY    576   /* samples of delay the encoder adds (tag field) */
#define RL_POSTDELAY   1152
#define RL_MDCTDELAY   48
#define RL_FFTOFFSET   (224 + RL_MDCTDELAY)
#define RL_DECDELAY    528
#define RL_SBLIMIT     32
#define RL_CBANDS      64
#define RL_SBPSY_L     21
#define RL_SBPSY_S     12
#define RL_SBMAX_L     22
#define RL_SBMAX_S     13
#define RL_PSFB21      6
#define RL_PSFB12      6
#define RL_SFBMAX      (RL_SBMAX_S * 3)
#define RL_BLKSIZE     1024
#define RL_HBLKSIZE    (RL_BLKSIZE / 2 + 1)
#define RL_BLKSIZE_S   256
#define RL_HBLKSIZE_S  (RL_BLKSIZE_S / 2 + 1)

/* Samples of one channel a frame reads: LAME's mf_needed for 2 granules
 * (max(1024+1152-272, 512+1152-32)).  Frame t covers stream samples
 * [1152t-528, 1152t+1376) of the zero-extended input (576t-528 for 1 granule). */
#define RL_FRAME_IN    1904

enum { RL_NORM_TYPE = 0, RL_START_TYPE = 1, RL_SHORT_TYPE = 2, RL_STOP_TYPE = 3 };
enum { RL_MD_LR_LR = 0, RL_MD_LR_I = 1, RL_MD_MS_LR = 2, RL_MD_MS_I = 3 };

typedef enum { RL_STEREO = 0, RL_JOINT_STEREO, RL_DUAL_CHANNEL, RL_MONO, RL_MODE_NOT_SET } RlMpegMode;
typedef enum { RL_VBR_OFF = 0, RL_VBR_MT = 1, RL_VBR_RH = 2, RL_VBR_ABR = 3, RL_VBR_MTRH = 4 } RlVbrMode;
typedef enum { RL_SB_NOT_SET = -1, RL_SB_ALLOWED = 0, RL_SB_COUPLED = 1, RL_SB_DISPENSED = 2, RL_SB_FORCED = 3 } RlShortBlockMode;

/* Scalefactor band boundaries (LAME: scalefac_struct). */
typedef struct RlSfbBands {
    int l[1 + RL_SBMAX_L];
    int s[1 + RL_SBMAX_S];
    int psfb21[1 + RL_PSFB21];
    int psfb12[1 + RL_PSFB12];
} RlSfbBands;

/* Masking threshold or energy per scalefactor band (LAME: III_psy_xmin). */
typedef struct RlPsyXmin {
    float l[RL_SBMAX_L];
    float s[RL_SBMAX_S][3];
} RlPsyXmin;

/* LAME: III_psy_ratio. */
typedef struct RlPsyRatio {
    RlPsyXmin thm;
    RlPsyXmin en;
} RlPsyRatio;

/* One granule of one channel (LAME: gr_info), fields in LAME's order and types. */
typedef struct RlGranule {
    float xr[576];
    int   l3_enc[576];
    int   scalefac[RL_SFBMAX];
    float xrpow_max;

    int part2_3_length;
    int big_values;
    int count1;
    int global_gain;
    int scalefac_compress;
    int block_type;
    int mixed_block_flag;
    int table_select[3];
    int subblock_gain[3 + 1];
    int region0_count;
    int region1_count;
    int preflag;
    int scalefac_scale;
    int count1table_select;

    int part2_length;
    int sfb_lmax;
    int sfb_smin;
    int psy_lmax;
    int sfbmax;
    int psymax;
    int sfbdivide;
    int width[RL_SFBMAX];
    int window[RL_SFBMAX];
    int count1bits;
    const int *sfb_partition_table;   /* LSF only: points into constant tables */
    int slen[4];

    int  max_nonzero_coeff;
    char energy_above_cutoff[RL_SFBMAX];
} RlGranule;

/* LAME: III_side_info_t. */
typedef struct RlSideInfo {
    RlGranule tt[2][2];
    int main_data_begin;
    int private_bits;
    int resv_drain_pre;
    int resv_drain_post;
    int scfsi[2][4];
} RlSideInfo;

#endif
