/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* wav2mp3: a WAV (any file libsndfile reads) to MP3 with the ringlame
 * library, through its public API only.
 *
 *     wav2mp3 [lame options] in.wav out.mp3
 *
 * The bytes are `lame [lame options] in.wav out.mp3`'s: the samples are read
 * the way lame's front end reads them (libsndfile's int32, float files
 * scaled to their peak), sent in arbitrary pieces, and the LAME tag frame
 * is written over its placeholder at the end (after the ID3v2 tag, if the
 * options ask for one; its TLEN frame comes from the file's length and its
 * text from the locale's charset, as with lame). */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sndfile.h>

#include "ringlame/ringlame.h"

#define CHUNK 4096      /* frames per read: any size gives the same bytes */

static int fail(const char *what, const char *name, int rc)
{
    fprintf(stderr, "wav2mp3: %s%s%s: %s\n", name ? name : "", name ? ": " : "", what,
            rc < 0 ? strerror(-rc) : "failed");
    return 1;
}

/* Writes everything the encoder has ready; 0, or -EAGAIN when it wants
 * more input (anything else: an error). */
static long drain(RingLameEncoder *enc, FILE *out, uint8_t *buf, size_t cap)
{
    for (;;) {
        long n = ringlame_receive(enc, buf, cap);
        if (n <= 0)
            return n;
        if (fwrite(buf, 1, (size_t) n, out) != (size_t) n)
            return -EIO;
    }
}

int main(int argc, char **argv)
{
    RingLameSettings *s = NULL;
    RingLameEncoder *enc = NULL;
    SNDFILE *sf = NULL;
    SF_INFO info;
    FILE *out = NULL;
    int32_t *pcm = NULL;
    uint8_t *buf = NULL, tag[RINGLAME_TAG_FRAME_MAX];
    const char *in_name, *out_name;
    uint64_t tag_at = 0;
    long rc;
    int status = 1, tag_len;

    setlocale(LC_CTYPE, "");    /* tag text in the user's charset, as lame takes it */
    if (argc < 3) {
        fprintf(stderr, "usage: wav2mp3 [lame options] in.wav out.mp3\n");
        return 1;
    }
    in_name = argv[argc - 2];
    out_name = argv[argc - 1];

    memset(&info, 0, sizeof info);
    sf = sf_open(in_name, SFM_READ, &info);
    if (!sf) {
        fprintf(stderr, "wav2mp3: %s: %s\n", in_name, sf_strerror(NULL));
        return 1;
    }
    /* what lame does for float files: scale to the file's peak */
    sf_command(sf, SFC_SET_SCALE_FLOAT_INT_READ, NULL, SF_TRUE);

    if ((rc = ringlame_settings_new(&s)) < 0
        || (rc = ringlame_settings_set_input(s, info.samplerate, info.channels)) < 0
        || (rc = ringlame_settings_set_length(s, (int64_t) info.frames)) < 0) {
        fail("settings", in_name, (int) rc);
        goto done;
    }
    if ((rc = ringlame_settings_parse(s, argc - 3, (const char *const *) argv + 1)) < 0) {
        fprintf(stderr, "wav2mp3: %s\n", ringlame_settings_error(s));
        goto done;
    }
    if ((rc = ringlame_open(&enc, s)) < 0) {
        fail("cannot start the encoder", in_name, (int) rc);
        goto done;
    }
    pcm = malloc(sizeof *pcm * CHUNK * (size_t) info.channels);
    buf = malloc(1 << 16);
    out = fopen(out_name, "wb");
    if (!pcm || !buf || !out) {
        fail(out ? "out of memory" : "cannot create", out ? NULL : out_name, -errno);
        goto done;
    }

    for (;;) {
        sf_count_t got = sf_readf_int(sf, pcm, CHUNK);
        RingLamePcm p = { RINGLAME_S32, 0, { pcm, NULL }, 0 };
        size_t sent = 0;
        if (got <= 0)
            break;
        while (sent < (size_t) got) {
            p.data[0] = pcm + sent * (size_t) info.channels;
            p.frames = (size_t) got - sent;
            rc = ringlame_send(enc, &p);
            if (rc == -EAGAIN) {            /* the queue is full: take bytes out */
                rc = drain(enc, out, buf, 1 << 16);
                if (rc != -EAGAIN && rc < 0) {
                    fail("encoding failed", in_name, (int) rc);
                    goto done;
                }
                continue;
            }
            if (rc < 0) {
                fail("encoding failed", in_name, (int) rc);
                goto done;
            }
            sent += (size_t) rc;
        }
    }
    if (sf_error(sf) != SF_ERR_NO_ERROR) {
        fprintf(stderr, "wav2mp3: %s: %s\n", in_name, sf_strerror(sf));
        goto done;
    }
    if ((rc = ringlame_flush(enc)) < 0 || (rc = drain(enc, out, buf, 1 << 16)) < 0) {
        fail("encoding failed", in_name, (int) rc);
        goto done;
    }
    tag_len = ringlame_tag_frame(enc, tag, sizeof tag, &tag_at);
    if (tag_len < 0) {
        fail("LAME tag", out_name, tag_len);
        goto done;
    }
    if (tag_len > 0 && (fseek(out, (long) tag_at, SEEK_SET) != 0
                        || fwrite(tag, 1, (size_t) tag_len, out) != (size_t) tag_len)) {
        fail("cannot write the LAME tag", out_name, -errno);
        goto done;
    }
    if (fclose(out) != 0) {
        out = NULL;
        fail("cannot write", out_name, -errno);
        goto done;
    }
    out = NULL;
    status = 0;
done:
    if (out) {
        fclose(out);
        remove(out_name);       /* no partial output */
    }
    ringlame_close(enc);
    ringlame_settings_free(s);
    sf_close(sf);
    free(pcm);
    free(buf);
    return status;
}
