/* Sampling reach of an IR program; see reach.c. */
#ifndef SL_REACH_H
#define SL_REACH_H

#include "ir/ir.h"

/* How far sampling coordinates can stray from the pixel's own TEXCOORD:
 * true when each SAMPLE coordinate is an INPUT texcoord plus or minus a
 * constant, with @reach = left, top, right, bottom in uv units; false
 * when sampling is data dependent.  @width × @height is the viewport
 * (for ddx/ddy of TEXCOORD, one pixel's step; 0 when unknown). */
bool     sl_ir_sample_reach (const SlIr *ir, int width, int height, float reach[4]);
/* Where one slot's reads fall, per axis (0: u, 1: v): coordinate =
 * scale × base + an offset in [lo, hi], the base being the axis's
 * TEXCOORD component or, when @position, its SV_Position component
 * (pixels).  Texel offsets (Sample's offset argument) add [texel_lo,
 * texel_hi] texels of the sampled texture, whose size the IR does not
 * know.  A @fetch group holds integer texel loads: scale × base + [lo,
 * hi] + [texel_lo, texel_hi] is then the texel index itself.  Reads with
 * other scales or kinds form other groups; sl_slot_reach_resolve() turns
 * them all into TEXCOORD-based coordinates once the sizes are known. */
#define SL_REACH_GROUPS 4
typedef struct
{
  float scale[2], lo[2], hi[2];
  float texel_lo[2], texel_hi[2];
  bool  position[2];
  bool  fetch;
} SlReachGroup;

typedef struct
{
  int          n_groups;   /* 0: the slot is not sampled */
  SlReachGroup group[SL_REACH_GROUPS];
} SlSlotReach;

/* The reads of every texture slot; returns the slots whose reads are all
 * described (a slot never sampled is, with no groups). */
uint32_t sl_ir_sample_reach_slots (const SlIr *ir, int width, int height,
                                   SlSlotReach reach[SL_MAX_SLOTS]);
/* Rewrites @reach for a texture of @tex_width × @tex_height read by a
 * viewport of @view_width × @view_height: SV_Position bases become
 * TEXCOORD ones, texel offsets and texel loads coordinates (a load as the
 * centre of the texel it reads).  Groups that fall together merge. */
void     sl_slot_reach_resolve (SlSlotReach *reach, int tex_width, int tex_height,
                                int view_width, int view_height);
/* sl_ir_sample_reach() from that: true when every slot is described
 * with TEXCOORD plus constants alone (resolved: no positions, texel
 * offsets or loads), @offsets as that returns. */
bool     sl_slot_reach_offsets (const SlSlotReach reach[SL_MAX_SLOTS], uint32_t bounded,
                                float offsets[4]);
/* The texture slots sampled through a sampler whose state
 * (@samplers[SL_MAX_SLOTS]) has a mip filter: only those can read a level
 * other than 0. */
uint32_t sl_ir_mip_slots    (const SlIr *ir, const SlSamplerState *samplers);
/* The texture slots whose texels some SAMPLE reads (TEXSIZE reads only
 * the size). */
uint32_t sl_ir_sampled_slots (const SlIr *ir);

#endif
