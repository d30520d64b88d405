/* image-io — loading GsImage buffers, the one image loader of the hosts.
 *
 * Every image a host reads — the CLI's inputs and textures, the GEGL ops'
 * image-file textures, the effect ops' `source = "…"` textures — comes
 * through gs_image_load(), so it obeys one size limit, one error wording
 * and one 8-bit rule (k reads as exactly k/255, 16-bit k as k/65535; see
 * pixel-fetch.c, which does the reading).  GEGL does the decoding: a
 * gegl:load node is asked for its size first, so that a header claiming
 * more than GS_IMAGE_MAX_PIXELS is refused before anything is decoded,
 * then decoded into a buffer and read into our float pixels.
 *
 * GEGL's codecs report failures with g_warning() rather than through a
 * return value.  An executable may route GLib warnings into a capture
 * buffer (gs_image_io_install_log_capture()) that turns them into the
 * GError; a library such as the GEGL module leaves the log alone and gets
 * the error without the codec's words.  cli/image-save.c uses the same
 * capture for the savers.
 *
 * Only regular files are opened (a FIFO named as a texture would block
 * for ever), and only by a loader that recognised the file: what no
 * loader claims falls to a last resort: gegl:magick-load, which runs
 * ImageMagick on untrusted bytes and reports a garbage size when that
 * fails, or, without ImageMagick, gegl:text drawing an error message.
 * Either way the file is refused, naming it.
 *
 * An image a host holds whole for one render can also be held to that
 * render's memory budget (gs_image_load_within(), memory-budget.c): it
 * is refused from its header's size, before decoding.
 *
 * PFM is implemented here, since GEGL has none.  It carries the working
 * values verbatim, which makes it the format for exact round trips.
 */
#include "config.h"

#include "image-io.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gegl.h>
#include <babl/babl.h>

#include "memory-budget.h"
#include "pixel-fetch.h"

G_DEFINE_QUARK (gs-image-io-error-quark, gs_image_io_error)

static gboolean within_budget (gint64   width,
                               gint64   height,
                               gsize    max_bytes,
                               GError **error);

/* ------------------------------------------------------------------ */
/* Warning capture                                                     */
/* ------------------------------------------------------------------ */

/* Codec warnings may come from GEGL worker threads, hence the lock.  Only
 * an executable installs the writer (a library must not take over its
 * host's log); until then begin and end do nothing. */
static GMutex   capture_lock;
static GString *capture_text;
static gint     capture_installed;

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
gs_image_io_gegl_exit (void)
{
  /* A bounded wait: 30 s covers writing GiBs of tiles out, and a swap
   * that never settles must not keep the process. */
  for (int i = 0; i < 3000; i++)
    {
      gboolean busy = FALSE;

      g_object_get (gegl_stats (), "swap-busy", &busy, NULL);
      if (! busy)
        break;
      g_usleep (10000);
    }
  gegl_exit ();
}

void
gs_image_io_install_log_capture (void)
{
  g_log_set_writer_func (capture_writer, NULL, NULL);
  g_atomic_int_set (&capture_installed, TRUE);
}

void
gs_image_io_capture_begin (void)
{
  if (! g_atomic_int_get (&capture_installed))
    return;
  g_mutex_lock (&capture_lock);
  if (capture_text == NULL)
    capture_text = g_string_new (NULL);
  g_mutex_unlock (&capture_lock);
}

char *
gs_image_io_capture_end (void)
{
  GString *text;

  g_mutex_lock (&capture_lock);
  text = capture_text;
  capture_text = NULL;
  g_mutex_unlock (&capture_lock);
  if (text == NULL)
    return NULL;
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

/* Whole or tiled, an image has a positive size within the limit. */
static gboolean
size_allowed (int      width,
              int      height,
              GError **error)
{
  if (width <= 0 || height <= 0)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_FORMAT,
                   _("invalid image size %d×%d"), width, height);
      return FALSE;
    }
  if ((guint64) width * (guint64) height > GS_IMAGE_MAX_PIXELS)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_TOO_LARGE,
                   _("image of %d×%d pixels is too large"), width, height);
      return FALSE;
    }
  return TRUE;
}

GsImage *
gs_image_new (int      width,
              int      height,
              GError **error)
{
  GsImage *image;
  float   *pixels;

  if (! size_allowed (width, height, error))
    return NULL;
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
  g_clear_object (&image->buffer);
  g_free (image);
}

