/* Programs: what sl_compile returns, and the reflection hosts read.
 *
 * A program owns the optimised IR, before any specialisation, and the
 * reflection its front end filled; both stay unchanged once built, so a
 * program is shared by reference between bindings, effect passes and
 * threads.  Dumps of the IR before and after optimisation are kept only
 * when asked for (SL_COMPILE_KEEP_DUMPS); the span program is emitted
 * again for its dump. */
#include "api/program.h"

#include "vm/vm.h"

#include "ir/span_emit.h"

#include <string.h>

SlProgram *
sl_program_new (SlLanguage language, SlIr *ir, const SlProgramInfo *info)
{
  SlProgram *program = g_new0 (SlProgram, 1);
  program->ref_count = 1;
  program->language = language;
  program->ir = ir;
  program->info = *info;
  return program;
}

SlProgram *
sl_program_ref (SlProgram *program)
{
  g_atomic_int_inc (&program->ref_count);
  return program;
}

void
sl_program_unref (SlProgram *program)
{
  if (!program || !g_atomic_int_dec_and_test (&program->ref_count))
    return;
  sl_ir_free (program->ir);
  sl_program_info_clear (&program->info);
  g_free (program->dump_before);
  g_free (program->dump_after);
  g_free (program);
}

int sl_program_get_shader_model (const SlProgram *p) { return p->info.shader_model; }
int sl_program_get_n_outputs (const SlProgram *p) { return p->info.n_outputs; }
int sl_program_get_n_params (const SlProgram *p) { return p->info.params->len; }
int sl_program_get_n_samplers (const SlProgram *p) { return p->info.samplers->len; }
size_t sl_program_get_constants_size (const SlProgram *p) { return p->info.constants_size; }

const SlParam *
sl_program_get_param (const SlProgram *p, int index)
{
  if (index < 0 || (guint) index >= p->info.params->len)
    return NULL;
  return &g_array_index (p->info.params, SlParam, index);
}

const SlParam *
sl_program_find_param (const SlProgram *p, const char *name)
{
  for (guint i = 0; i < p->info.params->len; i++)
    {
      const SlParam *prm = &g_array_index (p->info.params, SlParam, i);
      if (!strcmp (prm->name, name))
        return prm;
    }
  return NULL;
}

const SlSamplerInfo *
sl_program_get_sampler (const SlProgram *p, int index)
{
  if (index < 0 || (guint) index >= p->info.samplers->len)
    return NULL;
  return &g_array_index (p->info.samplers, SlSamplerInfo, index);
}

char *
sl_program_dump (const SlProgram *program, int stage)
{
  switch (stage)
    {
    case 0: return program->dump_before ? g_strdup (program->dump_before) : NULL;
    case 1: return program->dump_after ? g_strdup (program->dump_after) : sl_ir_dump (program->ir);
    case 2:
      {
        SlSpanProgram *sp = sl_span_emit (program->ir);
        char *s = sl_span_program_dump (sp);
        sl_span_program_free (sp);
        return s;
      }
    default:
      return NULL;
    }
}
