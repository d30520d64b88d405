/* image-io — RGBA float images, and the one image loader of the hosts
 * (see image-io.c).
 *
 * A GsImage is either whole or tiled.  A whole image is one in-memory
 * RGBA float32 array, rows top to bottom, four floats a pixel, no
 * padding: the textures of the CLI and of the GEGL ops.  A tiled image
 * lives in a GeglBuffer, in GEGL's tile cache (which spills to its swap
 * file): the CLI's input and result, which it reads and writes band by
 * band, so that the size of the image alone never decides an
 * allocation.  gs_image_read() and gs_image_write_rect() work on both.
 * Images are read in a float RGBA babl format, perceptual "R'G'B'A
 * float" or linear "RGBA float" (in any babl space).  PFM, which GEGL has
 * no codec for, stores the working-encoding values verbatim (RGB only,
 * alpha read as 1) so that a render can be written and read back bit for
 * bit; cli/image-save.h writes images.
 */
#ifndef GS_IMAGE_IO_H
#define GS_IMAGE_IO_H

#include <glib.h>
#include <babl/babl.h>
#include <gegl.h>

G_BEGIN_DECLS

typedef struct
{
  int    width;
  int    height;
  /* Whole images: width*height*4 floats, row 0 at the top.  NULL for a
   * tiled image. */
  float *pixels;
  /* Tiled images: the pixels, read as @format (with the 8-bit rule of
   * pixel-fetch.h when the buffer holds 8- or 16-bit values). */
  GeglBuffer *buffer;
  const Babl *format;
  /* Integer bits per channel of the file it was loaded from (8 or 16), or
   * 0 for float, unknown or not loaded: the depth gs_image_save() takes to
   * write the same kind of file back. */
  int    source_depth;
  /* The babl space the pixels are encoded in; NULL for sRGB.  Set by
   * gs_image_load_native(); gs_image_save() writes the pixels as values
   * of this space. */
  const Babl *space;
} GsImage;

/* The largest image any host allocates, 4 GiB of float RGBA: beyond it an
 * image is refused with GS_IMAGE_IO_ERROR_TOO_LARGE rather than failing
 * halfway through a decode (or aborting GIMP). */
#define GS_IMAGE_MAX_PIXELS ((guint64) 1 << 28)

#define GS_IMAGE_IO_ERROR (gs_image_io_error_quark ())

typedef enum
{
  GS_IMAGE_IO_ERROR_OPEN,
  GS_IMAGE_IO_ERROR_DECODE,
  GS_IMAGE_IO_ERROR_ENCODE,
  GS_IMAGE_IO_ERROR_FORMAT,
  GS_IMAGE_IO_ERROR_TOO_LARGE
} GsImageIoError;

GQuark      gs_image_io_error_quark (void);

/* A transparent black image, or NULL with @error set when the size is not
 * positive, beyond GS_IMAGE_MAX_PIXELS or the memory cannot be had. */
GsImage    *gs_image_new     (int      width,
                              int      height,
                              GError **error);
void        gs_image_free    (GsImage *image);

/* A transparent black tiled image whose pixels are read and written as
 * @format (a float RGBA format; its space becomes image->space), or NULL
 * with @error set when the size is not positive or beyond
 * GS_IMAGE_MAX_PIXELS.  Needs gegl_init(). */
GsImage    *gs_image_new_tiled (int          width,
                                int          height,
                                const Babl  *format,
                                GError     **error);

/* Reads the pixels of the rectangle (@x, @y, @width, @height), which lies
 * inside the image, as @format into @dst, @width pixels a row.  A whole
 * image's pixels are taken to be in @format already; a tiled one's are
 * converted from image->format. */
void        gs_image_read      (const GsImage *image,
                                int            x,
                                int            y,
                                int            width,
                                int            height,
                                const Babl    *format,
                                float         *dst);
/* Writes @src (@width pixels a row, in @format) into that rectangle. */
void        gs_image_write_rect (GsImage      *image,
                                 int           x,
                                 int           y,
                                 int           width,
                                 int           height,
                                 const Babl   *format,
                                 const float  *src);
/* A whole copy of @image, read as @format, refused (naming the size)
 * when it would take more than @max_bytes. */
GsImage    *gs_image_to_whole  (const GsImage *image,
                                const Babl    *format,
                                gsize          max_bytes,
                                GError       **error);

/* A float RGBA buffer a worker reuses from band to band: it grows to
 * the largest band, with g_try_* (NULL when that memory cannot be had:
 * a band's size may come from the image). */
typedef struct
{
  float *pixels;
  gsize  n_floats;
} GsBandBuffer;

float      *gs_band_buffer_reserve (GsBandBuffer *buffer,
                                    gsize         n_pixels);

/* The working format of the CLI: perceptual or linear float RGBA, sRGB. */
const Babl *gs_image_working_format (gboolean linear);

/* Loads @path into @format pixels (a float RGBA format, see above).
 * Needs gegl_init() (except for .pfm files).  The messages of @error name
 * the file, except the size limit's, which names the size. */
GsImage    *gs_image_load    (const char  *path,
                              const Babl  *format,
                              GError     **error);
/* The same, refusing (GS_IMAGE_IO_ERROR_TOO_LARGE, naming the size)
 * before decoding an image whose float pixels would take more than
 * @max_bytes: what is left of the render's memory budget. */
GsImage    *gs_image_load_within (const char  *path,
                                  const Babl  *format,
                                  gsize        max_bytes,
                                  GError     **error);

/* Loads @path in the file's own colour space: the values the file stores,
 * as perceptual R'G'B'A float of the space its decoder reports (so an
 * 8-bit k is still exactly k/255, whatever the profile), or, with
 * @linear, as linear RGBA float of that space.  Sets image->space (NULL
 * for sRGB, and for PFM, whose values are read verbatim). */
GsImage    *gs_image_load_native (const char  *path,
                                  gboolean     linear,
                                  GError     **error);
/* The same, refused from its header when the image would need more than
 * @max_bytes. */
GsImage    *gs_image_load_native_within (const char  *path,
                                         gboolean     linear,
                                         gsize        max_bytes,
                                         GError     **error);

/* Opens @path as a tiled image: decoded by GEGL into its tile store,
 * never copied whole.  @format as for gs_image_load(), or NULL for the
 * file's own space as gs_image_load_native() with @linear.  The size
 * limit and the checks of gs_image_load() apply; no memory budget does,
 * since the image stays in GEGL's tile cache. */
GsImage    *gs_image_open      (const char  *path,
                                const Babl  *format,
                                gboolean     linear,
                                GError     **error);

/* gegl_exit(), once GEGL's swap has finished writing out the tiles of
 * the buffers already freed: exiting while its writer is busy makes
 * GEGL 0.4 warn about its queue on stderr.  For executables. */
void        gs_image_io_gegl_exit (void);

/* Routes GLib warnings into the capture buffer while one is active, so GEGL
 * codec complaints end up in the error message instead of on the terminal.
 * For executables only; call once at start-up. */
void        gs_image_io_install_log_capture (void);
/* Brackets one load or save; end returns the warnings captured since
 * begin (g_free() them), or NULL for none or when nothing is installed. */
void        gs_image_io_capture_begin (void);
char       *gs_image_io_capture_end   (void);

G_END_DECLS

#endif /* GS_IMAGE_IO_H */