GsImage *
gs_image_new_tiled (int          width,
                    int          height,
                    const Babl  *format,
                    GError     **error)
{
  GeglRectangle rect = { 0, 0, width, height };
  GsImage      *image;
  const Babl   *space = babl_format_get_space (format);

  if (! size_allowed (width, height, error))
    return NULL;
  image = g_new0 (GsImage, 1);
  image->width = width;
  image->height = height;
  image->buffer = gegl_buffer_new (&rect, format);
  image->format = format;
  image->space = space == babl_space ("sRGB") ? NULL : space;
  return image;
}

void
gs_image_read (const GsImage *image,
               int            x,
               int            y,
               int            width,
               int            height,
               const Babl    *format,
               float         *dst)
{
  if (image->buffer != NULL)
    {
      GeglRectangle rect = { x, y, width, height };

      gs_pixel_fetch (image->buffer, &rect, 1.0, format, dst, GEGL_ABYSS_NONE);
      return;
    }
  for (int r = 0; r < height; r++)
    memcpy (dst + (gsize) r * width * 4,
            image->pixels + ((gsize) (y + r) * image->width + x) * 4,
            (gsize) width * 4 * sizeof (float));
}

void
gs_image_write_rect (GsImage     *image,
                     int          x,
                     int          y,
                     int          width,
                     int          height,
                     const Babl  *format,
                     const float *src)
{
  if (image->buffer != NULL)
    {
      GeglRectangle rect = { x, y, width, height };

      gegl_buffer_set (image->buffer, &rect, 0, format, src, GEGL_AUTO_ROWSTRIDE);
      return;
    }
  for (int r = 0; r < height; r++)
    memcpy (image->pixels + ((gsize) (y + r) * image->width + x) * 4,
            src + (gsize) r * width * 4, (gsize) width * 4 * sizeof (float));
}

float *
gs_band_buffer_reserve (GsBandBuffer *buffer,
                        gsize         n_pixels)
{
  if (buffer->n_floats < n_pixels * 4)
    {
      g_free (buffer->pixels);
      buffer->pixels = g_try_malloc_n (n_pixels, 4 * sizeof (float));
      buffer->n_floats = buffer->pixels ? n_pixels * 4 : 0;
    }
  return buffer->pixels;
}

GsImage *
gs_image_to_whole (const GsImage *image,
                   const Babl    *format,
                   gsize          max_bytes,
                   GError       **error)
{
  GsImage *whole;

  if (! within_budget (image->width, image->height, max_bytes, error))
    return NULL;
  whole = gs_image_new (image->width, image->height, error);
  if (whole == NULL)
    return NULL;
  gs_image_read (image, 0, 0, image->width, image->height, format, whole->pixels);
  whole->source_depth = image->source_depth;
  whole->space = image->space;
  return whole;
}

const Babl *
gs_image_working_format (gboolean linear)
{
  return babl_format (linear ? "RGBA float" : "R'G'B'A float");
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
  while (*p < end && ! g_ascii_isspace (**p))
    {
      if (n + 1 >= size)
        return FALSE;
      buf[n++] = *(*p)++;
    }
  buf[n] = '\0';
  return n > 0;
}

/* An image the host holds whole is counted against the render's memory
 * budget before it is decoded (README, "Hostile input"). */
static gboolean
within_budget (gint64       width,
               gint64       height,
               gsize        max_bytes,
               GError     **error)
{
  gsize  bytes = gs_image_bytes (width, height);
  gchar *need, *have;

  if (bytes <= max_bytes)
    return TRUE;
  need = gs_format_bytes (bytes);
  have = gs_format_bytes (max_bytes);
  g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_TOO_LARGE,
               _("an image of %d×%d pixels needs %s, over the memory budget of %s"),
               (int) width, (int) height, need, have);
  g_free (need);
  g_free (have);
  return FALSE;
}

/* What a PFM header says, and where its samples start. */
typedef struct
{
  gint64   width, height;
  int      channels;
  gboolean little;
  gint64   data_offset;
} PfmHeader;

/* Reads and checks the header of the PFM file @f, and that the file holds
 * every sample it promises (refused before anything is allocated). */
