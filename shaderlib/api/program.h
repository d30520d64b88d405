/* The compiled program inside the library: its optimised IR and the
 * reflection its front end filled.  compile.c builds it (sl_program_new),
 * program.c reads it for the public accessors, binding.c specialises its
 * IR and fx/ combines several into an effect. */
#ifndef SL_PROGRAM_H
#define SL_PROGRAM_H

#include "ir/ir.h"
#include "ir/reach.h"
#include "ir/reflect.h"

struct SlProgram
{
  gint          ref_count;
  SlProgramInfo info;
  SlLanguage    language;
  SlIr         *ir;          /* optimised, before specialisation */
  char         *dump_before, *dump_after;
  bool          validate;    /* bindings validate their specialised IR */
};

/* Takes @ir and the contents of @info (compile.c, the one builder). */
SlProgram *sl_program_new (SlLanguage language, SlIr *ir, const SlProgramInfo *info);

/* The texture slots a prepared binding's specialised program samples, a
 * bit per slot (all bits before sl_binding_prepare): a read the
 * parameters' values removed (an untaken branch) is not counted, so an
 * effect can skip the passes that only such reads needed. */
uint32_t sl_binding_get_sampled_slots (const SlBinding *binding);

/* Where a prepared binding's reads of texture slot @slot fall, in
 * texture coordinates of the pixel's own TEXCOORD (SV_Position already
 * turned into TEXCOORD times the viewport's size, texel offsets and
 * texel loads into coordinates in the size of the texture bound to the
 * slot when the binding was prepared, else the viewport's); no groups for a slot
 * it does not read.  False when they are data dependent, or may read
 * another mip level. */
bool sl_binding_get_slot_reach (const SlBinding *binding, int slot, SlSlotReach *reach);

/* Makes the program clamp what it writes to colour target 0 to [0, 1]
 * (NaN gives 0), as a unorm back buffer holds it, so that it may render
 * straight into the image.  Unprepares the binding. */
void sl_binding_set_saturate_outputs (SlBinding *binding, bool saturate);

/* Whether a prepared binding's program writes all four components of
 * colour target 0: then every pixel it does not discard is replaced
 * whole. */
bool sl_binding_writes_all_components (const SlBinding *binding);

#endif
