/* shader-test.c — conformance runner for vkd3d `.shader_test` files:
 * the `gegl-shaders test` command line and the loop over files and models.
 *
 * A file is split once into blocks (one per `[section]` header, format.c)
 * and then interpreted once per shader model, like vkd3d's own runner
 * (run.c): `[require]` blocks decide whether the blocks after them run at
 * that model, resource blocks set textures, samplers and render targets
 * (sections.c), `[pixel shader]` blocks compile (one check each) and
 * `[test]` blocks draw and probe (one check per probe, probe.c).
 * Everything we cannot emulate — other shader stages, UAVs, custom vertex
 * shaders, pipeline state — is counted as skipped with a reason, so the
 * pass rate measures only what shaderlib is meant to do.
 *
 * Only the public shaderlib API and GLib are used; no process-wide mutable
 * state, so nothing here needs locking.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "shaderlib.h"
#include "shader-test.h"
#include "runner.h"

#define MAX_MODELS 16

/* ------------------------------------------------------------------ */
/* One file                                                            */
/* ------------------------------------------------------------------ */

static void
run_file (const char *path, const Model *models, int n_models,
          gboolean verbose, SlScratch *scratch, int totals[3])
{
  FileResult res;
  GError    *error = NULL;
  TestFile  *tf;

  memset (&res, 0, sizeof res);
  res.verbose = verbose;
  res.path = path;
  res.out = g_string_new (NULL);
  res.skips = g_array_new (FALSE, TRUE, sizeof (SkipNote));
  g_array_set_clear_func (res.skips, st_skip_note_clear);
  res.printed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  tf = st_test_file_load (path, &error);
  if (!tf)
    {
      g_string_append_printf (res.out, "%s:0:0: error: %s\n", path,
                              error->message);
      res.failed++;
      g_clear_error (&error);
    }
  else
    for (int m = 0; m < n_models; m++)
      st_run_model (&res, tf, &models[m], scratch);

  fputs (res.out->str, stdout);
  for (guint i = 0; i < res.skips->len; i++)
    {
      SkipNote *n = &g_array_index (res.skips, SkipNote, i);
      printf ("%s:%d: skipped (sm %s): %s\n", path, n->line,
              n->models->str, n->reason);
    }
  printf ("%s: %d passed, %d failed, %d skipped\n", path, res.passed,
          res.failed, res.skipped);
  fflush (stdout);

  totals[0] += res.passed;
  totals[1] += res.failed;
  totals[2] += res.skipped;

  st_test_file_free (tf);
  g_string_free (res.out, TRUE);
  g_array_unref (res.skips);
  g_hash_table_unref (res.printed);
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */
/* ------------------------------------------------------------------ */

static gboolean
parse_models (const char *list, Model *models, int *n_models)
{
  gchar  **parts = g_strsplit (list, ",", -1);
  gboolean ok = TRUE;

  *n_models = 0;
  for (int i = 0; parts[i] && ok; i++)
    {
      const char *p = parts[i];
      int         code;

      if (!st_parse_version (&p, &code) || !st_at_end (p)
          || *n_models == MAX_MODELS || code < 20 || code > 69)
        {
          ok = FALSE;
          break;
        }
      models[*n_models].code = code;
      g_snprintf (models[*n_models].name, sizeof models[0].name, "%d.%d",
                  code / 10, code % 10);
      g_snprintf (models[*n_models].profile, sizeof models[0].profile,
                  "ps_%d_%d", code / 10, code % 10);
      (*n_models)++;
    }
  g_strfreev (parts);
  return ok && *n_models > 0;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Expands directories into their *.shader_test files, sorted. */
static void
collect_inputs (const char *arg, GPtrArray *files)
{
  GDir       *dir;
  const char *name;
  GPtrArray  *found;

  if (!g_file_test (arg, G_FILE_TEST_IS_DIR))
    {
      g_ptr_array_add (files, g_strdup (arg));
      return;
    }
  dir = g_dir_open (arg, 0, NULL);
  if (!dir)
    {
      g_ptr_array_add (files, g_strdup (arg));
      return;
    }
  found = g_ptr_array_new ();
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".shader_test"))
      g_ptr_array_add (found, g_build_filename (arg, name, NULL));
  g_dir_close (dir);
  g_ptr_array_sort (found, compare_strings);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (files, found->pdata[i]);
  g_ptr_array_free (found, TRUE);
}

