/* The draw core of every op of the module: shader:run (shader-run.c), the
 * per-file ops (shader-ops.c) and the effect ops (effect-ops.c).
 *
 * A draw is what one render needs: a prepared SlBinding (or SlEffectRun)
 * for one set of settings, one viewport and one mip level, the sampling
 * reach it reports, and placeholder textures standing in for the pads.
 * Draws are reference counted: an op builds them in prepare() (or, for
 * another mip level, in process()) under its own lock, and process() takes
 * a reference and renders without holding any lock, so a property change
 * racing a render only affects the next one.  Each op keeps its own cache
 * of draws and its own key; what they share is here: building and
 * preparing, the answers to GEGL's region questions, and process() itself
 * (render-area.c does the threaded rendering).
 *
 * Mip levels: at level L GEGL hands rectangles in level-0 coordinates and
 * buffers whose level-L tiles hold the image scaled by 1/2^L; a draw for
 * level L has the level-L viewport, so TEXCOORD0 still spans the image.
 * The region callbacks do not know the level and answer from the level-0
 * draw, with a margin for the rounding of coarser levels.
 *
 * Where the copies of this code disagreed the user's view won: formatted
 * diagnostics are "" when there are none (the "error" property's empty
 * state), an op whose memory runs out says so in its "error" property and
 * passes its input through.
 *
 * Memory: an effect's run counts its targets and images against the
 * render's memory budget (GEGL_SHADERS_MEMORY_BUDGET, gs_draw_memory_budget);
 * a draw that must hold its whole input adds that image to the sum once
 * the run says so, and a draw over the budget passes its input through
 * with the located error in the op's "error" property.
 */
#include "config.h"

#include "draw.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "memory-budget.h"
#include "pixel-fetch.h"
#include "render-area.h"
#include "shader-file.h"

/* Rows copied at a time when passing the input through. */
#define PASS_BAND_PIXELS 65536

GeglRectangle
gs_scale_rect (const GeglRectangle *rect,
               gint                 level)
{
  GeglRectangle s;
  gint          x1, y1;

  if (level <= 0)
    return *rect;
  s.x = rect->x >> level;
  s.y = rect->y >> level;
  x1  = (rect->x + rect->width + (1 << level) - 1) >> level;
  y1  = (rect->y + rect->height + (1 << level) - 1) >> level;
  s.width  = x1 - s.x;
  s.height = y1 - s.y;
  return s;
}

gchar *
gs_format_diagnostics (SlDiagnostics *diags)
{
  gchar *text;

  if (sl_diagnostics_count (diags) == 0)
    return g_strdup ("");
  text = sl_diagnostics_format (diags);
  return text ? g_strchomp (text) : g_strdup ("");
}

static void
init_placeholder (GsDraw *draw,
                  gint    pad)
{
  gs_texture_placeholder (&draw->placeholder[pad], draw->placeholder_texel,
                          draw->pad_rect[pad].width, draw->pad_rect[pad].height);
}

GsDraw *
gs_draw_new (const GeglRectangle *bbox,
             gint                 level)
{
  GsDraw *draw = g_atomic_rc_box_new0 (GsDraw);

  draw->level    = level;
  draw->viewport = gs_scale_rect (bbox, level);
  g_mutex_init (&draw->input_lock);
  for (gint pad = 0; pad < GS_MAX_PADS; pad++)
    {
      draw->pad_rect[pad] = draw->viewport;
      init_placeholder (draw, pad);
    }
  return draw;
}

void
gs_draw_set_pad (GsDraw              *draw,
                 gint                 pad,
                 const GeglRectangle *bbox)
{
  if (bbox->width <= 0 || bbox->height <= 0)
    return;
  draw->pad_rect[pad] = gs_scale_rect (bbox, draw->level);
  init_placeholder (draw, pad);
}

static void
draw_clear (gpointer data)
{
  GsDraw *draw = data;

  g_clear_pointer (&draw->binding, sl_binding_free);
  g_clear_pointer (&draw->program, sl_program_unref);
  g_clear_pointer (&draw->run, sl_effect_run_free);
  g_clear_pointer (&draw->effect, sl_effect_unref);
  g_clear_pointer (&draw->owned, g_ptr_array_unref);
  g_free (draw->whole);
  g_mutex_clear (&draw->input_lock);
}

