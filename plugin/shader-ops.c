/* shader:<stem> — one GEGL operation per shader file.
 *
 * Design.  At module load, gs_shader_ops_register() takes the filter files
 * of the hosts' one search path (host/filter-path.c: GEGL_SHADERS_PATH,
 * then the XDG data folders, then the installed one; the first file of a
 * stem wins), reads and compiles every shader file and turns it into a
 * ShaderClassData: the compiled program, its metadata and
 * one PropDesc per shader parameter.  Like GEGL's JSON meta-op loader, each
 * file becomes a GType registered on the module with the ShaderClassData
 * as class_data, so class_init installs that shader's properties and keys;
 * the module is resident, so class data and code outlive any reload.
 *
 * The parent class follows the number of image inputs: a filter for one
 * sampler, a composer (input + aux) for two, a composer3 (input, aux,
 * aux2) for three or more; samplers past the third read the input.
 *
 * Instances keep their property values in a GValue array and a cached
 * draw per mip level (draw.c: a prepared SlBinding for one set of
 * constants, one viewport and one mip level), rebuilt when either changed
 * and shared by reference with process(), exactly as shader:run does.
 * process() hands the rendering to GEGL's worker threads (render-area.c):
 * each reads the rows it renders plus the sampling reach, or all of them
 * share one read of the whole input when sampling is data dependent; the
 * VM writes each pixel from its own inputs only, so the output does not
 * depend on tiling, chunk order or thread count.
 *
 * Mip levels: at level L GEGL hands rectangles in level-0 coordinates and
 * buffers whose level-L tiles hold the image scaled by 1/2^L; the op then
 * renders a viewport scaled the same way, so TEXCOORD0 still spans the
 * image, while the size host values (IMAGESIZE, PIXELSIZE, BUFFER_WIDTH…)
 * keep the full-resolution values: the level-L output then approximates
 * the level-0 output scaled down.  VPOS counts the pixels actually
 * rendered, so a shader keyed to pixel positions changes with the level.
 *
 * A shader that fails to compile still gets its op: it has the "error"
 * property (holding the diagnostics) and passes the input through; the
 * first prepare() of such an op logs one warning for the class.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gegl.h>
#include <gegl-plugin.h>
#include <gegl-paramspecs.h>

#include "shaderlib.h"
#include "shader-ops.h"
#include "effect-ops.h"
#include "draw.h"
#include "filter-path.h"
#include "image-io.h"
#include "pixel-fetch.h"
#include "shader-file.h"

#define MAX_PADS GS_MAX_PADS
#define MAX_FILE_TEXTURES 8
#define N_LEVELS GS_N_LEVELS

typedef enum
{
  PROP_KIND_DOUBLE,
  PROP_KIND_INT,
  PROP_KIND_BOOL,
  PROP_KIND_VEC,       /* float2: two doubles, -x and -y */
  PROP_KIND_COLOR,
  PROP_KIND_CHOICE,
  PROP_KIND_SEED
} PropKind;

typedef enum
{
  HOST_NONE,
  HOST_SIZE,           /* image size in pixels */
  HOST_PIXEL_SIZE,     /* 1 / image size */
  HOST_SEED
} HostKind;

typedef enum
{
  VEC_PLAIN,
  VEC_POSITION,        /* pixels ↔ texcoord: x / width */
  VEC_DISTANCE         /* pixels ↔ texcoord scale */
} VecUnit;

typedef struct
{
  gchar    *param;        /* name in the shader */
  PropKind  kind;
  VecUnit   unit;
  gint      n_components; /* of the shader parameter */
  guint     prop_id;      /* first property */
  guint     n_props;      /* 2 for VEC */
} PropDesc;

typedef struct
{
  gchar     *param;
  HostKind   kind;
} HostDesc;

/* A sampler whose texture names an image file: a file-path property
 * instead of a pad. */
typedef struct
{
  gint       slot;
  gchar     *texture;       /* the texture's name in the shader */
  gchar     *default_path;  /* the file next to the shader */
  guint      prop_id;
} FileTexture;

/* A loaded texture image, shared by the draws that sample it. */
typedef struct
{
  gchar      *path;
  gint64      mtime;
  const Babl *format;
  GsImage    *image;
  SlTexture   texture;
} Image;

typedef struct
{
  gchar       *op_name;
  gchar       *type_name;
  gchar       *path;
  gchar       *title;
  gchar       *description;
  gchar       *categories;
  gchar       *menu_path;
  gchar       *menu_label;
  gchar       *license;
  gboolean     linear;
  gboolean     gpl;          /* GPL (not LGPL) licence */
  SlMetadata  *metadata;
  SlProgram   *program;      /* NULL when the shader does not compile */
  gchar       *diagnostics;  /* formatted, "" when clean */
  gint         n_pads;       /* image inputs: 1..3 */
  gint         pad_slot[MAX_PADS];
  GArray      *props;        /* PropDesc */
  GArray      *hosts;        /* HostDesc */
  guint        n_props;      /* installed property ids 1..n_props */
  guint        prop_error;
  guint        prop_linear;
  guint        prop_seed;    /* 0 when none */
  GArray      *file_textures; /* FileTexture */
  gint         warned;       /* atomic: failure reported once */
} ShaderClassData;

static GQuark instance_quark;

/* Class data by shader path.  GEGL may unload and reload the module; the
 * types stay registered with their classes built, so a reload reuses the
 * data they were built from instead of compiling every shader again. */
static GHashTable *known_classes;

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static ShaderClassData *
class_data_of (gpointer operation)
{
  return g_type_get_qdata (G_OBJECT_TYPE (operation), instance_quark);
}

typedef struct Instance Instance;

static Instance *
instance_of (gpointer operation)
{
  return g_object_get_qdata (G_OBJECT (operation), instance_quark);
}

static gboolean
ascii_contains_ci (const gchar *haystack,
                   const gchar *needle)
{
  gchar   *h = g_ascii_strdown (haystack, -1);
  gboolean r = strstr (h, needle) != NULL;

  g_free (h);
  return r;
}

/* Property names: lower case, '-' for '_', a letter first. */
static gchar *
property_name (const gchar *param,
               GHashTable  *taken)
{
  GString *s = g_string_new (NULL);
  gchar   *base;
  gint     n = 2;

  for (const gchar *p = param; *p; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (s, g_ascii_tolower (*p));
      else if (s->len > 0 && s->str[s->len - 1] != '-')
        g_string_append_c (s, '-');
    }
  while (s->len > 0 && s->str[s->len - 1] == '-')
    g_string_truncate (s, s->len - 1);
  if (s->len == 0 || ! g_ascii_isalpha (s->str[0]))
    g_string_prepend (s, "p-");
  base = g_string_free (s, FALSE);

  if (g_hash_table_contains (taken, base))
    {
      gchar *name;

      do
        name = g_strdup_printf ("%s-%d", base, n++);
      while (g_hash_table_contains (taken, name));
      g_free (base);
      base = name;
    }
  g_hash_table_add (taken, g_strdup (base));
  return base;
}

/* ------------------------------------------------------------------ */
/* Reading a shader file                                               */
/* ------------------------------------------------------------------ */

