/* shader:<stem>[-<technique>] — effect-file techniques as GEGL operations.
 *
 * Design.  At registration the effect is compiled once at a nominal size
 * to learn its techniques and the union of its parameters (the classes of
 * one file share one reference-counted copy of its text, and a file
 * registers at most MAX_EFFECT_OPS of them); each technique
 * becomes a GeglOperationFilter subclass whose properties are those
 * parameters (one double per component, `name-x`… for vectors, booleans
 * for bools; ranges from the ui_min/UIMin annotations, looked up without
 * regard to case like every annotation of the module).  Uniforms with a
 * host source are not properties themselves: the op gets one property per
 * host value the file uses — `seed` for `source = "random"`, `timer` and
 * `frametime` (milliseconds) and `framecount`, so animations can be
 * scrubbed from GIMP or a batch script frame by frame; `mousepoint-x/-y`
 * (pixels, GIMP's pixel-coordinate pair with its picker) for
 * `"mousepoint"`; `date-year`, `-month`, `-day`, `-seconds` for `"date"`
 * (defaults: when the module loaded).  Matrix and array
 * uniforms are not properties: they keep the file's defaults (GParamSpecs
 * have no natural shape for them; the CLI's --set NAME=V,V,… sets them).
 * Like every op of the module the op has an "error" property, "" while
 * the effect runs.
 *
 * A file with a filter header (a `// title:` line, as the shipped filters
 * have) and one technique gets the surface of a per-file op instead: its
 * scalar float and int uniforms become the properties shader-props.c
 * makes (int sliders for ints, labels, tooltips, ranges and steps from
 * every dialect), the op has the "linear" property and the header's
 * title, description, menu path and label.  So a filter can move from a
 * single pass to several without GIMP users seeing any change.
 *
 * Rendering goes through the module's draw core (draw.c, render-area.c),
 * as for the per-file ops: a draw holds one prepared SlEffectRun for one
 * set of property values, one input size and one mip level.  The effect
 * is compiled per input size and level (texture sizes and BUFFER_* depend
 * on them) and kept; prepare() starts a new invocation, so the next draw
 * is a fresh run whose intermediate render targets are computed once, by
 * the first band that needs them, and reused by the others.  Image
 * textures (`source = "…"`, next to the effect file) load through the
 * hosts' one loader (host/image-io.c), once per instance.
 *
 * Input region: when a pass before the last reads or writes the image, or
 * the last pass samples it freely, the whole input is needed (read once
 * per draw); otherwise the output rectangle plus the last pass's sampling
 * reach.
 *
 * Mip levels: at level L the effect is compiled for the level's image
 * size, so the passes that draw into the image run on 1/4^L of its pixels
 * and TEXCOORD spans the image, while BUFFER_WIDTH, BUFFER_HEIGHT,
 * BUFFER_RCP_* and BUFFER_PIXEL_SIZE keep their full-resolution values: an
 * offset of n pixels reaches the same image position at every level, and
 * the level-L result approximates the full render scaled down.  Render
 * targets are declared in terms of BUFFER_*, so they keep their
 * full-resolution sizes and the passes into them cost what they cost at
 * level 0.  SV_Position counts the pixels actually rendered.
 *
 * Failure: an effect that does not compile for the image, an image
 * texture whose file is there but does not load, or memory that runs out
 * make the op pass its input through; a run-time limit (a runaway loop)
 * keeps what was rendered, and an image file that is missing reads as
 * zero texels, as in ReShade, while the op renders and says which.  The
 * "error" property says why, with paths relative to the effect's folder,
 * published through op-error.c (which tells an open GIMP dialog from the
 * main loop and logs each distinct error once when no dialog shows it).
 * A run-time failure stays until the settings or the input's extent
 * change, not just until the next invocation, so the re-render a notify
 * causes does not clear and raise it again forever.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <gegl.h>
#include <gegl-plugin.h>

#include "shaderlib.h"
#include "effect-ops.h"
#include "draw.h"
#include "filter-path.h"
#include "image-io.h"
#include "memory-budget.h"
#include "shader-file.h"
#include "op-error.h"

#define NOMINAL_SIZE 512

/* Operations one effect file may register: ReShade's own collections
 * have at most five techniques a file, and every class costs GIMP start-up
 * time and memory (its menu entry, its property specs), so a file with
 * thousands is cut here, with a warning naming it. */
#define MAX_EFFECT_OPS 256

/* Host-value properties; property id = props->len + 1 + Host, value slot
 * props->len + Host.  The "error" property follows them, then
 * "has-errors", which has no slot: it follows "error". */
typedef enum
{
  HOST_SEED,
  HOST_TIMER,
  HOST_FRAMETIME,
  HOST_FRAMECOUNT,
  HOST_MOUSE_X,           /* source = "mousepoint": pixels, x then y */
  HOST_MOUSE_Y,
  HOST_DATE_YEAR,         /* source = "date": year, month, day, seconds */
  HOST_DATE_MONTH,
  HOST_DATE_DAY,
  HOST_DATE_SECONDS,
  HOST_LINEAR,            /* not a host value: the "linear" property */
  N_HOST
} Host;

typedef struct
{
  gchar    *param;
  gint      component;
  gboolean  boolean;
  gdouble   def, min, max;
  /* With a filter header: the per-file op's property, whether it holds
   * an int or a colour (on the first component; the others then have
   * no property of their own). */
  GParamSpec *spec;
  gboolean    integer;
  gboolean    color;
  gboolean    covered;
} EffProp;                /* property id = index + 1 */

typedef struct
{
  gchar  *path;
  gchar  *op_name;
  gchar  *type_name;
  gchar  *title;
  gchar  *description;
  gchar  *technique;
  /* The file's text, one copy shared by every technique's class. */
  GBytes *source;
  GArray *props;          /* EffProp */
  guint   host_used;      /* bit per Host the file's uniforms ask for */
  /* From a filter header; NULL without one. */
  gchar  *menu_path;
  gchar  *menu_label;
  gchar  *license;
} EffClass;

