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

#endif
