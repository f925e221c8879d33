/* ringlame: PCM input (libsndfile for named files, LAME's own WAV/AIFF/raw parser for stdin).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "pcm_reader.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---------- byte-level helpers for the stdin parser ---------- */

static uint32_t get_be32(FILE *fp)
{
    unsigned char b[4] = { 0, 0, 0, 0 };
    (void)!fread(b, 1, 4, fp);   /* short reads leave zeros, like LAME */
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint32_t get_le32(FILE *fp)
{
    unsigned char b[4] = { 0, 0, 0, 0 };
    (void)!fread(b, 1, 4, fp);
    return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* 16-bit values are sign-extended, as LAME reads them */
static int get_le16s(FILE *fp)
{
    unsigned char b[2] = { 0, 0 };
    (void)!fread(b, 1, 2, fp);
    return (int)(int16_t)(uint16_t)(b[0] | b[1] << 8);
}

static int get_be16s(FILE *fp)
{
    unsigned char b[2] = { 0, 0 };
    (void)!fread(b, 1, 2, fp);
    return (int)(int16_t)(uint16_t)(b[1] | b[0] << 8);
}

/* AIFF sample rate: 80-bit IEEE extended, big-endian */
static double get_be_extended(FILE *fp)
{
    unsigned char b[10];
    int sign, e;
    uint32_t hi, lo;
    double v = 0;

    memset(b, 0, sizeof b);
    (void)!fread(b, 1, 10, fp);
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

/* forward skip: seek on files, read and discard on pipes (LAME's fskip) */
static int skip_bytes(FILE *fp, long n)
{
    struct stat st;
    char tmp[4096];

    if (n < 0)
        return -1;
    if (fstat(fileno(fp), &st) != 0 || !S_ISFIFO(st.st_mode)) {
        if (fseek(fp, n, SEEK_CUR) == 0)
            return 0;
    }
    while (n > 0) {
        size_t want = n < (long)sizeof tmp ? (size_t)n : sizeof tmp;
        size_t got = fread(tmp, 1, want, fp);
        if (got < 1)
            return -1;
        n -= (long)got;
    }
    return 0;
}

static long even_len(long x) { return (x & 1) ? x + 1 : x; }

/* ---------- stdin WAV / AIFF headers (LAME's parse_wave/aiff_header) ---------- */

/* >0 ok, 0 refused (message set), <0 corrupt */
static int parse_wav(RlPcmReader *r, FILE *fp, char *err, size_t errlen)
{
    int fmt_tag = 0, channels = 0, bits = 0, rate = 0, found = 0, i;
    unsigned long data_len = 0, size;

    (void)get_be32(fp);                /* RIFF length */
    if (get_be32(fp) != ID_WAVE)
        return -1;
    for (i = 0; i < 20; ++i) {
        uint32_t type = get_be32(fp);
        if (type == ID_FMT) {
            size = (unsigned long)even_len((long)get_le32(fp));
            if (size < 16)
                return -1;
            fmt_tag = get_le16s(fp);
            channels = get_le16s(fp);
            rate = (int)get_le32(fp);
            (void)get_le32(fp);        /* bytes per second */
            (void)get_le16s(fp);       /* block align */
            bits = get_le16s(fp);
            size -= 16;
            if (size > 9 && fmt_tag == FMT_EXTENSIBLE) {
                (void)get_le16s(fp);   /* cbSize */
                (void)get_le16s(fp);   /* valid bits */
                (void)get_le32(fp);    /* channel mask */
                fmt_tag = get_le16s(fp);   /* sub-format GUID starts with the tag */
                size -= 10;
            }
            if (size > 0 && skip_bytes(fp, (long)size) != 0)
                return -1;
        } else if (type == ID_DATA) {
            data_len = get_le32(fp);
            found = 1;
            break;
        } else {
            size = (unsigned long)even_len((long)get_le32(fp));
            if (skip_bytes(fp, (long)size) != 0)
                return -1;
        }
    }
    if (!found)
        return -1;
    if (fmt_tag == 0x0050 || fmt_tag == 0x0055) {
        set_err(err, errlen, "MPEG audio inside WAV is not supported");
        return 0;
    }
    if (fmt_tag != FMT_PCM && fmt_tag != FMT_IEEE_FLOAT) {
        set_err(err, errlen, "unsupported WAV data format 0x%04X", (unsigned)fmt_tag & 0xFFFF);
        return 0;
    }
    if (channels < 1 || channels > 2) {
        set_err(err, errlen, "unsupported number of channels: %d (only 1 or 2)", channels);
        return 0;
    }
    if (rate < 1) {
        set_err(err, errlen, "unsupported sample rate: %d", rate);
        return 0;
    }
    if (bits < 1) {
        set_err(err, errlen, "unsupported bits per sample: %d", bits);
        return 0;
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
    return 1;
}

static int parse_aiff(RlPcmReader *r, FILE *fp, char *err, size_t errlen)
{
    long chunk_left, data_pos = -1;
    uint32_t form, data_type = ID_NONE, nframes = 0;
    int seen_comm = 0, seen_ssnd = 0, channels = 0, bits = 0, have_ssnd = 0;
    uint32_t blk_offset = 0, blk_size = 0;
    double rate = 0;

    chunk_left = (long)(int32_t)get_be32(fp);
    form = get_be32(fp);
    if (form != ID_AIFF && form != ID_AIFC)
        return -1;
    while (chunk_left > 0) {
        uint32_t type = get_be32(fp);
        long ck;
        chunk_left -= 4;
        if (type == ID_COMM) {
            seen_comm = seen_ssnd + 1;
            ck = even_len((long)(int32_t)get_be32(fp));
            chunk_left -= ck;
            channels = (short)get_be16s(fp);
            ck -= 2;
            nframes = get_be32(fp);
            ck -= 4;
            bits = (short)get_be16s(fp);
            ck -= 2;
            rate = get_be_extended(fp);
            ck -= 10;
            if (form == ID_AIFC) {
                data_type = get_be32(fp);
                ck -= 4;
            }
            if (skip_bytes(fp, ck) != 0)
                return -1;
        } else if (type == ID_SSND) {
            seen_ssnd = 1;
            ck = even_len((long)(int32_t)get_be32(fp));
            chunk_left -= ck;
            blk_offset = get_be32(fp);
            ck -= 4;
            blk_size = get_be32(fp);
            ck -= 4;
            have_ssnd = 1;
            if (seen_comm > 0) {
                if (skip_bytes(fp, (long)(int32_t)blk_offset) != 0)
                    return -1;
                break;         /* positioned at the sample data */
            }
            data_pos = ftell(fp);
            if (data_pos >= 0)
                data_pos += (long)(int32_t)blk_offset;
            if (skip_bytes(fp, ck) != 0)
                return -1;
        } else {
            ck = even_len((long)(int32_t)get_be32(fp));
            chunk_left -= ck;
            if (skip_bytes(fp, ck) != 0)
                return -1;
        }
    }
    if (data_type == ID_SOWT)
        r->swap_order = 0;
    else if (data_type == ID_TWOS || data_type == ID_NONE)
        r->swap_order = 1;
    else
        return -1;
    if (!(seen_comm && (seen_ssnd > 0 || nframes == 0)))
        return -1;
    if (!have_ssnd) {
        set_err(err, errlen, "AIFF sound data is not PCM");
        return 0;
    }
    if (bits != 8 && bits != 16 && bits != 24 && bits != 32) {
        set_err(err, errlen, "AIFF sound data is not 8, 16, 24 or 32 bits");
        return 0;
    }
    if (channels != 1 && channels != 2) {
        set_err(err, errlen, "unsupported number of channels: %d (only 1 or 2)", channels);
        return 0;
    }
    if (blk_size != 0) {
        set_err(err, errlen, "AIFF block size is not 0 bytes");
        return 0;
    }
    if ((int)rate < 1) {
        set_err(err, errlen, "unsupported sample rate: %d", (int)rate);
        return 0;
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
    if (data_pos >= 0 && fseek(fp, data_pos, SEEK_SET) != 0) {
        set_err(err, errlen, "can't rewind stream to the AIFF audio data");
        return 0;
    }
    return 1;
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
        /* float WAV on stdin: clip to [-1,1] and scale by 2^31 in float */
        float const m_max = (float)INT_MAX;        /* 2^31 after rounding */
        float const m_min = -(float)INT_MIN;
        for (i = 0; i < n; i++) {
            float u;
            int32_t v;
            memcpy(&u, &out[i], sizeof u);
            if (u >= 1)
                v = INT_MAX;
            else if (u <= -1)
                v = INT_MIN;
            else if (u >= 0)
                v = (int32_t)(u * m_max + 0.5f);
            else if (u < 0)
                v = (int32_t)(u * m_min - 0.5f);
            else
                v = INT_MIN;    /* NaN: what x86's cvttss2si gives in LAME */
            out[i] = v;
        }
    }
}

/* ---------- open ---------- */

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

static int open_named(RlPcmReader *r, const char *path, const RlRawFormat *raw,
                      char *err, size_t errlen)
{
    struct stat st;
    SF_INFO info;
    int use_raw = raw && raw->enabled;

    if (has_mpeg_suffix(path)) {
        set_err(err, errlen, "%s: MPEG audio input is not supported", path);
        return -ENOTSUP;
    }
    if (stat(path, &st) != 0) {
        int e = errno;
        set_err(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (S_ISDIR(st.st_mode)) {
        set_err(err, errlen, "%s: is a directory", path);
        return -EISDIR;
    }
    if (S_ISREG(st.st_mode) && st.st_size == 0 && !use_raw) {
        set_err(err, errlen, "%s: empty file", path);
        return -EINVAL;
    }

    memset(&info, 0, sizeof info);
    r->sf = sf_open(path, SFM_READ, &info);
    if (!r->sf && !use_raw) {
        set_err(err, errlen, "%s: not a supported audio file (%s)", path, sf_strerror(NULL));
        return -EINVAL;
    }
    if (!r->sf) {
        /* -r: LAME retries the file as headerless PCM */
        if (raw->is_signed == 0 && raw->bitwidth != 8) {
            set_err(err, errlen, "%s: unsigned input only supported with bitwidth 8", path);
            return -EINVAL;
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
        default:
            set_err(err, errlen, "%s: only 8, 16, 24 and 32 bit raw input is supported", path);
            return -EINVAL;
        }
        r->sf = sf_open(path, SFM_READ, &info);
        if (!r->sf) {
            set_err(err, errlen, "%s: cannot open as raw PCM (%s)", path, sf_strerror(NULL));
            return -EINVAL;
        }
    }
    /* float/double data: libsndfile scales to the file's peak (LAME asks for it) */
    sf_command(r->sf, SFC_SET_SCALE_FLOAT_INT_READ, NULL, SF_TRUE);

    if (info.channels < 1 || info.channels > 2) {
        set_err(err, errlen, "%s: unsupported number of channels: %d (only 1 or 2)", path, info.channels);
        return -ENOTSUP;
    }
    if (info.samplerate < 1) {
        set_err(err, errlen, "%s: unsupported sample rate: %d", path, info.samplerate);
        return -ENOTSUP;
    }
    r->channels = info.channels;
    r->samplerate = info.samplerate;
    r->path = strdup(path);
    if (!r->path) {
        set_err(err, errlen, "out of memory");
        return -ENOMEM;
    }
    r->sf_format = info.format;
    r->sf_frames = (int64_t)info.frames;
    r->raw_big_endian = use_raw && raw->big_endian;
    r->frames = (info.frames >= 0 && info.frames < (sf_count_t)UNKNOWN_LENGTH) ? (int64_t)info.frames : -1;
    return 0;
}

static int open_stdin(RlPcmReader *r, const RlRawFormat *raw, char *err, size_t errlen)
{
    r->fp = stdin;
    if (raw && raw->enabled) {
        if (raw->bitwidth != 8 && raw->bitwidth != 16 && raw->bitwidth != 24 && raw->bitwidth != 32) {
            set_err(err, errlen, "-: only 8, 16, 24 and 32 bit raw input is supported");
            return -EINVAL;
        }
        if (raw->is_signed == 0 && raw->bitwidth != 8) {
            set_err(err, errlen, "-: unsigned input only supported with bitwidth 8");
            return -EINVAL;
        }
        if (raw->channels < 1 || raw->channels > 2 || raw->samplerate < 1) {
            set_err(err, errlen, "-: unsupported raw format (%d channels, %d Hz)", raw->channels, raw->samplerate);
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
        uint32_t magic = get_be32(r->fp);
        int rc;
        err[0] = 0;
        if (magic == ID_RIFF) {
            rc = parse_wav(r, r->fp, err, errlen);
            if (rc < 0)
                set_err(err, errlen, "-: corrupt or unsupported WAVE format");
            if (rc > 0 && raw && raw->ignore_length) {
                r->num_samples = UNKNOWN_LENGTH;    /* LAME: read to EOF */
                r->count_carefully = 0;
            }
        } else if (magic == ID_FORM) {
            rc = parse_aiff(r, r->fp, err, errlen);
            if (rc < 0)
                set_err(err, errlen, "-: corrupt or unsupported AIFF format");
        } else if (magic == 0 && feof(r->fp)) {
            set_err(err, errlen, "-: empty input");
            rc = -1;
        } else {
            set_err(err, errlen, "-: not a WAV or AIFF stream (use -r for raw PCM)");
            rc = -1;
        }
        if (rc <= 0) {
            if (rc == 0 && err[0]) {
                char tmp[256];
                snprintf(tmp, sizeof tmp, "-: %s", err);
                set_err(err, errlen, "%s", tmp);
            }
            return -EINVAL;
        }
        if (r->bitwidth != 8 && r->bitwidth != 16 && r->bitwidth != 24 && r->bitwidth != 32) {
            set_err(err, errlen, "-: only 8, 16, 24 and 32 bit input is supported (got %d)", r->bitwidth);
            return -ENOTSUP;
        }
        if (r->ieee_float && r->bitwidth != 32) {
            set_err(err, errlen, "-: only 32-bit float WAV is supported on stdin");
            return -ENOTSUP;
        }
        r->frames = r->count_carefully ? (int64_t)r->num_samples : -1;
        return 0;
    }
}

int rl_pcm_open(RlPcmReader **out, const char *path, const RlRawFormat *raw,
                char *err, size_t errlen)
{
    RlPcmReader *r;
    char dummy[8];
    int rc;

    if (!err || errlen == 0) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = 0;
    if (!out || !path) {
        set_err(err, errlen, "no input file");
        return -EINVAL;
    }
    *out = NULL;
    r = calloc(1, sizeof *r);
    if (!r) {
        set_err(err, errlen, "out of memory");
        return -ENOMEM;
    }
    r->frames = -1;
    rc = strcmp(path, "-") == 0 ? open_stdin(r, raw, err, errlen)
                                : open_named(r, path, raw, err, errlen);
    if (rc < 0) {
        rl_pcm_close(r);
        return rc;
    }
    *out = r;
    return 0;
}

int rl_pcm_samplerate(const RlPcmReader *r) { return r->samplerate; }
int rl_pcm_channels(const RlPcmReader *r) { return r->channels; }
int64_t rl_pcm_frames(const RlPcmReader *r) { return r->frames; }

int rl_pcm_read(RlPcmReader *r, int32_t *buf, int max_frames)
{
    int nch, frames;

    if (!r || !buf || max_frames < 0)
        return -EINVAL;
    nch = r->channels;
    if (max_frames == 0)
        return 0;

    if (r->sf) {
        /* LAME: sf_read_int(num_channels * framesize); the values do not
         * depend on how the file is chunked */
        sf_count_t items = sf_read_int(r->sf, buf, (sf_count_t)nch * max_frames);
        if (items < 0)
            return -EIO;
        return (int)(items / nch);
    } else {
        int want = max_frames;
        size_t bps = (size_t)r->bitwidth / 8, got;
        size_t need;

        /* header-announced length: read exactly num_samples (0 = to EOF) */
        if (r->count_carefully) {
            uint32_t remaining = r->num_read < r->num_samples ? r->num_samples - r->num_read : 0;
            if (remaining < (uint32_t)max_frames && r->num_samples != 0)
                want = (int)remaining;
        }
        if (want == 0)
            return 0;
        need = (size_t)want * (size_t)nch * bps;
        if (need > r->bytes_cap) {
            unsigned char *nb = realloc(r->bytes, need);
            if (!nb)
                return -ENOMEM;
            r->bytes = nb;
            r->bytes_cap = need;
        }
        got = fread(r->bytes, bps, (size_t)want * (size_t)nch, r->fp);
        if (ferror(r->fp))
            return -EIO;
        unpack(r, buf, got);
        frames = (int)(got / (size_t)nch);
        if (r->count_carefully)
            r->num_read += (uint32_t)frames;
        return frames;
    }
}

void rl_pcm_close(RlPcmReader *r)
{
    if (!r)
        return;
    if (r->sf)
        sf_close(r->sf);
    /* stdin is not closed: it belongs to the process */
    free(r->bytes);
    free(r->path);
    free(r);
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
    if (sf_seek(r->sf, 0, SEEK_SET) < 0 || items < 0)
        return -EIO;
    return (int)(items / r->channels);
}
