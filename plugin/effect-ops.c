/* shader:<stem>[-<technique>] — effect-file techniques as GEGL operations.
 *
 * Design.  At registration the effect is compiled once at a nominal size
 * to learn its techniques and the union of its parameters; each technique
 * becomes a GeglOperationFilter subclass whose properties are those
 * parameters (one double per component, `name-x`… for vectors, booleans
 * for bools).  Uniforms with a host source are not properties themselves:
 * the op gets one property per host value the file uses — `seed` for
 * `source = "random"`, `timer` and `frametime` (milliseconds) and
 * `framecount` — so animations can be scrubbed from GIMP or a batch
 * script frame by frame.  Matrix and array uniforms are not properties:
 * they keep the file's defaults (GParamSpecs have no natural shape for
 * them; the CLI's --set NAME=V,V,… sets them).  An instance compiles the effect
 * again for the real input size (texture sizes and BUFFER_* depend on it)
 * and keeps one SlEffectRun, re-prepared in prepare() with the current
 * property values.  prepare() starts a new invocation, so the intermediate
 * render targets are computed once per invocation, by the first chunk that
 * needs them, and reused by the others.
 *
 * Input region: when a pass before the last reads or writes the image, or
 * the last pass samples it freely, the whole input is needed; otherwise
 * the output rectangle plus the last pass's sampling reach.  Rendering is
 * serialised per instance (the run holds the invocation's targets). */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <gegl.h>
#include <gegl-plugin.h>

#include "shaderlib.h"
#include "effect-ops.h"
#include "pixel-fetch.h"

#define NOMINAL_SIZE 512

typedef struct
{
  gchar   *param;
  gint     component;
  gboolean boolean;
  gdouble  def, min, max;
} EffProp;                /* property id = index + 1 */

typedef struct
{
  gchar  *path, *op_name, *type_name, *title, *description, *technique;
  gchar  *source;
  gsize   length;
  GArray *props;          /* EffProp */
  guint   host_used;      /* bit per Host the file's uniforms ask for */
} EffClass;

/* Host-value properties; property id = props->len + 1 + Host, value slot
 * props->len + Host. */
typedef enum
{
  HOST_SEED, HOST_TIMER, HOST_FRAMETIME, HOST_FRAMECOUNT, N_HOST
} Host;

typedef struct
{
  GMutex        lock;
  GValue       *values;
  gint          width, height;
  SlEffect     *fx;
  SlEffectRun  *run;
  gboolean      ready, input_set;
  GeglRectangle bbox;
  float        *whole;
  float         blank[4];
  SlTexture     dummy, whole_tex;
  GPtrArray    *images;   /* float* of loaded images */
} EffInst;

static GQuark class_quark, inst_quark;

static EffClass *
class_of (gpointer op)
{
  return g_type_get_qdata (G_OBJECT_TYPE (op), class_quark);
}

static void
inst_free (gpointer p)
{
  EffInst *in = p;
  EffClass *c = NULL;
  (void) c;
  sl_effect_run_free (in->run);
  if (in->fx)
    sl_effect_unref (in->fx);
  g_free (in->whole);
  if (in->images)
    g_ptr_array_free (in->images, TRUE);
  g_mutex_clear (&in->lock);
  g_free (in->values);   /* plain numbers: nothing to unset */
  g_free (in);
}

