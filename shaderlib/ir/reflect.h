/* Reflection: what a program shows its host besides its code.
 *
 * Every front end fills one SlProgramInfo while it lowers to IR — the
 * parameters with their constant-buffer layout and defaults, the samplers
 * with their slots and declared state, the outputs written — and the
 * compile driver keeps it inside the SlProgram it builds.  It lives at the
 * IR's floor so that front ends depend on the IR alone, never on the
 * driver above them. */
#ifndef SL_REFLECT_H
#define SL_REFLECT_H

#include "shaderlib.h"
#include "base/arena.h"

typedef struct SlProgramInfo
{
  SlArena  *arena;          /* owns names, annotations, defaults */
  GArray   *params;         /* SlParam */
  GArray   *samplers;       /* SlSamplerInfo */
  size_t    constants_size; /* components */
  uint32_t *defaults;       /* constants_size words: initial constant buffer */
  int       n_outputs;
  int       shader_model;
} SlProgramInfo;

void sl_program_info_init (SlProgramInfo *info);
void sl_program_info_clear (SlProgramInfo *info);
/* Grows the default constant buffer to hold @size words. */
void sl_program_info_reserve_constants (SlProgramInfo *info, size_t size);

#endif
