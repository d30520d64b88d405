/* See render-area.h.  Work is split twice: gegl_parallel_distribute_area()
 * hands each worker an area, and the worker walks it in bands of rows of
 * about BAND_PIXELS pixels: read the band (plus the sampling reach) from
 * the input, pre-fill the output band with the input, run the shader (or
 * an effect's last pass), write the band.  Buffers grow to the largest
 * band and are reused; an image-sized buffer is only ever asked for with
 * g_try_*, so running out of memory is reported, never an abort, and
 * only within the render's memory budget (GEGL_SHADERS_MEMORY_BUDGET). */
#include "config.h"

#include "render-area.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "image-io.h"
#include "memory-budget.h"
#include "pixel-fetch.h"

/* 64K pixels: 1 MiB of float RGBA in and out, which stays in L2. */
#define BAND_PIXELS 65536

typedef struct
{
  const GsRenderJob   *job;
  /* Unbounded shaders: the whole viewport, read once (whole) or read
   * where it lies in the input's tiles (whole NULL). */
  const gfloat        *whole;
  SlTexture            whole_texture;
  const SlTexture     *whole_texture_p;
  /* A point shader at full size reads and writes the buffers' tiles in
   * place (render_in_place). */
  gboolean             in_place;
  GMutex               lock;
  gboolean             failed;
  gchar               *failure;
} Shared;

static gint
band_height (const GsRenderJob   *job,
             const GeglRectangle *area)
{
  gint rows   = BAND_PIXELS / MAX (area->width, 1);
  gint margin = job->bounded ? job->reach_top + job->reach_bottom + 2 : 0;

  /* Keep the re-read margin a small part of each band; even heights keep
   * the VM's 2×2 quads whole. */
  rows = MAX (rows, 4 * margin);
  rows = MAX (rows, 2);
  rows += rows & 1;
  return MIN (rows, area->height);
}

static void
note_failure (Shared        *shared,
              SlDiagnostics *diags)
{
  g_mutex_lock (&shared->lock);
  if (! shared->failed)
    {
      shared->failed = TRUE;
      if (sl_diagnostics_count (diags) > 0)
        {
          shared->failure = sl_diagnostics_format (diags);
          if (shared->failure)
            g_strchomp (shared->failure);
        }
    }
  g_mutex_unlock (&shared->lock);
}

/* A shader that needs only the texel under each pixel
 * (sl_binding_needs_only_own_texels), at full size, from an input in its
 * format: GEGL's iterator hands over the tiles themselves (copying only
 * where they do not line up), the input tile is the texture and the
 * output tile the target, so no pixel is copied on the way in or out.
 * The pieces are as small as tiles, but such a program gives each pixel
 * the same bits whatever rectangle it is rendered in. */
static void
render_in_place (Shared              *shared,
                 const GeglRectangle *area,
                 SlScratch           *scratch,
                 SlDiagnostics       *diags)
{
  const GsRenderJob  *job = shared->job;
  GeglBufferIterator *it;
  const SlTexture    *textures[SL_MAX_SLOTS];
  SlTexture           tile_texture;
  gboolean            ok    = TRUE;
  gboolean            whole = sl_binding_writes_every_pixel (job->binding);

  for (gint slot = 0; slot < SL_MAX_SLOTS; slot++)
    textures[slot] = job->textures[slot] ? job->textures[slot] : &tile_texture;

  it = gegl_buffer_iterator_new (job->output, area, job->level, job->format,
                                 GEGL_ACCESS_WRITE, GEGL_ABYSS_NONE, 2);
  gegl_buffer_iterator_add (it, job->input, area, job->level, job->format,
                            GEGL_ACCESS_READ, GEGL_ABYSS_NONE);
  while (gegl_buffer_iterator_next (it))
    {
      const GeglRectangle *roi = &it->items[0].roi;
      gfloat              *out = it->items[0].data;
      const gfloat        *in  = it->items[1].data;
      SlTarget             target = { out, (gsize) roi->width * 4 };

      sl_texture_init_2d (&tile_texture, job->viewport.width,
                          job->viewport.height, (gsize) roi->width * 4, in);
      tile_texture.window_x      = roi->x - job->viewport.x;
      tile_texture.window_y      = roi->y - job->viewport.y;
      tile_texture.window_width  = roi->width;
      tile_texture.window_height = roi->height;
      /* A discarded pixel keeps the input. */
      if (! whole)
        memcpy (out, in, (gsize) roi->width * roi->height * 4 * sizeof (gfloat));
      if (ok && ! sl_binding_render (job->binding, scratch,
                                     roi->x - job->viewport.x,
                                     roi->y - job->viewport.y,
                                     roi->width, roi->height,
                                     textures, &target, 1, diags))
        {
          note_failure (shared, diags);
          ok = FALSE;
        }
    }
}

/* Everything else: bands of rows, read with their margins into one
 * reused buffer and rendered into another (see the file comment). */