static HostKind
host_kind (const SlParam *param)
{
  const gchar *sem = param->semantic;
  gint         n   = param->rows * param->columns;

  if (sem)
    {
      if (! g_ascii_strcasecmp (sem, "VIEWPORTPIXELSIZE") ||
          ! g_ascii_strcasecmp (sem, "IMAGESIZE"))
        return HOST_SIZE;
      if (! g_ascii_strcasecmp (sem, "PIXELSIZE") ||
          ! g_ascii_strcasecmp (sem, "INVVIEWPORTSIZE"))
        return HOST_PIXEL_SIZE;
      if (! g_ascii_strcasecmp (sem, "SEED") ||
          ! g_ascii_strcasecmp (sem, "RANDOM"))
        return HOST_SEED;
    }
  if (n == 2 && (! g_ascii_strcasecmp (param->name, "ImageSize") ||
                 ! strcmp (param->name, "BUFFER_SIZE") ||
                 ! strcmp (param->name, "gs_host_size")))
    return HOST_SIZE;
  if (n == 2 && ! g_ascii_strcasecmp (param->name, "PixelSize"))
    return HOST_PIXEL_SIZE;
  if (n == 1 && ! g_ascii_strcasecmp (param->name, "seed"))
    return HOST_SEED;
  return HOST_NONE;
}

static gboolean
wants_color (const SlParam *param)
{
  const gchar *widget = gs_annotation_string (param, "UIWidget");
  const gchar *type   = gs_annotation_string (param, "ui_type");
  gint         n      = param->rows * param->columns;

  if (param->type != SL_SCALAR_FLOAT || param->rows != 1 ||
      param->array_size > 0 || (n != 3 && n != 4))
    return FALSE;
  if ((widget && ascii_contains_ci (widget, "color")) ||
      (type && ascii_contains_ci (type, "color")))
    return TRUE;
  if (param->semantic && (ascii_contains_ci (param->semantic, "color") ||
                          ascii_contains_ci (param->semantic, "diffuse")))
    return TRUE;
  return ascii_contains_ci (param->name, "color") ||
         ascii_contains_ci (param->name, "colour") ||
         ascii_contains_ci (param->name, "tint");
}

static VecUnit
vec_unit (const SlParam *param)
{
  const gchar *widget = gs_annotation_string (param, "UIWidget");
  const gchar *type   = gs_annotation_string (param, "ui_type");
  const gchar *hint   = widget ? widget : type;

  if (hint)
    {
      if (ascii_contains_ci (hint, "position") ||
          ascii_contains_ci (hint, "point"))
        return VEC_POSITION;
      if (ascii_contains_ci (hint, "size") ||
          ascii_contains_ci (hint, "distance"))
        return VEC_DISTANCE;
      return VEC_PLAIN;
    }
  if (ascii_contains_ci (param->name, "center") ||
      ascii_contains_ci (param->name, "centre") ||
      ascii_contains_ci (param->name, "position") ||
      ascii_contains_ci (param->name, "pos"))
    return VEC_POSITION;
  if (ascii_contains_ci (param->name, "size") ||
      ascii_contains_ci (param->name, "radius"))
    return VEC_DISTANCE;
  return VEC_PLAIN;
}

static gint
sampler_slot_compare (gconstpointer a,
                      gconstpointer b)
{
  return *(const gint *) a - *(const gint *) b;
}

/* ReShade's size macros name a hidden uniform the plugin fills in; the
 * declaration goes in front of the file and a #line puts the file's own
 * lines back where they were. */
static const gchar *const reshade_defines[] =
{
  "BUFFER_WIDTH=(gs_host_size.x)",
  "BUFFER_HEIGHT=(gs_host_size.y)",
  "BUFFER_RCP_WIDTH=(1.0/gs_host_size.x)",
  "BUFFER_RCP_HEIGHT=(1.0/gs_host_size.y)",
  NULL
};

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
  SlLanguage        language = sl_detect_language (contents, length);

  memset (&options, 0, sizeof options);
  options.source       = contents;
  options.length       = length;
  options.filename     = data->path;
  options.language     = SL_LANGUAGE_AUTO;
  options.include_dirs = includes;

  if (language == SL_LANGUAGE_HLSL &&
      g_strstr_len (contents, length, "BUFFER_") != NULL)
    {
      gchar *quoted = g_strescape (data->path, NULL);

      text = g_strdup_printf ("float2 gs_host_size;\n#line 1 \"%s\"\n%.*s",
                              quoted, (int) length, contents);
      g_free (quoted);
      options.source  = text;
      options.length  = strlen (text);
      options.defines = reshade_defines;
    }

  data->program = sl_compile (&options, diags);
  if (! data->program && sl_diagnostics_error_count (diags) == 0)
    sl_diagnostics_add (diags, SL_SEVERITY_ERROR, data->path, 0, 0, "",
                        "%s", _("the shader failed to compile"));
  data->diagnostics = gs_format_diagnostics (diags);
  sl_diagnostics_free (diags);
  g_free (text);
  g_free (dir);
}

static void
plan_inputs (ShaderClassData *data)
{
  gint slots[SL_MAX_SLOTS];
  gint n = 0;

  data->n_pads = 1;
  for (gint i = 0; i < MAX_PADS; i++)
    data->pad_slot[i] = -1;
  data->file_textures = g_array_new (FALSE, TRUE, sizeof (FileTexture));
  if (! data->program)
    return;

  for (gint i = 0; i < sl_program_get_n_samplers (data->program); i++)
    {
      const SlSamplerInfo *info = sl_program_get_sampler (data->program, i);
      gboolean             seen = FALSE;
      const gchar         *texture = NULL;
      const gchar         *file;

      if (! info || info->slot < 0 || info->slot >= SL_MAX_SLOTS)
        continue;
      file = sl_metadata_texture_file (data->metadata, info->name, &texture);
      if (file && data->file_textures->len < MAX_FILE_TEXTURES)
        {
          FileTexture ft = { info->slot, g_strdup (texture), NULL, 0 };
          gboolean    dup = FALSE;

          for (guint j = 0; j < data->file_textures->len; j++)
            dup |= g_array_index (data->file_textures, FileTexture, j).slot
                   == info->slot;
          if (dup)
            {
              g_free (ft.texture);
              continue;
            }
          if (g_path_is_absolute (file))
            ft.default_path = g_strdup (file);
          else
            {
              gchar *dir = g_path_get_dirname (data->path);

              ft.default_path = g_build_filename (dir, file, NULL);
              g_free (dir);
            }
          g_array_append_val (data->file_textures, ft);
          continue;
        }
      for (gint j = 0; j < n; j++)
        seen |= slots[j] == info->slot;
      if (! seen)
        slots[n++] = info->slot;
    }
  qsort (slots, (gsize) n, sizeof (gint), sampler_slot_compare);
  for (gint i = 0; i < n && i < MAX_PADS; i++)
    data->pad_slot[i] = slots[i];
  data->n_pads = CLAMP (n, 1, MAX_PADS);
}

