/* Shared by the in-process plugin tests: GEGL_PATH replaces GEGL's module
 * path, so each test makes a temporary folder holding a link to the built
 * module (GS_PLUGIN_MODULE) and one to every entry of GEGL's own module
 * folder (GS_GEGL_PLUGINS_DIR), and points GEGL_PATH at it. */
#ifndef GS_TEST_MODULE_DIR_H
#define GS_TEST_MODULE_DIR_H

#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>

/* Returns the folder (g_free it through gs_test_remove_module_dir). */
static inline gchar *
gs_test_make_module_dir (const gchar *tmp_template)
{
  const gchar *module = g_getenv ("GS_PLUGIN_MODULE");
  const gchar *sysdir = g_getenv ("GS_GEGL_PLUGINS_DIR");
  GError      *error  = NULL;
  GDir        *dir;
  const gchar *name;
  gchar       *module_dir, *link;

  g_assert_nonnull (module);
  g_assert_nonnull (sysdir);
  module_dir = g_dir_make_tmp (tmp_template, &error);
  g_assert_no_error (error);

  link = g_build_filename (module_dir, "gegl-shaders.so", NULL);
  g_assert_cmpint (symlink (module, link), ==, 0);
  g_free (link);

  dir = g_dir_open (sysdir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)))
    {
      gchar *target = g_build_filename (sysdir, name, NULL);

      link = g_build_filename (module_dir, name, NULL);
      g_assert_cmpint (symlink (target, link), ==, 0);
      g_free (link);
      g_free (target);
    }
  g_dir_close (dir);

  g_setenv ("GEGL_PATH", module_dir, TRUE);
  return module_dir;
}

/* Removes the folder and everything the test left in it; frees the name. */
static inline void
gs_test_remove_module_dir (gchar *module_dir)
{
  GDir        *dir = g_dir_open (module_dir, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      gchar *path = g_build_filename (module_dir, name, NULL);

      g_unlink (path);
      g_free (path);
    }
  if (dir)
    g_dir_close (dir);
  g_rmdir (module_dir);
  g_free (module_dir);
}

#endif
