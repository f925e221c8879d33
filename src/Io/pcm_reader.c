/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: PCM input (libsndfile for named files, LAME's own WAV/AIFF/raw parser for stdin).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "pcm_reader.h"
#include "io_msg.h"
#include "mpa_reader.h"
#include "pcm_format.h"   /* rl_pcm_f32_to_s32 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sndfile.h>

/* chunk ids, read big-endian */
#define ID_RIFF 0x52494646u
#define ID_WAVE 0x57415645u
#define ID_FMT  0x666d7420u
#define ID_DATA 0x64617461u
#define ID_FORM 0x464f524du
#define ID_AIFF 0x41494646u
#define ID_AIFC 0x41494643u
#define ID_COMM 0x434f4d4du
#define ID_SSND 0x53534e44u
#define ID_NONE 0x4e4f4e45u
#define ID_TWOS 0x74776f73u
#define ID_SOWT 0x736f7774u

#define FMT_PCM        1
#define FMT_IEEE_FLOAT 3
#define FMT_EXTENSIBLE (-2)   /* 0xFFFE read as a sign-extended 16-bit value */

#define UNKNOWN_LENGTH 0xFFFFFFFFu   /* LAME's MAX_U_32_NUM */

struct RlPcmReader {
    SNDFILE *sf;                /* named files */
    char    *path;              /* named files: the path given */
    int      sf_format;         /* SF_INFO.format */
    RlPcmKind kind;             /* lame's input_format */
    int64_t  sf_frames;         /* SF_INFO.frames */
    int      raw_big_endian;    /* -r file: byte order asked for */
    FILE    *fp;                /* stdin */
    int      samplerate;
    int      channels;
    int64_t  frames;            /* -1 unknown */
    /* stdin reader (LAME's read_samples_pcm state) */
    int      bitwidth;
    int      swap_order;        /* bytes high-to-low (or, at 8 bits: unsigned) */
    int      ieee_float;
    int      count_carefully;   /* stop after num_samples frames */
    uint32_t num_samples;
    uint32_t num_read;
    unsigned char *bytes;       /* raw byte buffer */
    size_t   bytes_cap;
    int      read_frames;       /* LAME's read size (rl_pcm_set_read_size); 0: each call's */
    /* stdin header parsing: a read came up short (the stream ended or failed) */
    int      hdr_short;
    int      hdr_errno;         /* errno of a failed read, 0 at end of file */
    RlMpaReader *mpa;           /* MPEG audio input (raw->mpeg > 0) */
    int16_t *mpa_pcm;           /* one decoded read */
    /* lame's reader refuses every read of this input (its read_samples_pcm
     * checks): the reads give nothing, and lame prints this at the first */
    const char *read_refusal;
    /* what lame prints while it opens the input (rl_pcm_open_notes) */
    struct { const char *text; int level; } note[3];
    int      notes;
    char     note_buf[2][RL_PCM_NOTE_MAX];
};

#define NOTE_ALWAYS INT_MAX
#define NOTE_UNLESS_QUIET 10     /* lame: silent < 10 */
#define NOTE_UNLESS_SILENT 9     /* lame: silent < 9 */

static void add_note(RlPcmReader *r, const char *text, int level)
{
    if (r->notes < (int)(sizeof r->note / sizeof r->note[0])) {
        r->note[r->notes].text = text;
        r->note[r->notes].level = level;
        r->notes++;
    }
}

/* lame's read_samples_pcm: the sample formats its own reader takes */
static const char *read_refusal(int bitwidth, int is_signed)
{
    if (bitwidth != 8 && bitwidth != 16 && bitwidth != 24 && bitwidth != 32)
        return "Only 8, 16, 24 and 32 bit input files supported ";
    if (bitwidth != 8 && is_signed == 0)
        return "Unsigned input only supported with bitwidth 8";
    return NULL;
}

/* ---------- byte-level helpers for the stdin parser ---------- */

/* Reads n header bytes.  A short read leaves zeros, as in LAME, and marks
 * the header as cut (r->hdr_short), which the parsers check so that a
 * stream that ends inside a header ends the parse instead of feeding it
 * zeros forever. */
static void hdr_bytes(RlPcmReader *r, unsigned char *b, size_t n)
{
    size_t got;
    errno = 0;
    got = fread(b, 1, n, r->fp);
    if (got < n) {
        memset(b + got, 0, n - got);
        r->hdr_short = 1;
        if (ferror(r->fp) && !r->hdr_errno)
            r->hdr_errno = errno ? errno : EIO;
    }
}

static uint32_t get_be32(RlPcmReader *r)
{
    unsigned char b[4];
    hdr_bytes(r, b, 4);
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint32_t get_le32(RlPcmReader *r)
{
    unsigned char b[4];
    hdr_bytes(r, b, 4);
    return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* 16-bit values are sign-extended, as LAME reads them */
static int get_le16s(RlPcmReader *r)
{
    unsigned char b[2];
    hdr_bytes(r, b, 2);
    return (int)(int16_t)(uint16_t)(b[0] | b[1] << 8);
}

static int get_be16s(RlPcmReader *r)
{
    unsigned char b[2];
    hdr_bytes(r, b, 2);
    return (int)(int16_t)(uint16_t)(b[1] | b[0] << 8);
}

/* AIFF sample rate: 80-bit IEEE extended, big-endian */
static double get_be_extended(RlPcmReader *r)
{
    unsigned char b[10];
    int sign, e;
    uint32_t hi, lo;
    double v = 0;

    hdr_bytes(r, b, 10);
    sign = b[0] & 0x80;
    e = ((b[0] & 0x7F) << 8) | b[1];
    hi = (uint32_t)b[2] << 24 | (uint32_t)b[3] << 16 | (uint32_t)b[4] << 8 | b[5];
    lo = (uint32_t)b[6] << 24 | (uint32_t)b[7] << 16 | (uint32_t)b[8] << 8 | b[9];
    if (e != 0 || hi != 0 || lo != 0) {
        if (e == 0x7fff) {
            v = HUGE_VAL;
        } else {
            e -= 0x3fff + 31;
            v = ldexp((double)hi, e);
            v += ldexp((double)lo, e - 32);
        }
    }
    return sign ? -v : v;
}

/* What a header parser found. */
enum {
    HDR_OK = 1,
    HDR_REFUSED = 0,    /* a header LAME refuses too: the message is in err */
    HDR_CORRUPT = -1,   /* LAME's "corrupt or unsupported" */
    HDR_CUT = -2        /* the stream ended (or failed) inside the header */
};

/* Forward skip: seek on files, read and discard on pipes (LAME's fskip).
 * Never backwards (a negative size is corrupt: LAME would seek back and
 * could read the same chunks forever).  A skip that runs into the end of a
 * pipe cuts the header; a seek past the end of a file shows at the next
 * header read.  0, HDR_CORRUPT or HDR_CUT. */
static int skip_bytes(RlPcmReader *r, long n)
{
    struct stat st;
    char tmp[4096];
    FILE *fp = r->fp;

    if (n < 0)
        return HDR_CORRUPT;
    if (n == 0)
        return 0;
    if (fstat(fileno(fp), &st) != 0 || !S_ISFIFO(st.st_mode)) {
        if (fseek(fp, n, SEEK_CUR) == 0)
            return 0;
    }
    while (n > 0) {
        size_t want = n < (long)sizeof tmp ? (size_t)n : sizeof tmp;
        size_t got = fread(tmp, 1, want, fp);
        if (got < 1) {
            hdr_bytes(r, (unsigned char *)tmp, 1);   /* records the end or the error */
            return HDR_CUT;
        }
        n -= (long)got;
    }
    return 0;
}

static long even_len(long x) { return (x & 1) ? x + 1 : x; }

/* ---------- stdin WAV / AIFF headers (LAME's parse_wave/aiff_header) ---------- */

/* LAME's parse_wave_header, with two differences: a stream that ends inside
 * the header is reported (HDR_CUT) instead of being parsed as zeros, and a
 * chunk is never skipped backwards.  At most 20 chunks, as in LAME. */
static int parse_wav(RlPcmReader *r, char *err, size_t errlen)
{
    int fmt_tag = 0, channels = 0, bits = 0, rate = 0, found = 0, i, rc;
    unsigned long data_len = 0, size;

    (void)get_be32(r);                 /* RIFF length */
    if (get_be32(r) != ID_WAVE)
        return r->hdr_short ? HDR_CUT : HDR_CORRUPT;
    for (i = 0; i < 20; ++i) {
        uint32_t type = get_be32(r);
        if (type == ID_FMT) {
            size = (unsigned long)even_len((long)get_le32(r));
            if (r->hdr_short)
                return HDR_CUT;
            if (size < 16)
                return HDR_CORRUPT;
            fmt_tag = get_le16s(r);
            channels = get_le16s(r);
            rate = (int)get_le32(r);
            (void)get_le32(r);         /* bytes per second */
            (void)get_le16s(r);        /* block align */
            bits = get_le16s(r);
            size -= 16;
            if (size > 9 && fmt_tag == FMT_EXTENSIBLE) {
                (void)get_le16s(r);    /* cbSize */
                (void)get_le16s(r);    /* valid bits */
                (void)get_le32(r);     /* channel mask */
                fmt_tag = get_le16s(r);    /* sub-format GUID starts with the tag */
                size -= 10;
            }
            if (r->hdr_short)
                return HDR_CUT;
            if (size > 0 && (rc = skip_bytes(r, (long)size)) != 0)
                return rc;
        } else if (type == ID_DATA) {
            data_len = get_le32(r);
            if (r->hdr_short)
                return HDR_CUT;
            found = 1;
            break;
        } else {
            size = (unsigned long)even_len((long)get_le32(r));
            if (r->hdr_short)
                return HDR_CUT;
            if ((rc = skip_bytes(r, (long)size)) != 0)
                return rc;
        }
    }
    if (!found)
        return HDR_CORRUPT;
    if (fmt_tag == 0x0050 || fmt_tag == 0x0055) {
        rl_io_msg(err, errlen, "MPEG audio inside WAV is not supported");
        return HDR_REFUSED;
    }
    if (fmt_tag != FMT_PCM && fmt_tag != FMT_IEEE_FLOAT) {
        rl_io_msg(err, errlen, "unsupported WAV data format 0x%04X", (unsigned)fmt_tag & 0xFFFF);
        return HDR_REFUSED;
    }
    /* (the header's fields are unsigned; LAME reads them as signed) */
    if (channels < 1 || channels > 2) {
        rl_io_msg(err, errlen, "unsupported number of channels: %u (only 1 or 2)", (unsigned)channels & 0xFFFFu);
        return HDR_REFUSED;
    }
    if (rate < 1) {
        rl_io_msg(err, errlen, "unsupported sample rate: %u Hz", (unsigned)rate);
        return HDR_REFUSED;
    }
    if (bits < 1) {
        rl_io_msg(err, errlen, "unsupported bits per sample: %u", (unsigned)bits & 0xFFFFu);
        return HDR_REFUSED;
    }
    r->channels = channels;
    r->samplerate = rate;
    r->bitwidth = bits;
    r->ieee_float = fmt_tag == FMT_IEEE_FLOAT;
    r->swap_order = bits == 8 ? 1 : 0; /* little-endian; 8-bit WAV is unsigned */
    if (data_len == UNKNOWN_LENGTH) {
        r->num_samples = UNKNOWN_LENGTH;
        r->count_carefully = 0;
    } else {
        r->num_samples = (uint32_t)(data_len / ((unsigned long)channels * (unsigned long)((bits + 7) / 8)));
        r->count_carefully = 1;
    }
    return HDR_OK;
}

/* LAME's parse_aiff_header, with the same two differences as parse_wav.
 * Every pass of the chunk loop reads at least a chunk id and skips only
 * forwards, so the loop ends at the end of the stream at the latest (LAME
 * keeps reading zeros there until the FORM size is used up: a 12-byte
 * "FORM" + 0x7ffffff0 + "AIFF" runs for hundreds of millions of passes). */
static int parse_aiff(RlPcmReader *r, char *err, size_t errlen)
{
    long chunk_left, data_pos = -1;
    uint32_t form, data_type = ID_NONE, nframes = 0;
    int seen_comm = 0, seen_ssnd = 0, channels = 0, bits = 0, have_ssnd = 0, rc;
    uint32_t blk_offset = 0, blk_size = 0;
    double rate = 0;

    chunk_left = (long)(int32_t)get_be32(r);
    form = get_be32(r);
    if (r->hdr_short)
        return HDR_CUT;
    if (form != ID_AIFF && form != ID_AIFC)
        return HDR_CORRUPT;
    while (chunk_left > 0) {
        uint32_t type = get_be32(r);
        long ck;
        if (r->hdr_short)
            return HDR_CUT;
        chunk_left -= 4;
        if (type == ID_COMM) {
            seen_comm = seen_ssnd + 1;
            ck = even_len((long)(int32_t)get_be32(r));
            chunk_left -= ck;
            channels = (short)get_be16s(r);
            ck -= 2;
            nframes = get_be32(r);
            ck -= 4;
            bits = (short)get_be16s(r);
            ck -= 2;
            rate = get_be_extended(r);
            ck -= 10;
            if (form == ID_AIFC) {
                data_type = get_be32(r);
                ck -= 4;
            }
            if (r->hdr_short)
                return HDR_CUT;
            if ((rc = skip_bytes(r, ck)) != 0)
                return rc;
        } else if (type == ID_SSND) {
            seen_ssnd = 1;
            ck = even_len((long)(int32_t)get_be32(r));
            chunk_left -= ck;
            blk_offset = get_be32(r);
            ck -= 4;
            blk_size = get_be32(r);
            ck -= 4;
            if (r->hdr_short)
                return HDR_CUT;
            have_ssnd = 1;
            if (seen_comm > 0) {
                if ((rc = skip_bytes(r, (long)(int32_t)blk_offset)) != 0)
                    return rc;
                break;         /* positioned at the sample data */
            }
            data_pos = ftell(r->fp);
            if (data_pos >= 0)
                data_pos += (long)(int32_t)blk_offset;
            if ((rc = skip_bytes(r, ck)) != 0)
                return rc;
        } else {
            ck = even_len((long)(int32_t)get_be32(r));
            if (r->hdr_short)
                return HDR_CUT;
            chunk_left -= ck;
            if ((rc = skip_bytes(r, ck)) != 0)
                return rc;
        }
    }
    if (data_type == ID_SOWT)
        r->swap_order = 0;
    else if (data_type == ID_TWOS || data_type == ID_NONE)
        r->swap_order = 1;
    else
        return HDR_CORRUPT;
    if (!(seen_comm && (seen_ssnd > 0 || nframes == 0)))
        return HDR_CORRUPT;
    if (!have_ssnd) {
        rl_io_msg(err, errlen, "AIFF sound data is not PCM");
        return HDR_REFUSED;
    }
    if (bits != 8 && bits != 16 && bits != 24 && bits != 32) {
        rl_io_msg(err, errlen, "AIFF sound data is not 8, 16, 24 or 32 bits");
        return HDR_REFUSED;
    }
    if (channels != 1 && channels != 2) {
        rl_io_msg(err, errlen, "unsupported number of channels: %d (only 1 or 2)", channels);
        return HDR_REFUSED;
    }
    if (blk_size != 0) {
        rl_io_msg(err, errlen, "AIFF block size is not 0 bytes");
        return HDR_REFUSED;
    }
    if (!(rate >= 1 && rate < 2147483648.0)) {   /* also NaN and infinity */
        rl_io_msg(err, errlen, "unsupported sample rate: %g Hz", rate);
        return HDR_REFUSED;
    }
    r->channels = channels;
    r->samplerate = (int)rate;
    r->num_samples = nframes;
    r->count_carefully = 1;
    r->bitwidth = bits;
    r->ieee_float = 0;
    /* 8-bit AIFF is signed: swap_order doubles as "unsigned" at 8 bits */
    if (bits == 8)
        r->swap_order = 0;
    if (data_pos >= 0 && fseek(r->fp, data_pos, SEEK_SET) != 0) {
        rl_io_msg(err, errlen, "can't rewind stream to the AIFF audio data");
        return HDR_REFUSED;
    }
    return HDR_OK;
}

/* ---------- sample unpacking (LAME's unpack_read_samples) ---------- */

/* Converts n samples of r->bitwidth bits from r->bytes into left-justified int32. */
static void unpack(const RlPcmReader *r, int32_t *out, size_t n)
{
    const unsigned char *p = r->bytes;
    size_t i;

    switch (r->bitwidth) {
    case 8:
        for (i = 0; i < n; i++)
            out[i] = r->swap_order
                /* unsigned: flip the sign bit, LAME also sets 0x7f in the next byte */
                ? (int32_t)((uint32_t)(p[i] ^ 0x80) << 24 | 0x7fu << 16)
                : (int32_t)((uint32_t)p[i] << 24);
        break;
    case 16:
        for (i = 0; i < n; i++, p += 2)
            out[i] = r->swap_order ? (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16)
                                   : (int32_t)((uint32_t)p[1] << 24 | (uint32_t)p[0] << 16);
        break;
    case 24:
        for (i = 0; i < n; i++, p += 3)
            out[i] = r->swap_order
                ? (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8)
                : (int32_t)((uint32_t)p[2] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 8);
        break;
    default: /* 32 */
        for (i = 0; i < n; i++, p += 4)
            out[i] = r->swap_order
                ? (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3])
                : (int32_t)((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
        break;
    }
    if (r->ieee_float) {
        /* float WAV on stdin: lame's own conversion (pcm_format.h) */
        for (i = 0; i < n; i++) {
            float u;
            memcpy(&u, &out[i], sizeof u);
            out[i] = rl_pcm_f32_to_s32(u);
        }
    }
}

/* ---------- open ---------- */

/* lame's filename_to_type for the PCM kinds */
static RlPcmKind kind_of_name(const char *path)
{
    size_t const n = strlen(path);
    if (n < 4)
        return RL_PCM_KIND_UNKNOWN;
    if (strcasecmp(path + n - 4, ".wav") == 0)
        return RL_PCM_KIND_WAVE;
    if (strcasecmp(path + n - 4, ".aif") == 0)
        return RL_PCM_KIND_AIFF;
    if (strcasecmp(path + n - 4, ".raw") == 0)
        return RL_PCM_KIND_RAW;
    return RL_PCM_KIND_UNKNOWN;
}

static int has_mpeg_suffix(const char *path)
{
    size_t n = strlen(path);
    static const char *const sfx[] = { ".mpg", ".mp1", ".mp2", ".mp3" };
    size_t i;
    if (n < 4)
        return 0;
    for (i = 0; i < 4; i++)
        if (strcasecmp(path + n - 4, sfx[i]) == 0)
            return 1;
    return 0;
}

/* A -r file libsndfile would not open with the raw format asked for:
 * lame opens it with its own reader, whose first read then fails (an
 * empty stream, exit 0).  Its length is lame's guess from the size. */
static int open_named_refused(RlPcmReader *r, const char *path, const RlRawFormat *raw,
                              const struct stat *st)
{
    add_note(r, raw->swap_bytes ? "Assuming raw pcm input file : Forcing byte-swapping"
                                : "Assuming raw pcm input file", NOTE_UNLESS_SILENT);
    r->read_refusal = read_refusal(raw->bitwidth, raw->is_signed);
    r->channels = raw->channels;
    r->samplerate = raw->samplerate;
    r->frames = S_ISREG(st->st_mode) && raw->channels > 0
                ? (int64_t)st->st_size / (2 * raw->channels) : -1;
    r->path = strdup(path);
    return r->path ? 0 : -ENOMEM;
}

static int open_named(RlPcmReader *r, const char *path, const RlRawFormat *raw,
                      char *err, size_t errlen)
{
    struct stat st;
    SF_INFO info;
    int use_raw = raw && raw->enabled;

    if (stat(path, &st) != 0) {
        int e = errno;
        rl_io_msg(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (S_ISDIR(st.st_mode)) {
        rl_io_msg(err, errlen, "%s: is a directory", path);
        return -EISDIR;
    }

    memset(&info, 0, sizeof info);
    r->sf = sf_open(path, SFM_READ, &info);
    /* an empty file libsndfile opens by its name (.vox) is an empty stream, as for LAME */
    if (!r->sf && !use_raw && S_ISREG(st.st_mode) && st.st_size == 0) {
        rl_io_msg(err, errlen, "%s: empty file", path);
        return -EINVAL;
    }
    if (!r->sf && !use_raw) {
        rl_io_msg(err, errlen, "%s: not a supported audio file (%s)", path, sf_strerror(NULL));
        return -EINVAL;
    }
    if (!r->sf) {
        /* -r: LAME retries the file as headerless PCM.  The command line
         * gives 1 or 2 channels and a rate >= 1; anything else is refused
         * here as on stdin */
        if (raw->channels < 1 || raw->channels > 2 || raw->samplerate < 1) {
            rl_io_msg(err, errlen, "%s: unsupported raw format (%d channels, %d Hz)", path,
                      raw->channels, raw->samplerate);
            return -EINVAL;
        }
        if (raw->is_signed == 0 && raw->bitwidth != 8) {
            add_note(r, "Unsigned input only supported with bitwidth 8", NOTE_ALWAYS);
            return open_named_refused(r, path, raw, &st);
        }
        memset(&info, 0, sizeof info);
        info.samplerate = raw->samplerate;
        info.channels = raw->channels;
        info.format = SF_FORMAT_RAW | (raw->big_endian ? SF_ENDIAN_BIG : SF_ENDIAN_LITTLE);
        switch (raw->bitwidth) {
        case 8:  info.format |= raw->is_signed == 0 ? SF_FORMAT_PCM_U8 : SF_FORMAT_PCM_S8; break;
        case 16: info.format |= SF_FORMAT_PCM_16; break;
        case 24: info.format |= SF_FORMAT_PCM_24; break;
        case 32: info.format |= SF_FORMAT_PCM_32; break;
        default: break;     /* libsndfile refuses the format (lame's path) */
        }
        r->sf = sf_open(path, SFM_READ, &info);
        if (!r->sf) {
            /* lame: sf_perror, then its own words, then its own reader */
            snprintf(r->note_buf[0], sizeof r->note_buf[0], "%s", sf_strerror(NULL));
            add_note(r, r->note_buf[0], NOTE_ALWAYS);
            snprintf(r->note_buf[1], sizeof r->note_buf[1], "Could not open sound file \"%s\".", path);
            add_note(r, r->note_buf[1], NOTE_UNLESS_QUIET);
            return open_named_refused(r, path, raw, &st);
        }
    }
    /* a read error while libsndfile parsed the header.  Not for a file
     * shorter than libsndfile's 12-byte format probe: the probe's short
     * read leaves an error ("no data could be read") even when the file
     * then opens by its name (a headerless .vox of a few samples), and
     * LAME reads it; a real read error shows in the reads that follow. */
    if (sf_error(r->sf) != SF_ERR_NO_ERROR && !(S_ISREG(st.st_mode) && st.st_size < 12)) {
        rl_io_msg(err, errlen, "%s: read error (%s)", path, sf_strerror(r->sf));
        return -EIO;
    }
    /* float/double data: libsndfile scales to the file's peak (LAME asks
     * for it, for every file).  The command scans the whole file for its
     * peak, whatever the format; the peak only scales the readers of
     * float data (and float codecs), never integer PCM, so for integer PCM
     * the scan (a second pass over the input before the first frame) is
     * left out.  For other files the command can leave a harmless error
     * (VOX: "seek attempted on unseekable file type") that the first read
     * clears. */
    {
        int const sub = info.format & SF_FORMAT_SUBMASK;
        int const int_pcm = sub == SF_FORMAT_PCM_S8 || sub == SF_FORMAT_PCM_U8 || sub == SF_FORMAT_PCM_16
                            || sub == SF_FORMAT_PCM_24 || sub == SF_FORMAT_PCM_32;
        if (!int_pcm)
            sf_command(r->sf, SFC_SET_SCALE_FLOAT_INT_READ, NULL, SF_TRUE);
        if ((sub == SF_FORMAT_FLOAT || sub == SF_FORMAT_DOUBLE)
            && sf_error(r->sf) != SF_ERR_NO_ERROR) {
            rl_io_msg(err, errlen, "%s: read error (%s)", path, sf_strerror(r->sf));
            return -EIO;
        }
    }

    if (info.channels < 1 || info.channels > 2) {
        rl_io_msg(err, errlen, "%s: unsupported number of channels: %d (only 1 or 2)", path, info.channels);
        return -ENOTSUP;
    }
    if (info.samplerate < 1) {
        rl_io_msg(err, errlen, "%s: unsupported sample rate: %d", path, info.samplerate);
        return -ENOTSUP;
    }
    r->channels = info.channels;
    r->samplerate = info.samplerate;
    r->path = strdup(path);
    if (!r->path) {
        rl_io_msg(err, errlen, "out of memory");
        return -ENOMEM;
    }
    r->sf_format = info.format;
    r->sf_frames = (int64_t)info.frames;
    r->raw_big_endian = use_raw && raw->big_endian;
    r->frames = (info.frames >= 0 && info.frames < (sf_count_t)UNKNOWN_LENGTH) ? (int64_t)info.frames : -1;
    return 0;
}

/* A closed or unreadable standard input, told apart from an empty one. */
static int stdin_unreadable(char *err, size_t errlen)
{
    if (fcntl(STDIN_FILENO, F_GETFL) < 0 && errno == EBADF) {
        rl_io_msg(err, errlen, "-: standard input is closed: there is no input to read");
        return -EBADF;
    }
    return 0;
}

static int open_stdin(RlPcmReader *r, const RlRawFormat *raw, char *err, size_t errlen)
{
    int rc;

    r->fp = stdin;
    rc = stdin_unreadable(err, errlen);
    if (rc < 0)
        return rc;
    if (raw && raw->enabled) {
        add_note(r, raw->swap_bytes ? "Assuming raw pcm input file : Forcing byte-swapping"
                                    : "Assuming raw pcm input file", NOTE_UNLESS_SILENT);
        /* a width or signedness lame's reader refuses: lame opens the
         * stream and its first read fails (an empty stream, exit 0) */
        r->read_refusal = read_refusal(raw->bitwidth, raw->is_signed);
        if (raw->channels < 1 || raw->channels > 2 || raw->samplerate < 1) {
            rl_io_msg(err, errlen, "-: unsupported raw format (%d channels, %d Hz)", raw->channels, raw->samplerate);
            return -EINVAL;
        }
        r->channels = raw->channels;
        r->samplerate = raw->samplerate;
        r->bitwidth = raw->bitwidth;
        /* LAME's stdin reader treats 8-bit as unsigned unless --signed */
        r->swap_order = raw->bitwidth == 8 ? (raw->is_signed == 1 ? 0 : 1) : (raw->big_endian ? 1 : 0);
        r->num_samples = UNKNOWN_LENGTH;
        r->count_carefully = 0;
        r->frames = -1;
        return 0;
    } else {
        unsigned char m[4];
        uint32_t magic;
        size_t got;
        const char *kind = NULL;

        errno = 0;
        got = fread(m, 1, 4, r->fp);
        if (got < 4 && ferror(r->fp)) {
            int e = errno ? errno : EIO;
            rl_io_msg(err, errlen, "-: cannot read standard input: %s", strerror(e));
            return -e;
        }
        if (got == 0) {
            rl_io_msg(err, errlen, "-: standard input is empty: no WAV or AIFF header to read");
            return -EINVAL;
        }
        if (got < 4) {
            rl_io_msg(err, errlen, "-: standard input ends after %zu byte%s: too short for a WAV or AIFF header",
                    got, got == 1 ? "" : "s");
            return -EINVAL;
        }
        magic = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
        err[0] = 0;
        if (magic == ID_RIFF) {
            kind = "WAVE";
            r->kind = RL_PCM_KIND_WAVE;
            rc = parse_wav(r, err, errlen);
            if (rc > 0 && raw && raw->ignore_length) {
                r->num_samples = UNKNOWN_LENGTH;    /* LAME: read to EOF */
                r->count_carefully = 0;
            }
        } else if (magic == ID_FORM) {
            kind = "AIFF";
            r->kind = RL_PCM_KIND_AIFF;
            rc = parse_aiff(r, err, errlen);
        } else {
            rl_io_msg(err, errlen, "-: not a WAV or AIFF stream (use -r for raw PCM)");
            return -EINVAL;
        }
        if (rc == HDR_CUT && r->hdr_errno) {
            rl_io_msg(err, errlen, "-: cannot read standard input: %s", strerror(r->hdr_errno));
            return -r->hdr_errno;
        }
        if (rc == HDR_CUT) {
            rl_io_msg(err, errlen, "-: truncated %s header: the input ends before the %s", kind,
                    magic == ID_RIFF ? "data chunk" : "sound data (SSND chunk)");
            return -EINVAL;
        }
        if (rc == HDR_CORRUPT) {
            rl_io_msg(err, errlen, "-: corrupt or unsupported %s format", kind);
            return -EINVAL;
        }
        if (rc == HDR_REFUSED) {
            char tmp[256];
            snprintf(tmp, sizeof tmp, "-: %s", err);
            rl_io_msg(err, errlen, "%s", tmp);
            return -EINVAL;
        }
        /* the byte order options apply to the header's samples too, as
         * lame's reader applies them (8-bit samples keep the header's
         * signedness) */
        if (r->bitwidth != 8 && raw && raw->big_endian)
            r->swap_order = !r->swap_order;
        /* a width lame's reader cannot unpack (a 64-bit float WAV) or
         * --unsigned wider than 8 bits: lame's first read fails */
        r->read_refusal = read_refusal(r->bitwidth, raw ? raw->is_signed : -1);
        r->frames = r->count_carefully ? (int64_t)r->num_samples : -1;
        return 0;
    }
}

/* MPEG audio: decoded 16-bit samples, passed on left-justified as LAME's
 * front end does (get_audio_common) */
static int open_mpeg(RlPcmReader *r, const char *path, int layer, const RlRawFormat *raw,
                     char *err, size_t errlen)
{
    RlMpaOpen const how = { layer, raw->mpeg_delay_set, raw->mpeg_delay,
                            raw->mpeg_encoder_delay };
    int const rc = rl_mpa_reader_open(&r->mpa, path, &how, err, errlen);
    if (rc < 0)
        return rc;
    r->channels = rl_mpa_reader_channels(r->mpa);
    r->samplerate = rl_mpa_reader_samplerate(r->mpa);
    r->frames = rl_mpa_reader_frames(r->mpa);
    r->mpa_pcm = malloc(2 * 1152 * sizeof(int16_t));
    return r->mpa_pcm ? 0 : -ENOMEM;
}

static int mpeg_read(RlPcmReader *r, int32_t *buf, int max_frames)
{
    int total = 0;
    while (total < max_frames) {
        int want = max_frames - total, n;
        if (want > 1152)
            want = 1152;
        n = rl_mpa_reader_read(r->mpa, r->mpa_pcm, want);
        if (n < 0)
            return n;
        if (n == 0)
            break;
        for (int i = 0; i < n * r->channels; i++)
            buf[(size_t)total * (size_t)r->channels + (size_t)i] = (int32_t)((uint32_t)(int32_t)r->mpa_pcm[i] << 16);
        total += n;
    }
    return total;
}

int rl_pcm_open(RlPcmReader **out, const char *path, const RlRawFormat *raw,
                char *err, size_t errlen)
{
    RlPcmReader *r;
    char dummy[8];
    int rc, mpeg;

    if (!err || errlen == 0) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = 0;
    if (!out || !path) {
        rl_io_msg(err, errlen, "no input file");
        return -EINVAL;
    }
    *out = NULL;
    r = calloc(1, sizeof *r);
    if (!r) {
        rl_io_msg(err, errlen, "out of memory");
        return -ENOMEM;
    }
    r->frames = -1;
    /* lame's rule: --mp*input, else (without -r) the file name's suffix */
    mpeg = raw && !raw->enabled ? raw->mpeg : 0;
    if (mpeg == 0 && !(raw && raw->enabled) && has_mpeg_suffix(path))
        mpeg = RL_RAW_MPEG_ANY;
    if (mpeg > 0)
        rc = open_mpeg(r, path, mpeg == RL_RAW_MPEG_ANY ? RL_MPA_ANY_LAYER : mpeg, raw, err, errlen);
    else
        rc = strcmp(path, "-") == 0 ? open_stdin(r, raw, err, errlen)
                                    : open_named(r, path, raw, err, errlen);
    if (rc < 0) {
        rl_pcm_close(r);
        return rc;
    }
    if (r->mpa) {
        RlMpaFrameInfo fi;
        rl_mpa_reader_frame_info(r->mpa, &fi);
        r->kind = fi.layer == 1 ? RL_PCM_KIND_MP1 : fi.layer == 2 ? RL_PCM_KIND_MP2 : RL_PCM_KIND_MP3;
    }
    else if (raw && raw->enabled)
        r->kind = RL_PCM_KIND_RAW;
    else if (strcmp(path, "-") != 0)
        r->kind = kind_of_name(path);
    *out = r;
    return 0;
}

RlMpaReader *rl_pcm_mpeg(RlPcmReader *r) { return r->mpa; }
RlPcmKind rl_pcm_kind(const RlPcmReader *r) { return r->kind; }

int rl_pcm_samplerate(const RlPcmReader *r) { return r->samplerate; }
int rl_pcm_channels(const RlPcmReader *r) { return r->channels; }
int64_t rl_pcm_frames(const RlPcmReader *r) { return r->frames; }

/* One read of LAME's front end (get_audio_common): up to `frames` frames.
 * sf_read_int or LAME's fread of whole samples gives a sample count; LAME
 * keeps count / channels frames and copies them from the END of what was
 * read.  A count that is not a whole number of frames (only the last read of
 * a stereo stream cut mid-frame can give one: libsndfile returns the whole
 * samples past the last whole frame as long as they do not make a frame)
 * therefore drops the read's FIRST sample: left = sample 2i+1, right =
 * sample 2i+2 for every frame i of that read. */
static int lame_read(RlPcmReader *r, int32_t *buf, int frames)
{
    int const nch = r->channels;
    long items, got_frames, skip;

    if (r->read_refusal)
        return 0;
    if (r->sf) {
        sf_count_t n = sf_read_int(r->sf, buf, (sf_count_t)nch * frames);
        /* libsndfile ends a read early on a read error and only records
         * it: a short read is EOF only without one */
        if (n < 0 || sf_error(r->sf) != SF_ERR_NO_ERROR)
            return -EIO;
        /* libsndfile's VOX ADPCM reader can report more items than were
         * asked for (it writes only those asked for): never count more */
        if (n > (sf_count_t)nch * frames)
            n = (sf_count_t)nch * frames;
        items = (long)n;
    } else {
        size_t const bps = (size_t)r->bitwidth / 8;
        size_t need, got;

        /* header-announced length: read exactly num_samples (0 = to EOF) */
        if (r->count_carefully) {
            uint32_t remaining = r->num_read < r->num_samples ? r->num_samples - r->num_read : 0;
            if (remaining < (uint32_t)frames && r->num_samples != 0)
                frames = (int)remaining;
        }
        if (frames == 0)
            return 0;
        need = (size_t)frames * (size_t)nch * bps;
        if (need > r->bytes_cap) {
            unsigned char *nb = realloc(r->bytes, need);
            if (!nb)
                return -ENOMEM;
            r->bytes = nb;
            r->bytes_cap = need;
        }
        errno = 0;
        got = fread(r->bytes, bps, (size_t)frames * (size_t)nch, r->fp);
        if (ferror(r->fp))
            return errno > 0 ? -errno : -EIO;
        unpack(r, buf, got);
        items = (long)got;
    }
    got_frames = items / nch;
    skip = items - got_frames * nch;
    if (skip > 0)
        memmove(buf, buf + skip, (size_t)got_frames * (size_t)nch * sizeof *buf);
    if (r->count_carefully)
        r->num_read += (uint32_t)got_frames;
    return (int)got_frames;
}

void rl_pcm_set_read_size(RlPcmReader *r, int frames)
{
    if (r)
        r->read_frames = frames > 0 ? frames : 0;
}

int rl_pcm_read(RlPcmReader *r, int32_t *buf, int max_frames)
{
    int total = 0, chunk;

    if (!r || !buf || max_frames < 0)
        return -EINVAL;
    if (r->mpa)
        return mpeg_read(r, buf, max_frames);
    chunk = r->read_frames > 0 ? r->read_frames : max_frames;
    while (total < max_frames) {
        int want = max_frames - total < chunk ? max_frames - total : chunk;
        int n = lame_read(r, buf + (size_t)total * (size_t)r->channels, want);
        if (n < 0)
            return n;
        total += n;
        if (n < want)
            break;          /* the end: LAME's next read gives 0 */
    }
    return total;
}

void rl_pcm_close(RlPcmReader *r)
{
    if (!r)
        return;
    if (r->sf)
        sf_close(r->sf);
    /* stdin is not closed: it belongs to the process */
    rl_mpa_reader_close(r->mpa);
    free(r->mpa_pcm);
    free(r->bytes);
    free(r->path);
    free(r);
}

void rl_pcm_skip_counted(RlPcmReader *r, int frames)
{
    /* lame's init_infile lowers num_samples by its skip; its own reader
     * reads no more than num_samples (0: to the end) */
    if (r && r->fp && r->count_carefully && frames > 0)
        r->num_samples = r->num_samples > (uint32_t)frames ? r->num_samples - (uint32_t)frames : 0;
}

const char *rl_pcm_read_refusal(const RlPcmReader *r)
{
    return r ? r->read_refusal : NULL;
}

void rl_pcm_open_notes(const RlPcmReader *r, int silent, char *buf, size_t n)
{
    size_t at = 0;

    if (n == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; r && i < r->notes; i++) {
        int w;
        if (silent >= r->note[i].level)
            continue;
        w = snprintf(buf + at, n - at, "%s\n", r->note[i].text);
        if (w < 0 || (size_t)w >= n - at)
            break;
        at += (size_t)w;
    }
}

const uint8_t *rl_pcm_input_id3v2(const RlPcmReader *r, size_t *len)
{
    *len = 0;
    return r && r->mpa ? rl_mpa_reader_id3v2(r->mpa, len) : NULL;
}

int rl_pcm_sf_info(const RlPcmReader *r, RlPcmSfInfo *out)
{
    if (!r || !out)
        return -EINVAL;
    if (!r->sf)
        return -ENOTSUP;
    out->path = r->path;
    out->format = r->sf_format;
    out->frames = r->sf_frames;
    out->channels = r->channels;
    out->raw_big_endian = r->raw_big_endian;
    return 0;
}

int rl_pcm_sf_read_at(RlPcmReader *r, int64_t frame, int32_t *buf, int nframes)
{
    sf_count_t items;
    if (!r || !buf || nframes < 0 || frame < 0)
        return -EINVAL;
    if (!r->sf)
        return -ENOTSUP;
    if (sf_seek(r->sf, (sf_count_t)frame, SEEK_SET) < 0)
        return -EIO;
    items = sf_read_int(r->sf, buf, (sf_count_t)r->channels * nframes);
    if (items > (sf_count_t)r->channels * nframes)     /* see lame_read */
        items = (sf_count_t)r->channels * nframes;
    /* back to the start in every case: the decode path reads from there */
    if (sf_seek(r->sf, 0, SEEK_SET) < 0 || items < 0 || sf_error(r->sf) != SF_ERR_NO_ERROR)
        return -EIO;
    return (int)(items / r->channels);
}

int rl_pcm_sf_tail(RlPcmReader *r, int32_t *value)
{
    int32_t v[4];
    sf_count_t items;
    if (!r || !value)
        return -EINVAL;
    if (!r->sf)
        return -ENOTSUP;
    if (r->channels != 2 || r->sf_frames < 1)
        return 0;           /* mono: every whole sample is a whole frame */
    /* the last frame and what follows: 3 samples when exactly one whole
     * sample lies past it (more would make a frame past sf_frames, and
     * libsndfile then cuts the read back to whole frames) */
    if (sf_seek(r->sf, (sf_count_t)(r->sf_frames - 1), SEEK_SET) < 0)
        return -EIO;
    items = sf_read_int(r->sf, v, 4);
    if (sf_seek(r->sf, 0, SEEK_SET) < 0 || items < 0 || sf_error(r->sf) != SF_ERR_NO_ERROR)
        return -EIO;
    if (items != 3)
        return 0;
    *value = v[2];
    return 1;
}