static void
render_bands (Shared              *shared,
              const GeglRectangle *area,
              SlScratch           *scratch,
              SlDiagnostics       *diags)
{
  const GsRenderJob *job     = shared->job;
  GsBandBuffer       in      = { NULL, 0 };
  GsBandBuffer       out     = { NULL, 0 };
  const SlTexture   *textures[SL_MAX_SLOTS];
  SlTexture          band_texture;
  gint               rows    = band_height (job, area);
  gboolean           ok      = TRUE;

  for (gint y = area->y; y < area->y + area->height; y += rows)
    {
      GeglRectangle band = { area->x, y, area->width,
                             MIN (rows, area->y + area->height - y) };
      GeglRectangle fetch;
      const gfloat *source;
      gfloat       *dst;
      SlTarget      target;

      if (job->bounded)
        {
          /* One texel more than the reach on each side covers the
           * second tap of bilinear filtering.  An effect says what each
           * band needs: its passes may read targets of other sizes,
           * whose texels do not line up with the image's. */
          fetch.x      = band.x - job->reach_left - 1;
          fetch.y      = band.y - job->reach_top - 1;
          fetch.width  = band.width + job->reach_left + job->reach_right + 2;
          fetch.height = band.height + job->reach_top + job->reach_bottom + 2;
          if (job->effect &&
              sl_effect_run_get_input_rect (job->effect,
                                            band.x - job->viewport.x,
                                            band.y - job->viewport.y,
                                            band.width, band.height,
                                            &fetch.x, &fetch.y,
                                            &fetch.width, &fetch.height))
            {
              fetch.x      += job->viewport.x - 1;
              fetch.y      += job->viewport.y - 1;
              fetch.width  += 2;
              fetch.height += 2;
            }
          gegl_rectangle_intersect (&fetch, &fetch, &job->viewport);
          source = gs_band_buffer_reserve (&in, (gsize) fetch.width * fetch.height);
          if (! source)
            {
              g_warning ("shader: out of memory for a %d×%d band",
                         fetch.width, fetch.height);
              break;
            }
          gs_pixel_fetch (job->input, &fetch, job->scale, job->format,
                          in.pixels, GEGL_ABYSS_NONE);
          sl_texture_init_2d (&band_texture, job->viewport.width,
                              job->viewport.height, (gsize) fetch.width * 4,
                              in.pixels);
          band_texture.window_x      = fetch.x - job->viewport.x;
          band_texture.window_y      = fetch.y - job->viewport.y;
          band_texture.window_width  = fetch.width;
          band_texture.window_height = fetch.height;
        }
      else
        {
          fetch  = job->viewport;
          source = shared->whole;
        }
      for (gint slot = 0; slot < SL_MAX_SLOTS; slot++)
        textures[slot] = job->textures[slot] ? job->textures[slot]
                         : job->bounded ? &band_texture
                         : shared->whole_texture_p;

      dst = gs_band_buffer_reserve (&out, (gsize) band.width * band.height);
      if (! dst)
        {
          g_warning ("shader: out of memory for a %d×%d band",
                     band.width, band.height);
          break;
        }
      /* A discarded pixel keeps the input, so the band starts as the
       * input, unless the program writes every pixel whole.  An effect
       * fills the band with its back buffer itself. */
      if (job->effect || sl_binding_writes_every_pixel (job->binding))
        ;
      else if (source)
        for (gint r = 0; r < band.height; r++)
          memcpy (dst + (gsize) r * band.width * 4,
                  source + ((gsize) (band.y + r - fetch.y) * fetch.width
                            + (band.x - fetch.x)) * 4,
                  (gsize) band.width * 4 * sizeof (gfloat));
      else
        gs_pixel_fetch (job->input, &band, job->scale, job->format, dst,
                        GEGL_ABYSS_NONE);

      target.pixels     = dst;
      target.row_stride = (gsize) band.width * 4;
      /* An effect's last pass reads the band; its passes before run once
       * per run, from the input it was given. */
      if (ok && ! (job->effect
                   ? sl_effect_render (job->effect, scratch,
                                       band.x - job->viewport.x,
                                       band.y - job->viewport.y,
                                       band.width, band.height,
                                       job->bounded ? &band_texture : NULL,
                                       &target, diags)
                   : sl_binding_render (job->binding, scratch,
                                        band.x - job->viewport.x,
                                        band.y - job->viewport.y,
                                        band.width, band.height,
                                        textures, &target, 1, diags)))
        {
          /* Later bands still run: each pixel is bounded on its own. */
          note_failure (shared, diags);
          ok = FALSE;
        }
      gegl_buffer_set (job->output, &band, job->level, job->format, dst,
                       GEGL_AUTO_ROWSTRIDE);
    }

  g_free (in.pixels);
  g_free (out.pixels);
}

