/* image-write — the encoders the command-line tool runs itself, and the
 * check that a written file is whole.
 *
 * GEGL's PPM saver never looks at the result of a write, and its JPEG
 * saver hands a failed write to libjpeg's default error handler, which
 * ends the process: on a full disk the one leaves a truncated file that
 * looks written, the other kills a batch of a million photographs half
 * way.  Both formats are simple enough to encode here (PPM by hand, JPEG
 * with libjpeg into memory, with an error handler that returns), and the
 * bytes then go to the file with every write and the close checked.
 *
 * GEGL's PNG saver reports a failed write only on standard error, so a
 * PNG is checked after the fact: every chunk's length and CRC, ending in
 * IEND at the file's last byte.  A JPEG must end in its EOI marker, a PPM
 * must hold whole marker segments and end in EOI, a PPM or PFM must be
 * exactly as long as its header says.  A write that fails leaves the file
 * offset where it was, so a lost write shows up as a broken structure or
 * length, not only one at the end (except inside a JPEG scan's data,
 * which has no checksum; JPEGs are encoded here with every write checked,
 * and the metadata writer checks its own).
 */
#include "config.h"

#include "image-write.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <babl/babl.h>
#include <jpeglib.h>
#include <zlib.h>

#include "safe-file.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static gboolean
write_error (GError    **error,
             const char *path,
             const char *why)
{
  g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
               _("cannot write '%s': %s"), path, why);
  return FALSE;
}

/* A file written in pieces: never through a symbolic link, every write
 * and the close checked.  The first error is kept; later calls do
 * nothing. */
typedef struct
{
  const char *path;
  int         fd;
  GError     *error;
} Output;

static void
output_open (Output     *out,
             const char *path)
{
  out->path = path;
  out->error = NULL;
  out->fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (out->fd < 0)
    write_error (&out->error, path, g_strerror (errno));
}

static void
output_write (Output     *out,
              const void *data,
              gsize       length)
{
  GError *local = NULL;

  if (out->error != NULL)
    return;
  if (! gs_safe_write_all (out->fd, data, length, &local))
    {
      write_error (&out->error, out->path, local->message);
      g_error_free (local);
    }
}

static gboolean
output_close (Output  *out,
              GError **error)
{
  if (out->fd >= 0 && close (out->fd) != 0 && out->error == NULL)
    write_error (&out->error, out->path, g_strerror (errno));
  if (out->error != NULL)
    {
      g_propagate_error (error, out->error);
      return FALSE;
    }
  return TRUE;
}

/* Writes @data as the whole of @path. */
static gboolean
write_bytes (const char *path,
             const void *data,
             gsize       length,
             GError    **error)
{
  Output out;

  output_open (&out, path);
  output_write (&out, data, length);
  return output_close (&out, error);
}

/* Rows an encoder takes from the image at once: about 1 MiB of floats. */
static int
rows_at_once (const GsImage *image)
{
  return CLAMP ((1 << 20) / (image->width * 16), 1, image->height);
}

gboolean
gs_image_write_ppm (const GsImage *image,
                    const Babl    *source,
                    const char    *path,
                    int            depth,
                    GError       **error)
{
  int         bytes = depth == 16 ? 2 : 1;
  const Babl *dest = babl_format (bytes == 2 ? "R'G'B' u16" : "R'G'B' u8");
  const Babl *fish = babl_fish (source, dest);
  gsize       row = (gsize) image->width * 3 * bytes;
  int         rows = rows_at_once (image);
  float      *pixels = g_new (float, (gsize) rows * image->width * 4);
  guint8     *encoded = g_malloc (row * rows);
  char       *header;
  Output      out;

  output_open (&out, path);
  header = g_strdup_printf ("P6\n%d %d\n%d\n", image->width, image->height,
                            bytes == 2 ? 65535 : 255);
  output_write (&out, header, strlen (header));
  g_free (header);
  for (int y = 0; y < image->height && out.error == NULL; y += rows)
    {
      int n = MIN (rows, image->height - y);

      gs_image_read (image, 0, y, image->width, n, source, pixels);
      babl_process (fish, pixels, encoded, (long) image->width * n);
      /* PPM stores 16-bit samples most significant byte first. */
      if (bytes == 2 && G_BYTE_ORDER == G_LITTLE_ENDIAN)
        for (gsize i = 0; i < row * n; i += 2)
          {
            guint8 t = encoded[i];

            encoded[i] = encoded[i + 1];
            encoded[i + 1] = t;
          }
      output_write (&out, encoded, row * n);
    }
  g_free (pixels);
  g_free (encoded);
  return output_close (&out, error);
}

