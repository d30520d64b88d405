/* assemble-seeds — turns assembly seeds into binary seeds for the bytecode
 * harnesses: assemble-seeds OUTDIR FILE.asm…
 *
 * The bytecode and DXBC loaders only get deep coverage from inputs that
 * already decode; a fuzzer rarely invents a valid token stream or container
 * on its own.  Every D3D9 listing that assembles becomes OUTDIR/NAME.ps
 * (tokens with a CTAB comment) and every SM4/5 listing OUTDIR/NAME.dxbc,
 * through the same encoders the round-trip tests use.  Listings that do not
 * assemble (the error tests' inputs) are skipped silently.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "asm/d3d9/d3d9.h"
#include "asm/sm4/sm4.h"

static void
write_file (const char *dir, const char *path, const char *ext,
            const void *data, size_t length, int *count)
{
  char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');
  if (dot != NULL)
    *dot = '\0';
  char *name = g_strdup_printf ("%s/%s.%s", dir, base, ext);
  GError *error = NULL;
  if (g_file_set_contents (name, data, (gssize) length, &error))
    (*count)++;
  else
    {
      fprintf (stderr, "assemble-seeds: %s\n", error->message);
      g_error_free (error);
    }
  g_free (name);
  g_free (base);
}

int
main (int argc, char **argv)
{
  int n_ps = 0, n_dxbc = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: assemble-seeds OUTDIR FILE.asm...\n");
      return 2;
    }
  for (int i = 2; i < argc; i++)
    {
      char  *text;
      gsize  length;
      if (!g_file_get_contents (argv[i], &text, &length, NULL))
        continue;
      SlDiagnostics *diags = sl_diagnostics_new ();
      SlLanguage lang = sl_detect_language (text, length);
      if (lang == SL_LANGUAGE_D3D9_ASM)
        {
          D9Shader *shader = d9_assemble (text, length, argv[i], diags);
          if (shader != NULL && sl_diagnostics_error_count (diags) == 0)
            {
              GByteArray *bytes = d9_encode (shader);
              write_file (argv[1], argv[i], "ps", bytes->data, bytes->len, &n_ps);
              g_byte_array_free (bytes, TRUE);
            }
          if (shader != NULL)
            d9_shader_free (shader);
        }
      else if (lang == SL_LANGUAGE_SM4_ASM)
        {
          Sm4Shader *shader = sm4_assemble (text, length, argv[i], diags);
          if (shader != NULL && sl_diagnostics_error_count (diags) == 0)
            {
              size_t   n;
              uint8_t *bytes = sm4_dxbc_write (shader, &n);
              write_file (argv[1], argv[i], "dxbc", bytes, n, &n_dxbc);
              g_free (bytes);
            }
          if (shader != NULL)
            sm4_shader_free (shader);
        }
      sl_diagnostics_free (diags);
      g_free (text);
    }
  fprintf (stderr, "assemble-seeds: %d bytecode, %d DXBC\n", n_ps, n_dxbc);
  return 0;
}
