/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* The MP3 comparison and its report (mp3_compare.h). */
#include "mp3_compare.h"

#include <errno.h>
#include <string.h>

/* The frame holding offset, by binary search: its index, or -1. */
static long frame_at(const RlMp3Layout *l, size_t offset)
{
    size_t lo = 0, hi = l->nframes;
    while (lo < hi) {
        size_t const mid = lo + (hi - lo) / 2;
        const RlMp3Frame *f = &l->frames[mid];
        if (offset < f->offset)
            hi = mid;
        else if (offset >= f->offset + f->bytes)
            lo = mid + 1;
        else
            return (long) mid;
    }
    return -1;
}

static RlMp3Part part_in_frame(const RlMp3Layout *l, long i, size_t pos)
{
    const RlMp3Header *h = &l->frames[i].h;
    size_t const crc_end = 4 + (h->crc ? 2 : 0);
    if (i == 0 && l->tag_frame)
        return RL_PART_TAG_FRAME;
    if (pos < 4)
        return RL_PART_HEADER;
    if (pos < crc_end)
        return RL_PART_CRC;
    if (pos < crc_end + (size_t) h->side_info_bytes)
        return RL_PART_SIDE_INFO;
    return RL_PART_MAIN_DATA;
}

/* Where the first difference at offset lies: the tags of either side
 * first, then the frame of the first stream (of the second where the
 * first has none there). */
static void classify(const RlMp3Layout l[2], const size_t len[2], size_t offset, RlMp3Diff *d)
{
    d->frame = -1;
    for (int s = 0; s < 2; s++)
        if (offset < l[s].id3v2_bytes) {
            d->part = RL_PART_ID3V2;
            return;
        }
    for (int s = 0; s < 2; s++)
        if (l[s].has_id3v1 && offset >= l[s].audio_end) {
            d->part = RL_PART_ID3V1;
            return;
        }
    for (int s = 0; s < 2; s++) {
        long const i = offset < len[s] ? frame_at(&l[s], offset) : -1;
        if (i >= 0) {
            d->frame = i;
            d->frame_pos = offset - l[s].frames[i].offset;
            d->part = part_in_frame(&l[s], i, d->frame_pos);
            return;
        }
    }
    d->part = offset >= len[0] || offset >= len[1] ? RL_PART_LENGTH : RL_PART_JUNK;
}

int rl_mp3_compare(const uint8_t *a, size_t la, const uint8_t *b, size_t lb, RlMp3Diff *d)
{
    RlMp3Layout l[2];
    size_t const len[2] = {la, lb};
    const uint8_t *const buf[2] = {a, b};
    size_t const common = la < lb ? la : lb;
    size_t off = 0, n, nmax;
    int rc;

    memset(d, 0, sizeof(*d));
    d->frame = d->first_frame = d->last_frame = -1;
    while (off < common && a[off] == b[off])
        off++;
    if (off == common && la == lb)
        return 0;
    d->offset = off;

    if ((rc = rl_mp3_walk(a, la, &l[0])) < 0)
        return rc;
    if ((rc = rl_mp3_walk(b, lb, &l[1])) < 0) {
        rl_mp3_layout_free(&l[0]);
        return rc;
    }
    classify(l, len, off, d);

    d->frames[0] = l[0].nframes;
    d->frames[1] = l[1].nframes;
    n = l[0].nframes < l[1].nframes ? l[0].nframes : l[1].nframes;
    nmax = l[0].nframes > l[1].nframes ? l[0].nframes : l[1].nframes;
    for (size_t i = 0; i < nmax; i++) {
        int differ = i >= n;
        if (!differ) {
            const RlMp3Frame *fa = &l[0].frames[i], *fb = &l[1].frames[i];
            differ = fa->bytes != fb->bytes
                     || memcmp(buf[0] + fa->offset, buf[1] + fb->offset, fa->bytes) != 0;
        }
        if (!differ)
            continue;
        d->frames_differ++;
        d->last_frame = (long) i;
        if (d->first_frame < 0)
            d->first_frame = (long) i;
    }
    if (d->first_frame >= 0) {
        size_t const i = (size_t) d->first_frame;
        for (int s = 0; s < 2; s++) {
            d->have[s] = i < l[s].nframes;
            if (d->have[s])
                d->at[s] = l[s].frames[i];
        }
        /* the start time on the side that has the frame (the first if both do) */
        const RlMp3Layout *ls = d->have[0] ? &l[0] : &l[1];
        double t = 0;
        for (size_t k = 0; k < i; k++)
            t += (double) ls->frames[k].h.samples / ls->frames[k].h.samplerate;
        d->first_time_s = t;
    }
    rl_mp3_layout_free(&l[0]);
    rl_mp3_layout_free(&l[1]);
    return 1;
}

const char *rl_mp3_part_name(RlMp3Part part)
{
    switch (part) {
    case RL_PART_NONE:      return "nothing";
    case RL_PART_ID3V2:     return "ID3v2 tag at the start";
    case RL_PART_TAG_FRAME: return "Xing/LAME tag frame";
    case RL_PART_HEADER:    return "frame header";
    case RL_PART_CRC:       return "CRC";
    case RL_PART_SIDE_INFO: return "side info";
    case RL_PART_MAIN_DATA: return "main data region";
    case RL_PART_JUNK:      return "bytes outside any frame";
    case RL_PART_ID3V1:     return "ID3v1 tag at the end";
    case RL_PART_LENGTH:    return "end of stream (one file is the other's beginning)";
    }
    return "?";
}

static void print_frame(FILE *fp, const char *name, const RlMp3Frame *f)
{
    const RlMp3Header *h = &f->h;
    static const char *const layers[4] = {"?", "I", "II", "III"};
    fprintf(fp, "  %-9s offset %zu, %zu bytes: %s Layer %s, %d kbps, %d Hz, padding %d, %s, "
            "mode extension %d, CRC %s\n", name, f->offset, f->bytes,
            rl_mp3_version_name(h->version), layers[h->layer & 3], h->bitrate_kbps, h->samplerate, h->padding,
            rl_mp3_mode_name(h->mode), h->mode_ext, h->crc ? "yes" : "no");
}

void rl_mp3_diff_print(FILE *fp, const RlMp3Diff *d, const char *const names[2],
                       const size_t sizes[2])
{
    fprintf(fp, "files differ: %s (%zu bytes, %zu frames) and %s (%zu bytes, %zu frames)\n",
            names[0], sizes[0], d->frames[0], names[1], sizes[1], d->frames[1]);
    fprintf(fp, "first difference at byte %zu (0x%zx): ", d->offset, d->offset);
    if (d->frame >= 0)
        fprintf(fp, "frame %ld, %s (byte %zu of the frame)\n", d->frame,
                rl_mp3_part_name(d->part), d->frame_pos);
    else
        fprintf(fp, "%s\n", rl_mp3_part_name(d->part));
    fprintf(fp, "frames that differ: %zu", d->frames_differ);
    if (d->first_frame >= 0)
        fprintf(fp, " (frames %ld to %ld)", d->first_frame, d->last_frame);
    fputc('\n', fp);
    if (d->first_frame >= 0) {
        fprintf(fp, "first differing frame: %ld at %.3f s\n", d->first_frame, d->first_time_s);
        for (int s = 0; s < 2; s++) {
            if (d->have[s])
                print_frame(fp, names[s], &d->at[s]);
            else
                fprintf(fp, "  %-9s has no frame %ld\n", names[s], d->first_frame);
        }
    }
}
