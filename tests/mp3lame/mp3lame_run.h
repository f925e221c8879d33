/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* Runs one case through one library and keeps everything it returned, as
 * named records (bytes) that two runs compare one by one, plus each encode
 * and flush call's return value. */
#ifndef RL_TEST_MP3LAME_RUN_H
#define RL_TEST_MP3LAME_RUN_H

#include "mp3lame_case.h"
#include "mp3lame_lib.h"

#include <stddef.h>

struct rlt_bytes {
    unsigned char *data;
    size_t len, cap;
};

struct rlt_record {
    char name[96];
    struct rlt_bytes bytes;
    int is_stream;   /* the MP3 stream: a mismatch names the byte offset */
};

struct rlt_call {
    int ret;          /* the call's return value */
    int is_flush;     /* lame_encode_flush(_nogap): everything before it is out */
    size_t total;     /* stream bytes out after this call */
};

#define RLT_MAX_RECORDS 400

struct rlt_result {
    struct rlt_record records[RLT_MAX_RECORDS];
    int nrecords;
    struct rlt_call *calls;
    size_t ncalls, calls_cap;
    int oom;
};

/* Perturbations of the second side of a self-check (the harness must catch them). */
enum rlt_perturb {
    RLT_PERTURB_NONE,
    RLT_PERTURB_SETTING,        /* lame_set_copyright flipped */
    RLT_PERTURB_SAMPLE,         /* one sample changed */
    RLT_PERTURB_COMMENT_LANG,   /* every id3tag_set_comment_* call in another language */
    RLT_PERTURB_PROBE_TAG,      /* the mid-stream tag asked with another
                                 * lame_set_nogap_currentindex (its flags change) */
    RLT_PERTURB_PROBE_SIZE,     /* the first mid-stream size asked before the first encode
                                 * call instead (its messages with it) */
    RLT_PERTURB_MORE_SAMPLE     /* one sample of the track encoded after the flush changed */
};
/* The mid-stream perturbation the reference's result ref of a case shows
 * (RLT_PERTURB_NONE: neither): the tag's where a probe got a tag frame
 * (first choice when prefer_tag), the size's where the first probe's size
 * is not the one after lame_init_params. */
enum rlt_perturb rlt_probe_perturbation(const struct rlt_result *ref, int prefer_tag);
/* 1 when c sets a comment with a language that shows in the tags it
 * writes (an ID3v2 tag is not ruled out by id3tag_v1_only) */
int rlt_case_has_comment_lang(const struct rlt_case *c);

/* Runs c through lib.  0, or a negative errno when the test itself failed
 * (out of memory); a library's failures are results, not errors. */
int rlt_run_case(const struct rlt_lame *lib, const struct rlt_case *c, enum rlt_perturb perturb,
                 struct rlt_result *res);
void rlt_result_free(struct rlt_result *res);
/* A named record of bytes, or of one value (the misuse scenarios' results). */
void rlt_result_put(struct rlt_result *res, const char *name, const void *data, size_t len);
void rlt_result_put_int(struct rlt_result *res, const char *name, long v);
/* Appends to the result's MP3 stream record (made on the first call). */
void rlt_result_append_stream(struct rlt_result *res, const void *data, size_t len);

/* Compares two results of the same case: prints each difference to out
 * (which record, the first differing byte offset) and returns their count. */
int rlt_result_compare(FILE *out, const struct rlt_result *a, const struct rlt_result *b);
/* A record whose name contains name_part may differ: the difference is
 * printed, marked "(tolerated)", and not counted (a difference the library
 * under test documents).  0, or -ENOSPC past eight. */
int rlt_result_tolerate(const char *name_part);
int rlt_result_is_tolerated(const char *name);

int rlt_bytes_append(struct rlt_bytes *b, const void *data, size_t len);

#endif