typedef struct
{
  GMutex         lock;
  GValue        *values;  /* props, hosts, then the error text */
  /* Bumped by every property change and every prepare(): a draw built
   * for an older serial is not used again. */
  guint          serial;
  SlEffect      *fx[GS_N_LEVELS];
  gint           fx_width[GS_N_LEVELS], fx_height[GS_N_LEVELS];
  GsDraw        *draws[GS_N_LEVELS];
  guint          draw_serial[GS_N_LEVELS];
  GeglRectangle  draw_bbox[GS_N_LEVELS];
  /* Image textures by texture index, loaded once; NULL for the others. */
  GPtrArray     *images;
  gchar         *image_error;  /* why one did not load; NULL when none */
  /* Which are missing (they read as zero, the op renders); NULL when
   * none is. */
  gchar         *image_warning;
  /* Why the last draw built at each level does not render, or which of
   * its images are missing while it renders (NULL when neither), for the
   * settings of build_settings[] at draw_bbox[].  Per level, so that
   * rebuilding one level leaves the others'. */
  gchar         *build_error[GS_N_LEVELS];
  guint          build_settings[GS_N_LEVELS];
  /* What rendering hit, for the settings of @runtime_serial and the input
   * box @runtime_bbox; NULL when nothing. */
  gchar         *runtime_error;
  guint          runtime_serial;
  GeglRectangle  runtime_bbox;
  guint          settings_serial;  /* bumped by every property change */
} EffInst;

static GQuark class_quark;
static GQuark inst_quark;

/* The classes of each effect file, by path.  GEGL may unload and reload
 * the module; the types stay registered with their classes built, so a
 * reload registers them again from the data they were built from. */
static GHashTable *known_effects;

static EffClass *
class_of (gpointer operation)
{
  return g_type_get_qdata (G_OBJECT_TYPE (operation), class_quark);
}

static guint
error_slot (EffClass *klass)
{
  return klass->props->len + N_HOST;
}

static void
inst_free (gpointer data)
{
  EffInst *inst = data;

  for (gint i = 0; i < GS_N_LEVELS; i++)
    {
      g_clear_pointer (&inst->draws[i], gs_draw_unref);
      g_clear_pointer (&inst->fx[i], sl_effect_unref);
    }
  if (inst->images)
    g_ptr_array_unref (inst->images);
  g_free (inst->image_error);
  g_free (inst->image_warning);
  for (gint i = 0; i < GS_N_LEVELS; i++)
    g_free (inst->build_error[i]);
  g_free (inst->runtime_error);
  g_mutex_clear (&inst->lock);
  for (guint i = 0; inst->values[i].g_type; i++)
    g_value_unset (&inst->values[i]);
  g_free (inst->values);
  g_free (inst);
}

/* Made on first use: GObject sets the construct properties before any
 * instance_init of ours could run. */
static EffInst *
inst_of (gpointer operation)
{
  EffInst            *inst = g_object_get_qdata (G_OBJECT (operation),
                                                 inst_quark);
  EffClass           *klass;
  GValue             *host;
  SlEffectHostValues  hv;

  if (inst)
    return inst;

  klass = class_of (operation);
  inst  = g_new0 (EffInst, 1);
  g_mutex_init (&inst->lock);
  /* One more, zeroed, ends the array for inst_free(). */
  inst->values = g_new0 (GValue, error_slot (klass) + 2);
  for (guint i = 0; i < klass->props->len; i++)
    {
      EffProp *p = &g_array_index (klass->props, EffProp, i);

      if (p->boolean)
        {
          g_value_init (&inst->values[i], G_TYPE_BOOLEAN);
          g_value_set_boolean (&inst->values[i], p->def != 0);
        }
      else if (p->integer)
        {
          g_value_init (&inst->values[i], G_TYPE_INT);
          g_value_set_int (&inst->values[i], (gint) p->def);
        }
      else if (p->color)
        {
          g_value_init (&inst->values[i], GEGL_TYPE_COLOR);
          g_param_value_set_default (p->spec, &inst->values[i]);
        }
      else
        {
          g_value_init (&inst->values[i], G_TYPE_DOUBLE);
          g_value_set_double (&inst->values[i], p->def);
        }
    }
  sl_effect_host_values_init (&hv);
  host = &inst->values[klass->props->len];
  g_value_init (&host[HOST_SEED], G_TYPE_INT);
  g_value_init (&host[HOST_TIMER], G_TYPE_DOUBLE);
  g_value_set_double (&host[HOST_TIMER], hv.timer_ms);
  g_value_init (&host[HOST_FRAMETIME], G_TYPE_DOUBLE);
  g_value_set_double (&host[HOST_FRAMETIME], hv.frametime_ms);
  g_value_init (&host[HOST_FRAMECOUNT], G_TYPE_INT);
  g_value_set_int (&host[HOST_FRAMECOUNT], (gint) hv.framecount);
  g_value_init (&host[HOST_MOUSE_X], G_TYPE_DOUBLE);
  g_value_init (&host[HOST_MOUSE_Y], G_TYPE_DOUBLE);
  for (gint k = 0; k < 4; k++)
    {
      g_value_init (&host[HOST_DATE_YEAR + k], G_TYPE_INT);
      g_value_set_int (&host[HOST_DATE_YEAR + k], hv.date[k]);
    }
  g_value_init (&host[HOST_LINEAR], G_TYPE_BOOLEAN);
  g_value_init (&inst->values[error_slot (klass)], G_TYPE_STRING);
  g_value_set_string (&inst->values[error_slot (klass)], "");
  g_object_set_qdata_full (G_OBJECT (operation), inst_quark, inst,
                           inst_free);
  return inst;
}

static void
set_property (GObject      *object,
              guint         id,
              const GValue *value,
              GParamSpec   *pspec)
{
  EffClass *klass = class_of (object);
  EffInst  *inst  = inst_of (object);

  if (id == error_slot (klass) + 2)    /* has-errors follows error */
    return;
  g_mutex_lock (&inst->lock);
  g_value_copy (value, &inst->values[id - 1]);
  inst->serial++;
  if (id != error_slot (klass) + 1)
    inst->settings_serial++;
  g_mutex_unlock (&inst->lock);
}

