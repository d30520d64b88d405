/* Property planning of the per-file ops: what a shader's parameters and
 * samplers become on its GEGL op.
 *
 * gs_shader_plan() runs once per shader file at module load, on the
 * compiled program and the file's metadata: the sampler slots become the
 * op's pads (input, aux, aux2; a texture annotated with an image file
 * becomes a file-path property instead), each uniform a property whose
 * kind follows its type and annotations (double, int, boolean, enum for
 * ui_items, GeglColor, two doubles -x/-y for a float2), and the uniforms
 * the host fills in (image size, pixel size, seed) no property at all.
 * gs_shader_install_properties() turns the plan into GParamSpecs in the
 * op's class_init, merging the label, range, step and default that the
 * dialects give (initializer, WPF doc comments, #pragma parameter, FX
 * Composer UI* and ReShade ui_* annotations, later ones winning).
 * Annotations are looked up without regard to case (host/shader-file.c),
 * as everywhere in the module.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <gegl.h>
#include <gegl-plugin.h>
#include <gegl-paramspecs.h>

#include "shader-class.h"
#include "effect-ops.h"
#include "shader-file.h"
#include "op-error.h"

gboolean
gs_ascii_contains_ci (const gchar *haystack,
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

static gboolean
wants_color (const SlParam *param)
{
  const gchar *widget = gs_annotation_string (param, "UIWidget");
  const gchar *type   = gs_annotation_string (param, "ui_type");
  gint         n      = param->rows * param->columns;

  if (param->type != SL_SCALAR_FLOAT || param->rows != 1 ||
      param->array_size > 0 || (n != 3 && n != 4))
    return FALSE;
  if ((widget && gs_ascii_contains_ci (widget, "color")) ||
      (type && gs_ascii_contains_ci (type, "color")))
    return TRUE;
  if (param->semantic && (gs_ascii_contains_ci (param->semantic, "color") ||
                          gs_ascii_contains_ci (param->semantic, "diffuse")))
    return TRUE;
  return gs_ascii_contains_ci (param->name, "color") ||
         gs_ascii_contains_ci (param->name, "colour") ||
         gs_ascii_contains_ci (param->name, "tint");
}

static VecUnit
vec_unit (const SlParam *param)
{
  const gchar *widget = gs_annotation_string (param, "UIWidget");
  const gchar *type   = gs_annotation_string (param, "ui_type");
  const gchar *hint   = widget ? widget : type;

  if (hint)
    {
      if (gs_ascii_contains_ci (hint, "position") ||
          gs_ascii_contains_ci (hint, "point"))
        return VEC_POSITION;
      if (gs_ascii_contains_ci (hint, "size") ||
          gs_ascii_contains_ci (hint, "distance"))
        return VEC_DISTANCE;
      return VEC_PLAIN;
    }
  if (gs_ascii_contains_ci (param->name, "center") ||
      gs_ascii_contains_ci (param->name, "centre") ||
      gs_ascii_contains_ci (param->name, "position") ||
      gs_ascii_contains_ci (param->name, "pos"))
    return VEC_POSITION;
  if (gs_ascii_contains_ci (param->name, "size") ||
      gs_ascii_contains_ci (param->name, "radius"))
    return VEC_DISTANCE;
  return VEC_PLAIN;
}

static gint
sampler_slot_compare (gconstpointer a,
                      gconstpointer b)
{
  return *(const gint *) a - *(const gint *) b;
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
  data->prop_error  = id++;
  data->prop_has_errors = id++;
  data->prop_linear = id++;
  for (guint i = 0; i < data->file_textures->len; i++)
    g_array_index (data->file_textures, FileTexture, i).prop_id = id++;

  for (gint i = 0; data->program &&
                   i < sl_program_get_n_params (data->program); i++)
    {
      const SlParam *param = sl_program_get_param (data->program, i);
      GsHostKind     host  = gs_host_kind (param);
      PropDesc       desc  = { 0 };
      gint           n     = param->rows * param->columns;

      /* Host values (gs_host_values_set at render time) are not
       * properties, but a seed is the op's "seed". */
      if (host != GS_HOST_NONE)
        {
          if (host == GS_HOST_SEED && ! data->prop_seed)
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

const gchar *
gs_shader_tr (const gchar *text)
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
param_ui (SlMetadata    *metadata,
          const SlParam *param,
          ParamUi       *ui)
{
  const SlParamDoc *doc = sl_metadata_find_param (metadata, param->name);
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
  pspec = gegl_param_spec_double (name, gs_shader_tr (label), gs_shader_tr (ui->blurb), lo, hi,
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

static GParamSpec *
int_spec (const gchar   *name,
          const ParamUi *ui,
          GParamFlags    flags)
{
  gint        lo  = ui->has_min ? (gint) ui->min : -1000000;
  gint        hi  = ui->has_max ? (gint) ui->max : 1000000;
  gint        def = CLAMP (ui->n_default ? (gint) ui->def[0] : 0, lo, hi);
  GParamSpec *pspec;

  pspec = gegl_param_spec_int (name, gs_shader_tr (ui->label),
                               gs_shader_tr (ui->blurb), lo, hi, def,
                               ui->has_min ? lo : MIN (0, def),
                               ui->has_max ? hi : MAX (10, 2 * def),
                               1.0, flags);
  gegl_param_spec_int_set_steps (GEGL_PARAM_SPEC_INT (pspec),
                                 ui->has_step ? MAX (1, (gint) ui->step) : 1,
                                 ui->has_step ? MAX (1, (gint) ui->step) * 10
                                              : 5);
  return pspec;
}

/* The property a per-file op gives a scalar float or int uniform, or a
 * colour (label, tooltip, range, step and default from every dialect),
 * for the effect ops: a filter that becomes an effect file keeps its
 * sliders.  NULL for any other uniform. */
GParamSpec *
gs_shader_uniform_spec (SlMetadata    *metadata,
                        const SlParam *param,
                        const gchar   *name,
                        GParamFlags    flags)
{
  ParamUi ui;

  param_ui (metadata, param, &ui);
  if (wants_color (param))
    {
      GeglColor  *def   = gegl_color_new (NULL);
      gfloat      px[4] = { 0, 0, 0, 1 };
      GParamSpec *pspec;

      for (gint c = 0; c < 4 && c < ui.n_default; c++)
        px[c] = (gfloat) ui.def[c];
      gegl_color_set_pixel (def, babl_format ("R'G'B'A float"), px);
      pspec = gegl_param_spec_color (name, gs_shader_tr (ui.label),
                                     gs_shader_tr (ui.blurb), def, flags);
      g_object_unref (def);
      return pspec;
    }
  if (param->rows * param->columns != 1 || param->array_size > 0)
    return NULL;
  if (param->type == SL_SCALAR_INT || param->type == SL_SCALAR_UINT)
    return int_spec (name, &ui, flags);
  return double_spec (name, ui.label, &ui, ui.n_default ? ui.def[0] : 0.0,
                      flags);
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

void
gs_shader_install_properties (GObjectClass    *object_class,
                              ShaderClassData *data)
{
  GParamFlags  flags = G_PARAM_READWRITE | GEGL_PARAM_PAD_INPUT;
  GHashTable  *taken = g_hash_table_new_full (g_str_hash, g_str_equal,
                                              g_free, NULL);
  GParamSpec  *pspec;

  static const gchar *const reserved[] =
  { "error", "has-errors", "linear", "seed", "input", "aux", "aux2", "output",
    "name" };

  for (guint i = 0; i < G_N_ELEMENTS (reserved); i++)
    g_hash_table_add (taken, g_strdup (reserved[i]));

  gs_error_install (object_class, data->prop_error, data->prop_has_errors,
                    data->diagnostics);

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
      /* The seed the shader declares, as for every other parameter. */
      for (gint i = 0; i < sl_program_get_n_params (data->program); i++)
        {
          const SlParam *param = sl_program_get_param (data->program, i);

          if (gs_host_kind (param) == GS_HOST_SEED)
            {
              if (param->default_value && param->default_value[0] > 0.0f)
                G_PARAM_SPEC_UINT (pspec)->default_value =
                  (guint) MIN (param->default_value[0], (gfloat) G_MAXINT);
              break;
            }
        }
      g_object_class_install_property (object_class, data->prop_seed, pspec);
    }

  for (guint i = 0; i < data->props->len; i++)
    {
      PropDesc      *desc  = &g_array_index (data->props, PropDesc, i);
      const SlParam *param = sl_program_find_param (data->program,
                                                    desc->param);
      ParamUi        ui;
      gchar         *name  = property_name (desc->param, taken);

      param_ui (data->metadata, param, &ui);

      switch (desc->kind)
        {
        case PROP_KIND_DOUBLE:
          pspec = double_spec (name, ui.label, &ui,
                               ui.n_default ? ui.def[0] : 0.0, flags);
          break;

        case PROP_KIND_INT:
          pspec = int_spec (name, &ui, flags);
          break;

        case PROP_KIND_BOOL:
          pspec = g_param_spec_boolean (name, gs_shader_tr (ui.label), gs_shader_tr (ui.blurb),
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
            pspec = gegl_param_spec_enum (name, gs_shader_tr (ui.label), gs_shader_tr (ui.blurb),
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
            pspec = gegl_param_spec_color (name, gs_shader_tr (ui.label),
                                           gs_shader_tr (ui.blurb), def, flags);
            g_object_unref (def);
          }
          break;

        case PROP_KIND_VEC:
          {
            static const gchar *const axes[] = { "x", "y" };

            for (guint c = 0; c < 2; c++)
              {
                gchar *cname  = g_strdup_printf ("%s-%s", name, axes[c]);
                gchar *clabel = g_strdup_printf ("%s %s", gs_shader_tr (ui.label),
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

void
gs_shader_plan (ShaderClassData *data)
{
  plan_inputs (data);
  plan_properties (data);
}