static gboolean
pfm_read_header (FILE       *f,
                 const char *path,
                 PfmHeader  *hdr,
                 GError    **error)
{
  char        head[256];
  gsize       n = fread (head, 1, sizeof head, f);
  const char *p = head, *end = head + n;
  char        magic[8], wtok[32], htok[32], stok[64];
  char       *tail;
  double      scale;
  GStatBuf    st;

  if (! pfm_token (&p, end, magic, sizeof magic)
      || (strcmp (magic, "PF") != 0 && strcmp (magic, "Pf") != 0))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s' is not a PFM file (expected 'PF' or 'Pf')"), path);
      return FALSE;
    }
  hdr->channels = magic[1] == 'F' ? 3 : 1;

  if (! pfm_token (&p, end, wtok, sizeof wtok)
      || ! pfm_token (&p, end, htok, sizeof htok)
      || ! pfm_token (&p, end, stok, sizeof stok))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': truncated PFM header"), path);
      return FALSE;
    }
  hdr->width = g_ascii_strtoll (wtok, &tail, 10);
  if (*tail != '\0' || hdr->width <= 0 || hdr->width > G_MAXINT)
    hdr->width = -1;
  hdr->height = g_ascii_strtoll (htok, &tail, 10);
  if (*tail != '\0' || hdr->height <= 0 || hdr->height > G_MAXINT)
    hdr->height = -1;
  scale = g_ascii_strtod (stok, &tail);
  if (hdr->width < 0 || hdr->height < 0 || *tail != '\0' || scale == 0.0
      || scale != scale)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': invalid PFM header"), path);
      return FALSE;
    }
  hdr->little = scale < 0.0;

  /* Exactly one whitespace byte separates the header from the samples. */
  if (p >= end || ! g_ascii_isspace (*p))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': truncated PFM header"), path);
      return FALSE;
    }
  hdr->data_offset = (p + 1) - head;
  if ((guint64) hdr->width * (guint64) hdr->height > GS_IMAGE_MAX_PIXELS)
    return TRUE;   /* the caller refuses the size, naming it */
  if (fstat (fileno (f), &st) != 0
      || (guint64) st.st_size - (guint64) hdr->data_offset
         < (guint64) hdr->width * (guint64) hdr->height * (guint64) hdr->channels * 4u
      || st.st_size < hdr->data_offset)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': PFM data is truncated"), path);
      return FALSE;
    }
  return TRUE;
}

/* Decodes rows @y .. @y + @rows - 1 (counted from the top) into @dst.
 * PFM stores the bottom row first, so they are one run of the file, read
 * at once and turned upside down. */
static gboolean
pfm_read_rows (FILE            *f,
               const char      *path,
               const PfmHeader *hdr,
               int              y,
               int              rows,
               guint8          *scratch,
               float           *dst,
               GError         **error)
{
  gsize  row_bytes = (gsize) hdr->width * hdr->channels * 4;
  gint64 first = hdr->height - y - rows;   /* file row of the lowest */

  if (fseeko (f, (off_t) (hdr->data_offset + first * (gint64) row_bytes), SEEK_SET) != 0
      || fread (scratch, row_bytes, (gsize) rows, f) != (gsize) rows)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("'%s': PFM data is truncated"), path);
      return FALSE;
    }
  for (int r = 0; r < rows; r++)
    {
      const guint8 *src = scratch + (gsize) (rows - 1 - r) * row_bytes;
      float        *out = dst + (gsize) r * (gsize) hdr->width * 4;

      for (gint64 x = 0; x < hdr->width; x++)
        {
          float v[3] = { 0, 0, 0 };

          for (int c = 0; c < hdr->channels; c++)
            {
              guint32 bits;

              memcpy (&bits, src, 4);
              src += 4;
              bits = hdr->little ? GUINT32_FROM_LE (bits) : GUINT32_FROM_BE (bits);
              memcpy (&v[c], &bits, 4);
            }
          if (hdr->channels == 1)
            v[1] = v[2] = v[0];
          out[0] = v[0];
          out[1] = v[1];
          out[2] = v[2];
          out[3] = 1.0f;
          out += 4;
        }
    }
  return TRUE;
}

/* Rows a PFM is read in: a few MiB of samples at most. */
static int
pfm_band_rows (const PfmHeader *hdr)
{
  return (int) CLAMP ((4 << 20) / (hdr->width * 16), 1, hdr->height);
}

/* A PFM, whole (@format NULL) or tiled (its buffer holds @format, the
 * values verbatim). */