static EffInst *
inst_of (gpointer op)
{
  EffInst *in = g_object_get_qdata (G_OBJECT (op), inst_quark);
  if (!in)
    {
      EffClass *c = class_of (op);
      in = g_new0 (EffInst, 1);
      g_mutex_init (&in->lock);
      in->values = g_new0 (GValue, c->props->len + N_HOST);
      for (guint i = 0; i < c->props->len; i++)
        {
          EffProp *p = &g_array_index (c->props, EffProp, i);
          if (p->boolean)
            {
              g_value_init (&in->values[i], G_TYPE_BOOLEAN);
              g_value_set_boolean (&in->values[i], p->def != 0);
            }
          else
            {
              g_value_init (&in->values[i], G_TYPE_DOUBLE);
              g_value_set_double (&in->values[i], p->def);
            }
        }
      SlEffectHostValues hv;
      sl_effect_host_values_init (&hv);
      GValue *host = &in->values[c->props->len];
      g_value_init (&host[HOST_SEED], G_TYPE_INT);
      g_value_init (&host[HOST_TIMER], G_TYPE_DOUBLE);
      g_value_set_double (&host[HOST_TIMER], hv.timer_ms);
      g_value_init (&host[HOST_FRAMETIME], G_TYPE_DOUBLE);
      g_value_set_double (&host[HOST_FRAMETIME], hv.frametime_ms);
      g_value_init (&host[HOST_FRAMECOUNT], G_TYPE_INT);
      g_value_set_int (&host[HOST_FRAMECOUNT], (gint) hv.framecount);
      g_object_set_qdata_full (G_OBJECT (op), inst_quark, in, inst_free);
    }
  return in;
}

static void
set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  EffInst *in = inst_of (object);
  guint idx = id - 1;
  g_mutex_lock (&in->lock);
  g_value_copy (value, &in->values[idx]);
  in->ready = FALSE;
  g_mutex_unlock (&in->lock);
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  EffInst *in = inst_of (object);
  guint idx = id - 1;
  g_value_copy (&in->values[idx], value);
}

/* Loads an image texture through GEGL, in the working format. */
static float *
load_image (const gchar *path, gint *w, gint *h)
{
  GeglNode *graph = gegl_node_new ();
  GeglBuffer *buffer = NULL;
  GeglNode *load = gegl_node_new_child (graph, "operation", "gegl:load", "path", path, NULL);
  GeglNode *sink = gegl_node_new_child (graph, "operation", "gegl:buffer-sink", "buffer", &buffer, NULL);
  float *px = NULL;
  gegl_node_link (load, sink);
  gegl_node_process (sink);
  if (buffer)
    {
      const GeglRectangle *e = gegl_buffer_get_extent (buffer);
      if (e->width > 0 && e->height > 0)
        {
          *w = e->width;
          *h = e->height;
          px = g_new (float, (gsize) e->width * e->height * 4);
          gegl_buffer_get (buffer, e, 1.0, babl_format ("R'G'B'A float"), px, GEGL_AUTO_ROWSTRIDE,
                           GEGL_ABYSS_CLAMP);
        }
      g_object_unref (buffer);
    }
  g_object_unref (graph);
  return px;
}

