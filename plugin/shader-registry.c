/* The registry of the per-file ops: one GEGL operation per shader file.
 *
 * At module load gs_shader_ops_register() takes the filter files of the
 * hosts' one search path (host/filter-path.c: GEGL_SHADERS_PATH, then the
 * XDG data folders, then the installed one; the first file of a stem
 * wins) and makes each an op shader:<stem>.  Effect files (techniques)
 * are handed to effect-ops.c; every other file is read and compiled once
 * into a ShaderClassData (shader-class.h): the program, the header block's
 * title, menu and licence, and the plan of pads and properties
 * (shader-props.c).  Like GEGL's JSON meta-op loader, each file becomes a
 * GType registered on the module with the ShaderClassData as class_data,
 * so class_init installs that shader's properties and keys; the module is
 * resident, so class data and code outlive any reload.
 *
 * The parent class follows the number of image inputs: a filter for one
 * sampler, a composer (input + aux) for two, a composer3 (input, aux,
 * aux2) for three or more; samplers past the third read the input.  A
 * shader that fails to compile still gets its op, which shows the
 * diagnostics in its "error" property and passes its input through.
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <gegl.h>
#include <gegl-plugin.h>

#include "shader-class.h"
#include "shader-ops.h"
#include "effect-ops.h"
#include "filter-path.h"
#include "shader-file.h"
#include "op-error.h"

/* Class data by shader path.  GEGL may unload and reload the module; the
 * types stay registered with their classes built, so a reload reuses the
 * data they were built from instead of compiling every shader again. */
static GHashTable *known_classes;

/* Diagnostics name files relative to the shader's folder (op-error.c). */
static gchar *
format_for_dialog (SlDiagnostics *diags,
                   const gchar   *path)
{
  gchar *text   = gs_format_diagnostics (diags);
  gchar *folder = g_path_get_dirname (path);
  gchar *shown  = gs_error_shorten (text, folder);

  g_free (folder);
  g_free (text);
  return shown;
}

static void
compile_file (ShaderClassData *data,
              const gchar     *contents,
              gsize            length)
{
  SlDiagnostics    *diags = sl_diagnostics_new ();
  SlCompileOptions  options;
  gchar            *dir   = g_path_get_dirname (data->path);
  const gchar      *includes[] = { dir, NULL };
  gchar            *text  = NULL;

  memset (&options, 0, sizeof options);
  options.source       = contents;
  options.length       = length;
  options.filename     = data->path;
  if (g_getenv ("GEGL_SHADERS_ALLOW_ANY_PATH"))
    options.flags |= SL_COMPILE_ANY_PATH;
  options.language     = SL_LANGUAGE_AUTO;
  options.include_dirs = includes;

  /* ReShade's size macros name a hidden host value (host-values.h). */
  text = gs_host_source (data->path, contents, length, &options.length,
                         &options.defines);
  if (text)
    options.source = text;

  data->program = sl_compile (&options, diags);
  if (! data->program && sl_diagnostics_error_count (diags) == 0)
    sl_diagnostics_add (diags, SL_SEVERITY_ERROR, data->path, 0, 0,
                        SL_CODE_HOST_COMPILE, "%s",
                        _("the shader failed to compile"));
  data->diagnostics = format_for_dialog (diags, data->path);
  sl_diagnostics_free (diags);
  g_free (text);
  g_free (dir);
}

static gchar *
header_or (SlMetadata  *md,
           const gchar *key,
           const gchar *fallback)
{
  const gchar *v = sl_metadata_get (md, key);

  return g_strdup ((v && v[0]) ? v : fallback);
}

/* GIMP hides ops in these categories from its filter lists. */
static gchar *
clean_categories (const gchar *categories)
{
  static const gchar *const blacklist[] =
  {
    "hidden", "compositors", "core", "debug", "display", "hidden",
    "input", "output", "programming", "transform", "video", NULL
  };
  gchar  **parts = g_strsplit (categories ? categories : "", ":", -1);
  GString *s     = g_string_new (NULL);

  for (gchar **p = parts; *p; p++)
    {
      g_strstrip (*p);
      if (! (*p)[0] || g_strv_contains (blacklist, *p))
        continue;
      if (s->len)
        g_string_append_c (s, ':');
      g_string_append (s, *p);
    }
  if (! s->len)
    g_string_append (s, "shaders");
  g_strfreev (parts);
  return g_string_free (s, FALSE);
}

