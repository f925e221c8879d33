/* ringlame: the VBR-new (vbr_mtrh) quantization loop and its bitrate choice.
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_QUANTIZE_VBR_H
#define RL_QUANTIZE_VBR_H

#include "rl_encoder.h"
#include "rl_frame.h"

/* LAME VBR_new_iteration_loop up to and including VBR_encode_frame
 * (VBR_new_prepare, init_xrpow, VBR_encode_frame).  Reads e->cfg, e->ath,
 * e->psyc, the reservoir size rl_resv_size(&e->enc) (ResvFrameBegin at each
 * bitrate, pure), and of f: side.tt[gr][ch].xr (L/R MDCT), .block_type and
 * .mixed_block_flag, mode_ext (selects ratio_ms/pe_ms or ratio/pe),
 * ath_adjust_factor, padding.  Writes f->side.tt (M/S-converted and, for
 * short blocks, reordered xr; l3_enc, scalefactors, Huffman fields),
 * f->side.scfsi, f->used_bits, f->search_bits, f->search_min_bitrate_index
 * and the helper-D2 fields of RlFrame.  Returns 0 or a negative errno
 * (-EIO: LAME's "INTERNAL ERROR IN VBR NEW CODE" cases). */
int rl_vbr_search(const RlEncoder *e, RlFrame *f);

/* The rest of VBR_new_iteration_loop: bitrate index choice, then
 * ResvFrameBegin / ResvAdjust per gr,ch / ResvFrameEnd on e->enc.
 * Writes f->bitrate_index and f->side's reservoir fields.  Returns 0,
 * -EAGAIN if the reservoir size differs from the one the search used
 * (the search must be re-run from the original xr), or -EIO. */
int rl_vbr_choose_bitrate(RlEncoder *e, RlFrame *f);

#endif