static void
plan_properties (ShaderClassData *data)
{
  guint id = 1;

  data->props = g_array_new (FALSE, TRUE, sizeof (PropDesc));
  data->hosts = g_array_new (FALSE, TRUE, sizeof (HostDesc));
  data->prop_error  = id++;
  data->prop_linear = id++;
  for (guint i = 0; i < data->file_textures->len; i++)
    g_array_index (data->file_textures, FileTexture, i).prop_id = id++;

  for (gint i = 0; data->program &&
                   i < sl_program_get_n_params (data->program); i++)
    {
      const SlParam *param = sl_program_get_param (data->program, i);
      HostKind       host  = host_kind (param);
      PropDesc       desc  = { 0 };
      gint           n     = param->rows * param->columns;

      if (host != HOST_NONE)
        {
          HostDesc h = { g_strdup (param->name), host };

          g_array_append_val (data->hosts, h);
          if (host == HOST_SEED && ! data->prop_seed)
            data->prop_seed = id++;
          continue;
        }
      /* Matrices and arrays have no sensible slider; they keep the
       * shader's defaults. */
      if (param->array_size > 0 || param->rows != 1 || n > 4)
        continue;

      desc.param        = g_strdup (param->name);
      desc.n_components = n;
      desc.n_props      = 1;
      if (wants_color (param))
        desc.kind = PROP_KIND_COLOR;
      else if (param->type == SL_SCALAR_BOOL && n == 1)
        desc.kind = PROP_KIND_BOOL;
      else if ((param->type == SL_SCALAR_INT ||
                param->type == SL_SCALAR_UINT) && n == 1)
        desc.kind = gs_annotation_string (param, "ui_items")
                    ? PROP_KIND_CHOICE : PROP_KIND_INT;
      else if (param->type == SL_SCALAR_FLOAT && n == 1)
        desc.kind = PROP_KIND_DOUBLE;
      else if (param->type == SL_SCALAR_FLOAT && n == 2)
        {
          desc.kind    = PROP_KIND_VEC;
          desc.unit    = vec_unit (param);
          desc.n_props = 2;
        }
      else
        {
          g_free (desc.param);
          continue;
        }
      desc.prop_id = id;
      id += desc.n_props;
      g_array_append_val (data->props, desc);
    }

  data->n_props = id - 1;
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

      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, path, 0, 0, "E-IO",
                          "%s", error->message);
      data->diagnostics = gs_format_diagnostics (diags);
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
                      ascii_contains_ci (sl_metadata_get (md, "colorspace"),
                                         "linear");
  g_free (label);

  /* Planning reads the texture annotations, class_init the doc comments
   * for labels and ranges. */
  data->metadata = md;
  plan_inputs (data);
  plan_properties (data);
  g_free (contents);
  return data;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */
/* ------------------------------------------------------------------ */

static const gchar *
tr (const gchar *text)
{
  return (text && text[0]) ? g_dgettext (GETTEXT_PACKAGE, text) : text;
}

typedef struct
{
  const gchar *label;
  const gchar *blurb;
  gboolean     has_min, has_max, has_step;
  gdouble      min, max, step;
  gint         n_default;
  gdouble      def[16];
} ParamUi;

/* Merges the dialects; later ones override earlier ones. */
static void
param_ui (ShaderClassData *data,
          const SlParam   *param,
          ParamUi         *ui)
{
  const SlParamDoc *doc = sl_metadata_find_param (data->metadata,
                                                  param->name);
  const gchar      *s;
  gdouble           v;
  gint              n = param->rows * param->columns;

  memset (ui, 0, sizeof *ui);
  ui->label = param->name;

  if (param->default_value)
    {
      ui->n_default = MIN (n, 16);
      for (gint i = 0; i < ui->n_default; i++)
        ui->def[i] = param->default_value[i];
    }
  if (doc)
    {
      if (doc->label)
        ui->label = doc->label;
      if (doc->summary)
        ui->blurb = doc->summary;
      if (doc->has_min)
        ui->has_min = TRUE, ui->min = doc->min;
      if (doc->has_max)
        ui->has_max = TRUE, ui->max = doc->max;
      if (doc->has_step)
        ui->has_step = TRUE, ui->step = doc->step;
      if (doc->n_default > 0)
        {
          ui->n_default = MIN (doc->n_default, 16);
          memcpy (ui->def, doc->default_value, sizeof (gdouble) * ui->n_default);
        }
    }

  if ((s = gs_annotation_string (param, "UIName")))
    ui->label = s;
  if ((s = gs_annotation_string (param, "UIHelp")) ||
      (s = gs_annotation_string (param, "UIDescription")))
    ui->blurb = s;
  if (gs_annotation_number (param, "UIMin", &v))
    ui->has_min = TRUE, ui->min = v;
  if (gs_annotation_number (param, "UIMax", &v))
    ui->has_max = TRUE, ui->max = v;
  if (gs_annotation_number (param, "UIStep", &v) && v > 0)
    ui->has_step = TRUE, ui->step = v;

  if ((s = gs_annotation_string (param, "ui_label")))
    ui->label = s;
  if ((s = gs_annotation_string (param, "ui_tooltip")))
    ui->blurb = s;
  if (gs_annotation_number (param, "ui_min", &v))
    ui->has_min = TRUE, ui->min = v;
  if (gs_annotation_number (param, "ui_max", &v))
    ui->has_max = TRUE, ui->max = v;
  if (gs_annotation_number (param, "ui_step", &v) && v > 0)
    ui->has_step = TRUE, ui->step = v;

  if (ui->has_min && ui->has_max && ui->min > ui->max)
    ui->has_min = ui->has_max = FALSE;
}

static gint
digits_for (const ParamUi *ui)
{
  if (ui->has_step && ui->step > 0)
    return CLAMP ((gint) ceil (-log10 (ui->step) - 1e-9), 0, 6);
  return 3;
}

static GParamSpec *
double_spec (const gchar   *name,
             const gchar   *label,
             const ParamUi *ui,
             gdouble        def,
             GParamFlags    flags)
{
  gdouble     lo = ui->has_min ? ui->min : -1e6;
  gdouble     hi = ui->has_max ? ui->max : 1e6;
  gdouble     ui_lo = ui->has_min ? ui->min : MIN (0.0, def);
  gdouble     ui_hi = ui->has_max ? ui->max : MAX (1.0, def > 0 ? 2 * def : 1.0);
  GParamSpec *pspec;

  def   = CLAMP (def, lo, hi);
  pspec = gegl_param_spec_double (name, tr (label), tr (ui->blurb), lo, hi,
                                  def, ui_lo, ui_hi, 1.0, flags);
  if (ui->has_step)
    gegl_param_spec_double_set_steps (GEGL_PARAM_SPEC_DOUBLE (pspec),
                                      ui->step, ui->step * 10);
  else
    gegl_param_spec_double_set_steps (GEGL_PARAM_SPEC_DOUBLE (pspec),
                                      (ui_hi - ui_lo) / 100,
                                      (ui_hi - ui_lo) / 10);
  gegl_param_spec_double_set_digits (GEGL_PARAM_SPEC_DOUBLE (pspec),
                                     digits_for (ui));
  return pspec;
}

