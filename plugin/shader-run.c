/* shader:run — runs an arbitrary HLSL / shader-assembly pixel shader as a
 * GEGL filter.
 *
 * Design.  The op keeps two cached objects in its instance state, both
 * guarded by one mutex:
 *   - the compiled SlProgram, rebuilt only when source, file (path or
 *     modification time), entry or profile change;
 *   - a reference-counted "draw": the prepared SlBinding for one viewport
 *     size and one params string, plus the sampling reach it reports.
 * Both are built in prepare(), which GEGL calls before any process() on the
 * node, so process() normally only takes a reference on the current draw
 * under the mutex and renders without holding it.  A process() that races a
 * property change keeps rendering with the draw it took; the new one is
 * used by the next call.
 *
 * The op is a GeglOperationFilter that is not threaded by GEGL: process()
 * splits the rendering itself (render-area.c): each worker reads the rows
 * it renders plus the sampling reach, or, when sampling is data dependent,
 * the whole input is read once and shared, so that a shader that may read
 * anywhere does not make every worker fetch the whole image.
 *
 * Coordinates: the viewport is the input's bounding box, so TEXCOORD0 is
 * the pixel centre normalised over the input and output pixel (x,y) is
 * viewport pixel (x-bx, y-by).  Every sampler slot sees the input.
 *
 * Failure: any error diagnostic (compile, unreadable file, bad params,
 * failed prepare) makes the op pass its input through unchanged; the
 * formatted diagnostics are stored in the "error" property and reported
 * with one g_warning per change.  The property is written without a
 * notify on purpose: a notify invalidates the node, which would schedule
 * another prepare from inside this one.
 */

#include "config.h"
#include <glib/gi18n-lib.h>

#ifdef GEGL_PROPERTIES

property_string (source, _("Shader source"), "")
  description (_("HLSL or Direct3D shader assembly source of the pixel "
                 "shader; ignored when a shader file is set"))
  ui_meta ("multiline", "true")

property_file_path (file, _("Shader file"), "")
  description (_("Path of a shader source or compiled bytecode file "
                 "(.hlsl, .fx, .asm, .ps, .cso); takes precedence over "
                 "the source text"))

property_string (entry, _("Entry point"), "main")
  description (_("Name of the shader function to run"))

property_string (profile, _("Profile"), "auto")
  description (_("Shader model to compile for, e.g. ps_2_0, ps_3_0, "
                 "ps_4_0, or auto"))

property_string (params, _("Parameters"), "")
  description (_("Values for the shader's uniform parameters, as "
                 "\"name=value; name=v,v,v\""))

property_string (error, _("Errors"), "")
  description (_("Diagnostics of the last compilation; empty when the "
                 "shader compiled and runs"))
  ui_meta ("error", "true")

#else

#define GEGL_OP_FILTER
#define GEGL_OP_NAME     shader_run
#define GEGL_OP_C_SOURCE shader-run.c

#include "gegl-op.h"

#include <string.h>
#include <glib/gstdio.h>

#include "shaderlib.h"
#include "shader-ops.h"
#include "pixel-fetch.h"
#include "render-area.h"

#define SHADER_RUN_FORMAT "R'G'B'A float"

typedef struct
{
  SlProgram     *program;     /* owned reference */
  SlBinding     *binding;     /* prepared; NULL when it failed */
  GeglRectangle  bbox;        /* input bounding box = viewport */
  gboolean       bounded;     /* sampling reach is known */
  gint           reach_left, reach_top, reach_right, reach_bottom;
  gint           runtime_warned;  /* atomic: limit warning given */
  /* Stands in for the input until process() supplies the real pixels, so
   * the binding never holds a dangling texture view. */
  gfloat         placeholder_texel[4];
  SlTexture      placeholder;
} Draw;

