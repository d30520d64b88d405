/* image-io — loading and saving GsImage buffers.
 *
 * GEGL does the decoding and encoding: loading is a gegl:load node blitted
 * straight into our float buffer in the working babl format, saving wraps
 * our buffer in a linear GeglBuffer (no copy) and runs it through the saver
 * for the extension.  GEGL's codecs report failures with g_warning() rather
 * than through a return value, so a GLib log writer collects warnings while
 * a load or save runs and turns them into a GError.
 *
 * PFM is implemented here, since GEGL has none.  It carries the working
 * values verbatim, which makes it the format for exact round trips.
 */
#include "config.h"

#include "image-io.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gegl.h>
#include <babl/babl.h>

/* Refuse images whose float buffer would not fit comfortably in memory
 * rather than failing halfway through a decode. */
#define GS_MAX_PIXELS ((guint64) 1 << 28)

G_DEFINE_QUARK (gs-image-io-error-quark, gs_image_io_error)

/* ------------------------------------------------------------------ */
/* Warning capture                                                     */
/* ------------------------------------------------------------------ */

/* Codec warnings may come from GEGL worker threads, hence the lock.  This
 * state belongs to the executable, never to a library. */
static GMutex   capture_lock;
static GString *capture_text;

static GLogWriterOutput
capture_writer (GLogLevelFlags   level,
                const GLogField *fields,
                gsize            n_fields,
                gpointer         user_data)
{
  gboolean handled = FALSE;

  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      g_mutex_lock (&capture_lock);
      if (capture_text != NULL)
        {
          for (gsize i = 0; i < n_fields; i++)
            if (g_strcmp0 (fields[i].key, "MESSAGE") == 0)
              {
                const char *msg = fields[i].value;
                gssize      len = fields[i].length;

                if (capture_text->len > 0)
                  g_string_append (capture_text, "; ");
                if (len < 0)
                  g_string_append (capture_text, msg);
                else
                  g_string_append_len (capture_text, msg, len);
              }
          handled = TRUE;
        }
      g_mutex_unlock (&capture_lock);
    }
  if (handled)
    return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (level, fields, n_fields, user_data);
}

void
gs_image_io_install_log_capture (void)
{
  g_log_set_writer_func (capture_writer, NULL, NULL);
}

static void
capture_begin (void)
{
  g_mutex_lock (&capture_lock);
  capture_text = g_string_new (NULL);
  g_mutex_unlock (&capture_lock);
}

/* Returns what was captured, or NULL when nothing was. */
static char *
capture_end (void)
{
  GString *text;

  g_mutex_lock (&capture_lock);
  text = capture_text;
  capture_text = NULL;
  g_mutex_unlock (&capture_lock);
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------------ */
/* GsImage                                                             */
/* ------------------------------------------------------------------ */

GsImage *
gs_image_new (int      width,
              int      height,
              GError **error)
{
  GsImage *image;
  float   *pixels;

  if (width <= 0 || height <= 0)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_FORMAT,
                   _("invalid image size %d×%d"), width, height);
      return NULL;
    }
  if ((guint64) width * (guint64) height > GS_MAX_PIXELS)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_TOO_LARGE,
                   _("image of %d×%d pixels is too large"), width, height);
      return NULL;
    }
  pixels = g_try_malloc0_n ((gsize) width * (gsize) height, 4 * sizeof (float));
  if (pixels == NULL)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_TOO_LARGE,
                   _("out of memory for a %d×%d image"), width, height);
      return NULL;
    }
  image = g_new0 (GsImage, 1);
  image->width = width;
  image->height = height;
  image->pixels = pixels;
  return image;
}

void
gs_image_free (GsImage *image)
{
  if (image == NULL)
    return;
  g_free (image->pixels);
  g_free (image);
}

static const char *
working_format_name (gboolean linear)
{
  return linear ? "RGBA float" : "R'G'B'A float";
}

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

/* ------------------------------------------------------------------ */
/* PFM                                                                 */
/* ------------------------------------------------------------------ */

/* Reads one whitespace-delimited header token; PFM headers have no
 * comments, unlike the other Netpbm formats. */
static gboolean
pfm_token (const char **p,
           const char  *end,
           char        *buf,
           gsize        size)
{
  gsize n = 0;

  while (*p < end && g_ascii_isspace (**p))
    (*p)++;
  while (*p < end && !g_ascii_isspace (**p))
    {
      if (n + 1 >= size)
        return FALSE;
      buf[n++] = *(*p)++;
    }
  buf[n] = '\0';
  return n > 0;
}