static void
get_property (GObject    *object,
              guint       id,
              GValue     *value,
              GParamSpec *pspec)
{
  EffClass *klass = class_of (object);
  EffInst  *inst  = inst_of (object);

  g_mutex_lock (&inst->lock);
  if (id == error_slot (klass) + 2)
    {
      const gchar *text = g_value_get_string (&inst->values[error_slot (klass)]);

      g_value_set_boolean (value, text && text[0]);
    }
  else
    g_value_copy (&inst->values[id - 1], value);
  g_mutex_unlock (&inst->lock);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                             */
/* ------------------------------------------------------------------ */

/* At a coarser level the BUFFER_* macros keep the full image's values;
 * the library's own definitions (for the level's size) come first, so
 * these replace them.  NULL at level 0. */
static gchar **
level_defines (const GeglRectangle *bbox,
               gint                 level)
{
  GPtrArray *defs;

  if (level == 0)
    return NULL;
  defs = g_ptr_array_new ();
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_WIDTH=%d", bbox->width));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_HEIGHT=%d", bbox->height));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_RCP_WIDTH=(1.0 / %d)",
                                          bbox->width));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_RCP_HEIGHT=(1.0 / %d)",
                                          bbox->height));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_PIXEL_SIZE="
                                          "float2(1.0 / %d, 1.0 / %d)",
                                          bbox->width, bbox->height));
  g_ptr_array_add (defs, NULL);
  return (gchar **) g_ptr_array_free (defs, FALSE);
}

/* The effect compiled for @bbox at @level, kept per level.  Called with
 * the lock held. */
static SlEffect *
effect_for (EffClass            *klass,
            EffInst             *inst,
            const GeglRectangle *bbox,
            gint                 level,
            SlDiagnostics       *diags)
{
  GeglRectangle    size    = gs_scale_rect (bbox, level);
  gchar           *dir;
  const gchar     *dirs[2];
  gchar          **defines;
  SlEffectOptions  options = { 0 };

  if (inst->fx[level] &&
      inst->fx_width[level] == bbox->width &&
      inst->fx_height[level] == bbox->height)
    return inst->fx[level];

  g_clear_pointer (&inst->fx[level], sl_effect_unref);
  dir     = g_path_get_dirname (klass->path);
  dirs[0] = dir;
  dirs[1] = NULL;
  defines = level_defines (bbox, level);
  options.source        = g_bytes_get_data (klass->source, &options.length);
  options.filename      = klass->path;
  if (g_getenv ("GEGL_SHADERS_ALLOW_ANY_PATH"))
    options.flags |= SL_COMPILE_ANY_PATH;
  options.include_dirs  = dirs;
  options.defines       = (const gchar *const *) defines;
  options.buffer_width  = size.width;
  options.buffer_height = size.height;
  inst->fx[level] = sl_effect_compile (&options, diags);
  inst->fx_width[level]  = bbox->width;
  inst->fx_height[level] = bbox->height;
  g_strfreev (defines);
  g_free (dir);
  return inst->fx[level];
}

/* Loads the effect's image textures, relative to the effect file, once
 * per instance.  Called with the lock held. */
static void
load_images (EffClass *klass,
             EffInst  *inst,
             SlEffect *fx)
{
  gchar     *dir;
  GPtrArray *filter_dirs;

  if (inst->images)
    return;
  inst->images = g_ptr_array_new_with_free_func ((GDestroyNotify) gs_image_free);
  dir = g_path_get_dirname (klass->path);
  filter_dirs = gs_filter_dirs (NULL);
  g_ptr_array_add (filter_dirs, NULL);
  for (gint i = 0; i < sl_effect_get_n_textures (fx); i++)
    {
      const SlEffectTexture *tx    = sl_effect_get_texture (fx, i);
      GsImage               *image = NULL;
      GError                *error = NULL;
      gchar                 *path;

      if (tx->kind == SL_EFFECT_TEXTURE_IMAGE)
        {
          /* The library found the file as ReShade does (next to the
           * effect, in the include folders, in any case).  One it did not
           * find reads as zero and the effect renders, as in ReShade and
           * the CLI; the dialog says which.  One that is there but does
           * not load is an error (README, "Hostile input"). */
          if (! tx->source_path)
            {
              gchar *what = g_strdup_printf (_("image '%s' not found"),
                                             tx->source_file);
              gchar *line = g_strdup_printf (_("texture '%s': %s; the "
                                               "texture reads as zero"),
                                             tx->name, what);
              gchar *all  = inst->image_warning
                            ? g_strconcat (inst->image_warning, "\n", line,
                                           NULL)
                            : g_strdup (line);

              g_free (inst->image_warning);
              inst->image_warning = all;
              g_free (line);
              g_free (what);
              g_ptr_array_add (inst->images, NULL);
              continue;
            }
          path  = tx->source_path
                  ? g_strdup (tx->source_path)
                  : g_path_is_absolute (tx->source_file)
                  ? g_strdup (tx->source_file)
                  : g_build_filename (dir, tx->source_file, NULL);
          /* The confinement rule (README, "Hostile input"): the effect's
           * own folder and the filter folders. */
          if (! g_getenv ("GEGL_SHADERS_ALLOW_ANY_PATH") &&
              g_file_test (path, G_FILE_TEST_EXISTS) &&
              ! gs_path_confined (path, klass->path,
                                  (const gchar *const *) filter_dirs->pdata))
            {
              if (! inst->image_error)
                inst->image_error =
                  g_strdup_printf (_("texture '%s': '%s' is outside the effect's "
                                     "folder (GEGL_SHADERS_ALLOW_ANY_PATH=1 allows it)"),
                                   tx->name, tx->source_file);
              g_free (path);
              g_ptr_array_add (inst->images, NULL);
              continue;
            }
          image = gs_image_load_within (path, gs_image_working_format (FALSE),
                                        gs_draw_memory_budget (), &error);
          if (! image && ! inst->image_error)
            {
              /* The size limit's message names the size, not the file. */
              gchar *message = error->code == GS_IMAGE_IO_ERROR_TOO_LARGE
                               ? g_strdup_printf ("'%s': %s", path,
                                                  error->message)
                               : g_strdup (error->message);

              inst->image_error = g_strdup_printf (_("texture '%s': %s"),
                                                   tx->name, message);
              g_free (message);
            }
          g_clear_error (&error);
          g_free (path);
        }
      g_ptr_array_add (inst->images, image);
    }
  g_ptr_array_unref (filter_dirs);
  g_free (dir);
}

/* The property values into the run, for an input of @bbox (at full
 * resolution: the mouse point is in its pixels, as BUFFER_* are at every
 * level).  Called with the lock held. */
