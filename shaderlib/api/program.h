/* Private: the compiled program and its reflection data. */
#ifndef SL_PROGRAM_H
#define SL_PROGRAM_H

#include "ir/ir.h"
#include "ir/reflect.h"

struct SlProgram
{
  gint          ref_count;
  SlProgramInfo info;
  SlLanguage    language;
  SlIr         *ir;          /* optimised, before specialisation */
  char         *dump_before, *dump_after;
};

/* Takes @ir and the contents of @info (compile.c, the one builder). */
SlProgram *sl_program_new (SlLanguage language, SlIr *ir, const SlProgramInfo *info);

/* Parses a "name=value; name=v,v,v" string, calling @set per parameter. */
bool sl_parse_params_string (const char *params, SlDiagnostics *diags,
                             bool (*set) (void *target, const char *name,
                                          const float *values, int n_values,
                                          SlDiagnostics *diags),
                             void *target);

#endif