static GsImage *
load_pfm (const char *path,
          GError    **error)
{
  char       *data = NULL;
  gsize       length = 0;
  const char *p, *end;
  char        magic[8], wtok[32], htok[32], stok[64];
  char       *tail;
  gint64      w, h;
  double      scale;
  int         channels;
  gboolean    little;
  GsImage    *image = NULL;

  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;
  p = data;
  end = data + length;

  if (!pfm_token (&p, end, magic, sizeof magic)
      || (strcmp (magic, "PF") != 0 && strcmp (magic, "Pf") != 0))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s' is not a PFM file (expected 'PF' or 'Pf')"), path);
      goto out;
    }
  channels = magic[1] == 'F' ? 3 : 1;

  if (!pfm_token (&p, end, wtok, sizeof wtok)
      || !pfm_token (&p, end, htok, sizeof htok)
      || !pfm_token (&p, end, stok, sizeof stok))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': truncated PFM header"), path);
      goto out;
    }
  w = g_ascii_strtoll (wtok, &tail, 10);
  if (*tail != '\0' || w <= 0 || w > G_MAXINT)
    w = -1;
  h = g_ascii_strtoll (htok, &tail, 10);
  if (*tail != '\0' || h <= 0 || h > G_MAXINT)
    h = -1;
  scale = g_ascii_strtod (stok, &tail);
  if (w < 0 || h < 0 || *tail != '\0' || scale == 0.0 || scale != scale)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': invalid PFM header"), path);
      goto out;
    }
  little = scale < 0.0;

  /* Exactly one whitespace byte separates the header from the samples. */
  if (p >= end || !g_ascii_isspace (*p))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': truncated PFM header"), path);
      goto out;
    }
  p++;

  image = gs_image_new ((int) w, (int) h, error);
  if (image == NULL)
    goto out;

  if ((guint64) (end - p) < (guint64) w * (guint64) h * (guint64) channels * 4u)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': PFM data is truncated"), path);
      gs_image_free (image);
      image = NULL;
      goto out;
    }

  for (gint64 row = 0; row < h; row++)
    {
      /* PFM stores the bottom row first. */
      const char *src = p + (gsize) (h - 1 - row) * (gsize) w * channels * 4;
      float      *dst = image->pixels + (gsize) row * (gsize) w * 4;

      for (gint64 x = 0; x < w; x++)
        {
          float v[3];

          for (int c = 0; c < channels; c++)
            {
              guint32 bits;

              memcpy (&bits, src, 4);
              src += 4;
              bits = little ? GUINT32_FROM_LE (bits) : GUINT32_FROM_BE (bits);
              memcpy (&v[c], &bits, 4);
            }
          if (channels == 1)
            v[1] = v[2] = v[0];
          dst[0] = v[0];
          dst[1] = v[1];
          dst[2] = v[2];
          dst[3] = 1.0f;
          dst += 4;
        }
    }

out:
  g_free (data);
  return image;
}

static gboolean
save_pfm (const GsImage *image,
          const char    *path,
          GError       **error)
{
  GString *out;
  GError  *local = NULL;
  gboolean ok;
  double   scale = G_BYTE_ORDER == G_LITTLE_ENDIAN ? -1.0 : 1.0;

  out = g_string_sized_new (32 + (gsize) image->width * image->height * 12);
  g_string_append_printf (out, "PF\n%d %d\n%.1f\n",
                          image->width, image->height, scale);
  for (int row = image->height - 1; row >= 0; row--)
    {
      const float *src = image->pixels + (gsize) row * image->width * 4;

      for (int x = 0; x < image->width; x++, src += 4)
        g_string_append_len (out, (const char *) src, 3 * sizeof (float));
    }
  ok = g_file_set_contents (path, out->str, out->len, &local);
  g_string_free (out, TRUE);
  if (!ok)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("cannot write '%s': %s"), path, local->message);
      g_error_free (local);
    }
  return ok;
}

/* ------------------------------------------------------------------ */
/* GEGL                                                                */
/* ------------------------------------------------------------------ */

/* babl's fast paths turn 8-bit values into floats by multiplying with a
 * reciprocal, which is off by an ulp for some k.  The contract is that an
 * 8-bit k reads as k/255 exactly (and a 16-bit k as k/65535), so integer
 * perceptual sRGB sources, which convert to R'G'B'A of the same depth
 * without loss, are fetched as integers and divided here. */
