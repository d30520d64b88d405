/* host-values — the uniforms of a per-file shader that its host fills in
 * rather than the user: the image's size, one pixel's size and a random
 * seed, and ReShade's BUFFER_* size macros, which name a hidden one of
 * them.  Every host (the shader ops, shader:run, the CLI's run and
 * apply) fills them the same way, so a shader that asks for them
 * renders alike in GIMP, in `gegl` and on the command line.  See
 * README "Host values". */
#ifndef GS_HOST_VALUES_H
#define GS_HOST_VALUES_H

#include <glib.h>

#include "shaderlib.h"

G_BEGIN_DECLS

typedef enum
{
  GS_HOST_NONE,
  GS_HOST_SIZE,          /* image size in pixels */
  GS_HOST_PIXEL_SIZE,    /* 1 / image size */
  GS_HOST_SEED
} GsHostKind;

/* Which host value @param is, by its semantic or its name. */
GsHostKind          gs_host_kind        (const SlParam        *param);

/* An HLSL file that uses the BUFFER_* macros is compiled with them
 * defined (*defines) over a hidden float2 declared in front of it, a
 * #line keeping the file's own line numbers: returns that source (free
 * it) with its length in *length.  NULL, *defines NULL, for any other
 * file. */
gchar              *gs_host_source      (const gchar          *path,
                                         const gchar          *contents,
                                         gsize                 length,
                                         gsize                *new_length,
                                         const gchar *const  **defines);

/* Sets every host value @binding's program declares: sizes from the
 * full-resolution image's @width × @height (so an offset of n pixels
 * lands in the same place in a reduced preview), seeds to *@seed, or to
 * the shader's own default when @seed is NULL (hosts without a seed
 * property: the value is then an ordinary parameter).  FALSE with @diags
 * filled when the binding refuses one. */
gboolean            gs_host_values_set  (SlBinding            *binding,
                                         gint                  width,
                                         gint                  height,
                                         const guint          *seed,
                                         SlDiagnostics        *diags);

G_END_DECLS

#endif
