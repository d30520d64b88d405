/* shader:run — runs an arbitrary HLSL / shader-assembly pixel shader as a
 * GEGL filter.
 *
 * Design.  The op keeps two kinds of cached objects in its instance
 * state, both guarded by one mutex:
 *   - the compiled SlProgram, rebuilt only when source, file (path or
 *     modification time), entry or profile change;
 *   - one draw per mip level (draw.c, shared with the per-file and effect
 *     ops): the prepared SlBinding for one viewport size and one params
 *     string, plus the sampling reach it reports.
 * The level-0 draw is built in prepare(), which GEGL calls before any
 * process() on the node, and a coarser level's the first time process()
 * is asked for it; process() otherwise only takes a reference on the
 * current draw under the mutex and renders without holding it.  A
 * process() that races a property change keeps rendering with the draw
 * it took; the new one is used by the next call.
 *
 * The op is a GeglOperationFilter that is not threaded by GEGL: process()
 * splits the rendering itself (render-area.c): each worker reads the rows
 * it renders plus the sampling reach, or, when sampling is data dependent,
 * the whole input is read once and shared, so that a shader that may read
 * anywhere does not make every worker fetch the whole image.
 *
 * Mip levels (GIMP's zoomed-out previews): at level L the shader runs on
 * the input scaled by 1/2^L, with the viewport scaled the same way, so
 * TEXCOORD0 still spans the image and the result approximates the
 * level-0 render scaled down; VPOS counts the reduced pixels.
 *
 * Coordinates: the viewport is the input's bounding box, so TEXCOORD0 is
 * the pixel centre normalised over the input and output pixel (x,y) is
 * viewport pixel (x-bx, y-by).  Every sampler slot sees the input.
 *
 * Failure: any error diagnostic (compile, unreadable file, bad params,
 * failed prepare), a run-time limit hit while rendering (a runaway loop)
 * or a lack of memory for the render makes the op pass its input through
 * unchanged (a run-time limit keeps what was rendered); the formatted
 * diagnostics, with paths relative to the shader file's folder, are
 * published in the "error" property through op-error.c, which tells an
 * open GIMP dialog from the main loop and logs each distinct error once
 * when no dialog shows it.
 */

#include "config.h"
#include <glib/gi18n-lib.h>

#include "op-error.h"

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
  description (_("Diagnostics of the shader's compilation and run; empty "
                 "while it compiles and runs"))
  ui_meta ("error", "true")
  ui_meta ("visible", GS_ERROR_VISIBLE)

property_boolean (has_errors, _("Has errors"), FALSE)
  description (_("TRUE while \"error\" is not empty"))
  ui_meta ("visible", GS_HAS_ERRORS_VISIBLE)

#else

#define GEGL_OP_FILTER
#define GEGL_OP_NAME     shader_run
#define GEGL_OP_C_SOURCE shader-run.c

#include "gegl-op.h"

#include <string.h>
#include <glib/gstdio.h>

#include "shaderlib.h"
#include "draw.h"
#include "shader-file.h"
#include "host-values.h"

#define SHADER_RUN_FORMAT "R'G'B'A float"

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
  gchar     *compile_diags;   /* formatted, "" when clean */

  /* draw key, the same for every level */
  GsDraw    *draws[GS_N_LEVELS];
  gboolean   draw_valid;
  gchar     *draw_params;
  GeglRectangle draw_bbox;
  gchar     *draw_diags;      /* of the level-0 draw; "" when clean */
  /* What went wrong while rendering the current draws (a run-time
   * limit, memory, a coarser level that would not prepare); NULL when
   * nothing did. */
  gchar     *runtime_diags;
} State;

static State *
get_state (GeglOperation *operation)
{
  return GEGL_PROPERTIES (operation)->user_data;
}

static gint64
file_mtime (const gchar *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return -1;
  return (gint64) st.st_mtime;
}

/* The folder a shader's diagnostics are shown relative to: the shader
 * file's own. */
static gchar *
format_for_dialog (SlDiagnostics *diags,
                   const gchar   *file)
{
  gchar *text   = gs_format_diagnostics (diags);
  gchar *folder = file ? g_path_get_dirname (file) : NULL;
  gchar *shown  = gs_error_shorten (text, folder);

  g_free (folder);
  g_free (text);
  return shown;
}

static void
clear_draws (State *state)
{
  for (gint level = 0; level < GS_N_LEVELS; level++)
    g_clear_pointer (&state->draws[level], gs_draw_unref);
  g_clear_pointer (&state->runtime_diags, g_free);
}