/* ui_items = "A\0B\0C\0" arrives with the escapes unexpanded. */
static GType
choice_type (ShaderClassData *data,
             const PropDesc  *desc,
             const gchar     *items)
{
  gchar      *name = g_strdup_printf ("%s_%s", data->type_name, desc->param);
  GType       type = g_type_from_name (name);
  gchar     **parts;
  GEnumValue *values;
  guint       n = 0;

  if (type)
    {
      g_free (name);
      return type;
    }
  parts  = g_strsplit (items, "\\0", -1);
  values = g_new0 (GEnumValue, g_strv_length (parts) + 1);
  for (guint i = 0; parts[i]; i++)
    {
      GString *nick;

      if (! parts[i][0])
        continue;
      nick = g_string_new (NULL);
      for (const gchar *p = parts[i]; *p; p++)
        if (g_ascii_isalnum (*p))
          g_string_append_c (nick, g_ascii_tolower (*p));
        else if (nick->len && nick->str[nick->len - 1] != '-')
          g_string_append_c (nick, '-');
      if (! nick->len)
        g_string_printf (nick, "item-%u", i);
      values[n].value      = (gint) i;
      values[n].value_name = g_strdup (parts[i]);
      values[n].value_nick = g_string_free (nick, FALSE);
      n++;
    }
  g_strfreev (parts);
  /* The module is resident: the type and its value table live on. */
  type = g_enum_register_static (name, values);
  g_free (name);
  return type;
}

static void
install_properties (GObjectClass    *object_class,
                    ShaderClassData *data)
{
  GParamFlags  flags = G_PARAM_READWRITE | GEGL_PARAM_PAD_INPUT;
  GHashTable  *taken = g_hash_table_new_full (g_str_hash, g_str_equal,
                                              g_free, NULL);
  GParamSpec  *pspec;

  static const gchar *const reserved[] =
  { "error", "linear", "seed", "input", "aux", "aux2", "output", "name" };

  for (guint i = 0; i < G_N_ELEMENTS (reserved); i++)
    g_hash_table_add (taken, g_strdup (reserved[i]));

  pspec = g_param_spec_string ("error", _("Errors"),
                               _("Diagnostics of the shader's compilation; "
                                 "empty when it compiled"),
                               data->diagnostics, flags);
  gegl_param_spec_set_property_key (pspec, "error", "true");
  g_object_class_install_property (object_class, data->prop_error, pspec);

  pspec = g_param_spec_boolean ("linear", _("Linear light"),
                                _("Give the shader linear RGBA instead of "
                                  "perceptual R'G'B'A"),
                                data->linear, flags);
  g_object_class_install_property (object_class, data->prop_linear, pspec);

  for (guint i = 0; i < data->file_textures->len; i++)
    {
      FileTexture *ft    = &g_array_index (data->file_textures, FileTexture, i);
      gchar       *name  = property_name (ft->texture, taken);
      gchar       *blurb = g_strdup_printf (_("Image file the shader reads as "
                                              "texture '%s'"), ft->texture);

      pspec = gegl_param_spec_file_path (name, ft->texture, blurb, FALSE,
                                         FALSE, ft->default_path, flags);
      g_object_class_install_property (object_class, ft->prop_id, pspec);
      g_free (blurb);
      g_free (name);
    }

  if (data->prop_seed)
    {
      pspec = gegl_param_spec_seed ("seed", _("Random seed"),
                                    _("Seed handed to the shader"), flags);
      g_object_class_install_property (object_class, data->prop_seed, pspec);
    }

  for (guint i = 0; i < data->props->len; i++)
    {
      PropDesc      *desc  = &g_array_index (data->props, PropDesc, i);
      const SlParam *param = sl_program_find_param (data->program,
                                                    desc->param);
      ParamUi        ui;
      gchar         *name  = property_name (desc->param, taken);

      param_ui (data, param, &ui);

      switch (desc->kind)
        {
        case PROP_KIND_DOUBLE:
          pspec = double_spec (name, ui.label, &ui,
                               ui.n_default ? ui.def[0] : 0.0, flags);
          break;

        case PROP_KIND_INT:
          {
            gint lo  = ui.has_min ? (gint) ui.min : -1000000;
            gint hi  = ui.has_max ? (gint) ui.max : 1000000;
            gint def = CLAMP (ui.n_default ? (gint) ui.def[0] : 0, lo, hi);

            pspec = gegl_param_spec_int (name, tr (ui.label), tr (ui.blurb),
                                         lo, hi, def,
                                         ui.has_min ? lo : MIN (0, def),
                                         ui.has_max ? hi : MAX (10, 2 * def),
                                         1.0, flags);
            gegl_param_spec_int_set_steps (GEGL_PARAM_SPEC_INT (pspec),
                                           ui.has_step ? MAX (1, (gint) ui.step) : 1,
                                           ui.has_step ? MAX (1, (gint) ui.step) * 10 : 5);
          }
          break;

        case PROP_KIND_BOOL:
          pspec = g_param_spec_boolean (name, tr (ui.label), tr (ui.blurb),
                                        ui.n_default && ui.def[0] != 0,
                                        flags);
          break;

        case PROP_KIND_CHOICE:
          {
            GType       type = choice_type (data, desc,
                                            gs_annotation_string (param, "ui_items"));
            GEnumClass *klass = g_type_class_ref (type);
            gint        def   = ui.n_default ? (gint) ui.def[0] : 0;

            if (! g_enum_get_value (klass, def))
              def = klass->n_values ? klass->values[0].value : 0;
            pspec = gegl_param_spec_enum (name, tr (ui.label), tr (ui.blurb),
                                          type, def, flags);
            g_type_class_unref (klass);
          }
          break;

        case PROP_KIND_COLOR:
          {
            /* Shader defaults are in the working space; GEGL's colour
             * strings would be read as linear. */
            GeglColor *def   = gegl_color_new (NULL);
            gfloat     px[4] = { 0, 0, 0, 1 };

            for (gint c = 0; c < 4 && c < ui.n_default; c++)
              px[c] = (gfloat) ui.def[c];
            gegl_color_set_pixel (def, babl_format (data->linear
                                                    ? "RGBA float"
                                                    : "R'G'B'A float"), px);
            pspec = gegl_param_spec_color (name, tr (ui.label),
                                           tr (ui.blurb), def, flags);
            g_object_unref (def);
          }
          break;

        case PROP_KIND_VEC:
          {
            static const gchar *const axes[] = { "x", "y" };

            for (guint c = 0; c < 2; c++)
              {
                gchar *cname  = g_strdup_printf ("%s-%s", name, axes[c]);
                gchar *clabel = g_strdup_printf ("%s %s", tr (ui.label),
                                                 c ? "Y" : "X");
                ParamUi cu = ui;

                /* Positions and sizes stay in the shader's normalised
                 * units; GIMP scales "relative" units to the image. */
                if (desc->unit != VEC_PLAIN && ! cu.has_min)
                  cu.has_min = TRUE, cu.min = desc->unit == VEC_POSITION ? -10 : 0;
                if (desc->unit != VEC_PLAIN && ! cu.has_max)
                  cu.has_max = TRUE, cu.max = 10;
                pspec = double_spec (cname, clabel, &cu,
                                     ui.n_default > (gint) c ? ui.def[c]
                                     : ui.n_default ? ui.def[0] : 0.0,
                                     flags);
                if (desc->unit != VEC_PLAIN)
                  {
                    GeglParamSpecDouble *d = GEGL_PARAM_SPEC_DOUBLE (pspec);

                    d->ui_minimum = 0.0;
                    d->ui_maximum = 1.0;
                    gegl_param_spec_set_property_key (pspec, "unit",
                      desc->unit == VEC_POSITION ? "relative-coordinate"
                                                 : "relative-distance");
                    gegl_param_spec_set_property_key (pspec, "axis", axes[c]);
                  }
                g_object_class_install_property (object_class,
                                                 desc->prop_id + c, pspec);
                g_free (cname);
                g_free (clabel);
              }
            pspec = NULL;
          }
          break;

        default:
          pspec = NULL;
          break;
        }

      if (pspec)
        g_object_class_install_property (object_class, desc->prop_id, pspec);
      g_free (name);
    }

  g_hash_table_destroy (taken);
}