/* (Re)builds the run for the current input size and property values. */
static gboolean
ensure_run (GeglOperation *op, EffInst *in)
{
  EffClass *c = class_of (op);
  GeglRectangle *bb = gegl_operation_source_get_bounding_box (op, "input");
  if (!bb || bb->width <= 0 || bb->height <= 0 || gegl_rectangle_is_infinite_plane (bb))
    return FALSE;
  in->bbox = *bb;
  SlDiagnostics *d = sl_diagnostics_new ();
  if (!in->fx || in->width != bb->width || in->height != bb->height)
    {
      sl_effect_run_free (in->run);
      in->run = NULL;
      if (in->fx)
        sl_effect_unref (in->fx);
      char *dir = g_path_get_dirname (c->path);
      const char *dirs[] = { dir, NULL };
      SlEffectOptions o = {
        .source = c->source, .length = c->length, .filename = c->path, .include_dirs = dirs,
        .buffer_width = bb->width, .buffer_height = bb->height,
      };
      in->fx = sl_effect_compile (&o, d);
      in->width = bb->width;
      in->height = bb->height;
      if (in->fx)
        {
          int t = sl_effect_find_technique (in->fx, c->technique);
          in->run = sl_effect_run_new (in->fx, MAX (t, 0));
          if (in->images)
            g_ptr_array_free (in->images, TRUE);
          in->images = g_ptr_array_new_with_free_func (g_free);
          for (int i = 0; i < sl_effect_get_n_textures (in->fx); i++)
            {
              const SlEffectTexture *tx = sl_effect_get_texture (in->fx, i);
              if (tx->kind != SL_EFFECT_TEXTURE_IMAGE)
                continue;
              char *p = g_path_is_absolute (tx->source_file) ? g_strdup (tx->source_file)
                        : g_build_filename (dir, tx->source_file, NULL);
              gint w = 0, h = 0;
              float *px = g_file_test (p, G_FILE_TEST_IS_REGULAR) ? load_image (p, &w, &h) : NULL;
              if (px)
                {
                  g_ptr_array_add (in->images, px);
                  sl_effect_run_set_image (in->run, i, w, h, (size_t) w * 4, px, d);
                }
              else
                g_warning ("%s: cannot load the image '%s' of texture '%s'", c->op_name, p, tx->name);
              g_free (p);
            }
        }
      g_free (dir);
    }
  gboolean ok = in->run != NULL;
  if (ok)
    {
      for (guint i = 0; i < c->props->len;)
        {
          EffProp *p = &g_array_index (c->props, EffProp, i);
          float v[4] = { 0 };
          guint n = 0;
          while (i + n < c->props->len && !strcmp (g_array_index (c->props, EffProp, i + n).param, p->param))
            {
              GValue *gv = &in->values[i + n];
              v[MIN (n, 3)] = G_VALUE_HOLDS_BOOLEAN (gv) ? g_value_get_boolean (gv) : (float) g_value_get_double (gv);
              n++;
            }
          sl_effect_run_set_param (in->run, p->param, v, (int) n, d);
          i += n;
        }
      SlEffectHostValues hv;
      sl_effect_host_values_init (&hv);
      const GValue *host = &in->values[c->props->len];
      hv.seed = (guint32) g_value_get_int (&host[HOST_SEED]);
      hv.timer_ms = g_value_get_double (&host[HOST_TIMER]);
      hv.frametime_ms = g_value_get_double (&host[HOST_FRAMETIME]);
      hv.framecount = g_value_get_int (&host[HOST_FRAMECOUNT]);
      sl_effect_run_set_host_values (in->run, &hv);
      /* Until process() fetches it, the input is a blank texel at the
       * right size (the sampling reach is measured in its texels). */
      sl_texture_init_2d (&in->dummy, bb->width, bb->height, 0, in->blank);
      in->dummy.window_width = in->dummy.window_height = 1;
      sl_effect_run_set_input (in->run, &in->dummy);
      ok = sl_effect_run_prepare (in->run, d);
    }
  if (sl_diagnostics_error_count (d))
    {
      char *t = sl_diagnostics_format (d);
      g_warning ("%s: %s", c->op_name, t);
      g_free (t);
    }
  sl_diagnostics_free (d);
  in->ready = ok;
  in->input_set = FALSE;
  g_free (in->whole);
  in->whole = NULL;
  return ok;
}

static void
prepare (GeglOperation *op)
{
  const Babl *f = babl_format ("R'G'B'A float");
  gegl_operation_set_format (op, "input", f);
  gegl_operation_set_format (op, "output", f);
  EffInst *in = inst_of (op);
  g_mutex_lock (&in->lock);
  ensure_run (op, in);   /* a new invocation: targets are recomputed */
  g_mutex_unlock (&in->lock);
}

/* The input rectangle @roi needs, in GEGL coordinates. */
static gboolean
needed_rect (EffInst *in, const GeglRectangle *roi, GeglRectangle *out)
{
  int x, y, w, h;
  if (!in->ready || !sl_effect_run_get_input_rect (in->run, roi->x - in->bbox.x, roi->y - in->bbox.y, roi->width,
                                                   roi->height, &x, &y, &w, &h))
    {
      *out = in->bbox;
      return FALSE;
    }
  GeglRectangle r = { x + in->bbox.x, y + in->bbox.y, w, h };
  gegl_rectangle_intersect (out, &r, &in->bbox);
  return TRUE;
}

static GeglRectangle
get_required_for_output (GeglOperation *op, const gchar *pad, const GeglRectangle *roi)
{
  EffInst *in = inst_of (op);
  GeglRectangle r;
  g_mutex_lock (&in->lock);
  needed_rect (in, roi, &r);
  g_mutex_unlock (&in->lock);
  return r;
}

static GeglRectangle
get_invalidated_by_change (GeglOperation *op, const gchar *pad, const GeglRectangle *region)
{
  GeglRectangle *bb = gegl_operation_source_get_bounding_box (op, "input");
  return bb ? *bb : *region;
}

