/* image-save — writing GsImage buffers, for the command-line tool.
 *
 * Saving wraps a whole image's pixels in a linear GeglBuffer (no copy),
 * or takes a tiled image's own buffer, and runs it through GEGL's saver
 * for the extension; GEGL's codecs only warn when
 * they fail, so the warnings are captured (host/image-io.c) and turned
 * into the GError.  The pixels are labelled with the image's own space
 * (GsImage.space), so a saver converts nothing it can store as is, and
 * those that take one embed that space's profile; cli/icc-embed.c then
 * puts the exact profile bytes in.  PFM is written here, since GEGL has
 * no PFM codec: it carries the working values verbatim, which makes it
 * the format for exact round trips.  PPM and JPEG are encoded here too
 * (image-write.c), as GEGL's savers of those cannot report a full disk.
 *
 * gs_image_save() makes a file complete or absent: it writes a temporary
 * file next to the final name (created exclusively, never through a
 * link), checks that it came out whole, flushes it and renames it over
 * the final name; on any failure neither the temporary file nor a
 * previous output under the final name is left behind.
 */
#include "config.h"

#include "image-save.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gegl.h>

#include "image-write.h"
#include "safe-file.h"

static gboolean
has_extension (const char *path,
               const char *ext)
{
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, G_DIR_SEPARATOR);

  if (dot == NULL || (slash != NULL && dot < slash))
    return FALSE;
  return g_ascii_strcasecmp (dot + 1, ext) == 0;
}

typedef struct
{
  const char *extension;
  const char *operation;
} SaverEntry;

static const SaverEntry savers[] =
{
  { "png",  "gegl:png-save"  },
  { "jpg",  "gegl:jpg-save"  },
  { "jpeg", "gegl:jpg-save"  },
  { "tif",  "gegl:tiff-save" },
  { "tiff", "gegl:tiff-save" },
  { "exr",  "gegl:exr-save"  },
  { "ppm",  "gegl:ppm-save"  },
  { "webp", "gegl:webp-save" },
  { "hdr",  "gegl:rgbe-save" },
};

static const char *
saver_for (const char *path)
{
  for (gsize i = 0; i < G_N_ELEMENTS (savers); i++)
    if (has_extension (path, savers[i].extension))
      return savers[i].operation;
  return NULL;
}

gboolean
gs_image_save_supported (const char *path)
{
  return has_extension (path, "pfm") || saver_for (path) != NULL;
}

/* gs_image_write() of a whole image, or of a tiled one relabelled (a
 * sub-buffer with a soft format of the same size) as @format. */
static gboolean
write_labelled (const GsImage *image,
                const Babl    *format,
                const char    *path,
                int            depth,
                GError       **error)
{
  const char   *operation;
  GeglRectangle rect = { 0, 0, image->width, image->height };
  GeglBuffer   *buffer;
  GeglNode     *graph, *source, *saver;
  char         *dir;
  char         *warnings;
  gboolean      dir_ok;

  if (has_extension (path, "pfm"))
    return gs_image_write_pfm (image, format, path, error);

  operation = saver_for (path);
  if (operation == NULL || !gegl_has_operation (operation))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_FORMAT,
                   _("cannot write '%s': unsupported output format "
                     "(use .png, .pfm, .exr, .tif, .jpg, .ppm, .webp or .hdr)"),
                   path);
      return FALSE;
    }

  /* The savers only warn when they cannot create the file; catch the
   * commonest cause up front to give a precise message. */
  dir = g_path_get_dirname (path);
  dir_ok = g_file_test (dir, G_FILE_TEST_IS_DIR);
  g_free (dir);
  if (!dir_ok)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("cannot write '%s': %s"), path, g_strerror (ENOENT));
      return FALSE;
    }
  if (g_str_equal (operation, "gegl:ppm-save"))
    return gs_image_write_ppm (image, format, path, depth, error);
  if (g_str_equal (operation, "gegl:jpg-save"))
    return gs_image_write_jpeg (image, format, path, error);
  /* The savers that write through GIO create their file exclusively
   * (a link planted meanwhile makes them fail, never followed), so the
   * caller's empty file goes first: over an existing file GIO would
   * write a temporary file of its own that a killed run leaves behind.
   * The EXR saver opens without O_EXCL, so it writes into the caller's
   * file, and the name is never free for someone else to take. */
  if (! g_str_equal (operation, "gegl:exr-save")
      && g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_unlink (path);

  gs_image_io_capture_begin ();
  /* The saver reads a tiled image itself, band by band. */
  buffer = image->buffer != NULL
           ? g_object_ref (image->buffer)
           : gegl_buffer_linear_new_from_data (image->pixels, format, &rect,
                                               (gint) (image->width * 4 * sizeof (float)),
                                               NULL, NULL);
  graph = gegl_node_new ();
  source = gegl_node_new_child (graph,
                                "operation", "gegl:buffer-source",
                                "buffer", buffer,
                                NULL);
  saver = gegl_node_new_child (graph,
                               "operation", operation,
                               "path", path,
                               NULL);
  if (g_str_equal (operation, "gegl:png-save"))
    gegl_node_set (saver, "bitdepth", depth == 16 ? 16 : 8, NULL);
  else if (g_str_equal (operation, "gegl:tiff-save") && depth > 0)
    gegl_node_set (saver, "bitdepth", depth, "fp", 0, NULL);
  gegl_node_link (source, saver);
  gegl_node_process (saver);
  g_object_unref (graph);
  g_object_unref (buffer);
  warnings = gs_image_io_capture_end ();

  if (warnings != NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("cannot write '%s'%s%s"), path,
                   warnings ? ": " : "", warnings ? warnings : "");
      g_free (warnings);
      return FALSE;
    }
  return TRUE;
}

