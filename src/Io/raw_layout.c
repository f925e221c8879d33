/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: finds the sample data of named WAV/AIFF/raw integer-PCM files for direct reads and
 * checks it against libsndfile's values.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "raw_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sndfile.h>

#include "pcm_reader.h"

#define PROBE_FRAMES 256
#define MAX_CHUNKS   64

void rl_raw_convert(const void *src, int fmt, int32_t *dst, long n)
{
    const uint8_t *p = src;
    int const bps = fmt == RL_SF_I32 ? 4 : rl_raw_sample_bytes(fmt);
    long i;
    for (i = 0; i < n; i++, p += bps)
        dst[i] = rl_raw_sample(p, fmt);
}

static int read_exact(int fd, void *buf, size_t n, int64_t off)
{
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
        off += r;
    }
    return 0;
}

static uint32_t le32(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static uint32_t be32(const uint8_t *b) { return (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24; }
static unsigned le16(const uint8_t *b) { return (unsigned)b[0] | (unsigned)b[1] << 8; }
static unsigned be16(const uint8_t *b) { return (unsigned)b[1] | (unsigned)b[0] << 8; }

/* Header facts our walk found; endian: 0 little, 1 big. */
typedef struct Hdr { int64_t offset; int channels, block_align, big_endian; } Hdr;

/* RIFF/WAVE: the first 'data' chunk after a PCM 'fmt ' chunk.  1 found, 0 not. */
static int walk_wav(int fd, Hdr *h)
{
    uint8_t b[40];
    int64_t pos = 12;
    int have_fmt = 0, i;

    if (read_exact(fd, b, 12, 0) || be32(b) != 0x52494646u /* RIFF */ || be32(b + 8) != 0x57415645u /* WAVE */)
        return 0;
    for (i = 0; i < MAX_CHUNKS; i++) {
        uint32_t id, size;
        if (read_exact(fd, b, 8, pos))
            return 0;
        id = be32(b);
        size = le32(b + 4);
        if (id == 0x666d7420u) {                      /* 'fmt ' */
            unsigned tag;
            if (size < 16 || read_exact(fd, b, size < 40 ? size : 40, pos + 8))
                return 0;
            tag = le16(b);
            if (tag == 0xFFFE) {                       /* EXTENSIBLE: the GUID starts with the tag */
                if (size < 40)
                    return 0;
                tag = le16(b + 24);
            }
            if (tag != 1)
                return 0;
            h->channels = (int)le16(b + 2);
            h->block_align = (int)le16(b + 12);
            have_fmt = 1;
        } else if (id == 0x64617461u) {               /* 'data' */
            if (!have_fmt)
                return 0;
            h->offset = pos + 8;
            h->big_endian = 0;
            return 1;
        }
        pos += 8 + (int64_t)size + (size & 1);         /* chunks are padded to even sizes */
    }
    return 0;
}

/* FORM AIFF/AIFC: the SSND chunk's samples (after its offset field). */
static int walk_aiff(int fd, Hdr *h)
{
    uint8_t b[26];
    int64_t pos = 12, ssnd = -1;
    int aifc, have_comm = 0, i;

    if (read_exact(fd, b, 12, 0) || be32(b) != 0x464f524du /* FORM */)
        return 0;
    if (be32(b + 8) == 0x41494646u)                    /* AIFF */
        aifc = 0;
    else if (be32(b + 8) == 0x41494643u)               /* AIFC */
        aifc = 1;
    else
        return 0;
    h->big_endian = 1;
    for (i = 0; i < MAX_CHUNKS && (!have_comm || ssnd < 0); i++) {
        uint32_t id, size;
        if (read_exact(fd, b, 8, pos))
            return 0;
        id = be32(b);
        size = be32(b + 4);
        if (id == 0x434f4d4du) {                       /* COMM */
            if (size < (aifc ? 22u : 18u) || read_exact(fd, b, aifc ? 22 : 18, pos + 8))
                return 0;
            h->channels = (int)be16(b);
            h->block_align = 0;
            if (aifc) {
                uint32_t comp = be32(b + 18);
                if (comp == 0x736f7774u)               /* sowt: little-endian */
                    h->big_endian = 0;
                else if (comp != 0x4e4f4e45u && comp != 0x74776f73u)   /* NONE, twos */
                    return 0;
            }
            have_comm = 1;
        } else if (id == 0x53534e44u) {                /* SSND */
            if (read_exact(fd, b, 8, pos + 8))
                return 0;
            ssnd = pos + 16 + (int64_t)be32(b);
        }
        pos += 8 + (int64_t)size + (size & 1);
    }
    if (!have_comm || ssnd < 0)
        return 0;
    h->offset = ssnd;
    return 1;
}

/* Sun/NeXT .snd: big-endian header with the data offset; '.snd' data is
 * big-endian, the little-endian 'dns.' variant exists too. */
static int walk_au(int fd, Hdr *h)
{
    uint8_t b[24];
    if (read_exact(fd, b, 24, 0))
        return 0;
    if (be32(b) == 0x2e736e64u) {                      /* .snd */
        h->offset = be32(b + 4);
        h->channels = (int)be32(b + 20);
        h->big_endian = 1;
    } else if (be32(b) == 0x646e732eu) {               /* dns. */
        h->offset = le32(b + 4);
        h->channels = (int)le32(b + 20);
        h->big_endian = 0;
    } else {
        return 0;
    }
    h->block_align = 0;
    return h->offset >= 24;
}

static int pick_fmt(int subtype, int big_endian)
{
    switch (subtype) {
    case SF_FORMAT_PCM_S8: return RL_SF_S8;
    case SF_FORMAT_PCM_U8: return RL_SF_U8;
    case SF_FORMAT_PCM_16: return big_endian ? RL_SF_S16BE : RL_SF_S16LE;
    case SF_FORMAT_PCM_24: return big_endian ? RL_SF_S24BE : RL_SF_S24LE;
    case SF_FORMAT_PCM_32: return big_endian ? RL_SF_S32BE : RL_SF_S32LE;
    default: return -1;
    }
}

/* 1 if libsndfile's values at frame `at` equal our conversion of the
 * bytes, 0 if not, -EIO on a read error (a read error is the input's, not
 * a reason to decode instead). */
static int probe_matches(RlPcmReader *r, int fd, const RlRawLayout *l, int64_t at, int n,
                         int32_t *want, int32_t *got, uint8_t *bytes)
{
    int rd = rl_pcm_sf_read_at(r, at, want, n);
    if (rd < 0)
        return rd;
    if (rd != n)
        return 0;
    if (read_exact(fd, bytes, (size_t)n * (size_t)l->frame_bytes, l->data_offset + at * l->frame_bytes))
        return -EIO;
    rl_raw_convert(bytes, l->fmt, got, (long)n * l->channels);
    return memcmp(want, got, (size_t)n * (size_t)l->channels * sizeof *got) == 0;
}

int rl_raw_layout_probe(RlPcmReader *r, RlRawLayout *out)
{
    RlPcmSfInfo si;
    RlRawLayout l;
    Hdr h;
    struct stat st;
    int fd, ok = 0, major;
    int32_t *want = NULL, *got = NULL;
    uint8_t *bytes = NULL;

    if (!r || !out)
        return -EINVAL;
    if (rl_pcm_sf_info(r, &si) < 0)
        return 0;                                   /* stdin: decode */
    major = si.format & SF_FORMAT_TYPEMASK;
    if (major != SF_FORMAT_WAV && major != SF_FORMAT_WAVEX && major != SF_FORMAT_AIFF &&
        major != SF_FORMAT_AU && major != SF_FORMAT_RAW)
        return 0;
    if (si.frames < 0 || si.channels < 1 || si.channels > 2)
        return 0;
    fd = open(si.path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        goto done;

    memset(&h, 0, sizeof h);
    if (major == SF_FORMAT_RAW) {
        h.offset = 0;
        h.channels = si.channels;
        h.big_endian = si.raw_big_endian;
    } else if (!(major == SF_FORMAT_AIFF ? walk_aiff(fd, &h)
                 : major == SF_FORMAT_AU ? walk_au(fd, &h) : walk_wav(fd, &h))) {
        goto done;
    }
    if (h.channels != si.channels)
        goto done;
    memset(&l, 0, sizeof l);
    l.path = si.path;
    l.data_offset = h.offset;
    l.frames = si.frames;
    l.channels = si.channels;
    l.fmt = pick_fmt(si.format & SF_FORMAT_SUBMASK, h.big_endian);
    if (l.fmt < 0)
        goto done;
    l.frame_bytes = l.channels * rl_raw_sample_bytes(l.fmt);
    if (h.block_align != 0 && h.block_align != l.frame_bytes)
        goto done;
    if (l.data_offset + l.frames * l.frame_bytes > (int64_t)st.st_size)
        goto done;

    if (l.frames > 0) {
        int n = l.frames < PROBE_FRAMES ? (int)l.frames : PROBE_FRAMES;
        size_t nsamp = (size_t)n * (size_t)l.channels;
        want = malloc(nsamp * sizeof *want);
        got = malloc(nsamp * sizeof *got);
        bytes = malloc((size_t)n * (size_t)l.frame_bytes);
        if (!want || !got || !bytes) {
            ok = -ENOMEM;
            goto done;
        }
        /* start, middle and end: a wrong offset, width or byte order shows */
        int64_t const probe_at[3] = { 0, (l.frames - n) / 2, l.frames - n };
        for (int k = 0; k < 3; k++) {
            int const m = probe_matches(r, fd, &l, probe_at[k], n, want, got, bytes);
            if (m <= 0) {
                ok = m;                         /* -EIO, or 0: decode instead */
                goto done;
            }
        }
        /* a lone whole sample after the last frame: LAME's last read sees it */
        if (l.channels == 2) {
            int32_t tail_value;
            int const bps = rl_raw_sample_bytes(l.fmt);
            int64_t const at = l.data_offset + l.frames * l.frame_bytes;
            int rc = rl_pcm_sf_tail(r, &tail_value);
            if (rc < 0) {
                ok = rc;
                goto done;
            }
            if (rc == 1) {
                if (at + bps > (int64_t)st.st_size)
                    goto done;
                if (read_exact(fd, bytes, (size_t)bps, at)) {
                    ok = -EIO;
                    goto done;
                }
                if (rl_raw_sample(bytes, l.fmt) != tail_value)
                    goto done;
                l.tail = 1;
            }
        }
    }
    *out = l;
    ok = 1;
done:
    free(want);
    free(got);
    free(bytes);
    close(fd);
    return ok;
}