GsDraw *
gs_draw_ref (GsDraw *draw)
{
  return g_atomic_rc_box_acquire (draw);
}

void
gs_draw_unref (GsDraw *draw)
{
  g_atomic_rc_box_release_full (draw, draw_clear);
}

typedef struct
{
  gpointer       data;
  GDestroyNotify destroy;
} Owned;

static void
owned_free (gpointer p)
{
  Owned *owned = p;

  owned->destroy (owned->data);
  g_free (owned);
}

void
gs_draw_own (GsDraw         *draw,
             gpointer        data,
             GDestroyNotify  destroy)
{
  Owned *owned = g_new (Owned, 1);

  owned->data    = data;
  owned->destroy = destroy;
  if (! draw->owned)
    draw->owned = g_ptr_array_new_with_free_func (owned_free);
  g_ptr_array_add (draw->owned, owned);
}

SlBinding *
gs_draw_bind (GsDraw    *draw,
              SlProgram *program)
{
  draw->program = sl_program_ref (program);
  draw->binding = sl_binding_new (program);
  sl_binding_set_auto_mips (draw->binding, TRUE);
  sl_binding_set_viewport (draw->binding, draw->viewport.width,
                           draw->viewport.height);
  return draw->binding;
}

/* render-area.c relies on the fetched rectangle containing the rendered
 * one, and on the margin arithmetic not overflowing. */
static void
clamp_reach (GsDraw *draw)
{
  draw->reach_left   = CLAMP (draw->reach_left, 0, draw->viewport.width);
  draw->reach_right  = CLAMP (draw->reach_right, 0, draw->viewport.width);
  draw->reach_top    = CLAMP (draw->reach_top, 0, draw->viewport.height);
  draw->reach_bottom = CLAMP (draw->reach_bottom, 0, draw->viewport.height);
}

gboolean
gs_draw_prepare (GsDraw        *draw,
                 gboolean       ok,
                 gboolean       may_bound,
                 SlDiagnostics *diags)
{
  if (ok)
    ok = sl_binding_prepare (draw->binding, diags);
  if (! ok || sl_diagnostics_error_count (diags) > 0)
    {
      g_clear_pointer (&draw->binding, sl_binding_free);
      return FALSE;
    }
  draw->bounded = may_bound &&
                  sl_binding_get_sample_reach (draw->binding,
                                               &draw->reach_left,
                                               &draw->reach_top,
                                               &draw->reach_right,
                                               &draw->reach_bottom);
  clamp_reach (draw);
  return TRUE;
}

gsize
gs_draw_memory_budget (void)
{
  static gsize warned = 0;
  gsize        budget;

  if (! gs_memory_budget_from_env (&budget) && g_once_init_enter (&warned))
    {
      g_warning ("%s='%s' is not a size such as 512M or 2G; the budget is %s",
                 GS_MEMORY_BUDGET_ENV, g_getenv (GS_MEMORY_BUDGET_ENV), "2G");
      g_once_init_leave (&warned, 1);
    }
  return budget;
}

gboolean
gs_draw_prepare_effect (GsDraw        *draw,
                        SlEffect      *effect,
                        SlEffectRun   *run,
                        gboolean       ok,
                        SlDiagnostics *diags)
{
  gint x, y, w, h;

  draw->effect = sl_effect_ref (effect);
  draw->run    = run;
  if (ok)
    ok = sl_effect_run_prepare (run, diags);
  if (! ok || sl_diagnostics_error_count (diags) > 0)
    {
      g_clear_pointer (&draw->run, sl_effect_run_free);
      return FALSE;
    }
  /* The input an effect needs is the output rectangle grown by margins
   * that, when its passes read targets of other sizes, vary a little with
   * where the rectangle lies (the targets' texels do not line up with the
   * image's): the largest over pixels at every offset modulo 16 bound
   * them.  Bands and gs_draw_required() ask for their own rectangles. */
  draw->bounded = sl_effect_run_get_input_rect (run, 0, 0, 1, 1,
                                                &x, &y, &w, &h);
  if (draw->bounded)
    {
      gint left = -x, top = -y, right = w - 1 + x, bottom = h - 1 + y;

      for (gint j = 0; j < 16; j++)
        for (gint i = 0; i < 16; i++)
          if (sl_effect_run_get_input_rect (run, i, j, 1, 1, &x, &y, &w, &h))
            {
              left   = MAX (left, i - x);
              top    = MAX (top, j - y);
              right  = MAX (right, x + w - 1 - i);
              bottom = MAX (bottom, y + h - 1 - j);
            }
      x = -left;
      y = -top;
      w = left + right + 1;
      h = top + bottom + 1;
    }
  /* The whole input, read once per draw (fetch_whole), counts too. */
  if (! draw->bounded)
    {
      if (! gs_effect_run_hold (run, gs_image_bytes (draw->viewport.width,
                                                     draw->viewport.height),
                                diags))
        {
          g_clear_pointer (&draw->run, sl_effect_run_free);
          return FALSE;
        }
    }
  if (draw->bounded)
    {
      draw->reach_left   = -x;
      draw->reach_top    = -y;
      draw->reach_right  = w - 1 + x;
      draw->reach_bottom = h - 1 + y;
    }
  clamp_reach (draw);
  return TRUE;
}

