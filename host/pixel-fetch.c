/* The ops promise, like the CLI, that an 8-bit value k reads as exactly
 * k/255 (and a 16-bit one as k/65535).  When the source buffer stores 8- or
 * 16-bit perceptual data and the op wants perceptual float, the pixels are
 * read as R'G'B'A u8/u16 (an exact conversion between integer perceptual
 * formats of one space) and divided here; everything else goes through
 * babl as usual. */
#include "config.h"

#include "pixel-fetch.h"

#include <string.h>

/* 8 or 16 for perceptual integer formats, else 0. */
static int
perceptual_int_bits (const Babl *format)
{
  const Babl *type = babl_format_get_type (format, 0);
  int bits = type == babl_type ("u8") ? 8 : type == babl_type ("u16") ? 16 : 0;
  /* Perceptual models carry a prime: R'G'B'A, R'G'B', Y'A, Y' … */
  const char *model = babl_get_name (babl_format_get_model (format));
  return bits && strchr (model, '\'') != NULL ? bits : 0;
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
  int         bits   = perceptual_int_bits (source);

  if (scale != 1.0 || bits == 0
      || format != babl_format_with_space ("R'G'B'A float", space)
      || babl_format_get_space (source) != space)
    {
      gegl_buffer_get (buffer, rect, scale, format, dst,
                       GEGL_AUTO_ROWSTRIDE, abyss);
      return;
    }

  gsize n = (gsize) rect->width * rect->height * 4;
  if (bits == 8)
    {
      guint8 *ints = g_malloc (n);
      gegl_buffer_get (buffer, rect, 1.0,
                       babl_format_with_space ("R'G'B'A u8", space), ints,
                       GEGL_AUTO_ROWSTRIDE, abyss);
      for (gsize i = 0; i < n; i++)
        dst[i] = (gfloat) ints[i] / 255.0f;
      g_free (ints);
    }
  else
    {
      guint16 *ints = g_malloc_n (n, sizeof (guint16));
      gegl_buffer_get (buffer, rect, 1.0,
                       babl_format_with_space ("R'G'B'A u16", space), ints,
                       GEGL_AUTO_ROWSTRIDE, abyss);
      for (gsize i = 0; i < n; i++)
        dst[i] = (gfloat) ints[i] / 65535.0f;
      g_free (ints);
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