gboolean
gs_image_write_pfm (const GsImage *image,
                    const Babl    *source,
                    const char    *path,
                    GError       **error)
{
  double  scale = G_BYTE_ORDER == G_LITTLE_ENDIAN ? -1.0 : 1.0;
  float  *pixels = g_new (float, (gsize) image->width * 4);
  float  *rgb = g_new (float, (gsize) image->width * 3);
  char   *header;
  Output  out;

  output_open (&out, path);
  header = g_strdup_printf ("PF\n%d %d\n%.1f\n", image->width, image->height, scale);
  output_write (&out, header, strlen (header));
  g_free (header);
  /* The bottom row first; the working values verbatim. */
  for (int y = image->height - 1; y >= 0 && out.error == NULL; y--)
    {
      gs_image_read (image, 0, y, image->width, 1, source, pixels);
      for (int x = 0; x < image->width; x++)
        memcpy (rgb + 3 * x, pixels + 4 * x, 3 * sizeof (float));
      output_write (&out, rgb, (gsize) image->width * 3 * sizeof (float));
    }
  g_free (pixels);
  g_free (rgb);
  return output_close (&out, error);
}

typedef struct
{
  struct jpeg_error_mgr pub;
  jmp_buf               escape;
  char                  message[JMSG_LENGTH_MAX];
} JpegError;

static void
jpeg_fail (j_common_ptr cinfo)
{
  JpegError *err = (JpegError *) cinfo->err;

  err->pub.format_message (cinfo, err->message);
  longjmp (err->escape, 1);
}

static void
jpeg_quiet (j_common_ptr cinfo,
            int          level)
{
  (void) cinfo;
  (void) level;
}

gboolean
gs_image_write_jpeg (const GsImage *image,
                     const Babl    *source,
                     const char    *path,
                     GError       **error)
{
  struct jpeg_compress_struct cinfo;
  JpegError                   jerr;
  const Babl                 *space = babl_format_get_space (source);
  const Babl                 *dest = babl_format_with_space ("R'G'B' u8", space);
  const Babl                 *fish = babl_fish (source, dest);
  unsigned char              *volatile memory = NULL;
  unsigned long               size = 0;
  guint8                     *volatile row = NULL;
  float                      *volatile pixels = NULL;
  const char                 *icc;
  int                         icc_length = 0;
  gboolean                    ok;

  memset (&cinfo, 0, sizeof cinfo);
  cinfo.err = jpeg_std_error (&jerr.pub);
  jerr.pub.error_exit = jpeg_fail;
  jerr.pub.emit_message = jpeg_quiet;
  if (setjmp (jerr.escape))
    {
      jpeg_destroy_compress (&cinfo);
      free (memory);
      g_free (row);
      g_free (pixels);
      return write_error (error, path, jerr.message);
    }
  jpeg_create_compress (&cinfo);
  jpeg_mem_dest (&cinfo, (unsigned char **) &memory, &size);
  cinfo.image_width = (JDIMENSION) image->width;
  cinfo.image_height = (JDIMENSION) image->height;
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults (&cinfo);
  /* GEGL's saver's defaults, so outputs look as they did. */
  jpeg_set_quality (&cinfo, 90, TRUE);
  /* Full-resolution colour: a filter's output is not a camera's, and
   * halving its chroma moves colours by more than JPEG's rounding. */
  cinfo.comp_info[0].h_samp_factor = 1;
  cinfo.comp_info[0].v_samp_factor = 1;
  cinfo.optimize_coding = TRUE;
  jpeg_simple_progression (&cinfo);
  jpeg_start_compress (&cinfo, TRUE);
  icc = babl_space_get_icc (space, &icc_length);
  if (icc != NULL && icc_length > 0)
    jpeg_write_icc_profile (&cinfo, (const JOCTET *) icc,
                            (unsigned int) icc_length);
  row = g_malloc ((gsize) image->width * 3);
  pixels = g_malloc ((gsize) image->width * 4 * sizeof (float));
  while (cinfo.next_scanline < cinfo.image_height)
    {
      JSAMPROW rows[1] = { row };

      gs_image_read (image, 0, (int) cinfo.next_scanline, image->width, 1, source, pixels);
      babl_process (fish, pixels, row, image->width);
      jpeg_write_scanlines (&cinfo, rows, 1);
    }
  g_free (pixels);
  pixels = NULL;
  jpeg_finish_compress (&cinfo);
  jpeg_destroy_compress (&cinfo);
  g_free (row);
  ok = write_bytes (path, memory, size, error);
  free (memory);
  return ok;
}

/* ------------------------------------------------------------------ */
/* Checking a written file                                             */
/* ------------------------------------------------------------------ */

static guint32
be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8
         | p[3];
}

