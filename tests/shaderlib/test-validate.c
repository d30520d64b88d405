/* Tests that the IR validator is on in test runs and that a broken IR
 * stops a compile or a prepare with an internal error.
 *
 * meson's default test setup sets SHADERLIB_VALIDATE, which each compile
 * reads; the other tests then validate without asking.  These cases prove
 * the variable reaches the library (a program compiled without
 * SL_COMPILE_VALIDATE validates), that a prepare reports an IR broken
 * after compiling instead of running it, and that the optimiser names the
 * step after which its input stopped being valid.  They reach into the
 * program (api/program.h) to break its IR, hence the internal dependency. */
#include "shaderlib.h"
#include "api/program.h"

#include <glib.h>
#include <string.h>

static const char shader[] =
  "float k;\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR { return float4(uv * k, 0, 1); }\n";

static SlProgram *
compile (SlDiagnostics *diags)
{
  SlCompileOptions o = { 0 };
  o.source = shader;
  o.length = (size_t) -1;
  o.filename = "t.hlsl";
  o.language = SL_LANGUAGE_HLSL;
  return sl_compile (&o, diags);
}

/* Appends an output that reads a temporary nothing defines. */
static void
break_ir (SlIr *ir)
{
  uint32_t undefined = sl_ir_new_value (ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  SlInsn out = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { undefined }, .imm = 0 };
  sl_ir_emit (ir, &out);
}

/* The one diagnostic in @diags is an internal error naming @stage. */
static void
assert_internal_error (const SlDiagnostics *diags, const char *stage)
{
  g_assert_cmpint (sl_diagnostics_count (diags), ==, 1);
  const SlDiagnostic *d = sl_diagnostics_get (diags, 0);
  g_assert_cmpint (d->severity, ==, SL_SEVERITY_ERROR);
  g_assert_cmpstr (d->code, ==, "E-INTERNAL-IR-READ-BEFORE-DEF");
  char *want = g_strdup_printf ("internal error after %s: ", stage);
  if (!g_str_has_prefix (d->message, want))
    g_error ("expected a message starting '%s', got '%s'", want, d->message);
  g_free (want);
}

static void
test_switch_reaches_library (void)
{
  const char *v = g_getenv ("SHADERLIB_VALIDATE");
  if (!v || !*v || !strcmp (v, "0"))
    g_error ("SHADERLIB_VALIDATE is not set: run the tests through meson test, "
             "whose default setup sets it");
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlProgram *p = compile (diags);
  g_assert_nonnull (p);
  g_assert_cmpint (sl_diagnostics_count (diags), ==, 0);
  g_assert_true (p->validate);
  sl_program_unref (p);

  /* The switch is the variable, not validation left on for everyone. */
  char *saved = g_strdup (v);
  g_setenv ("SHADERLIB_VALIDATE", "0", TRUE);
  p = compile (diags);
  g_assert_nonnull (p);
  g_assert_false (p->validate);
  sl_program_unref (p);
  g_setenv ("SHADERLIB_VALIDATE", saved, TRUE);
  g_free (saved);
  sl_diagnostics_free (diags);
}

static void
test_prepare_reports_broken_ir (void)
{
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlProgram *p = compile (diags);
  g_assert_nonnull (p);
  break_ir (p->ir);
  SlBinding *b = sl_binding_new (p);
  g_assert_false (sl_binding_prepare (b, diags));
  assert_internal_error (diags, "specialisation");
  sl_binding_free (b);
  sl_program_unref (p);
  sl_diagnostics_free (diags);
}

static void
test_optimiser_names_step (void)
{
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlProgram *p = compile (diags);
  g_assert_nonnull (p);

  SlIr *ir = sl_ir_copy (p->ir);
  g_assert_true (sl_pass_optimise_checked (ir, true, diags));
  g_assert_cmpint (sl_diagnostics_count (diags), ==, 0);
  sl_ir_free (ir);

  ir = sl_ir_copy (p->ir);
  break_ir (ir);
  g_assert_false (sl_pass_optimise_checked (ir, true, diags));
  assert_internal_error (diags, "variable promotion (optimiser round 1)");
  sl_ir_free (ir);

  /* Without validation the same IR goes through unreported. */
  sl_diagnostics_clear (diags);
  ir = sl_ir_copy (p->ir);
  break_ir (ir);
  g_assert_true (sl_pass_optimise_checked (ir, false, diags));
  g_assert_cmpint (sl_diagnostics_count (diags), ==, 0);
  sl_ir_free (ir);

  sl_program_unref (p);
  sl_diagnostics_free (diags);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/validate/switch-reaches-library", test_switch_reaches_library);
  g_test_add_func ("/validate/prepare-reports-broken-ir", test_prepare_reports_broken_ir);
  g_test_add_func ("/validate/optimiser-names-step", test_optimiser_names_step);
  return g_test_run ();
}