static gboolean
exact_integer_source (const Babl *format,
                      gboolean    linear,
                      const char **fetch_format,
                      double      *max_value)
{
  const char *model = babl_get_name (babl_format_get_model (format));
  const Babl *type = babl_format_get_type (format, 0);

  if (linear || babl_format_get_space (format) != babl_space ("sRGB"))
    return FALSE;
  if (!g_str_equal (model, "R'G'B'") && !g_str_equal (model, "R'G'B'A")
      && !g_str_equal (model, "Y'") && !g_str_equal (model, "Y'A"))
    return FALSE;
  if (type == babl_type ("u8"))
    {
      *fetch_format = "R'G'B'A u8";
      *max_value = 255.0;
      return TRUE;
    }
  if (type == babl_type ("u16"))
    {
      *fetch_format = "R'G'B'A u16";
      *max_value = 65535.0;
      return TRUE;
    }
  return FALSE;
}

static void
read_pixels (GeglBuffer *buffer,
             GsImage    *image,
             gboolean    linear)
{
  const GeglRectangle *box = gegl_buffer_get_extent (buffer);
  const char          *fetch_format;
  double               max_value;
  gsize                n = (gsize) image->width * image->height * 4;

  if (!exact_integer_source (gegl_buffer_get_format (buffer), linear,
                             &fetch_format, &max_value))
    {
      gegl_buffer_get (buffer, box, 1.0,
                       babl_format (working_format_name (linear)),
                       image->pixels, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      return;
    }

  /* The integers are unpacked in place from the back of the float buffer,
   * which is at least twice as large as they are. */
  if (max_value == 255.0)
    {
      guint8 *ints = (guint8 *) (image->pixels + n) - n;
      float   scale = 255.0f;

      gegl_buffer_get (buffer, box, 1.0, babl_format (fetch_format), ints,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      for (gsize i = 0; i < n; i++)
        image->pixels[i] = (float) ints[i] / scale;
    }
  else
    {
      guint16 *ints = (guint16 *) (image->pixels + n) - n;
      float    scale = 65535.0f;

      gegl_buffer_get (buffer, box, 1.0, babl_format (fetch_format), ints,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      for (gsize i = 0; i < n; i++)
        image->pixels[i] = (float) ints[i] / scale;
    }
}

GsImage *
gs_image_load (const char *path,
               gboolean    linear,
               GError    **error)
{
  GeglNode     *graph, *load, *sink;
  GeglBuffer   *buffer = NULL;
  GsImage      *image;
  char         *warnings;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (ENOENT));
      return NULL;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (EISDIR));
      return NULL;
    }
  if (g_access (path, R_OK) != 0)
    {
      int saved = errno;

      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (saved));
      return NULL;
    }

  if (has_extension (path, "pfm"))
    return load_pfm (path, error);

  capture_begin ();
  graph = gegl_node_new ();
  load = gegl_node_new_child (graph,
                              "operation", "gegl:load",
                              "path", path,
                              NULL);
  sink = gegl_node_new_child (graph,
                              "operation", "gegl:buffer-sink",
                              "buffer", &buffer,
                              NULL);
  gegl_node_link (load, sink);
  gegl_node_process (sink);
  image = NULL;
  if (buffer != NULL)
    {
      const GeglRectangle *box = gegl_buffer_get_extent (buffer);

      if (box->width > 0 && box->height > 0)
        {
          image = gs_image_new (box->width, box->height, error);
          if (image != NULL)
            {
              const Babl *type = babl_format_get_type (gegl_buffer_get_format (buffer), 0);

              read_pixels (buffer, image, linear);
              image->source_depth = type == babl_type ("u8") ? 8
                                    : type == babl_type ("u16") ? 16 : 0;
            }
        }
      g_object_unref (buffer);
    }
  g_object_unref (graph);
  warnings = capture_end ();

  if (image == NULL && (error == NULL || *error == NULL))
    g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                 _("cannot decode image '%s'%s%s"), path,
                 warnings ? ": " : "", warnings ? warnings : "");
  g_free (warnings);
  return image;
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

gboolean
gs_image_save (const GsImage *image,
               const char    *path,
               gboolean       linear,
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
    return save_pfm (image, path, error);

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
  /* Remove a stale file so that a saver failing silently cannot leave the
   * previous result looking like this run's output. */
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_unlink (path);

  capture_begin ();
  buffer = gegl_buffer_linear_new_from_data (image->pixels,
                                             babl_format (working_format_name (linear)),
                                             &rect,
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
  if (g_str_equal (operation, "gegl:png-save")
      || g_str_equal (operation, "gegl:ppm-save"))
    gegl_node_set (saver, "bitdepth", depth == 16 ? 16 : 8, NULL);
  else if (g_str_equal (operation, "gegl:tiff-save") && depth > 0)
    gegl_node_set (saver, "bitdepth", depth, "fp", 0, NULL);
  gegl_node_link (source, saver);
  gegl_node_process (saver);
  g_object_unref (graph);
  g_object_unref (buffer);
  warnings = capture_end ();

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