static void
render_worker (const GeglRectangle *area,
               gpointer             user_data)
{
  Shared        *shared  = user_data;
  SlScratch     *scratch = sl_scratch_new ();
  SlDiagnostics *diags   = sl_diagnostics_new ();

  if (shared->in_place)
    render_in_place (shared, area, scratch, diags);
  else
    render_bands (shared, area, scratch, diags);
  sl_diagnostics_free (diags);
  sl_scratch_free (scratch);
}

GsRenderStatus
gs_render_area (const GsRenderJob   *job,
                const GeglRectangle *rect,
                gchar              **failure)
{
  Shared         shared;
  gfloat        *whole    = NULL;
  GsBufferTiles *borrowed = NULL;

  memset (&shared, 0, sizeof shared);
  shared.job = job;
  g_mutex_init (&shared.lock);

  if (! job->bounded && job->whole)
    {
      shared.whole           = job->whole->levels[0].texels;
      shared.whole_texture_p = job->whole;
    }
  else if (! job->bounded && job->level == 0 &&
           (borrowed = gs_buffer_tiles_borrow (job->input, &job->viewport,
                                               job->format,
                                               &shared.whole_texture)))
    {
      /* At full size, in the format the shader reads, the input's own
       * tiles serve as the texture: no copy of the whole image. */
      shared.whole_texture_p = &shared.whole_texture;
    }
  else if (! job->bounded)
    {
      gsize budget;
      gsize need = gs_image_bytes (job->viewport.width, job->viewport.height);

      gs_memory_budget_from_env (&budget);
      if (need > budget)
        {
          gchar *a = gs_format_bytes (need);
          gchar *b = gs_format_bytes (budget);

          g_mutex_clear (&shared.lock);
          if (failure)
            *failure = g_strdup_printf (_("the whole %d×%d input needs %s, over "
                                          "the memory budget of %s (%s)"),
                                        job->viewport.width,
                                        job->viewport.height, a, b,
                                        GS_MEMORY_BUDGET_ENV);
          g_free (a);
          g_free (b);
          return GS_RENDER_NO_MEMORY;
        }
      whole = g_try_malloc_n ((gsize) job->viewport.width * job->viewport.height,
                              4 * sizeof (gfloat));
      if (! whole)
        {
          g_mutex_clear (&shared.lock);
          if (failure)
            *failure = g_strdup_printf (_("out of memory for a %d×%d image"),
                                        job->viewport.width,
                                        job->viewport.height);
          return GS_RENDER_NO_MEMORY;
        }
      gs_pixel_fetch_parallel (job->input, &job->viewport, job->scale,
                               job->format, whole, GEGL_ABYSS_NONE,
                               job->pixels_per_thread);
      sl_texture_init_2d (&shared.whole_texture, job->viewport.width,
                          job->viewport.height,
                          (gsize) job->viewport.width * 4, whole);
      shared.whole           = whole;
      shared.whole_texture_p = &shared.whole_texture;
    }

  shared.in_place = job->bounded && ! job->effect && job->level == 0 &&
                    sl_binding_needs_only_own_texels (job->binding) &&
                    gegl_buffer_get_format (job->input) == job->format;
  gegl_parallel_distribute_area (rect, job->pixels_per_thread,
                                 GEGL_SPLIT_STRATEGY_HORIZONTAL,
                                 render_worker, &shared);

  g_free (whole);
  gs_buffer_tiles_release (borrowed);
  g_mutex_clear (&shared.lock);
  if (failure)
    *failure = shared.failed ? (shared.failure ? shared.failure : g_strdup (""))
                             : NULL;
  else
    g_free (shared.failure);
  return shared.failed ? GS_RENDER_LIMIT : GS_RENDER_OK;
}

void
gs_buffer_set_around (GeglBuffer          *buffer,
                      const GeglRectangle *outer,
                      const GeglRectangle *inner,
                      gint                 level,
                      const Babl          *format,
                      const gfloat        *pixels)
{
  GeglRectangle in;
  gsize         stride = (gsize) outer->width * 4;

  if (! gegl_rectangle_intersect (&in, outer, inner))
    {
      gegl_buffer_set (buffer, outer, level, format, pixels,
                       stride * sizeof (gfloat));
      return;
    }

  /* Above, below, then left and right of @in within its rows. */
  GeglRectangle parts[4] = {
    { outer->x, outer->y, outer->width, in.y - outer->y },
    { outer->x, in.y + in.height, outer->width,
      outer->y + outer->height - (in.y + in.height) },
    { outer->x, in.y, in.x - outer->x, in.height },
    { in.x + in.width, in.y, outer->x + outer->width - (in.x + in.width),
      in.height },
  };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i].width > 0 && parts[i].height > 0)
      gegl_buffer_set (buffer, &parts[i], level, format,
                       pixels + (gsize) (parts[i].y - outer->y) * stride
                              + (gsize) (parts[i].x - outer->x) * 4,
                       stride * sizeof (gfloat));
}