/* Compiles when the compile key changed.  Returns TRUE when it did (so the
 * caller knows the draws are stale).  Called with the mutex held. */
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
  gchar            *with_host = NULL;
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

  diags = sl_diagnostics_new ();

  if (file)
    {
      GError *error = NULL;

      if (! gs_shader_file_read (file, &contents, &length, &error))
        {
          sl_diagnostics_add (diags, SL_SEVERITY_ERROR, file, 0, 0,
                              SL_CODE_HOST_IO, "%s", error->message);
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
      if (g_getenv ("GEGL_SHADERS_ALLOW_ANY_PATH"))
        options.flags |= SL_COMPILE_ANY_PATH;
      options.language    = SL_LANGUAGE_AUTO;
      options.entry_point = (o->entry && o->entry[0]) ? o->entry : NULL;
      options.profile     = (o->profile && o->profile[0]) ? o->profile : NULL;
      /* ReShade's size macros name a hidden host value. */
      with_host = gs_host_source (options.filename, contents, length,
                                  &options.length, &options.defines);
      if (with_host)
        options.source = with_host;

      state->program = sl_compile (&options, diags);
      g_free (with_host);
      if (! state->program && sl_diagnostics_error_count (diags) == 0)
        sl_diagnostics_add (diags, SL_SEVERITY_ERROR, options.filename, 0, 0,
                            SL_CODE_HOST_COMPILE, "%s",
                            _("the shader failed to compile"));
    }

  state->compile_diags = format_for_dialog (diags, file);

  g_free (contents);
  sl_diagnostics_free (diags);
  return TRUE;
}

/* Every sampler slot reads the input. */
static GsDraw *
build_draw (SlProgram           *program,
            const GeglRectangle *bbox,
            gint                 level,
            const gchar         *params,
            SlDiagnostics       *diags)
{
  GsDraw    *draw    = gs_draw_new (bbox, level);
  SlBinding *binding = gs_draw_bind (draw, program);
  gboolean   ok      = TRUE;

  gs_bind_samplers (binding, program, &draw->placeholder[0], NULL);
  /* The full-resolution image's sizes at every level, as the shader ops
   * fill them; first, so that params naming one still win. */
  ok = gs_host_values_set (binding, bbox->width, bbox->height, NULL, diags);
  if (ok && params && params[0])
    ok = sl_binding_set_params_string (binding, params, diags);
  gs_draw_prepare (draw, ok, TRUE, diags);
  if (! draw->binding && sl_diagnostics_error_count (diags) == 0)
    sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "shader:run", 0, 0,
                        SL_CODE_HOST_PREPARE, "%s",
                        _("the shader could not be prepared"));
  return draw;
}

/* Brings the program and the level-0 draw up to date with the properties
 * and the input's bounding box.  Called with the mutex held. */
static void
update_state (GeglOperation       *operation,
              const GeglRectangle *bbox)
{
  GeglProperties *o       = GEGL_PROPERTIES (operation);
  State          *state   = get_state (operation);
  gboolean        changed = update_program (state, o);
  GeglRectangle   empty   = { 0, 0, 0, 0 };

  if (! bbox)
    bbox = &empty;

  if (changed ||
      ! state->draw_valid ||
      g_strcmp0 (state->draw_params, o->params) != 0 ||
      ! gegl_rectangle_equal (&state->draw_bbox, bbox))
    {
      clear_draws (state);
      g_clear_pointer (&state->draw_diags, g_free);
      g_free (state->draw_params);
      state->draw_params = g_strdup (o->params);
      state->draw_bbox   = *bbox;
      state->draw_valid  = TRUE;

      if (state->program && gegl_rectangle_is_infinite_plane (bbox))
        {
          SlDiagnostics *diags = sl_diagnostics_new ();

          sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "shader:run", 0, 0,
                              SL_CODE_HOST_INPUT, "%s",
                              _("the input has no bounded extent, so "
                                "TEXCOORD0 is undefined; crop it first"));
          state->draw_diags = gs_format_diagnostics (diags);
          sl_diagnostics_free (diags);
        }
      else if (state->program && bbox->width > 0 && bbox->height > 0)
        {
          SlDiagnostics *diags = sl_diagnostics_new ();

          state->draws[0]   = build_draw (state->program, bbox, 0, o->params,
                                          diags);
          state->draw_diags = format_for_dialog (diags, state->key_file);
          sl_diagnostics_free (diags);
        }
    }
}

/* The text the "error" property should hold: what compiling, preparing
 * and rendering said, in that order.  Newly allocated. */
static gchar *
current_text (State *state)
{
  const gchar *parts[3] = { state->compile_diags, state->draw_diags,
                            state->runtime_diags };
  GString     *text     = g_string_new (NULL);

  for (gint i = 0; i < 3; i++)
    if (parts[i] && parts[i][0])
      {
        if (text->len)
          g_string_append_c (text, '\n');
        g_string_append (text, parts[i]);
      }
  return g_string_free (text, FALSE);
}

/* Makes the property say what the state says, also after someone else
 * (GIMP restoring a dialog's last values) wrote it.  Called with the
 * mutex held. */
static void
publish (GeglOperation *operation)
{
  GeglProperties *o     = GEGL_PROPERTIES (operation);
  gchar          *text  = current_text (get_state (operation));
  gchar          *shown = gs_error_wrap (text);

  if (g_strcmp0 (shown, o->error) != 0 || o->has_errors != (shown[0] != 0))
    {
      g_free (o->error);
      o->error      = shown;
      o->has_errors = shown[0] != 0;
      shown = NULL;
      gs_error_changed (operation, "shader:run", text);
    }
  g_free (shown);
  g_free (text);
}

