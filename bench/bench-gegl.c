/* bench-gegl — a shader op against the native GEGL op doing comparable
 * work, in the same process and graph setup: a levels shader against
 * gegl:levels and an emboss shader against gegl:emboss, with 1 and 2 GEGL
 * threads.  Each graph is buffer-source → op → write-buffer over a
 * SIZE×SIZE R'G'B'A float buffer, processed whole; the figure is the best
 * of a few runs.  The module is loaded the way the plugin tests do it: a
 * GEGL_PATH folder of links to the built module and GEGL's own modules. */
#include <gegl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "module-dir.h"

static char *
make_module_dir (void)
{
  GError *error = NULL;
  char *dir = gs_module_dir_new ("gs-bench-XXXXXX", &error);
  if (!dir)
    {
      fprintf (stderr, "bench-gegl: %s\n", error->message);
      exit (2);
    }
  return dir;
}

/* Best wall time of @reps whole-buffer renders of @op over @input. */
static double
time_op (GeglBuffer *input, GeglNode *graph, GeglNode *op, int reps)
{
  const GeglRectangle *ext = gegl_buffer_get_extent (input);
  double best = 1e30;
  for (int r = 0; r < reps; r++)
    {
      GeglBuffer *out = gegl_buffer_new (ext, babl_format ("R'G'B'A float"));
      GeglNode *src = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                           "buffer", input, NULL);
      GeglNode *sink = gegl_node_new_child (graph, "operation", "gegl:write-buffer",
                                            "buffer", out, NULL);
      gegl_node_link_many (src, op, sink, NULL);
      gint64 t0 = g_get_monotonic_time ();
      gegl_node_process (sink);
      double dt = (g_get_monotonic_time () - t0) / 1e6;
      best = MIN (best, dt);
      gegl_node_disconnect (op, "input");
      g_object_unref (src);
      g_object_unref (sink);
      g_object_unref (out);
    }
  return best;
}

/* GEGL may find its modules twice (GEGL_PATH and its default folder) and
 * GObject then warns once per op type; that noise would bury the table. */
static void
drop_duplicate_type_warnings (const gchar *domain, GLogLevelFlags level, const gchar *message,
                              gpointer data)
{
  if (!g_str_has_prefix (message, "Two different plugins tried to register"))
    g_log_default_handler (domain, level, message, data);
}

int
main (int argc, char **argv)
{
  g_log_set_handler ("GLib-GObject", G_LOG_LEVEL_WARNING, drop_duplicate_type_warnings, NULL);
  int size = argc > 2 ? atoi (argv[2]) : 2048;
  int reps = argc > 3 ? atoi (argv[3]) : 3;
  const char *dir = argc > 1 ? argv[1] : BENCH_DIR;
  const char *only = argc > 4 ? argv[4] : NULL;   /* one case by name */
  char *mdir = make_module_dir ();
  gegl_init (&argc, &argv);
  /* gegl:emboss is GPL-3; GEGL hides such ops unless the application
   * declares a compatible licence (the gegl tool does the same). */
  g_object_set (gegl_config (), "application-license", "GPL3", NULL);
  /* Without these GEGL would substitute a pass-through op and the table
   * would time nothing. */
  const char *needed[] = { "shader:run", "gegl:levels", "gegl:emboss" };
  for (guint n = 0; n < G_N_ELEMENTS (needed); n++)
    if (!gegl_has_operation (needed[n]))
      {
        fprintf (stderr, "bench-gegl: operation %s not found (GEGL_PATH=%s)\n", needed[n], mdir);
        gs_test_remove_module_dir (mdir);
        return 2;
      }

  GeglRectangle rect = { 0, 0, size, size };
  GeglBuffer *input = gegl_buffer_new (&rect, babl_format ("R'G'B'A float"));
  float *px = g_new (float, (size_t) size * size * 4);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      for (int k = 0; k < 4; k++)
        px[((size_t) y * size + x) * 4 + k]
          = k == 3 ? 1.0f : 0.5f + 0.4f * (float) ((x * 7 + y * 13 + k * 29) % 97) / 97.0f - 0.2f;
  gegl_buffer_set (input, &rect, 0, babl_format ("R'G'B'A float"), px, GEGL_AUTO_ROWSTRIDE);
  g_free (px);

  struct { const char *name, *shader, *params, *native; } cases[] = {
    { "levels", "levels.hlsl", "", "gegl:levels" },
    { "emboss", "emboss.hlsl", NULL, "gegl:emboss" },
  };
  printf ("%dx%d R'G'B'A float through GEGL, best of %d runs, Mpix/s\n", size, size, reps);
  printf ("%-7s %7s %10s %10s %7s\n", "op", "threads", "shader", "native", "ratio");
  double mpix = (double) size * size / 1e6;
  int status = 0;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      if (only && strcmp (only, cases[c].name) != 0)
        continue;
      char *path = g_build_filename (dir, cases[c].shader, NULL);
      char *params = cases[c].params ? g_strdup (cases[c].params)
                     : g_strdup_printf ("texel=%.9g,%.9g", 1.0 / size, 1.0 / size);
      for (int t = 1; t <= 2; t++)
        {
          g_object_set (gegl_config (), "threads", t, NULL);
          GeglNode *graph = gegl_node_new ();
          GeglNode *shader = gegl_node_new_child (graph, "operation", "shader:run",
                                                  "file", path, "params", params, NULL);
          GeglNode *native = cases[c].native[5] == 'l'
            ? gegl_node_new_child (graph, "operation", "gegl:levels", "in-low", 0.1, "in-high", 0.9,
                                   "out-low", 0.05, "out-high", 0.95, NULL)
            : gegl_node_new_child (graph, "operation", "gegl:emboss", "azimuth", 30.0,
                                   "elevation", 45.0, "depth", 20, NULL);
          char *err = NULL;
          gegl_node_get (shader, "error", &err, NULL);
          if (err && *err)
            {
              fprintf (stderr, "bench-gegl: %s: %s\n", path, err);
              status = 1;
            }
          g_free (err);
          double ts = time_op (input, graph, shader, reps);
          double tn = time_op (input, graph, native, reps);
          printf ("%-7s %7d %10.1f %10.1f %7.2f\n", cases[c].name, t, mpix / ts, mpix / tn, tn / ts);
          fflush (stdout);
          g_object_unref (graph);
        }
      g_free (path);
      g_free (params);
    }
  g_object_unref (input);
  gegl_exit ();
  gs_test_remove_module_dir (mdir);
  return status;
}