static GeglRectangle
get_cached_region (GeglOperation *op, const GeglRectangle *roi)
{
  EffInst *in = inst_of (op);
  GeglRectangle r;
  g_mutex_lock (&in->lock);
  gboolean local = needed_rect (in, roi, &r);
  g_mutex_unlock (&in->lock);
  return local ? *roi : in->bbox;
}

static gboolean
process (GeglOperation *op, GeglBuffer *input, GeglBuffer *output, const GeglRectangle *result, gint level)
{
  EffInst *in = inst_of (op);
  const Babl *f = babl_format ("R'G'B'A float");
  gboolean ok = TRUE;
  g_mutex_lock (&in->lock);
  if (!in->ready)
    ensure_run (op, in);
  if (!in->ready)
    {
      /* An effect that does not compile passes the image through. */
      gegl_buffer_copy (input, result, GEGL_ABYSS_NONE, output, result);
      g_mutex_unlock (&in->lock);
      return TRUE;
    }
  GeglRectangle need;
  gboolean local = needed_rect (in, result, &need);
  float *dst = g_new (float, (gsize) result->width * result->height * 4);
  SlTarget target = { dst, (size_t) result->width * 4 };
  SlScratch *scratch = sl_scratch_new ();
  SlDiagnostics *d = sl_diagnostics_new ();
  int rx = result->x - in->bbox.x, ry = result->y - in->bbox.y;
  if (!local)
    {
      if (!in->input_set)
        {
          in->whole = g_new (float, (gsize) in->bbox.width * in->bbox.height * 4);
          gs_pixel_fetch (input, &in->bbox, 1.0, f, in->whole, GEGL_ABYSS_CLAMP);
          sl_texture_init_2d (&in->whole_tex, in->bbox.width, in->bbox.height, (size_t) in->bbox.width * 4,
                              in->whole);
          sl_effect_run_set_input (in->run, &in->whole_tex);
          in->input_set = TRUE;
        }
      ok = sl_effect_render (in->run, scratch, rx, ry, result->width, result->height, NULL, &target, d);
    }
  else
    {
      float *src = g_new (float, (gsize) MAX (need.width, 1) * MAX (need.height, 1) * 4);
      gs_pixel_fetch (input, &need, 1.0, f, src, GEGL_ABYSS_CLAMP);
      SlTexture tile;
      sl_texture_init_2d (&tile, in->bbox.width, in->bbox.height, (size_t) need.width * 4, src);
      tile.window_x = need.x - in->bbox.x;
      tile.window_y = need.y - in->bbox.y;
      tile.window_width = need.width;
      tile.window_height = need.height;
      ok = sl_effect_render (in->run, scratch, rx, ry, result->width, result->height, &tile, &target, d);
      g_free (src);
    }
  g_mutex_unlock (&in->lock);
  gegl_buffer_set (output, result, 0, f, dst, GEGL_AUTO_ROWSTRIDE);
  if (sl_diagnostics_error_count (d))
    {
      char *t = sl_diagnostics_format (d);
      g_warning ("%s", t);
      g_free (t);
    }
  sl_diagnostics_free (d);
  sl_scratch_free (scratch);
  g_free (dst);
  return ok;
}