typedef struct
{
  GMutex     mutex;

  /* compile key */
  gboolean   compiled;
  gchar     *key_source;
  gchar     *key_file;
  gint64     key_mtime;
  gchar     *key_entry;
  gchar     *key_profile;

  SlProgram *program;         /* NULL when there is nothing to run */
  gchar     *compile_diags;   /* formatted, may be NULL */
  gboolean   compile_failed;

  /* draw key */
  Draw      *draw;
  gboolean   draw_valid;
  gchar     *draw_params;
  GeglRectangle draw_bbox;
  gchar     *draw_diags;
  gboolean   draw_failed;
} State;

static void
draw_clear (gpointer data)
{
  Draw *draw = data;

  g_clear_pointer (&draw->binding, sl_binding_free);
  g_clear_pointer (&draw->program, sl_program_unref);
}

static void
draw_unref (Draw *draw)
{
  g_atomic_rc_box_release_full (draw, draw_clear);
}

static State *
get_state (GeglOperation *operation)
{
  return GEGL_PROPERTIES (operation)->user_data;
}

static gchar *
format_diagnostics (SlDiagnostics *diags)
{
  gchar *text;

  if (sl_diagnostics_count (diags) == 0)
    return NULL;
  text = sl_diagnostics_format (diags);
  if (text)
    g_strchomp (text);
  return text;
}

static gint64
file_mtime (const gchar *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return -1;
  return (gint64) st.st_mtime;
}

/* Compiles when the compile key changed.  Returns TRUE when it did (so the
 * caller knows the draw is stale).  Called with the mutex held. */
static gboolean
update_program (State          *state,
                GeglProperties *o)
{
  const gchar      *file   = (o->file && o->file[0]) ? o->file : NULL;
  const gchar      *source = file ? NULL : o->source;
  gint64            mtime  = file ? file_mtime (file) : 0;
  SlDiagnostics    *diags;
  SlCompileOptions  options;
  gchar            *contents = NULL;
  gsize             length   = 0;

  if (state->compiled &&
      g_strcmp0 (state->key_file, file) == 0 &&
      g_strcmp0 (state->key_source, source) == 0 &&
      g_strcmp0 (state->key_entry, o->entry) == 0 &&
      g_strcmp0 (state->key_profile, o->profile) == 0 &&
      state->key_mtime == mtime)
    return FALSE;

  g_free (state->key_file);
  g_free (state->key_source);
  g_free (state->key_entry);
  g_free (state->key_profile);
  state->key_file    = g_strdup (file);
  state->key_source  = g_strdup (source);
  state->key_entry   = g_strdup (o->entry);
  state->key_profile = g_strdup (o->profile);
  state->key_mtime   = mtime;
  state->compiled    = TRUE;

  g_clear_pointer (&state->program, sl_program_unref);
  g_clear_pointer (&state->compile_diags, g_free);
  state->compile_failed = FALSE;

  diags = sl_diagnostics_new ();

  if (file)
    {
      GError *error = NULL;

      if (! g_file_get_contents (file, &contents, &length, &error))
        {
          sl_diagnostics_add (diags, SL_SEVERITY_ERROR, file, 0, 0, "E-IO",
                              _("cannot read shader file: %s"),
                              error->message);
          g_error_free (error);
        }
    }
  else if (source && source[0])
    {
      contents = g_strdup (source);
      length   = strlen (source);
    }

  if (contents)
    {
      memset (&options, 0, sizeof (options));
      options.source      = contents;
      options.length      = length;
      options.filename    = file ? file : "shader:run";
      options.language    = SL_LANGUAGE_AUTO;
      options.entry_point = (o->entry && o->entry[0]) ? o->entry : NULL;
      options.profile     = (o->profile && o->profile[0]) ? o->profile : NULL;

      state->program = sl_compile (&options, diags);
      if (! state->program && sl_diagnostics_error_count (diags) == 0)
        sl_diagnostics_add (diags, SL_SEVERITY_ERROR, options.filename, 0, 0,
                            "", "%s", _("the shader failed to compile"));
    }

  state->compile_failed = sl_diagnostics_error_count (diags) > 0;
  state->compile_diags  = format_diagnostics (diags);

  g_free (contents);
  sl_diagnostics_free (diags);
  return TRUE;
}

