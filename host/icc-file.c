/* icc-file — the ICC profile an image file embeds, as its exact bytes.
 *
 * GEGL's decoders read a file's profile only to build a babl space, and
 * babl keeps one space per set of primaries and curves: two profiles
 * that describe the same colours (an "Adobe RGB (1998)" and an "Adobe
 * RGB (compatible)") come back as one space carrying whichever profile
 * was seen first.  A host that must hand a file's own profile on (the
 * batch command writes it into its outputs) reads it here instead,
 * straight from the container: PNG's iCCP chunk, JPEG's APP2
 * ICC_PROFILE segments, TIFF's tag 34675 (classic and BigTIFF) and
 * WebP's ICCP chunk.
 *
 * Files are read with pread() in small pieces, so nothing is mapped that
 * could vanish under us, and every length that comes from the file is
 * checked against the file's size and GS_ICC_MAX_BYTES before anything
 * is allocated.  A container without a profile is not an error; a
 * profile that is cut short or inconsistent is, since handing on half a
 * profile would silently change the colours of the output.
 */
#include "config.h"

#include "icc-file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <babl/babl.h>

#include "image-io.h"

/* ------------------------------------------------------------------ */
/* Reading at offsets, from a file or from memory                      */
/* ------------------------------------------------------------------ */

typedef struct
{
  int           fd;     /* -1 for memory */
  const guint8 *data;
  guint64       size;
} Source;

static gboolean
read_at (const Source *src,
         guint64       offset,
         gsize         length,
         void         *out)
{
  if (offset > src->size || length > src->size - offset)
    return FALSE;
  if (src->fd < 0)
    {
      memcpy (out, src->data + offset, length);
      return TRUE;
    }
  while (length > 0)
    {
      ssize_t n = pread (src->fd, out, length, (off_t) offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      out = (guint8 *) out + n;
      offset += (guint64) n;
      length -= (gsize) n;
    }
  return TRUE;
}

static guint32
be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8
         | p[3];
}

static guint32
le32 (const guint8 *p)
{
  return (guint32) p[3] << 24 | (guint32) p[2] << 16 | (guint32) p[1] << 8
         | p[0];
}

/* Reads @length bytes at @offset into a new GBytes, or NULL. */
static GBytes *
read_bytes (const Source *src,
            guint64       offset,
            guint64       length)
{
  guint8 *buf;

  if (length == 0 || length > GS_ICC_MAX_BYTES)
    return NULL;
  buf = g_try_malloc ((gsize) length);
  if (buf == NULL)
    return NULL;
  if (! read_at (src, offset, (gsize) length, buf))
    {
      g_free (buf);
      return NULL;
    }
  return g_bytes_new_take (buf, (gsize) length);
}

static void
set_damaged (GError    **error,
             const char *what)
{
  g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
               _("its embedded colour profile is damaged (%s)"), what);
}

/* ------------------------------------------------------------------ */
/* Kinds of file                                                       */
/* ------------------------------------------------------------------ */

GsFileKind
gs_file_kind_of_data (const guint8 *head,
                      gsize         length)
{
  static const guint8 png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

  if (length >= 8 && memcmp (head, png, 8) == 0)
    return GS_FILE_KIND_PNG;
  if (length >= 3 && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff)
    return GS_FILE_KIND_JPEG;
  if (length >= 4
      && ((head[0] == 'I' && head[1] == 'I' && (head[2] == 42 || head[2] == 43)
           && head[3] == 0)
          || (head[0] == 'M' && head[1] == 'M' && head[2] == 0
              && (head[3] == 42 || head[3] == 43))))
    return GS_FILE_KIND_TIFF;
  if (length >= 12 && memcmp (head, "RIFF", 4) == 0
      && memcmp (head + 8, "WEBP", 4) == 0)
    return GS_FILE_KIND_WEBP;
  return GS_FILE_KIND_OTHER;
}