static gboolean
can_render (const GsDraw *draw)
{
  return draw && (draw->binding || draw->run);
}

GeglRectangle
gs_draw_required (const GsDraw        *draw,
                  const GeglRectangle *roi)
{
  GeglRectangle result;

  if (! can_render (draw))
    return *roi;
  if (! draw->bounded)
    return draw->viewport;
  /* One texel for the second bilinear tap, one for the rounding of mip
   * levels, around an effect's exact answer for the rectangle or the
   * reach. */
  if (draw->run &&
      sl_effect_run_get_input_rect (draw->run, roi->x - draw->viewport.x,
                                    roi->y - draw->viewport.y, roi->width,
                                    roi->height, &result.x, &result.y,
                                    &result.width, &result.height))
    {
      result.x      += draw->viewport.x - 2;
      result.y      += draw->viewport.y - 2;
      result.width  += 4;
      result.height += 4;
    }
  else
    {
      result.x      = roi->x - draw->reach_left - 2;
      result.y      = roi->y - draw->reach_top - 2;
      result.width  = roi->width + draw->reach_left + draw->reach_right + 4;
      result.height = roi->height + draw->reach_top + draw->reach_bottom + 4;
    }
  gegl_rectangle_intersect (&result, &result, &draw->viewport);
  return result;
}

GeglRectangle
gs_draw_invalidated (const GsDraw        *draw,
                     const GeglRectangle *region,
                     const GeglRectangle *bbox)
{
  GeglRectangle result;

  if (! can_render (draw))
    return *region;
  if (! draw->bounded)
    return *bbox;
  /* A pixel reads from left of itself to right of itself, so a change
   * reaches the pixels that far to its right and left. */
  result.x      = region->x - draw->reach_right - 2;
  result.y      = region->y - draw->reach_bottom - 2;
  result.width  = region->width + draw->reach_left + draw->reach_right + 4;
  result.height = region->height + draw->reach_top + draw->reach_bottom + 4;
  gegl_rectangle_intersect (&result, &result, bbox);
  return result;
}

GeglRectangle
gs_draw_cached (const GsDraw        *draw,
                const GeglRectangle *roi)
{
  /* A shader that may read anywhere renders in one go, so the whole
   * input is fetched once rather than once per chunk. */
  if (can_render (draw) && ! draw->bounded)
    return draw->viewport;
  return *roi;
}