/* The draw of @level, built when it is missing.  Called with the mutex
 * held, after the level-0 draw. */
static GsDraw *
level_draw (GeglOperation *operation,
            gint           level)
{
  GeglProperties *o     = GEGL_PROPERTIES (operation);
  State          *state = get_state (operation);

  if (! state->draws[0] || ! state->draws[0]->binding)
    return NULL;
  if (! state->draws[level])
    {
      SlDiagnostics *diags = sl_diagnostics_new ();

      state->draws[level] = build_draw (state->program, &state->draw_bbox,
                                        level, o->params, diags);
      if (! state->draws[level]->binding && ! state->runtime_diags)
        state->runtime_diags = format_for_dialog (diags, state->key_file);
      sl_diagnostics_free (diags);
    }
  return state->draws[level]->binding ? state->draws[level] : NULL;
}

/* prepare() brings the state up to date; process() only does when the
 * state was never built or the input's extent moved, so a shader file
 * touched in the middle of a render does not mix two programs in one
 * image. */
static GsDraw *
acquire_draw (GeglOperation *operation,
              gboolean       refresh,
              gint           level)
{
  State         *state = get_state (operation);
  GeglRectangle *bbox;
  GeglRectangle  empty = { 0, 0, 0, 0 };
  GsDraw        *draw;

  bbox = gegl_operation_source_get_bounding_box (operation, "input");

  g_mutex_lock (&state->mutex);
  if (refresh ||
      ! state->draw_valid ||
      ! gegl_rectangle_equal (&state->draw_bbox, bbox ? bbox : &empty))
    update_state (operation, bbox);
  draw = level_draw (operation, CLAMP (level, 0, GS_N_LEVELS - 1));
  if (draw)
    gs_draw_ref (draw);
  publish (operation);
  g_mutex_unlock (&state->mutex);

  return draw;
}

/* The current level-0 draw without bringing it up to date, for GEGL's
 * region questions. */
static GsDraw *
peek_draw (GeglOperation *operation)
{
  State  *state = get_state (operation);
  GsDraw *draw  = NULL;

  g_mutex_lock (&state->mutex);
  if (state->draws[0] && state->draws[0]->binding)
    draw = gs_draw_ref (state->draws[0]);
  g_mutex_unlock (&state->mutex);
  return draw;
}

static void
prepare (GeglOperation *operation)
{
  const Babl *space  = gegl_operation_get_source_space (operation, "input");
  const Babl *format = babl_format_with_space (SHADER_RUN_FORMAT, space);
  GsDraw     *draw;

  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);

  draw = acquire_draw (operation, TRUE, 0);
  gs_operation_set_caching (operation, draw && ! draw->bounded);
  if (draw)
    gs_draw_unref (draw);
}

static GeglRectangle
get_required_for_output (GeglOperation       *operation,
                         const gchar         *input_pad,
                         const GeglRectangle *roi)
{
  GeglRectangle *bbox;
  GeglRectangle  empty = { 0, 0, 0, 0 };
  GeglRectangle  result;
  GsDraw        *draw;

  bbox = gegl_operation_source_get_bounding_box (operation, "input");
  if (! bbox)
    return empty;
  /* Nothing runs on an infinite input (it is passed through), and asking
   * for all of it would never finish. */
  if (gegl_rectangle_is_infinite_plane (bbox))
    return *roi;
  draw = peek_draw (operation);
  if (! draw)
    return *bbox;
  result = gs_draw_required (draw, roi);
  gs_draw_unref (draw);
  return result;
}

static GeglRectangle
get_invalidated_by_change (GeglOperation       *operation,
                           const gchar         *input_pad,
                           const GeglRectangle *region)
{
  GeglRectangle *bbox = gegl_operation_source_get_bounding_box (operation,
                                                                 "input");
  GeglRectangle  result;
  GsDraw        *draw;

  if (! bbox || gegl_rectangle_is_infinite_plane (bbox))
    return *region;
  draw = peek_draw (operation);
  if (! draw)
    return *region;
  result = gs_draw_invalidated (draw, region, bbox);
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
  GsDraw *draw;
  gchar  *failure = NULL;

  level = CLAMP (level, 0, GS_N_LEVELS - 1);
  draw  = acquire_draw (operation, FALSE, level);
  gs_draw_render (operation, draw, input, NULL, output, result, level,
                  &failure);
  if (failure)
    {
      State *state = get_state (operation);

      /* Kept while the draw it happened in is current: the next change
       * of the settings starts clean. */
      g_mutex_lock (&state->mutex);
      if (draw && state->draws[level] == draw && ! state->runtime_diags)
        {
          state->runtime_diags = failure;
          failure = NULL;
          publish (operation);
        }
      g_mutex_unlock (&state->mutex);
      g_free (failure);
    }
  if (draw)
    gs_draw_unref (draw);
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
      clear_draws (state);
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
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
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
