/* pixel-fetch — reading GEGL buffers as float RGBA, the same way in every
 * host.  Both hosts promise that an 8-bit value k reads as exactly k/255
 * (and a 16-bit one as exactly k/65535); babl's own integer → float
 * conversions multiply by a reciprocal and are one ulp off for some k.
 * So when the source holds straight-alpha perceptual integers (R'G'B',
 * R'G'B'A, Y', Y'A at 8 or 16 bits) in the space of the wanted perceptual
 * R'G'B'A float, the pixels are read as R'G'B'A u8/u16 — an exact
 * conversion between integer formats of one space — and divided here;
 * everything else goes through babl as usual.  The integers are unpacked
 * in place from the back of the float buffer, which is at least twice as
 * large as they are, so the rule costs no allocation.  The ops read their
 * inputs through here, and host/image-io.c reads every image file through
 * here too.
 */
#include "config.h"

#include "pixel-fetch.h"

#include <string.h>

#include <gegl-buffer-backend.h>

/* 8 or 16 for straight-alpha perceptual integer formats, else 0. */
static gint
perceptual_int_bits (const Babl *format)
{
  static const gchar *const models[] = { "R'G'B'", "R'G'B'A", "Y'", "Y'A",
                                         NULL };
  const Babl  *type  = babl_format_get_type (format, 0);
  const gchar *model = babl_get_name (babl_format_get_model (format));

  if (! g_strv_contains (models, model))
    return 0;
  return type == babl_type ("u8") ? 8 : type == babl_type ("u16") ? 16 : 0;
}

void
gs_pixel_fetch (GeglBuffer          *buffer,
                const GeglRectangle *rect,
                gdouble              scale,
                const Babl          *format,
                gfloat              *dst,
                GeglAbyssPolicy      abyss)
{
  const Babl *space  = babl_format_get_space (format);
  const Babl *source = gegl_buffer_get_format (buffer);
  gint        bits   = perceptual_int_bits (source);
  gsize       n      = (gsize) rect->width * rect->height * 4;

  if (scale != 1.0 || bits == 0
      || format != babl_format_with_space ("R'G'B'A float", space)
      || babl_format_get_space (source) != space)
    {
      gegl_buffer_get (buffer, rect, scale, format, dst,
                       GEGL_AUTO_ROWSTRIDE, abyss);
      return;
    }

  if (bits == 8)
    {
      guint8 *ints = (guint8 *) (dst + n) - n;

      gegl_buffer_get (buffer, rect, 1.0,
                       babl_format_with_space ("R'G'B'A u8", space), ints,
                       GEGL_AUTO_ROWSTRIDE, abyss);
      for (gsize i = 0; i < n; i++)
        dst[i] = (gfloat) ints[i] / 255.0f;
    }
  else
    {
      guint16 *ints = (guint16 *) (dst + n) - n;

      gegl_buffer_get (buffer, rect, 1.0,
                       babl_format_with_space ("R'G'B'A u16", space), ints,
                       GEGL_AUTO_ROWSTRIDE, abyss);
      for (gsize i = 0; i < n; i++)
        dst[i] = (gfloat) ints[i] / 65535.0f;
    }
}

typedef struct
{
  GeglBuffer          *buffer;
  const GeglRectangle *rect;
  gdouble              scale;
  const Babl          *format;
  gfloat              *dst;
  GeglAbyssPolicy      abyss;
} FetchJob;

static void
fetch_rows (gsize    offset,
            gsize    n_rows,
            gpointer user_data)
{
  const FetchJob *job  = user_data;
  GeglRectangle   band = { job->rect->x, job->rect->y + (gint) offset,
                           job->rect->width, (gint) n_rows };

  gs_pixel_fetch (job->buffer, &band, job->scale, job->format,
                  job->dst + offset * (gsize) job->rect->width * 4, job->abyss);
}

