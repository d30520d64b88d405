/* Tests the diagnostic table (shaderlib/base/diag_codes.def) and that
 * reports carry its codes.
 *
 * The table must be well formed: each code unique, spelt from its
 * identifier, its severity letter matching the row's severity, each row
 * described.  One real diagnostic from each front end (HLSL, the
 * preprocessor, D3D9 and SM4 assembly, DXBC, effects), the IR validator
 * and the run-time loop cap must carry its own code, not a shared one.
 * And in a test run (SHADERLIB_VALIDATE, set by meson's default setup) a
 * host that adds a code outside the table, or with another severity, is
 * told so by an internal error.  The table is read through the private
 * base/diag.h, hence the internal dependency; the codes a host needs are
 * checked through the public macros. */
#include "shaderlib.h"
#include "base/diag.h"
#include "ir/ir.h"

#include <glib.h>
#include <string.h>

typedef struct
{
  const char *id;
  const char *code;
  SlSeverity  severity;
  const char *description;
} Row;

static const Row table[] = {
#define SL_DIAG(id, code, severity, description) { #id, code, SL_SEVERITY_##severity, description },
#include "base/diag_codes.def"
#undef SL_DIAG
};

static const char *const stages[] = {
  "API", "PP", "HLSL", "D3D9", "SM4", "DXBC", "FX", "VM", "INTERNAL", "HOST"
};

static char
severity_letter (SlSeverity severity)
{
  return severity == SL_SEVERITY_ERROR ? 'E' : severity == SL_SEVERITY_WARNING ? 'W' : 'N';
}

static void
test_table_well_formed (void)
{
  g_assert_cmpint (G_N_ELEMENTS (table), ==, SL_DIAG_N_KINDS);
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      const Row *r = &table[i];
      /* E-STAGE-WORDS: the identifier STAGE_WORDS with dashes. */
      char *want = g_strdup_printf ("%c-%s", severity_letter (r->severity), r->id);
      for (char *p = want; *p; p++)
        if (*p == '_')
          *p = '-';
      if (strcmp (r->code, want) != 0)
        g_error ("row %s: code '%s' should be '%s'", r->id, r->code, want);
      g_free (want);

      gboolean stage_ok = FALSE;
      for (guint s = 0; s < G_N_ELEMENTS (stages); s++)
        {
          size_t n = strlen (stages[s]);
          if (!strncmp (r->id, stages[s], n) && r->id[n] == '_' && r->id[n + 1])
            stage_ok = TRUE;
        }
      if (!stage_ok)
        g_error ("row %s: the identifier does not start with a stage and a name", r->id);
      for (const char *p = r->code + 2; *p; p++)
        if (!g_ascii_isupper (*p) && !g_ascii_isdigit (*p) && !(*p == '-' && p[1] && p[1] != '-'))
          g_error ("row %s: code '%s' is not upper-case words joined by '-'", r->id, r->code);

      if (g_hash_table_contains (seen, r->code))
        g_error ("code '%s' appears twice", r->code);
      g_hash_table_add (seen, (gpointer) r->code);

      if (!r->description[0] || strchr (r->description, '\n'))
        g_error ("row %s: the description must be one non-empty line", r->id);

      /* The library's view of the row is the same. */
      g_assert_cmpstr (sl_diag_code ((SlDiagKind) i), ==, r->code);
      g_assert_cmpint (sl_diag_severity ((SlDiagKind) i), ==, r->severity);
      g_assert_cmpstr (sl_diag_description ((SlDiagKind) i), ==, r->description);
    }
  g_hash_table_unref (seen);
}

/* The code of the diagnostic whose message contains @text. */
static char *
code_of (const SlDiagnostics *diags, const char *text)
{
  for (int i = 0; i < sl_diagnostics_count (diags); i++)
    {
      const SlDiagnostic *d = sl_diagnostics_get (diags, i);
      if (strstr (d->message, text))
        return g_strdup (d->code);
    }
  char *all = sl_diagnostics_format (diags);
  g_error ("no diagnostic says '%s'; got:\n%s", text, all);
}

static char *
compile_code (SlLanguage language, const char *source, size_t length, const char *text)
{
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlCompileOptions o = { 0 };
  o.source = source;
  o.length = length;
  o.filename = "t";
  o.language = language;
  SlProgram *p = sl_compile (&o, diags);
  g_assert_null (p);
  char *code = code_of (diags, text);
  sl_diagnostics_free (diags);
  return code;
}

static char *
effect_code (void)
{
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlEffectOptions o = { 0 };
  o.source = "float4 f() : COLOR { return 0; }\n";
  o.length = (size_t) -1;
  o.filename = "t.fx";
  o.buffer_width = 4;
  o.buffer_height = 4;
  SlEffect *fx = sl_effect_compile (&o, diags);
  g_assert_null (fx);
  char *code = code_of (diags, "the effect has no technique");
  sl_diagnostics_free (diags);
  return code;
}

/* An IR whose output reads a temporary nothing defines. */
static char *
validator_code (void)
{
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlIr *ir = sl_ir_new ();
  uint32_t undefined = sl_ir_new_value (ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  SlInsn out = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { undefined }, .imm = 0 };
  sl_ir_emit (ir, &out);
  g_assert_false (sl_ir_validate (ir, "a test", diags));
  sl_ir_free (ir);
  char *code = code_of (diags, "internal error after a test");
  sl_diagnostics_free (diags);
  return code;
}

