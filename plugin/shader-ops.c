/* shader:<stem> — the instances of the per-file ops, and their rendering.
 *
 * The classes come from shader-registry.c (one per shader file) with their
 * properties planned by shader-props.c; this file gives them their
 * vfuncs.  Instances keep their property values in a GValue array and a
 * cached draw per mip level (draw.c: a prepared SlBinding for one set of
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
 * A shader that fails to compile passes its input through without a copy;
 * the first prepare() of such an op logs one warning for the class.
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gegl.h>
#include <gegl-plugin.h>
#include <gegl-paramspecs.h>

#include "shader-class.h"
#include "image-io.h"
#include "pixel-fetch.h"
#include "shader-file.h"
#include "op-error.h"

/* A loaded texture image, shared by the draws that sample it. */
typedef struct
{
  gchar      *path;
  gint64      mtime;
  const Babl *format;
  GsImage    *image;
  SlTexture   texture;
} Image;

GQuark
gs_shader_op_quark (void)
{
  static GQuark quark;

  if (! quark)
    quark = g_quark_from_static_string ("gegl-shaders-op");
  return quark;
}

static ShaderClassData *
class_data_of (gpointer operation)
{
  return g_type_get_qdata (G_OBJECT_TYPE (operation), gs_shader_op_quark ());
}

typedef struct Instance Instance;

static Instance *
instance_of (gpointer operation)
{
  return g_object_get_qdata (G_OBJECT (operation), gs_shader_op_quark ());
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
  /* Why the current draws do not render (the first draw of the key that
   * failed to build), and what went wrong while they rendered; NULL when
   * nothing did.  Both start again with the next key. */
  gchar      *draw_error;
  gchar      *runtime_error;
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
  g_free (inst->draw_error);
  g_free (inst->runtime_error);
  g_mutex_clear (&inst->mutex);
  g_free (inst);
}

void
gs_shader_op_instance_init (GTypeInstance *instance,
                            gpointer       g_class)
{
  ShaderClassData *data = g_type_get_qdata (G_TYPE_FROM_CLASS (g_class),
                                            gs_shader_op_quark ());
  Instance        *inst = g_new0 (Instance, 1);

  g_mutex_init (&inst->mutex);
  inst->n_values = data->n_props + 1;
  inst->values   = g_new0 (GValue, inst->n_values);
  g_object_set_qdata_full (G_OBJECT (instance), gs_shader_op_quark (), inst,
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

  /* "has-errors" follows "error". */
  if (id == class_data_of (object)->prop_has_errors)
    return;
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
  ShaderClassData *data = class_data_of (object);
  Instance        *inst = instance_of (object);
  GValue          *v;

  g_mutex_lock (&inst->mutex);
  if (id == data->prop_has_errors)
    {
      const gchar *text;

      v    = value_of (object, data->prop_error);
      text = v ? g_value_get_string (v) : NULL;
      g_value_set_boolean (value, text && text[0]);
    }
  else if ((v = value_of (object, id)))
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

  /* The full-resolution image's sizes at every level: an offset of n
   * pixels then reaches the same image position in a reduced preview as
   * in the final render. */
  if (ok)
    {
      guint seed_value = (guint) seed;

      ok = gs_host_values_set (binding, bboxes[0].width, bboxes[0].height,
                               &seed_value, diags);
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

      sl_diagnostics_add (diags, SL_SEVERITY_ERROR, data->path, 0, 0,
                          SL_CODE_HOST_IO, _("texture '%s': %s"),
                          ft->texture, message);
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

/* Makes the "error" property say what the instance knows: the class's
 * diagnostics for a shader that does not compile, else why the draws do
 * not build and what their rendering hit.  Also undoes a write from
 * outside (GIMP restoring a dialog's last values).  Called with the
 * instance's mutex held. */
static void
publish (GeglOperation *operation)
{
  ShaderClassData *data = class_data_of (operation);
  Instance        *inst = instance_of (operation);
  GValue          *v    = value_of (G_OBJECT (operation), data->prop_error);
  gchar           *text;

  if (! v)
    return;
  if (! data->program)
    text = g_strdup (data->diagnostics);
  else if (inst->draw_error && inst->runtime_error)
    text = g_strconcat (inst->draw_error, "\n", inst->runtime_error, NULL);
  else
    text = g_strdup (inst->draw_error ? inst->draw_error
                     : inst->runtime_error ? inst->runtime_error : "");
  gs_error_publish (operation, v, data->op_name, text);
  g_free (text);
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
  gchar           *paths[MAX_FILE_TEXTURES] = { NULL };

  if (! data->program)
    {
      /* Logged once for the class: every instance fails alike. */
      if (gs_error_nobody_listens (operation) &&
          g_atomic_int_compare_and_exchange (&data->warned, 0, 1))
        g_warning ("%s: %s", data->op_name, data->diagnostics);
      g_mutex_lock (&inst->mutex);
      publish (operation);
      g_mutex_unlock (&inst->mutex);
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
      g_clear_pointer (&inst->draw_error, g_free);
      g_clear_pointer (&inst->runtime_error, g_free);
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
      if (! built->binding && ! inst->draw_error)
        {
          gchar *text   = gs_format_diagnostics (diags);
          gchar *folder = g_path_get_dirname (data->path);

          if (! text[0])
            {
              g_free (text);
              text = g_strdup (_("the shader could not be prepared"));
            }
          inst->draw_error = gs_error_shorten (text, folder);
          g_free (folder);
          g_free (text);
        }
      sl_diagnostics_free (diags);
    }
  if (inst->draws[level]->binding)
    draw = gs_draw_ref (inst->draws[level]);
  publish (operation);
  g_mutex_unlock (&inst->mutex);
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

/* What rendering @draw at @level hit (takes @text), kept while the draw
 * is current: the next change of the settings starts clean. */
static void
set_runtime_error (GeglOperation *operation,
                   GsDraw        *draw,
                   gint           level,
                   gchar         *text)
{
  Instance *inst = instance_of (operation);

  g_mutex_lock (&inst->mutex);
  if (inst->draws[level] == draw && ! inst->runtime_error)
    {
      inst->runtime_error = text;
      text = NULL;
      publish (operation);
    }
  g_mutex_unlock (&inst->mutex);
  g_free (text);
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
    gs_draw_render (operation, draw, inputs[0], textures, output, result,
                    level, &failure);
  if (failure)
    set_runtime_error (operation, draw, level, failure);

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

void
gs_shader_op_class_init (GObjectClass    *object_class,
                         ShaderClassData *data)
{
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (object_class);

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
    GEGL_OPERATION_COMPOSER3_CLASS (object_class)->process = composer3_process;
  else if (data->n_pads == 2)
    GEGL_OPERATION_COMPOSER_CLASS (object_class)->process = composer_process;
  else
    GEGL_OPERATION_FILTER_CLASS (object_class)->process = filter_process;
}