/* ------------------------------------------------------------------ */
/* Instances                                                           */
/* ------------------------------------------------------------------ */

static void
image_clear (gpointer p)
{
  Image *image = p;

  g_free (image->path);
  gs_image_free (image->image);
}

static void
image_unref (Image *image)
{
  g_atomic_rc_box_release_full (image, image_clear);
}

struct Instance
{
  GMutex      mutex;
  GValue     *values;       /* [n_values = n_props + 1], index = property id */
  guint       n_values;
  GByteArray *key;          /* what the cached draws were built for */
  GsDraw     *draws[N_LEVELS];
  gchar      *warned_for;   /* last runtime failure reported */
  Image      *images[MAX_FILE_TEXTURES];  /* last loaded, for reuse */
};

static void
instance_free (gpointer p)
{
  Instance *inst = p;

  for (gint i = 0; i < N_LEVELS; i++)
    g_clear_pointer (&inst->draws[i], gs_draw_unref);
  for (gint i = 0; i < MAX_FILE_TEXTURES; i++)
    g_clear_pointer (&inst->images[i], image_unref);
  if (inst->key)
    g_byte_array_unref (inst->key);
  for (guint i = 0; i < inst->n_values; i++)
    if (G_IS_VALUE (&inst->values[i]))
      g_value_unset (&inst->values[i]);
  g_free (inst->values);
  g_free (inst->warned_for);
  g_mutex_clear (&inst->mutex);
  g_free (inst);
}

static void
shader_instance_init (GTypeInstance *instance,
                      gpointer       g_class)
{
  ShaderClassData *data = g_type_get_qdata (G_TYPE_FROM_CLASS (g_class),
                                            instance_quark);
  Instance        *inst = g_new0 (Instance, 1);

  g_mutex_init (&inst->mutex);
  inst->n_values = data->n_props + 1;
  inst->values   = g_new0 (GValue, inst->n_values);
  g_object_set_qdata_full (G_OBJECT (instance), instance_quark, inst,
                           instance_free);
}

static GParamSpec *
pspec_by_id (GObject *object,
             guint    id)
{
  guint        n;
  GParamSpec **specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  GParamSpec  *found = NULL;

  for (guint i = 0; i < n && ! found; i++)
    if (specs[i]->param_id == id &&
        specs[i]->owner_type == G_OBJECT_TYPE (object))
      found = specs[i];
  g_free (specs);
  return found;
}

/* Values live in a lazily filled array so that unset properties read as
 * their spec's default. */
static GValue *
value_of (GObject *object,
          guint    id)
{
  ShaderClassData *data = class_data_of (object);
  Instance        *inst = instance_of (object);
  GValue          *v;

  if (! inst || id == 0 || id > data->n_props)
    return NULL;
  v = &inst->values[id];
  if (! G_IS_VALUE (v))
    {
      GParamSpec *pspec = pspec_by_id (object, id);

      if (! pspec)
        return NULL;
      g_value_init (v, G_PARAM_SPEC_VALUE_TYPE (pspec));
      g_param_value_set_default (pspec, v);
    }
  return v;
}

static void
shader_set_property (GObject      *object,
                     guint         id,
                     const GValue *value,
                     GParamSpec   *pspec)
{
  Instance *inst = instance_of (object);
  GValue   *v;

  g_mutex_lock (&inst->mutex);
  v = value_of (object, id);
  if (v)
    g_value_copy (value, v);
  g_mutex_unlock (&inst->mutex);
}

static void
shader_get_property (GObject    *object,
                     guint       id,
                     GValue     *value,
                     GParamSpec *pspec)
{
  Instance *inst = instance_of (object);
  GValue   *v;

  g_mutex_lock (&inst->mutex);
  v = value_of (object, id);
  if (v)
    g_value_copy (v, value);
  g_mutex_unlock (&inst->mutex);
}

