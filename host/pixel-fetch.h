/* Reading a GEGL buffer as float RGBA with the hosts' 8-bit rule (see
 * pixel-fetch.c). */
#ifndef GS_PIXEL_FETCH_H
#define GS_PIXEL_FETCH_H

#include <gegl.h>

/* gegl_buffer_get() into @dst as @format (4 floats per pixel), except that
 * an 8- or 16-bit straight-alpha perceptual source read as perceptual
 * R'G'B'A float of its own space gives each value k as exactly k/255 or
 * k/65535. */
void gs_pixel_fetch (GeglBuffer          *buffer,
                     const GeglRectangle *rect,
                     gdouble              scale,
                     const Babl          *format,
                     gfloat              *dst,
                     GeglAbyssPolicy      abyss);

/* gs_pixel_fetch() split into bands of rows read on GEGL's worker threads:
 * for a cheap shader the conversion of the input costs as much as the
 * shader itself and would otherwise run on one thread. */
void gs_pixel_fetch_parallel (GeglBuffer          *buffer,
                              const GeglRectangle *rect,
                              gdouble              scale,
                              const Babl          *format,
                              gfloat              *dst,
                              GeglAbyssPolicy      abyss,
                              gint                 pixels_per_thread);

#endif