static GsImage *
load_pfm (const char *path,
          gsize       max_bytes,
          const Babl *format,
          GError    **error)
{
  FILE      *f = g_fopen (path, "rb");
  PfmHeader  hdr;
  GsImage   *image = NULL;
  guint8    *scratch = NULL;
  float     *band = NULL;
  int        rows;

  if (f == NULL)
    {
      int saved = errno;

      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (saved));
      return NULL;
    }
  if (! pfm_read_header (f, path, &hdr, error))
    goto out;
  if (format == NULL && (guint64) hdr.width * (guint64) hdr.height <= GS_IMAGE_MAX_PIXELS
      && ! within_budget (hdr.width, hdr.height, max_bytes, error))
    goto out;
  image = format ? gs_image_new_tiled ((int) hdr.width, (int) hdr.height, format, error)
                 : gs_image_new ((int) hdr.width, (int) hdr.height, error);
  if (image == NULL)
    goto out;
  rows = pfm_band_rows (&hdr);
  scratch = g_try_malloc_n ((gsize) rows, (gsize) hdr.width * hdr.channels * 4);
  band = format ? g_try_malloc_n ((gsize) rows, (gsize) hdr.width * 16) : NULL;
  if (scratch == NULL || (format && band == NULL))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_TOO_LARGE,
                   _("out of memory reading '%s'"), path);
      g_clear_pointer (&image, gs_image_free);
      goto out;
    }
  for (int y = 0; y < hdr.height; y += rows)
    {
      int    n = (int) MIN (rows, hdr.height - y);
      float *dst = band ? band : image->pixels + (gsize) y * (gsize) hdr.width * 4;

      if (! pfm_read_rows (f, path, &hdr, y, n, scratch, dst, error))
        {
          g_clear_pointer (&image, gs_image_free);
          goto out;
        }
      if (band)
        gs_image_write_rect (image, 0, y, (int) hdr.width, n, format, band);
    }

out:
  g_free (scratch);
  g_free (band);
  fclose (f);
  return image;
}

/* ------------------------------------------------------------------ */
/* GEGL                                                                */
/* ------------------------------------------------------------------ */

/* TRUE when gegl:load found a decoder for the file.  What no decoder
 * claims goes to a last resort that differs between GEGL releases:
 * gegl:magick-load where ImageMagick is installed, and otherwise
 * (GEGL 0.4.62) gegl:text, which draws the loader's complaint as an
 * image.  So the test is positive: some child is a "-load" operation
 * other than magick-load. */
static gboolean
loaded_natively (GeglNode *load)
{
  GSList   *children = gegl_node_get_children (load);
  gboolean  ok = FALSE;

  for (GSList *c = children; c; c = c->next)
    {
      const gchar *op = gegl_node_get_operation (c->data);

      if (op && g_str_has_suffix (op, "-load")
          && strcmp (op, "gegl:magick-load") != 0)
        ok = TRUE;
    }
  g_slist_free (children);
  return ok;
}

/* The checks every load makes before decoding, with one wording. */
static gboolean
check_readable (const char *path,
                GError    **error)
{
  if (! g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (ENOENT));
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (EISDIR));
      return FALSE;
    }
  if (g_access (path, R_OK) != 0)
    {
      int saved = errno;

      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (saved));
      return FALSE;
    }
  {
    GStatBuf st;

    if (g_stat (path, &st) != 0 || ! S_ISREG (st.st_mode))
      {
        g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                     _("cannot open '%s': not a regular file"), path);
        return FALSE;
      }
  }
  return TRUE;
}

/* Decodes @path with GEGL into @format pixels, or, when @format is NULL,
 * into the perceptual (@linear: linear) float RGBA of the space the
 * decoder attached to the buffer, which then becomes image->space. */
