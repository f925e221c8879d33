/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: what the x86 kernels share: the tables they read (each built
 * once per process by its init, which dsp_init_x86.c calls before it sets
 * a kernel that reads it) and the ladder's entry.  The kernels themselves
 * are declared in dsp.h; each file holds one ISA level's (compiled with
 * that level's flags only, called only through the table). */
#ifndef RL_X86_KERNELS_H
#define RL_X86_KERNELS_H

#include <stdint.h>

#include "dsp.h"   /* every kernel's prototype at every level */

/* Pair lengths of the three-table groups (7..9, 10..12, 13..15) and of
 * table 1, widened to 32 bits: byte k is the length in table first + k.
 * p1, p23, p56: table 1 and the packed rl_table23/rl_table56, zero-padded
 * to 16 entries (one ZMM register). */
typedef struct RlHcWide {
    uint32_t p1[16];
    uint32_t p23[16];
    uint32_t p56[16];
    uint32_t g7[64];        /* 36 used; 64 for two-register look-ups */
    uint32_t g10[64];
    uint32_t g13[256];
    /* count1 quadruples by their lines' bits (bit 0 the first line, worth
     * 8 in the table index): the length in table A, plus the length in
     * table B << 16; quad1 for one quadruple (4 bits), quad2 for two (8) */
    uint32_t quad1[16];
    uint32_t quad2[256];
} RlHcWide;

/* Filled by rl_hc_wide_init (once per process, any thread may call it);
 * the choose_table and count1 kernels read it. */
extern RlHcWide rl_hc_wide;
void rl_hc_wide_init(void);

/* The Prepare-side and ReplayGain kernels' tables (prepare_body.h):
 * rl_poly_rows[m][j] = rl_enwindow[18 j + m] (row j, 0 for j = 15), filled
 * by rl_poly_rows_init. */
extern float rl_poly_rows[18][16];
/* rl_fht_tw[s][0..3][i]: c1, s1, c2, s2 of rl_fht's stage s at i
 * (rl_fht_twiddles), filled with rl_poly_rows. */
extern float rl_fht_tw[4][4][128];
void rl_poly_rows_init(void);

/* Fills d's entries for level with the x86 kernels (dsp_init_x86.c);
 * d holds the scalar table. */
void rl_dsp_init_x86(RlDsp *d, int level);

#endif
