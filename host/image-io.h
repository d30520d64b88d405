/* image-io — whole-image RGBA float buffers for the command-line tool.
 *
 * The CLI renders into one in-memory RGBA float32 image, so every image it
 * touches is held the same way: GsImage, rows top to bottom, four floats a
 * pixel, no padding.  Loading and saving go through GEGL (any format its
 * loaders and savers handle) with babl doing the colour conversion to and
 * from the working encoding, which is perceptual "R'G'B'A float" or, with
 * @linear, "RGBA float".  PFM is handled here because GEGL has no PFM codec;
 * it stores the working-encoding values verbatim (RGB only, alpha read as 1)
 * so that a render can be written and read back bit for bit.
 */
#ifndef GS_IMAGE_IO_H
#define GS_IMAGE_IO_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  int    width;
  int    height;
  float *pixels;   /* width*height*4 floats, row 0 at the top */
  /* Integer bits per channel of the file it was loaded from (8 or 16), or
   * 0 for float, unknown or not loaded: the depth gs_image_save() takes to
   * write the same kind of file back. */
  int    source_depth;
} GsImage;

#define GS_IMAGE_IO_ERROR (gs_image_io_error_quark ())

typedef enum
{
  GS_IMAGE_IO_ERROR_OPEN,
  GS_IMAGE_IO_ERROR_DECODE,
  GS_IMAGE_IO_ERROR_ENCODE,
  GS_IMAGE_IO_ERROR_FORMAT,
  GS_IMAGE_IO_ERROR_TOO_LARGE
} GsImageIoError;

GQuark    gs_image_io_error_quark (void);

/* A transparent black image, or NULL with @error set when the size is not
 * positive or the memory cannot be had. */
GsImage  *gs_image_new     (int      width,
                            int      height,
                            GError **error);
void      gs_image_free    (GsImage *image);

/* Needs gegl_init() (except for .pfm files). */
GsImage  *gs_image_load    (const char *path,
                            gboolean    linear,
                            GError    **error);

/* Picks the encoder from the extension of @path; @depth (8, 16 or 0 for the
 * format's default) only matters for PNG and TIFF. */
gboolean  gs_image_save    (const GsImage *image,
                            const char    *path,
                            gboolean       linear,
                            int            depth,
                            GError       **error);

/* TRUE when the extension of @path names a format gs_image_save() writes. */
gboolean  gs_image_save_supported (const char *path);

/* Routes GLib warnings into the capture buffer while one is active, so GEGL
 * codec complaints end up in the error message instead of on the terminal.
 * Call once at start-up. */
void      gs_image_io_install_log_capture (void);

G_END_DECLS

#endif /* GS_IMAGE_IO_H */
