/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the Layer III stream writer (Encode): side info, the header
 * ring, main data in reservoir order, stuffing, the seek table.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include <errno.h>
#include <string.h>

#include "bitstream.h"
#include "rl_config.h"
#include "rl_frame.h"
#include "tables.h"
#include "huffman_tables.h"
#include "crc16.h"
#include "lametag.h"

/* The version string LAME stuffs into ancillary data (get_lame_short_version). */
static const char stuffing_version[] = "3.100";

int rl_frame_bits(const RlConfig *cfg, int bitrate_index, int padding)
{
    int const kbps = bitrate_index ? rl_bitrate_kbps(cfg->version, bitrate_index)
                                   : cfg->avg_bitrate;
    return 8 * ((cfg->version + 1) * 72000 * kbps / cfg->samplerate_out + padding);
}

/* ------------------------------------------------------------------ */
/* Stream writer (Encode side).                                        */

static void put_header_bits(RlEncodeState *s, const RlConfig *cfg)
{
    memcpy(&s->buf[s->buf_byte_idx], s->header[s->w_ptr].buf, (size_t)cfg->sideinfo_len);
    s->buf_byte_idx += cfg->sideinfo_len;
    s->totbit += cfg->sideinfo_len * 8;
    s->w_ptr = (s->w_ptr + 1) & (RL_MAX_HEADER_BUF - 1);
}

/* Write j bits; a pending frame header is spliced in when a new byte starts
 * exactly at its write_timing (LAME putbits2). */
static void putbits2(RlEncodeState *s, const RlConfig *cfg, int val, int j)
{
    while (j > 0) {
        int k;
        if (s->buf_bit_idx == 0) {
            s->buf_bit_idx = 8;
            s->buf_byte_idx++;
            if (s->header[s->w_ptr].write_timing == s->totbit)
                put_header_bits(s, cfg);
            s->buf[s->buf_byte_idx] = 0;
        }
        k = j < s->buf_bit_idx ? j : s->buf_bit_idx;
        j -= k;
        s->buf_bit_idx -= k;
        s->buf[s->buf_byte_idx] |= (uint8_t)((val >> j) << s->buf_bit_idx);
        s->totbit += k;
    }
}

/* Write j bits ignoring frame headers (LAME putbits_noheaders). */
static void putbits_noheaders(RlEncodeState *s, int val, int j)
{
    while (j > 0) {
        int k;
        if (s->buf_bit_idx == 0) {
            s->buf_bit_idx = 8;
            s->buf_byte_idx++;
            s->buf[s->buf_byte_idx] = 0;
        }
        k = j < s->buf_bit_idx ? j : s->buf_bit_idx;
        j -= k;
        s->buf_bit_idx -= k;
        s->buf[s->buf_byte_idx] |= (uint8_t)((val >> j) << s->buf_bit_idx);
        s->totbit += k;
    }
}

/* Stuffing: "LAME", the version if >= 32 bits remain, then alternating bits
 * whose phase carries across the stream (LAME drain_into_ancillary). */
static void drain_into_ancillary(RlEncodeState *s, const RlConfig *cfg, int remaining)
{
    static const int lame_chars[4] = { 0x4c, 0x41, 0x4d, 0x45 };
    for (int i = 0; i < 4; i++) {
        if (remaining >= 8) {
            putbits2(s, cfg, lame_chars[i], 8);
            remaining -= 8;
        }
    }
    if (remaining >= 32) {
        for (size_t i = 0; i < sizeof stuffing_version - 1 && remaining >= 8; ++i) {
            remaining -= 8;
            putbits2(s, cfg, stuffing_version[i], 8);
        }
    }
    for (; remaining >= 1; remaining -= 1) {
        putbits2(s, cfg, s->ancillary_flag, 1);
        s->ancillary_flag ^= !cfg->disable_reservoir;
    }
}

static void writeheader(RlEncodeState *s, int val, int j)
{
    RlHeaderSlot *const h = &s->header[s->h_ptr];
    int ptr = h->ptr;
    while (j > 0) {
        int const k = j < 8 - (ptr & 7) ? j : 8 - (ptr & 7);
        j -= k;
        h->buf[ptr >> 3] |= (uint8_t)((val >> j) << (8 - (ptr & 7) - k));
        ptr += k;
    }
    h->ptr = ptr;
}

static void write_table_selects(RlEncodeState *s, RlGranule *gi, int n)
{
    for (int i = 0; i < n; i++) {
        if (gi->table_select[i] == 14)
            gi->table_select[i] = 16;
        writeheader(s, gi->table_select[i], 5);
    }
}

