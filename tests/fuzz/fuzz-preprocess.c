/* fuzz-preprocess — the HLSL preprocessor on arbitrary bytes.
 *
 * Includes are served from memory: every #include, whatever its name,
 * yields the input itself, so the fuzzer reaches include recursion, cycle
 * detection and the depth limit without touching the disk.  A small
 * output cap keeps each run fast; the default cap is covered by
 * tests/limits.  The output must be NUL-terminated text whenever it is
 * returned, which is checked so a missing terminator cannot go unnoticed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "preprocess/preprocess.h"

typedef struct
{
  const uint8_t *data;
  size_t         size;
} Input;

static char *
read_from_input (void *user, const char *path, size_t *length)
{
  const Input *in = user;
  char        *copy = g_malloc (in->size + 1);

  /* "missing.h" exercises the not-found path. */
  if (strstr (path, "missing") != NULL)
    {
      g_free (copy);
      return NULL;
    }
  memcpy (copy, in->data, in->size);
  copy[in->size] = '\0';
  *length = in->size;
  return copy;
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const defines[] = { "A=1", "F(x)=x+x", "EMPTY", NULL };
  static const char *const dirs[] = { "inc", NULL };
  Input                    in = { data, size };
  SlPreprocessOptions      options = {
    .filename = "fuzz.hlsl",
    .include_dirs = dirs,
    .defines = defines,
    .read_file = read_from_input,
    .read_file_user = &in,
    .max_output = 1u << 20,
  };
  SlDiagnostics *diags = sl_diagnostics_new ();
  char          *text = sl_preprocess ((const char *) data, size, &options, diags);

  if (text != NULL && strlen (text) > options.max_output + 4096)
    abort ();   /* the cap was not honoured */
  char *report = sl_diagnostics_format (diags);
  g_free (report);
  g_free (text);
  sl_diagnostics_free (diags);
  return 0;
}