static void
shader_finalize (GObject *object)
{
  GObjectClass *parent = g_type_class_peek_parent (G_OBJECT_GET_CLASS (object));

  parent->finalize (object);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                             */
/* ------------------------------------------------------------------ */

static const gchar *
pad_name (gint pad)
{
  static const gchar *const names[MAX_PADS] = { "input", "aux", "aux2" };

  return names[pad];
}

/* The constant values of the current properties, as the shader reads
 * them.  Also the cache key, with the extents and format appended. */
typedef struct
{
  gchar  *name;
  gint    n;
  gfloat  v[4];
} Const;

static GArray *
current_constants (GeglOperation *operation,
                   const Babl    *format)
{
  ShaderClassData *data = class_data_of (operation);
  Instance        *inst = instance_of (operation);
  GArray          *out  = g_array_new (FALSE, TRUE, sizeof (Const));

  g_mutex_lock (&inst->mutex);
  for (guint i = 0; i < data->props->len; i++)
    {
      PropDesc *desc = &g_array_index (data->props, PropDesc, i);
      Const     c    = { desc->param, 1, { 0 } };
      GValue   *v    = value_of (G_OBJECT (operation), desc->prop_id);

      if (! v)
        continue;
      switch (desc->kind)
        {
        case PROP_KIND_DOUBLE:
          c.v[0] = (gfloat) g_value_get_double (v);
          break;
        case PROP_KIND_INT:
          c.v[0] = (gfloat) g_value_get_int (v);
          break;
        case PROP_KIND_CHOICE:
          c.v[0] = (gfloat) g_value_get_enum (v);
          break;
        case PROP_KIND_BOOL:
          c.v[0] = g_value_get_boolean (v) ? 1.0f : 0.0f;
          break;
        case PROP_KIND_VEC:
          c.n    = 2;
          c.v[0] = (gfloat) g_value_get_double (v);
          v = value_of (G_OBJECT (operation), desc->prop_id + 1);
          c.v[1] = v ? (gfloat) g_value_get_double (v) : 0.0f;
          break;
        case PROP_KIND_COLOR:
          {
            GeglColor *color = g_value_get_object (v);

            c.n = desc->n_components;
            c.v[3] = 1.0f;
            if (color)
              gegl_color_get_pixel (color, format, c.v);
          }
          break;
        default:
          continue;
        }
      g_array_append_val (out, c);
    }
  g_mutex_unlock (&inst->mutex);
  return out;
}

static gint
current_seed (GeglOperation *operation)
{
  ShaderClassData *data = class_data_of (operation);
  Instance        *inst = instance_of (operation);
  gint             seed = 0;
  GValue          *v;

  if (! data->prop_seed)
    return 0;
  g_mutex_lock (&inst->mutex);
  v = value_of (G_OBJECT (operation), data->prop_seed);
  if (v)
    seed = (gint) g_value_get_uint (v);
  g_mutex_unlock (&inst->mutex);
  return seed;
}

static gboolean
current_linear (GeglOperation *operation)
{
  ShaderClassData *data = class_data_of (operation);
  Instance        *inst = instance_of (operation);
  gboolean         linear;
  GValue          *v;

  g_mutex_lock (&inst->mutex);
  v = value_of (G_OBJECT (operation), data->prop_linear);
  linear = v ? g_value_get_boolean (v) : data->linear;
  g_mutex_unlock (&inst->mutex);
  return linear;
}

static const Babl *
working_format (GeglOperation *operation)
{
  const Babl *space = gegl_operation_get_source_space (operation, "input");

  return babl_format_with_space (current_linear (operation)
                                 ? "RGBA float" : "R'G'B'A float", space);
}

static GeglRectangle
pad_bbox (GeglOperation *operation,
          gint           pad)
{
  GeglRectangle *r = gegl_operation_source_get_bounding_box (operation,
                                                              pad_name (pad));
  GeglRectangle  empty = { 0, 0, 0, 0 };

  if (! r || gegl_rectangle_is_infinite_plane (r))
    return empty;
  return *r;
}

static GsDraw *
build_draw (ShaderClassData     *data,
            GArray              *constants,
            gint                 seed,
            const GeglRectangle  bboxes[MAX_PADS],
            Image *const         images[MAX_FILE_TEXTURES],
            gint                 level,
            SlDiagnostics       *diags)
{
  GsDraw          *draw = gs_draw_new (&bboxes[0], level);
  SlBinding       *binding;
  const SlTexture *overrides[SL_MAX_SLOTS] = { NULL };
  gboolean         ok   = TRUE;

  for (gint pad = 1; pad < MAX_PADS; pad++)
    gs_draw_set_pad (draw, pad, &bboxes[pad]);
  binding = gs_draw_bind (draw, data->program);

  /* Pads past the first read their own placeholder until process() has
   * their pixels; image textures are whole from the start: their size
   * reaches the shader through TEXSIZE and the sampling reach. */
  for (gint pad = 1; pad < data->n_pads; pad++)
    if (data->pad_slot[pad] >= 0)
      overrides[data->pad_slot[pad]] = &draw->placeholder[pad];
  for (guint i = 0; i < data->file_textures->len; i++)
    {
      FileTexture *ft = &g_array_index (data->file_textures, FileTexture, i);

      if (! images[i])
        {
          ok = FALSE;
          continue;
        }
      gs_draw_own (draw, g_atomic_rc_box_acquire (images[i]),
                   (GDestroyNotify) image_unref);
      draw->textures[ft->slot] = &images[i]->texture;
      overrides[ft->slot]      = &images[i]->texture;
    }
  gs_bind_samplers (binding, data->program, &draw->placeholder[0],
                    overrides);

  for (guint i = 0; ok && i < constants->len; i++)
    {
      Const *c = &g_array_index (constants, Const, i);

      ok = sl_binding_set_param (binding, c->name, c->v, c->n, diags);
    }

  for (guint i = 0; ok && i < data->hosts->len; i++)
    {
      HostDesc *h = &g_array_index (data->hosts, HostDesc, i);
      gfloat    v[2];

      switch (h->kind)
        {
        /* The full-resolution image's sizes at every level: an offset of
         * n pixels then reaches the same image position in a reduced
         * preview as in the final render. */
        case HOST_SIZE:
          v[0] = (gfloat) bboxes[0].width;
          v[1] = (gfloat) bboxes[0].height;
          break;
        case HOST_PIXEL_SIZE:
          v[0] = 1.0f / (gfloat) bboxes[0].width;
          v[1] = 1.0f / (gfloat) bboxes[0].height;
          break;
        case HOST_SEED:
          v[0] = v[1] = (gfloat) seed;
          break;
        default:
          continue;
        }
      ok = sl_binding_set_param (binding, h->param, v, 2, diags);
    }

  /* The reach is measured in texels of slot 0, which only describes the
   * input when the input is what slot 0 reads. */
  gs_draw_prepare (draw, ok, data->pad_slot[0] <= 0, diags);
  return draw;
}

static gint64
path_mtime (const gchar *path)
{
  GStatBuf st;

  return (path && g_stat (path, &st) == 0) ? (gint64) st.st_mtime : -1;
}

/* Loads @path as the hosts load every image (host/image-io.c) into
 * @format pixels; NULL with a diagnostic naming the texture and the file
 * when it cannot. */
static Image *
load_image (ShaderClassData   *data,
            const FileTexture *ft,
            const gchar       *path,
            const Babl        *format,
            SlDiagnostics     *diags)
{
  GError  *error = NULL;
  GsImage *pixels = gs_image_load (path ? path : "", format, &error);
  Image   *image;

  if (! pixels)
    {
      /* The size limit's message names the size, not the file. */
      gchar *message = error->code == GS_IMAGE_IO_ERROR_TOO_LARGE
                       ? g_strdup_printf ("'%s': %s", path, error->message)
                       : g_strdup (error->message);

      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, data->path, 0, 0, "E-IO",
                          _("texture '%s': %s"), ft->texture, message);
      g_free (message);
      g_error_free (error);
      return NULL;
    }
  image = g_atomic_rc_box_new0 (Image);
  image->path   = g_strdup (path);
  image->mtime  = path_mtime (path);
  image->format = format;
  image->image  = pixels;
  sl_texture_init_2d (&image->texture, pixels->width, pixels->height,
                      (gsize) pixels->width * 4, pixels->pixels);
  return image;
}

/* The file-path property values, newly allocated. */
static void
current_files (GeglOperation *operation,
               gchar         *paths[MAX_FILE_TEXTURES])
{
  ShaderClassData *data = class_data_of (operation);
  Instance        *inst = instance_of (operation);

  g_mutex_lock (&inst->mutex);
  for (guint i = 0; i < data->file_textures->len; i++)
    {
      GValue *v = value_of (G_OBJECT (operation),
                            g_array_index (data->file_textures,
                                           FileTexture, i).prop_id);

      paths[i] = v ? g_value_dup_string (v) : NULL;
    }
  g_mutex_unlock (&inst->mutex);
}

/* The draw for the current properties and extents at @level, building it
 * when needed.  NULL when the op passes its input through. */
