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