gboolean
gs_image_write (const GsImage *image,
                const char    *path,
                gboolean       linear,
                int            depth,
                GError       **error)
{
  /* The values are those of @linear in the image's space. */
  const Babl *format = image->space != NULL
                       ? babl_format_with_space (linear ? "RGBA float" : "R'G'B'A float",
                                                 image->space)
                       : gs_image_working_format (linear);
  GsImage     view = *image;
  gboolean    ok;

  if (image->buffer != NULL)
    {
      /* Relabelled, not converted: a soft format on a sub-buffer of the
       * same float RGBA pixels. */
      GeglRectangle rect = { 0, 0, image->width, image->height };

      view.buffer = gegl_buffer_create_sub_buffer (image->buffer, &rect);
      gegl_buffer_set_format (view.buffer, format);
      view.format = format;
    }
  ok = write_labelled (&view, format, path, depth, error);
  if (view.buffer != image->buffer)
    g_object_unref (view.buffer);
  return ok;
}

gboolean
gs_image_save (const GsImage *image,
               const char    *path,
               gboolean       linear,
               int            depth,
               GError       **error)
{
  char       *dir = g_path_get_dirname (path);
  char       *base = g_path_get_basename (path);
  const char *dot = strrchr (base, '.');
  char       *temp = NULL;
  GError     *local = NULL;
  gboolean    ok = FALSE;

  if (! gs_image_save_supported (path))
    {
      g_free (dir);
      g_free (base);
      return gs_image_write (image, path, linear, depth, error);
    }
  /* The extension stays last: it picks the encoder. */
  for (int attempt = 0; attempt < 16 && temp == NULL; attempt++)
    {
      char *name = g_strdup_printf (".%s.gs-tmp-%ld-r%08x%s", base,
                                    (long) getpid (), g_random_int (),
                                    dot ? dot : "");

      temp = g_build_filename (dir, name, NULL);
      g_free (name);
      g_clear_error (&local);
      if (! gs_safe_file_create (temp, &local))
        {
          g_clear_pointer (&temp, g_free);
          if (! g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_EXIST))
            break;
        }
    }
  if (temp == NULL)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("cannot write '%s': %s"), path, local->message);
      g_error_free (local);
    }
  else if (! gs_image_write (image, temp, linear, depth, &local)
           || ! gs_image_check_complete (temp, &local)
           || ! gs_safe_file_sync (temp, &local))
    {
      /* Name the file asked for, not the temporary one. */
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("cannot write '%s': %s"), path, local->message);
      g_error_free (local);
    }
  else if (g_rename (temp, path) != 0)
    {
      int saved = errno;

      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("cannot write '%s': %s"), path, g_strerror (saved));
    }
  else
    ok = TRUE;
  if (! ok)
    {
      if (temp != NULL)
        g_unlink (temp);
      /* A previous result must not look like this run's output. */
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR)
          && ! g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        g_unlink (path);
    }
  g_free (temp);
  g_free (dir);
  g_free (base);
  return ok;
}
