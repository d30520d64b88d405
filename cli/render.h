/* render — runs a prepared SlBinding or SlEffectRun over a whole GsImage
 * on several threads.  Kept apart from main.c so the threading has one small home. */
#ifndef GS_RENDER_H
#define GS_RENDER_H

#include <glib.h>

#include "shaderlib.h"
#include "image-io.h"

G_BEGIN_DECLS

/* Renders every pixel of @target (whose size is the binding's viewport)
 * with up to @n_threads threads.  Returns FALSE when any part of the run
 * failed; the diagnostics of all threads are appended to @diags. */
gboolean gs_render_image (const SlBinding *binding,
                          GsImage         *target,
                          int              n_threads,
                          SlDiagnostics   *diags);

/* The same for a prepared effect run over a target of its viewport's
 * size.  A band that only hit a run-time limit still wrote its pixels:
 * FALSE with no error diagnostic means the image is complete. */
gboolean gs_render_effect (SlEffectRun     *run,
                           GsImage         *target,
                           int              n_threads,
                           SlDiagnostics   *diags);

G_END_DECLS

#endif /* GS_RENDER_H */