static gboolean
set_values (EffClass            *klass,
            EffInst             *inst,
            const GeglRectangle *bbox,
            SlEffectRun         *run,
            SlDiagnostics       *diags)
{
  const GValue       *host = &inst->values[klass->props->len];
  SlEffectHostValues  hv;
  gboolean            ok   = TRUE;

  for (guint i = 0; i < klass->props->len; )
    {
      EffProp *p    = &g_array_index (klass->props, EffProp, i);
      gfloat   v[4] = { 0 };
      guint    n    = 0;

      while (i + n < klass->props->len &&
             strcmp (g_array_index (klass->props, EffProp, i + n).param,
                     p->param) == 0)
        {
          GValue *gv = &inst->values[i + n];

          /* A colour holds every component, in the working space. */
          if (p->color)
            {
              gfloat px[4];

              gegl_color_get_pixel (g_value_get_object (&inst->values[i]),
                                    babl_format (g_value_get_boolean (
                                      &host[HOST_LINEAR]) ? "RGBA float"
                                                          : "R'G'B'A float"),
                                    px);
              v[MIN (n, 3)] = px[MIN (n, 3)];
              n++;
              continue;
            }

          v[MIN (n, 3)] = G_VALUE_HOLDS_BOOLEAN (gv)
                          ? (gfloat) g_value_get_boolean (gv)
                          : G_VALUE_HOLDS_INT (gv)
                          ? (gfloat) g_value_get_int (gv)
                          : (gfloat) g_value_get_double (gv);
          n++;
        }
      ok &= sl_effect_run_set_param (run, p->param, v, (gint) n, diags);
      i += n;
    }

  sl_effect_host_values_init (&hv);
  hv.seed         = (guint32) g_value_get_int (&host[HOST_SEED]);
  hv.timer_ms     = g_value_get_double (&host[HOST_TIMER]);
  hv.frametime_ms = g_value_get_double (&host[HOST_FRAMETIME]);
  hv.framecount   = g_value_get_int (&host[HOST_FRAMECOUNT]);
  /* Pixels from the input's top-left corner, as GIMP's coordinate picker
   * gives them; the library takes a fraction of the image. */
  hv.mouse_x      = g_value_get_double (&host[HOST_MOUSE_X]) / bbox->width;
  hv.mouse_y      = g_value_get_double (&host[HOST_MOUSE_Y]) / bbox->height;
  for (gint k = 0; k < 4; k++)
    hv.date[k] = g_value_get_int (&host[HOST_DATE_YEAR + k]);
  sl_effect_run_set_host_values (run, &hv);
  return ok;
}

/* Keeps the errors only: at a coarser level the BUFFER_* redefinitions
 * warn, and whatever else a compile says was said at level 0. */
static gchar *
format_errors (SlDiagnostics *diags)
{
  SlDiagnostics *errors = sl_diagnostics_new ();
  gchar         *text;

  for (gint i = 0; i < sl_diagnostics_count (diags); i++)
    {
      const SlDiagnostic *d = sl_diagnostics_get (diags, i);

      if (d->severity == SL_SEVERITY_ERROR)
        sl_diagnostics_add (errors, d->severity, d->file, d->line,
                            d->column, d->code, "%s", d->message);
    }
  text = gs_format_diagnostics (errors);
  sl_diagnostics_free (errors);
  return text;
}

static GsDraw *
build_draw (EffClass            *klass,
            EffInst             *inst,
            const GeglRectangle *bbox,
            gint                 level,
            gchar              **failure)
{
  SlDiagnostics *diags = sl_diagnostics_new ();
  GsDraw        *draw  = gs_draw_new (bbox, level);
  SlEffect      *fx    = effect_for (klass, inst, bbox, level, diags);
  SlEffectRun   *run;
  gboolean       ok;
  gint           technique;

  *failure = NULL;
  if (fx)
    load_images (klass, inst, fx);
  if (! fx || inst->image_error)
    {
      *failure = fx ? g_strdup (inst->image_error) : format_errors (diags);
      if (! (*failure)[0])
        {
          g_free (*failure);
          *failure = g_strdup (_("the shader failed to compile"));
        }
      sl_diagnostics_free (diags);
      return draw;
    }

  technique = MAX (sl_effect_find_technique (fx, klass->technique), 0);
  run = sl_effect_run_new (fx, technique);
  /* The texture images this instance holds count against the budget. */
  {
    gsize held = 0;

    for (guint i = 0; i < inst->images->len; i++)
      {
        GsImage *image = g_ptr_array_index (inst->images, i);

        if (image)
          held += gs_image_bytes (image->width, image->height);
      }
    sl_effect_run_set_memory_budget (run, gs_draw_memory_budget (), held);
  }
  ok  = set_values (klass, inst, bbox, run, diags);
  for (guint i = 0; ok && i < inst->images->len; i++)
    {
      GsImage *image = g_ptr_array_index (inst->images, i);

      if (image)
        ok = sl_effect_run_set_image (run, (gint) i, image->width,
                                      image->height,
                                      (gsize) image->width * 4,
                                      image->pixels, diags);
    }
  /* Until process() fetches it, the input is a blank texel at the right
   * size (the sampling reach is measured in its texels). */
  sl_effect_run_set_input (run, &draw->placeholder[0]);
  if (! gs_draw_prepare_effect (draw, fx, run, ok, diags))
    {
      *failure = format_errors (diags);
      if (! (*failure)[0])
        {
          g_free (*failure);
          *failure = g_strdup (_("the shader could not be prepared"));
        }
    }
  else if (inst->image_warning)
    *failure = g_strdup (inst->image_warning);  /* and it renders */
  sl_diagnostics_free (diags);
  return draw;
}

/* Makes the "error" property say what the last build and the current
 * settings' rendering hit; also undoes a write from outside (GIMP
 * restoring a dialog's last values).  Called with the lock held. */
static void
publish (GeglOperation       *operation,
         EffClass            *klass,
         EffInst             *inst,
         const GeglRectangle *bbox)
{
  GValue      *v       = &inst->values[error_slot (klass)];
  const gchar *build   = "";
  const gchar *runtime = inst->runtime_error &&
                         inst->runtime_serial == inst->settings_serial &&
                         gegl_rectangle_equal (&inst->runtime_bbox, bbox)
                         ? inst->runtime_error : "";
  gchar       *text;

  for (gint i = GS_N_LEVELS - 1; i >= 0; i--)
    if (inst->build_error[i] &&
        inst->build_settings[i] == inst->settings_serial &&
        gegl_rectangle_equal (&inst->draw_bbox[i], bbox))
      build = inst->build_error[i];
  text = build[0] && runtime[0] ? g_strconcat (build, "\n", runtime, NULL)
                                : g_strdup (build[0] ? build : runtime);

  gs_error_publish (operation, v, klass->op_name, text);
  g_free (text);
}