static Draw *
build_draw (SlProgram           *program,
            const GeglRectangle *bbox,
            const gchar         *params,
            SlDiagnostics       *diags)
{
  Draw     *draw = g_atomic_rc_box_new0 (Draw);
  gboolean  ok   = TRUE;
  gint      i;

  draw->program = sl_program_ref (program);
  draw->bbox    = *bbox;

  sl_texture_init_2d (&draw->placeholder, bbox->width, bbox->height, 4,
                      draw->placeholder_texel);
  draw->placeholder.window_x      = 0;
  draw->placeholder.window_y      = 0;
  draw->placeholder.window_width  = 1;
  draw->placeholder.window_height = 1;

  draw->binding = sl_binding_new (program);
  sl_binding_set_auto_mips (draw->binding, TRUE);
  sl_binding_set_viewport (draw->binding, bbox->width, bbox->height);

  for (i = 0; i < sl_program_get_n_samplers (program); i++)
    {
      const SlSamplerInfo *info = sl_program_get_sampler (program, i);

      if (info && info->slot >= 0 && info->slot < SL_MAX_SLOTS)
        sl_binding_set_texture (draw->binding, info->slot,
                                &draw->placeholder);
    }

  if (params && params[0])
    ok = sl_binding_set_params_string (draw->binding, params, diags);

  if (ok)
    ok = sl_binding_prepare (draw->binding, diags);

  if (ok && sl_diagnostics_error_count (diags) == 0)
    {
      draw->bounded = sl_binding_get_sample_reach (draw->binding,
                                                   &draw->reach_left,
                                                   &draw->reach_top,
                                                   &draw->reach_right,
                                                   &draw->reach_bottom);
      /* process() relies on the fetched rectangle containing the rendered
       * one, and on the margin arithmetic not overflowing. */
      draw->reach_left   = CLAMP (draw->reach_left, 0, bbox->width);
      draw->reach_right  = CLAMP (draw->reach_right, 0, bbox->width);
      draw->reach_top    = CLAMP (draw->reach_top, 0, bbox->height);
      draw->reach_bottom = CLAMP (draw->reach_bottom, 0, bbox->height);
    }
  else
    {
      g_clear_pointer (&draw->binding, sl_binding_free);
    }

  return draw;
}

/* Brings program and draw up to date with the properties and the input's
 * bounding box and refreshes the "error" property.  Called with the mutex
 * held.  Returns the diagnostics to warn about (newly failed), or NULL. */
static gchar *
update_state (GeglOperation       *operation,
              const GeglRectangle *bbox)
{
  GeglProperties *o        = GEGL_PROPERTIES (operation);
  State          *state    = get_state (operation);
  gboolean        changed  = update_program (state, o);
  gboolean        draw_new = FALSE;
  gchar          *warning  = NULL;
  GeglRectangle   empty    = { 0, 0, 0, 0 };

  if (! bbox)
    bbox = &empty;

  if (changed ||
      ! state->draw_valid ||
      g_strcmp0 (state->draw_params, o->params) != 0 ||
      ! gegl_rectangle_equal (&state->draw_bbox, bbox))
    {
      g_clear_pointer (&state->draw, draw_unref);
      g_clear_pointer (&state->draw_diags, g_free);
      g_free (state->draw_params);
      state->draw_params = g_strdup (o->params);
      state->draw_bbox   = *bbox;
      state->draw_valid  = TRUE;
      state->draw_failed = FALSE;
      draw_new = TRUE;

      if (state->program && gegl_rectangle_is_infinite_plane (bbox))
        {
          SlDiagnostics *diags = sl_diagnostics_new ();

          sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "shader:run", 0, 0,
                              "", "%s",
                              _("the input has no bounded extent, so "
                                "TEXCOORD0 is undefined; crop it first"));
          state->draw_failed = TRUE;
          state->draw_diags  = format_diagnostics (diags);
          sl_diagnostics_free (diags);
        }
      else if (state->program && bbox->width > 0 && bbox->height > 0)
        {
          SlDiagnostics *diags = sl_diagnostics_new ();

          state->draw = build_draw (state->program, bbox, o->params, diags);
          state->draw_failed = state->draw->binding == NULL;
          if (state->draw_failed && sl_diagnostics_error_count (diags) == 0)
            sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "shader:run", 0, 0,
                                "", "%s",
                                _("the shader could not be prepared"));
          state->draw_diags = format_diagnostics (diags);
          sl_diagnostics_free (diags);
        }
    }

  if (changed || draw_new)
    {
      gchar *text;

      if (state->compile_diags && state->draw_diags)
        text = g_strconcat (state->compile_diags, "\n",
                            state->draw_diags, NULL);
      else
        text = g_strdup (state->compile_diags ? state->compile_diags
                         : state->draw_diags ? state->draw_diags : "");

      /* A new failure is reported once; re-preparing an unchanged failing
       * shader for another bounding box stays quiet. */
      if ((changed && state->compile_failed) ||
          (draw_new && state->draw_failed &&
           g_strcmp0 (text, o->error) != 0))
        warning = g_strdup (text);

      g_free (o->error);
      o->error = text;
    }

  return warning;
}