/* Header + side info of frame f into the next header slot (LAME encodeSideInfo2). */
static int encode_side_info(RlEncodeState *s, const RlConfig *cfg, RlFrame *f, int bits_per_frame)
{
    RlSideInfo *const l3 = &f->side;
    RlHeaderSlot *const h = &s->header[s->h_ptr];

    h->ptr = 0;
    memset(h->buf, 0, (size_t)cfg->sideinfo_len);
    writeheader(s, cfg->samplerate_out < 16000 ? 0xffe : 0xfff, 12);
    writeheader(s, cfg->version, 1);
    writeheader(s, 4 - 3, 2);   /* layer III */
    writeheader(s, !cfg->error_protection, 1);
    writeheader(s, f->bitrate_index, 4);
    writeheader(s, cfg->samplerate_index, 2);
    writeheader(s, f->padding, 1);
    writeheader(s, cfg->extension, 1);
    writeheader(s, (int)cfg->mode, 2);
    writeheader(s, f->mode_ext, 2);
    writeheader(s, cfg->copyright, 1);
    writeheader(s, cfg->original, 1);
    writeheader(s, cfg->emphasis, 2);
    if (cfg->error_protection)
        writeheader(s, 0, 16);   /* CRC placeholder */

    if (l3->main_data_begin < 0)
        return -EINVAL;
    if (cfg->version == 1) {
        writeheader(s, l3->main_data_begin, 9);
        /* private bits: LAME never sets them (always 0) */
        writeheader(s, 0, cfg->channels_out == 2 ? 3 : 5);
        for (int ch = 0; ch < cfg->channels_out; ch++)
            for (int band = 0; band < 4; band++)
                writeheader(s, l3->scfsi[ch][band], 1);
    }
    else {
        writeheader(s, l3->main_data_begin, 8);
        writeheader(s, 0, cfg->channels_out);
    }
    for (int gr = 0; gr < cfg->mode_gr; gr++) {
        for (int ch = 0; ch < cfg->channels_out; ch++) {
            RlGranule *const gi = &l3->tt[gr][ch];
            writeheader(s, gi->part2_3_length + gi->part2_length, 12);
            writeheader(s, gi->big_values / 2, 9);
            writeheader(s, gi->global_gain, 8);
            writeheader(s, gi->scalefac_compress, cfg->version == 1 ? 4 : 9);
            if (gi->block_type != RL_NORM_TYPE) {
                writeheader(s, 1, 1);   /* window_switching_flag */
                writeheader(s, gi->block_type, 2);
                writeheader(s, gi->mixed_block_flag, 1);
                write_table_selects(s, gi, 2);
                writeheader(s, gi->subblock_gain[0], 3);
                writeheader(s, gi->subblock_gain[1], 3);
                writeheader(s, gi->subblock_gain[2], 3);
            }
            else {
                writeheader(s, 0, 1);
                write_table_selects(s, gi, 3);
                if (gi->region0_count < 0 || gi->region0_count >= 16
                    || gi->region1_count < 0 || gi->region1_count >= 8)
                    return -EINVAL;
                writeheader(s, gi->region0_count, 4);
                writeheader(s, gi->region1_count, 3);
            }
            if (cfg->version == 1)
                writeheader(s, gi->preflag, 1);
            writeheader(s, gi->scalefac_scale, 1);
            writeheader(s, gi->count1table_select, 1);
        }
    }
    if (cfg->error_protection)
        rl_crc16_write_header(h->buf, cfg->sideinfo_len);

    {
        int const old = s->h_ptr;
        s->h_ptr = (old + 1) & (RL_MAX_HEADER_BUF - 1);
        s->header[s->h_ptr].write_timing = s->header[old].write_timing + bits_per_frame;
        if (s->h_ptr == s->w_ptr)
            return -EOVERFLOW;   /* header ring full (LAME only prints an error) */
    }
    return 0;
}

/* Copies the packed main data into the stream through putbits2 so that the
 * frame headers land at their write_timing. */
