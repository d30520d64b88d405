/* icc-embed — writing an exact ICC profile into an output file (see
 * icc-embed.c). */
#ifndef GS_ICC_EMBED_H
#define GS_ICC_EMBED_H

#include <glib.h>

#include "icc-file.h"

G_BEGIN_DECLS

/* TRUE for the kinds of file gs_icc_embed() can put a profile in. */
gboolean gs_icc_embed_supported (GsFileKind kind);

/* Makes the file at @path (a PNG, JPEG or TIFF) embed exactly @profile,
 * or no profile when @profile is NULL, rewriting it in place only when
 * it holds another; other kinds of file are left alone.  FALSE with
 * @error when the file cannot be read, parsed or written (it may then be
 * damaged: it is a temporary file, to be removed). */
gboolean gs_icc_embed           (const char *path,
                                 GBytes     *profile,
                                 GError    **error);

G_END_DECLS

#endif /* GS_ICC_EMBED_H */