static GsDraw *
acquire_draw (GeglOperation *operation,
              gint           level)
{
  ShaderClassData *data = class_data_of (operation);
  Instance        *inst = instance_of (operation);
  const Babl      *format;
  GArray          *constants;
  GeglRectangle    bboxes[MAX_PADS];
  GByteArray      *key;
  gint             seed;
  GsDraw          *draw = NULL;
  gchar           *warning = NULL;
  gchar           *paths[MAX_FILE_TEXTURES] = { NULL };

  if (! data->program)
    {
      if (g_atomic_int_compare_and_exchange (&data->warned, 0, 1))
        g_warning ("%s: %s", data->op_name, data->diagnostics);
      return NULL;
    }

  level     = CLAMP (level, 0, N_LEVELS - 1);
  format    = working_format (operation);
  constants = current_constants (operation, format);
  seed      = current_seed (operation);
  for (gint pad = 0; pad < MAX_PADS; pad++)
    bboxes[pad] = pad < data->n_pads ? pad_bbox (operation, pad)
                                     : (GeglRectangle) { 0, 0, 0, 0 };
  if (bboxes[0].width <= 0 || bboxes[0].height <= 0)
    {
      g_array_unref (constants);
      return NULL;
    }

  key = g_byte_array_new ();
  for (guint i = 0; i < constants->len; i++)
    g_byte_array_append (key, (const guint8 *) g_array_index (constants, Const, i).v,
                         sizeof (gfloat) * 4);
  g_byte_array_append (key, (const guint8 *) &seed, sizeof seed);
  g_byte_array_append (key, (const guint8 *) bboxes, sizeof bboxes);
  g_byte_array_append (key, (const guint8 *) &format, sizeof format);
  current_files (operation, paths);
  for (guint i = 0; i < data->file_textures->len; i++)
    {
      gint64 mtime = path_mtime (paths[i]);

      if (paths[i])
        g_byte_array_append (key, (const guint8 *) paths[i],
                             strlen (paths[i]) + 1);
      g_byte_array_append (key, (const guint8 *) &mtime, sizeof mtime);
    }

  g_mutex_lock (&inst->mutex);
  if (! inst->key || inst->key->len != key->len ||
      memcmp (inst->key->data, key->data, key->len) != 0)
    {
      for (gint i = 0; i < N_LEVELS; i++)
        g_clear_pointer (&inst->draws[i], gs_draw_unref);
      if (inst->key)
        g_byte_array_unref (inst->key);
      inst->key = g_byte_array_ref (key);
    }
  if (! inst->draws[level])
    {
      SlDiagnostics *diags = sl_diagnostics_new ();
      GsDraw        *built;

      /* Images are loaded again only when their path, file or format
       * changed. */
      for (guint i = 0; i < data->file_textures->len; i++)
        {
          Image *old = inst->images[i];

          if (old && g_strcmp0 (old->path, paths[i]) == 0 &&
              old->mtime == path_mtime (paths[i]) && old->format == format)
            continue;
          g_clear_pointer (&inst->images[i], image_unref);
          inst->images[i] = load_image (data, &g_array_index (data->file_textures,
                                                              FileTexture, i),
                                        paths[i], format, diags);
        }
      built = build_draw (data, constants, seed, bboxes, inst->images, level,
                          diags);

      inst->draws[level] = built;
      if (! built->binding)
        {
          gchar *text = gs_format_diagnostics (diags);

          if (! text[0])
            {
              g_free (text);
              text = g_strdup (_("the shader could not be prepared"));
            }
          if (g_strcmp0 (text, inst->warned_for) != 0)
            {
              g_free (inst->warned_for);
              inst->warned_for = g_strdup (text);
              warning = g_strdup (text);
            }
          /* Shown in the dialog; no notify, which would invalidate the
           * node from inside its own preparation. */
          {
            GValue *ev = value_of (G_OBJECT (operation), data->prop_error);

            if (ev)
              g_value_take_string (ev, text);
            else
              g_free (text);
          }
        }
      sl_diagnostics_free (diags);
    }
  if (inst->draws[level]->binding)
    draw = gs_draw_ref (inst->draws[level]);
  g_mutex_unlock (&inst->mutex);

  if (warning)
    {
      g_warning ("%s: %s", data->op_name, warning);
      g_free (warning);
    }
  g_byte_array_unref (key);
  g_array_unref (constants);
  for (gint i = 0; i < MAX_FILE_TEXTURES; i++)
    g_free (paths[i]);
  return draw;
}

static void
shader_prepare (GeglOperation *operation)
{
  ShaderClassData *data   = class_data_of (operation);
  const Babl      *format = working_format (operation);
  GsDraw          *draw;

  for (gint pad = 0; pad < data->n_pads; pad++)
    gegl_operation_set_format (operation, pad_name (pad), format);
  gegl_operation_set_format (operation, "output", format);

  draw = acquire_draw (operation, 0);
  gs_operation_set_caching (operation, draw && ! draw->bounded);
  if (draw)
    gs_draw_unref (draw);
}

static GeglRectangle
shader_get_bounding_box (GeglOperation *operation)
{
  GeglRectangle *r = gegl_operation_source_get_bounding_box (operation,
                                                              "input");
  GeglRectangle  empty = { 0, 0, 0, 0 };

  return r ? *r : empty;
}

static GsDraw *
peek_draw (GeglOperation *operation)
{
  Instance *inst = instance_of (operation);
  GsDraw   *draw = NULL;

  g_mutex_lock (&inst->mutex);
  if (inst->draws[0] && inst->draws[0]->binding)
    draw = gs_draw_ref (inst->draws[0]);
  g_mutex_unlock (&inst->mutex);
  return draw;
}

static GeglRectangle
shader_get_required_for_output (GeglOperation       *operation,
                                const gchar         *input_pad,
                                const GeglRectangle *roi)
{
  GeglRectangle  result;
  GsDraw        *draw;

  if (strcmp (input_pad, "input") != 0)
    {
      GeglRectangle *r = gegl_operation_source_get_bounding_box (operation,
                                                                  input_pad);
      return (r && ! gegl_rectangle_is_infinite_plane (r)) ? *r : *roi;
    }

  draw = peek_draw (operation);
  if (! draw)
    return *roi;
  result = gs_draw_required (draw, roi);
  gs_draw_unref (draw);
  return result;
}

static GeglRectangle
shader_get_invalidated_by_change (GeglOperation       *operation,
                                  const gchar         *input_pad,
                                  const GeglRectangle *region)
{
  GeglRectangle  result;
  GeglRectangle  bbox = pad_bbox (operation, 0);
  GsDraw        *draw;

  if (strcmp (input_pad, "input") != 0)
    return bbox;
  draw = peek_draw (operation);
  if (! draw)
    return *region;
  result = gs_draw_invalidated (draw, region, &bbox);
  gs_draw_unref (draw);
  return result;
}

static GeglRectangle
shader_get_cached_region (GeglOperation       *operation,
                          const GeglRectangle *roi)
{
  GsDraw        *draw   = peek_draw (operation);
  GeglRectangle  region = *roi;

  if (draw)
    {
      region = gs_draw_cached (draw, roi);
      gs_draw_unref (draw);
    }
  return region;
}

/* Shown in the dialog; no notify, which would invalidate the node from
 * inside its own processing. */
static void
set_error (GeglOperation *operation,
           gchar         *text)
{
  ShaderClassData *data = class_data_of (operation);
  Instance        *inst = instance_of (operation);
  GValue          *v;

  g_mutex_lock (&inst->mutex);
  v = value_of (G_OBJECT (operation), data->prop_error);
  if (v)
    g_value_take_string (v, text);
  else
    g_free (text);
  g_mutex_unlock (&inst->mutex);
}

