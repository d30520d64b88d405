/* filter-path — where the hosts look for filters, and what a filter name
 * means.  See filter-path.c. */
#ifndef GS_FILTER_PATH_H
#define GS_FILTER_PATH_H

#include <glib.h>

G_BEGIN_DECLS

/* One filter file the search path offers, under its op name's stem. */
typedef struct
{
  gchar *stem;   /* "sepia-tone" for …/sepia-tone.hlsl */
  gchar *path;
} GsFilterFile;

/* The filter folders in search order: every GEGL_SHADERS_PATH entry, the
 * user's XDG data folder, each XDG system data folder (both with
 * gegl-shaders/filters appended), then the installed folder.
 * @build_tree_dir, when not NULL, goes just before the installed folder:
 * a binary run from its build tree finds the checkout's own filters.
 * Free with g_ptr_array_unref(). */
GPtrArray    *gs_filter_dirs     (const gchar *build_tree_dir);

/* The stem of a file name with a shader extension (.hlsl, .fx, .asm,
 * .psh, .ps, .pso, .cso), newly allocated; NULL for any other name. */
gchar        *gs_filter_stem     (const gchar *filename);

/* Every filter of the search path, one per stem: the first folder that
 * has a stem wins, and within a folder the first name in byte order.
 * Hidden files and non-regular files are skipped.  GsFilterFile
 * elements, freed with the array (g_ptr_array_unref()). */
GPtrArray    *gs_filter_list     (const gchar *build_tree_dir);

/* What a filter name names: the file gs_filter_list() gives for the stem
 * @name, or for a file name (stem plus extension) the first folder's file
 * of that name.  NULL when the search path has none. */
gchar        *gs_filter_find     (const gchar *name,
                                  const gchar *build_tree_dir);

G_END_DECLS

#endif