static char *
loop_cap_code (void)
{
  static const char source[] =
    "float4 main(float2 uv : TEXCOORD0) : COLOR0\n"
    "{\n"
    "  float x = 0;\n"
    "  while (uv.x < 2.0) { x += 1.0; if (x < 0.0) break; }\n"
    "  return float4(x, 0, 0, 1);\n"
    "}\n";
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlCompileOptions o = { 0 };
  o.source = source;
  o.length = (size_t) -1;
  o.language = SL_LANGUAGE_HLSL;
  SlProgram *p = sl_compile (&o, diags);
  g_assert_nonnull (p);
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, 1, 1);
  g_assert_true (sl_binding_prepare (b, diags));
  SlScratch *scratch = sl_scratch_new ();
  float pixel[4] = { 0 };
  SlTarget target = { pixel, 4 };
  g_assert_false (sl_binding_render (b, scratch, 0, 0, 1, 1, NULL, &target, 1, diags));
  char *code = code_of (diags, "iteration cap");
  sl_scratch_free (scratch);
  sl_binding_free (b);
  sl_program_unref (p);
  sl_diagnostics_free (diags);
  return code;
}

static void
test_front_ends_have_own_codes (void)
{
  static const char dxbc[32] = "DXBC";   /* the header is longer */
  struct
  {
    char       *got;
    const char *want;
  } cases[] = {
    { compile_code (SL_LANGUAGE_HLSL, "float4 main() : COLOR { return nowhere; }", (size_t) -1,
                    "undeclared identifier"), "E-HLSL-UNDECLARED" },
    { compile_code (SL_LANGUAGE_HLSL, "#include \"nowhere.h\"\n", (size_t) -1, "not found"),
      "E-PP-INCLUDE-NOT-FOUND" },
    { compile_code (SL_LANGUAGE_D3D9_ASM, "ps_2_0\nfrob r0, r1\n", (size_t) -1, "unknown instruction"),
      "E-D3D9-UNKNOWN-INSTRUCTION" },
    { compile_code (SL_LANGUAGE_SM4_ASM, "ps_4_0\nfrob r0, r1\n", (size_t) -1, "unknown instruction"),
      "E-SM4-UNKNOWN-INSTRUCTION" },
    { compile_code (SL_LANGUAGE_DXBC, dxbc, sizeof dxbc, "container"), NULL },
    { effect_code (), "E-FX-NO-TECHNIQUE" },
    { validator_code (), "E-INTERNAL-IR-READ-BEFORE-DEF" },
    { loop_cap_code (), SL_CODE_VM_LOOP },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (cases[i].want)
        g_assert_cmpstr (cases[i].got, ==, cases[i].want);
      else
        g_assert_true (g_str_has_prefix (cases[i].got, "E-DXBC-"));
      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (cases[i].got, !=, cases[j].got);
    }
  g_assert_true (g_str_has_prefix (cases[6].got, SL_CODE_INTERNAL_PREFIX));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_free (cases[i].got);
}

/* The public codes are rows of the table, with the severity they say. */
static void
test_public_codes_in_table (void)
{
  struct
  {
    const char *code;
    SlSeverity  severity;
  } codes[] = {
    { SL_CODE_VM_LOOP, SL_SEVERITY_WARNING },
    { SL_CODE_VM_BUDGET, SL_SEVERITY_WARNING },
    { SL_CODE_HOST_IO, SL_SEVERITY_ERROR },
    { SL_CODE_HOST_COMPILE, SL_SEVERITY_ERROR },
    { SL_CODE_HOST_INPUT, SL_SEVERITY_ERROR },
    { SL_CODE_HOST_PREPARE, SL_SEVERITY_ERROR },
    { SL_CODE_HOST_MEMORY_BUDGET, SL_SEVERITY_ERROR },
    { SL_CODE_HOST_OUT_OF_MEMORY, SL_SEVERITY_ERROR },
  };
  SlDiagnostics *diags = sl_diagnostics_new ();
  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    sl_diagnostics_add (diags, codes[i].severity, "host", 0, 0, codes[i].code, "a host's report");
  g_assert_cmpint (sl_diagnostics_count (diags), ==, G_N_ELEMENTS (codes));
  sl_diagnostics_free (diags);
}

/* A code outside the table, or with the wrong severity, is itself an
 * internal error in a test run. */
static void
test_stray_code_reported (void)
{
  if (!sl_validation_requested ())
    g_error ("SHADERLIB_VALIDATE is not set: run the tests through meson test, "
             "whose default setup sets it");
  SlDiagnostics *diags = sl_diagnostics_new ();

  g_test_expect_message (NULL, G_LOG_LEVEL_CRITICAL, "*'E-NOWHERE' is not in the table*");
  sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "host", 0, 0, "E-NOWHERE", "a host's report");
  g_test_assert_expected_messages ();
  g_assert_cmpint (sl_diagnostics_count (diags), ==, 2);
  g_assert_cmpstr (sl_diagnostics_get (diags, 1)->code, ==, "E-INTERNAL-DIAG-CODE");

  g_test_expect_message (NULL, G_LOG_LEVEL_CRITICAL, "*'" SL_CODE_HOST_IO "' is reported as a warning*");
  sl_diagnostics_add (diags, SL_SEVERITY_WARNING, "host", 0, 0, SL_CODE_HOST_IO, "a host's report");
  g_test_assert_expected_messages ();
  g_assert_cmpint (sl_diagnostics_count (diags), ==, 4);
  g_assert_cmpstr (sl_diagnostics_get (diags, 3)->code, ==, "E-INTERNAL-DIAG-CODE");

  sl_diagnostics_free (diags);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diag-codes/table-well-formed", test_table_well_formed);
  g_test_add_func ("/diag-codes/front-ends-have-own-codes", test_front_ends_have_own_codes);
  g_test_add_func ("/diag-codes/public-codes-in-table", test_public_codes_in_table);
  g_test_add_func ("/diag-codes/stray-code-reported", test_stray_code_reported);
  return g_test_run ();
}
