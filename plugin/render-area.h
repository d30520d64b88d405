/* Rendering a prepared shader or effect over a rectangle of a GEGL buffer,
 * for every op of the module (through draw.c), and writing what lies
 * around it. */
#ifndef GS_RENDER_AREA_H
#define GS_RENDER_AREA_H

#include <gegl.h>

#include "shaderlib.h"

typedef struct
{
  /* What runs: a prepared binding, or else a prepared effect run. */
  const SlBinding *binding;
  SlEffectRun     *effect;
  /* Output coordinates of viewport pixel (0,0); its size is the size of
   * the primary texture. */
  GeglRectangle    viewport;
  /* Slots left NULL sample the primary input. */
  const SlTexture *textures[SL_MAX_SLOTS];
  GeglBuffer      *input;          /* the primary input */
  gdouble          scale;          /* for reading @input at @level */
  /* With a known sampling reach each band reads only its own rows plus
   * the reach; otherwise the whole viewport is read once. */
  gboolean         bounded;
  gint             reach_left, reach_top, reach_right, reach_bottom;
  /* Unbounded only: the whole viewport already read; NULL reads it. */
  const SlTexture *whole;
  GeglBuffer      *output;
  gint             level;
  const Babl      *format;
  gint             pixels_per_thread;
} GsRenderJob;

typedef enum
{
  GS_RENDER_OK,
  GS_RENDER_LIMIT,       /* a band hit a run-time limit; all were written */
  GS_RENDER_NO_MEMORY    /* nothing was rendered */
} GsRenderStatus;

/* Renders the pixels of @rect (inside the viewport, level coordinates)
 * into the output on GEGL's worker threads.  Each worker renders bands of
 * rows in buffers it reuses, so the pixels pass through the cache once
 * and no large buffer is faulted in per call.  A pixel the shader
 * discards keeps the input.  Unless it returns GS_RENDER_OK, *failure
 * (when not NULL) gets the first run-time diagnostic (possibly empty) or
 * says what memory was missing; free it. */
GsRenderStatus gs_render_area (const GsRenderJob   *job,
                               const GeglRectangle *rect,
                               gchar              **failure);

/* Writes the parts of @outer that lie outside @inner from @pixels (which
 * hold all of @outer, 4 floats per pixel, row stride outer->width): the
 * ops write @inner area by area from their workers and the rest here. */
void gs_buffer_set_around (GeglBuffer          *buffer,
                           const GeglRectangle *outer,
                           const GeglRectangle *inner,
                           gint                 level,
                           const Babl          *format,
                           const gfloat        *pixels);

#endif
