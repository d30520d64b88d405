/* filter-path — the one filter search path of every host.
 *
 * GIMP and `gegl` see a filter as the op shader:STEM that the module
 * registers at load time, `gegl-shaders apply STEM` as a name to look up;
 * both go through gs_filter_list() here, so one name reaches one file
 * whoever asks.  The order is the one the README documents: the folders
 * of GEGL_SHADERS_PATH (the user's override, colon separated), then
 * $XDG_DATA_HOME/gegl-shaders/filters (where a user drops their own),
 * then each $XDG_DATA_DIRS entry's gegl-shaders/filters, then the folder
 * the shipped filters are installed into.  The first folder that has a
 * stem wins; inside one folder names are taken in byte order, so
 * "blur.fx" hides "blur.hlsl" wherever the folder came from.
 */
#include "config.h"

#include "filter-path.h"

#include <string.h>

static const gchar *const shader_extensions[] =
{
  ".hlsl", ".fx", ".asm", ".psh", ".ps", ".pso", ".cso", NULL
};

static void
add_search_path (GPtrArray   *dirs,
                 const gchar *value)
{
  gchar **parts;

  if (! value || ! value[0])
    return;
  parts = g_strsplit (value, G_SEARCHPATH_SEPARATOR_S, -1);
  for (gchar **p = parts; *p; p++)
    if ((*p)[0])
      g_ptr_array_add (dirs, g_strdup (*p));
  g_strfreev (parts);
}

GPtrArray *
gs_filter_dirs (const gchar *build_tree_dir)
{
  GPtrArray          *dirs = g_ptr_array_new_with_free_func (g_free);
  const gchar *const *sys  = g_get_system_data_dirs ();

  add_search_path (dirs, g_getenv ("GEGL_SHADERS_PATH"));
  g_ptr_array_add (dirs, g_build_filename (g_get_user_data_dir (),
                                           "gegl-shaders", "filters", NULL));
  for (gint i = 0; sys[i]; i++)
    g_ptr_array_add (dirs, g_build_filename (sys[i], "gegl-shaders",
                                             "filters", NULL));
  if (build_tree_dir)
    g_ptr_array_add (dirs, g_strdup (build_tree_dir));
  g_ptr_array_add (dirs, g_strdup (GEGL_SHADERS_FILTERSDIR));
  return dirs;
}

gchar *
gs_filter_stem (const gchar *filename)
{
  gsize length = strlen (filename);

  for (gint i = 0; shader_extensions[i]; i++)
    {
      gsize n = strlen (shader_extensions[i]);

      if (length > n && g_str_has_suffix (filename, shader_extensions[i]))
        return g_strndup (filename, length - n);
    }
  return NULL;
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const gchar *const *) a, *(const gchar *const *) b);
}

static void
filter_file_free (gpointer p)
{
  GsFilterFile *file = p;

  g_free (file->stem);
  g_free (file->path);
  g_free (file);
}

/* The shader files of one folder in byte order, as file names. */
static GPtrArray *
folder_entries (const gchar *folder)
{
  GDir        *dir = g_dir_open (folder, 0, NULL);
  GPtrArray   *names;
  const gchar *name;

  if (! dir)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)))
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (dir);
  g_ptr_array_sort (names, compare_strings);
  return names;
}

GPtrArray *
gs_filter_list (const gchar *build_tree_dir)
{
  GPtrArray  *dirs  = gs_filter_dirs (build_tree_dir);
  GPtrArray  *files = g_ptr_array_new_with_free_func (filter_file_free);
  GHashTable *stems = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint d = 0; d < dirs->len; d++)
    {
      GPtrArray *names = folder_entries (g_ptr_array_index (dirs, d));

      for (guint i = 0; names && i < names->len; i++)
        {
          gchar        *stem = gs_filter_stem (g_ptr_array_index (names, i));
          gchar        *path;
          GsFilterFile *file;

          if (! stem || g_hash_table_contains (stems, stem))
            {
              g_free (stem);
              continue;
            }
          path = g_build_filename (g_ptr_array_index (dirs, d),
                                   g_ptr_array_index (names, i), NULL);
          if (! g_file_test (path, G_FILE_TEST_IS_REGULAR))
            {
              g_free (path);
              g_free (stem);
              continue;
            }
          file = g_new (GsFilterFile, 1);
          file->stem = stem;
          file->path = path;
          g_hash_table_add (stems, file->stem);
          g_ptr_array_add (files, file);
        }
      if (names)
        g_ptr_array_unref (names);
    }

  g_hash_table_destroy (stems);
  g_ptr_array_unref (dirs);
  return files;
}

gchar *
gs_filter_find (const gchar *name,
                const gchar *build_tree_dir)
{
  GPtrArray *files;
  gchar     *stem;
  gchar     *found = NULL;

  if (! name || ! name[0] || strchr (name, G_DIR_SEPARATOR))
    return NULL;

  /* A file name picks that file, even where a same-stem file of another
   * extension comes first. */
  stem = gs_filter_stem (name);
  if (stem)
    {
      GPtrArray *dirs = gs_filter_dirs (build_tree_dir);

      for (guint d = 0; d < dirs->len && ! found; d++)
        {
          gchar *path = g_build_filename (g_ptr_array_index (dirs, d), name,
                                          NULL);

          if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
            found = path;
          else
            g_free (path);
        }
      g_ptr_array_unref (dirs);
      g_free (stem);
      if (found)
        return found;
    }

  files = gs_filter_list (build_tree_dir);
  for (guint i = 0; i < files->len && ! found; i++)
    {
      GsFilterFile *file = g_ptr_array_index (files, i);

      if (strcmp (file->stem, name) == 0)
        found = g_strdup (file->path);
    }
  g_ptr_array_unref (files);
  return found;
}
