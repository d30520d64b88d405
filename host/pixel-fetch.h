/* Reading a GEGL buffer as float RGBA with the hosts' 8-bit rule (see
 * pixel-fetch.c). */
#ifndef GS_PIXEL_FETCH_H
#define GS_PIXEL_FETCH_H

#include <gegl.h>

#include "shaderlib.h"

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

/* The pixels of @rect (level 0) of @buffer where they already lie, as a
 * texture over the buffer's own tiles (SlTexture.tiles): no copy, so a
 * shader that may read anywhere needs no second image in memory.  It
 * works when the buffer stores @format, a 4-float format, @rect lies
 * inside its abyss and its tiles are powers of two wide and high (GEGL's
 * are); otherwise it returns NULL and the caller copies.  The tiles stay
 * referenced and read-locked, and @texture valid, until
 * gs_buffer_tiles_release(). */
typedef struct GsBufferTiles GsBufferTiles;

GsBufferTiles *gs_buffer_tiles_borrow  (GeglBuffer          *buffer,
                                        const GeglRectangle *rect,
                                        const Babl          *format,
                                        SlTexture           *texture);
void           gs_buffer_tiles_release (GsBufferTiles       *tiles);

#endif
