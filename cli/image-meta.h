/* image-meta — EXIF, XMP, IPTC and comments from an input into its
 * output (see image-meta.c). */
#ifndef GS_IMAGE_META_H
#define GS_IMAGE_META_H

#include <glib.h>

#include "icc-file.h"

G_BEGIN_DECLS

typedef struct
{
  int         width, height;         /* of the output */
  const char *software;              /* "gegl-shaders 0.1.0" */
  gboolean    converted;             /* --convert-to changed the colours */
  gboolean    to_srgb;               /* … into sRGB */
  const char *profile_description;   /* of the output's profile, or NULL */
} GsMetaUpdate;

/* Once, before any other call, from one thread. */
void     gs_meta_init  (void);

/* Copies the metadata of the file @input into the finished file @output,
 * updated as @u says.  Sets *@dropped when @input has metadata that the
 * kind of file @output is cannot hold.  FALSE with @error when the
 * metadata cannot be read or written; the output may then be damaged. */
gboolean gs_meta_carry (const char         *input,
                        const char         *output,
                        const GsMetaUpdate *u,
                        gboolean           *dropped,
                        GError            **error);

G_END_DECLS

#endif /* GS_IMAGE_META_H */