/* prepare() brings the state up to date; process() only does when the
 * state was never built or the input's extent moved, so a shader file
 * touched in the middle of a render does not mix two programs in one
 * image. */
static Draw *
acquire_draw (GeglOperation *operation,
              gboolean       refresh)
{
  State         *state = get_state (operation);
  GeglRectangle *bbox;
  GeglRectangle  empty = { 0, 0, 0, 0 };
  Draw          *draw  = NULL;
  gchar         *warning = NULL;

  bbox = gegl_operation_source_get_bounding_box (operation, "input");

  g_mutex_lock (&state->mutex);
  if (refresh ||
      ! state->draw_valid ||
      ! gegl_rectangle_equal (&state->draw_bbox, bbox ? bbox : &empty))
    warning = update_state (operation, bbox);
  if (state->draw && state->draw->binding)
    draw = g_atomic_rc_box_acquire (state->draw);
  g_mutex_unlock (&state->mutex);

  if (warning)
    {
      g_warning ("shader:run: %s", warning);
      g_free (warning);
    }

  return draw;
}

static void
prepare (GeglOperation *operation)
{
  const Babl *space  = gegl_operation_get_source_space (operation, "input");
  const Babl *format = babl_format_with_space (SHADER_RUN_FORMAT, space);
  Draw       *draw;

  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);

  draw = acquire_draw (operation, TRUE);
  gs_operation_set_caching (operation, draw && ! draw->bounded);
  if (draw)
    draw_unref (draw);
}

static GeglRectangle
get_required_for_output (GeglOperation       *operation,
                         const gchar         *input_pad,
                         const GeglRectangle *roi)
{
  GeglRectangle *bbox;
  GeglRectangle  empty = { 0, 0, 0, 0 };

  bbox = gegl_operation_source_get_bounding_box (operation, "input");
  if (! bbox)
    return empty;
  /* Nothing runs on an infinite input (it is passed through), and asking
   * for all of it would never finish. */
  if (gegl_rectangle_is_infinite_plane (bbox))
    return *roi;
  return *bbox;
}

static GeglRectangle
get_cached_region (GeglOperation       *operation,
                   const GeglRectangle *roi)
{
  State         *state  = get_state (operation);
  GeglRectangle  region = *roi;

  /* A shader that may read anywhere is rendered in one go, so the whole
   * input is fetched once instead of once per chunk. */
  g_mutex_lock (&state->mutex);
  if (state->draw && state->draw->binding && ! state->draw->bounded)
    region = state->draw->bbox;
  g_mutex_unlock (&state->mutex);

  return region;
}