/* @text with the effect's folder left out of its paths; takes @text. */
static gchar *
shorten (EffClass *klass,
         gchar    *text)
{
  gchar *folder = g_path_get_dirname (klass->path);
  gchar *shown  = gs_error_shorten (text, folder);

  g_free (folder);
  g_free (text);
  return shown;
}

static gboolean
input_bbox (GeglOperation *operation,
            GeglRectangle *bbox)
{
  GeglRectangle *r = gegl_operation_source_get_bounding_box (operation,
                                                              "input");

  if (! r || r->width <= 0 || r->height <= 0 ||
      gegl_rectangle_is_infinite_plane (r))
    return FALSE;
  *bbox = *r;
  return TRUE;
}

/* The draw for the current properties, invocation and input at @level,
 * building it when needed.  NULL when the op passes its input through. */
static GsDraw *
acquire_draw (GeglOperation *operation,
              gint           level)
{
  EffClass      *klass   = class_of (operation);
  EffInst       *inst    = inst_of (operation);
  GsDraw        *draw    = NULL;
  GeglRectangle  bbox;

  if (! input_bbox (operation, &bbox))
    return NULL;

  g_mutex_lock (&inst->lock);
  if (! inst->draws[level] ||
      inst->draw_serial[level] != inst->serial ||
      ! gegl_rectangle_equal (&inst->draw_bbox[level], &bbox))
    {
      gchar *failure;

      g_clear_pointer (&inst->draws[level], gs_draw_unref);
      inst->draws[level]       = build_draw (klass, inst, &bbox, level,
                                             &failure);
      inst->draw_serial[level] = inst->serial;
      inst->draw_bbox[level]   = bbox;
      g_free (inst->build_error[level]);
      inst->build_error[level]    = failure ? shorten (klass, failure) : NULL;
      inst->build_settings[level] = inst->settings_serial;
    }
  if (inst->draws[level]->run)
    draw = gs_draw_ref (inst->draws[level]);
  publish (operation, klass, inst, &bbox);
  g_mutex_unlock (&inst->lock);
  return draw;
}

/* The level-0 draw as it is, for GEGL's region questions. */
static GsDraw *
peek_draw (GeglOperation *operation)
{
  EffInst *inst = inst_of (operation);
  GsDraw  *draw = NULL;

  g_mutex_lock (&inst->lock);
  if (inst->draws[0] && inst->draws[0]->run)
    draw = gs_draw_ref (inst->draws[0]);
  g_mutex_unlock (&inst->lock);
  return draw;
}

static void
prepare (GeglOperation *operation)
{
  EffClass   *klass  = class_of (operation);
  EffInst    *inst   = inst_of (operation);
  const Babl *format;
  gboolean    linear;
  GsDraw     *draw;

  g_mutex_lock (&inst->lock);
  linear = g_value_get_boolean (&inst->values[klass->props->len +
                                              HOST_LINEAR]);
  g_mutex_unlock (&inst->lock);
  format = babl_format (linear ? "RGBA float" : "R'G'B'A float");

  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);

  /* A new invocation: the intermediate targets are computed again. */
  g_mutex_lock (&inst->lock);
  inst->serial++;
  g_mutex_unlock (&inst->lock);

  draw = acquire_draw (operation, 0);
  gs_operation_set_caching (operation, draw && ! draw->bounded);
  if (draw)
    gs_draw_unref (draw);
}

static GeglRectangle
get_required_for_output (GeglOperation       *operation,
                         const gchar         *input_pad,
                         const GeglRectangle *roi)
{
  GsDraw        *draw = peek_draw (operation);
  GeglRectangle  bbox;
  GeglRectangle  result;

  if (! draw)
    return input_bbox (operation, &bbox) ? bbox : *roi;
  result = gs_draw_required (draw, roi);
  gs_draw_unref (draw);
  return result;
}

static GeglRectangle
get_invalidated_by_change (GeglOperation       *operation,
                           const gchar         *input_pad,
                           const GeglRectangle *region)
{
  GsDraw        *draw = peek_draw (operation);
  GeglRectangle  bbox;
  GeglRectangle  result;

  if (! input_bbox (operation, &bbox))
    {
      if (draw)
        gs_draw_unref (draw);
      return *region;
    }
  if (! draw)
    return bbox;
  result = gs_draw_invalidated (draw, region, &bbox);
  gs_draw_unref (draw);
  return result;
}