static ShaderClassData *
load_shader (const gchar *path,
             const gchar *stem)
{
  ShaderClassData *data = g_new0 (ShaderClassData, 1);
  gchar           *contents = NULL;
  gsize            length   = 0;
  GError          *error    = NULL;
  SlMetadata      *md;
  GString         *type_name;
  gchar           *label;

  data->path    = g_strdup (path);
  data->op_name = g_strconcat ("shader:", stem, NULL);

  type_name = g_string_new ("GeglShaderOp_");
  for (const gchar *p = stem; *p; p++)
    g_string_append_c (type_name, g_ascii_isalnum (*p) ? *p : '_');
  data->type_name = g_string_free (type_name, FALSE);

  if (! gs_shader_file_read (path, &contents, &length, &error))
    {
      SlDiagnostics *diags = sl_diagnostics_new ();

      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, path, 0, 0,
                          SL_CODE_HOST_IO, "%s", error->message);
      data->diagnostics = format_for_dialog (diags, path);
      sl_diagnostics_free (diags);
      g_clear_error (&error);
    }
  else
    compile_file (data, contents, length);

  md = sl_metadata_parse (contents, length);
  data->title       = header_or (md, "title", stem);
  data->description = header_or (md, "description", "");
  if (sl_metadata_get (md, "author"))
    {
      gchar *d = g_strdup_printf ("%s%s(%s)", data->description,
                                  data->description[0] ? " " : "",
                                  sl_metadata_get (md, "author"));

      g_free (data->description);
      data->description = d;
    }
  data->categories  = clean_categories (sl_metadata_get (md, "categories"));
  data->menu_path   = header_or (md, "menu", "<Image>/Filters/Shaders");
  label             = g_strconcat (data->title, "...", NULL);
  data->menu_label  = header_or (md, "label", label);
  data->license     = header_or (md, "license", "");
  data->gpl         = strstr (data->license, "GPL") &&
                      ! strstr (data->license, "LGPL");
  data->linear      = sl_metadata_get (md, "colorspace") &&
                      gs_ascii_contains_ci (sl_metadata_get (md, "colorspace"),
                                         "linear");
  g_free (label);

  /* Planning reads the texture annotations, class_init the doc comments
   * for labels and ranges. */
  data->metadata = md;
  gs_shader_plan (data);
  g_free (contents);
  return data;
}

static void
shader_class_init (gpointer klass,
                   gpointer class_data)
{
  ShaderClassData    *data            = class_data;
  GObjectClass       *object_class    = G_OBJECT_CLASS (klass);
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (klass);

  gs_shader_op_class_init (object_class, data);
  gs_shader_install_properties (object_class, data);

  gegl_operation_class_set_keys (operation_class,
    "name",            data->op_name,
    "title",           gs_shader_tr (data->title),
    "categories",      data->categories,
    "description",     gs_shader_tr (data->description),
    "shader-license",  data->license,
    /* GEGL hides ops whose "license" it does not know; only GPL ones
     * need the key, so that non-GPL applications do not show them. */
    "license",         data->gpl ? "GPL3+" : NULL,
    "gimp:menu-path",  data->menu_path,
    "gimp:menu-label", gs_shader_tr (data->menu_label),
    "source",          data->path,
    NULL);
}

guint
gs_shader_ops_register (GTypeModule *module)
{
  GPtrArray *files = gs_filter_list (NULL);
  guint      count = 0;

  for (guint i = 0; i < files->len; i++)
    {
      GsFilterFile    *file = g_ptr_array_index (files, i);
      ShaderClassData *data;
      GType            parent, type;
      GTypeQuery       query;
      GTypeInfo        info = { 0 };

      /* shader:run is the generic op. */
      if (strcmp (file->stem, "run") == 0)
        continue;
      /* Effect files (techniques) register their own ops. */
      if (gs_effect_ops_claim (module, file->path, file->stem))
        continue;

      data = known_classes ? g_hash_table_lookup (known_classes, file->path)
                           : NULL;
      if (! data)
        {
          data = load_shader (file->path, file->stem);
          if (! known_classes)
            known_classes = g_hash_table_new (g_str_hash, g_str_equal);
          g_hash_table_insert (known_classes, data->path, data);
        }

      parent = data->n_pads >= 3 ? GEGL_TYPE_OPERATION_COMPOSER3
             : data->n_pads == 2 ? GEGL_TYPE_OPERATION_COMPOSER
             : GEGL_TYPE_OPERATION_FILTER;
      g_type_query (parent, &query);
      info.class_size    = query.class_size;
      info.class_init    = shader_class_init;
      info.class_data    = data;
      info.instance_size = query.instance_size;
      info.instance_init = gs_shader_op_instance_init;

      type = g_type_module_register_type (module, parent, data->type_name,
                                          &info, 0);
      if (type)
        {
          g_type_set_qdata (type, gs_shader_op_quark (), data);
          count++;
        }
    }

  g_ptr_array_unref (files);
  return count;
}
