/* Private: the compiled program and its reflection data. */
#ifndef SL_PROGRAM_H
#define SL_PROGRAM_H

#include "hlsl/hlsl.h"
#include "vm/vm.h"

struct SlProgramInfo
{
  SlArena  *arena;          /* owns names, annotations, defaults */
  GArray   *params;         /* SlParam */
  GArray   *samplers;       /* SlSamplerInfo */
  size_t    constants_size; /* components */
  uint32_t *defaults;       /* constants_size words: initial constant buffer */
  int       n_outputs;
  int       shader_model;
};

struct SlProgram
{
  gint          ref_count;
  SlProgramInfo info;
  SlLanguage    language;
  SlIr         *ir;          /* optimised, before specialisation */
  char         *dump_before, *dump_after;
};

void sl_program_info_init (SlProgramInfo *info);
void sl_program_info_clear (SlProgramInfo *info);
/* Grows the default constant buffer to hold @size words. */
void sl_program_info_reserve_constants (SlProgramInfo *info, size_t size);

/* Parses a "name=value; name=v,v,v" string, calling @set per parameter. */
bool sl_parse_params_string (const char *params, SlDiagnostics *diags,
                             bool (*set) (void *target, const char *name,
                                          const float *values, int n_values,
                                          SlDiagnostics *diags),
                             void *target);

#endif