int
gs_shader_test_main (int argc, char **argv)
{
  gboolean        verbose = FALSE;
  gchar          *models_opt = NULL;
  gdouble         min_rate = -1.0;
  gchar         **inputs = NULL;
  GOptionEntry    entries[] = {
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      "Show every failing check with its diagnostics", NULL },
    { "models", 0, 0, G_OPTION_ARG_STRING, &models_opt,
      "Shader models to run, e.g. 2.0,3.0,4.0 (default 2.0,3.0)", "LIST" },
    { "min-pass-rate", 0, 0, G_OPTION_ARG_DOUBLE, &min_rate,
      "Exit 0 when passed/(passed+failed) reaches PCT percent", "PCT" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs,
      NULL, "FILE|DIR…" },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  GOptionContext *ctx;
  GError         *error = NULL;
  Model           models[MAX_MODELS];
  int             n_models = 0;
  int             totals[3] = { 0, 0, 0 };
  int             status;
  GPtrArray      *files;
  SlScratch      *scratch;
  gchar         **args;

  ctx = g_option_context_new ("FILE.shader_test|DIR… — run vkd3d "
                              "conformance tests");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_help_enabled (ctx, TRUE);
  /* GOption drops the entries it consumes from the vector without freeing
   * them, so parse a shallow copy of borrowed strings. */
  args = g_new0 (gchar *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = argv[i];
  {
    gchar  **tmp = args;
    int      n = argc;
    gboolean ok = g_option_context_parse (ctx, &n, &tmp, &error);

    g_free (args);
    g_option_context_free (ctx);
    if (!ok)
      {
        fprintf (stderr, "gegl-shaders test: %s\n", error->message);
        g_clear_error (&error);
        g_free (models_opt);
        g_strfreev (inputs);
        return 2;
      }
  }

  if (!parse_models (models_opt ? models_opt : "2.0,3.0", models,
                     &n_models))
    {
      fprintf (stderr, "gegl-shaders test: bad --models '%s' (expected a "
               "list such as 2.0,3.0,4.0)\n", models_opt);
      g_free (models_opt);
      g_strfreev (inputs);
      return 2;
    }
  if (min_rate > 100.0)
    {
      fprintf (stderr, "gegl-shaders test: --min-pass-rate must be at "
               "most 100\n");
      g_free (models_opt);
      g_strfreev (inputs);
      return 2;
    }
  if (!inputs || !inputs[0])
    {
      fprintf (stderr, "gegl-shaders test: no .shader_test files given\n"
               "usage: gegl-shaders test [-v] [--models LIST] "
               "[--min-pass-rate PCT] FILE|DIR…\n");
      g_free (models_opt);
      g_strfreev (inputs);
      return 2;
    }

  files = g_ptr_array_new_with_free_func (g_free);
  for (int i = 0; inputs[i]; i++)
    collect_inputs (inputs[i], files);

  scratch = sl_scratch_new ();
  for (guint i = 0; i < files->len; i++)
    run_file (files->pdata[i], models, n_models, verbose, scratch, totals);
  sl_scratch_free (scratch);

  if (min_rate >= 0.0)
    {
      int    checked = totals[0] + totals[1];
      double rate = checked ? 100.0 * totals[0] / checked : 100.0;

      printf ("pass rate %.2f%% (minimum %.2f%%)\n", rate, min_rate);
      status = rate + 1e-9 >= min_rate ? 0 : 1;
    }
  else
    status = totals[1] ? 1 : 0;
  printf ("%d passed, %d failed, %d skipped\n", totals[0], totals[1],
          totals[2]);

  g_ptr_array_unref (files);
  g_free (models_opt);
  g_strfreev (inputs);
  return status;
}

#ifdef GS_SHADER_TEST_STANDALONE
/* The conformance tests build the runner on its own so they do not depend
 * on the rest of the CLI. */
int
main (int argc, char **argv)
{
  argv[0] = (char *) "test";
  return gs_shader_test_main (argc, argv);
}
#endif