static GeglRectangle
get_cached_region (GeglOperation       *operation,
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

static gboolean
process (GeglOperation       *operation,
         GeglBuffer          *input,
         GeglBuffer          *output,
         const GeglRectangle *result,
         gint                 level)
{
  EffClass *klass   = class_of (operation);
  GsDraw   *draw;
  gchar    *failure = NULL;

  level = CLAMP (level, 0, GS_N_LEVELS - 1);
  draw  = acquire_draw (operation, level);
  gs_draw_render (operation, draw, input, NULL, output, result, level,
                  &failure);
  if (failure)
    {
      EffInst       *inst = inst_of (operation);
      GeglRectangle  bbox;

      g_mutex_lock (&inst->lock);
      if (input_bbox (operation, &bbox) &&
          ! (inst->runtime_error &&
             inst->runtime_serial == inst->settings_serial &&
             gegl_rectangle_equal (&inst->runtime_bbox, &bbox)))
        {
          g_free (inst->runtime_error);
          inst->runtime_error  = shorten (klass, failure);
          inst->runtime_serial = inst->settings_serial;
          inst->runtime_bbox   = bbox;
          failure = NULL;
          publish (operation, klass, inst, &bbox);
        }
      g_mutex_unlock (&inst->lock);
      g_free (failure);
    }
  if (draw)
    gs_draw_unref (draw);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

/* The property of a parameter component: its name in the file with the
 * axis for vector components (@nick), lower case with '-' for '_'; a name
 * another property has already is made unique. */
static gchar *
property_name (const gchar  *nick,
               GObjectClass *object_class)
{
  gchar *base = g_ascii_strdown (nick, -1);
  gchar *prop = g_strdup (base);
  gint   n    = 2;

  g_strdelimit (base, "_", '-');
  g_strdelimit (prop, "_", '-');
  while (g_object_class_find_property (object_class, prop))
    {
      g_free (prop);
      prop = g_strdup_printf ("%s-%d", base, n++);
    }
  g_free (base);
  return prop;
}

static void
install_host_properties (GObjectClass *object_class,
                         EffClass     *klass)
{
  GParamFlags        flags   = G_PARAM_READWRITE | G_PARAM_CONSTRUCT |
                               GEGL_PARAM_PAD_INPUT;
  guint              host_id = klass->props->len + 1;
  SlEffectHostValues hv;
  GParamSpec        *pspec;

  sl_effect_host_values_init (&hv);
  /* A parameter of the same name keeps its property. */
  if ((klass->host_used & (1u << HOST_SEED)) &&
      ! g_object_class_find_property (object_class, "seed"))
    {
      pspec = gegl_param_spec_seed ("seed", _("Random seed"),
                                    _("Drives uniforms with source = "
                                      "\"random\""), flags);
      g_object_class_install_property (object_class, host_id + HOST_SEED,
                                       pspec);
    }
  if ((klass->host_used & (1u << HOST_TIMER)) &&
      ! g_object_class_find_property (object_class, "timer"))
    {
      pspec = gegl_param_spec_double ("timer", _("Timer (ms)"),
                                      _("Uniforms with source = \"timer\": "
                                        "milliseconds since the effect "
                                        "started"),
                                      0.0, G_MAXDOUBLE, hv.timer_ms,
                                      0.0, 60000.0, 1.0, flags);
      g_object_class_install_property (object_class, host_id + HOST_TIMER,
                                       pspec);
    }
  if ((klass->host_used & (1u << HOST_FRAMETIME)) &&
      ! g_object_class_find_property (object_class, "frametime"))
    {
      pspec = gegl_param_spec_double ("frametime", _("Frame time (ms)"),
                                      _("Uniforms with source = "
                                        "\"frametime\": milliseconds since "
                                        "the last frame"),
                                      0.0, G_MAXDOUBLE, hv.frametime_ms,
                                      0.0, 100.0, 1.0, flags);
      g_object_class_install_property (object_class,
                                       host_id + HOST_FRAMETIME, pspec);
    }
  if ((klass->host_used & (1u << HOST_FRAMECOUNT)) &&
      ! g_object_class_find_property (object_class, "framecount"))
    {
      pspec = gegl_param_spec_int ("framecount", _("Frame count"),
                                   _("Uniforms with source = "
                                     "\"framecount\": frames since the "
                                     "effect started"),
                                   0, G_MAXINT, (gint) hv.framecount,
                                   0, 1000, 1.0, flags);
      g_object_class_install_property (object_class,
                                       host_id + HOST_FRAMECOUNT, pspec);
    }
  if ((klass->host_used & (1u << HOST_MOUSE_X)) &&
      ! g_object_class_find_property (object_class, "mousepoint-x") &&
      ! g_object_class_find_property (object_class, "mousepoint-y"))
    {
      /* A pair GIMP shows as one point with its "Pick coordinates from
       * the image" button: consecutive ids, axis x then y, in pixels. */
      for (gint c = 0; c < 2; c++)
        {
          pspec = gegl_param_spec_double (c ? "mousepoint-y" : "mousepoint-x",
                                          c ? _("Mouse point Y")
                                            : _("Mouse point X"),
                                          _("Uniforms with source = "
                                            "\"mousepoint\": the pointer, "
                                            "in pixels from the image's "
                                            "top-left corner"),
                                          -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                                          0.0, 1024.0, 1.0, flags);
          gegl_param_spec_set_property_key (pspec, "unit", "pixel-coordinate");
          gegl_param_spec_set_property_key (pspec, "axis", c ? "y" : "x");
          g_object_class_install_property (object_class,
                                           host_id + HOST_MOUSE_X + c, pspec);
        }
    }
  if ((klass->host_used & (1u << HOST_DATE_YEAR)))
    {
      static const struct
      {
        const gchar *name, *label, *blurb;
        gint         min, max;
      } date[4] =
      {
        { "date-year",    N_("Year"),
          N_("Uniforms with source = \"date\": the year"), 0, 9999 },
        { "date-month",   N_("Month"),
          N_("Uniforms with source = \"date\": the month, 1 to 12"), 1, 12 },
        { "date-day",     N_("Day"),
          N_("Uniforms with source = \"date\": the day of the month, "
             "1 to 31"), 1, 31 },
        { "date-seconds", N_("Time of day (s)"),
          N_("Uniforms with source = \"date\": seconds since midnight"),
          0, 86399 }
      };

      /* Defaults: when the module loaded, as a running game would see. */
      for (gint k = 0; k < 4; k++)
        if (! g_object_class_find_property (object_class, date[k].name))
          {
            pspec = gegl_param_spec_int (date[k].name, _(date[k].label),
                                         _(date[k].blurb),
                                         date[k].min, date[k].max,
                                         CLAMP (hv.date[k], date[k].min,
                                                date[k].max),
                                         date[k].min, date[k].max, 1.0,
                                         flags);
            g_object_class_install_property (object_class,
                                             host_id + HOST_DATE_YEAR + k,
                                             pspec);
          }
    }
  if (klass->host_used & (1u << HOST_LINEAR))
    {
      pspec = g_param_spec_boolean ("linear", _("Linear light"),
                                    _("Give the shader linear RGBA instead "
                                      "of perceptual R'G'B'A"),
                                    FALSE, flags);
      g_object_class_install_property (object_class, host_id + HOST_LINEAR,
                                       pspec);
    }
}

static void
class_init (gpointer g_class,
            gpointer class_data)
{
  EffClass           *klass           = class_data;
  GObjectClass       *object_class    = G_OBJECT_CLASS (g_class);
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (g_class);
  GParamFlags         flags           = G_PARAM_READWRITE | G_PARAM_CONSTRUCT |
                                        GEGL_PARAM_PAD_INPUT;
  GParamSpec         *pspec;

  object_class->set_property = set_property;
  object_class->get_property = get_property;

  operation_class->prepare                   = prepare;
  operation_class->get_required_for_output   = get_required_for_output;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  operation_class->get_cached_region         = get_cached_region;
  /* process() splits the work itself (render-area.c). */
  operation_class->threaded                  = FALSE;
  operation_class->want_in_place             = FALSE;

  GEGL_OPERATION_FILTER_CLASS (g_class)->process = process;

  /* First, so that they keep their names as on every op of the module. */
  gs_error_install (object_class, error_slot (klass) + 1,
                    error_slot (klass) + 2, "");

  for (guint i = 0; i < klass->props->len; i++)
    {
      static const gchar *const axis[] = { "-x", "-y", "-z", "-w" };
      EffProp  *p      = &g_array_index (klass->props, EffProp, i);
      gboolean  vector = p->component > 0 ||
                         (i + 1 < klass->props->len &&
                          strcmp (g_array_index (klass->props, EffProp,
                                                 i + 1).param,
                                  p->param) == 0);
      gchar    *nick   = g_strconcat (p->param,
                                      vector ? axis[p->component] : "",
                                      NULL);
      gchar    *prop   = property_name (nick, object_class);

      if (p->covered)
        {
          g_free (nick);
          g_free (prop);
          continue;
        }
      if (p->spec && ! g_object_class_find_property (object_class,
                                                      p->spec->name))
        pspec = p->spec;
      else if (p->boolean)
        pspec = g_param_spec_boolean (prop, nick, NULL, p->def != 0, flags);
      else
        pspec = gegl_param_spec_double (prop, nick, NULL, p->min, p->max,
                                        p->def, p->min, p->max, 1.0, flags);
      g_object_class_install_property (object_class, i + 1, pspec);
      g_free (nick);
      g_free (prop);
    }

  install_host_properties (object_class, klass);

  gegl_operation_class_set_keys (operation_class,
    "name",        klass->op_name,
    "title",       klass->title,
    "categories",  "shaders",
    "description", klass->description,
    "source",      klass->path,
    NULL);
  if (klass->menu_path)
    gegl_operation_class_set_keys (operation_class,
      "shader-license",  klass->license,
      "license",         strstr (klass->license, "GPL") &&
                         ! strstr (klass->license, "LGPL") ? "GPL3+" : NULL,
      "gimp:menu-path",  klass->menu_path,
      "gimp:menu-label", klass->menu_label,
      NULL);
}

static gdouble
annotation_number (const SlParam *param,
                   const gchar   *name,
                   gdouble        fallback)
{
  gdouble value;

  return gs_annotation_number (param, name, &value) ? value : fallback;
}

static const gchar *
technique_string (const SlEffectTechnique *technique,
                  const gchar             *name)
{
  for (gint i = 0; i < technique->n_annotations; i++)
    if (g_ascii_strcasecmp (technique->annotations[i].name, name) == 0 &&
        technique->annotations[i].type == SL_ANNOTATION_STRING)
      return technique->annotations[i].string_value;
  return NULL;
}

/* The properties of the file: the union of its parameters, one per
 * component, and the host values it asks for. */
static GArray *
plan_properties (SlEffect   *fx,
                 SlMetadata *header,
                 guint      *host_used)
{
  /* The property (the first of several) each source asks for. */
  static const struct { const gchar *source; Host host; } host_names[] =
  {
    { "random",     HOST_SEED },
    { "timer",      HOST_TIMER },
    { "frametime",  HOST_FRAMETIME },
    { "framecount", HOST_FRAMECOUNT },
    { "mousepoint", HOST_MOUSE_X },
    { "date",       HOST_DATE_YEAR }
  };
  GArray *props = g_array_new (FALSE, TRUE, sizeof (EffProp));

  *host_used = 0;
  for (gint i = 0; i < sl_effect_get_n_params (fx); i++)
    {
      const SlParam *p   = sl_effect_get_param (fx, i);
      const gchar   *src = sl_param_get_host_source (p);

      if (src)
        {
          for (guint k = 0; k < G_N_ELEMENTS (host_names); k++)
            if (strcmp (src, host_names[k].source) == 0)
              *host_used |= 1u << host_names[k].host;
          continue;
        }
      /* Matrices and arrays stay at their defaults. */
      if (p->rows != 1 || p->array_size || p->columns > 4)
        continue;
      for (gint k = 0; k < p->columns; k++)
        {
          EffProp e = { 0 };

          e.param     = g_strdup (p->name);
          e.component = k;
          e.boolean   = p->type == SL_SCALAR_BOOL;
          e.def       = p->default_value ? p->default_value[k] : 0.0;
          e.min       = annotation_number (p, "ui_min",
                                           annotation_number (p, "UIMin",
                                                              -1e6));
          e.max       = annotation_number (p, "ui_max",
                                           annotation_number (p, "UIMax",
                                                              1e6));
          e.min = MIN (e.min, e.def);
          e.max = MAX (e.max, e.def);
          if (header && k > 0 && props->len > 0 &&
              g_array_index (props, EffProp, props->len - k).color)
            e.covered = TRUE;
          else if (header && p->type != SL_SCALAR_BOOL)
            {
              gchar      *name = g_ascii_strdown (p->name, -1);
              GParamSpec *spec;

              g_strdelimit (name, "_", '-');
              spec = gs_shader_uniform_spec (header, p, name,
                                             G_PARAM_READWRITE |
                                             G_PARAM_CONSTRUCT |
                                             GEGL_PARAM_PAD_INPUT);
              if (spec)
                {
                  e.spec    = g_param_spec_ref_sink (spec);
                  e.color   = GEGL_IS_PARAM_SPEC_COLOR (spec);
                  e.integer = G_IS_PARAM_SPEC_INT (spec);
                }
              g_free (name);
            }
          g_array_append_val (props, e);
        }
    }
  return props;
}

/* An op whose technique samples depth says that depth is flat here:
 * ReShade's formula over an empty depth buffer, the far plane. */
static void
depth_note (EffClass *klass,
            SlEffect *fx,
            gint      technique)
{
  gchar *text;

  if (! sl_effect_technique_reads_depth (fx, technique))
    return;
  text = g_strconcat (klass->description,
                      klass->description[0] ? " " : "",
                      _("It reads the depth buffer, which is flat here: a "
                        "still image has no depth (it reads as the far "
                        "plane)."),
                      NULL);
  g_free (klass->description);
  klass->description = text;
}

static gboolean
register_class (GTypeModule *module,
                EffClass    *klass)
{
  GTypeQuery query;
  GTypeInfo  info = { 0 };
  GType      type;

  g_type_query (GEGL_TYPE_OPERATION_FILTER, &query);
  info.class_size    = query.class_size;
  info.class_init    = class_init;
  info.class_data    = klass;
  info.instance_size = query.instance_size;
  type = g_type_module_register_type (module, GEGL_TYPE_OPERATION_FILTER,
                                      klass->type_name, &info, 0);
  if (type)
    g_type_set_qdata (type, class_quark, klass);
  return type != 0;
}

guint
gs_effect_ops_claim (GTypeModule *module,
                     const gchar *path,
                     const gchar *stem)
{
  GPtrArray       *classes;
  gchar           *source = NULL;
  gsize            length = 0;
  GBytes          *shared;
  gchar           *dir;
  const gchar     *dirs[2];
  SlEffectOptions  options = { 0 };
  SlDiagnostics   *diags;
  SlEffect        *fx;
  GArray          *props;
  guint            host_used;
  SlMetadata      *header;
  guint            count = 0;
  gint             n_techniques;

  if (! gs_shader_file_read (path, &source, &length, NULL) ||
      ! sl_effect_detect (source, length))
    {
      g_free (source);
      return 0;
    }
  if (! class_quark)
    {
      class_quark   = g_quark_from_static_string ("gegl-shaders-effect-class");
      inst_quark    = g_quark_from_static_string ("gegl-shaders-effect-instance");
      known_effects = g_hash_table_new (g_str_hash, g_str_equal);
    }
  classes = g_hash_table_lookup (known_effects, path);
  if (classes)
    {
      for (guint i = 0; i < classes->len; i++)
        count += register_class (module, g_ptr_array_index (classes, i));
      g_free (source);
      return MAX (count, 1);
    }

  dir     = g_path_get_dirname (path);
  dirs[0] = dir;
  dirs[1] = NULL;
  options.source        = source;
  options.length        = length;
  options.filename      = path;
  if (g_getenv ("GEGL_SHADERS_ALLOW_ANY_PATH"))
    options.flags |= SL_COMPILE_ANY_PATH;
  options.include_dirs  = dirs;
  options.buffer_width  = NOMINAL_SIZE;
  options.buffer_height = NOMINAL_SIZE;
  diags = sl_diagnostics_new ();
  fx    = sl_effect_compile (&options, diags);
  g_free (dir);
  if (! fx)
    {
      gchar *text = gs_format_diagnostics (diags);

      g_warning ("effect '%s' does not compile; no op registered:\n%s",
                 path, text);
      g_free (text);
      sl_diagnostics_free (diags);
      g_free (source);
      return 1;   /* claimed: it is an effect, just a broken one */
    }
  sl_diagnostics_free (diags);

  n_techniques = sl_effect_get_n_techniques (fx);
  if (n_techniques > MAX_EFFECT_OPS)
    g_warning ("effect '%s' has %d techniques; only the first %d become "
               "operations", path, n_techniques, MAX_EFFECT_OPS);
  /* Only a one-technique file takes a filter header; the parse scans the
   * whole text, so a file of thousands of techniques skips it. */
  header       = n_techniques == 1 ? sl_metadata_parse (source, length)
                                   : NULL;
  if (header && ! sl_metadata_get (header, "title"))
    g_clear_pointer (&header, sl_metadata_free);
  props        = plan_properties (fx, header, &host_used);
  if (header)
    host_used |= 1u << HOST_LINEAR;
  classes      = g_ptr_array_new ();
  g_hash_table_insert (known_effects, g_strdup (path), classes);
  /* Takes the buffer read above; every class holds a reference. */
  shared       = g_bytes_new_take (source, length);
  source       = NULL;
  for (gint t = 0; t < MIN (n_techniques, MAX_EFFECT_OPS); t++)
    {
      const SlEffectTechnique *tech  = sl_effect_get_technique (fx, t);
      EffClass                *klass = g_new0 (EffClass, 1);
      const gchar             *label = technique_string (tech, "ui_label");
      const gchar             *tip   = technique_string (tech, "ui_tooltip");

      klass->path      = g_strdup (path);
      klass->source    = g_bytes_ref (shared);
      klass->technique = g_strdup (tech->name);
      klass->props     = props;
      klass->host_used = host_used;
      klass->op_name   = n_techniques > 1
                         ? g_strdup_printf ("shader:%s-%s", stem, tech->name)
                         : g_strdup_printf ("shader:%s", stem);
      klass->type_name = g_strdup_printf ("GeglShaderEffect_%s",
                                          klass->op_name + 7);
      g_strcanon (klass->type_name,
                  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "0123456789_", '_');
      klass->title       = g_strdup (label ? label : klass->op_name + 7);
      klass->description = g_strdup_printf ("%s%s%d pass(es) of the effect "
                                            "file %s.",
                                            tip ? tip : "", tip ? " — " : "",
                                            tech->n_passes, path);
      if (header)
        {
          const gchar *author = sl_metadata_get (header, "author");
          const gchar *desc   = sl_metadata_get (header, "description");
          const gchar *menu   = sl_metadata_get (header, "menu");
          const gchar *mlabel = sl_metadata_get (header, "label");
          const gchar *lic    = sl_metadata_get (header, "license");

          desc = desc ? gs_shader_tr (desc) : "";
          g_free (klass->title);
          g_free (klass->description);
          klass->title       = g_strdup (label ? label : gs_shader_tr (
                                 sl_metadata_get (header, "title")));
          klass->description = author
                               ? g_strdup_printf ("%s%s(%s)", desc,
                                                  desc[0] ? " " : "", author)
                               : g_strdup (desc);
          klass->menu_path   = g_strdup (menu && menu[0] ? menu
                                         : "<Image>/Filters/Shaders");
          klass->menu_label  = mlabel && mlabel[0]
                               ? g_strdup (gs_shader_tr (mlabel))
                               : g_strconcat (klass->title, "...", NULL);
          klass->license     = g_strdup (lic ? lic : "");
        }

      depth_note (klass, fx, t);
      g_ptr_array_add (classes, klass);
      count += register_class (module, klass);
    }
  if (header)
    sl_metadata_free (header);
  g_bytes_unref (shared);
  sl_effect_unref (fx);
  return MAX (count, 1);
}
