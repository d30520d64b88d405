/* Sampling reach of an IR program; see reach.c. */
#ifndef SL_REACH_H
#define SL_REACH_H

#include "ir/ir.h"

/* How far sampling coordinates can stray from the pixel's own TEXCOORD:
 * true when each SAMPLE coordinate is an INPUT texcoord plus or minus a
 * constant, with @reach = left, top, right, bottom in uv units; false
 * when sampling is data dependent. */
bool     sl_ir_sample_reach (const SlIr *ir, float reach[4]);
/* The texture slots sampled through a sampler whose state
 * (@samplers[SL_MAX_SLOTS]) has a mip filter: only those can read a level
 * other than 0. */
uint32_t sl_ir_mip_slots    (const SlIr *ir, const SlSamplerState *samplers);
/* The texture slots whose texels some SAMPLE reads (TEXSIZE reads only
 * the size). */
uint32_t sl_ir_sampled_slots (const SlIr *ir);

#endif
