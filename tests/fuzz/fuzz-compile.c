/* fuzz-compile — one front end (chosen at build time with
 * -DFUZZ_LANGUAGE=SL_LANGUAGE_…) from source bytes to optimised IR.
 *
 * The language is forced rather than detected so each harness stays on its
 * own front end whatever the fuzzer makes of the first bytes.  The IR is
 * re-validated after lowering, after every optimiser step and after the
 * binding's specialisation (SL_COMPILE_VALIDATE), and an internal error
 * aborts, which turns a pass that silently corrupts the IR into a crash
 * the fuzzer can see: a program that compiles must also dump, reflect and
 * prepare.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "shaderlib.h"

#ifndef FUZZ_LANGUAGE
#define FUZZ_LANGUAGE SL_LANGUAGE_HLSL
#endif

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* A failed validation (or any other internal error) is a bug, not an
 * answer to bad input. */
static void
abort_on_internal_error (const SlDiagnostics *diags)
{
  for (int i = 0; i < sl_diagnostics_count (diags); i++)
    if (g_str_has_prefix (sl_diagnostics_get (diags, i)->code, SL_CODE_INTERNAL_PREFIX))
      abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  SlCompileOptions options = {
    .source = (const char *) data,
    .length = size,
    .filename = "fuzz",
    .language = FUZZ_LANGUAGE,
    .flags = SL_COMPILE_VALIDATE | SL_COMPILE_KEEP_DUMPS,
  };
  SlDiagnostics *diags = sl_diagnostics_new ();
  SlProgram     *program = sl_compile (&options, diags);

  if (program != NULL)
    {
      if (sl_diagnostics_error_count (diags) != 0)
        abort ();   /* errors reported, yet a program returned */
      for (int stage = 0; stage < 3; stage++)
        g_free (sl_program_dump (program, stage));
      for (int i = 0; i < sl_program_get_n_params (program); i++)
        if (sl_program_get_param (program, i)->name == NULL)
          abort ();
      SlBinding *binding = sl_binding_new (program);
      sl_binding_set_viewport (binding, 4, 4);
      sl_binding_prepare (binding, diags);
      sl_binding_free (binding);
      sl_program_unref (program);
    }
  else if (sl_diagnostics_error_count (diags) == 0)
    abort ();       /* failed without saying why */
  abort_on_internal_error (diags);
  char *report = sl_diagnostics_format (diags);
  g_free (report);
  sl_diagnostics_free (diags);
  return 0;
}
