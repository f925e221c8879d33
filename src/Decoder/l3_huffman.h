/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the Layer III Huffman trees the decoder walks (l3_huffman.c).
 * Data from the MP3 standard in the form LAME's mpglib uses. */
#ifndef RL_L3_HUFFMAN_H
#define RL_L3_HUFFMAN_H

#include <stdint.h>

/* A tree: walk from tree[0]; a negative entry is a branch (on a 1 bit skip
 * -entry further entries), a non-negative one the leaf x << 4 | y
 * (quadruple trees: the 4-bit value vwxy).  linbits: escape bits of x, y. */
typedef struct RlL3Huff {
    unsigned linbits;
    const int16_t *tree;
} RlL3Huff;

extern const RlL3Huff rl_l3_big_trees[32];
extern const RlL3Huff rl_l3_quad_trees[2];

#endif
