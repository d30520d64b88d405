/* Removing a test's temporary folder: the files it holds (no subfolders)
 * and then the folder itself.  Shared by the C tests and bench-gegl. */
#ifndef GS_TEST_FLAT_DIR_H
#define GS_TEST_FLAT_DIR_H

#include <glib.h>
#include <glib/gstdio.h>

/* Frees the name too. */
static inline void
gs_test_remove_flat_dir (gchar *path)
{
  GDir        *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      gchar *entry = g_build_filename (path, name, NULL);

      g_unlink (entry);
      g_free (entry);
    }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
  g_free (path);
}

#endif
