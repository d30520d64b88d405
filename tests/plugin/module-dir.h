/* Shared by the in-process plugin tests and bench/bench-gegl.c: GEGL_PATH
 * replaces GEGL's module path, so each run makes a temporary folder holding
 * a link to the built module (GS_PLUGIN_MODULE) and one to every entry of
 * GEGL's own module folder (GS_GEGL_PLUGINS_DIR), and points GEGL_PATH at
 * it. */
#ifndef GS_TEST_MODULE_DIR_H
#define GS_TEST_MODULE_DIR_H

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "flat-dir.h"

/* Removes the folder and everything left in it; frees the name. */
#define gs_test_remove_module_dir gs_test_remove_flat_dir

static inline gboolean
gs_module_dir_link (const gchar *target, const gchar *module_dir,
                    const gchar *name, GError **error)
{
  gchar   *link = g_build_filename (module_dir, name, NULL);
  gboolean ok   = symlink (target, link) == 0;

  if (!ok)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                 "cannot link %s to %s: %s", link, target, g_strerror (errno));
  g_free (link);
  return ok;
}

/* Makes the folder and sets GEGL_PATH; NULL with @error set when the
 * variables are missing or a link cannot be made.  Paths are made
 * absolute: a relative one would dangle inside the temporary folder. */
static inline gchar *
gs_module_dir_new (const gchar *tmp_template, GError **error)
{
  const gchar *module = g_getenv ("GS_PLUGIN_MODULE");
  const gchar *sysdir = g_getenv ("GS_GEGL_PLUGINS_DIR");
  GDir        *dir;
  const gchar *name;
  gchar       *module_dir, *module_abs;
  gboolean     ok;

  if (!module || !sysdir)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   "set GS_PLUGIN_MODULE and GS_GEGL_PLUGINS_DIR (meson test does)");
      return NULL;
    }
  module_abs = g_canonicalize_filename (module, NULL);
  if (!g_file_test (module_abs, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "no module at %s", module_abs);
      g_free (module_abs);
      return NULL;
    }
  module_dir = g_dir_make_tmp (tmp_template, error);
  if (!module_dir)
    {
      g_free (module_abs);
      return NULL;
    }
  ok = gs_module_dir_link (module_abs, module_dir, "gegl-shaders.so", error);
  g_free (module_abs);

  dir = ok ? g_dir_open (sysdir, 0, error) : NULL;
  ok = dir != NULL;
  while (ok && (name = g_dir_read_name (dir)))
    {
      gchar *target = g_canonicalize_filename (name, sysdir);

      ok = gs_module_dir_link (target, module_dir, name, error);
      g_free (target);
    }
  if (dir)
    g_dir_close (dir);
  if (!ok)
    {
      gs_test_remove_module_dir (module_dir);
      return NULL;
    }
  g_setenv ("GEGL_PATH", module_dir, TRUE);
  return module_dir;
}

/* For the tests: the folder, or the test fails. */
static inline gchar *
gs_test_make_module_dir (const gchar *tmp_template)
{
  GError *error      = NULL;
  gchar  *module_dir = gs_module_dir_new (tmp_template, &error);

  g_assert_no_error (error);
  return module_dir;
}

#endif