static GsImage *
load_gegl (const char  *path,
           const Babl  *format,
           gboolean     linear,
           gsize        max_bytes,
           gboolean     tiled,
           GError     **error)
{
  GeglNode     *graph, *load, *sink;
  GeglBuffer   *buffer = NULL;
  GeglRectangle box;
  GsImage      *image;
  char         *warnings;

  /* The size is checked before anything is decoded: a header may claim
   * more pixels than the decoder could ever hold. */
  gs_image_io_capture_begin ();
  graph = gegl_node_new ();
  load = gegl_node_new_child (graph,
                              "operation", "gegl:load",
                              "path", path,
                              NULL);
  box = gegl_node_get_bounding_box (load);
  image = NULL;
  if (! loaded_natively (load))
    g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                 _("cannot decode image '%s': not an image format GEGL reads"), path);
  else if (box.width > 0 && box.height > 0 && ! tiled
      && (guint64) box.width * (guint64) box.height <= GS_IMAGE_MAX_PIXELS
      && ! within_budget (box.width, box.height, max_bytes, error))
    ;
  else if (box.width > 0 && box.height > 0 && tiled
           && (guint64) box.width * (guint64) box.height > GS_IMAGE_MAX_PIXELS)
    g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_TOO_LARGE,
                 _("image of %d×%d pixels is too large"), box.width, box.height);
  else if (box.width > 0 && box.height > 0
      && (image = tiled ? g_new0 (GsImage, 1)
                        : gs_image_new (box.width, box.height, error)) != NULL)
    {
      sink = gegl_node_new_child (graph,
                                  "operation", "gegl:buffer-sink",
                                  "buffer", &buffer,
                                  NULL);
      gegl_node_link (load, sink);
      gegl_node_process (sink);
      if (buffer != NULL
          && gegl_rectangle_equal (gegl_buffer_get_extent (buffer), &box))
        {
          const Babl *stored = gegl_buffer_get_format (buffer);
          const Babl *type = babl_format_get_type (stored, 0);
          const Babl *wanted = format;

          if (wanted == NULL)
            {
              const Babl *space = babl_format_get_space (stored);

              wanted = babl_format_with_space (linear ? "RGBA float"
                                                      : "R'G'B'A float",
                                               space);
              image->space = space == babl_space ("sRGB") ? NULL : space;
            }
          else
            {
              const Babl *space = babl_format_get_space (wanted);

              image->space = tiled && space != babl_space ("sRGB") ? space : NULL;
            }
          if (tiled)
            {
              /* The decoder's own buffer, read band by band later. */
              image->width = box.width;
              image->height = box.height;
              image->buffer = g_object_ref (buffer);
              image->format = wanted;
            }
          else
            gs_pixel_fetch (buffer, &box, 1.0, wanted, image->pixels,
                            GEGL_ABYSS_NONE);
          image->source_depth = type == babl_type ("u8") ? 8
                                : type == babl_type ("u16") ? 16 : 0;
        }
      else
        g_clear_pointer (&image, gs_image_free);
      g_clear_object (&buffer);
    }
  g_object_unref (graph);
  warnings = gs_image_io_capture_end ();

  if (image == NULL && (error == NULL || *error == NULL))
    g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                 _("cannot decode image '%s'%s%s"), path,
                 warnings ? ": " : "", warnings ? warnings : "");
  g_free (warnings);
  return image;
}

GsImage *
gs_image_load (const char  *path,
               const Babl  *format,
               GError     **error)
{
  return gs_image_load_within (path, format, G_MAXSIZE, error);
}

GsImage *
gs_image_load_within (const char  *path,
                      const Babl  *format,
                      gsize        max_bytes,
                      GError     **error)
{
  if (! check_readable (path, error))
    return NULL;
  if (has_extension (path, "pfm"))
    return load_pfm (path, max_bytes, NULL, error);
  return load_gegl (path, format, FALSE, max_bytes, FALSE, error);
}

GsImage *
gs_image_load_native (const char  *path,
                      gboolean     linear,
                      GError     **error)
{
  return gs_image_load_native_within (path, linear, G_MAXSIZE, error);
}

GsImage *
gs_image_load_native_within (const char  *path,
                             gboolean     linear,
                             gsize        max_bytes,
                             GError     **error)
{
  if (! check_readable (path, error))
    return NULL;
  if (has_extension (path, "pfm"))
    return load_pfm (path, max_bytes, NULL, error);
  return load_gegl (path, NULL, linear, max_bytes, FALSE, error);
}

GsImage *
gs_image_open (const char  *path,
               const Babl  *format,
               gboolean     linear,
               GError     **error)
{
  if (! check_readable (path, error))
    return NULL;
  /* PFM values are verbatim: a native open labels them sRGB. */
  if (has_extension (path, "pfm"))
    return load_pfm (path, G_MAXSIZE,
                     format ? format : gs_image_working_format (linear), error);
  return load_gegl (path, format, linear, G_MAXSIZE, TRUE, error);
}