static int write_main_data(RlEncodeState *s, const RlConfig *cfg, const RlMainData *m)
{
    int pos = 0;
    /* While both sides are at a byte boundary (the stream's current byte
     * full), each putbits2 call below writes one whole byte: it starts a
     * new byte, splices the header in if one is due there, and stores the
     * byte.  The same steps, byte by byte, without its general loop. */
    if (s->buf_bit_idx == 0) {
        for (; m->total_bits - pos >= 8; pos += 8) {
            s->buf_byte_idx++;
            if (s->header[s->w_ptr].write_timing == s->totbit)
                put_header_bits(s, cfg);
            s->buf[s->buf_byte_idx] = m->buf[pos >> 3];
            s->totbit += 8;
        }
    }
    while (pos < m->total_bits) {
        int const n = m->total_bits - pos < 8 - (pos & 7) ? m->total_bits - pos : 8 - (pos & 7);
        int const byte = m->buf[pos >> 3];
        int const val = (byte >> (8 - (pos & 7) - n)) & ((1 << n) - 1);
        putbits2(s, cfg, val, n);
        pos += n;
    }
    return m->total_bits;
}

/* Bits needed to complete all buffered frames (LAME compute_flushbits);
 * *bytes: what the flush would hand out then, rounded as LAME rounds. */
static int compute_flushbits_bytes(const RlEncodeState *s, const RlConfig *cfg, int *bytes)
{
    int const first_ptr = s->w_ptr;
    int const frame_bits = rl_frame_bits(cfg, s->last_bitrate_index, s->last_padding);
    int last_ptr = s->h_ptr - 1;
    int flushbits, total;
    if (last_ptr == -1)
        last_ptr = RL_MAX_HEADER_BUF - 1;

    flushbits = s->header[last_ptr].write_timing - s->totbit;
    total = flushbits + frame_bits;
    if (flushbits >= 0) {
        int remaining = 1 + last_ptr - first_ptr;
        if (last_ptr < first_ptr)
            remaining = 1 + last_ptr - first_ptr + RL_MAX_HEADER_BUF;
        flushbits -= remaining * 8 * cfg->sideinfo_len;
    }
    *bytes = (total % 8 ? 1 + total / 8 : total / 8) + s->buf_byte_idx + 1;
    return flushbits + frame_bits;
}

static int compute_flushbits(const RlEncodeState *s, const RlConfig *cfg)
{
    int bytes;
    return compute_flushbits_bytes(s, cfg, &bytes);
}

int rl_bits_flush_size(const RlEncodeState *s, const RlConfig *cfg, int *strange)
{
    int bytes;
    *strange = compute_flushbits_bytes(s, cfg, &bytes) < 0;
    return bytes;
}

/* copy_buffer(..,1) bookkeeping for the bytes added since the last call. */
static void account_music(RlEncodeState *s)
{
    int const end = s->buf_byte_idx + 1;
    if (end > s->music_start) {
        s->music_crc = rl_crc16_lame(s->music_crc, &s->buf[s->music_start],
                                     (size_t)(end - s->music_start));
        s->seek.nbytes_written += (unsigned long)(end - s->music_start);
        s->music_start = end;
    }
}

/* LAME addVbr: fill the seek bag with the running kbps sum. */
static void add_vbr_frame(RlSeekInfo *v, int kbps)
{
    v->nvbr_num_frames++;
    v->sum += kbps;
    v->seen++;
    if (v->seen < v->want)
        return;
    if (v->pos < v->size) {
        v->bag[v->pos] = v->sum;
        v->pos++;
        v->seen = 0;
    }
    if (v->pos == v->size) {
        for (int i = 1; i < v->size; i += 2)
            v->bag[i / 2] = v->bag[i];
        v->want *= 2;
        v->pos /= 2;
    }
}

/* InitVbrTag's placeholder bytes (non-music) into the bitstream; disables
 * the tag when it does not fit in a frame of the tag's bitrate. */
static int put_tag_placeholder(RlEncodeState *s, const RlConfig *cfg)
{
    if (s->write_lame_tag) {
        uint8_t frame[RL_TAG_MAX_FRAME];
        int const n = rl_lametag_placeholder(s, cfg, frame, sizeof frame);
        if (n < 0)
            return n;
        if (n == 0) {
            s->write_lame_tag = 0;   /* the tag does not fit in the frame */
        }
        else {
            for (int i = 0; i < n; i++) {
                putbits_noheaders(s, frame[i], 8);
                for (int k = 0; k < RL_MAX_HEADER_BUF; k++)
                    s->header[k].write_timing += 8;
            }
        }
    }
    s->music_start = s->buf_byte_idx + 1;   /* the placeholder is not music */
    return 0;
}

int rl_bits_init(RlEncodeState *s, const RlConfig *cfg)
{
    memset(s, 0, sizeof *s);
    s->buf_byte_idx = -1;
    s->buf_bit_idx = 0;
    s->totbit = 0;
    s->h_ptr = s->w_ptr = 0;
    s->write_lame_tag = cfg->write_lame_tag;
    s->seek.total_frame_size = 0;
    return put_tag_placeholder(s, cfg);
}