static gboolean
process (GeglOperation       *operation,
         GeglBuffer          *input,
         GeglBuffer          *output,
         const GeglRectangle *result,
         gint                 level)
{
  const Babl    *format = gegl_operation_get_format (operation, "output");
  Draw          *draw;
  GeglRectangle  render;
  GsRenderJob    job;
  gchar         *failure = NULL;

  draw = acquire_draw (operation, FALSE);

  if (! draw ||
      ! gegl_rectangle_intersect (&render, result, &draw->bbox))
    {
      if (input)
        gegl_buffer_copy (input, result, GEGL_ABYSS_NONE, output, result);
      if (draw)
        draw_unref (draw);
      return TRUE;
    }

  memset (&job, 0, sizeof job);
  job.binding           = draw->binding;
  job.viewport          = draw->bbox;
  job.input             = input;
  job.scale             = 1.0;
  job.bounded           = draw->bounded;
  job.reach_left        = draw->reach_left;
  job.reach_top         = draw->reach_top;
  job.reach_right       = draw->reach_right;
  job.reach_bottom      = draw->reach_bottom;
  job.output            = output;
  job.level             = 0;
  job.format            = format;
  job.pixels_per_thread = gegl_operation_get_pixels_per_thread (operation);

  /* The input pixels are fetched afresh for each process call. */
  sl_binding_flush_mips (draw->binding);
  if (! gs_render_area (&job, &render, &failure))
    {
      if (g_atomic_int_compare_and_exchange (&draw->runtime_warned, 0, 1))
        g_warning ("shader:run: %s",
                   failure && failure[0] ? failure
                   : _("the shader hit an execution limit"));
    }
  g_free (failure);

  /* What lies outside the input stays transparent. */
  if (! gegl_rectangle_equal (&render, result))
    {
      gfloat *zeros = g_try_malloc0_n ((gsize) result->width * result->height,
                                       4 * sizeof (gfloat));
      if (zeros)
        gs_buffer_set_around (output, result, &render, 0, format, zeros);
      g_free (zeros);
    }

  draw_unref (draw);
  return TRUE;
}

static void
constructed (GObject *object)
{
  State *state = g_new0 (State, 1);

  g_mutex_init (&state->mutex);
  GEGL_PROPERTIES (object)->user_data = state;

  G_OBJECT_CLASS (gegl_op_parent_class)->constructed (object);
}

static void
finalize (GObject *object)
{
  GeglProperties *o     = GEGL_PROPERTIES (object);
  State          *state = o->user_data;

  if (state)
    {
      g_clear_pointer (&state->draw, draw_unref);
      g_clear_pointer (&state->program, sl_program_unref);
      g_free (state->key_source);
      g_free (state->key_file);
      g_free (state->key_entry);
      g_free (state->key_profile);
      g_free (state->compile_diags);
      g_free (state->draw_params);
      g_free (state->draw_diags);
      g_mutex_clear (&state->mutex);
      g_free (state);
      o->user_data = NULL;
    }

  G_OBJECT_CLASS (gegl_op_parent_class)->finalize (object);
}

static void
gegl_op_class_init (GeglOpClass *klass)
{
  GObjectClass             *object_class    = G_OBJECT_CLASS (klass);
  GeglOperationClass       *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass *filter_class    = GEGL_OPERATION_FILTER_CLASS (klass);

  object_class->constructed = constructed;
  object_class->finalize    = finalize;

  operation_class->prepare                 = prepare;
  operation_class->get_required_for_output = get_required_for_output;
  operation_class->get_cached_region       = get_cached_region;
  /* process() splits the work itself, after one shared fetch. */
  operation_class->threaded                = FALSE;
  operation_class->want_in_place           = FALSE;

  filter_class->process = process;

  gegl_operation_class_set_keys (operation_class,
    "name",            "shader:run",
    "title",           _("Run Pixel Shader"),
    "categories",      "generic:shaders",
    "description",
      _("Runs an HLSL or Direct3D shader-assembly pixel shader on every "
        "pixel.  TEXCOORD0 is the pixel centre normalised over the input; "
        "every sampler reads the input image."),
    "gimp:menu-path",  "<Image>/Filters/Shaders",
    "gimp:menu-label", _("Run Pixel Shader..."),
    NULL);
}

#endif
