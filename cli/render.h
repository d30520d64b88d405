/* render — threaded rendering of an image band by band, by a prepared
 * SlBinding or SlEffectRun.  Kept apart from main.c so the threading has
 * one small home. */
#ifndef GS_RENDER_H
#define GS_RENDER_H

#include <glib.h>

#include "shaderlib.h"
#include "image-io.h"

G_BEGIN_DECLS

typedef struct
{
  /* What runs: a prepared binding, or a prepared effect run (whose input
   * the caller set before preparing it, to gs_texture_placeholder()'s
   * stand-in, or to its whole input). */
  const SlBinding *binding;
  SlEffectRun     *run;
  /* The image unbound samplers read (whole or tiled), or NULL when the
   * caller bound what they read itself.  Read as @format, the format the
   * result is written in. */
  const GsImage   *input;
  const Babl      *format;
  /* Per slot, the caller's own texture, or NULL for @input. */
  const SlTexture *textures[SL_MAX_SLOTS];
  /* A pixel the shader discards keeps the input (else it stays zero). */
  gboolean         prefill;
  /* The render's memory budget and the bytes the caller holds for it: a
   * whole copy of a tiled input, needed when the reads cannot be
   * bounded, must fit in what is left. */
  gsize            budget;
  gsize            held;
  int              n_threads;
  /* Names the render in the diagnostics of its own (the file run). */
  const char      *name;
} GsRenderJob;

/* Renders every pixel of @target (whole or tiled; its size is the
 * viewport) with up to @job->n_threads threads.  Where the program's
 * reads are bounded (sl_binding_get_sample_reach(), or an effect that
 * renders locally) and the input has the viewport's size, each band reads
 * just its part of the input, so a tiled input and result never exist
 * whole in memory; otherwise the input is read whole once, within the
 * budget.  Returns FALSE when any part of the run failed; the diagnostics
 * of all threads are appended to @diags (a run-time limit alone is a
 * warning: the pixels are written). */
gboolean gs_render (const GsRenderJob *job,
                    GsImage           *target,
                    SlDiagnostics     *diags);

G_END_DECLS

#endif /* GS_RENDER_H */
