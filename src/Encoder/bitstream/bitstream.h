/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: Layer III bitstream writer: main-data packing, side info, header ring, stuffing.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_BITSTREAM_H
#define RL_BITSTREAM_H

#include <stddef.h>
#include <stdint.h>

struct RlConfig;
struct RlFrame;

/* Main data of one frame can hold at most 4 x 4095 bits (part2_3_length has
 * 12 bits); a byte of slack keeps the packer simple. */
#define RL_MAIN_DATA_BYTES 2056

/* The packed main data of one frame (LAME writeMainData's output before the
 * headers are spliced in): for each gr/ch in LAME's write order the
 * scalefactor bits then the Huffman bits, concatenated MSB-first.
 * Written by Search (rl_main_data_pack), read by Encode. */
typedef struct RlMainData {
    uint8_t buf[RL_MAIN_DATA_BYTES];
    int     bits[2][2];      /* bits of gr/ch (part2_length + part2_3_length) */
    int     total_bits;      /* sum of bits[][] */
} RlMainData;

/* LAME: MAX_HEADER_BUF / MAX_HEADER_LEN */
#define RL_MAX_HEADER_BUF 256
#define RL_MAX_HEADER_LEN 40
/* Bytes that can accumulate between two rl_bits_take calls: the tag
 * placeholder (<= 2880) or one frame with its drains (< 2 x 2880). */
#define RL_BS_BUFFER_SIZE 16384

typedef struct RlHeaderSlot {
    int  write_timing;       /* bit position at which this frame header goes */
    int  ptr;                /* bits written into buf */
    uint8_t buf[RL_MAX_HEADER_LEN];
} RlHeaderSlot;

/* LAME: VBR_seek_info_t (bag inline, size fixed to 400). */
typedef struct RlSeekInfo {
    int  sum;
    int  seen;
    int  want;
    int  pos;
    int  size;
    int  bag[400];
    int  nvbr_num_frames;
    unsigned long nbytes_written;
    int  total_frame_size;   /* TotalFrameSize: bytes of the tag frame */
} RlSeekInfo;

/* Serial Encode-stage state (LAME: Bit_stream_struc, the header ring and
 * reservoir parts of EncStateVar_t, VBR_seek_table, nMusicCRC, and the
 * EncResult_t fields the tag reads). Owned by Encode only. */
typedef struct RlEncodeState {
    /* Bit_stream_struc */
    uint8_t buf[RL_BS_BUFFER_SIZE];
    int     buf_byte_idx;
    int     buf_bit_idx;
    int     totbit;

    RlHeaderSlot header[RL_MAX_HEADER_BUF];
    int     h_ptr, w_ptr;
    int     ancillary_flag;

    int     resv_size;       /* ResvSize */
    int     resv_max;        /* ResvMax */
    /* LAME's l3_side->main_data_begin crosses frames: it lives here and is
     * copied into each frame's side info. */
    int     main_data_begin;

    RlSeekInfo seek;
    uint16_t music_crc;      /* nMusicCRC */
    int     write_lame_tag;  /* cfg->write_lame_tag after InitVbrTag (0 if the tag does not fit) */

    int     music_start;     /* first byte of buf that is music (after the tag placeholder) */
    int     frame_number;
    int     last_bitrate_index;  /* ov_enc.bitrate_index of the last frame */
    int     last_mode_ext;       /* ov_enc.mode_ext of the last frame (tag header) */
    int     last_padding;
} RlEncodeState;

/* What the tag needs that is neither in RlConfig nor in RlEncodeState. */
typedef struct RlTagInfo {
    int   encoder_delay;     /* 576 (RL_ENCDELAY) */
    int   encoder_padding;   /* from the flush */
    int   radio_gain;        /* ov_rpg.RadioGain = floor(gain*10+.5), 0 if RG had too few samples */
    float peak_sample;       /* ov_rpg.PeakSample (only with find_peak_sample) */
    int   nogap_total;       /* -1 or count (LAME default 0: flags stay 0) */
    int   nogap_current;
} RlTagInfo;

/* Search: pack f->side.tt[gr][ch] into f->main exactly as writeMainData
 * writes it.  Returns 0 or -EINVAL if a bit count disagrees with
 * part2_length/part2_3_length (LAME asserts there).
 * Stage: Search; Encode (CBR, vbr_rh). */
int rl_main_data_pack(const struct RlConfig *cfg, struct RlFrame *f);

/* lame_init_bitstream + InitVbrTag (tag placeholder if cfg->write_lame_tag).
 * Stage: init. */
int rl_bits_init(RlEncodeState *s, const struct RlConfig *cfg);

/* lame_init_bitstream between two files of a gapless set (after
 * rl_bits_flush and rl_bits_take): frame count, seek table and a new tag
 * placeholder; the reservoir (emptied by the flush), the music CRC, the
 * ancillary flag and the header ring carry on.  -EINVAL if bytes are pending.
 * Stage: Encode. */
int rl_bits_new_file(RlEncodeState *s, const struct RlConfig *cfg);

/* A gapless set's file that had no samples: LAME's front end never called
 * lame_encode_buffer for it, so lame_encode_flush_nogap's copy_buffer(..,1)
 * counts its tag placeholder as music (CRC and byte count), after the
 * head's n bytes before it in the bit buffer where there are any.  Call before
 * the file's rl_bits_flush.
 * Stage: Encode. */
int rl_bits_count_placeholder(RlEncodeState *s, const struct RlConfig *cfg, const uint8_t *head,
                              size_t n);

/* format_bitstream + copy_buffer(..,1) bookkeeping + AddVbrFrame for frame f
 * (f->bitrate_index, f->padding, f->mode_ext, f->side after the reservoir).
 * Stage: Encode. */
int rl_bits_encode_frame(RlEncodeState *s, const struct RlConfig *cfg, struct RlFrame *f);

/* flush_bitstream: stuff the last frame, ResvSize = 0.  Then take the bytes.
 * 0, or 1 when nothing was there to flush (no frame header yet: LAME
 * prints "strange error flushing buffer" and writes nothing), or -errno.
 * Stage: Encode (after the last frame). */
int rl_bits_flush(RlEncodeState *s, const struct RlConfig *cfg);

/* Hands out the finished bytes exactly when LAME's copy_buffer would (call
 * after rl_bits_init, after each rl_bits_encode_frame and after
 * rl_bits_flush): returns the bytes copied, 0 if none.  If cap is smaller
 * than rl_bits_pending() nothing is copied and 0 is returned.
 * Stage: Encode. */
size_t rl_bits_take(RlEncodeState *s, uint8_t *dst, size_t cap);

/* lame_get_size_mp3buffer: the bytes a flush would hand out now (the
 * pending bytes and those that complete the buffered frames); *strange:
 * 1 where LAME's compute_flushbits prints "strange error flushing buffer".
 * Stage: Encode (or while none runs). */
int rl_bits_flush_size(const RlEncodeState *s, const struct RlConfig *cfg, int *strange);

/* Bytes finished and not yet taken.
 * Stage: Encode. */
size_t rl_bits_pending(const RlEncodeState *s);

/* MPEG frame length in bits of a header index (LAME getframebits; index 0 =
 * free format uses cfg->avg_bitrate).
 * Stage: any (pure). */
int rl_frame_bits(const struct RlConfig *cfg, int bitrate_index, int padding);

#endif
