/* png-text — PNG text chunks from a PNG input into its PNG output (see
 * png-text.c). */
#ifndef GS_PNG_TEXT_H
#define GS_PNG_TEXT_H

#include <glib.h>

G_BEGIN_DECLS

/* Copies the tEXt, zTXt and iTXt chunks of @input whose keywords @output
 * lacks into @output (both PNG, else nothing happens), "Software" set to
 * @software.  FALSE with @error when @output cannot be rewritten. */
gboolean gs_png_text_carry (const char *input,
                            const char *output,
                            const char *software,
                            GError    **error);

G_END_DECLS

#endif /* GS_PNG_TEXT_H */
