/* image-save — writing GsImage buffers (see image-save.c); loading is
 * the hosts' shared host/image-io.h. */
#ifndef GS_IMAGE_SAVE_H
#define GS_IMAGE_SAVE_H

#include <glib.h>

#include "image-io.h"

G_BEGIN_DECLS

/* Picks the encoder from the extension of @path; @depth (8, 16 or 0 for the
 * format's default) only matters for PNG, PPM and TIFF.  @path ends up
 * holding the complete image or, on failure, nothing at all: written
 * under a temporary name, checked, flushed and renamed. */
gboolean  gs_image_save    (const GsImage *image,
                            const char    *path,
                            gboolean       linear,
                            int            depth,
                            GError       **error);

/* Encodes into @path itself (absent, or an empty file the caller created
 * exclusively), for callers that finish the file before renaming it;
 * gs_image_check_complete() (image-write.h) tells whether it is whole. */
gboolean  gs_image_write   (const GsImage *image,
                            const char    *path,
                            gboolean       linear,
                            int            depth,
                            GError       **error);

/* TRUE when the extension of @path names a format gs_image_save() writes. */
gboolean  gs_image_save_supported (const char *path);

G_END_DECLS

#endif /* GS_IMAGE_SAVE_H */