static gboolean
render (GeglOperation       *operation,
        GeglBuffer          *inputs[MAX_PADS],
        GeglBuffer          *output,
        const GeglRectangle *result,
        gint                 level)
{
  ShaderClassData *data    = class_data_of (operation);
  const Babl      *format  = gegl_operation_get_format (operation, "output");
  gdouble          scale;
  GsDraw          *draw;
  gfloat          *pixels[MAX_PADS] = { NULL };
  SlTexture        tex[MAX_PADS];
  const SlTexture *textures[SL_MAX_SLOTS] = { NULL };
  gchar           *failure = NULL;

  level = CLAMP (level, 0, N_LEVELS - 1);
  scale = 1.0 / (1 << level);
  draw  = acquire_draw (operation, level);

  /* Aux pads are read whole; a missing one samples the primary input. */
  for (gint pad = 1; draw && inputs[0] && pad < data->n_pads; pad++)
    {
      GeglRectangle r = draw->pad_rect[pad];

      if (data->pad_slot[pad] < 0 || ! inputs[pad])
        continue;
      pixels[pad] = g_try_malloc_n ((gsize) r.width * r.height,
                                    4 * sizeof (gfloat));
      if (! pixels[pad])
        {
          failure = g_strdup_printf (_("out of memory for a %d×%d image"),
                                     r.width, r.height);
          break;
        }
      gs_pixel_fetch (inputs[pad], &r, scale, format, pixels[pad],
                      GEGL_ABYSS_NONE);
      sl_texture_init_2d (&tex[pad], r.width, r.height, (gsize) r.width * 4,
                          pixels[pad]);
      textures[data->pad_slot[pad]] = &tex[pad];
    }

  if (failure)
    gs_pass_through (inputs[0], output, result, level, format);
  else
    gs_draw_render (operation, data->op_name, draw, inputs[0], textures,
                    output, result, level, &failure);
  if (failure)
    {
      g_warning ("%s: %s", data->op_name, failure);
      set_error (operation, failure);
    }

  for (gint pad = 0; pad < MAX_PADS; pad++)
    g_free (pixels[pad]);
  if (draw)
    gs_draw_unref (draw);
  return TRUE;
}

static gboolean
filter_process (GeglOperation       *operation,
                GeglBuffer          *input,
                GeglBuffer          *output,
                const GeglRectangle *result,
                gint                 level)
{
  GeglBuffer *inputs[MAX_PADS] = { input, NULL, NULL };

  return render (operation, inputs, output, result, level);
}

static gboolean
composer_process (GeglOperation       *operation,
                  GeglBuffer          *input,
                  GeglBuffer          *aux,
                  GeglBuffer          *output,
                  const GeglRectangle *result,
                  gint                 level)
{
  GeglBuffer *inputs[MAX_PADS] = { input, aux, NULL };

  return render (operation, inputs, output, result, level);
}

static gboolean
composer3_process (GeglOperation       *operation,
                   GeglBuffer          *input,
                   GeglBuffer          *aux,
                   GeglBuffer          *aux2,
                   GeglBuffer          *output,
                   const GeglRectangle *result,
                   gint                 level)
{
  GeglBuffer *inputs[MAX_PADS] = { input, aux, aux2 };

  return render (operation, inputs, output, result, level);
}

/* A shader that does not compile hands its input on untouched, without
 * copying, as GEGL's own ops do for their identity settings. */
static gboolean
shader_operation_process (GeglOperation        *operation,
                          GeglOperationContext *context,
                          const gchar          *output_prop,
                          const GeglRectangle  *result,
                          gint                  level)
{
  ShaderClassData    *data   = class_data_of (operation);
  GeglOperationClass *parent = g_type_class_peek_parent (GEGL_OPERATION_GET_CLASS (operation));

  if (! data->program)
    {
      GObject *input = gegl_operation_context_get_object (context, "input");

      if (input)
        gegl_operation_context_take_object (context, "output",
                                            g_object_ref (input));
      return TRUE;
    }
  return parent->process (operation, context, output_prop, result, level);
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

static void
shader_class_init (gpointer klass,
                   gpointer class_data)
{
  ShaderClassData    *data            = class_data;
  GObjectClass       *object_class    = G_OBJECT_CLASS (klass);
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (klass);

  object_class->set_property = shader_set_property;
  object_class->get_property = shader_get_property;
  object_class->finalize     = shader_finalize;

  operation_class->prepare                   = shader_prepare;
  operation_class->get_bounding_box          = shader_get_bounding_box;
  operation_class->get_required_for_output   = shader_get_required_for_output;
  operation_class->get_invalidated_by_change = shader_get_invalidated_by_change;
  operation_class->get_cached_region         = shader_get_cached_region;
  operation_class->process                   = shader_operation_process;
  /* render() splits the work itself, after one shared fetch. */
  operation_class->threaded                  = FALSE;
  operation_class->want_in_place             = FALSE;

  if (data->n_pads >= 3)
    GEGL_OPERATION_COMPOSER3_CLASS (klass)->process = composer3_process;
  else if (data->n_pads == 2)
    GEGL_OPERATION_COMPOSER_CLASS (klass)->process = composer_process;
  else
    GEGL_OPERATION_FILTER_CLASS (klass)->process = filter_process;

  install_properties (object_class, data);

  gegl_operation_class_set_keys (operation_class,
    "name",            data->op_name,
    "title",           tr (data->title),
    "categories",      data->categories,
    "description",     tr (data->description),
    "shader-license",  data->license,
    /* GEGL hides ops whose "license" it does not know; only GPL ones
     * need the key, so that non-GPL applications do not show them. */
    "license",         data->gpl ? "GPL3+" : NULL,
    "gimp:menu-path",  data->menu_path,
    "gimp:menu-label", tr (data->menu_label),
    "source",          data->path,
    NULL);
}

guint
gs_shader_ops_register (GTypeModule *module)
{
  GPtrArray *files = gs_filter_list (NULL);
  guint      count = 0;

  if (! instance_quark)
    instance_quark = g_quark_from_static_string ("gegl-shaders-op");

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
      info.instance_init = shader_instance_init;

      type = g_type_module_register_type (module, parent, data->type_name,
                                          &info, 0);
      if (type)
        {
          g_type_set_qdata (type, instance_quark, data);
          count++;
        }
    }

  g_ptr_array_unref (files);
  return count;
}

/* ------------------------------------------------------------------ */
/* Caching                                                             */
/* ------------------------------------------------------------------ */

/* A filter with a get_cached_region() gets a node cache from GEGL, and a
 * node cache is a GeglBuffer.  A bounded shader gains nothing from it (a
 * chunk only needs its own rectangle plus the reach), and the cache of a
 * node that is never finalised shows as a leaked GeglBuffer at
 * gegl_exit(): the gegl tool's chain builder (gegl_create_chain_argv in
 * GEGL 0.4.42) leaks every node it creates, so `gegl in -o out -- op`
 * printed "EEEEeEeek! 1 GeglBuffers leaked" for our ops, as it does for
 * gegl:gaussian-blur.  Only a shader that may read anywhere renders the
 * whole image in one go and needs the cache to answer the next chunks;
 * everything else opts out per node.  A policy the application set
 * itself is left alone. */
void
gs_operation_set_caching (GeglOperation *operation,
                          gboolean       whole_input)
{
  static const gchar *const key = "gegl-shaders-cache-policy";
  GeglNode        *node = operation->node;
  GeglCachePolicy  current;
  GeglCachePolicy  wanted = whole_input ? GEGL_CACHE_POLICY_AUTO
                                        : GEGL_CACHE_POLICY_NEVER;
  gboolean         ours;

  if (! node)
    return;
  g_object_get (node, "cache-policy", &current, NULL);
  ours = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (node), key));
  if (current != GEGL_CACHE_POLICY_AUTO && ! ours)
    return;
  if (current != wanted)
    g_object_set (node, "cache-policy", wanted, NULL);
  g_object_set_data (G_OBJECT (node), key,
                     GINT_TO_POINTER (wanted != GEGL_CACHE_POLICY_AUTO));
}
