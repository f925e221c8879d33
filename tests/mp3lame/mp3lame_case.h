/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* One comparison case: the setter script applied between lame_init and
 * lame_init_params, the generated signal of each track of a nogap sequence,
 * the encode entry point and how the PCM is cut into calls.  A case is drawn
 * from (seed, index) alone, so that a failure is replayed by its two numbers. */
#ifndef RL_TEST_MP3LAME_CASE_H
#define RL_TEST_MP3LAME_CASE_H

#include <stdint.h>
#include <stdio.h>

enum rlt_op_kind {
    RLT_OP_SET_INT,     /* int lame_set_X(gfp, int) */
    RLT_OP_SET_FLOAT,   /* int lame_set_X(gfp, float) */
    RLT_OP_VOID,        /* void id3tag_X(gfp) */
    RLT_OP_STR,         /* void id3tag_set_X(gfp, const char *) */
    RLT_OP_STR_INT,     /* int id3tag_set_X(gfp, const char *) */
    RLT_OP_ID3_PAD,     /* id3tag_set_pad(gfp, size_t) */
    RLT_OP_ID3_AUTO,    /* lame_set_write_id3tag_automatic(gfp, int) */
    RLT_OP_COMMENT,     /* int id3tag_set_comment_latin1 / _utf16(gfp, lang, desc, text):
                         * s the language, i the descriptor and text pair (rlt_comment) */
};

/* The descriptor and text of an RLT_OP_COMMENT (i: its pair; NULL stays
 * NULL); rlt_comment_utf16 makes the UTF-16 form, with a big-endian
 * byte-order mark for odd i. */
void rlt_comment(int i, const char **desc, const char **text);
#define RLT_COMMENT_UNITS 64
void rlt_comment_utf16(int i, const char *s, unsigned short out[RLT_COMMENT_UNITS]);

struct rlt_op {
    enum rlt_op_kind kind;
    const char *name;
    int i;
    float f;
    const char *s;
};

/* the eleven encode entry points, each with its own scaling of full scale */
enum rlt_entry {
    RLT_E_BUFFER,                    /* short, +-32767 */
    RLT_E_INTERLEAVED,               /* short interleaved */
    RLT_E_FLOAT,                     /* float, +-32768, unclipped */
    RLT_E_IEEE_FLOAT,                /* float, +-1.0 */
    RLT_E_INTERLEAVED_IEEE_FLOAT,
    RLT_E_IEEE_DOUBLE,               /* double, +-1.0 */
    RLT_E_INTERLEAVED_IEEE_DOUBLE,
    RLT_E_INT,                       /* int, +-2^31 */
    RLT_E_LONG,                      /* long, +-32768 */
    RLT_E_LONG2,                     /* long, +-2^(8 sizeof(long) - 1) */
    RLT_E_INTERLEAVED_INT,           /* int interleaved */
    RLT_ENTRY_COUNT
};
extern const char *const rlt_entry_names[RLT_ENTRY_COUNT];

enum rlt_signal { RLT_NOISE, RLT_SWEEP, RLT_SILENCE, RLT_SQUARE, RLT_IMPULSES, RLT_ANTIPHASE, RLT_MUSICLIKE,
                  RLT_SIGNAL_COUNT };

struct rlt_track {
    enum rlt_signal signal;
    int nsamples;      /* per channel */
    double gain;       /* peak, 1.0 = full scale (above 1 only for the float entry points) */
    uint64_t seed;
};

#define RLT_MAX_OPS 64
#define RLT_MAX_TRACKS 3

struct rlt_case {
    uint64_t seed;
    long index;
    struct rlt_op ops[RLT_MAX_OPS];
    int nops;
    int channels;              /* of the PCM handed over (lame_set_num_channels) */
    struct rlt_track tracks[RLT_MAX_TRACKS];
    int ntracks;               /* >1: lame_encode_flush_nogap + lame_init_bitstream between tracks */
    /* has_more: after the last track's flush, `more` is encoded into the
     * ended stream (libmp3lame goes on from its state after the flush) and
     * flushed again */
    int has_more;
    struct rlt_track more;
    enum rlt_entry entry;
    int cut;                   /* samples per call; 0: random sizes 1..5000 */
    int mono_null_right;       /* mono, planar entry: right pointer NULL instead of the left one */
    int no_decode;             /* leave out the hip_* decode of the stream */
    /* mid-stream probes (lame_get_lametag_frame, lame_get_size_mp3buffer)
     * after encode calls: the chance of one after each call, in percent (0:
     * none), and always after the call that passes a track's middle */
    int probe_percent;
    uint64_t probe_seed;
};

void rlt_case_draw(struct rlt_case *c, uint64_t seed, long index);
/* Appends an op; the tests that build their own scripts use it too. */
void rlt_case_add(struct rlt_case *c, enum rlt_op_kind kind, const char *name, int i, float f, const char *s);
void rlt_case_print(FILE *out, const struct rlt_case *c);

/* splitmix64: the generator of every random choice in these tests */
uint64_t rlt_rand(uint64_t *state);
int rlt_rand_below(uint64_t *state, int n);

#endif