void
gs_pixel_fetch_parallel (GeglBuffer          *buffer,
                         const GeglRectangle *rect,
                         gdouble              scale,
                         const Babl          *format,
                         gfloat              *dst,
                         GeglAbyssPolicy      abyss,
                         gint                 pixels_per_thread)
{
  FetchJob job = { buffer, rect, scale, format, dst, abyss };

  if (rect->width <= 0 || rect->height <= 0)
    return;
  gegl_parallel_distribute_range (rect->height,
                                  (gdouble) pixels_per_thread / rect->width,
                                  fetch_rows, &job);
}

struct GsBufferTiles
{
  GeglTile     **tiles;
  const gfloat **texels;
  gint           n_tiles;
};

/* Floor division: tile indices of negative coordinates. */
static gint
tile_index (gint coordinate,
            gint size)
{
  return coordinate >= 0 ? coordinate / size
                         : -((-coordinate + size - 1) / size);
}

GsBufferTiles *
gs_buffer_tiles_borrow (GeglBuffer          *buffer,
                        const GeglRectangle *rect,
                        const Babl          *format,
                        SlTexture           *texture)
{
  GsBufferTiles *borrowed;
  gint           tile_width, tile_height, shift_x, shift_y;
  gint           x0, y0, tx0, ty0, across, down;

  if (rect->width <= 0 || rect->height <= 0 ||
      gegl_buffer_get_format (buffer) != format ||
      babl_format_get_bytes_per_pixel (format) != 4 * sizeof (gfloat) ||
      ! gegl_rectangle_contains (gegl_buffer_get_abyss (buffer), rect))
    return NULL;
  g_object_get (buffer,
                "tile-width",  &tile_width,
                "tile-height", &tile_height,
                "shift-x",     &shift_x,
                "shift-y",     &shift_y,
                NULL);
  if (tile_width <= 0 || (tile_width & (tile_width - 1)) ||
      tile_height <= 0 || (tile_height & (tile_height - 1)))
    return NULL;

  /* GEGL finds pixel (x, y) in tile ((x + shift_x) / tile_width,
   * (y + shift_y) / tile_height), rounding down. */
  x0     = rect->x + shift_x;
  y0     = rect->y + shift_y;
  tx0    = tile_index (x0, tile_width);
  ty0    = tile_index (y0, tile_height);
  across = tile_index (x0 + rect->width - 1, tile_width) - tx0 + 1;
  down   = tile_index (y0 + rect->height - 1, tile_height) - ty0 + 1;

  borrowed = g_new0 (GsBufferTiles, 1);
  borrowed->tiles  = g_new0 (GeglTile *, (gsize) across * down);
  borrowed->texels = g_new0 (const gfloat *, (gsize) across * down);
  for (gint ty = 0; ty < down; ty++)
    for (gint tx = 0; tx < across; tx++)
      {
        GeglTile *tile = gegl_buffer_get_tile (buffer, tx0 + tx, ty0 + ty, 0);

        if (! tile)
          {
            gs_buffer_tiles_release (borrowed);
            return NULL;
          }
        gegl_tile_read_lock (tile);
        borrowed->tiles[borrowed->n_tiles++] = tile;
        borrowed->texels[(gsize) ty * across + tx] =
          (const gfloat *) gegl_tile_get_data (tile);
      }

  if (! sl_texture_init_tiled (texture, rect->width, rect->height,
                               tile_width, tile_height,
                               x0 - tx0 * tile_width, y0 - ty0 * tile_height,
                               across, borrowed->texels))
    {
      gs_buffer_tiles_release (borrowed);
      return NULL;
    }
  return borrowed;
}

void
gs_buffer_tiles_release (GsBufferTiles *borrowed)
{
  if (! borrowed)
    return;
  for (gint i = 0; i < borrowed->n_tiles; i++)
    {
      gegl_tile_read_unlock (borrowed->tiles[i]);
      gegl_tile_unref (borrowed->tiles[i]);
    }
  g_free (borrowed->tiles);
  g_free (borrowed->texels);
  g_free (borrowed);
}