void
gs_pass_through (GeglBuffer          *input,
                 GeglBuffer          *output,
                 const GeglRectangle *result,
                 gint                 level,
                 const Babl          *format)
{
  GeglRectangle out = gs_scale_rect (result, level);
  gdouble       scale;
  gint          rows;
  gfloat       *buf;

  if (! input)
    return;
  if (level == 0)
    {
      gegl_buffer_copy (input, result, GEGL_ABYSS_NONE, output, result);
      return;
    }
  /* A coarser level holds the input scaled down: read it in bands, so a
   * large region needs no large buffer. */
  scale = 1.0 / (1 << level);
  rows  = CLAMP (PASS_BAND_PIXELS / MAX (out.width, 1), 1, MAX (out.height, 1));
  buf   = g_try_malloc_n ((gsize) out.width * rows, 4 * sizeof (gfloat));
  if (! buf)
    return;
  for (gint y = out.y; y < out.y + out.height; y += rows)
    {
      GeglRectangle band = { out.x, y, out.width,
                             MIN (rows, out.y + out.height - y) };

      gegl_buffer_get (input, &band, scale, format, buf, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      gegl_buffer_set (output, &band, level, format, buf,
                       GEGL_AUTO_ROWSTRIDE);
    }
  g_free (buf);
}

/* An effect that reads its whole input gets it once per draw. */
static gboolean
fetch_whole (GsDraw      *draw,
             GeglBuffer  *input,
             gdouble      scale,
             const Babl  *format,
             gint         pixels_per_thread,
             gchar      **failure)
{
  gboolean ok = TRUE;

  g_mutex_lock (&draw->input_lock);
  if (! draw->whole)
    {
      draw->whole = g_try_malloc_n ((gsize) draw->viewport.width
                                    * draw->viewport.height,
                                    4 * sizeof (gfloat));
      if (draw->whole)
        {
          gs_pixel_fetch_parallel (input, &draw->viewport, scale, format,
                                   draw->whole, GEGL_ABYSS_NONE,
                                   pixels_per_thread);
          sl_texture_init_2d (&draw->whole_texture, draw->viewport.width,
                              draw->viewport.height,
                              (gsize) draw->viewport.width * 4, draw->whole);
          sl_effect_run_set_input (draw->run, &draw->whole_texture);
        }
      else
        {
          *failure = g_strdup_printf (_("out of memory for a %d×%d image"),
                                      draw->viewport.width,
                                      draw->viewport.height);
          ok = FALSE;
        }
    }
  g_mutex_unlock (&draw->input_lock);
  return ok;
}

gboolean
gs_draw_render (GeglOperation          *operation,
                GsDraw                 *draw,
                GeglBuffer             *input,
                const SlTexture *const *textures,
                GeglBuffer             *output,
                const GeglRectangle    *result,
                gint                    level,
                gchar                 **failure)
{
  const Babl     *format = gegl_operation_get_format (operation, "output");
  gdouble         scale  = 1.0 / (1 << level);
  GeglRectangle   out_rect = gs_scale_rect (result, level);
  GeglRectangle   render_rect;
  GsRenderJob     job;
  GsRenderStatus  status;
  gchar          *message = NULL;

  *failure = NULL;
  if (! can_render (draw) || ! input ||
      ! gegl_rectangle_intersect (&render_rect, &out_rect, &draw->viewport))
    {
      gs_pass_through (input, output, result, level, format);
      return TRUE;
    }

  memset (&job, 0, sizeof job);
  for (gint slot = 0; slot < SL_MAX_SLOTS; slot++)
    job.textures[slot] = textures && textures[slot] ? textures[slot]
                         : draw->textures[slot];
  job.binding           = draw->binding;
  job.effect            = draw->run;
  job.viewport          = draw->viewport;
  job.input             = input;
  job.scale             = scale;
  job.bounded           = draw->bounded;
  job.reach_left        = draw->reach_left;
  job.reach_top         = draw->reach_top;
  job.reach_right       = draw->reach_right;
  job.reach_bottom      = draw->reach_bottom;
  job.output            = output;
  job.level             = level;
  job.format            = format;
  job.pixels_per_thread = gegl_operation_get_pixels_per_thread (operation);

  if (draw->run && ! draw->bounded)
    {
      if (! fetch_whole (draw, input, scale, format, job.pixels_per_thread,
                         failure))
        {
          gs_pass_through (input, output, result, level, format);
          return FALSE;
        }
      job.whole = &draw->whole_texture;
    }

  /* The input pixels are fetched afresh for each process call. */
  if (draw->binding)
    sl_binding_flush_mips (draw->binding);
  status = gs_render_area (&job, &render_rect, &message);
  if (status == GS_RENDER_NO_MEMORY)
    {
      gs_pass_through (input, output, result, level, format);
      *failure = message;
      return FALSE;
    }
  if (status == GS_RENDER_LIMIT)
    {
      *failure = message && message[0]
                 ? g_strdup (message)
                 : g_strdup (_("the shader hit an execution limit"));
    }
  g_free (message);

  /* What lies outside the viewport stays transparent. */
  if (! gegl_rectangle_equal (&render_rect, &out_rect))
    {
      gfloat *zeros = g_try_malloc0_n ((gsize) out_rect.width * out_rect.height,
                                       4 * sizeof (gfloat));
      if (zeros)
        gs_buffer_set_around (output, &out_rect, &render_rect, level, format,
                              zeros);
      g_free (zeros);
    }
  return TRUE;
}

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