static void
class_init (gpointer klass, gpointer class_data)
{
  EffClass *c = class_data;
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (klass);
  object_class->set_property = set_property;
  object_class->get_property = get_property;
  operation_class->prepare = prepare;
  operation_class->get_required_for_output = get_required_for_output;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  operation_class->get_cached_region = get_cached_region;
  operation_class->threaded = FALSE;
  operation_class->want_in_place = FALSE;
  GEGL_OPERATION_FILTER_CLASS (klass)->process = process;
  for (guint i = 0; i < c->props->len; i++)
    {
      EffProp *p = &g_array_index (c->props, EffProp, i);
      const char *sfx[] = { "-x", "-y", "-z", "-w" };
      gboolean vec = (i + 1 < c->props->len && !strcmp (g_array_index (c->props, EffProp, i + 1).param, p->param))
                     || p->component > 0;
      gchar *name = g_strdup_printf ("%s%s", p->param, vec ? sfx[p->component] : "");
      gchar *prop = g_ascii_strdown (name, -1);
      g_strdelimit (prop, "_", '-');
      GParamFlags fl = G_PARAM_READWRITE | G_PARAM_CONSTRUCT | GEGL_PARAM_PAD_INPUT;
      GParamSpec *ps = p->boolean ? g_param_spec_boolean (prop, name, NULL, p->def != 0, fl)
                                  : gegl_param_spec_double (prop, name, NULL, p->min, p->max, p->def, p->min, p->max,
                                                            1.0, fl);
      g_object_class_install_property (object_class, i + 1, ps);
      g_free (name);
      g_free (prop);
    }
  GParamFlags hf = G_PARAM_READWRITE | G_PARAM_CONSTRUCT | GEGL_PARAM_PAD_INPUT;
  guint host_id = c->props->len + 1;
  SlEffectHostValues hv;
  sl_effect_host_values_init (&hv);
  /* A parameter of the same name keeps its property. */
  GParamSpec *ps = NULL;
  if ((c->host_used & (1u << HOST_SEED)) && !g_object_class_find_property (object_class, "seed"))
    ps = gegl_param_spec_seed ("seed", _("Random seed"), _("Drives uniforms with source = \"random\""), hf);
  if (ps)
    g_object_class_install_property (object_class, host_id + HOST_SEED, ps);
  ps = NULL;
  if ((c->host_used & (1u << HOST_TIMER)) && !g_object_class_find_property (object_class, "timer"))
    ps = gegl_param_spec_double ("timer", _("Timer (ms)"),
                                 _("Uniforms with source = \"timer\": milliseconds since the effect started"),
                                 0.0, G_MAXDOUBLE, hv.timer_ms, 0.0, 60000.0, 1.0, hf);
  if (ps)
    g_object_class_install_property (object_class, host_id + HOST_TIMER, ps);
  ps = NULL;
  if ((c->host_used & (1u << HOST_FRAMETIME)) && !g_object_class_find_property (object_class, "frametime"))
    ps = gegl_param_spec_double ("frametime", _("Frame time (ms)"),
                                 _("Uniforms with source = \"frametime\": milliseconds since the last frame"),
                                 0.0, G_MAXDOUBLE, hv.frametime_ms, 0.0, 100.0, 1.0, hf);
  if (ps)
    g_object_class_install_property (object_class, host_id + HOST_FRAMETIME, ps);
  ps = NULL;
  if ((c->host_used & (1u << HOST_FRAMECOUNT)) && !g_object_class_find_property (object_class, "framecount"))
    ps = gegl_param_spec_int ("framecount", _("Frame count"),
                              _("Uniforms with source = \"framecount\": frames since the effect started"),
                              0, G_MAXINT, (gint) hv.framecount, 0, 1000, 1.0, hf);
  if (ps)
    g_object_class_install_property (object_class, host_id + HOST_FRAMECOUNT, ps);
  gegl_operation_class_set_keys (operation_class,
    "name", c->op_name,
    "title", c->title,
    "categories", "shaders",
    "description", c->description,
    "source", c->path,
    NULL);
}

static double
ann_number (const SlParam *p, const char *name, double fallback)
{
  for (int i = 0; i < p->n_annotations; i++)
    if (!strcmp (p->annotations[i].name, name) && p->annotations[i].n_values > 0
        && p->annotations[i].type != SL_ANNOTATION_STRING)
      return p->annotations[i].values[0];
  return fallback;
}

static const char *
ann_string (const SlAnnotation *a, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (!strcmp (a[i].name, name) && a[i].type == SL_ANNOTATION_STRING)
      return a[i].string_value;
  return NULL;
}

