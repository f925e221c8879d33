/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encoder's constants, everything fixed at init: the derived
 * settings, the ATH and the psy model's constants.  Written by init only
 * (rl_config_init, rl_psy_init), then read-only.  Prepare and Search, and
 * every function they call, get these and their frame record, nothing of
 * the serial stage states (rl_encoder.h), so they may run on any thread.
 * The filterbank uses static const tables. */
#ifndef RL_ENCODER_CONST_H
#define RL_ENCODER_CONST_H

typedef struct RlRateControl RlRateControl;   /* the mode (quantize/rate_control.h) */

#include "rl_config.h"    /* RlConfig */
#include "psy.h"          /* RlAth, RlPsyConst */
#include "dsp.h"          /* RlDsp, the table cfg.dsp points at */

typedef struct RlEncoderConst {
    RlConfig   cfg;       /* cfg.dsp: the kernels of the chosen SIMD level */
    RlAth      ath;
    const RlRateControl *rc;  /* the rate-control mode of cfg.vbr */
    RlPsyConst psyc;
} RlEncoderConst;

#endif
