/* ringlame: the encoder's stage functions and its life cycle (init/free).
 * Stage order per frame: Dispatch -> Prepare -> Resolve -> Search -> Encode.
 * Prepare and Search read only constants and their frame (thread-safe);
 * Resolve and Encode run in frame order (serial states in RlEncoder).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_STAGES_H
#define RL_STAGES_H

#include "rl_encoder.h"
#include "settings.h"
#include "dispatch.h"

/* lame_init_params' derivation (rl_config_init writes back into *opt like
 * LAME writes into gfp) plus every module's init: tables, Huffman config,
 * bitstream + tag placeholder, psy, ReplayGain, Dispatch.  *e is zeroed
 * first.  Only VBR mt/mtrh is ported: other modes give -ENOTSUP.
 * Returns 0 or -errno; on error *e is already freed. */
int  rl_encoder_init(RlEncoder *e, RlOptions *opt);
void rl_encoder_free(RlEncoder *e);

/* Prepare (stateless): psy FFTs/energies/attack peaks and the polyphase
 * filterbank of the previous granule and this frame's granules. */
void rl_prepare(const RlEncoder *e, RlFrame *f);

/* Resolve (serial): psy decisions, adjust_ATH, block types, M/S decision.
 * Afterwards f->side.tt[gr][ch].block_type holds the final block types. */
int  rl_resolve(RlEncoder *e, RlFrame *f);

/* Search (stateless apart from the reservoir read documented in
 * quantize_vbr.h): MDCT of both granules, VBR quantization, main-data
 * packing.  0 or -errno. */
int  rl_search(const RlEncoder *e, RlFrame *f);

/* Encode (serial): bitrate choice + reservoir, frame formatting, CRC/TOC
 * bookkeeping.  The bytes are then available from rl_bits_take. */
int  rl_encode(RlEncoder *e, RlFrame *f);

/* What the final LAME tag needs from Dispatch and ReplayGain (call after the
 * flush): encoder delay/padding and RadioGain (save_gain_values). */
void rl_encoder_tag_info(RlEncoder *e, RlTagInfo *info);

#endif