guint
gs_effect_ops_claim (GTypeModule *module, const gchar *path, const gchar *stem)
{
  gchar *source = NULL;
  gsize length = 0;
  if (!g_file_get_contents (path, &source, &length, NULL) || !sl_effect_detect (source, length))
    {
      g_free (source);
      return 0;
    }
  if (!class_quark)
    {
      class_quark = g_quark_from_static_string ("gegl-shaders-effect-class");
      inst_quark = g_quark_from_static_string ("gegl-shaders-effect-instance");
    }
  char *dir = g_path_get_dirname (path);
  const char *dirs[] = { dir, NULL };
  SlEffectOptions o = {
    .source = source, .length = length, .filename = path, .include_dirs = dirs,
    .buffer_width = NOMINAL_SIZE, .buffer_height = NOMINAL_SIZE,
  };
  SlDiagnostics *d = sl_diagnostics_new ();
  SlEffect *fx = sl_effect_compile (&o, d);
  g_free (dir);
  if (!fx)
    {
      char *t = sl_diagnostics_format (d);
      g_warning ("effect '%s' does not compile; no op registered:\n%s", path, t);
      g_free (t);
      sl_diagnostics_free (d);
      g_free (source);
      return 1;   /* claimed: it is an effect, just a broken one */
    }
  sl_diagnostics_free (d);
  GArray *props = g_array_new (FALSE, TRUE, sizeof (EffProp));
  guint host_used = 0;
  for (int i = 0; i < sl_effect_get_n_params (fx); i++)
    {
      const SlParam *p = sl_effect_get_param (fx, i);
      const char *src = sl_param_get_host_source (p);
      if (src)
        {
          static const char *const host_names[N_HOST] = { "random", "timer", "frametime", "framecount" };
          for (int k = 0; k < N_HOST; k++)
            if (!strcmp (src, host_names[k]))
              host_used |= 1u << k;
          continue;
        }
      if (p->rows != 1 || p->array_size || p->columns > 4)
        continue;   /* matrices and arrays stay at their defaults */
      for (int k = 0; k < p->columns; k++)
        {
          EffProp e = {
            .param = g_strdup (p->name), .component = k, .boolean = p->type == SL_SCALAR_BOOL,
            .def = p->default_value ? p->default_value[k] : 0.0,
            .min = ann_number (p, "ui_min", ann_number (p, "UIMin", -1e6)),
            .max = ann_number (p, "ui_max", ann_number (p, "UIMax", 1e6)),
          };
          e.min = MIN (e.min, e.def);
          e.max = MAX (e.max, e.def);
          g_array_append_val (props, e);
        }
    }
  guint count = 0;
  int nt = sl_effect_get_n_techniques (fx);
  for (int t = 0; t < nt; t++)
    {
      const SlEffectTechnique *tech = sl_effect_get_technique (fx, t);
      EffClass *c = g_new0 (EffClass, 1);
      c->path = g_strdup (path);
      c->source = g_memdup2 (source, length + 1);
      c->length = length;
      c->technique = g_strdup (tech->name);
      c->props = props;
      c->host_used = host_used;
      c->op_name = nt > 1 ? g_strdup_printf ("shader:%s-%s", stem, tech->name) : g_strdup_printf ("shader:%s", stem);
      c->type_name = g_strdup_printf ("GeglShaderEffect_%s", c->op_name + 7);
      g_strcanon (c->type_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", '_');
      const char *label = ann_string (tech->annotations, tech->n_annotations, "ui_label");
      c->title = g_strdup (label ? label : c->op_name + 7);
      const char *tip = ann_string (tech->annotations, tech->n_annotations, "ui_tooltip");
      c->description = g_strdup_printf ("%s%s%d pass(es) of the effect file %s. Depth-buffer access returns a flat "
                                        "depth: a still image has none.", tip ? tip : "", tip ? " — " : "",
                                        tech->n_passes, path);
      GTypeQuery q;
      g_type_query (GEGL_TYPE_OPERATION_FILTER, &q);
      GTypeInfo info = { 0 };
      info.class_size = q.class_size;
      info.class_init = class_init;
      info.class_data = c;
      info.instance_size = q.instance_size;
      GType type = g_type_module_register_type (module, GEGL_TYPE_OPERATION_FILTER, c->type_name, &info, 0);
      if (type)
        {
          g_type_set_qdata (type, class_quark, c);
          count++;
        }
    }
  sl_effect_unref (fx);
  g_free (source);
  return MAX (count, 1);
}