GsFileKind
gs_file_kind (const char *path)
{
  guint8  head[16];
  gssize  n;
  int     fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    return GS_FILE_KIND_OTHER;
  do
    n = read (fd, head, sizeof head);
  while (n < 0 && errno == EINTR);
  close (fd);
  return n > 0 ? gs_file_kind_of_data (head, (gsize) n) : GS_FILE_KIND_OTHER;
}

/* ------------------------------------------------------------------ */
/* PNG                                                                 */
/* ------------------------------------------------------------------ */

/* The zlib stream of an iCCP chunk, inflated to at most GS_ICC_MAX_BYTES. */
static GBytes *
inflate_profile (const guint8 *in,
                 gsize         in_len,
                 GError      **error)
{
  z_stream  zs = { 0 };
  GByteArray *out;
  guint8    chunk[16384];
  int       ret;

  if (inflateInit (&zs) != Z_OK)
    {
      set_damaged (error, "zlib");
      return NULL;
    }
  out = g_byte_array_new ();
  zs.next_in = (Bytef *) in;
  zs.avail_in = (uInt) in_len;
  do
    {
      zs.next_out = chunk;
      zs.avail_out = sizeof chunk;
      ret = inflate (&zs, Z_NO_FLUSH);
      if (ret != Z_OK && ret != Z_STREAM_END)
        break;
      g_byte_array_append (out, chunk, sizeof chunk - zs.avail_out);
      if (out->len > GS_ICC_MAX_BYTES)
        {
          ret = Z_MEM_ERROR;
          break;
        }
    }
  while (ret != Z_STREAM_END && zs.avail_in > 0);
  inflateEnd (&zs);
  if (ret != Z_STREAM_END || out->len == 0)
    {
      g_byte_array_unref (out);
      set_damaged (error, ret == Z_MEM_ERROR ? _("too large")
                                             : _("bad compressed data"));
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
}

static gboolean
read_png (const Source *src,
          GBytes      **profile,
          GError      **error)
{
  guint64 offset = 8;

  for (;;)
    {
      guint8  head[8];
      guint32 length;

      if (! read_at (src, offset, 8, head))
        return TRUE;   /* the decoder reports a truncated file */
      length = be32 (head);
      if (memcmp (head + 4, "IDAT", 4) == 0
          || memcmp (head + 4, "IEND", 4) == 0)
        return TRUE;   /* iCCP must come before the image data */
      if (memcmp (head + 4, "iCCP", 4) == 0)
        {
          guint8  *data;
          gsize    name_len;
          gboolean ok;

          if (length < 3 || length > GS_ICC_MAX_BYTES
              || (data = g_try_malloc (length)) == NULL)
            {
              set_damaged (error, _("bad iCCP chunk size"));
              return FALSE;
            }
          if (! read_at (src, offset + 8, length, data))
            {
              g_free (data);
              set_damaged (error, _("truncated iCCP chunk"));
              return FALSE;
            }
          /* A 1-79 byte name, its NUL, the compression method (0). */
          name_len = strnlen ((const char *) data, MIN (length, 80));
          ok = name_len >= 1 && name_len < 80 && name_len + 2 < length
               && data[name_len + 1] == 0;
          if (! ok)
            set_damaged (error, _("bad iCCP header"));
          else
            *profile = inflate_profile (data + name_len + 2,
                                        length - name_len - 2, error);
          g_free (data);
          return *profile != NULL;
        }
      offset += 12 + (guint64) length;
    }
}

/* ------------------------------------------------------------------ */
/* JPEG                                                                */
/* ------------------------------------------------------------------ */

#define ICC_MARK     "ICC_PROFILE"
#define ICC_MARK_LEN 12   /* with its NUL */

static gboolean
read_jpeg (const Source *src,
           GBytes      **profile,
           GError      **error)
{
  guint64  where[256] = { 0 };
  guint32  sizes[256] = { 0 };
  int      count = 0;
  gboolean any = FALSE;
  guint64  offset = 2;
  guint64  total = 0;
  guint8  *buf;

  for (;;)
    {
      guint8  m[2], len[2];
      guint32 seg;

      if (! read_at (src, offset, 2, m) || m[0] != 0xff)
        break;
      if (m[1] == 0xff)
        {
          offset++;   /* fill byte */
          continue;
        }
      if (m[1] == 0xda || m[1] == 0xd9)
        break;        /* start of scan, end of image: no more headers */
      if (m[1] == 0x01 || (m[1] >= 0xd0 && m[1] <= 0xd7))
        {
          offset += 2;
          continue;
        }
      if (! read_at (src, offset + 2, 2, len))
        break;
      seg = (guint32) len[0] << 8 | len[1];
      if (seg < 2)
        break;
      if (m[1] == 0xe2 && seg >= 2 + ICC_MARK_LEN + 2)
        {
          guint8 id[ICC_MARK_LEN + 2];

          if (read_at (src, offset + 4, sizeof id, id)
              && memcmp (id, ICC_MARK, ICC_MARK_LEN) == 0)
            {
              int seq = id[ICC_MARK_LEN], n = id[ICC_MARK_LEN + 1];

              any = TRUE;
              if (seq == 0 || n == 0 || (count != 0 && n != count)
                  || seq > n || where[seq] != 0)
                {
                  set_damaged (error, _("inconsistent ICC_PROFILE segments"));
                  return FALSE;
                }
              count = n;
              where[seq] = offset + 4 + sizeof id;
              sizes[seq] = seg - 2 - sizeof id;
              total += sizes[seq];
            }
        }
      offset += 2 + (guint64) seg;
    }
  if (! any)
    return TRUE;
  for (int i = 1; i <= count; i++)
    if (where[i] == 0)
      {
        set_damaged (error, _("an ICC_PROFILE segment is missing"));
        return FALSE;
      }
  if (total == 0 || total > GS_ICC_MAX_BYTES
      || (buf = g_try_malloc ((gsize) total)) == NULL)
    {
      set_damaged (error, _("bad size"));
      return FALSE;
    }
  total = 0;
  for (int i = 1; i <= count; i++)
    {
      if (! read_at (src, where[i], sizes[i], buf + total))
        {
          g_free (buf);
          set_damaged (error, _("truncated ICC_PROFILE segment"));
          return FALSE;
        }
      total += sizes[i];
    }
  *profile = g_bytes_new_take (buf, (gsize) total);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* TIFF                                                                */
/* ------------------------------------------------------------------ */

gboolean
gs_tiff_header (const guint8 *head,
                gsize         length,
                GsTiffLayout *layout)
{
  gboolean le;

  if (length < 8 || gs_file_kind_of_data (head, length) != GS_FILE_KIND_TIFF)
    return FALSE;
  le = head[0] == 'I';
  layout->little_endian = le;
  layout->big = (le ? head[2] : head[3]) == 43;
  if (! layout->big)
    {
      layout->first_ifd = gs_tiff_get (layout, head + 4, 4);
      layout->ifd_pointer_at = 4;
      return TRUE;
    }
  /* BigTIFF: offset size 8, a reserved 0, an 8-byte first IFD offset. */
  if (length < 16 || gs_tiff_get (layout, head + 4, 2) != 8
      || gs_tiff_get (layout, head + 6, 2) != 0)
    return FALSE;
  layout->first_ifd = gs_tiff_get (layout, head + 8, 8);
  layout->ifd_pointer_at = 8;
  return TRUE;
}

guint64
gs_tiff_get (const GsTiffLayout *layout,
             const guint8       *p,
             int                 size)
{
  guint64 v = 0;

  for (int i = 0; i < size; i++)
    v |= (guint64) p[layout->little_endian ? i : size - 1 - i] << (8 * i);
  return v;
}

static gboolean
read_tiff (const Source *src,
           GBytes      **profile,
           GError      **error)
{
  guint8       head[16];
  GsTiffLayout t;
  guint8       count_buf[8];
  guint64      n;
  int          count_size, entry_size, word;

  if (! read_at (src, 0, MIN (src->size, sizeof head), head)
      || ! gs_tiff_header (head, MIN (src->size, sizeof head), &t))
    return TRUE;
  count_size = t.big ? 8 : 2;
  entry_size = t.big ? 20 : 12;
  word = t.big ? 8 : 4;
  if (! read_at (src, t.first_ifd, count_size, count_buf))
    return TRUE;
  n = gs_tiff_get (&t, count_buf, count_size);
  for (guint64 i = 0; i < n && i < 65536; i++)
    {
      guint8  e[20];
      guint64 type, length;

      if (! read_at (src, t.first_ifd + count_size + i * entry_size,
                     entry_size, e))
        return TRUE;
      if (gs_tiff_get (&t, e, 2) != GS_TIFF_TAG_ICC)
        continue;
      type = gs_tiff_get (&t, e + 2, 2);
      length = gs_tiff_get (&t, e + 4, word);
      if ((type != 1 && type != 7) || length == 0 || length > GS_ICC_MAX_BYTES)
        {
          set_damaged (error, _("bad TIFF ICC tag"));
          return FALSE;
        }
      if (length <= (guint64) word)
        *profile = g_bytes_new (e + 4 + word, (gsize) length);
      else
        *profile = read_bytes (src, gs_tiff_get (&t, e + 4 + word, word),
                               length);
      if (*profile == NULL)
        {
          set_damaged (error, _("truncated"));
          return FALSE;
        }
      return TRUE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* WebP                                                                */
/* ------------------------------------------------------------------ */

static gboolean
read_webp (const Source *src,
           GBytes      **profile,
           GError      **error)
{
  guint64 offset = 12;

  for (;;)
    {
      guint8  head[8];
      guint32 length;

      if (! read_at (src, offset, 8, head))
        return TRUE;
      length = le32 (head + 4);
      if (memcmp (head, "ICCP", 4) == 0)
        {
          *profile = read_bytes (src, offset + 8, length);
          if (*profile == NULL)
            set_damaged (error, _("truncated ICCP chunk"));
          return *profile != NULL;
        }
      offset += 8 + (guint64) length + (length & 1);
    }
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static gboolean
read_source (const Source *src,
             GBytes      **profile,
             GError      **error)
{
  guint8 head[16] = { 0 };
  gsize  n = (gsize) MIN (src->size, sizeof head);

  *profile = NULL;
  if (! read_at (src, 0, n, head))
    return TRUE;
  switch (gs_file_kind_of_data (head, n))
    {
    case GS_FILE_KIND_PNG:  return read_png (src, profile, error);
    case GS_FILE_KIND_JPEG: return read_jpeg (src, profile, error);
    case GS_FILE_KIND_TIFF: return read_tiff (src, profile, error);
    case GS_FILE_KIND_WEBP: return read_webp (src, profile, error);
    default:                return TRUE;
    }
}

gboolean
gs_icc_read_data (const guint8 *data,
                  gsize         length,
                  GBytes      **profile,
                  GError      **error)
{
  Source src = { -1, data, length };

  return read_source (&src, profile, error);
}

gboolean
gs_icc_read_file (const char *path,
                  GBytes    **profile,
                  GError    **error)
{
  struct stat st;
  Source      src;
  GError     *local = NULL;
  gboolean    ok;
  int         fd;

  *profile = NULL;
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_OPEN,
                   _("cannot open '%s': %s"), path, g_strerror (saved));
      if (fd >= 0)
        close (fd);
      return FALSE;
    }
  src.fd = fd;
  src.data = NULL;
  src.size = S_ISREG (st.st_mode) ? (guint64) st.st_size : 0;
  ok = read_source (&src, profile, &local);
  close (fd);
  if (! ok)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   "'%s': %s", path, local->message);
      g_error_free (local);
    }
  return ok;
}

char *
gs_icc_description (GBytes *profile)
{
  gsize  length;
  const char *data;
  char  *text, *copy;

  if (profile == NULL)
    return NULL;
  data = g_bytes_get_data (profile, &length);
  if (length > G_MAXINT)
    return NULL;
  text = babl_icc_get_key (data, (int) length, "description", NULL, NULL);
  if (text == NULL)
    return NULL;
  copy = g_utf8_make_valid (text, -1);
  free (text);
  return copy;
}
