/* effect-filter — an effect file as the FILTER of `apply`: opened once,
 * compiled once per image size, rendered from several threads. */
#ifndef GS_EFFECT_FILTER_H
#define GS_EFFECT_FILTER_H

#include <glib.h>

#include "shaderlib.h"
#include "image-io.h"

G_BEGIN_DECLS

typedef struct _GsEffectFilter GsEffectFilter;

/* Reads and compiles the effect at @path and loads its image textures
 * (@linear: as linear RGBA).  The compiler's diagnostics go to @diags;
 * NULL when it has errors (then in @diags) or a file cannot be read (then
 * in @error). */
GsEffectFilter *gs_effect_filter_new          (const char     *path,
                                               gboolean        linear,
                                               gsize           memory_budget,
                                               SlDiagnostics  *diags,
                                               GError        **error);
void            gs_effect_filter_free         (GsEffectFilter *filter);
/* TRUE when @params ("NAME=V; NAME=V,V") all name uniforms of the
 * effect with values they take; the errors go to @diags. */
gboolean        gs_effect_filter_check_params (GsEffectFilter *filter,
                                               const char     *params,
                                               SlDiagnostics  *diags);
/* The first technique over @input (the back buffer, tiled), a new tiled
 * image of its size and format, rendered band by band, within
 * @memory_budget on top of the @host_bytes the caller holds for this
 * render; NULL when compiling or rendering failed (errors in @diags, or
 * @error when the image could not be made).  May be called from several
 * threads at once. */
GsImage        *gs_effect_filter_render       (GsEffectFilter *filter,
                                               const GsImage  *input,
                                               const char     *params,
                                               int             n_threads,
                                               gsize           memory_budget,
                                               gsize           host_bytes,
                                               SlDiagnostics  *diags,
                                               GError        **error);

G_END_DECLS

#endif /* GS_EFFECT_FILTER_H */