static gboolean
png_is_whole (const guint8 *data,
              gsize         length)
{
  static const guint8 signature[8] = { 137, 'P', 'N', 'G', 13, 10, 26, 10 };
  gsize pos = 8;

  if (length < 8 || memcmp (data, signature, 8) != 0)
    return FALSE;
  while (length - pos >= 12)
    {
      guint32 n = be32 (data + pos);
      uLong   crc;

      if (n > length - pos - 12)
        return FALSE;
      crc = crc32 (0L, data + pos + 4, n + 4);
      if (crc != be32 (data + pos + 8 + n))
        return FALSE;
      if (memcmp (data + pos + 4, "IEND", 4) == 0)
        return pos + 12 + n == length;
      pos += 12 + n;
    }
  return FALSE;
}

/* SOI, then marker segments by their lengths, the entropy-coded data of
 * each scan up to the next marker, and EOI as the last two bytes.  (A
 * block lost inside a scan's data cannot be seen: it has no checksum.) */
static gboolean
jpeg_is_whole (const guint8 *data,
               gsize         length)
{
  gsize pos = 2;

  if (length < 4 || data[0] != 0xff || data[1] != 0xd8)
    return FALSE;
  while (pos + 2 <= length)
    {
      guint8 marker;
      gsize  n;

      if (data[pos] != 0xff)
        return FALSE;
      marker = data[pos + 1];
      if (marker == 0xff)
        {
          pos++;   /* fill byte */
          continue;
        }
      if (marker == 0xd9)
        return pos + 2 == length;
      if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7))
        {
          pos += 2;
          continue;
        }
      if (pos + 4 > length)
        return FALSE;
      n = (gsize) data[pos + 2] << 8 | data[pos + 3];
      if (n < 2 || n > length - pos - 2)
        return FALSE;
      pos += 2 + n;
      if (marker != 0xda)
        continue;
      /* Scan data: up to a marker that is neither a stuffed 0xff00 nor
       * a restart. */
      while (pos + 1 < length
             && ! (data[pos] == 0xff && data[pos + 1] != 0x00
                   && ! (data[pos + 1] >= 0xd0 && data[pos + 1] <= 0xd7)))
        pos++;
    }
  return FALSE;
}

/* The length a P6 PPM or a PFM file must have, from its header; 0 when
 * the header does not parse. */
static gsize
netpbm_length (const guint8 *data,
               gsize         length,
               gboolean      pfm)
{
  const char *p = (const char *) data;
  const char *end = p + MIN (length, (gsize) 64);
  guint64     field[3];
  gsize       samples, sample_bytes;

  if (length < 3 || p[0] != 'P' || p[1] != (pfm ? 'F' : '6'))
    return 0;
  p += 2;
  for (int i = 0; i < 3; i++)
    {
      char *stop;

      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p >= end)
        return 0;
      if (pfm && i == 2)
        {
          /* The scale: a float, then one white-space byte. */
          while (p < end && ! g_ascii_isspace (*p))
            p++;
          field[2] = 0;
          break;
        }
      errno = 0;
      field[i] = g_ascii_strtoull (p, &stop, 10);
      if (stop == p || errno != 0 || field[i] == 0)
        return 0;
      p = stop;
    }
  if (p >= end)
    return 0;
  p++;   /* the single white-space byte before the samples */
  samples = (gsize) (field[0] * field[1] * 3);
  sample_bytes = pfm ? 4 : field[2] > 255 ? 2 : 1;
  return (gsize) (p - (const char *) data) + samples * sample_bytes;
}

gboolean
gs_image_check_complete (const char *path,
                         GError    **error)
{
  const char  *dot = strrchr (path, '.');
  const char  *ext = dot ? dot + 1 : "";
  gboolean     png = g_ascii_strcasecmp (ext, "png") == 0;
  gboolean     jpeg = g_ascii_strcasecmp (ext, "jpg") == 0
                      || g_ascii_strcasecmp (ext, "jpeg") == 0;
  gboolean     ppm = g_ascii_strcasecmp (ext, "ppm") == 0;
  gboolean     pfm = g_ascii_strcasecmp (ext, "pfm") == 0;
  GMappedFile *map;
  const char  *data;
  gsize        length;
  GError      *local = NULL;
  gboolean     whole;

  /* The other formats' savers report their failed writes themselves. */
  if (! png && ! jpeg && ! ppm && ! pfm)
    return TRUE;
  /* Mapped, not read: an output may be hundreds of megabytes. */
  map = g_mapped_file_new (path, FALSE, &local);
  if (map == NULL)
    {
      write_error (error, path, local->message);
      g_error_free (local);
      return FALSE;
    }
  data = g_mapped_file_get_contents (map);
  length = data != NULL ? g_mapped_file_get_length (map) : 0;
  if (png)
    whole = png_is_whole ((const guint8 *) data, length);
  else if (jpeg)
    whole = jpeg_is_whole ((const guint8 *) data, length);
  else
    whole = length > 0
            && netpbm_length ((const guint8 *) data, length, pfm) == length;
  g_mapped_file_unref (map);
  if (! whole)
    return write_error (error, path,
                        _("the file came out incomplete (is the disk full?)"));
  return TRUE;
}