int rl_bits_count_placeholder(RlEncodeState *s, const RlConfig *cfg, const uint8_t *head,
                              size_t head_n)
{
    uint8_t frame[RL_TAG_MAX_FRAME];
    RlSeekInfo seek;
    int n;

    if (head_n > 0) {
        s->music_crc = rl_crc16_lame(s->music_crc, head, head_n);
        s->seek.nbytes_written += (unsigned long) head_n;
    }
    seek = s->seek;
    if (!s->write_lame_tag)
        return 0;
    /* the same bytes put_tag_placeholder wrote (no frame came since) */
    n = rl_lametag_placeholder(s, cfg, frame, sizeof frame);
    s->seek = seek;
    if (n <= 0)
        return n;
    s->music_crc = rl_crc16_lame(s->music_crc, frame, (size_t)n);
    s->seek.nbytes_written += (unsigned long)n;
    return 0;
}

int rl_bits_new_file(RlEncodeState *s, const RlConfig *cfg)
{
    if (s->buf_byte_idx != -1)
        return -EINVAL;             /* the previous file's bytes were not taken */
    s->frame_number = 0;
    return put_tag_placeholder(s, cfg);
}

int rl_bits_encode_frame(RlEncodeState *s, const RlConfig *cfg, RlFrame *f)
{
    RlSideInfo *const l3 = &f->side;
    int bits_per_frame, bits, ret;

    if (f->bitrate_index < 0 || f->bitrate_index > 14 || f->mode_ext < 0 || f->mode_ext > 3)
        return -EINVAL;
    /* room for one more frame: the driver takes the bytes after every frame */
    if (s->buf_byte_idx + 1 > RL_BS_BUFFER_SIZE - 2 * 2880 - 2 * RL_MAX_HEADER_LEN)
        return -ENOSPC;

    bits_per_frame = rl_frame_bits(cfg, f->bitrate_index, f->padding);
    s->last_bitrate_index = f->bitrate_index;
    s->last_padding = f->padding;
    s->last_mode_ext = f->mode_ext;

    drain_into_ancillary(s, cfg, l3->resv_drain_pre);
    ret = encode_side_info(s, cfg, f, bits_per_frame);
    if (ret < 0)
        return ret;
    bits = 8 * cfg->sideinfo_len;
    bits += write_main_data(s, cfg, &f->main);
    drain_into_ancillary(s, cfg, l3->resv_drain_post);
    bits += l3->resv_drain_post;

    s->main_data_begin = l3->main_data_begin + (bits_per_frame - bits) / 8;

    /* LAME reports inconsistencies and then trusts main_data_begin */
    if (s->main_data_begin * 8 != s->resv_size)
        s->resv_size = s->main_data_begin * 8;

    if (s->totbit > 1000000000) {
        /* keep the bit counter from overflowing on very long streams */
        for (int i = 0; i < RL_MAX_HEADER_BUF; ++i)
            s->header[i].write_timing -= s->totbit;
        s->totbit = 0;
    }

    account_music(s);
    if (s->write_lame_tag)
        add_vbr_frame(&s->seek, rl_bitrate_kbps(cfg->version, f->bitrate_index));
    s->frame_number++;
    return 0;
}

int rl_bits_flush(RlEncodeState *s, const RlConfig *cfg)
{
    int const flushbits = compute_flushbits(s, cfg);
    if (flushbits < 0)
        return 1;   /* LAME: "strange error flushing buffer", nothing written */
    /* flushbits excludes the few headers still pending (the reservoir spans
     * at most 511 bytes, i.e. a handful of frames) */
    if (s->buf_byte_idx + 1 + flushbits / 8 + 8 * RL_MAX_HEADER_LEN > RL_BS_BUFFER_SIZE)
        return -ENOSPC;
    drain_into_ancillary(s, cfg, flushbits);
    /* all frames are padded out with ancillary data: the reservoir is empty */
    s->resv_size = 0;
    s->main_data_begin = 0;
    account_music(s);
    return 0;
}

size_t rl_bits_pending(const RlEncodeState *s)
{
    return (size_t)(s->buf_byte_idx + 1);
}

size_t rl_bits_take(RlEncodeState *s, uint8_t *dst, size_t cap)
{
    size_t const n = rl_bits_pending(s);
    if (n == 0 || n > cap)
        return 0;
    memcpy(dst, s->buf, n);
    s->buf_byte_idx = -1;
    s->buf_bit_idx = 0;
    s->music_start = 0;
    return n;
}
