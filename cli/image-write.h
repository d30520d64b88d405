/* image-write — encoders whose every write is checked, and the check
 * that a written file is whole (see image-write.c). */
#ifndef GS_IMAGE_WRITE_H
#define GS_IMAGE_WRITE_H

#include <glib.h>
#include <babl/babl.h>

#include "image-io.h"

G_BEGIN_DECLS

/* A binary PPM of @image (pixels read as @source), 8 or 16 bits per
 * sample, in sRGB as PPM has no profile.  The encoders read the image a
 * band of rows at a time and write as they go. */
gboolean  gs_image_write_ppm      (const GsImage *image,
                                   const Babl    *source,
                                   const char    *path,
                                   int            depth,
                                   GError       **error);

/* A PFM of @image (pixels read as @source), the values verbatim: the
 * format of exact round trips. */
gboolean  gs_image_write_pfm      (const GsImage *image,
                                   const Babl    *source,
                                   const char    *path,
                                   GError       **error);

/* A JPEG of @image in @source's space, embedding that space's profile. */
gboolean  gs_image_write_jpeg     (const GsImage *image,
                                   const Babl    *source,
                                   const char    *path,
                                   GError       **error);

/* FALSE when the PNG, JPEG, PPM or PFM file @path is cut short or broken
 * (a write that failed unnoticed); other formats pass. */
gboolean  gs_image_check_complete (const char    *path,
                                   GError       **error);

G_END_DECLS

#endif /* GS_IMAGE_WRITE_H */
