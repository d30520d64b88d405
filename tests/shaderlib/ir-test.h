/* Helpers shared by the tests that look inside the IR a binding runs
 * (test-const-if.c, test-unroll.c): compiling HLSL that must compile
 * cleanly, rebuilding a binding's specialised IR, counting ops.  Static
 * functions: each test is one translation unit. */
#ifndef GS_TEST_IR_TEST_H
#define GS_TEST_IR_TEST_H

#include "shaderlib.h"
#include "api/params.h"
#include "api/program.h"

#include <glib.h>

typedef struct
{
  const char *name;
  float       value;
} Setting;

/* @src as ps_3_0 HLSL named @filename; any diagnostic fails the test. */
static SlProgram *
compile_as (const char *src, const char *filename)
{
  SlCompileOptions o = { 0 };
  o.source = src;
  o.length = (size_t) -1;
  o.filename = filename;
  o.language = SL_LANGUAGE_HLSL;
  o.profile = "ps_3_0";
  SlDiagnostics *d = sl_diagnostics_new ();
  SlProgram *p = sl_compile (&o, d);
  if (!p || sl_diagnostics_count (d))
    {
      char *text = sl_diagnostics_format (d);
      g_error ("compile: %s", text ? text : "(no diagnostics)");
    }
  sl_diagnostics_free (d);
  return p;
}

/* The IR a binding of @p prepared with @settings runs: the steps of
 * sl_binding_prepare(), validated after each. */
static SlIr *
specialised (SlProgram *p, const Setting *settings, int n_settings)
{
  size_t n = MAX (sl_program_get_constants_size (p), 4);
  uint32_t *words = g_new0 (uint32_t, n);
  for (int i = 0; i < n_settings; i++)
    {
      const SlParam *prm = sl_program_find_param (p, settings[i].name);
      g_assert_nonnull (prm);
      sl_param_store (prm, sl_program_get_shader_model (p) >= 40, &settings[i].value, 1, words, n);
    }
  SlIr *ir = sl_ir_copy (p->ir);
  sl_pass_specialise (ir, words, n);
  SlDiagnostics *d = sl_diagnostics_new ();
  g_assert_true (sl_ir_validate (ir, "specialisation", d));
  g_assert_true (sl_pass_optimise_checked (ir, true, d));
  g_assert_cmpint (sl_diagnostics_count (d), ==, 0);
  sl_diagnostics_free (d);
  g_free (words);
  return ir;
}

static int
count_op (const SlIr *ir, SlOp op)
{
  int n = 0;
  for (guint i = 0; i < ir->insns->len; i++)
    n += sl_ir_insn (ir, i)->op == op;
  return n;
}

#endif
